// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * OOM risk's evidence in proportion to the time left: how long a growth
 * has lasted (hk_growth_age, classify_trend.h) and the share of its ETA
 * it must have lasted (hk_oom_lasted, classify_mem.h), at their
 * boundaries. The rest of the OOM risk rule is in test_classify.c; whole
 * scenarios in tests/vectors/vectors_oom.inc.
 */
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/classify.h"
#include "config/config.h"
#include "suites.h"
#include "check.h"

static struct hk_config cfg;

/* One evidence of hk_oom_evidence with its ETA and growth age set. */
struct lasted_case {
	const char *what;
	__u64 eta_s;
	__u32 growing_ms;
	__u32 want;
};

static void test_lasted(void)
{
	static const struct lasted_case cases[] = {
		/* (900 - 120) s * 25 % = 195 s, less a quarter interval (1 s
		 * here) of slack, as for min_trend */
		{ "at the horizon, lasted 195 s - 250 ms", 900, 195000 - 250, HK_OOM_RISK },
		{ "at the horizon, lasted 195 s - 251 ms", 900, 195000 - 251, HK_OK },
		/* the compressor: 1.2 GB of dictionaries, 444 s from
		 * the host's limit, 10 s then 20 s into its fill; a leak
		 * needs (444 - 120) * 25 % = 81 s */
		{ "a buffer filling, 10 s in, ETA 444 s", 444, 10000, HK_OK },
		{ "a buffer filling, 20 s in, ETA 444 s", 444, 20000, HK_OK },
		{ "a growth of 81 s - 250 ms, ETA 444 s", 444, 81000 - 250, HK_OOM_RISK },
		/* within the floor, min_trend is evidence enough: a memory
		 * cgroup 9 s from its limit is flagged as soon as the trend
		 * covers it */
		{ "ETA 9 s, lasted min_trend", 9, 10000, HK_OOM_RISK },
		{ "ETA at the floor, lasted min_trend", 120, 10000, HK_OOM_RISK },
		{ "ETA at the floor, no growth age", 120, 0, HK_OOM_RISK },
		/* 41 s beyond the floor * 25 % = 10.25 s = min_trend + 250 ms */
		{ "ETA 161 s, lasted min_trend", 161, 10000, HK_OOM_RISK },
		{ "ETA 162 s, lasted min_trend", 162, 10000, HK_OK },
		/* 1 s beyond: 250 ms, the slack; 2 s beyond: 500 ms */
		{ "ETA 121 s, no growth age", 121, 0, HK_OOM_RISK },
		{ "ETA 122 s, no growth age", 122, 0, HK_OK },
	};
	struct hk_evidence ev;
	size_t i;

	hkv_config(&cfg);
	EQ(cfg.oom_eta_share_pct_x100, 2500);
	EQ(cfg.oom_eta_floor_s, 120);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hk_oom_evidence(&cfg, &ev);
		ev.eta_s = cases[i].eta_s;
		ev.rss_growing_ms = cases[i].growing_ms;
		check_label(hk_classify(&cfg, &ev), cases[i].want, __LINE__, "hk_classify, %s",
			    cases[i].what);
	}
	/* off: eta_share 0, or the floor at the horizon */
	hk_oom_evidence(&cfg, &ev);
	ev.rss_growing_ms = 0;
	cfg.oom_eta_share_pct_x100 = 0;
	check_label(hk_classify(&cfg, &ev), HK_OOM_RISK, __LINE__, "eta_share 0 %%");
	hkv_config(&cfg);
	cfg.oom_eta_floor_s = cfg.oom_eta_horizon_s;
	check_label(hk_classify(&cfg, &ev), HK_OOM_RISK, __LINE__, "the floor at the horizon");
	/* the largest share of the longest horizon fits 64 bits */
	hkv_config(&cfg);
	cfg.oom_eta_share_pct_x100 = 10000;
	cfg.oom_eta_horizon_s = 30 * 86400;
	hk_oom_evidence(&cfg, &ev);
	EQ(ev.rss_growing_ms, (30 * 86400 - 120) * 1000U);
	check_label(hk_classify(&cfg, &ev), HK_OOM_RISK, __LINE__, "100 %% of 30 days");
	ev.rss_growing_ms -= 251;
	check_label(hk_classify(&cfg, &ev), HK_OK, __LINE__, "100 %% of 30 days, 1 ms short");
}

/* The growth as the rule reads it, from a window before. */
static void grown(struct hk_evidence *ev, __u32 before_ms, __u64 trend_ms)
{
	memset(ev, 0, sizeof(*ev));
	ev->window_ns = HK_NSEC_PER_SEC;
	ev->rss_trend_ms = trend_ms;
	ev->trend_grow_pct_x100 = cfg.oom_steady_pct_x100;
	ev->rss_slope_bytes_per_s = 1;
	ev->rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes;
	ev->rss_growing_ms = before_ms;
}

static void test_growth_age(void)
{
	struct hk_evidence ev;

	hkv_config(&cfg);
	/* first window of a growth: as old as the trend that shows it */
	grown(&ev, 0, 4000);
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 4000);
	/* then a window older each window, past the trend's 30 s span */
	grown(&ev, 45000, 30000);
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 46000);
	/* never younger than the trend (a window skipped as quiet) */
	grown(&ev, 12000, 20000);
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 20000);
	/* at most 49.7 days */
	grown(&ev, 0xffffffffU - 500, 30000);
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 0xffffffffU);
	/* a window whose trend is not steady (a pause): held, not older */
	grown(&ev, 45000, 30000);
	ev.trend_grow_pct_x100 = cfg.oom_steady_pct_x100 - 1;
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 45000);
	/* ... nor does a pause start one */
	grown(&ev, 0, 30000);
	ev.trend_grow_pct_x100 = 0;
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 0);
	/* a trend with no net growth left: it starts over */
	grown(&ev, 45000, 30000);
	ev.rss_slope_bytes_per_s = 0;
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 0);
	grown(&ev, 45000, 30000);
	ev.rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes - 1;
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 0);
	/* and the window after is the first again */
	grown(&ev, 0, 30000);
	hk_growth_age(&cfg, &ev);
	EQ(ev.rss_growing_ms, 30000);
}

int hk_add_oom_risk_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "lasted a share of the ETA", test_lasted },
		{ "growth age", test_growth_age },
	};

	return HK_ADD_SUITE("oom risk evidence", tests);
}
