// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_object.c - the profiler's BPF object, up and down (see
 * profile_object.h). A perf event per CPU: the sampler runs from each
 * CPU's clock, at HK_PROF_FREQ_HZ; the off-CPU program from sched_switch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "profile_object.h"
#include "shared/profile.h"	/* before the skeleton: its .bss uses it */
#include "profile.skel.h"

void hk_profile_object__down(struct hk_profile_object *p)
{
	int i;

	for (i = 0; p->links && i <= p->nr_cpus; i++)
		bpf_link__destroy(p->links[i]);
	for (i = 0; p->perf_fds && i < p->nr_cpus; i++)
		if (p->perf_fds[i] >= 0)
			close(p->perf_fds[i]);
	free(p->links);
	free(p->perf_fds);
	p->links = NULL;
	p->perf_fds = NULL;
	profile_bpf__destroy(p->skel);
	p->skel = NULL;
}

/* A CPU clock on every CPU, sampling at HK_PROF_FREQ_HZ. */
static int perf_open(int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = HK_PROF_FREQ_HZ,
	};

	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int hk_profile_object__up(struct hk_profile_object *p, char *err, size_t err_len)
{
	int i, n = 0, e;

	p->nr_cpus = libbpf_num_possible_cpus();
	if (p->nr_cpus <= 0) {
		snprintf(err, err_len, "cannot count the CPUs: %s", strerror(-p->nr_cpus));
		return -1;
	}
	p->skel = profile_bpf__open_and_load();
	if (!p->skel) {
		snprintf(err, err_len, "cannot load the profiler's BPF programs: %s",
			 strerror(errno));
		return -1;
	}
	p->links = calloc((size_t)p->nr_cpus + 1, sizeof(*p->links));
	p->perf_fds = malloc((size_t)p->nr_cpus * sizeof(*p->perf_fds));
	if (!p->links || !p->perf_fds) {
		snprintf(err, err_len, "out of memory");
		goto fail;
	}
	for (i = 0; i < p->nr_cpus; i++) {
		p->perf_fds[i] = perf_open(i);
		if (p->perf_fds[i] < 0) {
			/* a possible CPU that is not online has no clock */
			if (errno == ENODEV)
				continue;
			snprintf(err, err_len, "perf_event_open (CPU clock, CPU %d): %s", i,
				 strerror(errno));
			goto fail;
		}
		p->links[i] = bpf_program__attach_perf_event(p->skel->progs.hk_prof_sample,
							     p->perf_fds[i]);
		if (!p->links[i]) {
			e = errno;
			snprintf(err, err_len, "cannot attach the sampler to CPU %d: %s", i,
				 strerror(e));
			goto fail;
		}
		n++;
	}
	if (!n) {
		snprintf(err, err_len, "no CPU clock to sample with");
		goto fail;
	}
	p->links[p->nr_cpus] = bpf_program__attach(p->skel->progs.hk_prof_switch);
	if (!p->links[p->nr_cpus]) {
		snprintf(err, err_len, "cannot attach the off-CPU program to sched_switch: %s",
			 strerror(errno));
		goto fail;
	}
	return 0;
fail:
	hk_profile_object__down(p);
	return -1;
}


void hk_profile_object__target(struct hk_profile_object *o, int slot, __u32 tgid)
{
	if (o->skel && slot >= 0 && slot < HK_PROF_TARGETS)
		o->skel->bss->hk_prof_tgid[slot] = tgid;
}

__u64 hk_profile_object__losses(const struct hk_profile_object *o)
{
	return o->skel ? o->skel->bss->hk_prof_stats.stack_errors +
			 o->skel->bss->hk_prof_stats.keys_lost : 0;
}

int hk_profile_object__counts_fd(const struct hk_profile_object *o)
{
	return o->skel ? bpf_map__fd(o->skel->maps.hk_prof_counts) : -1;
}

int hk_profile_object__stacks_fd(const struct hk_profile_object *o)
{
	return o->skel ? bpf_map__fd(o->skel->maps.hk_prof_stacks) : -1;
}
