// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Config units: the value parsers (durations, sizes, shares, counts), every
 * accepted spelling with its exact value and every rejected one.
 */
#include <stdint.h>
#include "config_fixtures.h"
#include "suites.h"

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
		{ "5s", 0, 5 * HK_NSEC_PER_SEC },
		{ "250ms", 0, 250 * HK_NSEC_PER_MSEC },
		{ "1.5s", 0, 1500 * HK_NSEC_PER_MSEC },
		{ "100ns", 0, 100 },
		{ "3us", 0, 3000 },
		{ "2m", 0, 120 * HK_NSEC_PER_SEC },
		{ "1h", 0, 3600 * HK_NSEC_PER_SEC },
		{ "1d", 0, 86400 * HK_NSEC_PER_SEC },
		{ "15m", 0, 900 * HK_NSEC_PER_SEC },
		{ "0.5ms", 0, 500000 },
		{ "1.000s", 0, HK_NSEC_PER_SEC },
		{ "1.250s", 0, 1250 * HK_NSEC_PER_MSEC },
		{ "0.000000001s", 0, 1 },
		{ "1.5m", 0, 90 * HK_NSEC_PER_SEC },
		{ "0s", 0, 0 },
		{ "007s", 0, 7 * HK_NSEC_PER_SEC },
		{ "5 s", 0, 5 * HK_NSEC_PER_SEC },
		{ "5\tms", 0, 5 * HK_NSEC_PER_MSEC },
		{ "18446744073709551615ns", 0, UINT64_MAX },
		{ "213503d", 0, 213503ULL * 86400 * HK_NSEC_PER_SEC },
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

	check_u64_cases(hk_units__parse_duration_ns, "hk_units__parse_duration_ns", cases,
			ARRAY_SIZE(cases), __LINE__);
	CHECK_U64(hk_units__parse_duration_ns(NULL, &(__u64){ 0 }), (__u64)-1);
}

static void test_parse_bytes(void)
{
	static const struct u64_case cases[] = {
		{ "0", 0, 0 },
		{ "1", 0, 1 },
		{ "512", 0, 512 },
		{ "1B", 0, 1 },
		{ "1KiB", 0, HK_KIB },
		{ "1K", 0, HK_KIB },
		{ "1KB", 0, HK_KIB },
		{ "64MiB", 0, 64 * HK_MIB },
		{ "64M", 0, 64 * HK_MIB },
		{ "64MB", 0, 64 * HK_MIB },
		{ "1GiB", 0, HK_GIB },
		{ "1G", 0, HK_GIB },
		{ "1GB", 0, HK_GIB },
		{ "2TiB", 0, 2 * HK_TIB },
		{ "2T", 0, 2 * HK_TIB },
		{ "2TB", 0, 2 * HK_TIB },
		{ "1.5GiB", 0, 1610612736ULL },
		{ "1536MiB", 0, 1610612736ULL },
		{ "0.5KiB", 0, 512 },
		{ "0.25KiB", 0, 256 },
		{ "1.0B", 0, 1 },
		{ "0.0009765625MiB", 0, 1024 },
		{ "64 MiB", 0, 64 * HK_MIB },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "16777215TiB", 0, 16777215ULL * HK_TIB },
		{ "16777215.5TiB", 0, 16777215ULL * HK_TIB + HK_TIB / 2 },
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

	check_u64_cases(hk_units__parse_bytes, "hk_units__parse_bytes", cases,
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
		int ret = hk_units__parse_pct_x100(cases[i].s, &v);

		snprintf(what, sizeof(what), "hk_units__parse_pct_x100(\"%s\") returns",
			 cases[i].s);
		check_u64((__u64)(__s64)ret, (__u64)(__s64)cases[i].ret, what, __LINE__);
		snprintf(what, sizeof(what), "hk_units__parse_pct_x100(\"%s\") value",
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

	check_u64_cases(hk_units__parse_count, "hk_units__parse_count", cases,
			ARRAY_SIZE(cases), __LINE__);
}

int hk_add_config_units_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "parse_duration", test_parse_duration },
		{ "parse_bytes", test_parse_bytes },
		{ "parse_pct", test_parse_pct },
		{ "parse_count", test_parse_count },
	};

	return HK_ADD_SUITE("config units", tests);
}
