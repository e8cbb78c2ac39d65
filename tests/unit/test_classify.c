// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Classifier: the pure functions of include/shared/classify.h, the very
 * header the BPF object compiles. First focused, hand-computed cases (rates,
 * shares, signed division, the least-squares trend, ETA, every threshold
 * at its boundary, hysteresis with a lost event); then every scenario of
 * tests/vectors/window_vectors.h through a reference pipeline built here
 * from the same functions, the way window.bpf.h strings them together.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/classify.h"
#include "config.h"
#include "suites.h"
#include "vectors/window_vectors.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define S_NS	1000000000ULL
#define MS_NS	1000000ULL
#define MIB	(1ULL << 20)
#define GIB	(1ULL << 30)

/* --- assertions that say what they got and what they wanted ---------------- */

static void check_s64(__s64 got, __s64 want, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void check_s64(__s64 got, __s64 want, unsigned int line, const char *fmt, ...)
{
	char what[512], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: got %lld, expected %lld", what,
		 (long long)got, (long long)want);
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

static void check_true(int ok, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check_true(int ok, unsigned int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, msg, __FILE__, "",
				CU_FALSE);
}

#define EQ(got, want) check_s64((__s64)(got), (__s64)(want), __LINE__, "%s", #got)
#define EQ_U64(got, want) \
	check_true((__u64)(got) == (__u64)(want), __LINE__, "%s: got %llu, expected %llu", \
		   #got, (unsigned long long)(got), (unsigned long long)(want))

/* The labels compared by name in messages. */
static void check_label(__u32 got, __u32 want, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void check_label(__u32 got, __u32 want, unsigned int line, const char *fmt, ...)
{
	char what[512], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: got %s, expected %s", what,
		 hkv_label_name(got), hkv_label_name(want));
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

/* --- rates, shares, division ---------------------------------------------- */

static void test_per_s(void)
{
	EQ(hk_per_s(10, 1 * S_NS), 10);
	EQ(hk_per_s(9700, 1 * S_NS), 9700);
	EQ(hk_per_s(5, 2500 * MS_NS), 2);		/* 2.0 */
	EQ(hk_per_s(3, 1500 * MS_NS), 2);		/* 2.0 */
	EQ(hk_per_s(1, 1500 * MS_NS), 0);		/* 0.67 rounds down */
	EQ(hk_per_s(7, 999 * MS_NS + 999999), 7);	/* whole ms only: 999 ms */
	EQ(hk_per_s(36000, 5 * S_NS), 7200);
	EQ(hk_per_s(1000, 999999), 0);			/* under a ms: no rate */
	EQ(hk_per_s(1000, 0), 0);
	EQ(hk_per_s(0, 1 * S_NS), 0);
	/* counts up to 2^44 stay exact */
	EQ_U64(hk_per_s(1ULL << 44, 1 * MS_NS), (1ULL << 44) * 1000);
}

static void test_share_x100(void)
{
	EQ(hk_share_x100(990 * MS_NS, 1 * S_NS), 9900);
	EQ(hk_share_x100(3 * MS_NS, 1 * S_NS), 30);
	EQ(hk_share_x100(250 * MS_NS, 500 * MS_NS), 5000);
	EQ(hk_share_x100(1500 * MS_NS, 1 * S_NS), 15000);	/* over 100 % */
	EQ(hk_share_x100(999, 1 * S_NS), 0);			/* under a us */
	EQ(hk_share_x100(12345678, 1 * S_NS), 123);		/* 1.2345 % */
	EQ(hk_share_x100(1 * S_NS, 3 * S_NS), 3333);
	EQ(hk_share_x100(1 * S_NS, 999), 0);			/* window under a us */
	EQ(hk_share_x100(1 * S_NS, 0), 0);
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
	 * x = 0, 1000, 2000 ms; y = 0, 10, 30 pages. n = 3, sx = 3000,
	 * sy = 40, sxy = 70000, sxx = 5e6: num = 90000, den = 6e6,
	 * 0.015 pages/ms = 15 pages/s = 61440 B/s.
	 */
	{
		static const __u64 ms[] = { 1000, 2000, 3000 }, pg[] = { 100, 110, 130 };

		trend_of(&p, ms, pg, 3);
		memset(&ev, 0xff, sizeof(ev));
		hk_trend_fit(&p, 3000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.rss_slope_bytes_per_s, 61440);
		EQ(ev.rss_net_growth_bytes, 30 * 4096);
		EQ(ev.rss_trend_ms, 2000);
		EQ(ev.trend_grow_pct_x100, 10000);
		EQ(ev.trend_latest_grew, 1);
	}
	/*
	 * Falling: y = 0, -50, -50, -100 at x = 0..3000. sx = 6000,
	 * sy = -200, sxy = -450000, sxx = 14e6: num = -600000, den = 20e6,
	 * -0.03 pages/ms = -30 pages/s = -122880 B/s.
	 */
	{
		static const __u64 ms[] = { 0, 1000, 2000, 3000 };
		static const __u64 pg[] = { 200, 150, 150, 100 };

		trend_of(&p, ms, pg, 4);
		hk_trend_fit(&p, 3000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 4);
		EQ(ev.rss_slope_bytes_per_s, -122880);
		EQ(ev.rss_net_growth_bytes, -100 * 4096);
		EQ(ev.trend_grow_pct_x100, 0);
		EQ(ev.trend_latest_grew, 0);
	}
	/* y = 0, 1, 5: num = 15000, den = 6e6: 2.5 pages/s rounds down to 2 */
	{
		static const __u64 ms[] = { 0, 1000, 2000 }, pg[] = { 7, 8, 12 };

		trend_of(&p, ms, pg, 3);
		hk_trend_fit(&p, 2000, 30000, 4096, &ev);
		EQ(ev.rss_slope_bytes_per_s, 2 * 4096);
	}
	/*
	 * Ten pushes into the 8-slot ring: the first two are overwritten and
	 * must not count (their values would wreck the fit). Used: x = 0..7 s,
	 * y = 0, 0, 4000, 4000, 8000, 8000, 12000, 12000 pages. n = 8,
	 * sx = 28000, sy = 48000, sxy = 248e6, sxx = 140e6: num = 640e6,
	 * den = 336e6, 1.90476 pages/ms = 1904 pages/s = 7798784 B/s.
	 * Grew in 3 of 7 intervals (4285), not in the latest.
	 */
	{
		static const __u64 ms[] = { 0, 1000, 2000, 3000, 4000, 5000, 6000,
					    7000, 8000, 9000 };
		static const __u64 pg[] = { 1, 9999999, 100000, 100000, 104000,
					    104000, 108000, 108000, 112000, 112000 };

		trend_of(&p, ms, pg, 10);
		EQ(p.trend_nr, HK_TREND_SLOTS);
		EQ(p.trend_head, 2);
		hk_trend_fit(&p, 9000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 8);
		EQ(ev.rss_slope_bytes_per_s, 1904 * 4096);
		EQ(ev.rss_net_growth_bytes, 12000 * 4096);
		EQ(ev.rss_trend_ms, 7000);
		EQ(ev.trend_grow_pct_x100, 4285);
		EQ(ev.trend_latest_grew, 0);
	}
	/*
	 * Span 30 s at now = 40 s: the sample at 0 s (older) is ignored, the
	 * one at exactly 10 s is kept. x = 0, 10, 20, 30 s; y = 0, 0, 1000,
	 * 2000: sx = 60000, sy = 3000, sxy = 8e7, sxx = 14e8: num = 1.4e8,
	 * den = 2e9, 70 pages/s. Grew in 2 of 3 intervals (6666).
	 */
	{
		static const __u64 ms[] = { 0, 10000, 20000, 30000, 40000 };
		static const __u64 pg[] = { 9999999, 1000, 1000, 2000, 3000 };

		trend_of(&p, ms, pg, 4);	/* the 40 s sample not yet */
		hk_trend_fit(&p, 40000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);	/* 10, 20, 30 s */
		trend_of(&p, ms, pg, 5);
		hk_trend_fit(&p, 40000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 4);
		EQ(ev.rss_slope_bytes_per_s, 70 * 4096);
		EQ(ev.rss_net_growth_bytes, 2000 * 4096);
		EQ(ev.rss_trend_ms, 30000);
		EQ(ev.trend_grow_pct_x100, 6666);
		EQ(ev.trend_latest_grew, 1);
		/* one ms later the 10 s sample is out too: x from 20 s */
		hk_trend_fit(&p, 40001, 30000, 4096, &ev);
		EQ(ev.trend_samples, 3);
		EQ(ev.rss_net_growth_bytes, 2000 * 4096);
		EQ(ev.trend_grow_pct_x100, 10000);
	}
	/* one sample, none, and two at the same ms: no slope */
	{
		static const __u64 ms[] = { 5000, 5000 }, pg[] = { 100, 200 };

		trend_of(&p, ms, pg, 1);
		hk_trend_fit(&p, 5000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 1);
		EQ(ev.rss_slope_bytes_per_s, 0);
		EQ(ev.rss_net_growth_bytes, 0);
		EQ(ev.trend_grow_pct_x100, 0);
		EQ(ev.trend_latest_grew, 0);

		trend_of(&p, ms, pg, 0);
		hk_trend_fit(&p, 5000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 0);
		EQ(ev.rss_slope_bytes_per_s, 0);

		trend_of(&p, ms, pg, 2);
		hk_trend_fit(&p, 5000, 30000, 4096, &ev);
		EQ(ev.trend_samples, 2);
		EQ(ev.rss_slope_bytes_per_s, 0);
		EQ(ev.rss_net_growth_bytes, 100 * 4096);
		EQ(ev.trend_latest_grew, 1);
	}
}

static void test_eta(void)
{
	EQ(hk_eta_s(1000, 10), 100);
	EQ(hk_eta_s(1009, 10), 100);
	EQ(hk_eta_s(5, 10), 0);
	EQ_U64(hk_eta_s(1000, 0), (__u64)HK_ETA_NONE);
	EQ_U64(hk_eta_s(1000, -5), (__u64)HK_ETA_NONE);
	/* the leak vector: 16 GiB - 560988160 B at 38010880 B/s */
	EQ(hk_eta_s(16618881024ULL, 38010880), 437);
}

/* --- thresholds ------------------------------------------------------------ */

static struct hk_config cfg;

static void vec_config(void)
{
	hkv_config(&cfg);
}

/* A steadily growing, big process: OOM risk; each field then breaks it. */
static void oom_base(struct hk_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->trend_samples = HK_TREND_MIN_SAMPLES;
	ev->trend_latest_grew = 1;
	ev->trend_grow_pct_x100 = cfg.oom_steady_pct_x100;
	ev->rss_slope_bytes_per_s = 1;
	ev->rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes;
	ev->rss_bytes = cfg.oom_min_rss_bytes;
	ev->limit_bytes = 1ULL << 50;	/* the ratio never decides */
	ev->eta_s = (__u64)HK_ETA_NONE;
}

static void test_config_under_test(void)
{
	vec_config();
	/* the vectors were computed for these: fail loudly if they move */
	EQ(cfg.interval_ns, 1 * S_NS);
	EQ(cfg.enter_windows, 2);
	EQ(cfg.exit_windows, 3);
	EQ(cfg.oom_trend_span_ns, 30 * S_NS);
	EQ(cfg.trend_stride_windows, 4);
	EQ(cfg.oom_min_growth_bytes, 64 * MIB);
	EQ(cfg.oom_min_rss_bytes, 1 * GIB);
	EQ(cfg.oom_min_rss_pct_x100, 5000);
	EQ(cfg.oom_steady_pct_x100, 7500);
	EQ(cfg.oom_eta_horizon_s, 900);
	EQ(cfg.thrash_major_faults_per_s, 100);
	EQ(cfg.thrash_minor_faults_per_s, 10000);
	EQ(cfg.starved_wait_pct_x100, 7500);
	EQ(cfg.noisy_cpu_pct_x100, 5000);
	EQ(cfg.cpu_thread_pct_x100, 9000);
	EQ(cfg.cpu_total_pct_x100, 5000);
	EQ(cfg.cpu_max_faults_per_s, 1000);
	EQ(cfg.cpu_max_wait_pct_x100, 2500);
}

#define CLASSIFY(ev, want) \
	check_label(hk_classify(&cfg, &(ev)), (want), __LINE__, "hk_classify, %s", what)

static void test_classify_oom(void)
{
	struct hk_evidence ev;
	const char *what;
	__u64 half;

	vec_config();
	what = "big and steady";
	oom_base(&ev);
	CLASSIFY(ev, HK_OOM_RISK);
	what = "one trend sample too few";
	oom_base(&ev);
	ev.trend_samples = HK_TREND_MIN_SAMPLES - 1;
	CLASSIFY(ev, HK_OK);
	what = "latest interval flat";
	oom_base(&ev);
	ev.trend_latest_grew = 0;
	CLASSIFY(ev, HK_OK);
	what = "grew in one hundredth of a percent too few intervals";
	oom_base(&ev);
	ev.trend_grow_pct_x100 = cfg.oom_steady_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "slope 0";
	oom_base(&ev);
	ev.rss_slope_bytes_per_s = 0;
	CLASSIFY(ev, HK_OK);
	what = "net growth one byte short";
	oom_base(&ev);
	ev.rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes - 1;
	CLASSIFY(ev, HK_OK);
	what = "RSS one byte under min_rss, no ETA";
	oom_base(&ev);
	ev.rss_bytes = cfg.oom_min_rss_bytes - 1;
	CLASSIFY(ev, HK_OK);
	what = "small, ETA at the horizon";
	ev.eta_s = cfg.oom_eta_horizon_s;
	CLASSIFY(ev, HK_OOM_RISK);
	what = "small, ETA a second past the horizon";
	ev.eta_s = cfg.oom_eta_horizon_s + 1;
	CLASSIFY(ev, HK_OK);
	/* 1 GiB limit: at min_rss_of_limit exactly, and a page under */
	half = ((1ULL << 30) * cfg.oom_min_rss_pct_x100 + 9999) / 10000;
	what = "RSS at min_rss_of_limit of a 1 GiB limit";
	oom_base(&ev);
	ev.rss_bytes = half;
	ev.limit_bytes = 1ULL << 30;
	CLASSIFY(ev, HK_OOM_RISK);
	what = "RSS a page under min_rss_of_limit";
	ev.rss_bytes = half - 4096;
	CLASSIFY(ev, HK_OK);
	what = "no limit known";
	ev.rss_bytes = half;
	ev.limit_bytes = 0;
	CLASSIFY(ev, HK_OK);
	/* OOM risk first: with every other diagnosis matching too */
	what = "OOM risk and all else";
	oom_base(&ev);
	ev.major_faults_per_s = 500;
	ev.wait_pct_x100 = 9000;
	ev.victim_tgid = 7;
	ev.cpu_pct_x100 = 8000;
	CLASSIFY(ev, HK_OOM_RISK);
}

static void test_classify_thrashing(void)
{
	struct hk_evidence ev;
	__u64 major, minor;
	const char *what;

	vec_config();
	major = cfg.thrash_major_faults_per_s;
	minor = cfg.thrash_minor_faults_per_s;
	memset(&ev, 0, sizeof(ev));
	what = "nothing";
	CLASSIFY(ev, HK_OK);
	what = "major faults/s one below";
	ev.major_faults_per_s = major - 1;
	CLASSIFY(ev, HK_OK);
	what = "major faults/s at the threshold";
	ev.major_faults_per_s = major;
	CLASSIFY(ev, HK_MEM_THRASHING);
	what = "major faults/s, thread one below saturation";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	CLASSIFY(ev, HK_MEM_THRASHING);
	/* a saturated thread is CPU-bound, not thrashing (faults < max) */
	what = "major faults/s, thread saturating";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100;
	CLASSIFY(ev, major < cfg.cpu_max_faults_per_s ? HK_CPU_BOUND : HK_OK);

	memset(&ev, 0, sizeof(ev));
	what = "unexplained minor faults/s one below";
	ev.minor_faults_per_s = 3 * minor;
	ev.unexplained_faults_per_s = minor - 1;
	CLASSIFY(ev, HK_OK);
	what = "unexplained minor faults/s at the threshold";
	ev.unexplained_faults_per_s = minor;
	CLASSIFY(ev, HK_MEM_THRASHING);
	/* Mem-thrashing before Starved */
	what = "thrashing and starved";
	ev.wait_pct_x100 = 10000;
	CLASSIFY(ev, HK_MEM_THRASHING);
}

static void test_classify_starved(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 t;

	vec_config();
	t = cfg.starved_wait_pct_x100;
	memset(&ev, 0, sizeof(ev));
	what = "wait one below";
	ev.wait_pct_x100 = t - 1;
	ev.thread_wait_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	what = "wait at the threshold";
	ev.wait_pct_x100 = t;
	ev.thread_wait_pct_x100 = t;
	CLASSIFY(ev, HK_STARVED);
	what = "the process waits enough, but spread over threads";
	ev.thread_wait_pct_x100 = t - 1;
	ev.wait_pct_x100 = 4 * t;
	CLASSIFY(ev, HK_OK);
	ev.thread_wait_pct_x100 = t;
	ev.wait_pct_x100 = t;
	what = "wait at the threshold, run just less";
	ev.cpu_pct_x100 = t - 1;
	CLASSIFY(ev, HK_STARVED);
	what = "wait at the threshold, run as much";
	ev.cpu_pct_x100 = t;
	CLASSIFY(ev, t / cfg.nr_cpus >= cfg.cpu_total_pct_x100 ? HK_CPU_BOUND : HK_OK);
	/* Starved before Noisy neighbor */
	what = "starved and aggressor";
	ev.wait_pct_x100 = t + 2000;
	ev.thread_wait_pct_x100 = t + 2000;
	ev.cpu_pct_x100 = t + 1000;
	ev.victim_tgid = 42;
	CLASSIFY(ev, HK_STARVED);
}

static void test_classify_noisy(void)
{
	struct hk_evidence ev;
	const char *what;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	ev.victim_tgid = 42;
	what = "aggressor one below";
	ev.cpu_pct_x100 = cfg.noisy_cpu_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "aggressor at the threshold";
	ev.cpu_pct_x100 = cfg.noisy_cpu_pct_x100;
	CLASSIFY(ev, HK_NOISY_NEIGHBOR);
	/* Noisy neighbor before CPU-bound */
	what = "aggressor with a saturated thread";
	ev.cpu_pct_x100 = 9900;
	ev.thread_cpu_pct_x100 = 9900;
	CLASSIFY(ev, HK_NOISY_NEIGHBOR);
	what = "no victim";
	ev.victim_tgid = 0;
	CLASSIFY(ev, HK_CPU_BOUND);
}

static void test_classify_cpu(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 total;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	what = "thread one below";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	ev.cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "thread at the threshold";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "faults/s one below";
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s - 1;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "faults/s at the maximum";
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s;
	CLASSIFY(ev, HK_OK);
	what = "minor + major faults/s at the maximum";
	ev.major_faults_per_s = cfg.cpu_max_faults_per_s / 2;
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s - ev.major_faults_per_s;
	CLASSIFY(ev, HK_OK);
	what = "wait one below";
	ev.minor_faults_per_s = 0;
	ev.major_faults_per_s = 0;
	ev.wait_pct_x100 = cfg.cpu_max_wait_pct_x100 - 1;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "wait at the maximum";
	ev.wait_pct_x100 = cfg.cpu_max_wait_pct_x100;
	CLASSIFY(ev, HK_OK);

	/* the whole process as a share of all (2) CPUs */
	total = cfg.cpu_total_pct_x100 * 2;
	memset(&ev, 0, sizeof(ev));
	what = "total one below, of 2 CPUs";
	ev.thread_cpu_pct_x100 = 5000;
	ev.cpu_pct_x100 = total - 1;
	CLASSIFY(ev, HK_OK);
	what = "total at the threshold, of 2 CPUs";
	ev.cpu_pct_x100 = total;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "half of that, with nr_cpus 0 (counts as 1)";
	cfg.nr_cpus = 0;
	ev.cpu_pct_x100 = total / 2;
	CLASSIFY(ev, HK_CPU_BOUND);
	cfg.nr_cpus = 2;
	what = "half of that, of 2 CPUs";
	CLASSIFY(ev, HK_OK);
}

static void test_may_be_noisy(void)
{
	struct hk_evidence ev;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	ev.cpu_pct_x100 = 5000;
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OK), 1);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_CPU_BOUND), 1);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_STARVED), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_MEM_THRASHING), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OOM_RISK), 0);
	ev.cpu_pct_x100 = 4999;
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OK), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_CPU_BOUND), 0);
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
	s.now_ns = 100 * S_NS;
	s.runtime_ns = 50 * S_NS;
	s.major_faults = 1000;
	s.rss_pages = 100;
	/* the first sample is only a baseline */
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(match, HK_OK);
	EQ(p.windows, 1);
	EQ(p.runtime_ns, 50 * S_NS);
	EQ(p.trend_nr, 1);

	/* 99 ms later: under a tenth of the interval, no window; baseline kept */
	s.now_ns += 99 * MS_NS;
	s.runtime_ns += 99 * MS_NS;
	match = 77;
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(match, HK_OK);
	EQ(p.windows, 1);
	EQ(p.sample_ns, 100 * S_NS);
	EQ(p.runtime_ns, 50 * S_NS);

	/* 1 s after the baseline: 990 ms ran, wait carried from a skipped
	 * sample adds in, counters that went backwards count as 0 */
	s.now_ns = 101 * S_NS;
	s.runtime_ns = 50 * S_NS + 990 * MS_NS;
	s.thread_run_delta_ns = 990 * MS_NS;
	s.wait_delta_ns = 30 * MS_NS;
	s.major_faults = 10;
	p.carry_wait_ns = 20 * MS_NS;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.windows, 2);
	EQ(p.ev.window_ns, 1 * S_NS);
	EQ(p.ev.cpu_pct_x100, 9900);
	EQ(p.ev.wait_pct_x100, 500);
	EQ(p.carry_wait_ns, 0);
	EQ(p.ev.major_faults_per_s, 0);
	EQ(p.ev.limit_kind, HK_LIMIT_RAM);
	EQ(p.ev.limit_bytes, 16 * GIB);
	EQ(p.ev.headroom_bytes, 16 * GIB - 100 * 4096);
	EQ_U64(p.ev.eta_s, (__u64)HK_ETA_NONE);
	check_label(match, HK_CPU_BOUND, __LINE__, "window step match");

	/* RSS shrinking: negative growth, nothing unexplained beyond faults */
	s.now_ns += 2 * S_NS;
	s.rss_pages = 50;
	s.minor_faults = 300;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.ev.rss_growth_bytes_per_s, -25 * 4096);	/* -50 pages over 2 s */
	EQ(p.ev.minor_faults_per_s, 150);
	EQ(p.ev.unexplained_faults_per_s, 150);
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
	s.start_time_ns = 100 * S_NS;
	s.now_ns = 100 * S_NS + 800 * MS_NS;
	s.runtime_ns = 760 * MS_NS;
	s.thread_run_delta_ns = 760 * MS_NS;
	s.minor_faults = 80;
	s.rss_pages = 400;
	s.fresh = 1;
	EQ(hk_window_step(&cfg, &p, &s, &match), 1);
	EQ(p.windows, 1);
	EQ(p.ev.window_ns, 800 * MS_NS);
	EQ(p.ev.cpu_pct_x100, 9500);
	EQ(p.ev.thread_cpu_pct_x100, 9500);
	EQ(p.ev.minor_faults_per_s, 100);
	/* 400 pages in 0.8 s: the faults are explained by growth */
	EQ(p.ev.unexplained_faults_per_s, 0);
	EQ(p.ev.rss_growth_bytes_per_s, 500 * 4096);
	/* the trend starts at zero pages at the process's start */
	EQ(p.trend_nr, 2);
	EQ(p.trend_ms[0], 100 * 1000);
	EQ(p.trend_pages[0], 0);
	EQ(p.trend_pages[1], 400);
	EQ(p.runtime_ns, 760 * MS_NS);
	check_label(match, HK_CPU_BOUND, __LINE__, "fresh process, first window");

	/* not fresh: the same sample is only a baseline */
	memset(&p, 0, sizeof(p));
	s.fresh = 0;
	match = 77;
	EQ(hk_window_step(&cfg, &p, &s, &match), 0);
	EQ(match, HK_OK);
	EQ(p.runtime_ns, 760 * MS_NS);
}

/* --- the vectors through a reference pipeline ------------------------------ */

#define REF_PROCS	16
#define REF_EVENTS	32

struct ref_entry {
	int used;
	__u32 tgid;
	__u32 seen_walk;
	struct hk_proc p;
};

struct ref_event {
	__u32 tgid;
	__u32 from;
	__u32 to;
	__u64 start_time_ns;
};

struct ref_pair {
	__u32 victim;
	__u32 aggressor;
	__u32 votes;
};

/* What the BPF side keeps across windows, and what one window emitted. */
struct ref {
	const struct hk_config *c;
	__u32 walk;
	struct ref_entry e[REF_PROCS];
	struct ref_pair victims[REF_PROCS];
	int nr_victims;
	__u32 defer[REF_PROCS];
	int nr_defer;
	struct ref_event ev[REF_EVENTS];
	int nr_ev;
	int overflow;
};

static struct ref_entry *ref_lookup(struct ref *r, __u32 tgid)
{
	int i;

	for (i = 0; i < REF_PROCS; i++)
		if (r->e[i].used && r->e[i].tgid == tgid)
			return &r->e[i];
	return NULL;
}

static void ref_emit(struct ref *r, struct ref_entry *e, __u32 from, __u32 to)
{
	if (r->nr_ev >= REF_EVENTS) {
		r->overflow = 1;
		return;
	}
	r->ev[r->nr_ev].tgid = e->tgid;
	r->ev[r->nr_ev].from = from;
	r->ev[r->nr_ev].to = to;
	r->ev[r->nr_ev].start_time_ns = e->p.start_time_ns;
	r->nr_ev++;
}

/* Create, or start over when the TGID now is another process. */
static struct ref_entry *ref_get(struct ref *r, __u32 tgid, __u64 start_time_ns)
{
	struct ref_entry *e = ref_lookup(r, tgid);
	int i;

	if (e) {
		if (e->p.start_time_ns == start_time_ns)
			return e;
		if (e->p.hyst.label != HK_OK)
			ref_emit(r, e, e->p.hyst.label, HK_EXITED);
		memset(&e->p, 0, sizeof(e->p));
		e->p.start_time_ns = start_time_ns;
		return e;
	}
	for (i = 0; i < REF_PROCS; i++) {
		if (r->e[i].used)
			continue;
		memset(&r->e[i], 0, sizeof(r->e[i]));
		r->e[i].used = 1;
		r->e[i].tgid = tgid;
		r->e[i].p.start_time_ns = start_time_ns;
		return &r->e[i];
	}
	r->overflow = 1;
	return NULL;
}

static void ref_commit(struct ref *r, struct ref_entry *e, __u32 match)
{
	struct hk_hyst *h = &e->p.hyst;
	__u32 to = hk_hyst_next(h, match, r->c->enter_windows, r->c->exit_windows);

	if (to == h->label)
		return;
	ref_emit(r, e, h->label, to);
	hk_hyst_commit(h, to);
}

/*
 * One window, in the order window.bpf.h runs it: each process's window
 * step (Starved victims noted, possible aggressors held back), then the
 * aggressors learn their victims, the held-back are classified again and
 * committed, and the queued exit is handled last. Writes back label/match
 * per process like hk_test_win does.
 */
static void ref_window(struct ref *r, struct hk_test_window *tw)
{
	struct ref_entry *e, *a;
	__u32 exit_tgid = 0, i, match;
	__u64 exit_start = 0;
	int k;

	r->walk++;
	r->nr_victims = 0;
	r->nr_defer = 0;
	r->nr_ev = 0;
	if (tw->exit_tgid) {
		e = ref_lookup(r, tw->exit_tgid);
		if (e) {
			exit_tgid = e->tgid;
			exit_start = e->p.start_time_ns;
		}
	}
	for (i = 0; i < tw->nr_procs; i++) {
		const struct hk_sample *s = &tw->sample[i];

		e = ref_get(r, tw->tgid[i], s->start_time_ns);
		if (!e)
			continue;
		memcpy(e->p.comm, s->comm, HK_COMM_LEN);
		e->seen_walk = r->walk;
		if (!hk_window_step(r->c, &e->p, s, &match))
			continue;
		e->p.hyst.match = match;
		if (match == HK_STARVED && s->aggressor_tgid &&
		    s->aggressor_tgid != e->tgid && r->nr_victims < REF_PROCS) {
			r->victims[r->nr_victims].victim = e->tgid;
			r->victims[r->nr_victims].aggressor = s->aggressor_tgid;
			r->victims[r->nr_victims].votes = s->aggressor_switches;
			r->nr_victims++;
		}
		if (hk_may_be_noisy(r->c, &e->p.ev, match) && r->nr_defer < REF_PROCS) {
			r->defer[r->nr_defer++] = e->tgid;
			continue;
		}
		ref_commit(r, e, match);
	}
	for (k = 0; k < r->nr_victims; k++) {
		a = ref_lookup(r, r->victims[k].aggressor);
		if (!a || a->seen_walk != r->walk ||
		    !hk_may_be_noisy(r->c, &a->p.ev, a->p.hyst.match))
			continue;
		if (!a->p.ev.victim_tgid ||
		    r->victims[k].votes > a->p.ev.victim_switches) {
			a->p.ev.victim_tgid = r->victims[k].victim;
			a->p.ev.victim_switches = r->victims[k].votes;
		}
	}
	for (k = 0; k < r->nr_defer; k++) {
		e = ref_lookup(r, r->defer[k]);
		if (e && e->seen_walk == r->walk)
			ref_commit(r, e, hk_classify(r->c, &e->p.ev));
	}
	if (exit_tgid) {
		e = ref_lookup(r, exit_tgid);
		if (e && e->p.start_time_ns == exit_start) {
			if (e->p.hyst.label != HK_OK)
				ref_emit(r, e, e->p.hyst.label, HK_EXITED);
			e->used = 0;
		}
	}
	for (i = 0; i < tw->nr_procs; i++) {
		e = ref_lookup(r, tw->tgid[i]);
		tw->label[i] = e ? e->p.hyst.label : HK_EXITED;
		tw->match[i] = e ? e->p.hyst.match : HK_EXITED;
	}
}

/* Every event expected in window w was emitted once, and nothing else. */
static void check_events(const struct hkv_vector *v, __u32 w, const struct ref *r)
{
	int used[REF_EVENTS] = { 0 };
	int i, k, want = 0;

	for (i = 0; i < HKV_MAX_EVENTS && v->events[i].window; i++) {
		const struct hkv_event *x = &v->events[i];
		int found = 0;

		if (x->window != w)
			continue;
		want++;
		for (k = 0; k < r->nr_ev && !found; k++) {
			if (used[k] || r->ev[k].tgid != x->tgid ||
			    r->ev[k].from != x->from || r->ev[k].to != x->to)
				continue;
			used[k] = 1;
			found = 1;
		}
		check_true(found, __LINE__,
			   "vector %s window %u tgid %u: event %s -> %s not emitted",
			   v->name, w, x->tgid, hkv_label_name(x->from),
			   hkv_label_name(x->to));
	}
	for (k = 0; k < r->nr_ev; k++)
		check_true(used[k], __LINE__,
			   "vector %s window %u tgid %u: unexpected event %s -> %s",
			   v->name, w, r->ev[k].tgid, hkv_label_name(r->ev[k].from),
			   hkv_label_name(r->ev[k].to));
	check_s64(r->nr_ev, want, __LINE__, "vector %s window %u: events", v->name, w);
	check_true(!r->overflow, __LINE__, "vector %s window %u: reference tables full",
		   v->name, w);
}

static void run_vector(const struct hkv_vector *v)
{
	static struct ref r;
	struct hk_test_window tw;
	int idx[HK_TEST_PROCS];
	struct ref_entry *e;
	__u32 w, i;
	int n, k;

	memset(&r, 0, sizeof(r));
	r.c = &cfg;
	for (w = 1; w <= v->nr_windows; w++) {
		n = hkv_window(v, w, &tw, idx);
		check_true(n >= 0, __LINE__, "vector %s window %u: too many processes",
			   v->name, w);
		if (n < 0)
			return;
		ref_window(&r, &tw);

		for (i = 0; i < tw.nr_procs; i++) {
			const struct hkv_proc *p = &v->procs[idx[i]];
			const struct hkv_expect *x = hkv_expect_at(p, w);

			check_true(x != NULL, __LINE__,
				   "vector %s window %u tgid %u: no expectation",
				   v->name, w, p->tgid);
			if (!x)
				continue;
			check_label(tw.label[i], x->label, __LINE__,
				    "vector %s window %u tgid %u (%s): label",
				    v->name, w, p->tgid, p->comm);
			check_label(tw.match[i], x->match, __LINE__,
				    "vector %s window %u tgid %u (%s): match",
				    v->name, w, p->tgid, p->comm);
		}
		check_events(v, w, &r);
		for (k = 0; k < HKV_MAX_EXITS && v->exits[k].window; k++) {
			__u32 tgid = v->exits[k].tgid;

			if (v->exits[k].window != w)
				continue;
			if (hkv_gone_after(v, w, tgid))
				check_true(ref_lookup(&r, tgid) == NULL, __LINE__,
					   "vector %s window %u tgid %u: entry left after exit",
					   v->name, w, tgid);
			else	/* recycled in the same window: the new one stays */
				check_true(ref_lookup(&r, tgid) != NULL, __LINE__,
					   "vector %s window %u tgid %u: new process lost",
					   v->name, w, tgid);
		}
		for (k = 0; k < HKV_MAX_CHECKS && v->checks[k].window; k++) {
			const struct hkv_check *c = &v->checks[k];

			if (c->window != w)
				continue;
			e = ref_lookup(&r, c->tgid);
			check_true(e != NULL, __LINE__,
				   "vector %s window %u tgid %u: no entry for %s",
				   v->name, w, c->tgid, hkv_field_name(c->field));
			if (e)
				check_s64(hkv_field_get(&e->p.ev, c->field), c->value,
					  __LINE__, "vector %s window %u tgid %u: %s",
					  v->name, w, c->tgid, hkv_field_name(c->field));
		}
	}
}

static void test_vectors(void)
{
	size_t i;

	vec_config();
	for (i = 0; i < HKV_NR_VECTORS; i++)
		run_vector(&hkv_vectors[i]);
}

/*
 * The vectors agree with themselves: every process has an expectation in
 * each of its windows and starts OK; every expected label change has its
 * event and every event a label change, an exit or a recycled PID behind it.
 */
static __u32 label_at(const struct hkv_proc *p, __u32 w)
{
	const struct hkv_expect *x = hkv_expect_at(p, w);

	return x ? x->label : 0xffff;
}

static int has_event(const struct hkv_vector *v, __u32 w, __u32 tgid, __u32 from, __u32 to)
{
	int i;

	for (i = 0; i < HKV_MAX_EVENTS && v->events[i].window; i++)
		if (v->events[i].window == w && v->events[i].tgid == tgid &&
		    v->events[i].from == from && v->events[i].to == to)
			return 1;
	return 0;
}

static void test_vectors_consistent(void)
{
	size_t vi;
	int i, k;
	__u32 w;

	for (vi = 0; vi < HKV_NR_VECTORS; vi++) {
		const struct hkv_vector *v = &hkv_vectors[vi];

		for (i = 0; i < HKV_MAX_PROCS; i++) {
			const struct hkv_proc *p = &v->procs[i];

			if (!p->tgid)
				continue;
			check_true(p->last <= v->nr_windows, __LINE__,
				   "vector %s tgid %u: sampled past the end", v->name, p->tgid);
			check_s64(label_at(p, p->first), HK_OK, __LINE__,
				  "vector %s tgid %u: label on its first window",
				  v->name, p->tgid);
			for (w = p->first; w <= p->last; w++) {
				check_true(hkv_expect_at(p, w) != NULL, __LINE__,
					   "vector %s window %u tgid %u: no expectation",
					   v->name, w, p->tgid);
				if (w > p->first && label_at(p, w) != label_at(p, w - 1))
					check_true(has_event(v, w, p->tgid, label_at(p, w - 1),
							     label_at(p, w)),
						   __LINE__,
						   "vector %s window %u tgid %u: no event for its label change",
						   v->name, w, p->tgid);
			}
		}
		for (k = 0; k < HKV_MAX_EVENTS && v->events[k].window; k++) {
			const struct hkv_event *x = &v->events[k];
			int ok = 0;

			for (i = 0; i < HKV_MAX_PROCS && !ok; i++) {
				const struct hkv_proc *p = &v->procs[i];

				if (p->tgid != x->tgid)
					continue;
				if (x->to != HK_EXITED)
					ok = x->window > p->first && x->window <= p->last &&
					     label_at(p, x->window - 1) == x->from &&
					     label_at(p, x->window) == x->to;
				else
					ok = x->window == p->last + 1 &&
					     label_at(p, p->last) == x->from;
			}
			check_true(ok, __LINE__,
				   "vector %s window %u tgid %u: event %s -> %s has no cause",
				   v->name, x->window, x->tgid, hkv_label_name(x->from),
				   hkv_label_name(x->to));
		}
	}
}

int hk_add_classify_suite(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "per_s", test_per_s },
		{ "share_x100", test_share_x100 },
		{ "sdiv", test_sdiv },
		{ "trend_fit", test_trend_fit },
		{ "eta", test_eta },
		{ "config under test", test_config_under_test },
		{ "classify oom_risk", test_classify_oom },
		{ "classify mem_thrashing", test_classify_thrashing },
		{ "classify starved", test_classify_starved },
		{ "classify noisy_neighbor", test_classify_noisy },
		{ "classify cpu_bound", test_classify_cpu },
		{ "may_be_noisy", test_may_be_noisy },
		{ "hysteresis enter/exit", test_hyst_enter_exit },
		{ "hysteresis retry", test_hyst_retry },
		{ "window step", test_window_step },
		{ "window step, fresh process", test_window_step_fresh },
		{ "vectors consistent", test_vectors_consistent },
		{ "vectors", test_vectors },
	};
	CU_pSuite suite;
	size_t i;

	suite = CU_add_suite("classify", NULL, NULL);
	if (!suite)
		return -1;
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		if (!CU_add_test(suite, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}
