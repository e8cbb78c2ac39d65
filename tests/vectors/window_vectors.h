/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * window_vectors.h - synthetic windows and what must come out of them.
 *
 * One set of scenarios for both the CUnit reference pipeline
 * (tests/unit/test_classify.c) and the in-kernel hk_test_win program
 * (tests/bpf-prog-test/prog_test.c), so the two cannot drift apart.
 *
 * A scenario lists processes. Each process is sampled in the windows
 * [first, last]; its workload is given per window in phases (what the
 * process did during that window), and hkv_sample() turns phases into the
 * cumulative counters the walk would read. The expected committed label
 * and this window's match are given in ranges of windows; the events are
 * exact, per window, compared order-insensitively.
 *
 * Every expected number was worked out by hand from the rules in
 * include/shared/classify.h and DESIGN.md under hkv_config(): interval 1 s,
 * 2 CPUs, 16 GiB RAM, 4 KiB pages, every threshold at its default
 * (enter 2, exit 3, trend span 30 s with a trend sample every 4 windows
 * (stride 3785 ms), min trend 10 s, min growth 64 MiB, steady 75 %, ETA
 * horizon 900 s, major 100/s, unexplained minor 10 k/s, throttled 25 %,
 * starved 70 %, noisy 50 %, thread 90 %, total 50 %, max faults 1000/s).
 * tests/unit/test_classify.c pins these values ("config under test"): if
 * a default moves, that test says which, and the vectors need a look.
 * With 1 s windows: cpu_pct_x100 = on-CPU ms * 10, faults/s = faults.
 * The trend follows anonymous pages, resident (rss_pages of a load) or
 * swapped out (swap_pages); file_pages grow RSS only.
 */
#ifndef HK_TESTS_WINDOW_VECTORS_H
#define HK_TESTS_WINDOW_VECTORS_H

#include <string.h>
#include "shared/hotspot.h"
#include "config/config.h"

#define HKV_PAGE	4096ULL
#define HKV_T0_NS	(1000 * HK_NSEC_PER_SEC)	/* time of window 1 */

#define HKV_MAX_PROCS	8	/* processes in a scenario (recycled PIDs count twice) */
#define HKV_MAX_PHASES	16
#define HKV_MAX_EXPECT	8
#define HKV_MAX_EVENTS	12
#define HKV_MAX_EXITS	4
#define HKV_MAX_CHECKS	16
#define HKV_MAX_WINDOWS	48

/* The one config both suites run the vectors under. */
static inline void hkv_config(struct hk_config *c)
{
	hk_config__defaults(c);
	c->interval_ns = HK_NSEC_PER_SEC;
	c->nr_cpus = 2;
	c->total_ram_bytes = 16 * HK_GIB;
	c->page_size_bytes = HKV_PAGE;
	hk_config__derive(c);
}

/* What a process does during one window. */
struct hkv_load {
	__u64 run_ns;			/* all threads, on a CPU */
	__u64 thread_run_ns;		/* the busiest thread */
	__u64 thread_queued_ns;		/* ... its run-queue wait, 0: wait_ns
					 * for one thread */
	__u64 wait_ns;			/* run-queue wait */
	__u64 thread_wait_ns;		/* the thread that waited most,
					 * 0: wait_ns (one thread) */
	__u64 throttled_ns;		/* its cgroups' quota throttling */
	__u64 io_ns;			/* blocked on I/O, all threads */
	__u64 thread_io_ns;		/* the thread blocked longest, 0:
					 * io_ns (one thread) */
	__u32 io_acct;			/* the kernel counts I/O bytes ... */
	__u32 io_stuck;			/* ... threads asleep uninterruptibly
					 * in I/O wait at the walk */
	__u64 io_bytes;			/* ... bytes moved */
	__u64 minor_faults;
	__u64 major_faults;
	__u64 nvcsw;
	__u64 nivcsw;
	__s64 rss_pages;		/* anon RSS change */
	__s64 swap_pages;		/* anon swapped out: change */
	__u64 mem_stall_ns;		/* the thread stalled on memory longest */
	__s64 file_pages;		/* file-backed RSS change */
	__u32 nr_threads;
	__u32 aggressor_tgid;
	__u32 aggressor_switches;
	__u64 limit_bytes;		/* memory cgroup limit, 0: none (RAM) */
	__u64 memcg_other_bytes;	/* the cgroup's usage besides us */
	/* the memory.high that binds (0: none), its cgroup's usage and page
	 * cache, and its memory.events "high" counted in this window */
	__u64 mem_high_bytes;
	__u64 mem_high_usage_bytes;
	__u64 mem_high_file_bytes;
	__u64 mem_high_events;
	__u32 mem_stalled;		/* its newest thread in a memory stall */
	__u64 lost_ns;			/* steal + IRQ time of the busiest
					 * thread's CPU */
	/* what the thread that waited most asked for */
	__s32 wait_nice;
	__u32 wait_policy;
	__u32 wait_group_weight;
	__u32 wait_group_idle;
};

struct hkv_phase {
	__u32 from, to;			/* windows, inclusive */
	struct hkv_load load;
};

struct hkv_expect {
	__u32 from, to;			/* windows, inclusive */
	__u32 label;			/* committed after the window */
	__u32 match;			/* the window's diagnosis */
};

struct hkv_proc {
	__u32 tgid;
	const char *comm;
	__u64 start_time_ns;
	__u32 first, last;		/* windows it is sampled in */
	__u32 fresh;			/* born in its first window: measured
					 * from start_time_ns */
	__u32 quiet_from, quiet_to;	/* windows the walk skips it as quiet:
					 * not sampled, its counters still */
	/* cumulative counters at its first sample */
	__u64 runtime_ns;
	__u64 minor_faults;
	__u64 major_faults;
	__u64 nvcsw;
	__u64 nivcsw;
	__u64 rss_pages;
	struct hkv_phase phase[HKV_MAX_PHASES];
	struct hkv_expect expect[HKV_MAX_EXPECT];
};

struct hkv_event {
	__u32 window;
	__u32 tgid;
	__u32 from;
	__u32 to;
};

/* exit_tgid of a window; the entry must be gone after it. */
struct hkv_exit {
	__u32 window;
	__u32 tgid;
};

enum hkv_field {
	HKV_F_NONE = 0,
	HKV_F_CPU,		/* cpu_pct_x100 */
	HKV_F_THREAD_CPU,	/* thread_cpu_pct_x100 */
	HKV_F_WAIT,		/* wait_pct_x100 */
	HKV_F_MINOR,		/* minor_faults_per_s */
	HKV_F_MAJOR,		/* major_faults_per_s */
	HKV_F_UNEXPLAINED,	/* unexplained_faults_per_s */
	HKV_F_VCSW,		/* vcsw_per_s */
	HKV_F_RSS_GROWTH,	/* rss_growth_bytes_per_s */
	HKV_F_SLOPE,		/* rss_slope_bytes_per_s */
	HKV_F_NET_GROWTH,	/* rss_net_growth_bytes */
	HKV_F_SAMPLES,		/* trend_samples */
	HKV_F_GROW_PCT,		/* trend_grow_pct_x100 */
	HKV_F_TREND_MS,		/* rss_trend_ms */
	HKV_F_LIMIT_KIND,
	HKV_F_LIMIT,		/* limit_bytes */
	HKV_F_HEADROOM,		/* headroom_bytes */
	HKV_F_ETA,		/* eta_s */
	HKV_F_AGGRESSOR,	/* aggressor_tgid */
	HKV_F_VICTIM,		/* victim_tgid */
	HKV_F_VICTIM_SW,	/* victim_switches */
	HKV_F_THREAD_QUEUED,	/* thread_queued_pct_x100 */
	HKV_F_THREAD_WAIT,	/* thread_wait_pct_x100 */
	HKV_F_THROTTLED,	/* throttled_pct_x100 */
	HKV_F_RSS,		/* rss_bytes */
	HKV_F_ANON,		/* rss_anon_bytes */
	HKV_F_WINDOW,		/* window_ns */
	HKV_F_VICTIM_STARVED,	/* victim_starved */
	HKV_F_IO,		/* io_pct_x100 */
	HKV_F_THREAD_IO,	/* thread_io_pct_x100 */
	HKV_F_MEM_HIGH_EPS,	/* mem_high_events_per_s */
	HKV_F_MEM_HIGH,		/* mem_high_bytes */
	HKV_F_CPU_LOST,		/* cpu_lost_pct_x100 */
	HKV_F_WAIT_NICE,	/* wait_nice */
	HKV_F_VICTIM_DEPRIO,	/* victim_deprioritised */
	HKV_F_IO_BYTES,		/* io_bytes_per_s */
	HKV_F_SWAP,		/* swap_bytes */
	HKV_F_MEM_STALL,	/* mem_stall_pct_x100 */
	HKV_F_STALLED,		/* thrash_stalled */
	HKV_F_GROWING,		/* rss_growing_ms */
};

/* One hand-computed evidence value, read after the window ends. */
struct hkv_check {
	__u32 window;
	__u32 tgid;
	__u32 field;			/* enum hkv_field */
	__s64 value;
};

struct hkv_vector {
	const char *name;
	__u32 nr_windows;
	struct hkv_proc procs[HKV_MAX_PROCS];	/* in the walk's order */
	struct hkv_exit exits[HKV_MAX_EXITS];
	struct hkv_event events[HKV_MAX_EVENTS];
	struct hkv_check checks[HKV_MAX_CHECKS];
	/* ms after window 1 that window w closes at; 0: (w - 1) s */
	__u32 at_ms[HKV_MAX_WINDOWS + 1];
	/* oom_risk.eta_floor for this vector; 0: the default. The vectors
	 * of 40 MB/s leaks 439 s from 16 GiB test the trend, precedence and
	 * exits: with the floor at the horizon, min_trend is evidence
	 * enough for them, as before evidence grew with the time left */
	__u64 eta_floor_s;
};

/* The config a vector runs under: hkv_config's, and its own floor. */
static inline void hkv_vector_config(const struct hkv_vector *v, struct hk_config *c)
{
	hkv_config(c);
	if (v->eta_floor_s)
		c->oom_eta_floor_s = v->eta_floor_s;
}

static inline const char *hkv_field_name(__u32 f)
{
	static const char *const names[] = {
		"none", "cpu_pct_x100", "thread_cpu_pct_x100", "wait_pct_x100",
		"minor_faults_per_s", "major_faults_per_s",
		"unexplained_faults_per_s", "vcsw_per_s",
		"rss_growth_bytes_per_s", "rss_slope_bytes_per_s",
		"rss_net_growth_bytes", "trend_samples", "trend_grow_pct_x100",
		"rss_trend_ms", "limit_kind", "limit_bytes",
		"headroom_bytes", "eta_s", "aggressor_tgid", "victim_tgid",
		"victim_switches", "thread_queued_pct_x100",
		"thread_wait_pct_x100", "throttled_pct_x100", "rss_bytes",
		"rss_anon_bytes", "window_ns", "victim_starved",
		"io_pct_x100", "thread_io_pct_x100", "mem_high_events_per_s",
		"mem_high_bytes", "cpu_lost_pct_x100",
		"wait_nice", "victim_deprioritised", "io_bytes_per_s",
		"swap_bytes", "mem_stall_pct_x100", "thrash_stalled",
		"rss_growing_ms",
	};

	return f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

static inline __s64 hkv_field_get(const struct hk_evidence *ev, __u32 f)
{
	switch (f) {
	case HKV_F_CPU:		return ev->cpu_pct_x100;
	case HKV_F_IO:		return ev->io_pct_x100;
	case HKV_F_THREAD_IO:	return ev->thread_io_pct_x100;
	case HKV_F_IO_BYTES:	return (__s64)ev->io_bytes_per_s;
	case HKV_F_SWAP:	return (__s64)ev->swap_bytes;
	case HKV_F_MEM_STALL:	return ev->mem_stall_pct_x100;
	case HKV_F_STALLED:	return ev->thrash_stalled;
	case HKV_F_GROWING:	return ev->rss_growing_ms;
	case HKV_F_THREAD_CPU:	return ev->thread_cpu_pct_x100;
	case HKV_F_WAIT:	return ev->wait_pct_x100;
	case HKV_F_MINOR:	return (__s64)ev->minor_faults_per_s;
	case HKV_F_MAJOR:	return (__s64)ev->major_faults_per_s;
	case HKV_F_UNEXPLAINED:	return (__s64)ev->unexplained_faults_per_s;
	case HKV_F_VCSW:	return (__s64)ev->vcsw_per_s;
	case HKV_F_RSS_GROWTH:	return ev->rss_growth_bytes_per_s;
	case HKV_F_SLOPE:	return ev->rss_slope_bytes_per_s;
	case HKV_F_NET_GROWTH:	return ev->rss_net_growth_bytes;
	case HKV_F_SAMPLES:	return ev->trend_samples;
	case HKV_F_GROW_PCT:	return ev->trend_grow_pct_x100;
	case HKV_F_TREND_MS:	return (__s64)ev->rss_trend_ms;
	case HKV_F_LIMIT_KIND:	return ev->limit_kind;
	case HKV_F_LIMIT:	return (__s64)ev->limit_bytes;
	case HKV_F_HEADROOM:	return (__s64)ev->headroom_bytes;
	case HKV_F_ETA:		return (__s64)ev->eta_s;
	case HKV_F_AGGRESSOR:	return ev->aggressor_tgid;
	case HKV_F_VICTIM:	return ev->victim_tgid;
	case HKV_F_VICTIM_SW:	return ev->victim_switches;
	case HKV_F_THREAD_QUEUED: return ev->thread_queued_pct_x100;
	case HKV_F_THREAD_WAIT:	return ev->thread_wait_pct_x100;
	case HKV_F_THROTTLED:	return ev->throttled_pct_x100;
	case HKV_F_RSS:		return (__s64)ev->rss_bytes;
	case HKV_F_ANON:	return (__s64)ev->rss_anon_bytes;
	case HKV_F_WINDOW:	return (__s64)ev->window_ns;
	case HKV_F_VICTIM_STARVED: return ev->victim_starved;
	case HKV_F_MEM_HIGH_EPS: return (__s64)ev->mem_high_events_per_s;
	case HKV_F_MEM_HIGH:	return (__s64)ev->mem_high_bytes;
	case HKV_F_CPU_LOST:	return ev->cpu_lost_pct_x100;
	case HKV_F_WAIT_NICE:	return ev->wait_nice;
	case HKV_F_VICTIM_DEPRIO: return ev->victim_deprioritised;
	}
	return -1;
}

static inline const char *hkv_label_name(__u32 l)
{
	static const char *const names[HK_NR_LABELS] = {
		"OK", "OOM risk", "Mem-thrashing", "Throttled", "Starved",
		"Noisy neighbor", "I/O-blocked", "CPU-bound", "Mem-throttled",
		"exited", "OOM killed",
	};

	return l < HK_NR_LABELS ? names[l] : "?";
}

/* --- generator ----------------------------------------------------------- */

static inline int hkv_alive(const struct hkv_proc *p, __u32 w)
{
	return p->tgid && w >= p->first && w <= p->last;
}

/* Sampled in window w: alive, and not skipped as quiet. */
static inline int hkv_active(const struct hkv_proc *p, __u32 w)
{
	return hkv_alive(p, w) && (w < p->quiet_from || w > p->quiet_to);
}

/* The workload of window w; all zero where no phase covers it. */
static inline const struct hkv_load *hkv_load_at(const struct hkv_proc *p, __u32 w)
{
	static const struct hkv_load none;
	int i;

	for (i = 0; i < HKV_MAX_PHASES && p->phase[i].from; i++)
		if (w >= p->phase[i].from && w <= p->phase[i].to)
			return &p->phase[i].load;
	return &none;
}

static inline const struct hkv_expect *hkv_expect_at(const struct hkv_proc *p, __u32 w)
{
	int i;

	for (i = 0; i < HKV_MAX_EXPECT && p->expect[i].from; i++)
		if (w >= p->expect[i].from && w <= p->expect[i].to)
			return &p->expect[i];
	return NULL;
}

static inline __u64 hkv_now_ns(const struct hkv_vector *v, __u32 w)
{
	if (w <= HKV_MAX_WINDOWS && v->at_ms[w])
		return HKV_T0_NS + (__u64)v->at_ms[w] * HK_NSEC_PER_MSEC;
	return HKV_T0_NS + (__u64)(w - 1) * HK_NSEC_PER_SEC;
}

/* What the walk would sum for process p at the end of window w. */
static inline void hkv_sample(const struct hkv_vector *v, const struct hkv_proc *p,
			      __u32 w, struct hk_sample *s)
{
	const struct hkv_load *l = hkv_load_at(p, w);
	__s64 anon = (__s64)p->rss_pages, file = 0, swap = 0;
	__u32 nr = l->nr_threads ? l->nr_threads : 1;
	__u64 used;
	size_t n;
	__u32 k;

	memset(s, 0, sizeof(*s));
	s->now_ns = hkv_now_ns(v, w);
	s->start_time_ns = p->start_time_ns;
	s->fresh = p->fresh && w == p->first;
	/* skipped as quiet in the walks before: its counters did not move
	 * until the previous walk */
	if (p->quiet_to && w == p->quiet_to + 1)
		s->quiet_until_ns = hkv_now_ns(v, w - 1);
	s->runtime_ns = p->runtime_ns;
	s->minor_faults = p->minor_faults;
	s->major_faults = p->major_faults;
	s->nvcsw = p->nvcsw;
	s->nivcsw = p->nivcsw;
	for (k = p->first + 1; k <= w; k++) {
		const struct hkv_load *d = hkv_load_at(p, k);

		s->runtime_ns += d->run_ns;
		s->minor_faults += d->minor_faults;
		s->major_faults += d->major_faults;
		s->nvcsw += d->nvcsw;
		s->nivcsw += d->nivcsw;
		s->throttled_ns += d->throttled_ns;
		s->mem_high_events += d->mem_high_events;
		anon += d->rss_pages;
		file += d->file_pages;
		swap += d->swap_pages;
	}
	/* a process born in its first window brings what it did then */
	if (p->fresh) {
		const struct hkv_load *d = hkv_load_at(p, p->first);

		s->runtime_ns += d->run_ns;
		s->minor_faults += d->minor_faults;
		s->major_faults += d->major_faults;
		s->nvcsw += d->nvcsw;
		s->nivcsw += d->nivcsw;
	}
	s->anon_pages = anon > 0 ? (__u64)anon : 0;
	s->rss_pages = s->anon_pages + (file > 0 ? (__u64)file : 0);
	s->swap_pages = swap > 0 ? (__u64)swap : 0;
	s->thread_mem_stall_delta_ns = l->mem_stall_ns;
	s->mem_stall_tid = l->mem_stall_ns ? p->tgid : 0;
	s->wait_delta_ns = l->wait_ns;
	s->io_delta_ns = l->io_ns;
	s->thread_io_delta_ns = l->thread_io_ns ? l->thread_io_ns : l->io_ns;
	s->io_tid = l->io_ns ? p->tgid : 0;
	s->io_delta_bytes = l->io_bytes;
	s->io_bytes_known = l->io_acct;
	s->io_stuck_threads = l->io_stuck;
	s->thread_wait_delta_ns = l->thread_wait_ns ? l->thread_wait_ns : l->wait_ns;
	s->wait_tid = p->tgid;
	s->thread_run_delta_ns = l->thread_run_ns;
	s->thread_queued_delta_ns = l->thread_queued_ns ? l->thread_queued_ns :
				    nr == 1 ? l->wait_ns : 0;
	s->thread_tid = p->tgid;
	s->nr_threads = nr;
	s->aggressor_tgid = l->aggressor_tgid;
	s->aggressor_switches = l->aggressor_switches;
	s->cpu_lost_delta_ns = l->lost_ns;
	s->wait_nice = l->wait_nice;
	s->wait_policy = l->wait_policy;
	s->wait_group_weight = l->wait_group_weight;
	s->wait_group_idle = l->wait_group_idle;
	s->ns_pid = p->tgid;
	if (l->limit_bytes) {
		used = l->memcg_other_bytes + s->anon_pages * HKV_PAGE;
		s->limit_kind = HK_LIMIT_MEMCG;
		s->limit_bytes = l->limit_bytes;
		s->headroom_bytes = l->limit_bytes > used ? l->limit_bytes - used : 0;
		s->memcg_id = 4242;
	}
	if (l->mem_high_bytes) {
		s->mem_high_bytes = l->mem_high_bytes;
		s->mem_high_usage_bytes = l->mem_high_usage_bytes;
		s->mem_high_file_bytes = l->mem_high_file_bytes;
		s->mem_high_cgroup_id = 4343;
	}
	s->mem_stalled = l->mem_stalled;
	n = strlen(p->comm);
	if (n > HK_COMM_LEN - 1)
		n = HK_COMM_LEN - 1;
	memcpy(s->comm, p->comm, n);
}

/*
 * Fill one hk_test_window for window w: the processes sampled in w in
 * scenario order. idx[i] names the scenario process of slot i. Returns
 * the number of processes, or -1 when more than HK_TEST_PROCS.
 */
static inline int hkv_window(const struct hkv_vector *v, __u32 w,
			     struct hk_test_window *tw, int idx[HK_TEST_PROCS])
{
	__u32 n = 0;
	int i;

	memset(tw, 0, sizeof(*tw));
	for (i = 0; i < HKV_MAX_EXITS && v->exits[i].window; i++)
		if (v->exits[i].window == w)
			tw->exit_tgid = v->exits[i].tgid;
	for (i = 0; i < HKV_MAX_PROCS; i++) {
		if (!hkv_active(&v->procs[i], w))
			continue;
		if (n >= HK_TEST_PROCS)
			return -1;
		idx[n] = i;
		tw->tgid[n] = v->procs[i].tgid;
		hkv_sample(v, &v->procs[i], w, &tw->sample[n]);
		n++;
	}
	tw->nr_procs = n;
	return (int)n;
}

/*
 * Must the entry of tgid be gone after window w? When an exit of it is
 * queued in w and no process of that TGID is sampled in w (a recycled PID
 * sampled in the same window keeps the new entry).
 */
static inline int hkv_gone_after(const struct hkv_vector *v, __u32 w, __u32 tgid)
{
	int i, exits = 0;

	for (i = 0; i < HKV_MAX_EXITS && v->exits[i].window; i++)
		exits |= v->exits[i].window == w && v->exits[i].tgid == tgid;
	for (i = 0; i < HKV_MAX_PROCS && exits; i++)
		if (v->procs[i].tgid == tgid && hkv_alive(&v->procs[i], w))
			return 0;
	return exits;
}

/* The scenario process with this tgid and start time, or NULL. */
static inline const struct hkv_proc *hkv_find(const struct hkv_vector *v,
					      __u32 tgid, __u64 start_time_ns)
{
	int i;

	for (i = 0; i < HKV_MAX_PROCS; i++)
		if (v->procs[i].tgid == tgid &&
		    v->procs[i].start_time_ns == start_time_ns)
			return &v->procs[i];
	return NULL;
}

/* --- workloads ------------------------------------------------------------ */

#define HKV_PH(f, t, ...)	{ .from = (f), .to = (t), .load = { __VA_ARGS__ } }
#define HKV_EX(f, t, l, m)	{ .from = (f), .to = (t), .label = (l), .match = (m) }

/* asleep: 1 ms on a CPU (cpu 10), a few wakeups */
#define HKV_IDLE	.run_ns = 1 * HK_NSEC_PER_MSEC, .thread_run_ns = 1 * HK_NSEC_PER_MSEC, .nvcsw = 10
/* `yes`: one thread at 99 % of a CPU (9900), run delay 2 % (200) */
#define HKV_SPIN	.run_ns = 990 * HK_NSEC_PER_MSEC, .thread_run_ns = 990 * HK_NSEC_PER_MSEC, \
			.wait_ns = 20 * HK_NSEC_PER_MSEC, .nivcsw = 5
/* a busy loop at 98 % (9800) that preempts others, run delay 1 % */
#define HKV_HOG		.run_ns = 980 * HK_NSEC_PER_MSEC, .thread_run_ns = 980 * HK_NSEC_PER_MSEC, \
			.wait_ns = 10 * HK_NSEC_PER_MSEC, .nivcsw = 20
/* pinned behind a hog: runs 1 % (100), waits 97 % (9700) */
#define HKV_VICTIM(aggr, votes) \
			.run_ns = 10 * HK_NSEC_PER_MSEC, .thread_run_ns = 10 * HK_NSEC_PER_MSEC, \
			.wait_ns = 970 * HK_NSEC_PER_MSEC, .nivcsw = (votes), \
			.aggressor_tgid = (aggr), .aggressor_switches = (votes)
/* the 40 MB/s leak: 9.7 k minor faults/s, RSS +9280 pages/s (38 MB/s) */
#define HKV_LEAK	.run_ns = 30 * HK_NSEC_PER_MSEC, .thread_run_ns = 30 * HK_NSEC_PER_MSEC, \
			.minor_faults = 9700, .rss_pages = 9280, .nvcsw = 50
/* a buffer filling at 50 MiB/s (12800 pages/s), a leak at 80 MiB/s */
#define HKV_FILL	.run_ns = 40 * HK_NSEC_PER_MSEC, .thread_run_ns = 40 * HK_NSEC_PER_MSEC, \
			.minor_faults = 12800, .rss_pages = 12800
#define HKV_LEAK80	.run_ns = 60 * HK_NSEC_PER_MSEC, .thread_run_ns = 60 * HK_NSEC_PER_MSEC, \
			.minor_faults = 20480, .rss_pages = 20480
/* a leak in bursts: 72.5 MiB in one window, nothing in the next, in a
 * memory cgroup limited to 1 GiB (nobody else in it) */
#define HKV_BURST	.run_ns = 30 * HK_NSEC_PER_MSEC, .thread_run_ns = 30 * HK_NSEC_PER_MSEC, \
			.minor_faults = 18560, .rss_pages = 18560, \
			.limit_bytes = HK_GIB
#define HKV_LULL	.run_ns = 10 * HK_NSEC_PER_MSEC, .thread_run_ns = 10 * HK_NSEC_PER_MSEC, \
			.limit_bytes = HK_GIB

/* held at a memory.high of 64 MiB (usage 66 MiB, no page cache): a
 * window with a THP fault and 17 "high" events, and one asleep */
#define HKV_HELD_ACTIVE	.run_ns = 5 * HK_NSEC_PER_MSEC, .thread_run_ns = 5 * HK_NSEC_PER_MSEC, \
			.minor_faults = 1, .rss_pages = 512, .nvcsw = 1, \
			.mem_high_bytes = 64 * HK_MIB, .mem_high_usage_bytes = 66 * HK_MIB, \
			.mem_high_events = 17
#define HKV_HELD_ASLEEP	.mem_high_bytes = 64 * HK_MIB, .mem_high_usage_bytes = 66 * HK_MIB

#define OK	HK_OK
#define OOM	HK_OOM_RISK
#define MT	HK_MEM_THRASHING
#define THR	HK_THROTTLED
#define ST	HK_STARVED
#define NN	HK_NOISY_NEIGHBOR
#define IO	HK_IO_BLOCKED
#define CPU	HK_CPU_BOUND
#define MTH	HK_MEM_THROTTLED
#define EXIT	HK_EXITED

static const struct hkv_vector hkv_vectors[] = {
#include "vectors_cpu.inc"
#include "vectors_mem.inc"
#include "vectors_oom.inc"
#include "vectors_life.inc"
#include "vectors_io.inc"
};

#undef OK
#undef OOM
#undef MT
#undef THR
#undef ST
#undef NN
#undef IO
#undef CPU
#undef MTH
#undef EXIT

#define HKV_NR_VECTORS (sizeof(hkv_vectors) / sizeof(hkv_vectors[0]))

#endif /* HK_TESTS_WINDOW_VECTORS_H */
