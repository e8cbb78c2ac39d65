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
 * (enter 2, exit 3, trend span 30 s so a trend sample every 4 windows,
 * min growth 64 MiB, min RSS 1 GiB or 50 % of the limit, steady 75 %,
 * ETA horizon 900 s, major 100/s, unexplained minor 10 k/s, starved 75 %,
 * noisy 50 %, thread 90 %, total 50 %, max faults 1000/s, max wait 25 %).
 * tests/unit/test_classify.c pins these values ("config under test"): if
 * a default moves, that test says which, and the vectors need a look.
 * With 1 s windows: cpu_pct_x100 = on-CPU ms * 10, faults/s = faults.
 */
#ifndef HK_TESTS_WINDOW_VECTORS_H
#define HK_TESTS_WINDOW_VECTORS_H

#include <string.h>
#include "shared/hotspot.h"
#include "config.h"

#define HKV_MS		1000000ULL
#define HKV_S		1000000000ULL
#define HKV_MIB		(1ULL << 20)
#define HKV_GIB		(1ULL << 30)
#define HKV_PAGE	4096ULL
#define HKV_T0_NS	(1000 * HKV_S)	/* time of window 1 */

#define HKV_MAX_PROCS	8	/* processes in a scenario (recycled PIDs count twice) */
#define HKV_MAX_PHASES	8
#define HKV_MAX_EXPECT	8
#define HKV_MAX_EVENTS	12
#define HKV_MAX_EXITS	4
#define HKV_MAX_CHECKS	12
#define HKV_MAX_WINDOWS	48

/* The one config both suites run the vectors under. */
static inline void hkv_config(struct hk_config *c)
{
	hk_config__defaults(c);
	c->interval_ns = HKV_S;
	c->nr_cpus = 2;
	c->total_ram_bytes = 16 * HKV_GIB;
	c->page_size_bytes = HKV_PAGE;
	hk_config__derive(c);
}

/* What a process does during one window. */
struct hkv_load {
	__u64 run_ns;			/* all threads, on a CPU */
	__u64 thread_run_ns;		/* the busiest thread */
	__u64 wait_ns;			/* run-queue wait */
	__u64 thread_wait_ns;		/* the thread that waited most,
					 * 0: wait_ns (one thread) */
	__u64 minor_faults;
	__u64 major_faults;
	__u64 nvcsw;
	__u64 nivcsw;
	__s64 rss_pages;		/* RSS change */
	__u32 nr_threads;
	__u32 aggressor_tgid;
	__u32 aggressor_switches;
	__u64 limit_bytes;		/* memory cgroup limit, 0: none (RAM) */
	__u64 memcg_other_bytes;	/* the cgroup's usage besides us */
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
	HKV_F_LATEST_GREW,	/* trend_latest_grew */
	HKV_F_LIMIT_KIND,
	HKV_F_LIMIT,		/* limit_bytes */
	HKV_F_HEADROOM,		/* headroom_bytes */
	HKV_F_ETA,		/* eta_s */
	HKV_F_AGGRESSOR,	/* aggressor_tgid */
	HKV_F_VICTIM,		/* victim_tgid */
	HKV_F_VICTIM_SW,	/* victim_switches */
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
};

static inline const char *hkv_field_name(__u32 f)
{
	static const char *const names[] = {
		"none", "cpu_pct_x100", "thread_cpu_pct_x100", "wait_pct_x100",
		"minor_faults_per_s", "major_faults_per_s",
		"unexplained_faults_per_s", "vcsw_per_s",
		"rss_growth_bytes_per_s", "rss_slope_bytes_per_s",
		"rss_net_growth_bytes", "trend_samples", "trend_grow_pct_x100",
		"trend_latest_grew", "limit_kind", "limit_bytes",
		"headroom_bytes", "eta_s", "aggressor_tgid", "victim_tgid",
		"victim_switches",
	};

	return f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

static inline __s64 hkv_field_get(const struct hk_evidence *ev, __u32 f)
{
	switch (f) {
	case HKV_F_CPU:		return ev->cpu_pct_x100;
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
	case HKV_F_LATEST_GREW:	return ev->trend_latest_grew;
	case HKV_F_LIMIT_KIND:	return ev->limit_kind;
	case HKV_F_LIMIT:	return (__s64)ev->limit_bytes;
	case HKV_F_HEADROOM:	return (__s64)ev->headroom_bytes;
	case HKV_F_ETA:		return (__s64)ev->eta_s;
	case HKV_F_AGGRESSOR:	return ev->aggressor_tgid;
	case HKV_F_VICTIM:	return ev->victim_tgid;
	case HKV_F_VICTIM_SW:	return ev->victim_switches;
	}
	return -1;
}

static inline const char *hkv_label_name(__u32 l)
{
	static const char *const names[HK_NR_LABELS] = {
		"OK", "OOM risk", "Mem-thrashing", "Starved", "Noisy neighbor",
		"CPU-bound", "exited",
	};

	return l < HK_NR_LABELS ? names[l] : "?";
}

/* --- generator ----------------------------------------------------------- */

static inline int hkv_active(const struct hkv_proc *p, __u32 w)
{
	return p->tgid && w >= p->first && w <= p->last;
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
		return HKV_T0_NS + (__u64)v->at_ms[w] * HKV_MS;
	return HKV_T0_NS + (__u64)(w - 1) * HKV_S;
}

/* What the walk would sum for process p at the end of window w. */
static inline void hkv_sample(const struct hkv_proc *p, __u32 w, __u64 now_ns,
			      struct hk_sample *s)
{
	const struct hkv_load *l = hkv_load_at(p, w);
	__s64 rss = (__s64)p->rss_pages;
	__u64 rss_bytes, used;
	size_t n;
	__u32 k;

	memset(s, 0, sizeof(*s));
	s->now_ns = now_ns;
	s->start_time_ns = p->start_time_ns;
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
		rss += d->rss_pages;
	}
	s->rss_pages = rss > 0 ? (__u64)rss : 0;
	s->wait_delta_ns = l->wait_ns;
	s->thread_wait_delta_ns = l->thread_wait_ns ? l->thread_wait_ns : l->wait_ns;
	s->thread_run_delta_ns = l->thread_run_ns;
	s->thread_tid = p->tgid;
	s->nr_threads = l->nr_threads ? l->nr_threads : 1;
	s->aggressor_tgid = l->aggressor_tgid;
	s->aggressor_switches = l->aggressor_switches;
	s->ns_pid = p->tgid;
	if (l->limit_bytes) {
		rss_bytes = s->rss_pages * HKV_PAGE;
		used = l->memcg_other_bytes + rss_bytes;
		s->limit_kind = HK_LIMIT_MEMCG;
		s->limit_bytes = l->limit_bytes;
		s->headroom_bytes = l->limit_bytes > used ? l->limit_bytes - used : 0;
		s->memcg_id = 4242;
	}
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
		hkv_sample(&v->procs[i], w, hkv_now_ns(v, w), &tw->sample[n]);
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
		if (v->procs[i].tgid == tgid && hkv_active(&v->procs[i], w))
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
#define HKV_IDLE	.run_ns = 1 * HKV_MS, .thread_run_ns = 1 * HKV_MS, .nvcsw = 10
/* `yes`: one thread at 99 % of a CPU (9900), run delay 2 % (200) */
#define HKV_SPIN	.run_ns = 990 * HKV_MS, .thread_run_ns = 990 * HKV_MS, \
			.wait_ns = 20 * HKV_MS, .nivcsw = 5
/* a busy loop at 98 % (9800) that preempts others, run delay 1 % */
#define HKV_HOG		.run_ns = 980 * HKV_MS, .thread_run_ns = 980 * HKV_MS, \
			.wait_ns = 10 * HKV_MS, .nivcsw = 20
/* pinned behind a hog: runs 1 % (100), waits 97 % (9700) */
#define HKV_VICTIM(aggr, votes) \
			.run_ns = 10 * HKV_MS, .thread_run_ns = 10 * HKV_MS, \
			.wait_ns = 970 * HKV_MS, .nivcsw = (votes), \
			.aggressor_tgid = (aggr), .aggressor_switches = (votes)
/* the 40 MB/s leak: 9.7 k minor faults/s, RSS +9280 pages/s (38 MB/s) */
#define HKV_LEAK	.run_ns = 30 * HKV_MS, .thread_run_ns = 30 * HKV_MS, \
			.minor_faults = 9700, .rss_pages = 9280, .nvcsw = 50

#define OK	HK_OK
#define OOM	HK_OOM_RISK
#define MT	HK_MEM_THRASHING
#define ST	HK_STARVED
#define NN	HK_NOISY_NEIGHBOR
#define CPU	HK_CPU_BOUND
#define EXIT	HK_EXITED

static const struct hkv_vector hkv_vectors[] = {
	{
		/* an idle sleeper is never flagged */
		.name = "idle",
		.nr_windows = 10,
		.procs = {
			{ .tgid = 101, .comm = "sleepd", .start_time_ns = 101 * HKV_S,
			  .first = 1, .last = 10, .runtime_ns = 5 * HKV_S,
			  .rss_pages = 1000,
			  .phase = { HKV_PH(2, 10, HKV_IDLE) },
			  .expect = { HKV_EX(1, 10, OK, OK) } },
		},
		.checks = {
			{ 2, 101, HKV_F_CPU, 10 },
			{ 2, 101, HKV_F_VCSW, 10 },
			{ 5, 101, HKV_F_SLOPE, 0 },
		},
	},
	{
		/*
		 * 201: one thread at 99 % in windows 2-5, idle after. It
		 * matches in 2 and 3 and enters in 3 (enter 2), misses in
		 * 6, 7, 8 and leaves in 8 (exit 3).
		 * 202: 4 threads at 30 %: 1.2 CPUs is 60 % of 2 CPUs (the
		 * total rule), no thread saturates; 2-4 busy, leaves in 7.
		 */
		.name = "cpu_bound",
		.nr_windows = 10,
		.procs = {
			{ .tgid = 201, .comm = "yes", .start_time_ns = 201 * HKV_S,
			  .first = 1, .last = 10, .runtime_ns = 1 * HKV_S,
			  .rss_pages = 200,
			  .phase = { HKV_PH(2, 5, HKV_SPIN), HKV_PH(6, 10, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 5, CPU, CPU), HKV_EX(6, 7, CPU, OK),
				      HKV_EX(8, 10, OK, OK) } },
			{ .tgid = 202, .comm = "make", .start_time_ns = 202 * HKV_S,
			  .first = 1, .last = 10, .rss_pages = 5000,
			  .phase = { HKV_PH(2, 4, .run_ns = 1200 * HKV_MS,
					    .thread_run_ns = 300 * HKV_MS,
					    .wait_ns = 50 * HKV_MS, .nr_threads = 4),
				     HKV_PH(5, 10, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 4, CPU, CPU), HKV_EX(5, 6, CPU, OK),
				      HKV_EX(7, 10, OK, OK) } },
		},
		.events = {
			{ 3, 201, OK, CPU }, { 8, 201, CPU, OK },
			{ 3, 202, OK, CPU }, { 7, 202, CPU, OK },
		},
		.checks = {
			{ 2, 201, HKV_F_CPU, 9900 },
			{ 2, 201, HKV_F_THREAD_CPU, 9900 },
			{ 2, 201, HKV_F_WAIT, 200 },
			{ 2, 202, HKV_F_CPU, 12000 },
			{ 2, 202, HKV_F_THREAD_CPU, 3000 },
			{ 2, 202, HKV_F_WAIT, 500 },
			{ 6, 201, HKV_F_CPU, 10 },
		},
	},
	{
		/* one busy window, and busy every other window: never enough
		 * in a row to enter (hysteresis), no event */
		.name = "short_burst",
		.nr_windows = 8,
		.procs = {
			{ .tgid = 301, .comm = "burst", .start_time_ns = 301 * HKV_S,
			  .first = 1, .last = 8,
			  .phase = { HKV_PH(2, 2, HKV_SPIN), HKV_PH(3, 8, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 8, OK, OK) } },
			{ .tgid = 302, .comm = "flappy", .start_time_ns = 302 * HKV_S,
			  .first = 1, .last = 8,
			  .phase = { HKV_PH(2, 2, HKV_SPIN), HKV_PH(3, 3, HKV_IDLE),
				     HKV_PH(4, 4, HKV_SPIN), HKV_PH(5, 5, HKV_IDLE),
				     HKV_PH(6, 6, HKV_SPIN), HKV_PH(7, 8, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 3, OK, OK), HKV_EX(4, 4, OK, CPU),
				      HKV_EX(5, 5, OK, OK), HKV_EX(6, 6, OK, CPU),
				      HKV_EX(7, 8, OK, OK) } },
		},
	},
	{
		/*
		 * The aggressor comes before its victim in the walk. 402
		 * waits 97 % and runs 1 %: Starved, preempted by 401. 401
		 * runs 98 %: it would be CPU-bound, but it is the top
		 * aggressor of a Starved process: Noisy neighbor. Both enter
		 * in window 3 and leave in window 8.
		 */
		.name = "pair_aggressor_first",
		.nr_windows = 8,
		.procs = {
			{ .tgid = 401, .comm = "hog", .start_time_ns = 401 * HKV_S,
			  .first = 1, .last = 8,
			  .phase = { HKV_PH(2, 5, HKV_HOG), HKV_PH(6, 8, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, NN),
				      HKV_EX(3, 5, NN, NN), HKV_EX(6, 7, NN, OK),
				      HKV_EX(8, 8, OK, OK) } },
			{ .tgid = 402, .comm = "victim", .start_time_ns = 402 * HKV_S,
			  .first = 1, .last = 8,
			  .phase = { HKV_PH(2, 5, HKV_VICTIM(401, 300)),
				     HKV_PH(6, 8, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 5, ST, ST), HKV_EX(6, 7, ST, OK),
				      HKV_EX(8, 8, OK, OK) } },
		},
		.events = {
			{ 3, 401, OK, NN }, { 3, 402, OK, ST },
			{ 8, 401, NN, OK }, { 8, 402, ST, OK },
		},
		.checks = {
			{ 2, 401, HKV_F_VICTIM, 402 },
			{ 2, 401, HKV_F_VICTIM_SW, 300 },
			{ 2, 401, HKV_F_CPU, 9800 },
			{ 2, 402, HKV_F_AGGRESSOR, 401 },
			{ 2, 402, HKV_F_WAIT, 9700 },
			{ 2, 402, HKV_F_CPU, 100 },
			{ 6, 401, HKV_F_VICTIM, 0 },
		},
	},
	{
		/*
		 * The victim comes before its aggressor. Same pair, but the
		 * hog keeps running once the victim is gone idle: it matches
		 * CPU-bound from window 6 and moves Noisy neighbor ->
		 * CPU-bound in window 7 (two matches), while the victim
		 * leaves Starved in window 8 (three misses).
		 */
		.name = "pair_victim_first",
		.nr_windows = 9,
		.procs = {
			{ .tgid = 502, .comm = "victim", .start_time_ns = 502 * HKV_S,
			  .first = 1, .last = 9,
			  .phase = { HKV_PH(2, 5, HKV_VICTIM(501, 250)),
				     HKV_PH(6, 9, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 5, ST, ST), HKV_EX(6, 7, ST, OK),
				      HKV_EX(8, 9, OK, OK) } },
			{ .tgid = 501, .comm = "hog", .start_time_ns = 501 * HKV_S,
			  .first = 1, .last = 9,
			  .phase = { HKV_PH(2, 9, HKV_HOG) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, NN),
				      HKV_EX(3, 5, NN, NN), HKV_EX(6, 6, NN, CPU),
				      HKV_EX(7, 9, CPU, CPU) } },
		},
		.events = {
			{ 3, 502, OK, ST }, { 3, 501, OK, NN },
			{ 7, 501, NN, CPU }, { 8, 502, ST, OK },
		},
		.checks = {
			{ 2, 501, HKV_F_VICTIM, 502 },
			{ 2, 501, HKV_F_VICTIM_SW, 250 },
			{ 3, 501, HKV_F_VICTIM, 502 },
			{ 6, 501, HKV_F_VICTIM, 0 },
		},
	},
	{
		/* sleeps 0.5 ms in a loop: 1.4 k voluntary switches/s, 7 %
		 * CPU, run delay 0.3 % (30): never Starved, never anything */
		.name = "voluntary_sleeper",
		.nr_windows = 10,
		.procs = {
			{ .tgid = 601, .comm = "usleeper", .start_time_ns = 601 * HKV_S,
			  .first = 1, .last = 10,
			  .phase = { HKV_PH(2, 10, .run_ns = 70 * HKV_MS,
					    .thread_run_ns = 70 * HKV_MS,
					    .wait_ns = 3 * HKV_MS, .nvcsw = 1400,
					    .nivcsw = 2) },
			  .expect = { HKV_EX(1, 10, OK, OK) } },
		},
		.checks = {
			{ 2, 601, HKV_F_VCSW, 1400 },
			{ 2, 601, HKV_F_WAIT, 30 },
			{ 2, 601, HKV_F_CPU, 700 },
		},
	},
	{
		/* 150 major faults/s at 20 % CPU in windows 2-6: enters in 3,
		 * leaves in 9. 702 stays one below the threshold (99/s). */
		.name = "thrash_major",
		.nr_windows = 10,
		.procs = {
			{ .tgid = 701, .comm = "swapper", .start_time_ns = 701 * HKV_S,
			  .first = 1, .last = 10, .rss_pages = 60000,
			  .phase = { HKV_PH(2, 6, .run_ns = 200 * HKV_MS,
					    .thread_run_ns = 200 * HKV_MS,
					    .wait_ns = 5 * HKV_MS,
					    .major_faults = 150, .minor_faults = 200),
				     HKV_PH(7, 10, HKV_IDLE) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, MT),
				      HKV_EX(3, 6, MT, MT), HKV_EX(7, 8, MT, OK),
				      HKV_EX(9, 10, OK, OK) } },
			{ .tgid = 702, .comm = "pager", .start_time_ns = 702 * HKV_S,
			  .first = 1, .last = 10, .rss_pages = 60000,
			  .phase = { HKV_PH(2, 10, .run_ns = 200 * HKV_MS,
					    .thread_run_ns = 200 * HKV_MS,
					    .major_faults = 99) },
			  .expect = { HKV_EX(1, 10, OK, OK) } },
		},
		.events = {
			{ 3, 701, OK, MT }, { 9, 701, MT, OK },
		},
		.checks = {
			{ 2, 701, HKV_F_MAJOR, 150 },
			{ 2, 701, HKV_F_MINOR, 200 },
			{ 2, 702, HKV_F_MAJOR, 99 },
		},
	},
	{
		/*
		 * 801: the madvise loop, 36 k minor faults/s at 25 % CPU
		 * with flat RSS: all unexplained, Mem-thrashing from 3.
		 * 802: 12 k minor faults/s, but RSS grows 12 k pages/s: every
		 * fault is a new page (growth, not thrashing), and two trend
		 * samples in 8 windows are no trend: OK throughout.
		 */
		.name = "thrash_minor_storm",
		.nr_windows = 8,
		.procs = {
			{ .tgid = 801, .comm = "madvise", .start_time_ns = 801 * HKV_S,
			  .first = 1, .last = 8, .rss_pages = 30000,
			  .phase = { HKV_PH(2, 8, .run_ns = 250 * HKV_MS,
					    .thread_run_ns = 250 * HKV_MS,
					    .minor_faults = 36000) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, MT),
				      HKV_EX(3, 8, MT, MT) } },
			{ .tgid = 802, .comm = "grower", .start_time_ns = 802 * HKV_S,
			  .first = 1, .last = 8, .rss_pages = 30000,
			  .phase = { HKV_PH(2, 8, .run_ns = 100 * HKV_MS,
					    .thread_run_ns = 100 * HKV_MS,
					    .minor_faults = 12000,
					    .rss_pages = 12000) },
			  .expect = { HKV_EX(1, 8, OK, OK) } },
		},
		.events = {
			{ 3, 801, OK, MT },
		},
		.checks = {
			{ 2, 801, HKV_F_UNEXPLAINED, 36000 },
			{ 2, 801, HKV_F_RSS_GROWTH, 0 },
			{ 2, 802, HKV_F_MINOR, 12000 },
			{ 2, 802, HKV_F_UNEXPLAINED, 0 },
			{ 2, 802, HKV_F_RSS_GROWTH, 12000 * 4096 },
			{ 8, 802, HKV_F_SAMPLES, 2 },
		},
	},
	{
		/*
		 * The 40 MB/s leak from 100 MiB (25600 pages): 9.7 k minor
		 * faults/s, of which RSS growth explains 9280: 420 left, not
		 * thrashing. Trend samples in windows 1, 5, 9, 13 (stride
		 * 4): the 4th sample, in window 13, makes a trend. x = 0, 4,
		 * 8, 12 s, y = 0, 37120, 74240, 111360 pages: exactly 9280
		 * pages/s = 38010880 B/s; net growth 111360 pages =
		 * 456130560 B >= 64 MiB; RSS 136960 pages = 560988160 B, not
		 * big; headroom 16 GiB - RSS = 16618881024 B, ETA 437 s <=
		 * 900 s: OOM risk matches in 13, enters in 14 (ETA 436 s:
		 * RSS 146240 pages, headroom 16580853760 B).
		 */
		.name = "leak",
		.nr_windows = 16,
		.procs = {
			{ .tgid = 901, .comm = "leaky", .start_time_ns = 901 * HKV_S,
			  .first = 1, .last = 16, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 16, HKV_LEAK) },
			  .expect = { HKV_EX(1, 12, OK, OK), HKV_EX(13, 13, OK, OOM),
				      HKV_EX(14, 16, OOM, OOM) } },
		},
		.events = {
			{ 14, 901, OK, OOM },
		},
		.checks = {
			{ 2, 901, HKV_F_MINOR, 9700 },
			{ 2, 901, HKV_F_UNEXPLAINED, 420 },
			{ 2, 901, HKV_F_RSS_GROWTH, 38010880 },
			{ 12, 901, HKV_F_SAMPLES, 3 },
			{ 13, 901, HKV_F_SAMPLES, 4 },
			{ 13, 901, HKV_F_SLOPE, 38010880 },
			{ 13, 901, HKV_F_NET_GROWTH, 456130560 },
			{ 13, 901, HKV_F_GROW_PCT, 10000 },
			{ 13, 901, HKV_F_HEADROOM, 16618881024LL },
			{ 13, 901, HKV_F_ETA, 437 },
			{ 14, 901, HKV_F_ETA, 436 },
			{ 14, 901, HKV_F_LIMIT_KIND, HK_LIMIT_RAM },
		},
	},
	{
		/*
		 * One allocation of 512 MiB (131072 pages, all faulted in)
		 * in window 13, flat before and after. At 13 the trend (1,
		 * 5, 9, 13: y = 0, 0, 0, 131072) grew in 1 interval of 3
		 * (3333 < 7500) though its latest grew, its slope is
		 * 40263680 B/s (9830 pages/s) and its ETA 410 s: not steady,
		 * not OOM risk. At 17: 1 of 4 (2500), latest flat.
		 */
		.name = "alloc_plateau",
		.nr_windows = 18,
		.procs = {
			{ .tgid = 1001, .comm = "jvm", .start_time_ns = 1001 * HKV_S,
			  .first = 1, .last = 18, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 12, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 100),
				     HKV_PH(13, 13, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 131072,
					    .rss_pages = 131072),
				     HKV_PH(14, 18, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 100) },
			  .expect = { HKV_EX(1, 18, OK, OK) } },
		},
		.checks = {
			{ 13, 1001, HKV_F_UNEXPLAINED, 0 },
			{ 13, 1001, HKV_F_SAMPLES, 4 },
			{ 13, 1001, HKV_F_GROW_PCT, 3333 },
			{ 13, 1001, HKV_F_LATEST_GREW, 1 },
			{ 13, 1001, HKV_F_SLOPE, 40263680 },
			{ 13, 1001, HKV_F_NET_GROWTH, 536870912 },
			{ 13, 1001, HKV_F_ETA, 410 },
			{ 17, 1001, HKV_F_SAMPLES, 5 },
			{ 17, 1001, HKV_F_GROW_PCT, 2500 },
			{ 17, 1001, HKV_F_LATEST_GREW, 0 },
		},
	},
	{
		/*
		 * 8 MiB/s (2048 pages/s) from 100 MiB in a memory cgroup
		 * limited to 2 GiB where others use 800 MiB. At 13: slope
		 * 8388608 B/s, net 100663296 B, RSS 50176 pages = 205520896
		 * B (957 of 10000 of the limit: small), headroom
		 * 2147483648 - 838860800 - 205520896 = 1103101952 B, ETA
		 * 131 s: OOM risk. 1102 grows the same without a cgroup
		 * limit: headroom 16 GiB - RSS = 16974348288 B, ETA 2023 s
		 * > 900 s: OK.
		 */
		.name = "oom_memcg",
		.nr_windows = 15,
		.procs = {
			{ .tgid = 1101, .comm = "cgworker", .start_time_ns = 1101 * HKV_S,
			  .first = 1, .last = 15, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 15, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 2048, .rss_pages = 2048,
					    .limit_bytes = 2 * HKV_GIB,
					    .memcg_other_bytes = 800 * HKV_MIB) },
			  .expect = { HKV_EX(1, 12, OK, OK), HKV_EX(13, 13, OK, OOM),
				      HKV_EX(14, 15, OOM, OOM) } },
			{ .tgid = 1102, .comm = "ramworker", .start_time_ns = 1102 * HKV_S,
			  .first = 1, .last = 15, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 15, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 2048, .rss_pages = 2048) },
			  .expect = { HKV_EX(1, 15, OK, OK) } },
		},
		.events = {
			{ 14, 1101, OK, OOM },
		},
		.checks = {
			{ 13, 1101, HKV_F_SLOPE, 8388608 },
			{ 13, 1101, HKV_F_NET_GROWTH, 100663296 },
			{ 13, 1101, HKV_F_LIMIT_KIND, HK_LIMIT_MEMCG },
			{ 13, 1101, HKV_F_LIMIT, 2147483648LL },
			{ 13, 1101, HKV_F_HEADROOM, 1103101952 },
			{ 13, 1101, HKV_F_ETA, 131 },
			{ 14, 1101, HKV_F_ETA, 130 },
			{ 13, 1102, HKV_F_SLOPE, 8388608 },
			{ 13, 1102, HKV_F_LIMIT, 17179869184LL },
			{ 13, 1102, HKV_F_ETA, 2023 },
		},
	},
	{
		/*
		 * 1201 is CPU-bound from window 3 and exits before window 5:
		 * CPU-bound -> exited, entry gone. 1202 (OK) exits before 6:
		 * no event. 1203 matched once (window 6, a candidate, not
		 * flagged) and exits before 7: no event.
		 */
		.name = "exits",
		.nr_windows = 7,
		.procs = {
			{ .tgid = 1201, .comm = "spin", .start_time_ns = 1201 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_SPIN) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 4, CPU, CPU) } },
			{ .tgid = 1202, .comm = "idle", .start_time_ns = 1202 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_IDLE) },
			  .expect = { HKV_EX(1, 5, OK, OK) } },
			{ .tgid = 1203, .comm = "blip", .start_time_ns = 1203 * HKV_S,
			  .first = 1, .last = 6,
			  .phase = { HKV_PH(2, 5, HKV_IDLE), HKV_PH(6, 6, HKV_SPIN) },
			  .expect = { HKV_EX(1, 5, OK, OK), HKV_EX(6, 6, OK, CPU) } },
			{ .tgid = 1204, .comm = "bystander", .start_time_ns = 1204 * HKV_S,
			  .first = 1, .last = 7,
			  .phase = { HKV_PH(2, 7, HKV_IDLE) },
			  .expect = { HKV_EX(1, 7, OK, OK) } },
		},
		.exits = {
			{ 5, 1201 }, { 6, 1202 }, { 7, 1203 },
		},
		.events = {
			{ 3, 1201, OK, CPU }, { 5, 1201, CPU, EXIT },
		},
	},
	{
		/*
		 * 1301 (CPU-bound since 3) is replaced in window 5 by a new
		 * process with the same TGID, seen without a queued exit: the
		 * old one's `exited` goes out, the new one is only a baseline
		 * (its counters, far above the old ones, must not make a
		 * window). 1302 is recycled while OK: no event. 1303 is
		 * recycled in window 6 with its exit queued in the same
		 * window: exactly one `exited`, and the new entry stays.
		 */
		.name = "recycled_pid",
		.nr_windows = 8,
		.procs = {
			{ .tgid = 1301, .comm = "old", .start_time_ns = 131 * HKV_S,
			  .first = 1, .last = 4, .runtime_ns = 10 * HKV_S,
			  .phase = { HKV_PH(2, 4, HKV_SPIN) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 4, CPU, CPU) } },
			{ .tgid = 1302, .comm = "oldok", .start_time_ns = 132 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_IDLE) },
			  .expect = { HKV_EX(1, 4, OK, OK) } },
			{ .tgid = 1303, .comm = "old3", .start_time_ns = 133 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_SPIN) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 5, CPU, CPU) } },
			{ .tgid = 1301, .comm = "new", .start_time_ns = 990 * HKV_S,
			  .first = 5, .last = 8, .runtime_ns = 7200 * HKV_S,
			  .minor_faults = 1000000, .major_faults = 50000,
			  .rss_pages = 50000,
			  .phase = { HKV_PH(6, 8, HKV_IDLE) },
			  .expect = { HKV_EX(5, 8, OK, OK) } },
			{ .tgid = 1302, .comm = "newok", .start_time_ns = 991 * HKV_S,
			  .first = 5, .last = 8, .runtime_ns = 600 * HKV_S,
			  .phase = { HKV_PH(6, 8, HKV_IDLE) },
			  .expect = { HKV_EX(5, 8, OK, OK) } },
			{ .tgid = 1303, .comm = "new3", .start_time_ns = 992 * HKV_S,
			  .first = 6, .last = 8, .runtime_ns = 3600 * HKV_S,
			  .major_faults = 40000,
			  .phase = { HKV_PH(7, 8, HKV_IDLE) },
			  .expect = { HKV_EX(6, 8, OK, OK) } },
		},
		.exits = {
			{ 6, 1303 },
		},
		.events = {
			{ 3, 1301, OK, CPU }, { 3, 1303, OK, CPU },
			{ 5, 1301, CPU, EXIT }, { 6, 1303, CPU, EXIT },
		},
		.checks = {
			{ 6, 1301, HKV_F_CPU, 10 },
			{ 6, 1301, HKV_F_MAJOR, 0 },
			{ 7, 1303, HKV_F_CPU, 10 },
		},
	},
	{
		/*
		 * The first sample of a process is a baseline: 1401 has run
		 * for an hour and faulted millions of times before we first
		 * see it, 1402 appears in window 3 with as much history. Their
		 * first windows are not classified, their next ones count
		 * only what happened since.
		 */
		.name = "baseline_only",
		.nr_windows = 6,
		.procs = {
			{ .tgid = 1401, .comm = "longrun", .start_time_ns = 140 * HKV_S,
			  .first = 1, .last = 6, .runtime_ns = 3600 * HKV_S,
			  .minor_faults = 10000000, .major_faults = 100000,
			  .nvcsw = 1000000, .nivcsw = 500000, .rss_pages = 262144,
			  .phase = { HKV_PH(2, 6, HKV_IDLE) },
			  .expect = { HKV_EX(1, 6, OK, OK) } },
			{ .tgid = 1402, .comm = "late", .start_time_ns = 995 * HKV_S,
			  .first = 3, .last = 6, .runtime_ns = 100 * HKV_S,
			  .major_faults = 50000, .rss_pages = 10000,
			  .phase = { HKV_PH(4, 6, HKV_IDLE) },
			  .expect = { HKV_EX(3, 6, OK, OK) } },
		},
		.checks = {
			{ 2, 1401, HKV_F_CPU, 10 },
			{ 2, 1401, HKV_F_MAJOR, 0 },
			{ 2, 1401, HKV_F_VCSW, 10 },
			{ 4, 1402, HKV_F_CPU, 10 },
			{ 4, 1402, HKV_F_MAJOR, 0 },
		},
	},
	{
		/*
		 * First match wins. 1501 has 200 major faults/s and waits 80 %
		 * (Starved too): Mem-thrashing. Not Starved, so its aggressor
		 * 1502 is no Noisy neighbor: CPU-bound. 1503 has 150 major
		 * faults/s but uses 1.2 CPUs (60 % of all: CPU-heavy), so it is
		 * not thrashing (DESIGN: "without the process being
		 * CPU-bound"); 150 faults/s < 1000: CPU-bound. 1504 has 150 major faults/s with a thread at
		 * 95 %: saturating, so not thrashing; 150 faults/s < 1000:
		 * CPU-bound.
		 */
		.name = "precedence_a",
		.nr_windows = 5,
		.procs = {
			{ .tgid = 1501, .comm = "thrstarve", .start_time_ns = 1501 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .wait_ns = 800 * HKV_MS,
					    .major_faults = 200, .minor_faults = 300,
					    .aggressor_tgid = 1502,
					    .aggressor_switches = 100) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, MT),
				      HKV_EX(3, 5, MT, MT) } },
			{ .tgid = 1502, .comm = "hog2", .start_time_ns = 1502 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_HOG) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 5, CPU, CPU) } },
			{ .tgid = 1503, .comm = "mtcpu", .start_time_ns = 1503 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, .run_ns = 1200 * HKV_MS,
					    .thread_run_ns = 300 * HKV_MS,
					    .wait_ns = 10 * HKV_MS,
					    .major_faults = 150, .nr_threads = 4) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 5, CPU, CPU) } },
			{ .tgid = 1504, .comm = "satmaj", .start_time_ns = 1504 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, .run_ns = 950 * HKV_MS,
					    .thread_run_ns = 950 * HKV_MS,
					    .wait_ns = 10 * HKV_MS,
					    .major_faults = 150) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, CPU),
				      HKV_EX(3, 5, CPU, CPU) } },
		},
		.events = {
			{ 3, 1501, OK, MT }, { 3, 1502, OK, CPU },
			{ 3, 1503, OK, CPU }, { 3, 1504, OK, CPU },
		},
		.checks = {
			{ 2, 1501, HKV_F_WAIT, 8000 },
			{ 2, 1502, HKV_F_VICTIM, 0 },
			{ 2, 1503, HKV_F_CPU, 12000 },
			{ 2, 1504, HKV_F_THREAD_CPU, 9500 },
		},
	},
	{
		/*
		 * 1505 leaks like `leak` and also has 150 major faults/s:
		 * Mem-thrashing from 3, OOM risk matches in 13 and wins from
		 * 14 (Mem-thrashing -> OOM risk). 1506 runs 0.9 CPU on 2
		 * threads and waits 1.2 s: Starved (wait > run), and though
		 * it is the top aggressor of Starved 1507 it stays Starved.
		 */
		.name = "precedence_b",
		.nr_windows = 15,
		.procs = {
			{ .tgid = 1505, .comm = "leakswap", .start_time_ns = 1505 * HKV_S,
			  .first = 1, .last = 15, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 15, HKV_LEAK, .major_faults = 150) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, MT),
				      HKV_EX(3, 12, MT, MT), HKV_EX(13, 13, MT, OOM),
				      HKV_EX(14, 15, OOM, OOM) } },
			{ .tgid = 1506, .comm = "busyst", .start_time_ns = 1506 * HKV_S,
			  .first = 1, .last = 15,
			  .phase = { HKV_PH(2, 15, .run_ns = 900 * HKV_MS,
					    .thread_run_ns = 450 * HKV_MS,
					    .wait_ns = 1200 * HKV_MS, .nr_threads = 2,
					    .thread_wait_ns = 800 * HKV_MS,
					    .aggressor_tgid = 1507,
					    .aggressor_switches = 80) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 15, ST, ST) } },
			{ .tgid = 1507, .comm = "victim3", .start_time_ns = 1507 * HKV_S,
			  .first = 1, .last = 15,
			  .phase = { HKV_PH(2, 15, HKV_VICTIM(1506, 300)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 15, ST, ST) } },
		},
		.events = {
			{ 3, 1505, OK, MT }, { 14, 1505, MT, OOM },
			{ 3, 1506, OK, ST }, { 3, 1507, OK, ST },
		},
		.checks = {
			{ 13, 1505, HKV_F_SLOPE, 38010880 },
			{ 13, 1505, HKV_F_ETA, 437 },
			{ 2, 1506, HKV_F_WAIT, 12000 },
			{ 2, 1506, HKV_F_VICTIM, 0 },
		},
	},
	{
		/* one aggressor, three Starved victims: it names the one it
		 * took the CPU from most often (1704, 600 switches), though
		 * 1701 (400) was recorded first and 1703 (100) in between */
		.name = "top_victim",
		.nr_windows = 4,
		.procs = {
			{ .tgid = 1701, .comm = "victimA", .start_time_ns = 1701 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_VICTIM(1702, 400)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 4, ST, ST) } },
			{ .tgid = 1702, .comm = "hog3", .start_time_ns = 1702 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_HOG) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, NN),
				      HKV_EX(3, 4, NN, NN) } },
			{ .tgid = 1703, .comm = "victimB", .start_time_ns = 1703 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_VICTIM(1702, 100)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 4, ST, ST) } },
			{ .tgid = 1704, .comm = "victimC", .start_time_ns = 1704 * HKV_S,
			  .first = 1, .last = 4,
			  .phase = { HKV_PH(2, 4, HKV_VICTIM(1702, 600)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 4, ST, ST) } },
		},
		.events = {
			{ 3, 1701, OK, ST }, { 3, 1702, OK, NN },
			{ 3, 1703, OK, ST }, { 3, 1704, OK, ST },
		},
		.checks = {
			{ 2, 1702, HKV_F_VICTIM, 1704 },
			{ 2, 1702, HKV_F_VICTIM_SW, 600 },
			{ 4, 1702, HKV_F_VICTIM, 1704 },
		},
	},
	{
		/*
		 * Victims whose aggressor is no Noisy neighbor: 1802 uses 30 %
		 * of a CPU (< 50 %), 9999 is not tracked, 1804 names itself.
		 * All three victims are Starved; nobody is Noisy.
		 */
		.name = "weak_aggressor",
		.nr_windows = 5,
		.procs = {
			{ .tgid = 1801, .comm = "victimW", .start_time_ns = 1801 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_VICTIM(1802, 50)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 5, ST, ST) } },
			{ .tgid = 1802, .comm = "weak", .start_time_ns = 1802 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, .run_ns = 300 * HKV_MS,
					    .thread_run_ns = 300 * HKV_MS,
					    .nivcsw = 10) },
			  .expect = { HKV_EX(1, 5, OK, OK) } },
			{ .tgid = 1803, .comm = "victimU", .start_time_ns = 1803 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_VICTIM(9999, 70)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 5, ST, ST) } },
			{ .tgid = 1804, .comm = "selfish", .start_time_ns = 1804 * HKV_S,
			  .first = 1, .last = 5,
			  .phase = { HKV_PH(2, 5, HKV_VICTIM(1804, 90)) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 5, ST, ST) } },
		},
		.events = {
			{ 3, 1801, OK, ST }, { 3, 1803, OK, ST }, { 3, 1804, OK, ST },
		},
		.checks = {
			{ 2, 1802, HKV_F_VICTIM, 0 },
			{ 2, 1802, HKV_F_CPU, 3000 },
			{ 2, 1801, HKV_F_AGGRESSOR, 1802 },
		},
	},
	/*
	 * Two regressions: both failed before classify.h counted only fair
	 * shares of growth as "grew" and carried a short window's wait.
	 */
	{
		/*
		 * A JVM sizes its heap once (512 MiB in window 13), then its
		 * RSS creeps by one page per second: a plateau. Had any
		 * increase counted as growth, from window 32 the trend
		 * (samples 5..29, then 5..33) would grow in 5 of 6, then 6 of
		 * 7 intervals, the latest included, and the one-off jump still
		 * in the span gives a slope of 19-24 MB/s and an ETA of
		 * 689-862 s: OOM risk in 32-35. A 1-page interval is far below
		 * a quarter of the average growth: not steady. Expected: OK.
		 */
		.name = "plateau_creep",
		.nr_windows = 40,
		.procs = {
			{ .tgid = 9001, .comm = "jvm", .start_time_ns = 9001 * HKV_S,
			  .first = 1, .last = 40, .rss_pages = 25600,
			  .phase = { HKV_PH(2, 12, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS),
				     HKV_PH(13, 13, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 131072,
					    .rss_pages = 131072),
				     HKV_PH(14, 40, .run_ns = 50 * HKV_MS,
					    .thread_run_ns = 50 * HKV_MS,
					    .minor_faults = 1, .rss_pages = 1) },
			  .expect = { HKV_EX(1, 40, OK, OK) } },
		},
	},
	{
		/*
		 * Waiting 76 % of the time throughout (Starved: >= 75 %), with
		 * a 50 ms window between windows 3 and 5 (it closes at 2050
		 * ms). The short window carries no rate and keeps the
		 * baseline; its 38 ms of wait (a per-window delta the walk
		 * has already consumed) must carry over: window 5 spans 1 s
		 * since window 3 with 722 + 38 = 760 ms of wait, 7600,
		 * Starved (dropped, it would be 7220: OK).
		 */
		.name = "short_window_wait",
		.nr_windows = 6,
		.at_ms = { [4] = 2050, [5] = 3000, [6] = 4000 },
		.procs = {
			{ .tgid = 9101, .comm = "pinned", .start_time_ns = 9101 * HKV_S,
			  .first = 1, .last = 6,
			  .phase = { HKV_PH(2, 3, .run_ns = 10 * HKV_MS,
					    .thread_run_ns = 10 * HKV_MS,
					    .wait_ns = 760 * HKV_MS),
				     HKV_PH(4, 4, .run_ns = 500000,
					    .thread_run_ns = 500000,
					    .wait_ns = 38 * HKV_MS),
				     HKV_PH(5, 5, .run_ns = 9500000,
					    .thread_run_ns = 9500000,
					    .wait_ns = 722 * HKV_MS),
				     HKV_PH(6, 6, .run_ns = 10 * HKV_MS,
					    .thread_run_ns = 10 * HKV_MS,
					    .wait_ns = 760 * HKV_MS) },
			  .expect = { HKV_EX(1, 1, OK, OK), HKV_EX(2, 2, OK, ST),
				      HKV_EX(3, 6, ST, ST) } },
		},
		.events = {
			{ 3, 9101, OK, ST },
		},
		.checks = {
			{ 5, 9101, HKV_F_WAIT, 7600 },
			{ 5, 9101, HKV_F_CPU, 100 },
		},
	},
};

#undef OK
#undef OOM
#undef MT
#undef ST
#undef NN
#undef CPU
#undef EXIT

#define HKV_NR_VECTORS (sizeof(hkv_vectors) / sizeof(hkv_vectors[0]))

#endif /* HK_TESTS_WINDOW_VECTORS_H */
