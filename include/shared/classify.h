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

#define HK_NSEC_PER_SEC 1000000000ULL
#define HK_NSEC_PER_MSEC 1000000ULL

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

/*
 * Least-squares slope of RSS over the samples of the last span_ms, and how
 * steadily it grew. x is ms since the oldest sample used, y pages since it:
 * with a span of at most an hour and y below 2^32 pages, n * sum(x*y) stays
 * below 2^63. An interval counts as growth only when it grew by at least a
 * quarter of the average growth per interval: a one-off jump followed by a
 * creeping plateau is not steady growth.
 */
static inline int hk_trend_slot_used(const struct hk_proc *p, __u32 i,
				     __u64 now_ms, __u64 span_ms)
{
	__u32 slot = (p->trend_head + i) & (HK_TREND_SLOTS - 1);

	/* oldest first; slots never written and samples older than the
	 * span are not part of the trend */
	return i >= HK_TREND_SLOTS - p->trend_nr &&
	       p->trend_ms[slot] + span_ms >= now_ms;
}

static inline void hk_trend_fit(const struct hk_proc *p, __u64 now_ms,
				__u64 span_ms, __u32 page_size,
				struct hk_evidence *ev)
{
	__u64 x0 = 0, y0 = 0, prev = 0, last_x = 0;
	__s64 sx = 0, sy = 0, sxy = 0, sxx = 0, y = 0, num;
	__u32 n = 0, grew = 0, latest = 0, i;
	__u64 den, q, r, pps;

	for (i = 0; i < HK_TREND_SLOTS; i++) {
		__u32 slot = (p->trend_head + i) & (HK_TREND_SLOTS - 1);
		__s64 x;

		if (!hk_trend_slot_used(p, i, now_ms, span_ms))
			continue;
		if (!n) {
			x0 = p->trend_ms[slot];
			y0 = p->trend_pages[slot];
		}
		x = (__s64)(p->trend_ms[slot] - x0);
		y = (__s64)p->trend_pages[slot] - (__s64)y0;
		sx += x;
		sy += y;
		sxy += x * y;
		sxx += x * x;
		last_x = (__u64)x;
		n++;
	}
	/* y is now the net growth in pages: count the intervals that carry
	 * a fair share of it */
	for (i = 0; i < HK_TREND_SLOTS && n > 1 && y > 0; i++) {
		__u32 slot = (p->trend_head + i) & (HK_TREND_SLOTS - 1);
		__u64 pages = p->trend_pages[slot];

		if (!hk_trend_slot_used(p, i, now_ms, span_ms))
			continue;
		if (prev) {
			latest = pages > prev &&
				 (pages - prev) * 4 * (n - 1) >= (__u64)y;
			grew += latest;
		}
		prev = pages ? pages : 1;
	}

	ev->trend_samples = n;
	ev->trend_latest_grew = latest;
	ev->trend_grow_pct_x100 = n > 1 ? grew * 10000 / (n - 1) : 0;
	ev->rss_trend_ms = last_x;
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

static inline int hk_oom_risk(const struct hk_config *c,
			      const struct hk_evidence *ev)
{
	int big;

	if (ev->trend_samples < HK_TREND_MIN_SAMPLES || !ev->trend_latest_grew ||
	    ev->trend_grow_pct_x100 < c->oom_steady_pct_x100 ||
	    ev->rss_slope_bytes_per_s <= 0 ||
	    ev->rss_net_growth_bytes < (__s64)c->oom_min_growth_bytes)
		return 0;
	big = ev->rss_bytes >= c->oom_min_rss_bytes ||
	      (ev->limit_bytes &&
	       ev->rss_bytes * 10000 / ev->limit_bytes >= c->oom_min_rss_pct_x100);
	return big || ev->eta_s <= c->oom_eta_horizon_s;
}

/*
 * The diagnosis of one window, first match wins. Noisy neighbor needs the
 * other side of the pair: the walk sets victim_tgid once the window's
 * Starved processes are known, and classifies again.
 */
static inline __u32 hk_classify(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	__u32 nr_cpus = c->nr_cpus ? c->nr_cpus : 1;
	int cpu_heavy = ev->thread_cpu_pct_x100 >= c->cpu_thread_pct_x100 ||
			ev->cpu_pct_x100 / nr_cpus >= c->cpu_total_pct_x100;

	if (hk_oom_risk(c, ev))
		return HK_OOM_RISK;
	/* faults of a process busy on the CPU are its work, not thrashing */
	if (!cpu_heavy &&
	    (ev->major_faults_per_s >= c->thrash_major_faults_per_s ||
	     ev->unexplained_faults_per_s >= c->thrash_minor_faults_per_s))
		return HK_MEM_THRASHING;
	/* one thread waited most of the window, and the process waited more
	 * than it ran: ten threads waiting 10 % each are not starved */
	if (ev->thread_wait_pct_x100 >= c->starved_wait_pct_x100 &&
	    ev->wait_pct_x100 > ev->cpu_pct_x100)
		return HK_STARVED;
	if (ev->victim_tgid && ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100)
		return HK_NOISY_NEIGHBOR;
	if (cpu_heavy &&
	    ev->minor_faults_per_s + ev->major_faults_per_s < c->cpu_max_faults_per_s &&
	    ev->wait_pct_x100 < c->cpu_max_wait_pct_x100)
		return HK_CPU_BOUND;
	return HK_OK;
}

/* Could this process still become a Noisy neighbor in this window? */
static inline int hk_may_be_noisy(const struct hk_config *c,
				  const struct hk_evidence *ev, __u32 match)
{
	return (match == HK_OK || match == HK_CPU_BOUND) &&
	       ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100;
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
	p->ns_pid = s->ns_pid;
	p->ns_ino = s->ns_ino;
}

/* Forget everything and take this sample as the baseline. */
static inline void hk_proc_baseline(struct hk_proc *p, const struct hk_sample *s)
{
	p->start_time_ns = s->start_time_ns;
	hk_proc_take_counters(p, s);
	p->trend_skip = 0;
	hk_trend_push(p, s->now_ns / HK_NSEC_PER_MSEC, s->rss_pages);
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
	__u64 window_ns, page = c->page_size_bytes, new_pages_per_s;
	__s64 rss_delta_pages;

	*match = HK_OK;
	if (!p->windows++) {
		hk_proc_baseline(p, s);
		if (!s->fresh)
			return 0;
		/* born in this window: its whole life is its first window,
		 * measured from zero counters at its start */
		p->sample_ns = s->start_time_ns;
		p->runtime_ns = 0;
		p->minor_faults = 0;
		p->major_faults = 0;
		p->nvcsw = 0;
		p->nivcsw = 0;
		p->rss_pages = 0;
		p->trend_ms[0] = s->start_time_ns / HK_NSEC_PER_MSEC;
		p->trend_pages[0] = 0;
		hk_trend_push(p, s->now_ns / HK_NSEC_PER_MSEC, s->rss_pages);
	}
	window_ns = hk_sub_clamp(s->now_ns, p->sample_ns);
	/* a window shorter than a tenth of the interval carries no rate;
	 * its wait (per-thread deltas, already consumed) carries over */
	if (window_ns < c->interval_ns / 10 || window_ns < HK_NSEC_PER_MSEC) {
		p->windows--;
		p->carry_wait_ns += s->wait_delta_ns;
		p->carry_thread_wait_ns += s->thread_wait_delta_ns;
		return 0;
	}

	ev->window_ns = window_ns;
	ev->nr_threads = s->nr_threads;
	ev->cpu_pct_x100 = hk_share_x100(hk_sub_clamp(s->runtime_ns, p->runtime_ns),
					 window_ns);
	ev->thread_cpu_pct_x100 = hk_share_x100(s->thread_run_delta_ns, window_ns);
	ev->thread_tid = s->thread_tid;
	ev->thread_cpu = s->thread_cpu;
	ev->wait_pct_x100 = hk_share_x100(s->wait_delta_ns + p->carry_wait_ns,
					  window_ns);
	ev->thread_wait_pct_x100 = hk_share_x100(s->thread_wait_delta_ns +
						 p->carry_thread_wait_ns, window_ns);
	p->carry_wait_ns = 0;
	p->carry_thread_wait_ns = 0;
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
	ev->memcg_id = s->memcg_id;

	/* a leak faults its new pages in: those faults are not thrashing */
	rss_delta_pages = (__s64)s->rss_pages - (__s64)p->rss_pages;
	ev->rss_bytes = s->rss_pages * page;
	ev->rss_growth_bytes_per_s = hk_sdiv(rss_delta_pages * (__s64)page * 1000,
					     window_ns / HK_NSEC_PER_MSEC);
	new_pages_per_s = rss_delta_pages > 0 ?
		hk_per_s((__u64)rss_delta_pages, window_ns) : 0;
	ev->unexplained_faults_per_s = hk_sub_clamp(ev->minor_faults_per_s,
						    new_pages_per_s);

	if (p->windows > 1 &&
	    ++p->trend_skip >= (c->trend_stride_windows ? c->trend_stride_windows : 1)) {
		p->trend_skip = 0;
		hk_trend_push(p, s->now_ns / HK_NSEC_PER_MSEC, s->rss_pages);
	}
	hk_trend_fit(p, s->now_ns / HK_NSEC_PER_MSEC,
		     c->oom_trend_span_ns / HK_NSEC_PER_MSEC, c->page_size_bytes, ev);

	if (s->limit_bytes) {
		ev->limit_kind = s->limit_kind;
		ev->limit_bytes = s->limit_bytes;
		ev->headroom_bytes = s->headroom_bytes;
	} else {
		ev->limit_kind = HK_LIMIT_RAM;
		ev->limit_bytes = c->total_ram_bytes;
		ev->headroom_bytes = hk_sub_clamp(c->total_ram_bytes, ev->rss_bytes);
	}
	/* fewer samples than a trend needs: no ETA to speak of */
	ev->eta_s = ev->trend_samples < HK_TREND_MIN_SAMPLES ? (__u64)HK_ETA_NONE :
		    hk_eta_s(ev->headroom_bytes, ev->rss_slope_bytes_per_s);

	hk_proc_take_counters(p, s);
	*match = hk_classify(c, ev);
	return 1;
}

#endif /* HK_SHARED_CLASSIFY_H */
