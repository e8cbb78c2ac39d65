/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify.h - the window step: rates, RSS trend, ETA, diagnosis, hysteresis.
 *
 * Pure, helper-free static inline functions compiled into the BPF object and
 * into the CUnit tests alike: one source of truth for the rules. Integers
 * only. Signed 64-bit division crashes clang 14's BPF backend, so every
 * division is of unsigned magnitudes with the sign applied afterwards.
 */
#ifndef HK_SHARED_CLASSIFY_H
#define HK_SHARED_CLASSIFY_H

#include "hotspot.h"


/* a / b for a signed numerator, rounding towards zero; b > 0. */
static inline __s64 hk_sdiv(__s64 a, __u64 b)
{
	__u64 mag;

	if (!b)
		return 0;
	mag = a < 0 ? (__u64)(-a) : (__u64)a;
	mag /= b;
	return a < 0 ? -(__s64)mag : (__s64)mag;
}

/*
 * Scheduling policies (include/uapi/linux/sched.h: macros, which vmlinux.h
 * does not carry) and cgroup v2's default cpu.weight.
 */
enum hk_sched_policy {
	HK_SCHED_NORMAL = 0,
	HK_SCHED_FIFO = 1,
	HK_SCHED_RR = 2,
	HK_SCHED_BATCH = 3,
	HK_SCHED_IDLE = 5,
	HK_SCHED_DEADLINE = 6,
	HK_SCHED_EXT = 7,
	HK_CPU_WEIGHT_DFL = 100,
};

/*
 * A task group's shares (tg->shares) as cgroup v2's cpu.weight, the way
 * the kernel shows it (sched_weight_to_cgroup(scale_load_down(shares)),
 * 64-bit kernels: SCHED_FIXEDPOINT_SHIFT 10): a v1 cpu.shares of 1024 and
 * an autogroup at nice 0 read 100 alike, one at nice 19 reads 1.
 */
static inline __u32 hk_cgroup_weight(__u64 shares)
{
	__u64 w = shares >> 10;

	if (w < 2)
		w = 2;	/* scale_load_down()'s floor */
	w = (w * HK_CPU_WEIGHT_DFL + 512) / 1024;
	if (w < 1)
		return 1;
	return w > 10000 ? 10000 : (__u32)w;
}

/*
 * Why a waiting thread asked the scheduler for less than a fair share: a
 * word of these bits with its nice and its group's cpu.weight packed in,
 * so that a Noisy neighbor's evidence can say why its victim waits
 * (victim_deprioritised). 0: it asked for its fair share.
 */
enum hk_deprio {
	HK_DEPRIO_NICE = 1 << 0,	/* nice > 0 */
	HK_DEPRIO_BATCH = 1 << 1,	/* SCHED_BATCH */
	HK_DEPRIO_IDLE = 1 << 2,	/* SCHED_IDLE */
	HK_DEPRIO_GROUP_IDLE = 1 << 3,	/* its task group's cpu.idle */
	HK_DEPRIO_WEIGHT = 1 << 4,	/* its task group's cpu.weight < 100 */
	HK_DEPRIO_NICE_SHIFT = 8,	/* bits 8..12: the nice (1..19) */
	HK_DEPRIO_WEIGHT_SHIFT = 16,	/* bits 16..22: the weight (1..99) */
};

/*
 * What the thread that waited most asked for, as an hk_deprio word. Its
 * wait is then what its owner chose, and the evidence says so (review
 * finding 3): nice 19, SCHED_IDLE, cpu.idle, a BestEffort pod's weight.
 */
static inline __u32 hk_deprio(const struct hk_evidence *ev)
{
	__u32 why = 0;

	if (ev->wait_nice > 0 && ev->wait_nice < 20)
		why |= HK_DEPRIO_NICE | (__u32)ev->wait_nice << HK_DEPRIO_NICE_SHIFT;
	if (ev->wait_policy == HK_SCHED_BATCH)
		why |= HK_DEPRIO_BATCH;
	if (ev->wait_policy == HK_SCHED_IDLE)
		why |= HK_DEPRIO_IDLE;
	if (ev->wait_group_idle)
		why |= HK_DEPRIO_GROUP_IDLE;
	if (ev->wait_group_weight && ev->wait_group_weight < HK_CPU_WEIGHT_DFL)
		why |= HK_DEPRIO_WEIGHT | ev->wait_group_weight << HK_DEPRIO_WEIGHT_SHIFT;
	return why;
}

/* Events per second from a count over a window; counts fit 2^44. */
static inline __u64 hk_per_s(__u64 count, __u64 window_ns)
{
	__u64 window_ms = window_ns / HK_NSEC_PER_MSEC;

	if (!window_ms)
		return 0;
	return count * 1000 / window_ms;
}

/* Share of a window, in hundredths of a percent. */
static inline __u32 hk_share_x100(__u64 part_ns, __u64 window_ns)
{
	__u64 window_us = window_ns / 1000;
	__u64 share;

	if (!window_us)
		return 0;
	share = part_ns / 1000 * 10000 / window_us;
	return share > 0xffffffffULL ? 0xffffffffU : (__u32)share;
}

static inline __u64 hk_sub_clamp(__u64 now, __u64 before)
{
	return now > before ? now - before : 0;
}

static inline __u64 hk_min_u64(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

/* Record an RSS sample in the trend ring (power-of-two capacity). */
static inline void hk_trend_push(struct hk_proc *p, __u64 now_ms, __u64 pages)
{
	__u32 slot = p->trend_head & (HK_TREND_SLOTS - 1);

	p->trend_ms[slot] = now_ms;
	p->trend_pages[slot] = pages;
	p->trend_head = (slot + 1) & (HK_TREND_SLOTS - 1);
	if (p->trend_nr < HK_TREND_SLOTS)
		p->trend_nr++;
}

static inline __u64 hk_trend_newest_ms(const struct hk_proc *p)
{
	if (!p->trend_nr)
		return 0;
	return p->trend_ms[(p->trend_head + HK_TREND_SLOTS - 1) & (HK_TREND_SLOTS - 1)];
}

/*
 * The trend's points, oldest first, are the ring's samples inside the span
 * (indexes first..HK_TREND_SLOTS-1, ring order) and then the present, the
 * current window's own RSS (index HK_TREND_SLOTS), unless the ring's newest
 * sample is the present already. A verdict taken on the ring alone would
 * lag the process by up to a sampling stride. Samples are in time order,
 * so those inside the span are the ring's newest ones.
 */
static inline __u32 hk_trend_first(const struct hk_proc *p, __u64 now_ms,
				   __u64 span_ms)
{
	__u32 nr = p->trend_nr < HK_TREND_SLOTS ? p->trend_nr : HK_TREND_SLOTS;
	__u32 i;

	/*
	 * A constant start: 6.1's verifier loses the bounds of an index
	 * that starts at HK_TREND_SLOTS - nr and walks such a loop until
	 * "the sequence of 8193 jumps is too complex" (tools/vmtest).
	 */
	for (i = 0; i < HK_TREND_SLOTS; i++) {
		if (i + nr < HK_TREND_SLOTS)
			continue;	/* no sample there yet */
		if (p->trend_ms[(p->trend_head + i) & (HK_TREND_SLOTS - 1)] + span_ms >= now_ms)
			return i;
	}
	return HK_TREND_SLOTS;
}

static inline void hk_trend_at(const struct hk_proc *p, __u32 i, __u64 now_ms,
			       __u64 now_pages, __u64 *ms, __u64 *pages)
{
	__u32 slot = (p->trend_head + i) & (HK_TREND_SLOTS - 1);

	*ms = i < HK_TREND_SLOTS ? p->trend_ms[slot] : now_ms;
	*pages = i < HK_TREND_SLOTS ? p->trend_pages[slot] : now_pages;
}

/*
 * Least-squares slope of RSS over the trend's points, the time they cover,
 * and the share of that time in which RSS grew. x is ms since the oldest
 * point, y pages since it: with a span of at most an hour and y below 2^32
 * pages, n * sum(x*y) stays below 2^63. An interval counts as growing only
 * when it grew by at least a quarter of its fair share of the net growth
 * (its share of the time): a one-off jump followed by a creeping plateau
 * is not steady growth. Time-weighted, so that the short interval up to
 * the present weighs what it lasted. The loops branch on their index
 * only, so that the verifier walks each once.
 */
static inline void hk_trend_fit(const struct hk_proc *p, __u64 now_ms,
				__u64 now_pages, __u64 span_ms, __u32 page_size,
				struct hk_evidence *ev)
{
	__u64 x0, y0, ms, pages, prev_ms, prev_pages, total_ms, grow_ms = 0;
	__u64 den, q, r, pps, dt, dy;
	__s64 sx = 0, sy = 0, sxy = 0, sxx = 0, y, x, num;
	__u32 first = hk_trend_first(p, now_ms, span_ms), last = HK_TREND_SLOTS, n, i;

	if (p->trend_nr && hk_trend_newest_ms(p) == now_ms)
		last = HK_TREND_SLOTS - 1;	/* the present is in the ring */
	if (first > last)
		first = last;
	n = last - first + 1;
	hk_trend_at(p, first, now_ms, now_pages, &x0, &y0);
	hk_trend_at(p, last, now_ms, now_pages, &ms, &pages);
	total_ms = ms - x0;
	y = (__s64)pages - (__s64)y0;	/* the net growth */

	prev_ms = x0;
	prev_pages = y0;
	for (i = 0; i <= HK_TREND_SLOTS; i++) {
		if (i < first || i > last)
			continue;	/* constant start, as in hk_trend_first */
		hk_trend_at(p, i, now_ms, now_pages, &ms, &pages);
		x = (__s64)(ms - x0);
		sx += x;
		sy += (__s64)pages - (__s64)y0;
		sxy += x * ((__s64)pages - (__s64)y0);
		sxx += x * x;
		/* which intervals carry their share of the net growth? */
		dt = ms - prev_ms;
		dy = pages > prev_pages ? pages - prev_pages : 0;
		if (y > 0 && dy && dy * 4 * total_ms >= (__u64)y * dt)
			grow_ms += dt;
		prev_ms = ms;
		prev_pages = pages;
	}

	ev->trend_samples = n;
	ev->trend_grow_pct_x100 = total_ms ? (__u32)(grow_ms * 10000 / total_ms) : 0;
	ev->rss_trend_ms = total_ms;
	ev->rss_net_growth_bytes = y * (__s64)page_size;
	ev->rss_slope_bytes_per_s = 0;
	if (n < 2)
		return;
	num = (__s64)n * sxy - sx * sy;
	den = (__u64)((__s64)n * sxx - sx * sx);
	if (!den)
		return;
	/* pages per ms -> pages per s without overflowing the remainder */
	q = (num < 0 ? (__u64)(-num) : (__u64)num) / den;
	r = (num < 0 ? (__u64)(-num) : (__u64)num) % den;
	pps = q * 1000 + r * 1000 / den;
	ev->rss_slope_bytes_per_s = (__s64)(pps * page_size);
	if (num < 0)
		ev->rss_slope_bytes_per_s = -ev->rss_slope_bytes_per_s;
}

/* Seconds until the headroom is used up at this slope. */
static inline __u64 hk_eta_s(__u64 headroom_bytes, __s64 slope_bytes_per_s)
{
	if (slope_bytes_per_s <= 0)
		return (__u64)HK_ETA_NONE;
	return headroom_bytes / (__u64)slope_bytes_per_s;
}

/*
 * OOM risk is decided on the present: RSS (anon + shmem) grew in this very
 * window, steadily over a trend that covers min_trend at least, give or
 * take a quarter of an interval (a warm-up or a process born big is not a
 * leak), and at this slope it reaches its limit within the horizon. Size alone is not a risk: a database warming
 * its buffer pool grows for long, but its ETA is days.
 */
static inline int hk_oom_risk(const struct hk_config *c,
			      const struct hk_evidence *ev)
{
	/* walks are not exactly periodic: two 5 s windows may cover 9.997 s */
	__u64 slack_ms = c->interval_ns / 4 / HK_NSEC_PER_MSEC;

	return ev->rss_growth_bytes_per_s > 0 &&
	       ev->trend_samples >= HK_TREND_MIN_SAMPLES &&
	       ev->rss_trend_ms + slack_ms >= c->oom_min_trend_ns / HK_NSEC_PER_MSEC &&
	       ev->trend_grow_pct_x100 >= c->oom_steady_pct_x100 &&
	       ev->rss_slope_bytes_per_s > 0 &&
	       ev->rss_net_growth_bytes >= (__s64)c->oom_min_growth_bytes &&
	       ev->eta_s <= c->oom_eta_horizon_s;
}

/*
 * Busy on a CPU: what it got, of the CPUs it may use (its affinity, its
 * quota: usable_cpus_x100), not of the host's. A JVM with 300 threads on
 * 30 of 128 CPUs is busy. Its page faults are then its work.
 */
static inline int hk_cpu_busy(const struct hk_config *c,
			      const struct hk_evidence *ev)
{
	__u64 usable_x100 = ev->usable_cpus_x100 ? ev->usable_cpus_x100 : 100;

	return ev->thread_cpu_pct_x100 >= c->cpu_thread_pct_x100 ||
	       (__u64)ev->cpu_pct_x100 * 100 / usable_x100 >= c->cpu_total_pct_x100;
}

/*
 * It got (nearly) all the CPUs it may use: whoever else runs there took
 * less than a tenth of them. Its threads' wait for a CPU is then their
 * own crowding (8 busy threads allowed on 2 CPUs): it wants more CPU than
 * it may have, which is CPU-bound, not Starved, and nobody is to blame.
 */
static inline int hk_cpu_saturated(const struct hk_config *c,
				   const struct hk_evidence *ev)
{
	__u64 usable_x100 = ev->usable_cpus_x100 ? ev->usable_cpus_x100 : 100;

	return (__u64)ev->cpu_pct_x100 * 100 / usable_x100 >= c->cpu_thread_pct_x100;
}

/*
 * Hungry for CPU: a thread asked for a whole one, time on a CPU plus time
 * waiting for one. Four busy loops on two CPUs each run half the time and
 * wait the other half: each wants a whole CPU, and the host is saturated.
 * The whole process counts what it got: many threads that each wait a
 * little are a busy pool, not a CPU-bound process.
 */
static inline int hk_cpu_hungry(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	__u32 nr_cpus = c->nr_cpus ? c->nr_cpus : 1;

	return ev->thread_cpu_pct_x100 + ev->thread_queued_pct_x100 +
		       ev->cpu_lost_pct_x100 >= c->cpu_thread_pct_x100 ||
	       ev->cpu_pct_x100 / nr_cpus >= c->cpu_total_pct_x100;
}

static inline int hk_starved(const struct hk_config *c,
			     const struct hk_evidence *ev)
{
	return ev->thread_wait_pct_x100 >= c->starved_wait_pct_x100 &&
	       ev->wait_pct_x100 > ev->cpu_pct_x100 && !hk_cpu_saturated(c, ev);
}

/*
 * Held back by its cgroups' CPU quota: the throttled time, taken over the
 * CPUs that quota lets the group use (throttled_norm_pct_x100: the kernel
 * sums it over every CPU's run queue, so that 0.4 % of a period on 64
 * CPUs is not "25 %"), and a thread that waited as long. A thread that
 * waited for another process (an aggressor was named) twice as long as
 * the quota held it back is Starved instead: the quota is not why.
 */
static inline int hk_throttled(const struct hk_config *c,
			       const struct hk_evidence *ev)
{
	if (ev->throttled_norm_pct_x100 < c->throttled_pct_x100 ||
	    ev->thread_wait_pct_x100 < c->throttled_pct_x100)
		return 0;
	return !(ev->aggressor_tgid && hk_starved(c, ev) &&
		 (__u64)ev->throttled_norm_pct_x100 * 2 < ev->thread_wait_pct_x100);
}

/*
 * Held at memory.high: a memory.high binds above it, its cgroup is at it
 * (usage, page cache included, is what the kernel compares), and what it
 * holds is not mostly page cache (reclaim frees that without a throttling
 * sleep: a cgroup that a reader filled with cache counts "high" as often,
 * or more). And this process is the one held: in this window the kernel
 * reclaimed that cgroup for being over high at a rate while this process
 * allocated (it faulted pages in, or its anon RSS grew: a transparent
 * huge page is one fault for 2 MiB), or it is asleep in a memory stall
 * now (a penalty sleep of up to 2 s spans whole windows, in which it
 * neither faults nor counts). A process asleep in that cgroup is not.
 */
static inline int hk_mem_throttled(const struct hk_config *c,
				   const struct hk_evidence *ev)
{
	__u64 high = ev->mem_high_bytes, usage = ev->mem_high_usage_bytes;
	__u64 non_cache = hk_sub_clamp(usage, ev->mem_high_file_bytes);
	int allocates = ev->minor_faults_per_s + ev->major_faults_per_s >=
			c->mem_high_faults_per_s || ev->rss_growth_bytes_per_s > 0;

	/* bytes below 2^57: times 100 fits 64 bits */
	return c->mem_high_events_per_s && high &&
	       usage * 100 >= high / 100 * c->mem_high_usage_pct_x100 &&
	       non_cache * 100 >= high / 100 * c->mem_high_non_cache_pct_x100 &&
	       ((ev->mem_high_events_per_s >= c->mem_high_events_per_s && allocates) ||
		ev->mem_stalled);
}

/*
 * The diagnosis of one window, first match wins. Noisy neighbor needs the
 * other side of the pair: the walk sets victim_tgid once the window's
 * Starved processes are known, and classifies again.
 */
static inline __u32 hk_classify(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	if (hk_oom_risk(c, ev))
		return HK_OOM_RISK;
	/* before Mem-thrashing: held at high with swap, it faults its own
	 * pages back in, and memory.high is then the cause */
	if (hk_mem_throttled(c, ev))
		return HK_MEM_THROTTLED;
	/* faults of a process busy on the CPU are its work, not thrashing;
	 * so is the fault volume of many CPUs' worth of work: the minor
	 * threshold is per CPU it ran on (15 k/s over 30 CPUs is noise) */
	if (!hk_cpu_busy(c, ev) &&
	    (ev->major_faults_per_s >= c->thrash_major_faults_per_s ||
	     ev->unexplained_faults_per_s >= c->thrash_minor_faults_per_s *
					     (ev->cpu_pct_x100 > 10000 ?
					      ev->cpu_pct_x100 / 10000 : 1)))
		return HK_MEM_THRASHING;
	/* its own cgroup's quota held it back: nobody else is to blame */
	if (hk_throttled(c, ev))
		return HK_THROTTLED;
	/* one thread waited most of the window, and the process waited more
	 * than it ran: ten threads waiting 10 % each are not starved; nor is
	 * a process that got all the CPUs it may use */
	if (hk_starved(c, ev))
		return HK_STARVED;
	if (ev->victim_tgid && ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100)
		return HK_NOISY_NEIGHBOR;
	/*
	 * Blocked on I/O: its threads slept in I/O wait (a disk, a network
	 * file system: what the kernel calls iowait) for that share of a
	 * thread's window, summed. After the memory labels: a thrashing
	 * process waits on I/O too, and memory is then the cause. Before
	 * CPU-bound: a process with a spinning thread and one stuck on a
	 * disk is held back by the disk.
	 */
	if (c->io_blocked_pct_x100 && ev->io_pct_x100 >= c->io_blocked_pct_x100)
		return HK_IO_BLOCKED;
	/* faults that its RSS growth explains are its work too: a compiler or
	 * a data loader at 100 % CPU that keeps what it computes */
	if (hk_cpu_hungry(c, ev) &&
	    ev->unexplained_faults_per_s + ev->major_faults_per_s < c->cpu_max_faults_per_s)
		return HK_CPU_BOUND;
	return HK_OK;
}

/* Could this process still become a Noisy neighbor in this window? */
static inline int hk_may_be_noisy(const struct hk_config *c,
				  const struct hk_evidence *ev, __u32 match)
{
	return (match == HK_OK || match == HK_IO_BLOCKED || match == HK_CPU_BOUND) &&
	       ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100;
}

/*
 * Windows in a row a match needs before it becomes the label. An OOM risk
 * rests on a trend that already spans several windows, and a Noisy
 * neighbor on a victim that entered Starved (which took its own windows):
 * neither waits again, so both sides of a pair change in the same window.
 */
static inline __u32 hk_enter_windows(const struct hk_config *c, __u32 match,
				     const struct hk_evidence *ev)
{
	if (match == HK_OOM_RISK ||
	    (match == HK_NOISY_NEIGHBOR && ev->victim_starved))
		return 1;
	return c->enter_windows;
}

/*
 * Feed one window's match; returns the label to move to (the current label
 * when nothing changes). The caller commits it with hk_hyst_commit only once
 * the transition was emitted, so a lost event is decided again next window.
 */
static inline __u32 hk_hyst_next(struct hk_hyst *h, __u32 match,
				 __u32 enter_windows, __u32 exit_windows)
{
	h->match = match;
	if (match == h->cand) {
		if (h->cand_windows < 0xffffffffU)
			h->cand_windows++;
	} else {
		h->cand = match;
		h->cand_windows = 1;
	}
	if (match == h->label) {
		h->miss_windows = 0;
		return h->label;
	}
	if (h->miss_windows < 0xffffffffU)
		h->miss_windows++;
	if (match != HK_OK && h->cand_windows >= enter_windows)
		return match;
	if (h->label != HK_OK && h->miss_windows >= exit_windows)
		return HK_OK;
	return h->label;
}

static inline void hk_hyst_commit(struct hk_hyst *h, __u32 label)
{
	if (label != h->label)
		h->miss_windows = 0;
	h->label = label;
}

/* Does this process need a window even when none of its threads ran? */
static inline int hk_needs_attention(const struct hk_proc *p)
{
	return p->hyst.label != HK_OK || p->hyst.cand != HK_OK;
}

/* The sample's cumulative counters become the next window's baseline. */
static inline void hk_proc_take_counters(struct hk_proc *p, const struct hk_sample *s)
{
	p->sample_ns = s->now_ns;
	p->runtime_ns = s->runtime_ns;
	p->minor_faults = s->minor_faults;
	p->major_faults = s->major_faults;
	p->nvcsw = s->nvcsw;
	p->nivcsw = s->nivcsw;
	p->rss_pages = s->rss_pages;
	p->anon_pages = s->anon_pages;
	p->throttled_ns = s->throttled_ns;
	/* a count is a cgroup's: its id says which (see hk_mem_high) */
	p->mem_high_events = s->mem_high_events;
	p->ev.mem_high_cgroup_id = s->mem_high_cgroup_id;
	p->ns_pid = s->ns_pid;
	p->ns_ino = s->ns_ino;
}

/* Forget everything and take this sample as the baseline. */
static inline void hk_proc_baseline(struct hk_proc *p, const struct hk_sample *s)
{
	p->start_time_ns = s->start_time_ns;
	hk_proc_take_counters(p, s);
	hk_trend_push(p, s->now_ns / HK_NSEC_PER_MSEC, s->anon_pages);
}

/* The memory limit that binds: the sample's memory cgroup, else RAM. */
static inline void hk_limit(const struct hk_config *c, const struct hk_sample *s,
			    struct hk_evidence *ev)
{
	ev->limit_partial = s->limit_partial;
	if (s->limit_bytes) {
		ev->limit_kind = s->limit_kind;
		ev->limit_bytes = s->limit_bytes;
		ev->headroom_bytes = s->headroom_bytes;
	} else {
		ev->limit_kind = HK_LIMIT_RAM;
		ev->limit_bytes = c->total_ram_bytes;
		ev->headroom_bytes = hk_sub_clamp(c->total_ram_bytes, ev->rss_anon_bytes);
	}
}

/*
 * The memory.high that binds and how often the kernel reclaimed its cgroup
 * for it in this window. The baseline is the count of the cgroup the last
 * sample named: when another cgroup binds now (the process moved, a limit
 * changed), the two counts are of different cgroups, and the rate waits a
 * window. The count is the cgroup's, not the process's: a process born in
 * the window takes it at its first sample, as a baseline.
 */
static inline void hk_mem_high(const struct hk_proc *p, const struct hk_sample *s,
			       __u64 window_ns, struct hk_evidence *ev)
{
	__u64 events = 0;

	if (s->mem_high_cgroup_id && s->mem_high_cgroup_id == p->ev.mem_high_cgroup_id)
		events = hk_sub_clamp(s->mem_high_events, p->mem_high_events);
	ev->mem_high_events_per_s = hk_per_s(events, window_ns);
	ev->mem_high_bytes = s->mem_high_bytes;
	ev->mem_high_usage_bytes = s->mem_high_usage_bytes;
	ev->mem_high_file_bytes = s->mem_high_file_bytes;
	ev->mem_high_cgroup_id = s->mem_high_cgroup_id;
	ev->mem_stalled = s->mem_stalled;
}

/*
 * The CPUs it may use: the host's, its affinity's (cpuset or taskset)
 * and its quota's, the fewest of them; and its throttled time over the
 * CPUs the quota lets its group use, whole CPUs, at least one: a group
 * throttled for a tenth of the window on each of 4 CPUs under a 4-CPU
 * quota reads 10 %, not 40 %.
 */
static inline void hk_cpu_room(const struct hk_config *c, const struct hk_sample *s,
			       struct hk_evidence *ev)
{
	__u64 host_x100 = (__u64)(c->nr_cpus ? c->nr_cpus : 1) * 100;
	__u64 usable_x100 = host_x100, group_x100 = host_x100;

	ev->cpus_allowed = s->cpus_allowed;
	ev->quota_cpus_x100 = s->quota_cpus_x100;
	ev->quota_cgroup_id = s->quota_cgroup_id;
	if (s->cpus_allowed && (__u64)s->cpus_allowed * 100 < usable_x100)
		usable_x100 = (__u64)s->cpus_allowed * 100;
	if (s->quota_cpus_x100 && s->quota_cpus_x100 < usable_x100)
		usable_x100 = s->quota_cpus_x100;
	if (s->quota_cpus_x100) {
		group_x100 = ((__u64)s->quota_cpus_x100 + 99) / 100 * 100;
		if (group_x100 > host_x100)
			group_x100 = host_x100;
	}
	ev->usable_cpus_x100 = (__u32)usable_x100;
	ev->throttled_norm_pct_x100 = (__u32)((__u64)ev->throttled_pct_x100 * 100 / group_x100);
}

/*
 * Steal and IRQ time of the hungriest thread's CPU (thread_cpu), which
 * sum_exec_runtime leaves out: a busy loop on a vCPU the host steals 15 %
 * of shows 85 % on a CPU and no wait (review finding 10). The thread's
 * part of it is its share of the time that CPU kept; with the time it ran
 * and waited, at most a whole window.
 */
static inline void hk_cpu_lost_share(const struct hk_sample *s, __u64 window_ns,
				     struct hk_evidence *ev)
{
	__u64 lost = hk_min_u64(hk_share_x100(s->cpu_lost_delta_ns, window_ns), 10000);
	__u64 left = 10000 - ev->thread_cpu_pct_x100 - ev->thread_queued_pct_x100;

	/* a CPU that kept nothing gives no share to go by */
	lost = lost < 10000 ? lost * ev->thread_cpu_pct_x100 / (10000 - lost) : 0;
	ev->cpu_lost_pct_x100 = (__u32)hk_min_u64(lost, left);
}

/* CPU and wait shares of the window, each thread at most a whole window. */
static inline void hk_cpu_shares(const struct hk_config *c, struct hk_proc *p,
				 const struct hk_sample *s, __u64 window_ns,
				 struct hk_evidence *ev)
{
	__u32 nr = s->nr_threads ? s->nr_threads : 1;
	__u32 nr_cpus = c->nr_cpus ? c->nr_cpus : 1;
	__u64 max_x100 = (__u64)nr * 10000;

	ev->cpu_pct_x100 = hk_share_x100(hk_sub_clamp(s->runtime_ns, p->runtime_ns),
					 window_ns);
	ev->wait_pct_x100 = (__u32)hk_min_u64(hk_share_x100(s->wait_delta_ns +
							    p->carry_wait_ns,
							    window_ns), max_x100);
	ev->thread_tid = s->thread_tid;
	ev->thread_cpu = s->thread_cpu;
	ev->thread_cpu_pct_x100 = (__u32)hk_min_u64(hk_share_x100(s->thread_run_delta_ns,
								  window_ns), 10000);
	ev->thread_queued_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(s->thread_queued_delta_ns, window_ns),
				  10000 - ev->thread_cpu_pct_x100);
	ev->wait_tid = s->wait_tid;
	ev->wait_nice = s->wait_nice;
	ev->wait_policy = s->wait_policy;
	ev->wait_group_weight = s->wait_group_weight;
	ev->wait_group_idle = s->wait_group_idle;
	ev->thread_wait_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(s->thread_wait_delta_ns +
						p->carry_thread_wait_ns, window_ns),
				  10000);
	p->carry_wait_ns = 0;
	p->carry_thread_wait_ns = 0;
	hk_cpu_lost_share(s, window_ns, ev);
	/* blocked time is per thread like wait: at most a window each */
	ev->io_pct_x100 = (__u32)hk_min_u64(hk_share_x100(s->io_delta_ns + p->carry_io_ns,
							  window_ns), max_x100);
	ev->io_tid = s->io_tid;
	ev->thread_io_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(s->thread_io_delta_ns +
						p->carry_thread_io_ns, window_ns),
				  10000);
	p->carry_io_ns = 0;
	p->carry_thread_io_ns = 0;
	/* summed over the CPUs its cgroups' run queues were throttled on */
	ev->throttled_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(hk_sub_clamp(s->throttled_ns,
							     p->throttled_ns),
						window_ns), (__u64)nr_cpus * 10000);
	hk_cpu_room(c, s, ev);
}

/*
 * RSS now, its growth in this window and over the trend. Growth is anon +
 * shmem only: file pages can be dropped by the kernel, so a process
 * streaming through a mapped file is not leaking. Faults are explained by
 * the growth of all RSS: a fault that maps a new page of any kind is
 * growth, not thrashing.
 */
static inline void hk_rss(const struct hk_config *c, const struct hk_proc *p,
			  const struct hk_sample *s, __u64 window_ns,
			  struct hk_evidence *ev)
{
	__u64 page = c->page_size_bytes, new_pages_per_s;
	__s64 anon_delta = (__s64)s->anon_pages - (__s64)p->anon_pages;
	__s64 rss_delta = (__s64)s->rss_pages - (__s64)p->rss_pages;

	ev->rss_bytes = s->rss_pages * page;
	ev->rss_anon_bytes = s->anon_pages * page;
	ev->rss_growth_bytes_per_s = hk_sdiv(anon_delta * (__s64)page * 1000,
					     window_ns / HK_NSEC_PER_MSEC);
	new_pages_per_s = rss_delta > 0 ? hk_per_s((__u64)rss_delta, window_ns) : 0;
	ev->unexplained_faults_per_s = hk_sub_clamp(ev->minor_faults_per_s,
						    new_pages_per_s);
}

/* Sample the trend on a time stride, then fit it up to the present. */
static inline void hk_trend(const struct hk_config *c, struct hk_proc *p,
			    const struct hk_sample *s, struct hk_evidence *ev)
{
	__u64 now_ms = s->now_ns / HK_NSEC_PER_MSEC;

	if (!p->trend_nr ||
	    now_ms >= hk_trend_newest_ms(p) + c->trend_stride_ns / HK_NSEC_PER_MSEC)
		hk_trend_push(p, now_ms, s->anon_pages);
	hk_trend_fit(p, now_ms, s->anon_pages, c->oom_trend_span_ns / HK_NSEC_PER_MSEC,
		     c->page_size_bytes, ev);
}

/*
 * One window for one process: rates from the counters' deltas, the RSS
 * trend, and this window's diagnosis (Noisy neighbor aside). Returns 1 when
 * the process has a diagnosis, 0 when this was its first sample (a baseline
 * only) or the window was too short to mean anything.
 */
static inline int hk_window_step(const struct hk_config *c, struct hk_proc *p,
				 const struct hk_sample *s, __u32 *match)
{
	struct hk_evidence *ev = &p->ev;
	__u64 window_ns, start_ns;

	*match = HK_OK;
	if (!p->windows++) {
		hk_proc_baseline(p, s);
		if (!s->fresh)
			return 0;
		/* born in this window: its whole life is its first window,
		 * measured from zero counters at its start. Not its RSS
		 * trend: a birth at zero pages is no evidence of growth. */
		p->sample_ns = s->start_time_ns;
		p->runtime_ns = 0;
		p->minor_faults = 0;
		p->major_faults = 0;
		p->nvcsw = 0;
		p->nivcsw = 0;
		p->rss_pages = 0;
		p->anon_pages = 0;
	}
	/* skipped as quiet until then: nothing it counts moved before */
	start_ns = s->quiet_until_ns > p->sample_ns ? s->quiet_until_ns : p->sample_ns;
	window_ns = hk_sub_clamp(s->now_ns, start_ns);
	/* a window shorter than a tenth of the interval carries no rate;
	 * its wait (per-thread deltas, already consumed) carries over */
	if (window_ns < c->interval_ns / 10 || window_ns < HK_NSEC_PER_MSEC) {
		p->windows--;
		p->carry_wait_ns += s->wait_delta_ns;
		p->carry_thread_wait_ns += s->thread_wait_delta_ns;
		p->carry_io_ns += s->io_delta_ns;
		p->carry_thread_io_ns += s->thread_io_delta_ns;
		return 0;
	}

	ev->window_ns = window_ns;
	ev->nr_threads = s->nr_threads;
	hk_cpu_shares(c, p, s, window_ns, ev);
	ev->minor_faults_per_s = hk_per_s(hk_sub_clamp(s->minor_faults, p->minor_faults),
					  window_ns);
	ev->major_faults_per_s = hk_per_s(hk_sub_clamp(s->major_faults, p->major_faults),
					  window_ns);
	ev->vcsw_per_s = hk_per_s(hk_sub_clamp(s->nvcsw, p->nvcsw), window_ns);
	ev->ivcsw_per_s = hk_per_s(hk_sub_clamp(s->nivcsw, p->nivcsw), window_ns);
	ev->aggressor_tgid = s->aggressor_tgid;
	ev->aggressor_switches = s->aggressor_switches;
	ev->victim_tgid = 0;
	ev->victim_switches = 0;
	ev->victim_starved = 0;
	ev->victim_deprioritised = 0;
	ev->memcg_id = s->memcg_id;
	hk_mem_high(p, s, window_ns, ev);

	hk_rss(c, p, s, window_ns, ev);
	hk_trend(c, p, s, ev);
	hk_limit(c, s, ev);
	ev->eta_s = ev->trend_samples < HK_TREND_MIN_SAMPLES ? (__u64)HK_ETA_NONE :
		    hk_eta_s(ev->headroom_bytes, ev->rss_slope_bytes_per_s);

	hk_proc_take_counters(p, s);
	*match = hk_classify(c, ev);
	return 1;
}

#endif /* HK_SHARED_CLASSIFY_H */
