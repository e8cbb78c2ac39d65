// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Config output and checks: --generate-config (exact lines, the new keys'
 * blocks, round trips of fixed and random configs), validate's cross-field
 * rules and range messages, and the values derive() computes.
 */
#include <stdint.h>
#include <unistd.h>
#include "config_fixtures.h"
#include "suites.h"

/* --- generate and round trips ----------------------------------------- */

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Does a line of text set key ("key = ...")? */
static int sets_key(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = text; (p = strstr(p, key)); p++)
		if ((p == text || p[-1] == '\n') && !strncmp(p + n, " = ", 3))
			return 1;
	return 0;
}

#define CHECK_LINE(text, line) \
	check_true(has_line((text), (line)), "generated line: " line, __LINE__)
#define CHECK_HAS(text, part) \
	check_true(strstr((text), (part)) != NULL, "generated text: " part, __LINE__)

static void test_generate_defaults(void)
{
	struct hk_config def, c;
	char err[HK_ERR_LEN] = "";
	const char *p;
	char *text;

	hk_config__defaults(&def);
	text = generate(&def);
	CU_ASSERT_FATAL(text != NULL);

	CHECK_LINE(text, "[general]");
	CHECK_LINE(text, "interval = 5s");
	CHECK_LINE(text, "enter_windows = 2");
	CHECK_LINE(text, "exit_windows = 3");
	CHECK_LINE(text, "[oom_risk]");
	CHECK_LINE(text, "trend_span = 30s");
	CHECK_LINE(text, "min_trend = 10s");
	CHECK_LINE(text, "min_growth = 64MiB");
	CHECK_LINE(text, "steady = 75%");
	CHECK_LINE(text, "eta_horizon = 15m");
	CHECK_LINE(text, "[mem_thrashing]");
	CHECK_LINE(text, "major_faults_per_s = 100");
	CHECK_LINE(text, "minor_faults_per_s = 10000");
	CHECK_LINE(text, "stall = 10%");
	CHECK_LINE(text, "[throttled]");
	CHECK_LINE(text, "min_throttled = 25%");
	CHECK_LINE(text, "[starved]");
	CHECK_LINE(text, "min_wait = 70%");
	CHECK_LINE(text, "[noisy_neighbor]");
	CHECK_LINE(text, "min_cpu = 50%");
	CHECK_LINE(text, "[cpu_bound]");
	CHECK_LINE(text, "thread_cpu = 90%");
	CHECK_LINE(text, "total_cpu = 50%");
	CHECK_LINE(text, "max_faults_per_s = 1000");
	/* removed keys are gone, and so are fields that are not keys */
	check_true(!sets_key(text, "min_rss"), "no min_rss", __LINE__);
	check_true(!sets_key(text, "min_rss_of_limit"), "no min_rss_of_limit",
		   __LINE__);
	check_true(!sets_key(text, "max_wait"), "no max_wait", __LINE__);
	check_true(!sets_key(text, "hook"), "no hook", __LINE__);
	/* the checker itself must be able to fail */
	check_true(sets_key(text, "min_trend") && !sets_key(text, "min_tren"),
		   "sets_key finds whole keys only", __LINE__);
	/* each key says its unit, range and default */
	CHECK_LINE(text, "# Duration, 100ms..1h. Default: 5s.");
	CHECK_LINE(text, "# Duration, 1s..1h. Default: 30s.");
	CHECK_LINE(text, "# Duration, 1s..1h. Default: 10s.");
	CHECK_LINE(text, "# Size, 1B..1TiB. Default: 64MiB.");
	CHECK_LINE(text, "# Percent, 1%..100%. Default: 25%.");
	CHECK_LINE(text, "# Percent, 1%..100%. Default: 70%.");
	CHECK_LINE(text, "# Percent, 1%..100%. Default: 50%.");
	CHECK_LINE(text, "# Duration, in whole seconds, 1s..30d. Default: 15m.");
	CHECK_LINE(text, "# Count, at least 1. Default: 10000.");
	/* min_trend: after trend_span, before min_growth, with its help */
	CHECK_HAS(text,
		  "trend_span = 30s\n"
		  "\n"
		  "# Time the trend must already cover (less a quarter of an interval,\n"
		  "# for the walk's jitter) before it can say anything: a warm-up (a JVM\n"
		  "# sizing its heap, a cache filling) that levels off sooner is never a\n"
		  "# risk. At most trend_span. Unset, it follows the interval: 2\n"
		  "# intervals, 10s at least.\n"
		  "# Duration, 1s..1h. Default: 10s.\n"
		  "min_trend = 10s\n"
		  "\n"
		  "# Net growth over the trend below which");
	/* [throttled]: between [mem_thrashing] and [starved], one key */
	CHECK_HAS(text,
		  "stall = 10%\n"
		  "\n"
		  "# Throttled: the CPU quota of its own cgroup (cgroup v1\n"
		  "# cpu.cfs_quota_us, v2 cpu.max) held it back: its cgroups were\n"
		  "# throttled and one of its threads waited for a CPU, each at least\n"
		  "# min_throttled of the window. Not Starved: nobody else is to blame.\n"
		  "[throttled]\n"
		  "\n"
		  "# Share of the window its cgroups' CPU quota kept them throttled\n"
		  "# (summed over CPUs), and that one of its threads waited for a CPU,\n"
		  "# from which a process is throttled.\n"
		  "# Percent, 1%..100%. Default: 25%.\n"
		  "min_throttled = 25%\n"
		  "\n"
		  "# Starved: ");
	/* the changed meanings are documented */
	CHECK_LINE(text, "# Share of the trend's time in which RSS must have grown: steady");
	CHECK_LINE(text, "# Share of the window the busiest thread was on a CPU or waiting for");
	CHECK_LINE(text, "# Run-queue wait of one thread, as a share of the window, from which");
	/* the header documents the binary aliases */
	check_true(strstr(text, "K, M, G, T and KB, MB, GB, TB") != NULL,
		   "header mentions the binary aliases", __LINE__);
	check_true(strncmp(text, "# ", 2) == 0, "starts with a comment", __LINE__);
	/* sections in their order, each once */
	p = strstr(text, "\n[general]\n");
	p = p ? strstr(p, "\n[oom_risk]\n") : NULL;
	p = p ? strstr(p, "\n[mem_thrashing]\n") : NULL;
	p = p ? strstr(p, "\n[throttled]\n") : NULL;
	p = p ? strstr(p, "\n[starved]\n") : NULL;
	p = p ? strstr(p, "\n[noisy_neighbor]\n") : NULL;
	p = p ? strstr(p, "\n[cpu_bound]\n") : NULL;
	p = p ? strstr(p, "\n[filter]\n") : NULL;
	p = p ? strstr(p, "\n[freeze]\n") : NULL;
	p = p ? strstr(p, "\n[postmortem]\n") : NULL;
	p = p ? strstr(p, "\n[budget]\n") : NULL;
	check_true(p != NULL, "sections in order", __LINE__);
	check_true(p && !strstr(p + 1, "\n["), "[budget] is the last section",
		   __LINE__);

	/* parsed on top of something else entirely, it gives the defaults */
	other_config(&c);
	CHECK_U64(hk_config__parse_string(&c, text, "generated", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_true(!memcmp(&c, &def, THRESH_LEN), "round trip gives the defaults",
		   __LINE__);
	CHECK_U64(c.oom_min_trend_ns, 10 * HK_NSEC_PER_SEC);
	CHECK_U64(c.throttled_pct_x100, 2500);
	CHECK_U64(c.starved_wait_pct_x100, 7000);
	/* and leaves the derived values and the environment alone */
	CHECK_U64(c.trend_stride_ns, 7);
	CHECK_U64(c.watch_wait_pct_x100, 8);
	CHECK_U64(c.nr_cpus, 64);
	CHECK_U64(c.total_ram_bytes, 256 * HK_GIB);
	CHECK_U64(c.page_size_bytes, 4096);
	CHECK_U64(c.hook, 1);
	CHECK_U64(c.pidns_ino, 4026531836ULL);
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);

	/* and on top of nothing at all */
	memset(&c, 0, sizeof(c));
	CHECK_U64(hk_config__parse_string(&c, text, "generated", err, sizeof(err)), 0);
	check_true(!memcmp(&c, &def, sizeof(c)), "round trip onto zeroes", __LINE__);
	free(text);
}

static void test_generate_non_default(void)
{
	struct hk_config want, c;
	char err[HK_ERR_LEN] = "";
	char *text;

	hk_config__defaults(&want);
	want.interval_ns = 1500 * HK_NSEC_PER_MSEC;
	want.enter_windows = 1;
	want.exit_windows = 100;
	want.oom_trend_span_ns = 3600 * HK_NSEC_PER_SEC;
	want.oom_min_trend_ns = HK_NSEC_PER_SEC + 1;
	want.oom_min_growth_bytes = 1610612737ULL;
	want.oom_steady_pct_x100 = 1250;
	want.oom_eta_horizon_s = 90;
	want.thrash_major_faults_per_s = 7;
	want.thrash_minor_faults_per_s = UINT64_MAX;
	want.throttled_pct_x100 = 101;
	want.starved_wait_pct_x100 = 1225;
	want.noisy_cpu_pct_x100 = 10000;
	want.cpu_thread_pct_x100 = 9999;
	want.cpu_total_pct_x100 = 3330;
	want.cpu_max_faults_per_s = 1000000;
	/* not keys: never printed */
	want.trend_stride_ns = 424242;
	want.hook = 1;
	want.nr_cpus = 2;
	text = generate(&want);
	CU_ASSERT_FATAL(text != NULL);

	CHECK_LINE(text, "interval = 1500ms");
	CHECK_LINE(text, "enter_windows = 1");
	CHECK_LINE(text, "exit_windows = 100");
	CHECK_LINE(text, "trend_span = 1h");
	CHECK_LINE(text, "min_trend = 1000000001ns");
	CHECK_LINE(text, "min_growth = 1610612737B");
	CHECK_LINE(text, "steady = 12.5%");
	CHECK_LINE(text, "eta_horizon = 90s");
	CHECK_LINE(text, "major_faults_per_s = 7");
	CHECK_LINE(text, "minor_faults_per_s = 18446744073709551615");
	CHECK_LINE(text, "min_throttled = 1.01%");
	CHECK_LINE(text, "min_wait = 12.25%");
	CHECK_LINE(text, "min_cpu = 100%");
	CHECK_LINE(text, "thread_cpu = 99.99%");
	CHECK_LINE(text, "total_cpu = 33.3%");
	CHECK_LINE(text, "max_faults_per_s = 1000000");
	check_true(!sets_key(text, "hook") && !strstr(text, "424242"),
		   "derived and environment fields are not printed", __LINE__);
	/* the defaults are still documented as such */
	CHECK_LINE(text, "# Duration, 100ms..1h. Default: 5s.");
	CHECK_LINE(text, "# Duration, 1s..1h. Default: 10s.");
	CHECK_LINE(text, "# Percent, 1%..100%. Default: 25%.");

	hk_config__defaults(&c);
	CHECK_U64(hk_config__parse_string(&c, text, "generated", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_true(!memcmp(&c, &want, THRESH_LEN), "round trip of a non-default config",
		   __LINE__);
	CHECK_U64(c.oom_min_trend_ns, HK_NSEC_PER_SEC + 1);
	CHECK_U64(c.throttled_pct_x100, 101);
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	free(text);
}

/* A pseudo-random number (64-bit LCG, high bits). */
static __u64 rnd(__u64 *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 32;
}

/* Uniform enough in [lo, hi]. */
static __u64 rnd_in(__u64 *seed, __u64 lo, __u64 hi)
{
	__u64 r = rnd(seed) << 32 | rnd(seed);

	if (hi - lo == UINT64_MAX)
		return r;
	return lo + r % (hi - lo + 1);
}

/* A duration in [lo, hi] ns: a whole number of a random unit, or any. */
static __u64 rnd_duration(__u64 *seed, __u64 lo, __u64 hi)
{
	static const __u64 units[] = { HK_NSEC_PER_MSEC, HK_NSEC_PER_SEC, 60 * HK_NSEC_PER_SEC, 3600 * HK_NSEC_PER_SEC };
	__u64 u = units[rnd(seed) % ARRAY_SIZE(units)];

	if (rnd(seed) % 4 == 0 || hi / u < (lo + u - 1) / u)
		return rnd_in(seed, lo, hi);
	return rnd_in(seed, (lo + u - 1) / u, hi / u) * u;
}

/* Random in-range values of every kind survive generate + parse. */
static void test_round_trip_random(void)
{
	__u64 seed = 0x9e3779b97f4a7c15ULL;
	struct hk_config want, c;
	char err[HK_ERR_LEN];
	int i, bad = 0;
	char *text;

	for (i = 0; i < 2000; i++) {
		hk_config__defaults(&want);
		want.interval_ns = rnd_duration(&seed, 100 * HK_NSEC_PER_MSEC, 3600 * HK_NSEC_PER_SEC);
		want.enter_windows = rnd_in(&seed, 1, 100);
		want.exit_windows = rnd_in(&seed, 1, 100);
		want.oom_trend_span_ns = rnd_duration(&seed, HK_NSEC_PER_SEC, 3600 * HK_NSEC_PER_SEC);
		want.oom_min_trend_ns = rnd_duration(&seed, HK_NSEC_PER_SEC, 3600 * HK_NSEC_PER_SEC);
		want.oom_min_growth_bytes = rnd(&seed) & 1 ?
			rnd_in(&seed, 1, 1024) << (10 * rnd_in(&seed, 0, 3)) :
			rnd_in(&seed, 1, HK_TIB);
		want.oom_steady_pct_x100 = rnd_in(&seed, 100, 10000);
		want.oom_eta_horizon_s = rnd_duration(&seed, HK_NSEC_PER_SEC, 30 * 86400 * HK_NSEC_PER_SEC) /
					 HK_NSEC_PER_SEC;
		want.thrash_major_faults_per_s = rnd_in(&seed, 1, 1000000);
		want.thrash_minor_faults_per_s = rnd_in(&seed, 1, UINT64_MAX);
		want.throttled_pct_x100 = rnd_in(&seed, 100, 10000);
		want.starved_wait_pct_x100 = rnd_in(&seed, 100, 10000);
		want.noisy_cpu_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_thread_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_total_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_max_faults_per_s = rnd_in(&seed, 1, 100000) * 1000;

		text = generate(&want);
		if (!text) {
			bad++;
			continue;
		}
		hk_config__defaults(&c);
		if (hk_config__parse_string(&c, text, "generated", err, sizeof(err)) ||
		    memcmp(&c, &want, THRESH_LEN)) {
			if (!bad)
				fprintf(stderr, "\nround trip %d failed: %s\n%s\n", i,
					err, text);
			bad++;
		}
		free(text);
	}
	CHECK_U64(bad, 0);
}

static void test_generate_write_error(void)
{
	struct hk_config c;
	FILE *f;

	if (access("/dev/full", W_OK))
		return;
	f = fopen("/dev/full", "w");
	CU_ASSERT_FATAL(f != NULL);
	hk_config__defaults(&c);
	CHECK_U64(hk_config__generate(&c, f), (__u64)-1);
	fclose(f);
}

/* --- validate and derive ---------------------------------------------- */

static void expect_invalid(const struct hk_config *c, const char *msg,
			   unsigned int line)
{
	char err[HK_ERR_LEN] = "";
	int ret = hk_config__validate(c, err, sizeof(err));

	check_u64((__u64)(__s64)ret, (__u64)-1, "hk_config__validate returns", line);
	check_str(err, msg, "hk_config__validate error", line);
}

#define EXPECT_INVALID(c, msg) expect_invalid((c), (msg), __LINE__)

static void test_validate(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	CHECK_STR(err, "");

	/* the trend span must hold 3 points: 2 intervals */
	c.oom_trend_span_ns = 9 * HK_NSEC_PER_SEC;
	EXPECT_INVALID(&c, "oom_risk.trend_span 9s must cover at least 2 intervals of 5s");
	c.oom_trend_span_ns = 10 * HK_NSEC_PER_SEC - 1;
	EXPECT_INVALID(&c, "oom_risk.trend_span 9999999999ns must cover at least "
		       "2 intervals of 5s");
	/* 10 s is also min_trend: equal is not longer */
	c.oom_trend_span_ns = 10 * HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	c.interval_ns = 1500 * HK_NSEC_PER_MSEC;
	c.oom_trend_span_ns = 2 * HK_NSEC_PER_SEC;
	EXPECT_INVALID(&c, "oom_risk.trend_span 2s must cover at least 2 intervals of 1500ms");
	c.oom_trend_span_ns = 3 * HK_NSEC_PER_SEC;
	EXPECT_INVALID(&c, "oom_risk.min_trend 10s is longer than oom_risk.trend_span 3s");
	c.oom_min_trend_ns = 3 * HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);

	/* ranges, for values set behind the parser's back */
	hk_config__defaults(&c);
	c.enter_windows = 0;
	EXPECT_INVALID(&c, "general.enter_windows 0 out of range (1..100)");
	hk_config__defaults(&c);
	c.exit_windows = 101;
	EXPECT_INVALID(&c, "general.exit_windows 101 out of range (1..100)");
	hk_config__defaults(&c);
	c.interval_ns = 10 * HK_NSEC_PER_MSEC;
	EXPECT_INVALID(&c, "general.interval 10ms out of range (100ms..1h)");
	hk_config__defaults(&c);
	c.interval_ns = 0;
	EXPECT_INVALID(&c, "general.interval 0s out of range (100ms..1h)");
	hk_config__defaults(&c);
	c.oom_min_growth_bytes = 2 * HK_TIB;
	EXPECT_INVALID(&c, "oom_risk.min_growth 2TiB out of range (1B..1TiB)");
	hk_config__defaults(&c);
	c.oom_steady_pct_x100 = 0;
	EXPECT_INVALID(&c, "oom_risk.steady 0% out of range (1%..100%)");
	hk_config__defaults(&c);
	c.oom_eta_horizon_s = 0;
	EXPECT_INVALID(&c, "oom_risk.eta_horizon 0s out of range (1s..30d)");
	hk_config__defaults(&c);
	c.oom_eta_horizon_s = 30 * 86400 + 1;
	EXPECT_INVALID(&c, "oom_risk.eta_horizon 2592001s out of range (1s..30d)");
	hk_config__defaults(&c);
	c.thrash_major_faults_per_s = 0;
	EXPECT_INVALID(&c, "mem_thrashing.major_faults_per_s 0 out of range (at least 1)");
	hk_config__defaults(&c);
	c.starved_wait_pct_x100 = 99;
	EXPECT_INVALID(&c, "starved.min_wait 0.99% out of range (1%..100%)");
	hk_config__defaults(&c);
	c.cpu_total_pct_x100 = 10001;
	EXPECT_INVALID(&c, "cpu_bound.total_cpu 100.01% out of range (1%..100%)");

	/* the environment and the derived values are not checked here */
	hk_config__defaults(&c);
	c.nr_cpus = 0;
	c.page_size_bytes = 12345;
	c.hook = 7;
	c.trend_stride_ns = 0;
	c.watch_wait_pct_x100 = 20000;
	CHECK_U64(hk_config__validate(&c, NULL, 0), 0);
}

/* The new keys: their ranges, and min_trend against trend_span. */
static void test_validate_new_keys(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	c.oom_min_trend_ns = 0;
	EXPECT_INVALID(&c, "oom_risk.min_trend 0s out of range (1s..1h)");
	c.oom_min_trend_ns = 999 * HK_NSEC_PER_MSEC;
	EXPECT_INVALID(&c, "oom_risk.min_trend 999ms out of range (1s..1h)");
	/* the range is checked before the trend span */
	c.oom_min_trend_ns = 3600 * HK_NSEC_PER_SEC + 1;
	EXPECT_INVALID(&c, "oom_risk.min_trend 3600000000001ns out of range (1s..1h)");
	c.oom_min_trend_ns = HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);

	/* longer than the span, by a nanosecond or by far */
	c.oom_min_trend_ns = 30 * HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	c.oom_min_trend_ns = 30 * HK_NSEC_PER_SEC + 1;
	EXPECT_INVALID(&c, "oom_risk.min_trend 30000000001ns is longer than "
		       "oom_risk.trend_span 30s");
	c.oom_min_trend_ns = 3600 * HK_NSEC_PER_SEC;
	EXPECT_INVALID(&c, "oom_risk.min_trend 1h is longer than oom_risk.trend_span 30s");
	c.oom_trend_span_ns = 3600 * HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	/* at the smallest span and interval */
	c.interval_ns = 100 * HK_NSEC_PER_MSEC;
	c.oom_trend_span_ns = HK_NSEC_PER_SEC;
	c.oom_min_trend_ns = HK_NSEC_PER_SEC;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);

	/* the parser takes each key alone; validate sees the pair */
	hk_config__defaults(&c);
	CHECK_U64(hk_config__parse_string(&c, "[oom_risk]\nmin_trend = 1m\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_U64(c.oom_min_trend_ns, 60 * HK_NSEC_PER_SEC);
	EXPECT_INVALID(&c, "oom_risk.min_trend 1m is longer than oom_risk.trend_span 30s");
	CHECK_U64(hk_config__parse_string(&c, "[oom_risk]\ntrend_span = 61s\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	c.oom_min_trend_ns = 61 * HK_NSEC_PER_SEC + 500 * HK_NSEC_PER_MSEC;
	EXPECT_INVALID(&c, "oom_risk.min_trend 61500ms is longer than "
		       "oom_risk.trend_span 61s");

	hk_config__defaults(&c);
	c.throttled_pct_x100 = 0;
	EXPECT_INVALID(&c, "throttled.min_throttled 0% out of range (1%..100%)");
	c.throttled_pct_x100 = 99;
	EXPECT_INVALID(&c, "throttled.min_throttled 0.99% out of range (1%..100%)");
	c.throttled_pct_x100 = 10001;
	EXPECT_INVALID(&c, "throttled.min_throttled 100.01% out of range (1%..100%)");
	c.throttled_pct_x100 = 100;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	c.throttled_pct_x100 = 10000;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
}

static void test_derive(void)
{
	struct hk_config c, before;

	/* 30s / 7 is less than an interval of 5s: a point every window,
	 * taken half an interval early; the hook watches from Starved's 70 % */
	hk_config__defaults(&c);
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 2500000000ULL);
	CHECK_U64(c.watch_wait_pct_x100, 7000);

	/* 30s / 7 = 4285714285 ns, less 500 ms */
	hk_config__defaults(&c);
	c.interval_ns = HK_NSEC_PER_SEC;
	c.trend_stride_ns = 99;		/* stale: overwritten, not used */
	c.watch_wait_pct_x100 = 99;
	before = c;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 3785714285ULL);
	CHECK_U64(c.watch_wait_pct_x100, 7000);
	before.trend_stride_ns = 3785714285ULL;
	before.watch_wait_pct_x100 = 7000;
	check_true(!memcmp(&c, &before, sizeof(c)),
		   "derive changes only the derived fields", __LINE__);
	/* and twice is once */
	hk_config__derive(&c);
	check_true(!memcmp(&c, &before, sizeof(c)), "derive is idempotent",
		   __LINE__);

	/* 70s / 7 = 10 s, less 500 ms */
	c.oom_trend_span_ns = 70 * HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 9500000000ULL);

	/* exactly 7 intervals, a nanosecond less, a few more */
	c.interval_ns = 2 * HK_NSEC_PER_SEC;
	c.oom_trend_span_ns = 14 * HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, HK_NSEC_PER_SEC);
	c.oom_trend_span_ns = 14 * HK_NSEC_PER_SEC - 1;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, HK_NSEC_PER_SEC);
	c.oom_trend_span_ns = 14 * HK_NSEC_PER_SEC + 7;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, HK_NSEC_PER_SEC + 1);

	/* 1500ms: half of it is 750 ms */
	c.interval_ns = 1500 * HK_NSEC_PER_MSEC;
	c.oom_trend_span_ns = 3 * HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 750 * HK_NSEC_PER_MSEC);

	/* 3600 s / 7 = 514285714285 ns, less 50 ms */
	c.interval_ns = 100 * HK_NSEC_PER_MSEC;
	c.oom_trend_span_ns = 3600 * HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 514235714285ULL);

	/* a span shorter than one interval: one interval, less half */
	c.interval_ns = 3600 * HK_NSEC_PER_SEC;
	c.oom_trend_span_ns = HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 1800 * HK_NSEC_PER_SEC);

	/* no interval at all: the span alone, nothing divides by it */
	c.interval_ns = 0;
	c.oom_trend_span_ns = 30 * HK_NSEC_PER_SEC;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_ns, 4285714285ULL);

	/* the watch threshold: Starved's own */
	c.starved_wait_pct_x100 = 7001;
	hk_config__derive(&c);
	CHECK_U64(c.watch_wait_pct_x100, 7001);
	c.starved_wait_pct_x100 = 100;
	hk_config__derive(&c);
	CHECK_U64(c.watch_wait_pct_x100, 100);
	c.starved_wait_pct_x100 = 10000;
	hk_config__derive(&c);
	CHECK_U64(c.watch_wait_pct_x100, 10000);
}

int hk_add_config_generate_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "generate_defaults", test_generate_defaults },
		{ "generate_non_default", test_generate_non_default },
		{ "round_trip_random", test_round_trip_random },
		{ "generate_write_error", test_generate_write_error },
		{ "validate", test_validate },
		{ "validate_new_keys", test_validate_new_keys },
		{ "derive", test_derive },
	};

	return HK_ADD_SUITE("config generate", tests);
}
