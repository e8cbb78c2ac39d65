/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_trend.h - the RSS trend of one process: a ring of samples taken
 * on a time stride, a least-squares fit of them up to the present, and the
 * time left until its memory limit at that slope. The loops start at a
 * constant and branch on their index only, so that the verifier walks each
 * once (6.1 gives up on a variable start).
 */
#ifndef HK_SHARED_CLASSIFY_TREND_H
#define HK_SHARED_CLASSIFY_TREND_H

#include "hotspot.h"

/* v as the compiler cannot see through: a mask stays a mask (see
 * hk_growth_age), in the BPF object and in userspace alike */
#define HK_OPAQUE(v) __asm__ __volatile__("" : "+r"(v))

/* What the OOM trend follows: anon, resident or swapped out (a leak
 * swapped out at its limit goes on growing). */
static inline __u64 hk_owned_pages(const struct hk_sample *s)
{
	return s->anon_pages + s->swap_pages;
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
 * The sums of the fit. In the BPF object they live in .bss, volatile: held
 * in registers, BPF's ten of them were too few and clang spilled them to
 * the stack, 112 of the window step's 192 bytes at the bottom of the
 * walk's deepest call chain (the timer driver's needed 576 of 512 bytes on
 * 6.7-6.8: tests/bpf-prog-test/stack_chain.py). One walk runs at a time
 * (hk_cur's premise too), so one instance serves. Userspace (the unit
 * tests) keeps them on its stack.
 */
#ifdef __bpf__
#define HK_SCRATCH static volatile
#else
#define HK_SCRATCH
#endif

struct hk_fit_sums {
	__s64 sx, sy, sxy, sxx;
	__u64 grow_ms, prev_ms, prev_pages;
	__u64 x0, y0, total_ms;
	__s64 y;
};

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
	HK_SCRATCH struct hk_fit_sums f;
	__u64 ms, pages, den, q, r, pps, dt, dy;
	__s64 x, num;
	__u32 first = hk_trend_first(p, now_ms, span_ms), last = HK_TREND_SLOTS, n, i;

	if (p->trend_nr && hk_trend_newest_ms(p) == now_ms)
		last = HK_TREND_SLOTS - 1;	/* the present is in the ring */
	if (first > last)
		first = last;
	n = last - first + 1;
	hk_trend_at(p, first, now_ms, now_pages, &ms, &pages);
	f.x0 = ms;
	f.y0 = pages;
	hk_trend_at(p, last, now_ms, now_pages, &ms, &pages);
	f.total_ms = ms - f.x0;
	f.y = (__s64)pages - (__s64)f.y0;	/* the net growth */

	f.sx = f.sy = f.sxy = f.sxx = 0;
	f.grow_ms = 0;
	f.prev_ms = f.x0;
	f.prev_pages = f.y0;
	for (i = 0; i <= HK_TREND_SLOTS; i++) {
		if (i < first || i > last)
			continue;	/* constant start, as in hk_trend_first */
		hk_trend_at(p, i, now_ms, now_pages, &ms, &pages);
		x = (__s64)(ms - f.x0);
		f.sx += x;
		f.sy += (__s64)pages - (__s64)f.y0;
		f.sxy += x * ((__s64)pages - (__s64)f.y0);
		f.sxx += x * x;
		/* which intervals carry their share of the net growth? */
		dt = ms - f.prev_ms;
		dy = pages > f.prev_pages ? pages - f.prev_pages : 0;
		if (f.y > 0 && dy && dy * 4 * f.total_ms >= (__u64)f.y * dt)
			f.grow_ms += dt;
		f.prev_ms = ms;
		f.prev_pages = pages;
	}

	ev->trend_samples = n;
	ev->trend_grow_pct_x100 = f.total_ms ? (__u32)(f.grow_ms * 10000 / f.total_ms) : 0;
	ev->rss_trend_ms = f.total_ms;
	ev->rss_net_growth_bytes = f.y * (__s64)page_size;
	ev->rss_slope_bytes_per_s = 0;
	if (n < 2)
		return;
	num = (__s64)n * f.sxy - f.sx * f.sy;
	den = (__u64)((__s64)n * f.sxx - f.sx * f.sx);
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
 * How long the growth has lasted: the time the trend has shown growth as
 * the OOM rule reads it (a positive slope, min_growth net, in `steady` of
 * its time), window after window, and at least the time the trend covers.
 * Not bounded by the trend's span: a leak of an hour is an hour old. A
 * window whose trend is not steady (a pause, a GC) holds the age where it
 * was; a trend with no net growth left (flat for about a span) starts it
 * over. ev holds the window before on entry (the step writes the
 * process's evidence in place): a 0 there is none, as a growth's age is
 * at least the trend's time, which is not 0 once there is a slope.
 */
static inline void hk_growth_age(const struct hk_config *c, struct hk_evidence *ev)
{
	__u64 prev_ms = ev->rss_growing_ms, age_ms, grows, steadily;
	__u64 grows_mask, steady_mask, older_mask, short_mask, over_mask;

	/*
	 * Branch-free, in sign masks (all ones or zero; every operand is
	 * below 2^62), each opaque to the compiler, which would turn it back
	 * into a branch: a branch here doubles the states the verifier walks
	 * through the rest of the window step (656 k instructions to over
	 * its 1 M limit).
	 */
	grows = (__u64)-ev->rss_slope_bytes_per_s &
		~(__u64)(ev->rss_net_growth_bytes - (__s64)c->oom_min_growth_bytes);
	steadily = grows & ~((__u64)ev->trend_grow_pct_x100 - c->oom_steady_pct_x100);
	grows_mask = (__u64)((__s64)grows >> 63);
	steady_mask = (__u64)((__s64)steadily >> 63);
	older_mask = (__u64)((__s64)(steadily & (0 - prev_ms)) >> 63);
	HK_OPAQUE(grows_mask);
	HK_OPAQUE(steady_mask);
	HK_OPAQUE(older_mask);
	age_ms = prev_ms + (ev->window_ns / HK_NSEC_PER_MSEC & older_mask);
	short_mask = (__u64)((__s64)(age_ms - ev->rss_trend_ms) >> 63) & steady_mask;
	HK_OPAQUE(short_mask);
	age_ms += (ev->rss_trend_ms - age_ms) & short_mask;	/* at least the trend */
	over_mask = (__u64)((__s64)(0xffffffffULL - age_ms) >> 63);
	HK_OPAQUE(over_mask);
	age_ms = (age_ms & ~over_mask) | (0xffffffffULL & over_mask);
	ev->rss_growing_ms = (__u32)(age_ms & grows_mask);
}

/*
 * Sample the trend on a time stride, then fit it up to the present and
 * age the growth it shows. ev->window_ns is this window's.
 */
static inline void hk_trend(const struct hk_config *c, struct hk_proc *p,
			    const struct hk_sample *s, struct hk_evidence *ev)
{
	__u64 now_ms = s->now_ns / HK_NSEC_PER_MSEC;

	if (!p->trend_nr ||
	    now_ms >= hk_trend_newest_ms(p) + c->trend_stride_ns / HK_NSEC_PER_MSEC)
		hk_trend_push(p, now_ms, hk_owned_pages(s));
	hk_trend_fit(p, now_ms, hk_owned_pages(s), c->oom_trend_span_ns / HK_NSEC_PER_MSEC,
		     c->page_size_bytes, ev);
	hk_growth_age(c, ev);
}

#endif /* HK_SHARED_CLASSIFY_TREND_H */
