// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profiler.c - the profiles running, and the BPF object they share.
 *
 * The object (bpf/profile.bpf.c) is loaded and attached with the first
 * profile and destroyed with the last one: with nothing profiled, no
 * program of it runs and no perf event ticks. A profile's end reads its
 * counts out (profile_write.c) and frees its slot.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "shared/profile.h"	/* before the skeleton: its .bss uses it */
#include "profile.skel.h"
#include "profiler.h"
#include "profile_write.h"
#include "shared/units.h"

struct profile {
	__u32 pid;			/* 0: a free slot */
	const char *label;
	__u64 start_ns, end_ns;		/* CLOCK_MONOTONIC */
	char prefix[HK_PROFILE_PATH_MAX];
	struct hk_profile_syms *syms;	/* its address space, as of the start */
};

struct hk_profiler {
	struct profile_bpf *skel;
	struct bpf_link **links;	/* one per CPU's clock, then the switch */
	int *perf_fds;
	int nr_cpus;
	struct profile slot[HK_PROF_TARGETS];
	hk_profile_done_fn done;
	void *ctx;
};

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

struct hk_profiler *hk_profiler__new(hk_profile_done_fn done, void *ctx)
{
	struct hk_profiler *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->done = done;
	p->ctx = ctx;
	return p;
}

/* Detach and unload: nothing of the profiler runs any more. */
static void object_down(struct hk_profiler *p)
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

static int object_up(struct hk_profiler *p, char *err, size_t err_len)
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
	object_down(p);
	return -1;
}

int hk_profiler__count(const struct hk_profiler *p)
{
	int i, n = 0;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		n += p->slot[i].pid != 0;
	return n;
}

const char *hk_profiler__comm(const struct hk_profiler *p, __u32 pid)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (pid && p->slot[i].pid == pid)
			return hk_profile_syms__comm(p->slot[i].syms);
	return NULL;
}

int hk_profiler__active(const struct hk_profiler *p, __u32 pid)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (pid && p->slot[i].pid == pid)
			return 1;
	return 0;
}

int hk_profiler__start(struct hk_profiler *p, __u32 pid, const char *label,
		       __u64 duration_ns, const char *dir, char *prefix, size_t prefix_len,
		       char *err, size_t err_len)
{
	struct profile *s = NULL;
	int i, n;

	if (hk_profiler__active(p, pid)) {
		snprintf(err, err_len, "pid %u is being profiled already", pid);
		return -1;
	}
	for (i = 0; i < HK_PROF_TARGETS && !s; i++)
		if (!p->slot[i].pid)
			s = &p->slot[i];
	if (!s) {
		snprintf(err, err_len, "%d profiles run already (the most at once)",
			 HK_PROF_TARGETS);
		return -1;
	}
	n = hk_profile__prefix(s->prefix, sizeof(s->prefix), dir, pid, label, time(NULL));
	if (n < 0 || (size_t)n >= sizeof(s->prefix)) {
		snprintf(err, err_len, "--profile-dir %s: path too long", dir);
		return -1;
	}
	s->syms = hk_profile_syms__open(pid, err, err_len);
	if (!s->syms)
		return -1;
	if (!p->skel && object_up(p, err, err_len)) {
		hk_profile_syms__close(s->syms);
		s->syms = NULL;
		return -1;
	}
	s->pid = pid;
	s->label = label;
	s->start_ns = mono_ns();
	s->end_ns = s->start_ns + duration_ns;
	p->skel->bss->hk_prof_tgid[s - p->slot] = pid;
	snprintf(prefix, prefix_len, "%s", s->prefix);
	return 0;
}

int hk_profiler__timeout_ms(const struct hk_profiler *p)
{
	__u64 now = mono_ns(), next = 0;
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (p->slot[i].pid && (!next || p->slot[i].end_ns < next))
			next = p->slot[i].end_ns;
	if (!next)
		return -1;
	/* its process may exit before: look again every 200 ms */
	return next <= now ? 0 : (int)((next - now) / HK_NSEC_PER_MSEC > 200 ? 200 :
				       (next - now + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

/* Read out, write, report, free the slot; the object goes with the last. */
static void finish(struct hk_profiler *p, struct profile *s, int exited)
{
	struct hk_profile_result r = { .pid = s->pid, .label = s->label, .exited = exited };

	p->skel->bss->hk_prof_tgid[s - p->slot] = 0;
	r.duration_ns = mono_ns() - s->start_ns;
	snprintf(r.prefix, sizeof(r.prefix), "%s", s->prefix);
	hk_profile__write(p->skel, s->syms, &r);
	hk_profile_syms__close(s->syms);
	memset(s, 0, sizeof(*s));
	if (!hk_profiler__count(p))
		object_down(p);
	if (p->done)
		p->done(p->ctx, &r);
}

/* Has pid ended? A zombie has: its threads are gone, nothing more comes. */
static int pid_gone(__u32 pid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "PID (COMM) S ...": the comm may hold ')' */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

void hk_profiler__poll(struct hk_profiler *p)
{
	__u64 now = mono_ns();
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++) {
		if (!p->slot[i].pid)
			continue;
		if (pid_gone(p->slot[i].pid))
			finish(p, &p->slot[i], 1);
		else if (now >= p->slot[i].end_ns)
			finish(p, &p->slot[i], 0);
	}
}

void hk_profiler__stop(struct hk_profiler *p, __u32 pid)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (pid && p->slot[i].pid == pid)
			finish(p, &p->slot[i], 1);
}

void hk_profiler__stop_all(struct hk_profiler *p)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (p->slot[i].pid)
			finish(p, &p->slot[i], 0);
}

void hk_profiler__free(struct hk_profiler *p)
{
	if (!p)
		return;
	hk_profiler__stop_all(p);
	object_down(p);
	free(p);
}
