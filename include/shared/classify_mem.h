/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_mem.h - memory in one window: RSS and its growth, the limit
 * that binds (a memory cgroup's or the host's) and its memory.high, the
 * kernel's own memory stall time, and the rules on them: OOM risk (on the
 * trend, classify_trend.h), held at memory.high, Mem-thrashing.
 *
 * Growth is anon memory, resident or swapped out (hk_owned_pages): the
 * kernel can drop file pages, and swapping a leak out does not stop it.
 * Mapped shmem is not this process's growth: a PostgreSQL backend mapping
 * shared_buffers page by page allocates nothing (the pages were charged
 * when their creator touched them); a process that fills tmpfs shows in
 * its memory cgroup's usage, i.e. in every member's headroom.
 */
#ifndef HK_SHARED_CLASSIFY_MEM_H
#define HK_SHARED_CLASSIFY_MEM_H

#include "hotspot.h"
#include "classify_math.h"
#include "classify_trend.h"	/* hk_owned_pages() */

/*
 * Evidence in proportion to the time left: the growth must have lasted
 * (hk_growth_age) eta_share of its ETA beyond eta_floor. Within the
 * floor, min_trend is evidence enough (a memory cgroup filling in
 * seconds is flagged at once); minutes away, there is time to wait, and
 * a buffer, a cache or a heap warming up levels off before it is a risk
 * (1.2 GB of dictionaries filled in 20 s, 444 s from the host's limit,
 * would need 81 s of growth). A steady leak enters with 1 / (1 + share)
 * of its ETA beyond the floor still ahead: four fifths at 25 %.
 * eta_s is within the horizon (at most 30 days): times 10000 fits.
 */
static inline int hk_oom_lasted(const struct hk_config *c,
				const struct hk_evidence *ev, __u64 slack_ms)
{
	__u64 need_ms;

	if (ev->eta_s <= c->oom_eta_floor_s)
		return 1;
	/* s * pct_x100 / 10000 * 1000 ms */
	need_ms = (ev->eta_s - c->oom_eta_floor_s) * c->oom_eta_share_pct_x100 / 10;
	return ev->rss_growing_ms + slack_ms >= need_ms;
}

/*
 * OOM risk is decided on the present: its anon memory grew in this very
 * window, steadily over a trend that covers min_trend at least, give or
 * take a quarter of an interval (a warm-up or a process born big is not a
 * leak), at this slope it reaches its limit within the horizon, and it
 * has grown for long enough for the time it has left (hk_oom_lasted).
 * Size alone is not a risk: a database warming its buffer pool grows for
 * long, but its ETA is days.
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
	       ev->eta_s <= c->oom_eta_horizon_s &&
	       hk_oom_lasted(c, ev, slack_ms);
}

/*
 * A held OOM risk whose ETA fell under freeze_eta_s in this window: the
 * freeze is decided again on it (a process that entered with an ETA above
 * the setting is frozen as its ETA shrinks). Once per crossing: the window
 * before was above (or had no ETA: HK_ETA_NONE is the largest __u64). At
 * the entry the transition carries the ETA: label is the one held before
 * this window's commit.
 */
static inline int hk_eta_crossed(const struct hk_config *c, __u32 label,
				 __u64 eta_before_s, __u64 eta_now_s)
{
	return c->freeze_eta_s && label == HK_OOM_RISK &&
	       eta_now_s <= c->freeze_eta_s && eta_before_s > c->freeze_eta_s;
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
 * The memory limit that binds: the smaller headroom of the sample's memory
 * cgroups and of the host (what it can still give: free + reclaimable, as
 * MemAvailable). A leak beside a big healthy process reaches the host's
 * OOM long before RAM minus itself; pods whose limits add up to more than
 * the node reach the node's first. Without the host's figure (not read:
 * no memory cgroup controller), RAM less its own anon, as before.
 */
static inline void hk_limit(const struct hk_config *c, const struct hk_sample *s,
			    struct hk_evidence *ev)
{
	ev->limit_partial = s->limit_partial;
	if (s->host_avail_known &&
	    (!s->limit_bytes || s->host_avail_bytes < s->headroom_bytes)) {
		ev->limit_kind = HK_LIMIT_HOST;
		ev->limit_bytes = c->total_ram_bytes;
		ev->headroom_bytes = s->host_avail_bytes;
	} else if (s->limit_bytes) {
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
 * The kernel's own memory stall time (delay accounting): the thread
 * stalled longest in this window, on refaults of its working set
 * (thrashing), swap-in, direct reclaim and compaction, and its share of
 * the window. Not copy-on-write (wpcopy): a fork's copies are work.
 */
static inline void hk_mem_stall(const struct hk_sample *s, __u64 window_ns,
				struct hk_evidence *ev)
{
	ev->mem_stall_tid = s->mem_stall_tid;
	ev->sampled = s->sampled;
	ev->mem_stall_pct_x100 = hk_thread_share_x100(s->thread_mem_stall_delta_ns,
						      window_ns);
}

/*
 * A thread's memory stall between two reads of its delay accounting:
 * max(thrashing, swap-in) + reclaim + compaction. The kernel wraps a
 * working-set page's swap-in in both delayacct_thrashing_start() and
 * delayacct_swapin_start() (swap_read_folio()), so the zram/zswap
 * thrashing case counts once in each: their sum made a 10 % threshold act
 * like 5 %. Reclaim and compaction are separate stalls. A counter that
 * went back (a baseline of another thread) counts nothing.
 */
static inline __u64 hk_mem_stall_delta(const struct hk_stall_ns *now,
				       const struct hk_stall_ns *seen)
{
	__u64 thrashing = hk_sub_clamp(now->thrashing_ns, seen->thrashing_ns);
	__u64 swapin = hk_sub_clamp(now->swapin_ns, seen->swapin_ns);

	return (thrashing > swapin ? thrashing : swapin) +
	       hk_sub_clamp(now->other_ns, seen->other_ns);
}

/*
 * A thread with no delay accounting (enum hk_source): its share of a
 * window blocked or stalled, from how many of its last HK_SAMPLE_WALKS
 * visits found it so (bits, newest lowest): each hit an eighth of the
 * window, once HK_SAMPLE_MIN_HITS of them are in; fewer count nothing.
 * The gate is what chance allows: a pool of 100 threads each blocked 1 %
 * of the time shows one thread with 3 hits in 8 walks once in ~180
 * windows (C(8,3) x 1e-6 x 100), 2 hits once in ~4. Above it the share is
 * unbiased, and 8 visits keep it steady: a thread stalled 45 % of the
 * time is over the gate in 78 % of its windows, and consecutive windows
 * share 7 of their 8 visits. A single sample per window would be all or
 * nothing, window by window; four visits less one hit (the first version)
 * read a 50 % stall as ~27 %, and a page-cache thrash started before the
 * tool stayed under the 10 % stall rule one run in three.
 */
static inline __u64 hk_sampled_ns(__u32 bits, __u64 window_ns)
{
	__u32 n = bits & 0xff;

	n = n - ((n >> 1) & 0x55);
	n = (n & 0x33) + ((n >> 2) & 0x33);
	n = (n + (n >> 4)) & 0x0f;
	return n >= HK_SAMPLE_MIN_HITS ? window_ns / HK_SAMPLE_WALKS * n : 0;
}

/*
 * A thread's stall in a window: the sampled share without delay
 * accounting; with it, the larger of its counters' delta and the sampled
 * share, never both. Delay accounting credits a stall when it ends (and
 * leaves its *_start set after): a thread stuck in one long reclaim or
 * swap-in showed nothing until it returned. 1 in *sampled when the sample
 * is the figure.
 */
static inline __u64 hk_stall_pick(__u64 delays_ns, __u64 sampled_ns, __u32 no_delays,
				  __u32 *sampled)
{
	*sampled = no_delays || sampled_ns > delays_ns;
	return *sampled ? sampled_ns : delays_ns;
}

/* Was it memory pressure (a stall), or a fault storm with none? */
static inline int hk_thrash_stalled(const struct hk_config *c,
				    const struct hk_evidence *ev)
{
	return c->thrash_stall_pct_x100 &&
	       ev->mem_stall_pct_x100 >= c->thrash_stall_pct_x100;
}

/*
 * Mem-thrashing. A thread stalled on memory for thrash_stall of the
 * window is, busy or not: zram/zswap swap-ins and direct reclaim run in
 * the faulting thread, on its CPU. Else hotspot-bpf's rule, kept: costly
 * (major) or very many minor faults that RSS growth does not explain,
 * with low CPU (the faults of a process busy on the CPU are its work; the
 * minor threshold is per CPU it ran on: 15 k/s over 30 CPUs is noise).
 * Copy-on-write, NUMA hinting and allocator churn land there too, with no
 * stall: such an event goes out as a notice (hk_thrash_stalled).
 */
static inline int hk_mem_thrashing(const struct hk_config *c,
				   const struct hk_evidence *ev, int busy)
{
	if (hk_thrash_stalled(c, ev))
		return 1;
	return !busy &&
	       (ev->major_faults_per_s >= c->thrash_major_faults_per_s ||
		ev->unexplained_faults_per_s >= c->thrash_minor_faults_per_s *
						(ev->cpu_pct_x100 > 10000 ?
						 ev->cpu_pct_x100 / 10000 : 1));
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
 * RSS now, its growth in this window and over the trend. Growth is anon,
 * resident or swapped out (hk_owned_pages): file pages can be dropped by
 * the kernel, so a process streaming through a mapped file is not
 * leaking. Faults are explained by the growth of all RSS: a fault that
 * maps a new page of any kind is growth, not thrashing.
 */
static inline void hk_rss(const struct hk_config *c, const struct hk_proc *p,
			  const struct hk_sample *s, __u64 window_ns,
			  struct hk_evidence *ev)
{
	__u64 page = c->page_size_bytes, new_pages_per_s;
	__s64 anon_delta = (__s64)hk_owned_pages(s) - (__s64)p->owned_pages;
	__s64 rss_delta = (__s64)s->rss_pages - (__s64)p->rss_pages;

	ev->rss_bytes = s->rss_pages * page;
	ev->rss_anon_bytes = s->anon_pages * page;
	ev->swap_bytes = s->swap_pages * page;
	ev->rss_growth_bytes_per_s = hk_sdiv(anon_delta * (__s64)page * 1000,
					     window_ns / HK_NSEC_PER_MSEC);
	new_pages_per_s = rss_delta > 0 ? hk_per_s((__u64)rss_delta, window_ns) : 0;
	ev->unexplained_faults_per_s = hk_sub_clamp(ev->minor_faults_per_s,
						    new_pages_per_s);
}

#endif /* HK_SHARED_CLASSIFY_MEM_H */
