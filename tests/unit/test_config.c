// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Config keys: every default, every key set once, each key at the edges of
 * its range, and the syntax a file may use (comments, blanks, CRLF).
 */
#include <stdint.h>
#include "config_fixtures.h"
#include "suites.h"

/* --- defaults and every key ------------------------------------------- */

static void test_defaults(void)
{
	/* every field, so that a new one cannot slip in with a default */
	const struct hk_config want = {
		.interval_ns = 5 * HK_NSEC_PER_SEC,
		.enter_windows = 2,
		.exit_windows = 3,
		.oom_trend_span_ns = 30 * HK_NSEC_PER_SEC,
		.oom_min_trend_ns = 10 * HK_NSEC_PER_SEC,
		.oom_min_growth_bytes = 64 * HK_MIB,
		.oom_steady_pct_x100 = 7500,
		.oom_eta_share_pct_x100 = 2500,
		.oom_eta_horizon_s = 900,
		.oom_eta_floor_s = 120,
		.thrash_major_faults_per_s = 100,
		.thrash_minor_faults_per_s = 10000,
		.thrash_stall_pct_x100 = 1000,
		.throttled_pct_x100 = 2500,
		.starved_wait_pct_x100 = 7000,
		.noisy_cpu_pct_x100 = 5000,
		.cpu_thread_pct_x100 = 9000,
		.cpu_total_pct_x100 = 5000,
		.io_blocked_pct_x100 = 5000,
		.cpu_max_faults_per_s = 1000,
		.mem_high_usage_pct_x100 = 9000,
		.mem_high_non_cache_pct_x100 = 5000,
		.mem_high_events_per_s = 5,
		.mem_high_faults_per_s = 10,
		/* derive() computes these, after every override */
		.trend_stride_ns = 0,
		.watch_wait_pct_x100 = 0,
		/* the environment is not the config's business */
		.nr_cpus = 0,
		.total_ram_bytes = 0,
		.page_size_bytes = 0,
		.hook = 0,
		.pidns_ino = 0,
		/* [freeze]: off, and the cgroups a host cannot live without */
		.freeze_eta_s = 0,
		.freeze_max_s = 600,
		.freeze_never = { 7, { "/init.scope", "/system.slice/systemd-journald.service",
				       "/system.slice/dbus.service",
				       "/system.slice/dbus-broker.service",
				       "/system.slice/systemd-logind.service",
				       "/system.slice/ssh.service", "/system.slice/sshd.service" } },
		/* [postmortem]: 32 files of 64 KiB at most */
		.pm_records = 32,
		.pm_record_bytes = 65536,
		/* [budget]: 5 % of one CPU over 30 s (make bench); no RSS budget */
		.budget_span_ns = 30 * HK_NSEC_PER_SEC,
		.budget_rss_bytes = 0,
		.budget_cpu_pct_x100 = 500,
	};
	struct hk_config c;

	other_config(&c);
	hk_config__defaults(&c);
	CHECK_U64(c.interval_ns, 5 * HK_NSEC_PER_SEC);
	CHECK_U64(c.enter_windows, 2);
	CHECK_U64(c.exit_windows, 3);
	CHECK_U64(c.oom_trend_span_ns, 30 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_trend_ns, 10 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_growth_bytes, 64 * HK_MIB);
	CHECK_U64(c.oom_steady_pct_x100, 7500);
	CHECK_U64(c.oom_eta_horizon_s, 900);
	CHECK_U64(c.thrash_major_faults_per_s, 100);
	CHECK_U64(c.thrash_minor_faults_per_s, 10000);
	CHECK_U64(c.throttled_pct_x100, 2500);
	CHECK_U64(c.starved_wait_pct_x100, 7000);
	CHECK_U64(c.noisy_cpu_pct_x100, 5000);
	CHECK_U64(c.cpu_thread_pct_x100, 9000);
	CHECK_U64(c.cpu_total_pct_x100, 5000);
	CHECK_U64(c.cpu_max_faults_per_s, 1000);
	CHECK_U64(c.mem_high_usage_pct_x100, 9000);
	CHECK_U64(c.mem_high_non_cache_pct_x100, 5000);
	CHECK_U64(c.mem_high_events_per_s, 5);
	CHECK_U64(c.mem_high_faults_per_s, 10);
	CHECK_U64(c.trend_stride_ns, 0);
	CHECK_U64(c.watch_wait_pct_x100, 0);
	CHECK_U64(c.nr_cpus, 0);
	CHECK_U64(c.total_ram_bytes, 0);
	CHECK_U64(c.page_size_bytes, 0);
	CHECK_U64(c.hook, 0);
	CHECK_U64(c.pidns_ino, 0);
	check_true(!memcmp(&c, &want, sizeof(c)), "defaults, every byte", __LINE__);
}

static void test_every_key(void)
{
	static const char text[] =
		"[general]\n"
		"interval = 1.5s\n"
		"enter_windows = 4\n"
		"exit_windows = 100\n"
		"[oom_risk]\n"
		"trend_span = 2m\n"
		"min_trend = 90s\n"
		"min_growth = 1.5GiB\n"
		"steady = 12.5%\n"
		"eta_horizon = 2d\n"
		"[mem_thrashing]\n"
		"major_faults_per_s = 10k\n"
		"minor_faults_per_s = 2M\n"
		"[throttled]\n"
		"min_throttled = 12.34%\n"
		"[starved]\n"
		"min_wait = 33.33%\n"
		"[noisy_neighbor]\n"
		"min_cpu = 100%\n"
		"[cpu_bound]\n"
		"thread_cpu = 99.9%\n"
		"total_cpu = 1%\n"
		"max_faults_per_s = 1\n";
	struct hk_config c;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	c.nr_cpus = 8;
	c.pidns_ino = 42;
	c.hook = 1;
	c.trend_stride_ns = 5;
	CHECK_U64(hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(c.interval_ns, 1500 * HK_NSEC_PER_MSEC);
	CHECK_U64(c.enter_windows, 4);
	CHECK_U64(c.exit_windows, 100);
	CHECK_U64(c.oom_trend_span_ns, 120 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_trend_ns, 90 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_growth_bytes, 1536 * HK_MIB);
	CHECK_U64(c.oom_steady_pct_x100, 1250);
	CHECK_U64(c.oom_eta_horizon_s, 2 * 86400);
	CHECK_U64(c.thrash_major_faults_per_s, 10000);
	CHECK_U64(c.thrash_minor_faults_per_s, 2000000);
	CHECK_U64(c.throttled_pct_x100, 1234);
	CHECK_U64(c.starved_wait_pct_x100, 3333);
	CHECK_U64(c.noisy_cpu_pct_x100, 10000);
	CHECK_U64(c.cpu_thread_pct_x100, 9990);
	CHECK_U64(c.cpu_total_pct_x100, 100);
	CHECK_U64(c.cpu_max_faults_per_s, 1);
	/* untouched: not keys */
	CHECK_U64(c.nr_cpus, 8);
	CHECK_U64(c.pidns_ino, 42);
	CHECK_U64(c.hook, 1);
	CHECK_U64(c.trend_stride_ns, 5);
	CHECK_U64(c.watch_wait_pct_x100, 0);
}

/* Each key at the edges of its range is accepted. */
static void test_range_edges(void)
{
	static const struct {
		const char *text;
		size_t off, size;
		__u64 v;
	} cases[] = {
#define EDGE(text, field, v) \
	{ text, offsetof(struct hk_config, field), \
	  sizeof(((struct hk_config *)0)->field), v }
		EDGE("[general]\ninterval = 100ms", interval_ns, 100 * HK_NSEC_PER_MSEC),
		EDGE("[general]\ninterval = 1h", interval_ns, 3600 * HK_NSEC_PER_SEC),
		EDGE("[general]\ninterval = 0.1s", interval_ns, 100 * HK_NSEC_PER_MSEC),
		EDGE("[general]\nenter_windows = 1", enter_windows, 1),
		EDGE("[general]\nenter_windows = 100", enter_windows, 100),
		EDGE("[general]\nexit_windows = 1", exit_windows, 1),
		EDGE("[oom_risk]\ntrend_span = 1s", oom_trend_span_ns, HK_NSEC_PER_SEC),
		EDGE("[oom_risk]\ntrend_span = 60m", oom_trend_span_ns, 3600 * HK_NSEC_PER_SEC),
		EDGE("[oom_risk]\nmin_growth = 1", oom_min_growth_bytes, 1),
		EDGE("[oom_risk]\nmin_growth = 1TiB", oom_min_growth_bytes, HK_TIB),
		EDGE("[oom_risk]\nmin_trend = 1s", oom_min_trend_ns, HK_NSEC_PER_SEC),
		EDGE("[oom_risk]\nmin_trend = 1000ms", oom_min_trend_ns, HK_NSEC_PER_SEC),
		EDGE("[oom_risk]\nmin_trend = 1h", oom_min_trend_ns, 3600 * HK_NSEC_PER_SEC),
		EDGE("[oom_risk]\nmin_trend = 3599.999999999s", oom_min_trend_ns,
		     3600 * HK_NSEC_PER_SEC - 1),
		EDGE("[oom_risk]\nsteady = 100%", oom_steady_pct_x100, 10000),
		EDGE("[oom_risk]\nsteady = 1%", oom_steady_pct_x100, 100),
		EDGE("[oom_risk]\neta_horizon = 1s", oom_eta_horizon_s, 1),
		EDGE("[oom_risk]\neta_horizon = 30d", oom_eta_horizon_s, 30 * 86400),
		EDGE("[oom_risk]\neta_horizon = 1500s", oom_eta_horizon_s, 1500),
		EDGE("[oom_risk]\neta_horizon = 2000ms", oom_eta_horizon_s, 2),
		EDGE("[mem_thrashing]\nmajor_faults_per_s = 1", thrash_major_faults_per_s, 1),
		EDGE("[mem_thrashing]\nminor_faults_per_s = 18446744073709551615",
		     thrash_minor_faults_per_s, UINT64_MAX),
		EDGE("[throttled]\nmin_throttled = 1%", throttled_pct_x100, 100),
		EDGE("[throttled]\nmin_throttled = 100%", throttled_pct_x100, 10000),
		EDGE("[throttled]\nmin_throttled = 1.00%", throttled_pct_x100, 100),
		EDGE("[starved]\nmin_wait = 1%", starved_wait_pct_x100, 100),
		EDGE("[starved]\nmin_wait = 100%", starved_wait_pct_x100, 10000),
		EDGE("[noisy_neighbor]\nmin_cpu = 1%", noisy_cpu_pct_x100, 100),
		EDGE("[cpu_bound]\nthread_cpu = 100%", cpu_thread_pct_x100, 10000),
		EDGE("[cpu_bound]\ntotal_cpu = 100%", cpu_total_pct_x100, 10000),
		EDGE("[cpu_bound]\nmax_faults_per_s = 1", cpu_max_faults_per_s, 1),
#undef EDGE
	};
	char err[HK_ERR_LEN], what[512];
	struct hk_config c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		__u64 v;
		int ret;

		hk_config__defaults(&c);
		err[0] = '\0';
		ret = hk_config__parse_string(&c, cases[i].text, "t.conf", err,
					      sizeof(err));
		snprintf(what, sizeof(what), "parse \"%s\" (%s)", cases[i].text, err);
		check_u64((__u64)(__s64)ret, 0, what, __LINE__);
		if (cases[i].size == sizeof(__u32)) {
			__u32 v32;

			memcpy(&v32, (char *)&c + cases[i].off, sizeof(v32));
			v = v32;
		} else {
			memcpy(&v, (char *)&c + cases[i].off, sizeof(v));
		}
		check_u64(v, cases[i].v, what, __LINE__);
	}
}

/* --- syntax ----------------------------------------------------------- */

static void test_comments_and_blanks(void)
{
	static const char text[] =
		"# a comment\n"
		"\n"
		"   \t \n"
		"   # an indented comment = with an equals sign\n"
		"[general]   # a comment after a section\n"
		"  interval\t=\t250ms   # a comment after a value\n"
		"enter_windows=7#tight\n"
		"\r\n"
		"[ oom_risk ]\r\n"
		"min_trend = 20s\r\n"
		"[throttled]# no space\n"
		"\tmin_throttled=50%\t\n"
		"[starved]\n"
		"min_wait = 60%\n"
		"[general]\n"
		"exit_windows = 9";	/* no final newline */
	struct hk_config c, want;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	want = c;
	want.interval_ns = 250 * HK_NSEC_PER_MSEC;
	want.enter_windows = 7;
	want.exit_windows = 9;
	want.oom_min_trend_ns = 20 * HK_NSEC_PER_SEC;
	want.throttled_pct_x100 = 5000;
	want.starved_wait_pct_x100 = 6000;
	CHECK_U64(hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(memcmp(&c, &want, sizeof(c)) == 0, 1);
}

static void test_empty_inputs(void)
{
	struct hk_config c, before;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	c.oom_min_trend_ns = 3 * HK_NSEC_PER_SEC;	/* not a default: must survive */
	c.hook = 1;
	before = c;
	CHECK_U64(hk_config__parse_string(&c, "", "t.conf", err, sizeof(err)), 0);
	CHECK_U64(hk_config__parse_string(&c, "\n\n# only comments\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_U64(hk_config__parse_string(&c, "[general]\n[throttled]\n[cpu_bound]\n", "t.conf",
					  err, sizeof(err)), 0);
	/* a byte order mark is not part of the first line */
	CHECK_U64(hk_config__parse_string(&c, "\xef\xbb\xbf[general]\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(memcmp(&c, &before, sizeof(c)) == 0, 1);
}

int hk_add_config_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "defaults", test_defaults },
		{ "every_key", test_every_key },
		{ "range_edges", test_range_edges },
		{ "comments_and_blanks", test_comments_and_blanks },
		{ "empty_inputs", test_empty_inputs },
	};

	return HK_ADD_SUITE("config", tests);
}
