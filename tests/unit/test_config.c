// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Config: the unit parsers, every key, every error message (exact text),
 * all-or-nothing parsing, --generate-config round trips, validate, derive.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "config.h"
#include "suites.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define S_NS	1000000000ULL
#define MS_NS	1000000ULL
#define KIB	(1ULL << 10)
#define MIB	(1ULL << 20)
#define GIB	(1ULL << 30)
#define TIB	(1ULL << 40)

/* The thresholds: everything before the environment fields. */
#define THRESH_LEN offsetof(struct hk_config, nr_cpus)

/* Assertions that say what they got and what they wanted. */
static void check_u64(__u64 got, __u64 want, const char *what,
		      unsigned int line)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s: got %llu, expected %llu", what,
		 (unsigned long long)got, (unsigned long long)want);
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

static void check_str(const char *got, const char *want, const char *what,
		      unsigned int line)
{
	char msg[2048];

	snprintf(msg, sizeof(msg), "%s: got \"%s\", expected \"%s\"", what,
		 got, want);
	CU_assertImplementation(!strcmp(got, want), line, msg, __FILE__, "",
				CU_FALSE);
}

#define CHECK_U64(got, want) check_u64((got), (want), #got, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __LINE__)

static void check_true(int ok, const char *what, unsigned int line)
{
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, what, __FILE__, "",
				CU_FALSE);
}

/* A config whose every field differs from the defaults, environment too. */
static void other_config(struct hk_config *c)
{
	memset(c, 0, sizeof(*c));
	c->interval_ns = 1 * S_NS;
	c->enter_windows = 5;
	c->exit_windows = 6;
	c->oom_trend_span_ns = 60 * S_NS;
	c->oom_min_growth_bytes = 1 * MIB;
	c->oom_min_rss_bytes = 2 * GIB;
	c->oom_min_rss_pct_x100 = 1;
	c->oom_steady_pct_x100 = 100;
	c->oom_eta_horizon_s = 1;
	c->thrash_major_faults_per_s = 1;
	c->thrash_minor_faults_per_s = 2;
	c->starved_wait_pct_x100 = 9999;
	c->noisy_cpu_pct_x100 = 9998;
	c->cpu_thread_pct_x100 = 9997;
	c->cpu_total_pct_x100 = 9996;
	c->cpu_max_faults_per_s = 3;
	c->cpu_max_wait_pct_x100 = 9995;
	c->nr_cpus = 64;
	c->total_ram_bytes = 256 * GIB;
	c->page_size_bytes = 4096;
	c->trend_stride_windows = 9;
	c->pidns_ino = 4026531836ULL;
}

/* generate() into a string; the caller frees it. */
static char *generate(const struct hk_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (hk_config__generate(c, f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

/* --- unit parsers ----------------------------------------------------- */

struct u64_case {
	const char *s;
	int ret;
	__u64 v;	/* when ret is 0 */
};

/* A value the parser must reject. */
#define BAD(s) { s, -1, 0 }

#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

static void check_u64_cases(int (*parse)(const char *, __u64 *),
			    const char *fn, const struct u64_case *cases,
			    size_t n, unsigned int line)
{
	char what[160];
	size_t i;

	for (i = 0; i < n; i++) {
		__u64 v = SENTINEL;
		int ret = parse(cases[i].s, &v);

		snprintf(what, sizeof(what), "%s(\"%s\") returns", fn, cases[i].s);
		check_u64((__u64)(__s64)ret, (__u64)(__s64)cases[i].ret, what, line);
		snprintf(what, sizeof(what), "%s(\"%s\") value", fn, cases[i].s);
		/* a failed parse leaves the output alone */
		check_u64(v, cases[i].ret ? SENTINEL : cases[i].v, what, line);
	}
}

static void test_parse_duration(void)
{
	static const struct u64_case cases[] = {
		{ "5s", 0, 5 * S_NS },
		{ "250ms", 0, 250 * MS_NS },
		{ "1.5s", 0, 1500 * MS_NS },
		{ "100ns", 0, 100 },
		{ "3us", 0, 3000 },
		{ "2m", 0, 120 * S_NS },
		{ "1h", 0, 3600 * S_NS },
		{ "1d", 0, 86400 * S_NS },
		{ "15m", 0, 900 * S_NS },
		{ "0.5ms", 0, 500000 },
		{ "1.000s", 0, S_NS },
		{ "1.250s", 0, 1250 * MS_NS },
		{ "0.000000001s", 0, 1 },
		{ "1.5m", 0, 90 * S_NS },
		{ "0s", 0, 0 },
		{ "007s", 0, 7 * S_NS },
		{ "5 s", 0, 5 * S_NS },
		{ "5\tms", 0, 5 * MS_NS },
		{ "18446744073709551615ns", 0, UINT64_MAX },
		{ "213503d", 0, 213503ULL * 86400 * S_NS },
		/* overflow */
		BAD("18446744073709551616ns"),
		BAD("213504d"),
		BAD("18446744073.709551616s"),
		BAD("99999999999999999999999s"),
		/* negative, signs, junk, empty */
		BAD("-5s"),
		BAD("-0s"),
		BAD("+5s"),
		BAD(" 5s"),
		BAD("5s "),
		BAD(""),
		BAD("s"),
		BAD("5sx"),
		BAD("5x"),
		BAD("5S"),
		BAD("5 s s"),
		BAD("1e3s"),
		BAD("0x10s"),
		BAD("5,5s"),
		/* missing unit */
		BAD("5"),
		BAD("0"),
		BAD("1.5"),
		/* fractions */
		BAD(".5s"),
		BAD("5.s"),
		BAD("1..5s"),
		BAD("0.5ns"),
		BAD("1.0000000001s"),
		BAD("1.5.5s"),
	};

	check_u64_cases(hk_parse_duration_ns, "hk_parse_duration_ns", cases,
			ARRAY_SIZE(cases), __LINE__);
	CHECK_U64(hk_parse_duration_ns(NULL, &(__u64){ 0 }), (__u64)-1);
}

static void test_parse_bytes(void)
{
	static const struct u64_case cases[] = {
		{ "0", 0, 0 },
		{ "1", 0, 1 },
		{ "512", 0, 512 },
		{ "1B", 0, 1 },
		{ "1KiB", 0, KIB },
		{ "1K", 0, KIB },
		{ "1KB", 0, KIB },
		{ "64MiB", 0, 64 * MIB },
		{ "64M", 0, 64 * MIB },
		{ "64MB", 0, 64 * MIB },
		{ "1GiB", 0, GIB },
		{ "1G", 0, GIB },
		{ "1GB", 0, GIB },
		{ "2TiB", 0, 2 * TIB },
		{ "2T", 0, 2 * TIB },
		{ "2TB", 0, 2 * TIB },
		{ "1.5GiB", 0, 1610612736ULL },
		{ "1536MiB", 0, 1610612736ULL },
		{ "0.5KiB", 0, 512 },
		{ "0.25KiB", 0, 256 },
		{ "1.0B", 0, 1 },
		{ "0.0009765625MiB", 0, 1024 },
		{ "64 MiB", 0, 64 * MIB },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "16777215TiB", 0, 16777215ULL * TIB },
		{ "16777215.5TiB", 0, 16777215ULL * TIB + TIB / 2 },
		/* overflow */
		BAD("18446744073709551616"),
		BAD("16777216TiB"),
		BAD("16777216.5TiB"),
		/* not whole bytes */
		BAD("1.5B"),
		BAD("0.1KiB"),
		BAD("1.3GiB"),
		/* negative, junk, empty, unknown units */
		BAD("-1"),
		BAD("-1MiB"),
		BAD(""),
		BAD("MiB"),
		BAD("1MiB2"),
		BAD("1kib"),
		BAD("1mib"),
		BAD("1kB"),
		BAD("1PiB"),
		BAD("1 000"),
		BAD("1.MiB"),
		BAD(".5MiB"),
	};

	check_u64_cases(hk_parse_bytes, "hk_parse_bytes", cases,
			ARRAY_SIZE(cases), __LINE__);
}

static void test_parse_pct(void)
{
	static const struct {
		const char *s;
		int ret;
		__u32 v;
	} cases[] = {
		{ "50%", 0, 5000 },
		{ "12.5%", 0, 1250 },
		{ "12.25%", 0, 1225 },
		{ "12.50%", 0, 1250 },
		{ "12.500%", 0, 1250 },
		{ "0.01%", 0, 1 },
		{ "0%", 0, 0 },
		{ "100%", 0, 10000 },
		{ "150%", 0, 15000 },	/* the key decides the range */
		{ "50 %", 0, 5000 },
		{ "42949672.95%", 0, UINT32_MAX },
		/* overflow of the 32-bit result */
		BAD("42949672.96%"),
		BAD("99999999999999999999%"),
		/* two decimals at most */
		BAD("12.345%"),
		BAD("0.001%"),
		/* missing %, junk, negative, empty */
		BAD("50"),
		BAD("0.5"),
		BAD("%"),
		BAD(""),
		BAD("-5%"),
		BAD("50%%"),
		BAD("50 percent"),
		BAD("50%x"),
		BAD("x50%"),
		BAD(".5%"),
	};
	char what[96];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		__u32 v = 0x5a5a5a5a;
		int ret = hk_parse_pct_x100(cases[i].s, &v);

		snprintf(what, sizeof(what), "hk_parse_pct_x100(\"%s\") returns",
			 cases[i].s);
		check_u64((__u64)(__s64)ret, (__u64)(__s64)cases[i].ret, what, __LINE__);
		snprintf(what, sizeof(what), "hk_parse_pct_x100(\"%s\") value",
			 cases[i].s);
		check_u64(v, cases[i].ret ? 0x5a5a5a5a : cases[i].v, what, __LINE__);
	}
}

static void test_parse_count(void)
{
	static const struct u64_case cases[] = {
		{ "0", 0, 0 },
		{ "1", 0, 1 },
		{ "10000", 0, 10000 },
		{ "10k", 0, 10000 },
		{ "1.5k", 0, 1500 },
		{ "2M", 0, 2000000 },
		{ "0.5M", 0, 500000 },
		{ "0.001k", 0, 1 },
		{ "10 k", 0, 10000 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551k", 0, 18446744073709551000ULL },
		/* overflow */
		BAD("18446744073709551616"),
		BAD("18446744073709552k"),
		BAD("18446744073709.552M"),
		/* fractions that are not whole */
		BAD("1.5"),
		BAD("0.0001k"),
		BAD("1.0001k"),
		/* suffixes, junk, negative, empty */
		BAD("10K"),
		BAD("10m"),
		BAD("10G"),
		BAD("10x"),
		BAD("1e4"),
		BAD("10k5"),
		BAD("-1"),
		BAD(""),
		BAD("k"),
		BAD("1.k"),
	};

	check_u64_cases(hk_parse_count, "hk_parse_count", cases,
			ARRAY_SIZE(cases), __LINE__);
}

/* --- defaults and every key ------------------------------------------- */

static void test_defaults(void)
{
	struct hk_config c;

	other_config(&c);
	hk_config__defaults(&c);
	CHECK_U64(c.interval_ns, 5 * S_NS);
	CHECK_U64(c.enter_windows, 2);
	CHECK_U64(c.exit_windows, 3);
	CHECK_U64(c.oom_trend_span_ns, 30 * S_NS);
	CHECK_U64(c.oom_min_growth_bytes, 64 * MIB);
	CHECK_U64(c.oom_min_rss_bytes, GIB);
	CHECK_U64(c.oom_min_rss_pct_x100, 5000);
	CHECK_U64(c.oom_steady_pct_x100, 7500);
	CHECK_U64(c.oom_eta_horizon_s, 900);
	CHECK_U64(c.thrash_major_faults_per_s, 100);
	CHECK_U64(c.thrash_minor_faults_per_s, 10000);
	CHECK_U64(c.starved_wait_pct_x100, 7500);
	CHECK_U64(c.noisy_cpu_pct_x100, 5000);
	CHECK_U64(c.cpu_thread_pct_x100, 9000);
	CHECK_U64(c.cpu_total_pct_x100, 5000);
	CHECK_U64(c.cpu_max_faults_per_s, 1000);
	CHECK_U64(c.cpu_max_wait_pct_x100, 2500);
	/* the environment is not the config's business */
	CHECK_U64(c.nr_cpus, 0);
	CHECK_U64(c.total_ram_bytes, 0);
	CHECK_U64(c.page_size_bytes, 0);
	CHECK_U64(c.trend_stride_windows, 0);
	CHECK_U64(c.pidns_ino, 0);
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
		"min_growth = 1.5GiB\n"
		"min_rss = 512M\n"
		"min_rss_of_limit = 0.01%\n"
		"steady = 12.5%\n"
		"eta_horizon = 2d\n"
		"[mem_thrashing]\n"
		"major_faults_per_s = 10k\n"
		"minor_faults_per_s = 2M\n"
		"[starved]\n"
		"min_wait = 33.33%\n"
		"[noisy_neighbor]\n"
		"min_cpu = 100%\n"
		"[cpu_bound]\n"
		"thread_cpu = 99.9%\n"
		"total_cpu = 1%\n"
		"max_faults_per_s = 1\n"
		"max_wait = 2.5%\n";
	struct hk_config c;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	c.nr_cpus = 8;
	c.pidns_ino = 42;
	CHECK_U64(hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(c.interval_ns, 1500 * MS_NS);
	CHECK_U64(c.enter_windows, 4);
	CHECK_U64(c.exit_windows, 100);
	CHECK_U64(c.oom_trend_span_ns, 120 * S_NS);
	CHECK_U64(c.oom_min_growth_bytes, 1536 * MIB);
	CHECK_U64(c.oom_min_rss_bytes, 512 * MIB);
	CHECK_U64(c.oom_min_rss_pct_x100, 1);
	CHECK_U64(c.oom_steady_pct_x100, 1250);
	CHECK_U64(c.oom_eta_horizon_s, 2 * 86400);
	CHECK_U64(c.thrash_major_faults_per_s, 10000);
	CHECK_U64(c.thrash_minor_faults_per_s, 2000000);
	CHECK_U64(c.starved_wait_pct_x100, 3333);
	CHECK_U64(c.noisy_cpu_pct_x100, 10000);
	CHECK_U64(c.cpu_thread_pct_x100, 9990);
	CHECK_U64(c.cpu_total_pct_x100, 100);
	CHECK_U64(c.cpu_max_faults_per_s, 1);
	CHECK_U64(c.cpu_max_wait_pct_x100, 250);
	/* untouched: not keys */
	CHECK_U64(c.nr_cpus, 8);
	CHECK_U64(c.pidns_ino, 42);
	CHECK_U64(c.trend_stride_windows, 0);
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
		EDGE("[general]\ninterval = 100ms", interval_ns, 100 * MS_NS),
		EDGE("[general]\ninterval = 1h", interval_ns, 3600 * S_NS),
		EDGE("[general]\ninterval = 0.1s", interval_ns, 100 * MS_NS),
		EDGE("[general]\nenter_windows = 1", enter_windows, 1),
		EDGE("[general]\nenter_windows = 100", enter_windows, 100),
		EDGE("[general]\nexit_windows = 1", exit_windows, 1),
		EDGE("[oom_risk]\ntrend_span = 1s", oom_trend_span_ns, S_NS),
		EDGE("[oom_risk]\ntrend_span = 60m", oom_trend_span_ns, 3600 * S_NS),
		EDGE("[oom_risk]\nmin_growth = 1", oom_min_growth_bytes, 1),
		EDGE("[oom_risk]\nmin_growth = 1TiB", oom_min_growth_bytes, TIB),
		EDGE("[oom_risk]\nmin_rss = 1B", oom_min_rss_bytes, 1),
		EDGE("[oom_risk]\nmin_rss = 4TiB", oom_min_rss_bytes, 4 * TIB),
		EDGE("[oom_risk]\nmin_rss_of_limit = 100%", oom_min_rss_pct_x100, 10000),
		EDGE("[oom_risk]\nsteady = 1%", oom_steady_pct_x100, 100),
		EDGE("[oom_risk]\neta_horizon = 1s", oom_eta_horizon_s, 1),
		EDGE("[oom_risk]\neta_horizon = 30d", oom_eta_horizon_s, 30 * 86400),
		EDGE("[oom_risk]\neta_horizon = 1500s", oom_eta_horizon_s, 1500),
		EDGE("[oom_risk]\neta_horizon = 2000ms", oom_eta_horizon_s, 2),
		EDGE("[mem_thrashing]\nmajor_faults_per_s = 1", thrash_major_faults_per_s, 1),
		EDGE("[mem_thrashing]\nminor_faults_per_s = 18446744073709551615",
		     thrash_minor_faults_per_s, UINT64_MAX),
		EDGE("[starved]\nmin_wait = 1%", starved_wait_pct_x100, 100),
		EDGE("[noisy_neighbor]\nmin_cpu = 1%", noisy_cpu_pct_x100, 100),
		EDGE("[cpu_bound]\nthread_cpu = 100%", cpu_thread_pct_x100, 10000),
		EDGE("[cpu_bound]\ntotal_cpu = 100%", cpu_total_pct_x100, 10000),
		EDGE("[cpu_bound]\nmax_wait = 1%", cpu_max_wait_pct_x100, 100),
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
		"min_rss = 2GiB\r\n"
		"[starved]\n"
		"min_wait = 60%\n"
		"[general]\n"
		"exit_windows = 9";	/* no final newline */
	struct hk_config c, want;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	want = c;
	want.interval_ns = 250 * MS_NS;
	want.enter_windows = 7;
	want.exit_windows = 9;
	want.oom_min_rss_bytes = 2 * GIB;
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
	c.oom_min_rss_bytes = 3 * GIB;	/* not a default: must survive */
	before = c;
	CHECK_U64(hk_config__parse_string(&c, "", "t.conf", err, sizeof(err)), 0);
	CHECK_U64(hk_config__parse_string(&c, "\n\n# only comments\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_U64(hk_config__parse_string(&c, "[general]\n[cpu_bound]\n", "t.conf",
					  err, sizeof(err)), 0);
	/* a byte order mark is not part of the first line */
	CHECK_U64(hk_config__parse_string(&c, "\xef\xbb\xbf[general]\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(memcmp(&c, &before, sizeof(c)) == 0, 1);
}

/* --- errors ----------------------------------------------------------- */

/* Parse text, expect exactly msg, and *c not changed in any byte. */
static void expect_error(const char *text, const char *msg, unsigned int line)
{
	struct hk_config c, before;
	char err[HK_ERR_LEN], what[512];
	int ret;

	other_config(&c);
	before = c;
	memset(err, 'x', sizeof(err));
	ret = hk_config__parse_string(&c, text, "t.conf", err, sizeof(err));
	snprintf(what, sizeof(what), "parse \"%s\" returns", text);
	check_u64((__u64)(__s64)ret, (__u64)-1, what, line);
	err[sizeof(err) - 1] = '\0';
	snprintf(what, sizeof(what), "error for \"%s\"", text);
	check_str(err, msg, what, line);
	snprintf(what, sizeof(what), "config untouched by \"%s\"", text);
	check_true(!memcmp(&c, &before, sizeof(c)), what, line);
}

#define EXPECT_ERROR(text, msg) expect_error((text), (msg), __LINE__)

static void test_syntax_errors(void)
{
	EXPECT_ERROR("[general]\ninterval = 5s\n\n\n\n\nintervall = 5s\n",
		     "t.conf:7: unknown key 'intervall' in [general]");
	EXPECT_ERROR("[starved]\ninterval = 5s\n",
		     "t.conf:2: unknown key 'interval' in [starved]");
	EXPECT_ERROR("# c\n\n[cpu]\n",
		     "t.conf:3: unknown section [cpu] (valid: general, oom_risk, "
		     "mem_thrashing, starved, noisy_neighbor, cpu_bound)");
	EXPECT_ERROR("[]\n",
		     "t.conf:1: unknown section [] (valid: general, oom_risk, "
		     "mem_thrashing, starved, noisy_neighbor, cpu_bound)");
	EXPECT_ERROR("[General]\n",
		     "t.conf:1: unknown section [General] (valid: general, oom_risk, "
		     "mem_thrashing, starved, noisy_neighbor, cpu_bound)");
	EXPECT_ERROR("# header\n\n\ninterval = 5s\n",
		     "t.conf:4: key outside any section");
	EXPECT_ERROR("[general]\ninterval = 5s\n\n\ninterval\n",
		     "t.conf:5: expected 'key = value'");
	EXPECT_ERROR("[general]\n= 5s\n", "t.conf:2: expected 'key = value'");
	EXPECT_ERROR("interval\n", "t.conf:1: expected 'key = value'");
	EXPECT_ERROR("[general\n", "t.conf:1: expected '[section]'");
	EXPECT_ERROR("[general] x\n", "t.conf:1: expected '[section]'");
	EXPECT_ERROR("[general]\ninterval = \n",
		     "t.conf:2: missing value for interval");
	EXPECT_ERROR("[general]\ninterval = # comment\n",
		     "t.conf:2: missing value for interval");
	/* the first one's line is named */
	EXPECT_ERROR("[general]\n\ninterval = 5s\nenter_windows = 2\ninterval = 6s\n",
		     "t.conf:5: duplicate key 'interval' in [general] (first set on line 3)");
	EXPECT_ERROR("[general]\ninterval = 5s\n[starved]\nmin_wait = 5%\n"
		     "[general]\ninterval = 5s\n",
		     "t.conf:6: duplicate key 'interval' in [general] (first set on line 2)");
	/* CRLF lines count as lines */
	EXPECT_ERROR("[general]\r\n\r\nfoo = 1\r\n",
		     "t.conf:3: unknown key 'foo' in [general]");
	/* quoted text is cut and made printable */
	EXPECT_ERROR("[general]\ninterval = 5\001s\n",
		     "t.conf:2: bad value '5?s' for interval: unknown unit '?s' "
		     "(use ns, us, ms, s, m, h, d)");
	EXPECT_ERROR("[general]\n"
		     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = 1\n",
		     "t.conf:2: unknown key 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
		     "in [general]");
}

static void test_value_errors(void)
{
	EXPECT_ERROR("[general]\n\n\n\n\n\n\n\ninterval = 5x\n",
		     "t.conf:9: bad value '5x' for interval: unknown unit 'x' "
		     "(use ns, us, ms, s, m, h, d)");
	EXPECT_ERROR("[general]\n\n\n\n\n\n\n\ninterval = 10ms\n",
		     "t.conf:9: interval 10ms out of range (100ms..1h)");
	EXPECT_ERROR("[general]\ninterval = 0.01s\n",
		     "t.conf:2: interval 0.01s out of range (100ms..1h)");
	EXPECT_ERROR("[general]\ninterval = 61m\n",
		     "t.conf:2: interval 61m out of range (100ms..1h)");
	EXPECT_ERROR("[general]\ninterval = 5\n",
		     "t.conf:2: bad value '5' for interval: missing unit (e.g. 5s)");
	EXPECT_ERROR("[general]\ninterval = -5s\n",
		     "t.conf:2: bad value '-5s' for interval: negative values are not allowed");
	EXPECT_ERROR("[general]\ninterval = 99999999999999999999s\n",
		     "t.conf:2: bad value '99999999999999999999s' for interval: too large");
	EXPECT_ERROR("[general]\ninterval = 18446744073709551615s\n",
		     "t.conf:2: bad value '18446744073709551615s' for interval: too large");
	EXPECT_ERROR("[general]\ninterval = 1.s\n",
		     "t.conf:2: bad value '1.s' for interval: digits expected after '.'");
	EXPECT_ERROR("[general]\ninterval = .5s\n",
		     "t.conf:2: bad value '.5s' for interval: not a number");
	EXPECT_ERROR("[general]\ninterval = 0.5ns\n",
		     "t.conf:2: bad value '0.5ns' for interval: finer than a nanosecond");
	EXPECT_ERROR("[general]\ninterval = 1.0000000000000000001s\n",
		     "t.conf:2: bad value '1.0000000000000000001s' for interval: "
		     "too many decimals");
	EXPECT_ERROR("[general]\ninterval = 5s junk\n",
		     "t.conf:2: bad value '5s junk' for interval: unknown unit 's junk' "
		     "(use ns, us, ms, s, m, h, d)");
	EXPECT_ERROR("[general]\nenter_windows = 0\n",
		     "t.conf:2: enter_windows 0 out of range (1..100)");
	EXPECT_ERROR("[general]\nenter_windows = 2k\n",
		     "t.conf:2: bad value '2k' for enter_windows: unknown unit 'k' "
		     "(a plain number is expected)");
	EXPECT_ERROR("[general]\nenter_windows = 2.5\n",
		     "t.conf:2: bad value '2.5' for enter_windows: not a whole number");
	EXPECT_ERROR("[general]\nenter_windows = 4294967296\n",
		     "t.conf:2: bad value '4294967296' for enter_windows: too large");
	EXPECT_ERROR("[general]\nexit_windows = 101\n",
		     "t.conf:2: exit_windows 101 out of range (1..100)");
	EXPECT_ERROR("[oom_risk]\ntrend_span = 500ms\n",
		     "t.conf:2: trend_span 500ms out of range (1s..1h)");
	EXPECT_ERROR("[oom_risk]\nmin_growth = 0\n",
		     "t.conf:2: min_growth 0 out of range (1B..1TiB)");
	EXPECT_ERROR("[oom_risk]\nmin_growth = 1.5TiB\n",
		     "t.conf:2: min_growth 1.5TiB out of range (1B..1TiB)");
	EXPECT_ERROR("[oom_risk]\nmin_growth = 1.3KiB\n",
		     "t.conf:2: bad value '1.3KiB' for min_growth: not a whole number of bytes");
	EXPECT_ERROR("[oom_risk]\nmin_growth = 64mib\n",
		     "t.conf:2: bad value '64mib' for min_growth: unknown unit 'mib' "
		     "(use B, KiB, MiB, GiB, TiB)");
	EXPECT_ERROR("[oom_risk]\nmin_rss = 0GiB\n",
		     "t.conf:2: min_rss 0GiB out of range (at least 1B)");
	EXPECT_ERROR("[oom_risk]\nmin_rss = 16777216TiB\n",
		     "t.conf:2: bad value '16777216TiB' for min_rss: too large");
	EXPECT_ERROR("[oom_risk]\nmin_rss_of_limit = 0%\n",
		     "t.conf:2: min_rss_of_limit 0% out of range (0.01%..100%)");
	EXPECT_ERROR("[oom_risk]\nmin_rss_of_limit = 50\n",
		     "t.conf:2: bad value '50' for min_rss_of_limit: missing '%' (e.g. 50%)");
	EXPECT_ERROR("[oom_risk]\nsteady = 12.345%\n",
		     "t.conf:2: bad value '12.345%' for steady: more than two decimals");
	EXPECT_ERROR("[oom_risk]\nsteady = 0.99%\n",
		     "t.conf:2: steady 0.99% out of range (1%..100%)");
	EXPECT_ERROR("[oom_risk]\nsteady = 100.01%\n",
		     "t.conf:2: steady 100.01% out of range (1%..100%)");
	EXPECT_ERROR("[oom_risk]\nsteady = 50%x\n",
		     "t.conf:2: bad value '50%x' for steady: unknown unit '%x' (use %)");
	EXPECT_ERROR("[oom_risk]\neta_horizon = 1500ms\n",
		     "t.conf:2: bad value '1500ms' for eta_horizon: not a whole number of seconds");
	EXPECT_ERROR("[oom_risk]\neta_horizon = 31d\n",
		     "t.conf:2: eta_horizon 31d out of range (1s..30d)");
	EXPECT_ERROR("[oom_risk]\neta_horizon = 0s\n",
		     "t.conf:2: eta_horizon 0s out of range (1s..30d)");
	EXPECT_ERROR("[oom_risk]\neta_horizon = 15\n",
		     "t.conf:2: bad value '15' for eta_horizon: missing unit (e.g. 5s)");
	EXPECT_ERROR("[mem_thrashing]\nmajor_faults_per_s = 0\n",
		     "t.conf:2: major_faults_per_s 0 out of range (at least 1)");
	EXPECT_ERROR("[mem_thrashing]\nminor_faults_per_s = 10K\n",
		     "t.conf:2: bad value '10K' for minor_faults_per_s: unknown unit 'K' "
		     "(use k or M)");
	EXPECT_ERROR("[mem_thrashing]\nminor_faults_per_s = -1\n",
		     "t.conf:2: bad value '-1' for minor_faults_per_s: "
		     "negative values are not allowed");
	EXPECT_ERROR("[starved]\nmin_wait = 0%\n",
		     "t.conf:2: min_wait 0% out of range (1%..100%)");
	EXPECT_ERROR("[noisy_neighbor]\nmin_cpu = 101%\n",
		     "t.conf:2: min_cpu 101% out of range (1%..100%)");
	EXPECT_ERROR("[cpu_bound]\nthread_cpu = 0.5%\n",
		     "t.conf:2: thread_cpu 0.5% out of range (1%..100%)");
	EXPECT_ERROR("[cpu_bound]\ntotal_cpu = 200%\n",
		     "t.conf:2: total_cpu 200% out of range (1%..100%)");
	EXPECT_ERROR("[cpu_bound]\nmax_faults_per_s = 1.5\n",
		     "t.conf:2: bad value '1.5' for max_faults_per_s: not a whole number");
	EXPECT_ERROR("[cpu_bound]\nmax_wait = 0%\n",
		     "t.conf:2: max_wait 0% out of range (1%..100%)");
	EXPECT_ERROR("[cpu_bound]\nmax_wait = 5%%\n",
		     "t.conf:2: bad value '5%%' for max_wait: unknown unit '%%' (use %)");
}

/* An error on the last line undoes nothing because nothing was applied. */
static void test_untouched_on_error(void)
{
	static const char text[] =
		"[general]\n"
		"interval = 1s\n"
		"enter_windows = 9\n"
		"[oom_risk]\n"
		"min_rss = 5GiB\n"
		"steady = 99%\n"
		"eta_horizon = bogus\n";
	struct hk_config c, before;
	char err[HK_ERR_LEN];

	hk_config__defaults(&c);
	c.nr_cpus = 16;
	before = c;
	CHECK_U64(hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)),
		  (__u64)-1);
	CHECK_STR(err, "t.conf:7: bad value 'bogus' for eta_horizon: not a number");
	CHECK_U64(memcmp(&c, &before, sizeof(c)) == 0, 1);
}

/* Messages survive a missing or short buffer, and a missing name. */
static void test_err_buffer(void)
{
	char err[8], full[HK_ERR_LEN];
	struct hk_config c;

	hk_config__defaults(&c);
	CHECK_U64(hk_config__parse_string(&c, "x = 1\n", "t.conf", NULL, 0),
		  (__u64)-1);
	memset(err, 'x', sizeof(err));
	CHECK_U64(hk_config__parse_string(&c, "x = 1\n", "t.conf", err, sizeof(err)),
		  (__u64)-1);
	CHECK_STR(err, "t.conf:");
	CHECK_U64(hk_config__parse_string(&c, "x\n", NULL, full, sizeof(full)),
		  (__u64)-1);
	CHECK_STR(full, "config:1: expected 'key = value'");
}

/* --- files ------------------------------------------------------------ */

/* Write text to a new temporary file; path gets its name. */
static int write_temp(char *path, size_t len, const char *text, size_t n)
{
	int fd;

	snprintf(path, len, "/tmp/hk-config-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

static void test_parse_file(void)
{
	static const char good[] = "[general]\ninterval = 2s\n";
	static const char bad[] = "[general]\n\ninterval = 2\n";
	static const char nul[] = "[general]\n\0interval = 2s\n";
	struct hk_config c, before;
	char path[64], err[HK_ERR_LEN], want[HK_ERR_LEN];

	hk_config__defaults(&c);
	before = c;
	CHECK_U64(hk_config__parse_file(&c, "/nonexistent/t.conf", err, sizeof(err)),
		  (__u64)-1);
	CHECK_STR(err, "/nonexistent/t.conf: cannot open: No such file or directory");
	CHECK_U64(hk_config__parse_file(&c, "/", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "/: cannot read: Is a directory");
	CHECK_U64(memcmp(&c, &before, sizeof(c)) == 0, 1);

	CU_ASSERT_FATAL(write_temp(path, sizeof(path), good, sizeof(good) - 1) == 0);
	err[0] = '\0';
	CHECK_U64(hk_config__parse_file(&c, path, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(c.interval_ns, 2 * S_NS);
	unlink(path);

	/* messages name the file */
	before = c;
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), bad, sizeof(bad) - 1) == 0);
	CHECK_U64(hk_config__parse_file(&c, path, err, sizeof(err)), (__u64)-1);
	snprintf(want, sizeof(want),
		 "%s:3: bad value '2' for interval: missing unit (e.g. 5s)", path);
	CHECK_STR(err, want);
	CHECK_U64(memcmp(&c, &before, sizeof(c)) == 0, 1);
	unlink(path);

	CU_ASSERT_FATAL(write_temp(path, sizeof(path), nul, sizeof(nul) - 1) == 0);
	CHECK_U64(hk_config__parse_file(&c, path, err, sizeof(err)), (__u64)-1);
	snprintf(want, sizeof(want), "%s: not a text file (NUL byte)", path);
	CHECK_STR(err, want);
	unlink(path);

	/* a file bigger than any config */
	{
		size_t n = 2 * 1024 * 1024;
		char *big = malloc(n);

		CU_ASSERT_FATAL(big != NULL);
		memset(big, '\n', n);
		CU_ASSERT_FATAL(write_temp(path, sizeof(path), big, n) == 0);
		free(big);
		CHECK_U64(hk_config__parse_file(&c, path, err, sizeof(err)), (__u64)-1);
		snprintf(want, sizeof(want), "%s: too large (over 1048576 bytes)", path);
		CHECK_STR(err, want);
		unlink(path);
	}
}

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

#define CHECK_LINE(text, line) \
	check_true(has_line((text), (line)), "generated line: " line, __LINE__)

static void test_generate_defaults(void)
{
	struct hk_config def, c;
	char err[HK_ERR_LEN] = "";
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
	CHECK_LINE(text, "min_growth = 64MiB");
	CHECK_LINE(text, "min_rss = 1GiB");
	CHECK_LINE(text, "min_rss_of_limit = 50%");
	CHECK_LINE(text, "steady = 75%");
	CHECK_LINE(text, "eta_horizon = 15m");
	CHECK_LINE(text, "[mem_thrashing]");
	CHECK_LINE(text, "major_faults_per_s = 100");
	CHECK_LINE(text, "minor_faults_per_s = 10000");
	CHECK_LINE(text, "[starved]");
	CHECK_LINE(text, "min_wait = 75%");
	CHECK_LINE(text, "[noisy_neighbor]");
	CHECK_LINE(text, "min_cpu = 50%");
	CHECK_LINE(text, "[cpu_bound]");
	CHECK_LINE(text, "thread_cpu = 90%");
	CHECK_LINE(text, "total_cpu = 50%");
	CHECK_LINE(text, "max_faults_per_s = 1000");
	CHECK_LINE(text, "max_wait = 25%");
	/* each key says its unit, range and default */
	CHECK_LINE(text, "# Duration, 100ms..1h. Default: 5s.");
	CHECK_LINE(text, "# Size, 1B..1TiB. Default: 64MiB.");
	CHECK_LINE(text, "# Percent, 0.01%..100%. Default: 50%.");
	CHECK_LINE(text, "# Duration, in whole seconds, 1s..30d. Default: 15m.");
	CHECK_LINE(text, "# Count, at least 1. Default: 10000.");
	/* the header documents the binary aliases */
	check_true(strstr(text, "K, M, G, T and KB, MB, GB, TB") != NULL,
		   "header mentions the binary aliases", __LINE__);
	check_true(strncmp(text, "# ", 2) == 0, "starts with a comment", __LINE__);

	/* parsed on top of something else entirely, it gives the defaults */
	other_config(&c);
	CHECK_U64(hk_config__parse_string(&c, text, "generated", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_true(!memcmp(&c, &def, THRESH_LEN), "round trip gives the defaults",
		   __LINE__);
	/* and leaves the environment alone */
	CHECK_U64(c.nr_cpus, 64);
	CHECK_U64(c.total_ram_bytes, 256 * GIB);
	CHECK_U64(c.page_size_bytes, 4096);
	CHECK_U64(c.trend_stride_windows, 9);
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
	want.interval_ns = 1500 * MS_NS;
	want.enter_windows = 1;
	want.exit_windows = 100;
	want.oom_trend_span_ns = 3600 * S_NS;
	want.oom_min_growth_bytes = 1536 * MIB;
	want.oom_min_rss_bytes = 1610612737ULL;
	want.oom_min_rss_pct_x100 = 1;
	want.oom_steady_pct_x100 = 1250;
	want.oom_eta_horizon_s = 90;
	want.thrash_major_faults_per_s = 7;
	want.thrash_minor_faults_per_s = UINT64_MAX;
	want.starved_wait_pct_x100 = 1225;
	want.noisy_cpu_pct_x100 = 10000;
	want.cpu_thread_pct_x100 = 9999;
	want.cpu_total_pct_x100 = 3330;
	want.cpu_max_faults_per_s = 1000000;
	want.cpu_max_wait_pct_x100 = 101;
	text = generate(&want);
	CU_ASSERT_FATAL(text != NULL);

	CHECK_LINE(text, "interval = 1500ms");
	CHECK_LINE(text, "enter_windows = 1");
	CHECK_LINE(text, "exit_windows = 100");
	CHECK_LINE(text, "trend_span = 1h");
	CHECK_LINE(text, "min_growth = 1536MiB");
	CHECK_LINE(text, "min_rss = 1610612737B");
	CHECK_LINE(text, "min_rss_of_limit = 0.01%");
	CHECK_LINE(text, "steady = 12.5%");
	CHECK_LINE(text, "eta_horizon = 90s");
	CHECK_LINE(text, "major_faults_per_s = 7");
	CHECK_LINE(text, "minor_faults_per_s = 18446744073709551615");
	CHECK_LINE(text, "min_wait = 12.25%");
	CHECK_LINE(text, "min_cpu = 100%");
	CHECK_LINE(text, "thread_cpu = 99.99%");
	CHECK_LINE(text, "total_cpu = 33.3%");
	CHECK_LINE(text, "max_faults_per_s = 1000000");
	CHECK_LINE(text, "max_wait = 1.01%");
	/* the defaults are still documented as such */
	CHECK_LINE(text, "# Duration, 100ms..1h. Default: 5s.");

	hk_config__defaults(&c);
	CHECK_U64(hk_config__parse_string(&c, text, "generated", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_true(!memcmp(&c, &want, THRESH_LEN), "round trip of a non-default config",
		   __LINE__);
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
	static const __u64 units[] = { MS_NS, S_NS, 60 * S_NS, 3600 * S_NS };
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
		want.interval_ns = rnd_duration(&seed, 100 * MS_NS, 3600 * S_NS);
		want.enter_windows = rnd_in(&seed, 1, 100);
		want.exit_windows = rnd_in(&seed, 1, 100);
		want.oom_trend_span_ns = rnd_duration(&seed, S_NS, 3600 * S_NS);
		want.oom_min_growth_bytes = rnd(&seed) & 1 ?
			rnd_in(&seed, 1, 1024) << (10 * rnd_in(&seed, 0, 3)) :
			rnd_in(&seed, 1, TIB);
		want.oom_min_rss_bytes = rnd(&seed) & 1 ?
			rnd_in(&seed, 1, 1048576) << (10 * rnd_in(&seed, 0, 4)) :
			rnd_in(&seed, 1, UINT64_MAX);
		want.oom_min_rss_pct_x100 = rnd_in(&seed, 1, 10000);
		want.oom_steady_pct_x100 = rnd_in(&seed, 100, 10000);
		want.oom_eta_horizon_s = rnd_duration(&seed, S_NS, 30 * 86400 * S_NS) /
					 S_NS;
		want.thrash_major_faults_per_s = rnd_in(&seed, 1, 1000000);
		want.thrash_minor_faults_per_s = rnd_in(&seed, 1, UINT64_MAX);
		want.starved_wait_pct_x100 = rnd_in(&seed, 100, 10000);
		want.noisy_cpu_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_thread_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_total_pct_x100 = rnd_in(&seed, 100, 10000);
		want.cpu_max_faults_per_s = rnd_in(&seed, 1, 100000) * 1000;
		want.cpu_max_wait_pct_x100 = rnd_in(&seed, 100, 10000);

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

static void test_validate(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN] = "";

	hk_config__defaults(&c);
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	CHECK_STR(err, "");

	/* the trend span must hold 3 intervals */
	c.oom_trend_span_ns = 10 * S_NS;
	expect_invalid(&c, "oom_risk.trend_span 10s must cover at least 3 intervals of 5s",
		       __LINE__);
	c.oom_trend_span_ns = 15 * S_NS - 1;
	expect_invalid(&c, "oom_risk.trend_span 14999999999ns must cover at least "
		       "3 intervals of 5s", __LINE__);
	c.oom_trend_span_ns = 15 * S_NS;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);
	c.interval_ns = 1500 * MS_NS;
	c.oom_trend_span_ns = 4 * S_NS;
	expect_invalid(&c, "oom_risk.trend_span 4s must cover at least 3 intervals of 1500ms",
		       __LINE__);
	c.oom_trend_span_ns = 4500 * MS_NS;
	CHECK_U64(hk_config__validate(&c, err, sizeof(err)), 0);

	/* ranges, for values set behind the parser's back */
	hk_config__defaults(&c);
	c.enter_windows = 0;
	expect_invalid(&c, "general.enter_windows 0 out of range (1..100)", __LINE__);
	hk_config__defaults(&c);
	c.exit_windows = 101;
	expect_invalid(&c, "general.exit_windows 101 out of range (1..100)", __LINE__);
	hk_config__defaults(&c);
	c.interval_ns = 10 * MS_NS;
	expect_invalid(&c, "general.interval 10ms out of range (100ms..1h)", __LINE__);
	hk_config__defaults(&c);
	c.interval_ns = 0;
	expect_invalid(&c, "general.interval 0s out of range (100ms..1h)", __LINE__);
	hk_config__defaults(&c);
	c.oom_min_growth_bytes = 2 * TIB;
	expect_invalid(&c, "oom_risk.min_growth 2TiB out of range (1B..1TiB)", __LINE__);
	hk_config__defaults(&c);
	c.oom_min_rss_pct_x100 = 0;
	expect_invalid(&c, "oom_risk.min_rss_of_limit 0% out of range (0.01%..100%)",
		       __LINE__);
	hk_config__defaults(&c);
	c.oom_eta_horizon_s = 0;
	expect_invalid(&c, "oom_risk.eta_horizon 0s out of range (1s..30d)", __LINE__);
	hk_config__defaults(&c);
	c.oom_eta_horizon_s = 30 * 86400 + 1;
	expect_invalid(&c, "oom_risk.eta_horizon 2592001s out of range (1s..30d)",
		       __LINE__);
	hk_config__defaults(&c);
	c.thrash_major_faults_per_s = 0;
	expect_invalid(&c, "mem_thrashing.major_faults_per_s 0 out of range (at least 1)",
		       __LINE__);
	hk_config__defaults(&c);
	c.cpu_total_pct_x100 = 10001;
	expect_invalid(&c, "cpu_bound.total_cpu 100.01% out of range (1%..100%)",
		       __LINE__);

	/* the environment is not checked here */
	hk_config__defaults(&c);
	c.nr_cpus = 0;
	c.page_size_bytes = 12345;
	CHECK_U64(hk_config__validate(&c, NULL, 0), 0);
}

static void test_derive(void)
{
	struct hk_config c, before;

	hk_config__defaults(&c);
	hk_config__derive(&c);
	/* 30s / 5s = 6 windows: fewer than 7 gaps, a sample every window */
	CHECK_U64(c.trend_stride_windows, 1);

	c.interval_ns = S_NS;
	c.oom_trend_span_ns = 70 * S_NS;
	before = c;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_windows, 10);
	before.trend_stride_windows = 10;
	check_true(!memcmp(&c, &before, sizeof(c)), "derive changes only the stride",
		   __LINE__);

	c.oom_trend_span_ns = 69 * S_NS;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_windows, 9);

	c.interval_ns = 100 * MS_NS;
	c.oom_trend_span_ns = 3600 * S_NS;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_windows, 36000 / (HK_TREND_SLOTS - 1));

	c.interval_ns = 3600 * S_NS;
	c.oom_trend_span_ns = S_NS;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_windows, 1);

	/* never a division by zero */
	c.interval_ns = 0;
	hk_config__derive(&c);
	CHECK_U64(c.trend_stride_windows, 1);
}

int hk_add_config_suite(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "parse_duration", test_parse_duration },
		{ "parse_bytes", test_parse_bytes },
		{ "parse_pct", test_parse_pct },
		{ "parse_count", test_parse_count },
		{ "defaults", test_defaults },
		{ "every_key", test_every_key },
		{ "range_edges", test_range_edges },
		{ "comments_and_blanks", test_comments_and_blanks },
		{ "empty_inputs", test_empty_inputs },
		{ "syntax_errors", test_syntax_errors },
		{ "value_errors", test_value_errors },
		{ "untouched_on_error", test_untouched_on_error },
		{ "err_buffer", test_err_buffer },
		{ "parse_file", test_parse_file },
		{ "generate_defaults", test_generate_defaults },
		{ "generate_non_default", test_generate_non_default },
		{ "round_trip_random", test_round_trip_random },
		{ "generate_write_error", test_generate_write_error },
		{ "validate", test_validate },
		{ "derive", test_derive },
	};
	CU_pSuite suite;
	size_t i;

	suite = CU_add_suite("config", NULL, NULL);
	if (!suite)
		return -1;
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		if (!CU_add_test(suite, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}
