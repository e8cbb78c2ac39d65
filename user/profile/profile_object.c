// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_object.c - the profiler's BPF object, up and down (see
 * profile_object.h). A perf event per CPU: the sampler runs from each
 * CPU's clock, at HK_PROF_FREQ_HZ; the off-CPU program from sched_switch;
 * the memory program from rss_stat, attached only while a memory profile
 * samples: it fires on every page fault of every process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "profile_object.h"
#include "shared/profile.h"	/* before the skeleton: its .bss uses it */
#include "profile.skel.h"

void hk_profile_object__down(struct hk_profile_object *p)
{
	int i;

	bpf_link__destroy(p->rss_link);
	p->rss_link = NULL;

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

/*
 * The arguments of the kernel's rss_stat tracepoint, by its BTF: 3 before
 * 6.2 (mm, member, count), 2 since (mm, member); 0: no such tracepoint
 * (before 5.5) or no BTF. The func proto has the tracepoint's own
 * first argument (void *__data) besides.
 */
static int rss_stat_args(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	const struct btf_type *t;
	int id, n = 0;

	if (!vmlinux)
		return 0;
	id = btf__find_by_name_kind(vmlinux, "btf_trace_rss_stat", BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(vmlinux, id) : NULL;
	t = t ? btf__type_by_id(vmlinux, t->type) : NULL;		/* the pointer */
	t = t && btf_is_ptr(t) ? btf__type_by_id(vmlinux, t->type) : NULL;
	if (t && btf_is_func_proto(t))
		n = btf_vlen(t) - 1;
	btf__free(vmlinux);
	return n;
}

int hk_profile_object__up(struct hk_profile_object *p, char *err, size_t err_len)
{
	long page = sysconf(_SC_PAGESIZE);
	int i, n = 0, e;

	p->nr_cpus = libbpf_num_possible_cpus();
	if (p->nr_cpus <= 0) {
		snprintf(err, err_len, "cannot count the CPUs: %s", strerror(-p->nr_cpus));
		return -1;
	}
	p->skel = profile_bpf__open();
	if (!p->skel) {
		snprintf(err, err_len, "cannot open the profiler's BPF programs: %s",
			 strerror(errno));
		return -1;
	}
	if (page > 0)
		p->skel->rodata->hk_prof_page_bytes = (__u64)page;
	/* one of the two memory programs, by the tracepoint's arguments */
	p->rss_args = rss_stat_args();
	bpf_program__set_autoload(p->skel->progs.hk_prof_rss, p->rss_args == 2);
	bpf_program__set_autoload(p->skel->progs.hk_prof_rss_c, p->rss_args == 3);
	e = profile_bpf__load(p->skel);
	if (e) {
		snprintf(err, err_len, "cannot load the profiler's BPF programs: %s",
			 strerror(-e));
		goto fail;
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


void hk_profile_object__target(struct hk_profile_object *o, int slot, __u32 tgid, __u32 kind)
{
	if (!o->skel || slot < 0 || slot >= HK_PROF_TARGETS)
		return;
	/* a TGID reused since its last memory profile starts from its size now */
	if (tgid && kind == HK_PROF_MEMORY)
		bpf_map__delete_elem(o->skel->maps.hk_prof_sizes, &tgid, sizeof(tgid), 0);
	o->skel->bss->hk_prof_kind[slot] = kind;
	__sync_synchronize();
	o->skel->bss->hk_prof_tgid[slot] = tgid;
}

int hk_profile_object__memory(struct hk_profile_object *o, int on, char *err, size_t err_len)
{
	struct bpf_program *prog;

	if (!on) {
		bpf_link__destroy(o->rss_link);
		o->rss_link = NULL;
		return 0;
	}
	if (o->rss_link)
		return 0;
	if (!o->skel) {
		snprintf(err, err_len, "the profiler's BPF object is not loaded");
		return -1;
	}
	if (o->rss_args != 2 && o->rss_args != 3) {
		snprintf(err, err_len, "this kernel has no rss_stat tracepoint with BTF (5.5 on)");
		return -1;
	}
	prog = o->rss_args == 2 ? o->skel->progs.hk_prof_rss : o->skel->progs.hk_prof_rss_c;
	o->rss_link = bpf_program__attach(prog);
	if (!o->rss_link) {
		snprintf(err, err_len, "cannot attach the memory program to rss_stat: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

void hk_profile_object__mem_stats(const struct hk_profile_object *o, __u64 *events,
				  __u64 *grown_bytes)
{
	*events = o->skel ? o->skel->bss->hk_prof_stats.mem_events : 0;
	*grown_bytes = o->skel ? o->skel->bss->hk_prof_stats.mem_grown_bytes : 0;
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

int hk_profile_object__tops_fd(const struct hk_profile_object *o)
{
	return o->skel ? bpf_map__fd(o->skel->maps.hk_prof_tops) : -1;
}
