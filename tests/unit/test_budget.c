// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_budget.c - [budget] (act/budget.c): own CPU over a sliding span,
 * the judgement window by window (over twice: a step down; under half
 * the budget six times: a step back), each step's config, the lines that
 * say them, and the keys' errors with file and line.
 */
#include "act/budget.h"
#include "config_fixtures.h"
#include "suites.h"

#define S HK_NSEC_PER_SEC
#define MS HK_NSEC_PER_MSEC

static void test_span(void)
{
	struct hk_budget_span s = { 0 };
	__u64 pct = 0, cov = 0;
	int i;

	/* one sample: nothing to say yet */
	hk_budget__sample(&s, 100 * S, 0, 30 * S);
	CU_ASSERT_EQUAL(hk_budget__cpu(&s, &pct, &cov), -1);
	/* 10 ms of CPU a second: 1 % of one CPU */
	for (i = 1; i <= 10; i++)
		hk_budget__sample(&s, (100 + i) * S, i * 10 * MS, 30 * S);
	CU_ASSERT_EQUAL(hk_budget__cpu(&s, &pct, &cov), 0);
	CHECK_U64(pct, 100);
	CHECK_U64(cov, 10 * S);
	/* then 50 ms a second for 30 s: the span holds only those */
	for (i = 1; i <= 30; i++)
		hk_budget__sample(&s, (110 + i) * S, 100 * MS + i * 50 * MS, 30 * S);
	CU_ASSERT_EQUAL(hk_budget__cpu(&s, &pct, &cov), 0);
	CHECK_U64(pct, 500);
	CHECK_U64(cov, 30 * S);
	CHECK_U64(s.n, 31);
	/* 100 ms windows: the ring keeps the newest 64, 6.3 s */
	hk_budget__span_reset(&s);
	for (i = 0; i < 100; i++)
		hk_budget__sample(&s, 1000 * S + i * 100 * MS, i * 2 * MS, 30 * S);
	CHECK_U64(s.n, HK_BUDGET_SAMPLES);
	CU_ASSERT_EQUAL(hk_budget__cpu(&s, &pct, &cov), 0);
	CHECK_U64(pct, 200);
	CHECK_U64(cov, 63 * 100 * MS);
	/* a cost that went back (another tool's stats): 0, not a wrap */
	hk_budget__span_reset(&s);
	hk_budget__sample(&s, 1 * S, 5 * S, 30 * S);
	hk_budget__sample(&s, 2 * S, 4 * S, 30 * S);
	CU_ASSERT_EQUAL(hk_budget__cpu(&s, &pct, &cov), 0);
	CHECK_U64(pct, 0);
}

static struct hk_config budget_config(__u32 cpu_pct_x100, __u64 rss_bytes)
{
	struct hk_config c;

	hk_config__defaults(&c);
	c.budget_cpu_pct_x100 = cpu_pct_x100;
	c.budget_rss_bytes = rss_bytes;
	return c;
}

/* One judgement, every step in play. */
static int decide_all(struct hk_budget_state *st, const struct hk_config *c,
			      __u64 cpu, __u64 rss)
{
	return hk_budget__decide(st, c, cpu, rss, 0);
}

/* Judge cpu n times; the last return. */
static int judge(struct hk_budget_state *st, const struct hk_config *c, __u64 cpu, __u64 rss,
		 int n)
{
	int r = 0;

	while (n--)
		r = hk_budget__decide(st, c, cpu, rss, 0);
	return r;
}

/* Judge cpu n times with some steps void; the last return. */
static int judge_void(struct hk_budget_state *st, const struct hk_config *c, __u64 cpu,
		      __u32 void_steps, int n)
{
	int r = 0;

	while (n--)
		r = hk_budget__decide(st, c, cpu, 0, void_steps);
	return r;
}

static void test_decide(void)
{
	struct hk_config c = budget_config(100, 16 * HK_MIB);
	struct hk_budget_state st = { 0 };
	int step;

	/* at the budget: not over */
	CU_ASSERT_EQUAL(judge(&st, &c, 100, HK_MIB, 10), 0);
	CHECK_U64(st.step, 0);
	/* over once: nothing; twice in a row: a step down */
	CU_ASSERT_EQUAL(decide_all(&st, &c, 101, HK_MIB), 0);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 101, HK_MIB), 1);
	CHECK_U64(st.step, HK_BUDGET_NO_PROFILES);
	CHECK_U64(st.why, HK_BUDGET_WHY_CPU);
	CHECK_U64(st.cpu_pct_x100, 101);
	/* over, then within (not under half): the run is broken */
	CU_ASSERT_EQUAL(decide_all(&st, &c, 300, HK_MIB), 0);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 80, HK_MIB), 0);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 300, HK_MIB), 0);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 80, HK_MIB), 0);
	CHECK_U64(st.step, HK_BUDGET_NO_PROFILES);
	/* down to the last step, two judgements each, and no further */
	for (step = 2; step <= HK_BUDGET_LAST; step++) {
		CU_ASSERT_EQUAL(judge(&st, &c, 300, HK_MIB, 2), 1);
		CHECK_U64(st.step, step);
	}
	CU_ASSERT_EQUAL(judge(&st, &c, 300, HK_MIB, 10), 0);
	CHECK_U64(st.step, HK_BUDGET_LAST);
	CHECK_U64(st.degrades, HK_BUDGET_LAST);
	/* within the budget but over half: stays */
	CU_ASSERT_EQUAL(judge(&st, &c, 51, HK_MIB, 20), 0);
	CHECK_U64(st.step, HK_BUDGET_LAST);
	/* half the budget, five times, then an over: the count starts again */
	CU_ASSERT_EQUAL(judge(&st, &c, 50, HK_MIB, 5), 0);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 101, HK_MIB), 0);
	CU_ASSERT_EQUAL(judge(&st, &c, 50, HK_MIB, 5), 0);
	CHECK_U64(st.step, HK_BUDGET_LAST);
	CU_ASSERT_EQUAL(decide_all(&st, &c, 50, HK_MIB), -1);
	CHECK_U64(st.step, HK_BUDGET_LAST - 1);
	/* back to full service, six judgements a step, and no further */
	for (step = HK_BUDGET_LAST - 2; step >= 0; step--) {
		CU_ASSERT_EQUAL(judge(&st, &c, 0, HK_MIB, 6), -1);
		CHECK_U64(st.step, step);
	}
	CU_ASSERT_EQUAL(judge(&st, &c, 0, HK_MIB, 20), 0);
	CHECK_U64(st.step, 0);
	CHECK_U64(st.recovers, HK_BUDGET_LAST);
}

static void test_decide_rss(void)
{
	struct hk_config c = budget_config(100, 16 * HK_MIB);
	struct hk_budget_state st = { 0 };

	/* RSS over alone steps down, said as memory */
	CU_ASSERT_EQUAL(judge(&st, &c, 10, 16 * HK_MIB + 1, 2), 1);
	CHECK_U64(st.why, HK_BUDGET_WHY_RSS);
	/* CPU under half but RSS over: no step back */
	CU_ASSERT_EQUAL(judge(&st, &c, 10, 17 * HK_MIB, 1), 0);
	CHECK_U64(st.step, 1);
	/* RSS at its budget and CPU under half: back */
	CU_ASSERT_EQUAL(judge(&st, &c, 10, 16 * HK_MIB, 6), -1);
	CHECK_U64(st.step, 0);
	/* no budget at all: never a step */
	c = budget_config(0, 0);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(judge(&st, &c, 10000, HK_TIB, 10), 0);
	CHECK_U64(st.step, 0);
}

static void test_void_steps(void)
{
	struct hk_config c = budget_config(100, 0);
	struct hk_budget_state st = { 0 };
	__u32 v = 1U << HK_BUDGET_NO_PROFILES | 1U << HK_BUDGET_NO_HOOK;

	/* no profiles asked for, no hook: from full service to the records */
	CU_ASSERT_EQUAL(hk_budget__decide(&st, &c, 300, 0, v), 0);
	CU_ASSERT_EQUAL(hk_budget__decide(&st, &c, 300, 0, v), 1);
	CHECK_U64(st.step, HK_BUDGET_RING_LAZY);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 300, v, 2), 1);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 300, v, 2), 1);
	CHECK_U64(st.step, HK_BUDGET_INTERVAL_X4);
	/* the hook's step saves nothing: x 4 is the last */
	CU_ASSERT_EQUAL(judge_void(&st, &c, 300, v, 10), 0);
	CHECK_U64(st.step, HK_BUDGET_INTERVAL_X4);
	CHECK_U64(st.degrades, 3);
	/* back: x 2, the records, then over the profiles to full service */
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, 6), -1);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, 6), -1);
	CHECK_U64(st.step, HK_BUDGET_RING_LAZY);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, 6), -1);
	CHECK_U64(st.step, HK_BUDGET_FULL);
	CHECK_U64(st.recovers, 3);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, 20), 0);
}

/* A step that removes a storm's cost measures ~0 while the storm goes on:
 * each step back that is undone at once doubles the next wait. */
static void test_flap(void)
{
	struct hk_config c = budget_config(100, 0);
	struct hk_budget_state st = { 0 };
	__u32 v = 1U << HK_BUDGET_NO_PROFILES, need = HK_BUDGET_UNDER_WINDOWS;
	int round;

	CU_ASSERT_EQUAL(judge_void(&st, &c, 500, v, 2), 1);
	CHECK_U64(st.step, HK_BUDGET_RING_LAZY);
	for (round = 0; round < 6; round++) {
		/* ~0 while records wait: back after need judgements, not one less */
		CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, need - 1), 0);
		CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, 1), -1);
		CHECK_U64(st.step, HK_BUDGET_FULL);
		/* the storm's cost again: down, and the wait doubled */
		CU_ASSERT_EQUAL(judge_void(&st, &c, 500, v, 2), 1);
		need = need * 2 > HK_BUDGET_UNDER_MAX ? HK_BUDGET_UNDER_MAX : need * 2;
		CHECK_U64(st.under_need, need);
	}
	CHECK_U64(st.under_need, HK_BUDGET_UNDER_MAX);
	/* the storm passed: back, and full service held as long: 6 again */
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, HK_BUDGET_UNDER_MAX), -1);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, HK_BUDGET_UNDER_MAX), 0);
	CHECK_U64(st.under_need, 0);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 500, v, 2), 1);
	CHECK_U64(st.under_need, 0);
	CU_ASSERT_EQUAL(judge_void(&st, &c, 0, v, HK_BUDGET_UNDER_WINDOWS), -1);
}

static void test_config_steps(void)
{
	struct hk_config base, out;

	hk_config__defaults(&base);
	base.interval_ns = 5 * S;
	base.oom_trend_span_ns = 30 * S;
	base.profile_ns = 10 * S;
	hk_budget__config(&base, HK_BUDGET_FULL, &out);
	CHECK_U64(out.interval_ns, 5 * S);
	CHECK_U64(out.profile_ns, 10 * S);
	hk_budget__config(&base, HK_BUDGET_NO_PROFILES, &out);
	CHECK_U64(out.interval_ns, 5 * S);
	CHECK_U64(out.profile_ns, 0);
	hk_budget__config(&base, HK_BUDGET_INTERVAL_X2, &out);
	CHECK_U64(out.interval_ns, 10 * S);
	CHECK_U64(out.oom_trend_span_ns, 30 * S);
	/* 4 x 5 s: the trend's span stretched to 2 windows of 20 s */
	hk_budget__config(&base, HK_BUDGET_INTERVAL_X4, &out);
	CHECK_U64(out.interval_ns, 20 * S);
	CHECK_U64(out.oom_trend_span_ns, 40 * S);
	CHECK_U64(out.trend_stride_ns, 20 * S - 10 * S);
	hk_budget__config(&base, HK_BUDGET_NO_HOOK, &out);
	CHECK_U64(out.interval_ns, 20 * S);
	CHECK_U64(out.profile_ns, 0);
	/* at most 60 s, never shorter than asked */
	base.interval_ns = 20 * S;
	hk_budget__config(&base, HK_BUDGET_INTERVAL_X4, &out);
	CHECK_U64(out.interval_ns, 60 * S);
	base.interval_ns = 90 * S;
	base.oom_trend_span_ns = 540 * S;
	hk_budget__config(&base, HK_BUDGET_INTERVAL_X4, &out);
	CHECK_U64(out.interval_ns, 90 * S);
	CHECK_U64(out.oom_trend_span_ns, 540 * S);
}

static void test_lines(void)
{
	struct hk_config base = budget_config(100, 16 * HK_MIB), now;
	struct hk_budget_state st = { .step = HK_BUDGET_INTERVAL_X2, .cpu_pct_x100 = 310,
				       .span_ns = 30 * S + 400 * MS, .why = HK_BUDGET_WHY_CPU };
	char buf[512];

	base.interval_ns = 5 * S;
	hk_budget__config(&base, st.step, &now);
	hk_budget__format_step(&st, &now, &base, 1, buf, sizeof(buf));
	check_str(buf, "over its CPU budget (3.1% of one CPU over 30s, budget 1%): windows now "
		  "10s (asked 5s) (step 3 of 5, windows x 2)\n", "down to x 2", __LINE__);
	st.step = HK_BUDGET_NO_PROFILES;
	hk_budget__config(&base, st.step, &now);
	hk_budget__format_step(&st, &now, &base, 1, buf, sizeof(buf));
	check_str(buf, "over its CPU budget (3.1% of one CPU over 30s, budget 1%): no profiles "
		  "from now on (they cost the most userspace CPU; no diagnosis needs one) "
		  "(step 1 of 5, no profiles)\n", "down to no profiles", __LINE__);
	st.step = HK_BUDGET_NO_HOOK;
	st.why = HK_BUDGET_WHY_RSS;
	st.rss_bytes = 20 * HK_MIB;
	hk_budget__format_step(&st, &now, &base, 1, buf, sizeof(buf));
	check_str(buf, "over its memory budget (RSS 20MiB, budget 16MiB): the sched_switch "
		  "hook held detached: Starved still works, but nobody is named as its "
		  "aggressor (step 5 of 5, sched_switch hook off)\n", "down to no hook",
		  __LINE__);
	st.step = HK_BUDGET_RING_LAZY;
	st.why = HK_BUDGET_WHY_CPU;
	hk_budget__format_step(&st, &now, &base, 1, buf, sizeof(buf));
	check_str(buf, "over its CPU budget (3.1% of one CPU over 30s, budget 1%): records read "
		  "once a window, not at each (lines up to a window late; a killed process's "
		  "unit and owner unknown) (step 2 of 5, records read once a window)\n",
		  "down to lazy records", __LINE__);
	/* back from x 2: the windows as asked */
	st.step = HK_BUDGET_RING_LAZY;
	st.from = HK_BUDGET_INTERVAL_X2;
	st.cpu_pct_x100 = 40;
	hk_budget__config(&base, st.step, &now);
	hk_budget__format_step(&st, &now, &base, -1, buf, sizeof(buf));
	check_str(buf, "back under its CPU budget (0.4% of one CPU over 30s, budget 1%): windows "
		  "now 5s (asked 5s) (step 2 of 5, records read once a window)\n", "back to 5s",
		  __LINE__);
	st.step = HK_BUDGET_FULL;
	st.from = HK_BUDGET_NO_PROFILES;
	hk_budget__format_step(&st, &base, &base, -1, buf, sizeof(buf));
	check_str(buf, "back under its CPU budget (0.4% of one CPU over 30s, budget 1%): profiles "
		  "again (step 0 of 5, full service)\n", "back to full", __LINE__);
	/* over a void step: what was left is named, not the step passed over */
	st.from = HK_BUDGET_RING_LAZY;
	hk_budget__format_step(&st, &base, &base, -1, buf, sizeof(buf));
	check_str(buf, "back under its CPU budget (0.4% of one CPU over 30s, budget 1%): records "
		  "read as they come (step 0 of 5, full service)\n", "back over void", __LINE__);
}

/* Parse text; expect exactly msg. */
static void expect_error(const char *text, const char *msg, unsigned int line)
{
	struct hk_config c;
	char err[HK_ERR_LEN];

	hk_config__defaults(&c);
	check_u64((__u64)(__s64)hk_config__parse_string(&c, text, "t.conf", err, sizeof(err)),
		  (__u64)-1, "parse returns", line);
	check_str(err, msg, text, line);
}

static void test_keys(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN];

	hk_config__defaults(&c);
	CHECK_U64(c.budget_cpu_pct_x100, 500);
	CHECK_U64(c.budget_rss_bytes, 0);
	CHECK_U64(c.budget_span_ns, 30 * S);
	CU_ASSERT_EQUAL(hk_config__parse_string(&c, "[budget]\ncpu = 2.5%\nrss = 24MiB\n"
						"span = 1m\n", "t.conf", err, sizeof(err)), 0);
	CHECK_U64(c.budget_cpu_pct_x100, 250);
	CHECK_U64(c.budget_rss_bytes, 24 * HK_MIB);
	CHECK_U64(c.budget_span_ns, 60 * S);
	expect_error("[budget]\n\ncpu = 101%\n",
		     "t.conf:3: cpu 101% out of range (0%..100%)", __LINE__);
	expect_error("[budget]\nspan = 500ms\n",
		     "t.conf:2: span 500ms out of range (1s..1h)", __LINE__);
	expect_error("[budget]\nrss = lots\n",
		     "t.conf:2: bad value 'lots' for rss: not a number",
		     __LINE__);
}

int hk_add_budget_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "own CPU over a sliding span", test_span },
		{ "over twice: down; under half six times: back", test_decide },
		{ "RSS, and no budget", test_decide_rss },
		{ "steps that save nothing passed over", test_void_steps },
		{ "a step back undone at once: the next wait doubled", test_flap },
		{ "each step's config", test_config_steps },
		{ "each step said in one line", test_lines },
		{ "[budget] keys and their errors", test_keys },
	};

	return HK_ADD_SUITE("budget", tests);
}
