// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The window step of include/shared/classify.h, the very header the BPF
 * object compiles, hand-computed: rates, shares, signed division, the
 * least-squares trend up to the present, ETA, hysteresis with a lost
 * event, one process's windows (clamps, quiet gaps, a fresh process).
 */
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/classify.h"
#include "config/config.h"
#include "suites.h"
#include "check.h"



/* --- rates, shares, division ---------------------------------------------- */

static void test_per_s(void)
{
	EQ(hk_per_s(10, 1 * HK_NSEC_PER_SEC), 10);
	EQ(hk_per_s(9700, 1 * HK_NSEC_PER_SEC), 9700);
	EQ(hk_per_s(5, 2500 * HK_NSEC_PER_MSEC), 2);		/* 2.0 */
	EQ(hk_per_s(3, 1500 * HK_NSEC_PER_MSEC), 2);		/* 2.0 */
	EQ(hk_per_s(1, 1500 * HK_NSEC_PER_MSEC), 0);		/* 0.67 rounds down */
	EQ(hk_per_s(7, 999 * HK_NSEC_PER_MSEC + 999999), 7);	/* whole ms only: 999 ms */
	EQ(hk_per_s(36000, 5 * HK_NSEC_PER_SEC), 7200);
	EQ(hk_per_s(1000, 999999), 0);			/* under a ms: no rate */
	EQ(hk_per_s(1000, 0), 0);
	EQ(hk_per_s(0, 1 * HK_NSEC_PER_SEC), 0);
	/* counts up to 2^44 stay exact */
	EQ_U64(hk_per_s(1ULL << 44, 1 * HK_NSEC_PER_MSEC), (1ULL << 44) * 1000);
}

static void test_share_x100(void)
{
	EQ(hk_share_x100(990 * HK_NSEC_PER_MSEC, 1 * HK_NSEC_PER_SEC), 9900);
	EQ(hk_share_x100(3 * HK_NSEC_PER_MSEC, 1 * HK_NSEC_PER_SEC), 30);
	EQ(hk_share_x100(250 * HK_NSEC_PER_MSEC, 500 * HK_NSEC_PER_MSEC), 5000);
	EQ(hk_share_x100(1500 * HK_NSEC_PER_MSEC, 1 * HK_NSEC_PER_SEC), 15000);	/* over 100 % */
	EQ(hk_share_x100(999, 1 * HK_NSEC_PER_SEC), 0);			/* under a us */
	EQ(hk_share_x100(12345678, 1 * HK_NSEC_PER_SEC), 123);		/* 1.2345 % */
	EQ(hk_share_x100(1 * HK_NSEC_PER_SEC, 3 * HK_NSEC_PER_SEC), 3333);
	EQ(hk_share_x100(1 * HK_NSEC_PER_SEC, 999), 0);			/* window under a us */
	EQ(hk_share_x100(1 * HK_NSEC_PER_SEC, 0), 0);
	/* saturates rather than wrapping */
	EQ_U64(hk_share_x100(1000000000000000ULL, 1000), 0xffffffffULL);
}

static void test_sdiv(void)
{
	EQ(hk_sdiv(7, 2), 3);
	EQ(hk_sdiv(-7, 2), -3);		/* towards zero, not -4 */
	EQ(hk_sdiv(-8, 4), -2);
	EQ(hk_sdiv(-1, 3), 0);
	EQ(hk_sdiv(-9000000000LL, 1000), -9000000);
	EQ(hk_sdiv(-9223372036854775807LL, 1), -9223372036854775807LL);
	EQ(hk_sdiv(5, 0), 0);
	EQ(hk_sdiv(-5, 0), 0);
	EQ(hk_sub_clamp(5, 7), 0);
	EQ(hk_sub_clamp(7, 5), 2);
}

/* --- trend ---------------------------------------------------------------- */

static void trend_of(struct hk_proc *p, const __u64 *ms, const __u64 *pages, int n)
{
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < n; i++)
		hk_trend_push(p, ms[i], pages[i]);
}

static void test_trend_fit(void)
{
	struct hk_evidence ev;
	struct hk_proc p;

	/*
	 * Two samples and the present: x = 0, 1000, 2000 ms; y = 0, 10, 30
	 * pages. n = 3, sx = 3000, sy = 40, sxy = 70000, sxx = 5e6: num =
	 * 90000, den = 6e6, 0.015 pages/ms = 15 pages/s = 61440 B/s. Both
	 * intervals carry a quarter of their share of the 30 pages.
	 */
	{
		static const __u64 ms[] = { 1000, 2000 }, pg[] = { 100, 110 };

		trend_of(&p, ms, pg, 2);
		memset(&ev, 0xff, sizeof(ev));
		hk_trend_fit(&p, 3000, 130, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.rss_slope_bytes_per_s, 61440);
		EQ(ev.rss_net_growth_bytes, 30 * 4096);
		EQ(ev.rss_trend_ms, 2000);
		EQ(ev.trend_grow_pct_x100, 10000);
	}
	/* the present sampled into the ring already: not counted twice */
	{
		static const __u64 ms[] = { 1000, 2000, 3000 }, pg[] = { 100, 110, 130 };

		trend_of(&p, ms, pg, 3);
		hk_trend_fit(&p, 3000, 130, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.rss_slope_bytes_per_s, 61440);
	}
	/*
	 * Falling: y = 0, -50, -50, -100 at x = 0..3000 (the last the
	 * present). sx = 6000, sy = -200, sxy = -450000, sxx = 14e6: num =
	 * -600000, den = 20e6, -0.03 pages/ms = -30 pages/s = -122880 B/s.
	 */
	{
		static const __u64 ms[] = { 0, 1000, 2000 }, pg[] = { 200, 150, 150 };

		trend_of(&p, ms, pg, 3);
		hk_trend_fit(&p, 3000, 100, 30000, 4096, &ev);
		EQ(ev.trend_samples, 4);
		EQ(ev.rss_slope_bytes_per_s, -122880);
		EQ(ev.rss_net_growth_bytes, -100 * 4096);
		EQ(ev.trend_grow_pct_x100, 0);
	}
	/* y = 0, 1, 5: num = 15000, den = 6e6: 2.5 pages/s rounds down to 2 */
	{
		static const __u64 ms[] = { 0, 1000 }, pg[] = { 7, 8 };

		trend_of(&p, ms, pg, 2);
		hk_trend_fit(&p, 2000, 12, 30000, 4096, &ev);
		EQ(ev.rss_slope_bytes_per_s, 2 * 4096);
	}
	/*
	 * Ten pushes into the 8-slot ring: the first two are overwritten and
	 * must not count (their values would wreck the fit). Used: x = 0..7 s,
	 * y = 0, 0, 4000, 4000, 8000, 8000, 12000, 12000 pages. n = 8,
	 * sx = 28000, sy = 48000, sxy = 248e6, sxx = 140e6: num = 640e6,
	 * den = 336e6, 1.90476 pages/ms = 1904 pages/s = 7798784 B/s.
	 * Grew in 3 s of 7 (4285).
	 */
	{
		static const __u64 ms[] = { 0, 1000, 2000, 3000, 4000, 5000, 6000,
					    7000, 8000, 9000 };
		static const __u64 pg[] = { 1, 9999999, 100000, 100000, 104000,
					    104000, 108000, 108000, 112000, 112000 };

		trend_of(&p, ms, pg, 10);
		EQ(p.trend_nr, HK_TREND_SLOTS);
		EQ(p.trend_head, 2);
		hk_trend_fit(&p, 9000, 112000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 8);
		EQ(ev.rss_slope_bytes_per_s, 1904 * 4096);
		EQ(ev.rss_net_growth_bytes, 12000 * 4096);
		EQ(ev.rss_trend_ms, 7000);
		EQ(ev.trend_grow_pct_x100, 4285);
	}
	/*
	 * Span 30 s at now = 40 s: the sample at 0 s (older) is ignored, the
	 * one at exactly 10 s is kept. x = 0, 10, 20, 30 s (the present);
	 * y = 0, 0, 1000, 2000: sx = 60000, sy = 3000, sxy = 8e7, sxx =
	 * 14e8: num = 1.4e8, den = 2e9, 70 pages/s. Grew 20 s of 30 (6666).
	 */
	{
		static const __u64 ms[] = { 0, 10000, 20000, 30000 };
		static const __u64 pg[] = { 9999999, 1000, 1000, 2000 };

		trend_of(&p, ms, pg, 4);
		hk_trend_fit(&p, 40000, 3000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 4);
		EQ(ev.rss_slope_bytes_per_s, 70 * 4096);
		EQ(ev.rss_net_growth_bytes, 2000 * 4096);
		EQ(ev.rss_trend_ms, 30000);
		EQ(ev.trend_grow_pct_x100, 6666);
		/* one ms later the 10 s sample is out too: 20 s, 30 s, the
		 * present at 40.001 s; both intervals grew */
		hk_trend_fit(&p, 40001, 3000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.rss_net_growth_bytes, 2000 * 4096);
		EQ(ev.rss_trend_ms, 20001);
		EQ(ev.trend_grow_pct_x100, 10000);
	}
	/*
	 * Time-weighted steadiness: 4 s flat, then 1 s that grew. The short
	 * interval counts for 1 s of 5, not for one interval of two.
	 */
	{
		static const __u64 ms[] = { 0, 4000 }, pg[] = { 100, 100 };

		trend_of(&p, ms, pg, 2);
		hk_trend_fit(&p, 5000, 200, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.trend_grow_pct_x100, 2000);
	}
	/* no sample, one, two at the same ms, all older than the span */
	{
		static const __u64 ms[] = { 5000, 5000 }, pg[] = { 100, 200 };

		trend_of(&p, ms, pg, 0);
		hk_trend_fit(&p, 5000, 100, 30000, 4096, &ev);
		EQ(ev.trend_samples, 1);	/* the present alone */
		EQ(ev.rss_slope_bytes_per_s, 0);
		EQ(ev.rss_net_growth_bytes, 0);
		EQ(ev.rss_trend_ms, 0);
		EQ(ev.trend_grow_pct_x100, 0);

		trend_of(&p, ms, pg, 1);
		hk_trend_fit(&p, 5000, 100, 30000, 4096, &ev);
		EQ(ev.trend_samples, 1);
		EQ(ev.rss_slope_bytes_per_s, 0);

		trend_of(&p, ms, pg, 2);
		hk_trend_fit(&p, 5000, 200, 30000, 4096, &ev);
		EQ(ev.trend_samples, 2);
		EQ(ev.rss_slope_bytes_per_s, 0);
		EQ(ev.rss_net_growth_bytes, 100 * 4096);

		trend_of(&p, ms, pg, 2);
		hk_trend_fit(&p, 40000, 900, 30000, 4096, &ev);
		EQ(ev.trend_samples, 1);
		EQ(ev.rss_net_growth_bytes, 0);
	}
}

static void test_eta(void)
{
	EQ(hk_eta_s(1000, 10), 100);
	EQ(hk_eta_s(1009, 10), 100);
	EQ(hk_eta_s(5, 10), 0);
	EQ_U64(hk_eta_s(1000, 0), (__u64)HK_ETA_NONE);
	EQ_U64(hk_eta_s(1000, -5), (__u64)HK_ETA_NONE);
	/* the leak vector in window 11: 16 GiB - 484966400 B at 38010880 B/s */
	EQ(hk_eta_s(16694902784ULL, 38010880), 439);
}

static struct hk_config cfg;

static void vec_config(void)
{
	hkv_config(&cfg);
}

/* --- hysteresis ------------------------------------------------------------ */

/* Feed a match; check what hk_hyst_next decides; commit unless told. */
static void hyst_step(struct hk_hyst *h, __u32 match, __u32 want, int commit,
		      unsigned int line, int step)
{
	__u32 to = hk_hyst_next(h, match, 2, 3);

	check_label(to, want, line, "step %d: hk_hyst_next(%s)", step,
		    hkv_label_name(match));
	check_label(h->match, match, line, "step %d: match recorded", step);
	if (commit)
		hk_hyst_commit(h, to);
}

#define STEP(m, want, commit) hyst_step(&h, (m), (want), (commit), __LINE__, ++step)

static void test_hyst_enter_exit(void)
{
	struct hk_hyst h;
	int step = 0;

	memset(&h, 0, sizeof(h));
	STEP(HK_OK, HK_OK, 1);
	STEP(HK_CPU_BOUND, HK_OK, 1);		/* 1 of 2 */
	STEP(HK_CPU_BOUND, HK_CPU_BOUND, 1);	/* enters */
	EQ(h.label, HK_CPU_BOUND);
	EQ(h.miss_windows, 0);
	STEP(HK_CPU_BOUND, HK_CPU_BOUND, 1);
	STEP(HK_OK, HK_CPU_BOUND, 1);		/* miss 1 */
	STEP(HK_OK, HK_CPU_BOUND, 1);		/* miss 2 */
	STEP(HK_CPU_BOUND, HK_CPU_BOUND, 1);	/* a match resets the misses */
	EQ(h.miss_windows, 0);
	STEP(HK_OK, HK_CPU_BOUND, 1);
	STEP(HK_OK, HK_CPU_BOUND, 1);
	STEP(HK_OK, HK_OK, 1);			/* miss 3: leaves */
	EQ(h.label, HK_OK);
	EQ(h.miss_windows, 0);
	STEP(HK_OK, HK_OK, 1);

	/* alternating never enters */
	memset(&h, 0, sizeof(h));
	STEP(HK_CPU_BOUND, HK_OK, 1);
	STEP(HK_OK, HK_OK, 1);
	STEP(HK_CPU_BOUND, HK_OK, 1);
	STEP(HK_STARVED, HK_OK, 1);
	STEP(HK_CPU_BOUND, HK_OK, 1);

	/* from one label straight to another after 2 matches of it */
	memset(&h, 0, sizeof(h));
	STEP(HK_NOISY_NEIGHBOR, HK_OK, 1);
	STEP(HK_NOISY_NEIGHBOR, HK_NOISY_NEIGHBOR, 1);
	STEP(HK_CPU_BOUND, HK_NOISY_NEIGHBOR, 1);
	STEP(HK_CPU_BOUND, HK_CPU_BOUND, 1);
	EQ(h.label, HK_CPU_BOUND);

	/* misses by other diagnoses count as misses too */
	memset(&h, 0, sizeof(h));
	STEP(HK_STARVED, HK_OK, 1);
	STEP(HK_STARVED, HK_STARVED, 1);
	STEP(HK_OK, HK_STARVED, 1);
	STEP(HK_CPU_BOUND, HK_STARVED, 1);
	STEP(HK_OK, HK_OK, 1);
}

static void test_hyst_retry(void)
{
	struct hk_hyst h;
	int step = 0;

	/* an entry whose event was lost is decided again next window */
	memset(&h, 0, sizeof(h));
	STEP(HK_MEM_THRASHING, HK_OK, 1);
	STEP(HK_MEM_THRASHING, HK_MEM_THRASHING, 0);	/* lost */
	EQ(h.label, HK_OK);
	STEP(HK_MEM_THRASHING, HK_MEM_THRASHING, 0);	/* lost again */
	STEP(HK_MEM_THRASHING, HK_MEM_THRASHING, 1);	/* sent */
	EQ(h.label, HK_MEM_THRASHING);
	EQ(h.miss_windows, 0);
	STEP(HK_MEM_THRASHING, HK_MEM_THRASHING, 1);

	/* a lost exit too */
	STEP(HK_OK, HK_MEM_THRASHING, 1);
	STEP(HK_OK, HK_MEM_THRASHING, 1);
	STEP(HK_OK, HK_OK, 0);				/* lost */
	EQ(h.label, HK_MEM_THRASHING);
	STEP(HK_OK, HK_OK, 1);				/* sent */
	EQ(h.label, HK_OK);
	EQ(h.miss_windows, 0);

	/* a lost exit, then the label matches again: no transition */
	memset(&h, 0, sizeof(h));
	STEP(HK_STARVED, HK_OK, 1);
	STEP(HK_STARVED, HK_STARVED, 1);
	STEP(HK_OK, HK_STARVED, 1);
	STEP(HK_OK, HK_STARVED, 1);
	STEP(HK_OK, HK_OK, 0);				/* lost */
	STEP(HK_STARVED, HK_STARVED, 1);
	EQ(h.label, HK_STARVED);
	EQ(h.miss_windows, 0);
}

/* --- the window step -------------------------------------------------------- */

static void test_window_step(void)
{
	struct hk_sample s;
	struct hk_proc p;
	__u32 match = 77;

	vec_config();
	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	s.now_ns = 100 * HK_NSEC_PER_SEC;
	s.runtime_ns = 50 * HK_NSEC_PER_SEC;
	s.major_faults = 1000;
	s.rss_pages = 150;
	s.anon_pages = 100;
	/* the first sample is only a baseline */
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(match, HK_OK);
	EQ(p.windows, 1);
	EQ(p.runtime_ns, 50 * HK_NSEC_PER_SEC);
	EQ(p.trend_nr, 1);
	EQ(p.trend_pages[0], 100);	/* anon only (+ swapped out) */

	/* 99 ms later: under a tenth of the interval, no window; baseline kept */
	s.now_ns += 99 * HK_NSEC_PER_MSEC;
	s.runtime_ns += 99 * HK_NSEC_PER_MSEC;
	match = 77;
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(match, HK_OK);
	EQ(p.windows, 1);
	EQ(p.sample_ns, 100 * HK_NSEC_PER_SEC);
	EQ(p.runtime_ns, 50 * HK_NSEC_PER_SEC);

	/* 1 s after the baseline: 990 ms ran, wait carried from a skipped
	 * sample adds in, counters that went backwards count as 0 */
	s.now_ns = 101 * HK_NSEC_PER_SEC;
	s.runtime_ns = 50 * HK_NSEC_PER_SEC + 990 * HK_NSEC_PER_MSEC;
	s.thread_run_delta_ns = 990 * HK_NSEC_PER_MSEC;
	s.thread_queued_delta_ns = 5 * HK_NSEC_PER_MSEC;
	s.wait_delta_ns = 30 * HK_NSEC_PER_MSEC;
	s.thread_wait_delta_ns = 30 * HK_NSEC_PER_MSEC;
	s.throttled_ns = 7 * HK_NSEC_PER_SEC;	/* its cgroup's, since long before */
	s.major_faults = 10;
	p.carry_wait_ns = 20 * HK_NSEC_PER_MSEC;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.windows, 2);
	EQ(p.ev.window_ns, 1 * HK_NSEC_PER_SEC);
	EQ(p.ev.cpu_pct_x100, 9900);
	EQ(p.ev.thread_cpu_pct_x100, 9900);
	EQ(p.ev.thread_queued_pct_x100, 50);
	EQ(p.ev.wait_pct_x100, 500);
	EQ(p.ev.thread_wait_pct_x100, 300);
	EQ(p.carry_wait_ns, 0);
	EQ(p.ev.major_faults_per_s, 0);
	EQ(p.ev.throttled_pct_x100, 10000 * 2);	/* clamped: 2 CPUs */
	EQ(p.ev.rss_bytes, 150 * 4096);
	EQ(p.ev.rss_anon_bytes, 100 * 4096);
	EQ(p.ev.limit_kind, HK_LIMIT_RAM);
	EQ(p.ev.limit_bytes, 16 * HK_GIB);
	EQ(p.ev.headroom_bytes, 16 * HK_GIB - 100 * 4096);
	EQ_U64(p.ev.eta_s, (__u64)HK_ETA_NONE);
	check_label(match, HK_CPU_BOUND, __LINE__, "window step match");

	/* RSS shrinking: negative growth, nothing unexplained beyond faults */
	s.now_ns += 2 * HK_NSEC_PER_SEC;
	s.rss_pages = 100;
	s.anon_pages = 50;
	s.minor_faults = 300;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.ev.rss_growth_bytes_per_s, -25 * 4096);	/* -50 pages over 2 s */
	EQ(p.ev.minor_faults_per_s, 150);
	EQ(p.ev.unexplained_faults_per_s, 150);
	EQ(p.ev.throttled_pct_x100, 0);

	/* file pages explain faults but are no growth of the trend */
	s.now_ns += 1 * HK_NSEC_PER_SEC;
	s.rss_pages = 1100;
	s.minor_faults = 1300;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.ev.rss_growth_bytes_per_s, 0);
	EQ(p.ev.unexplained_faults_per_s, 0);

	/* skipped as quiet for three walks: the window starts at the last */
	s.quiet_until_ns = s.now_ns + 3 * HK_NSEC_PER_SEC;
	s.now_ns += 4 * HK_NSEC_PER_SEC;
	s.runtime_ns += 500 * HK_NSEC_PER_MSEC;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.ev.window_ns, 1 * HK_NSEC_PER_SEC);
	EQ(p.ev.cpu_pct_x100, 5000);

	/* more wait than its threads can have waited: at most 100 % each */
	s.quiet_until_ns = 0;
	s.now_ns += 1 * HK_NSEC_PER_SEC;
	s.nr_threads = 2;
	s.wait_delta_ns = 5 * HK_NSEC_PER_SEC;
	s.thread_wait_delta_ns = 3 * HK_NSEC_PER_SEC;
	s.thread_run_delta_ns = 400 * HK_NSEC_PER_MSEC;
	s.thread_queued_delta_ns = 900 * HK_NSEC_PER_MSEC;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.ev.wait_pct_x100, 20000);
	EQ(p.ev.thread_wait_pct_x100, 10000);
	EQ(p.ev.thread_cpu_pct_x100, 4000);
	EQ(p.ev.thread_queued_pct_x100, 6000);
}

/*
 * Issue #19: a leak swapped out at its limit goes on growing: the trend
 * follows anon + swapped out (resident anon flat); the thread stalled on
 * memory longest gives memory_stall_pct.
 */
static void test_window_step_swap(void)
{
	struct hk_sample s;
	struct hk_proc p;
	__u32 match = 77;
	int i;

	vec_config();
	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	s.now_ns = 100 * HK_NSEC_PER_SEC;
	s.anon_pages = 1000;
	s.rss_pages = 1000;
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(p.owned_pages, 1000);
	/* resident anon stays at 1000 pages; 512 pages a second go to swap */
	for (i = 1; i <= 12; i++) {
		s.now_ns += HK_NSEC_PER_SEC;
		s.swap_pages += 512;
		s.thread_mem_stall_delta_ns = 250 * HK_NSEC_PER_MSEC;
		s.mem_stall_tid = 4321;
		EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	}
	EQ(p.owned_pages, 1000 + 12 * 512);
	EQ(p.ev.rss_anon_bytes, 1000 * 4096);
	EQ(p.ev.swap_bytes, 12 * 512 * 4096);
	EQ(p.ev.rss_growth_bytes_per_s, 512 * 4096);
	EQ(p.ev.rss_slope_bytes_per_s, 512 * 4096);
	EQ(p.ev.mem_stall_pct_x100, 2500);
	EQ(p.ev.mem_stall_tid, 4321);
	EQ(p.ev.thrash_stalled, 1);
	/* 2 MiB/s against 16 GiB of RAM: no risk, but growing */
	check_label(match, HK_MEM_THRASHING, __LINE__, "swapping leak, stalled a quarter");
}

/* A process born since the previous walk: its life is its first window. */
static void test_window_step_fresh(void)
{
	struct hk_sample s;
	struct hk_proc p;
	__u32 match = 77;

	vec_config();
	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	s.start_time_ns = 100 * HK_NSEC_PER_SEC;
	s.now_ns = 100 * HK_NSEC_PER_SEC + 800 * HK_NSEC_PER_MSEC;
	s.runtime_ns = 760 * HK_NSEC_PER_MSEC;
	s.thread_run_delta_ns = 760 * HK_NSEC_PER_MSEC;
	s.minor_faults = 80;
	s.rss_pages = 400;
	s.anon_pages = 400;
	s.fresh = 1;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.windows, 1);
	EQ(p.ev.window_ns, 800 * HK_NSEC_PER_MSEC);
	EQ(p.ev.cpu_pct_x100, 9500);
	EQ(p.ev.thread_cpu_pct_x100, 9500);
	EQ(p.ev.minor_faults_per_s, 100);
	/* 400 pages in 0.8 s: the faults are explained by growth */
	EQ(p.ev.unexplained_faults_per_s, 0);
	EQ(p.ev.rss_growth_bytes_per_s, 500 * 4096);
	/* the trend starts at its first sample: a birth at zero pages is
	 * no evidence of growth */
	EQ(p.trend_nr, 1);
	EQ(p.trend_ms[0], 100 * 1000 + 800);
	EQ(p.trend_pages[0], 400);
	EQ(p.ev.trend_samples, 1);
	EQ(p.ev.rss_slope_bytes_per_s, 0);
	EQ(p.runtime_ns, 760 * HK_NSEC_PER_MSEC);
	check_label(match, HK_CPU_BOUND, __LINE__, "fresh process, first window");
}

int hk_add_window_step_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "per_s", test_per_s },
		{ "share_x100", test_share_x100 },
		{ "sdiv", test_sdiv },
		{ "trend_fit", test_trend_fit },
		{ "eta", test_eta },
		{ "hysteresis enter/exit", test_hyst_enter_exit },
		{ "hysteresis retry", test_hyst_retry },
		{ "window step", test_window_step },
		{ "window step, fresh process", test_window_step_fresh },
		{ "window step: swapped-out anon, memory stall", test_window_step_swap },
	};

	return HK_ADD_SUITE("window step", tests);
}
