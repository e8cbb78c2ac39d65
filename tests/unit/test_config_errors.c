// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Config errors: every message the parser gives (exact text, with its file
 * and line), keys removed since earlier versions, all-or-nothing parsing,
 * and reading files.
 */
#include <stdint.h>
#include <unistd.h>
#include "config_fixtures.h"
#include "suites.h"

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
		     "mem_throttled, mem_thrashing, throttled, starved, noisy_neighbor, io_blocked, cpu_bound, profile, filter, "
		     "freeze, postmortem, budget)");
	EXPECT_ERROR("[]\n",
		     "t.conf:1: unknown section [] (valid: general, oom_risk, "
		     "mem_throttled, mem_thrashing, throttled, starved, noisy_neighbor, io_blocked, cpu_bound, profile, filter, "
		     "freeze, postmortem, budget)");
	EXPECT_ERROR("[General]\n",
		     "t.conf:1: unknown section [General] (valid: general, oom_risk, "
		     "mem_throttled, mem_thrashing, throttled, starved, noisy_neighbor, io_blocked, cpu_bound, profile, filter, "
		     "freeze, postmortem, budget)");
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
		     "t.conf:2: bad value '5\\x01s' for interval: unknown unit '\\x01s' "
		     "(use ns, us, ms, s, m, h, d)");
	/* a C1 CSI, a bidi override: escaped like a process name (they went
	 * through raw), a backslash doubled */
	EXPECT_ERROR("[general]\ninterval = 5\xc2\x9b" "31m\n",
		     "t.conf:2: bad value '5\\xc2\\x9b31m' for interval: unknown unit "
		     "'\\xc2\\x9b31m' (use ns, us, ms, s, m, h, d)");
	EXPECT_ERROR("[general]\n\xe2\x80\xae" "fdp.exe\\ = 1\n",
		     "t.conf:2: unknown key '\\xe2\\x80\\xaefdp.exe\\\\' in [general]");
	/* the cut does not split a character */
	EXPECT_ERROR("[general]\n"
		     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\xc3\xa9\xc3\xa9 = 1\n",
		     "t.conf:2: unknown key 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\xc3\xa9...' "
		     "in [general]");
	EXPECT_ERROR("[general]\n"
		     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = 1\n",
		     "t.conf:2: unknown key 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
		     "in [general]");
	/* keys of the new section are its own */
	EXPECT_ERROR("[throttled]\nmin_wait = 50%\n",
		     "t.conf:2: unknown key 'min_wait' in [throttled]");
	EXPECT_ERROR("[starved]\nmin_throttled = 50%\n",
		     "t.conf:2: unknown key 'min_throttled' in [starved]");
	EXPECT_ERROR("[general]\nmin_trend = 10s\n",
		     "t.conf:2: unknown key 'min_trend' in [general]");
	EXPECT_ERROR("[throttled]\nmin_throttled = 30%\n# again\nmin_throttled = 30%\n",
		     "t.conf:4: duplicate key 'min_throttled' in [throttled] "
		     "(first set on line 2)");
	/* derived and environment fields are not keys */
	EXPECT_ERROR("[general]\nhook = 0\n",
		     "t.conf:2: unknown key 'hook' in [general]");
	EXPECT_ERROR("[oom_risk]\ntrend_stride = 1s\n",
		     "t.conf:2: unknown key 'trend_stride' in [oom_risk]");
	EXPECT_ERROR("[general]\nnr_cpus = 4\n",
		     "t.conf:2: unknown key 'nr_cpus' in [general]");
}

#define WHY_SIZE "size alone is no longer a risk: the ETA decides (eta_horizon)"
#define WHY_WAIT "waiting for a CPU now counts as wanting one (thread_cpu)"

/* Keys of earlier versions: named as removed, with what replaced them. */
static void test_removed_keys(void)
{
	EXPECT_ERROR("[oom_risk]\nmin_rss = 1GiB\n",
		     "t.conf:2: key 'min_rss' in [oom_risk] was removed: " WHY_SIZE);
	EXPECT_ERROR("[oom_risk]\nmin_rss_of_limit = 50%\n",
		     "t.conf:2: key 'min_rss_of_limit' in [oom_risk] was removed: "
		     WHY_SIZE);
	EXPECT_ERROR("[cpu_bound]\nmax_wait = 25%\n",
		     "t.conf:2: key 'max_wait' in [cpu_bound] was removed: " WHY_WAIT);
	/* an old file: the first removed key, on its own line, stops it */
	EXPECT_ERROR("# hotspot-k 0.1 config\n"
		     "[general]\n"
		     "interval = 1s\n"
		     "\n"
		     "[oom_risk]\n"
		     "trend_span = 1m\n"
		     "  min_rss_of_limit\t=\t40%   # half\n"
		     "min_rss = 2GiB\n"
		     "[cpu_bound]\n"
		     "max_wait = 10%\n",
		     "t.conf:7: key 'min_rss_of_limit' in [oom_risk] was removed: "
		     WHY_SIZE);
	EXPECT_ERROR("[oom_risk]\nsteady = 50%\n[cpu_bound]\nthread_cpu = 80%\n"
		     "max_wait = 10%\n",
		     "t.conf:5: key 'max_wait' in [cpu_bound] was removed: " WHY_WAIT);
	/* said before the value is looked at, whatever it is */
	EXPECT_ERROR("[oom_risk]\nmin_rss = bogus\n",
		     "t.conf:2: key 'min_rss' in [oom_risk] was removed: " WHY_SIZE);
	EXPECT_ERROR("[cpu_bound]\nmax_wait =\n",
		     "t.conf:2: key 'max_wait' in [cpu_bound] was removed: " WHY_WAIT);
	/* removed from its own section only: elsewhere it never existed */
	EXPECT_ERROR("[general]\nmin_rss = 1GiB\n",
		     "t.conf:2: unknown key 'min_rss' in [general]");
	EXPECT_ERROR("[starved]\nmax_wait = 25%\n",
		     "t.conf:2: unknown key 'max_wait' in [starved]");
	EXPECT_ERROR("[oom_risk]\nmax_wait = 25%\n",
		     "t.conf:2: unknown key 'max_wait' in [oom_risk]");
	/* names match exactly */
	EXPECT_ERROR("[oom_risk]\nmin_rs = 1GiB\n",
		     "t.conf:2: unknown key 'min_rs' in [oom_risk]");
	EXPECT_ERROR("[oom_risk]\nMIN_RSS = 1GiB\n",
		     "t.conf:2: unknown key 'MIN_RSS' in [oom_risk]");
	EXPECT_ERROR("[oom_risk]\nmin_rss_of_limits = 1%\n",
		     "t.conf:2: unknown key 'min_rss_of_limits' in [oom_risk]");
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
	EXPECT_ERROR("[oom_risk]\nmin_growth = 16777216TiB\n",
		     "t.conf:2: bad value '16777216TiB' for min_growth: too large");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 999ms\n",
		     "t.conf:2: min_trend 999ms out of range (1s..1h)");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 0s\n",
		     "t.conf:2: min_trend 0s out of range (1s..1h)");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 61m\n",
		     "t.conf:2: min_trend 61m out of range (1s..1h)");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 3600.000000001s\n",
		     "t.conf:2: min_trend 3600.000000001s out of range (1s..1h)");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 10\n",
		     "t.conf:2: bad value '10' for min_trend: missing unit (e.g. 5s)");
	EXPECT_ERROR("[oom_risk]\nmin_trend = 10 seconds\n",
		     "t.conf:2: bad value '10 seconds' for min_trend: unknown unit "
		     "'seconds' (use ns, us, ms, s, m, h, d)");
	EXPECT_ERROR("[oom_risk]\nsteady = 12.345%\n",
		     "t.conf:2: bad value '12.345%' for steady: more than two decimals");
	EXPECT_ERROR("[oom_risk]\nsteady = 0.99%\n",
		     "t.conf:2: steady 0.99% out of range (1%..100%)");
	/* evidence in proportion to the time left */
	EXPECT_ERROR("[oom_risk]\n# what share of the ETA\neta_share = 100.01%\n",
		     "t.conf:3: eta_share 100.01% out of range (0%..100%)");
	EXPECT_ERROR("[oom_risk]\neta_share = 25\n",
		     "t.conf:2: bad value '25' for eta_share: missing '%' (e.g. 50%)");
	EXPECT_ERROR("[oom_risk]\neta_floor = 2592001s\n",
		     "t.conf:2: eta_floor 2592001s out of range (0s..30d)");
	EXPECT_ERROR("[oom_risk]\neta_floor = -1s\n",
		     "t.conf:2: bad value '-1s' for eta_floor: negative values are not allowed");
	EXPECT_ERROR("[oom_risk]\neta_floor = 1.5s\n",
		     "t.conf:2: bad value '1.5s' for eta_floor: not a whole number of seconds");
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
	EXPECT_ERROR("[throttled]\nmin_throttled = 0%\n",
		     "t.conf:2: min_throttled 0% out of range (1%..100%)");
	EXPECT_ERROR("[throttled]\nmin_throttled = 0.99%\n",
		     "t.conf:2: min_throttled 0.99% out of range (1%..100%)");
	EXPECT_ERROR("[throttled]\n\n\nmin_throttled = 100.01%\n",
		     "t.conf:4: min_throttled 100.01% out of range (1%..100%)");
	EXPECT_ERROR("[throttled]\nmin_throttled = 50\n",
		     "t.conf:2: bad value '50' for min_throttled: missing '%' (e.g. 50%)");
	EXPECT_ERROR("[throttled]\nmin_throttled = 5%%\n",
		     "t.conf:2: bad value '5%%' for min_throttled: unknown unit '%%' (use %)");
	EXPECT_ERROR("[throttled]\nmin_throttled = 12.345%\n",
		     "t.conf:2: bad value '12.345%' for min_throttled: more than two decimals");
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
	EXPECT_ERROR("[cpu_bound]\nmax_faults_per_s = 0\n",
		     "t.conf:2: max_faults_per_s 0 out of range (at least 1)");
}

/* An error on the last line undoes nothing because nothing was applied. */
static void test_untouched_on_error(void)
{
	static const char text[] =
		"[general]\n"
		"interval = 1s\n"
		"enter_windows = 9\n"
		"[oom_risk]\n"
		"min_trend = 20s\n"
		"steady = 99%\n"
		"[throttled]\n"
		"min_throttled = 99%\n"
		"[oom_risk]\n"
		"eta_horizon = bogus\n";
	struct hk_config c, before;
	char err[HK_ERR_LEN];

	hk_config__defaults(&c);
	c.nr_cpus = 16;
	before = c;
	CHECK_U64(hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)),
		  (__u64)-1);
	CHECK_STR(err, "t.conf:10: bad value 'bogus' for eta_horizon: not a number");
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
	static const char old[] = "[general]\ninterval = 3s\n\n[oom_risk]\n"
				  "min_rss = 1GiB\n";
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
	CHECK_U64(c.interval_ns, 2 * HK_NSEC_PER_SEC);
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

	/* a removed key, in a file written for an earlier version */
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), old, sizeof(old) - 1) == 0);
	CHECK_U64(hk_config__parse_file(&c, path, err, sizeof(err)), (__u64)-1);
	snprintf(want, sizeof(want), "%s:5: key 'min_rss' in [oom_risk] was removed: "
		 WHY_SIZE, path);
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

/*
 * hk_config__load: the defaults that count intervals follow --interval or
 * the file's interval; a value the file sets stands, and an error names
 * the line that set it and the flag.
 */
static void test_load_interval(void)
{
	static const char span20[] = "[oom_risk]\n# short\ntrend_span = 20s\n";
	static const char iv16[] = "[general]\ninterval = 16s\n";
	static const char min40[] = "[oom_risk]\nmin_trend = 40s\n";
	struct hk_config c;
	char path[64], err[HK_ERR_LEN], want[HK_ERR_LEN];

	/* defaults at 5 s windows: 30 s and 10 s as ever */
	CHECK_U64(hk_config__load(&c, NULL, 0, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, 30 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_trend_ns, 10 * HK_NSEC_PER_SEC);
	/* derived: one sample a window (30 s / 7 < 5 s), half a window early */
	CHECK_U64(c.trend_stride_ns, 5 * HK_NSEC_PER_SEC / 2);
	/* -i 16s: 6 and 2 intervals (it failed: 30s < 2 x 16s) */
	CHECK_U64(hk_config__load(&c, NULL, 16 * HK_NSEC_PER_SEC, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, 96 * HK_NSEC_PER_SEC);
	CHECK_U64(c.oom_min_trend_ns, 32 * HK_NSEC_PER_SEC);
	/* -i 1s: never below the defaults */
	CHECK_U64(hk_config__load(&c, NULL, HK_NSEC_PER_SEC, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, 30 * HK_NSEC_PER_SEC);
	/* -i 20m: at most the key's maximum, then the check says why */
	CHECK_U64(hk_config__load(&c, NULL, 20 * 60 * HK_NSEC_PER_SEC, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, HK_NSEC_PER_HOUR);
	CHECK_U64(hk_config__load(&c, NULL, 40 * 60 * HK_NSEC_PER_SEC, err, sizeof(err)),
		  (__u64)-1);
	CHECK_STR(err, "--interval 40m: oom_risk.trend_span 1h must cover at least 2 "
		  "intervals of 40m (its default)");
	CHECK_U64(hk_config__load(&c, NULL, 2 * HK_NSEC_PER_HOUR, err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "--interval 2h: general.interval 2h out of range (100ms..1h)");

	/* the file's interval is followed too */
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), iv16, sizeof(iv16) - 1) == 0);
	CHECK_U64(hk_config__load(&c, path, 0, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, 96 * HK_NSEC_PER_SEC);
	unlink(path);

	/* a value the file set stands: blamed on its line, the flag named */
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), span20, sizeof(span20) - 1) == 0);
	CHECK_U64(hk_config__load(&c, path, 5 * HK_NSEC_PER_SEC, err, sizeof(err)), 0);
	CHECK_U64(c.oom_trend_span_ns, 20 * HK_NSEC_PER_SEC);
	CHECK_U64(hk_config__load(&c, path, 16 * HK_NSEC_PER_SEC, err, sizeof(err)), (__u64)-1);
	snprintf(want, sizeof(want), "%s:3: oom_risk.trend_span 20s must cover at least 2 "
		 "intervals of 16s (general.interval from --interval 16s)", path);
	CHECK_STR(err, want);
	unlink(path);

	/* min_trend set past the default span */
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), min40, sizeof(min40) - 1) == 0);
	CHECK_U64(hk_config__load(&c, path, 0, err, sizeof(err)), (__u64)-1);
	snprintf(want, sizeof(want), "%s:2: oom_risk.min_trend 40s is longer than "
		 "oom_risk.trend_span 30s", path);
	CHECK_STR(err, want);
	unlink(path);
}

int hk_add_config_errors_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "syntax_errors", test_syntax_errors },
		{ "removed_keys", test_removed_keys },
		{ "value_errors", test_value_errors },
		{ "untouched_on_error", test_untouched_on_error },
		{ "err_buffer", test_err_buffer },
		{ "parse_file", test_parse_file },
		{ "load_interval", test_load_interval },
	};

	return HK_ADD_SUITE("config errors", tests);
}
