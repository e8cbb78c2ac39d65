// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_mem_stall.c - a thread's memory stall and I/O wait, from delay
 * accounting or sampled (enum hk_source): the stall once per swap-in of a
 * working-set page (review kernel-2 #7), the sampled share of a thread the
 * kernel gives no delay accounting (#2), the source said per event, and
 * the start line that says how many processes are not covered.
 */
#include <string.h>
#include "check.h"
#include "format_fixtures.h"
#include "kernel/delayacct.h"
#include "lib/log.h"
#include "output/format.h"
#include "shared/classify.h"
#include "suites.h"

#define MS 1000000ULL
#define WINDOW_NS 1000000000ULL

static struct hk_config cfg;

/* max(thrashing, swap-in) + reclaim + compaction, in exact numbers */
static void test_stall_delta(void)
{
	struct hk_stall_ns seen = { 1000 * MS, 2000 * MS, 300 * MS };
	struct hk_stall_ns now = seen;

	/* zram thrashing: each working-set swap-in counts in both */
	now.thrashing_ns += 50 * MS;
	now.swapin_ns += 50 * MS;
	EQ(hk_mem_stall_delta(&now, &seen), 50 * MS);
	/* 5 % of a 1 s window: under the 10 % threshold (the sum said 10 %) */
	EQ(hk_thread_share_x100(hk_mem_stall_delta(&now, &seen), WINDOW_NS), 500);
	/* the larger of the two, plus reclaim and compaction in full */
	now.swapin_ns += 10 * MS;
	now.other_ns += 5 * MS;
	EQ(hk_mem_stall_delta(&now, &seen), 65 * MS);
	now.thrashing_ns += 40 * MS;
	EQ(hk_mem_stall_delta(&now, &seen), 95 * MS);
	/* a counter below its baseline (another thread's) counts nothing */
	now = seen;
	now.thrashing_ns = 0;
	now.other_ns += 7 * MS;
	EQ(hk_mem_stall_delta(&now, &seen), 7 * MS);
	EQ(hk_mem_stall_delta(&seen, &seen), 0);
}

/* The share of the last eight visits that found the thread blocked, an
 * eighth a hit, once three are in: fewer count nothing. */
static void test_sampled_share(void)
{
	EQ(hk_sampled_ns(0, WINDOW_NS), 0);
	EQ(hk_sampled_ns(0x1, WINDOW_NS), 0);
	EQ(hk_sampled_ns(0x81, WINDOW_NS), 0);
	EQ(hk_sampled_ns(0x7, WINDOW_NS), 375 * MS);
	EQ(hk_sampled_ns(0x85, WINDOW_NS), 375 * MS);
	EQ(hk_sampled_ns(0xf, WINDOW_NS), 500 * MS);
	EQ(hk_sampled_ns(0xff, WINDOW_NS), WINDOW_NS);
	/* only the low eight bits: the stall's byte is the caller's shift */
	EQ(hk_sampled_ns(0xff00, WINDOW_NS), 0);
	EQ(hk_sampled_ns(0x1e, WINDOW_NS), 500 * MS);
	/* rounded down per eighth */
	EQ(hk_sampled_ns(0xff, 999999999), 999999992);
}

/*
 * What the samples decide, with the default thresholds: a reader found
 * blocked at 4 of its last 8 walks is I/O-blocked (50 %); at 3 of 8 not
 * (37.5 % < 50 %); a thread found stalled at 3 of 8 walks is stalled
 * (37.5 % >= 10 %), at 2 of 8 not (under the gate).
 */
static void test_sampled_decides(void)
{
	struct hk_evidence ev;

	hkv_config(&cfg);
	memset(&ev, 0, sizeof(ev));
	ev.io_pct_x100 = hk_thread_share_x100(hk_sampled_ns(0xf, WINDOW_NS), WINDOW_NS);
	ev.thread_io_pct_x100 = ev.io_pct_x100;
	ev.io_bytes_known = 1;
	ev.io_bytes_per_s = 40 << 20;
	EQ(ev.io_pct_x100, 5000);
	EQ(hk_io_blocked(&cfg, &ev), 1);
	ev.io_pct_x100 = ev.thread_io_pct_x100 =
		hk_thread_share_x100(hk_sampled_ns(0x7, WINDOW_NS), WINDOW_NS);
	EQ(ev.io_pct_x100, 3750);
	EQ(hk_io_blocked(&cfg, &ev), 0);
	memset(&ev, 0, sizeof(ev));
	ev.mem_stall_pct_x100 = hk_thread_share_x100(hk_sampled_ns(0x700 >> 8, WINDOW_NS),
						     WINDOW_NS);
	EQ(ev.mem_stall_pct_x100, 3750);
	EQ(hk_thrash_stalled(&cfg, &ev), 1);
	ev.mem_stall_pct_x100 = hk_thread_share_x100(hk_sampled_ns(0x300 >> 8, WINDOW_NS),
						     WINDOW_NS);
	EQ(hk_thrash_stalled(&cfg, &ev), 0);
}

/* With delay accounting the larger of the two, never both; without, the
 * sample. */
static void test_stall_pick(void)
{
	__u32 sampled = 7;

	/* a stall in progress: delay accounting says 0 until it ends */
	EQ(hk_stall_pick(0, 500 * MS, 0, &sampled), 500 * MS);
	EQ(sampled, 1);
	/* credited since: its counters, not the two added */
	EQ(hk_stall_pick(650 * MS, 500 * MS, 0, &sampled), 650 * MS);
	EQ(sampled, 0);
	EQ(hk_stall_pick(250 * MS, 250 * MS, 0, &sampled), 250 * MS);
	EQ(sampled, 0);
	/* no delay accounting: the sample, even 0 */
	EQ(hk_stall_pick(0, 0, 1, &sampled), 0);
	EQ(sampled, 1);
	EQ(hk_stall_pick(0, 250 * MS, 1, &sampled), 250 * MS);
	EQ(sampled, 1);
}

/* The source goes from the sample to the evidence, and is named. */
static void test_source_said(void)
{
	struct hk_sample s;
	struct hk_evidence ev;

	memset(&s, 0, sizeof(s));
	memset(&ev, 0, sizeof(ev));
	s.sampled = HK_SRC_STALL_SAMPLED;
	hk_mem_stall(&s, WINDOW_NS, &ev);
	EQ(ev.sampled, HK_SRC_STALL_SAMPLED);
	CU_ASSERT_STRING_EQUAL(hk_source__name(ev.sampled, HK_SRC_STALL_SAMPLED), "sampled");
	CU_ASSERT_STRING_EQUAL(hk_source__name(ev.sampled, HK_SRC_IO_SAMPLED), "delayacct");
	s.sampled = HK_SRC_IO_SAMPLED;
	hk_mem_stall(&s, WINDOW_NS, &ev);
	CU_ASSERT_STRING_EQUAL(hk_source__name(ev.sampled, HK_SRC_IO_SAMPLED), "sampled");
	CU_ASSERT_STRING_EQUAL(hk_source__name(ev.sampled, HK_SRC_STALL_SAMPLED), "delayacct");
}

/* Said on the line and in the JSON: "sampled" beside the figure. */
static void test_source_formatted(void)
{
	struct hk_event e;

	ev_thrash(&e);
	e.ev.mem_stall_pct_x100 = 5000;
	e.ev.mem_stall_tid = 5100;
	ASSERT_HAS(human(&e, &ctx_utc), " · stalled 50 % (tid 5100) · ");
	ASSERT_HAS(json(&e, NULL), "\"memory_stall_tid\":5100,\"stall_source\":\"delayacct\"");
	e.ev.sampled = HK_SRC_STALL_SAMPLED;
	ASSERT_HAS(human(&e, &ctx_utc), " · stalled 50 % (tid 5100, sampled) · ");
	ASSERT_HAS(json(&e, NULL), "\"memory_stall_tid\":5100,\"stall_source\":\"sampled\"");
	ASSERT_HAS(json(&e, NULL), "\"io_source\":\"delayacct\"");
	ev_base(&e, 4242, "dio", HK_OK, HK_IO_BLOCKED);
	e.ev.io_pct_x100 = 7500;
	e.ev.io_tid = 4242;
	e.ev.thread_io_pct_x100 = 7500;
	e.ev.sampled = HK_SRC_IO_SAMPLED;
	ASSERT_HAS(human(&e, &ctx_utc), "blocked on I/O 75 % · tid 4242 75 % sampled · ");
	ASSERT_HAS(json(&e, NULL), "\"io_source\":\"sampled\"");
}

/* Said once, after the first walk, only when something reads delay
 * accounting and a process lacks it. */
static void test_coverage_line(void)
{
	struct hk_stats st;
	char line[1024];
	int said = 0;

	memset(&st, 0, sizeof(st));
	st.procs_no_delays = 3;
	EQ(hk_delayacct__coverage(&st, 1, &said, line, sizeof(line)), 0);
	EQ(said, 0);
	st.windows = 1;
	EQ(hk_delayacct__coverage(&st, 1, &said, line, sizeof(line)), HK_LOG_NOTICE);
	EQ(said, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "delay accounting does not cover 3 running processes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "sampled at each walk instead"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "boot with delayacct on the kernel command line"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "sysctl.d"));
	/* one line */
	CU_ASSERT_PTR_EQUAL(strchr(line, '\n'), line + strlen(line) - 1);
	EQ(hk_delayacct__coverage(&st, 1, &said, line, sizeof(line)), 0);
	EQ(line[0], 0);
	/* nothing reads it, or every process has it: nothing to say */
	said = 0;
	EQ(hk_delayacct__coverage(&st, 0, &said, line, sizeof(line)), 0);
	EQ(said, 1);
	said = 0;
	st.procs_no_delays = 0;
	EQ(hk_delayacct__coverage(&st, 1, &said, line, sizeof(line)), 0);
	EQ(line[0], 0);
}

int hk_add_mem_stall_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "max(thrashing, swap-in) + reclaim + compaction", test_stall_delta },
		{ "sampled share of the last 8 walks", test_sampled_share },
		{ "sampled shares against the thresholds", test_sampled_decides },
		{ "a stall in progress: the larger, never both", test_stall_pick },
		{ "source into the evidence, named", test_source_said },
		{ "source on the line and in the JSON", test_source_formatted },
		{ "the start line: processes not covered", test_coverage_line },
	};

	return HK_ADD_SUITE("memory stall and I/O sources", tests);
}
