// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_format.c - the label names, sizes and durations, and the human line
 * of every transition, byte for byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "format_fixtures.h"
#include "shared/classify.h"
#include "output/printer.h"
#include "suites.h"

/* ---- labels, sizes, durations ------------------------------------------ */

static void test_label_names(void)
{
	static const char *const ids[] = {
		"ok", "oom_risk", "mem_thrashing", "throttled", "starved",
		"noisy_neighbor", "io_blocked", "cpu_bound", "mem_throttled",
		"exited", "oom_killed", "unknown",
	};
	static const char *const names[] = {
		"OK", "OOM risk", "Mem-thrashing", "Throttled", "Starved",
		"Noisy neighbor", "I/O-blocked", "CPU-bound", "Mem-throttled",
		"exited", "OOM killed", "unknown",
	};
	static const __u32 label[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xffffffffU };
	unsigned int i;

	/* the numbers the BPF side sends */
	CU_ASSERT_EQUAL(HK_OK, 0);
	CU_ASSERT_EQUAL(HK_OOM_RISK, 1);
	CU_ASSERT_EQUAL(HK_MEM_THRASHING, 2);
	CU_ASSERT_EQUAL(HK_THROTTLED, 3);
	CU_ASSERT_EQUAL(HK_STARVED, 4);
	CU_ASSERT_EQUAL(HK_NOISY_NEIGHBOR, 5);
	CU_ASSERT_EQUAL(HK_IO_BLOCKED, 6);
	CU_ASSERT_EQUAL(HK_CPU_BOUND, 7);
	CU_ASSERT_EQUAL(HK_EXITED, 9);
	CU_ASSERT_EQUAL(HK_OOM_KILLED, 10);
	CU_ASSERT_EQUAL(HK_NR_LABELS, 11);
	ASSERT_STR(hk_label__id(HK_THROTTLED), "throttled");
	ASSERT_STR(hk_label__name(HK_THROTTLED), "Throttled");

	for (i = 0; i < sizeof(label) / sizeof(label[0]); i++) {
		ASSERT_STR(hk_label__id(label[i]), ids[i]);
		ASSERT_STR(hk_label__name(label[i]), names[i]);
	}
}

static void test_fmt_bytes(void)
{
	static const struct {
		__u64 bytes;
		const char *s;
	} v[] = {
		{ 0, "0 B" },
		{ 512, "512 B" },
		{ 1023, "1023 B" },
		{ 1024, "1.00 KiB" },
		{ 1535, "1.50 KiB" },
		{ 10239, "10.0 KiB" },		/* 9.999 KiB rounds up */
		{ 100 * 1024, "100 KiB" },
		{ 1047961, "1023 KiB" },
		{ 1048575, "1.00 MiB" },	/* 1023.999 KiB */
		{ 41 * HK_MIB, "41.0 MiB" },
		{ 2 * HK_MIB, "2.00 MiB" },
		{ 1300000000, "1.21 GiB" },
		{ 25125000000ULL, "23.4 GiB" },
		{ 23825000000ULL, "22.2 GiB" },
		{ 1ULL << 40, "1.00 TiB" },
		{ 1ULL << 50, "1.00 PiB" },
		{ 1ULL << 60, "1.00 EiB" },
		{ UINT64_MAX, "16.0 EiB" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CU_ASSERT_EQUAL(hk_format__bytes(buf, sizeof(buf), v[i].bytes),
				(int)strlen(v[i].s));
		ASSERT_STR(buf, v[i].s);
	}
	/* "1.00 KiB" needs 9 bytes with its NUL */
	CU_ASSERT_EQUAL(hk_format__bytes(buf, 9, 1024), 8);
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(hk_format__bytes(buf, 8, 1024), -1);
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(buf[8], 'x');
	CU_ASSERT_EQUAL(hk_format__bytes(NULL, 0, 1024), -1);
}

static void test_fmt_duration(void)
{
	static const struct {
		__u64 s;
		const char *str;
	} v[] = {
		{ 0, "0s" },
		{ 45, "45s" },
		{ 59, "59s" },
		{ 60, "1m00s" },
		{ 572, "9m32s" },
		{ 3599, "59m59s" },
		{ 3600, "1h00m" },
		{ 7500, "2h05m" },
		{ 86399, "23h59m" },
		{ 86400, "1d00h" },
		{ 273600, "3d04h" },
		{ UINT64_MAX, "213503982334601d07h" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CU_ASSERT_EQUAL(hk_format__duration(buf, sizeof(buf), v[i].s),
				(int)strlen(v[i].str));
		ASSERT_STR(buf, v[i].str);
	}
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(hk_format__duration(buf, 5, 572), -1);
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(buf[5], 'x');
	CU_ASSERT_EQUAL(hk_format__duration(buf, 6, 572), 5);
}

/* ---- human lines --------------------------------------------------------- */

/*
 * Columns: time, two spaces, pid (7, right), space, comm (16, left), two
 * spaces, from (14, right), " → ", to (14, left), two spaces, evidence.
 */
static void test_human_oom_risk(void)
{
	struct hk_event e;

	ev_oom(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "            OK → OOM risk        "
		   "anon 1.12 GiB +41.0 MiB/s over 12 s (rss 1.21 GiB)"
		   " · limit 23.4 GiB (RAM) · headroom 22.2 GiB · ETA 9m14s\n");

	/* no ETA when RSS is not heading to the limit */
	e.ev.eta_s = (__u64)HK_ETA_NONE;
	e.ev.rss_trend_ms = 11499;
	e.ev.limit_kind = HK_LIMIT_MEMCG;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "over 11 s (rss 1.21 GiB) · limit 23.4 GiB (memcg)"
		   " · headroom 22.2 GiB\n");
	e.ev.rss_trend_ms = 11500;
	ASSERT_HAS(human(&e, &ctx_utc), "over 12 s (rss 1.21 GiB)");
	/* nested deeper than the walk reads: said beside the limit */
	e.ev.limit_partial = 6;
	ASSERT_HAS(human(&e, &ctx_utc),
		   " · limit 23.4 GiB (memcg) of those read, 6 cgroup levels nested too deep "
		   "to read · headroom 22.2 GiB\n");
	e.ev.limit_partial = 0;

	/* the trend follows anon: file pages and shmem are only in the rss */
	e.ev.rss_anon_bytes = 0;
	e.ev.rss_bytes = 41 * HK_MIB;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "  anon 0 B +41.0 MiB/s over 12 s (rss 41.0 MiB) · limit ");
	e.ev.rss_anon_bytes = 1023;
	e.ev.rss_bytes = 0;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "  anon 1023 B +41.0 MiB/s over 12 s (rss 0 B) · limit ");
}

static void test_human_mem_thrashing(void)
{
	struct hk_event e;

	ev_thrash(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   5100 thrash            "
		   "            OK → Mem-thrashing   "
		   "12.3k minor faults/s, 11.9k not explained by RSS growth"
		   " · 3 major faults/s · stalled 0 % · cpu 25 %\n");
}

/* a stall in reclaim names who grew under its limit; nobody, nothing said */
static void test_human_growers(void)
{
	struct hk_mem_blame b = { .n = 2, .looked = 1, .limit_growth_bytes = 100 * HK_MIB };
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	b.g[0] = (struct hk_grower){ .tgid = 4242, .share_pct_x100 = 8600,
				     .growth_bytes = 86 * HK_MIB };
	set_comm(b.g[0].comm, "leak");
	b.g[1] = (struct hk_grower){ .tgid = 300, .share_pct_x100 = 1400,
				     .growth_bytes = 14 * HK_MIB };
	c.blame = &b;
	ev_thrash(&e);
	ASSERT_STR(human(&e, &c),
		   H_TIME "   5100 thrash            "
		   "            OK → Mem-thrashing   "
		   "12.3k minor faults/s, 11.9k not explained by RSS growth"
		   " · 3 major faults/s · stalled 0 % · cpu 25 %"
		   " · reclaim caused by pid 4242 (leak) 86 %, pid 300 14 % of the limit's growth\n");
	b.n = 0;
	ASSERT_HAS(human(&e, &c), " · cpu 25 %\n");
}

/* the vmtest guest's leak, held at a memory.high of 64 MiB */
static void test_human_mem_throttled(void)
{
	struct hk_event e;

	ev_thrash(&e);
	e.to = HK_MEM_THROTTLED;
	e.ev.mem_high_bytes = 64 * HK_MIB;
	e.ev.mem_high_usage_bytes = 71794688;
	e.ev.mem_high_file_bytes = 0;
	e.ev.mem_high_events_per_s = 16;
	e.ev.minor_faults_per_s = 1;
	e.ev.major_faults_per_s = 0;
	e.ev.rss_growth_bytes_per_s = 4190113;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   5100 thrash            "
		   "            OK → Mem-throttled   "
		   "held at memory.high 64.0 MiB (usage 68.5 MiB, page cache 0 B)"
		   " · 16 high events/s · 1 faults/s · anon +4.00 MiB/s\n");
	/* asleep in its penalty: nothing counted, the stall said */
	e.ev.mem_high_events_per_s = 0;
	e.ev.minor_faults_per_s = 0;
	e.ev.rss_growth_bytes_per_s = 0;
	e.ev.mem_stalled = 1;
	ASSERT_HAS(human(&e, &ctx_utc),
		   " · 0 high events/s · asleep in a memory stall · 0 faults/s · anon ");
}

static void test_human_throttled(void)
{
	struct hk_event e;

	ev_throttled(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4400 java              "
		   "            OK → Throttled       "
		   "its cgroup's CPU quota throttled it 63 % of the window"
		   " · thread 4410 waited 41 % for a CPU, the process ran 200 %"
		   " of a quota of 2 CPUs\n");

	/* at the default threshold, and below 10 % with one decimal */
	e.ev.throttled_norm_pct_x100 = 2500;
	e.ev.quota_cpus_x100 = 0;
	e.ev.thread_wait_pct_x100 = 994;
	e.ev.cpu_pct_x100 = 5;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "OK → Throttled       its cgroup's CPU quota throttled it 25 %"
		   " of the window · thread 4410 waited 9.9 % for a CPU,"
		   " the process ran 0.1 %\n");

	/* an aggressor or a victim has no place in it: nobody is to blame */
	ev_throttled(&e);
	e.ev.aggressor_tgid = 4300;
	e.ev.victim_tgid = 4301;
	set_comm(e.aggressor_comm, "bash");
	ASSERT_LACKS(human(&e, &ctx_utc), "4300");
	ASSERT_LACKS(fmt_out, "4301");
}

static void test_human_starved(void)
{
	struct hk_event e;

	ev_starved(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4301 bash              "
		   "            OK → Starved         "
		   "thread 4302 waited 97 % of the window for a CPU,"
		   " the process ran 0.8 % · preempted by 4300 (bash)\n");

	/* no aggressor known: nothing about one */
	e.ev.aggressor_tgid = 0;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4301 bash              "
		   "            OK → Starved         "
		   "thread 4302 waited 97 % of the window for a CPU,"
		   " the process ran 0.8 %\n");

	/* the thread's wait, not the process's sum over its threads */
	e.ev.wait_pct_x100 = 19000;
	e.ev.wait_tid = 4301;
	e.ev.thread_wait_pct_x100 = 7000;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "OK → Starved         thread 4301 waited 70 % of the window for a"
		   " CPU, the process ran 0.8 %\n");
}

static void test_human_noisy_neighbor(void)
{
	struct hk_event e;

	ev_noisy(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4300 bash              "
		   "            OK → Noisy neighbor  "
		   "98 % CPU · thread 4300 at 98 % of cpu0 · starves 4301 (bash)\n");

	/* its busiest thread waited for a CPU too */
	e.ev.thread_queued_pct_x100 = 150;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4300 bash              "
		   "            OK → Noisy neighbor  "
		   "98 % CPU · thread 4300 at 98 % of cpu0 + 1.5 % waiting for a CPU"
		   " · starves 4301 (bash)\n");
}

/* A victim that asked for less: its Starved line and its Noisy neighbor's
 * say what it asked for. */
static void test_human_deprioritised(void)
{
	struct hk_event e;

	ev_starved(&e);
	e.ev.wait_nice = 19;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4301 bash              "
		   "            OK → Starved         "
		   "thread 4302 waited 97 % of the window for a CPU,"
		   " the process ran 0.8 % · preempted by 4300 (bash)"
		   " · deprioritised: nice 19\n");
	e.ev.wait_nice = 0;
	e.ev.wait_policy = HK_SCHED_IDLE;
	ASSERT_HAS(human(&e, &ctx_utc), "(bash) · deprioritised: SCHED_IDLE\n");
	e.ev.wait_policy = HK_SCHED_BATCH;
	e.ev.wait_group_idle = 1;
	e.ev.wait_group_weight = 50;
	e.ev.wait_nice = 5;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "(bash) · deprioritised: nice 5, SCHED_BATCH, cpu.idle, cpu.weight 50\n");
	/* a fair share asked for: nothing said */
	e.ev.wait_policy = HK_SCHED_NORMAL;
	e.ev.wait_group_idle = 0;
	e.ev.wait_group_weight = 100;
	e.ev.wait_nice = -5;
	ASSERT_LACKS(human(&e, &ctx_utc), "deprioritised");

	ev_noisy(&e);
	e.ev.victim_deprioritised = 0x1301;	/* nice 19 */
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4300 bash              "
		   "            OK → Noisy neighbor  "
		   "98 % CPU · thread 4300 at 98 % of cpu0 · starves 4301 (bash),"
		   " which asked for less: nice 19\n");
	e.ev.victim_deprioritised = HK_DEPRIO_IDLE;
	ASSERT_HAS(human(&e, &ctx_utc), "starves 4301 (bash), which asked for less: SCHED_IDLE\n");
	e.ev.victim_deprioritised = HK_DEPRIO_GROUP_IDLE;
	ASSERT_HAS(human(&e, &ctx_utc), "starves 4301 (bash), which asked for less: cpu.idle\n");
}

/* Steal/IRQ time beside the thread's CPU share, from 1 %. */
static void test_human_cpu_lost(void)
{
	struct hk_event e;

	ev_cpu(&e);
	e.ev.thread_cpu_pct_x100 = 8000;
	e.ev.cpu_lost_pct_x100 = 1411;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "thread 4250 at 80 % of cpu1 + 14 % lost to steal/IRQ · ");
	e.ev.cpu_lost_pct_x100 = 99;
	ASSERT_LACKS(human(&e, &ctx_utc), "steal");
}

static void test_human_cpu_bound(void)
{
	struct hk_event e;

	ev_cpu(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "thread 4250 at 99 % of cpu1 · 0 faults/s · run delay 1 %\n");

	/* more than one CPU: the process total comes first */
	e.ev.cpu_pct_x100 = 18000;
	e.ev.minor_faults_per_s = 40;
	e.ev.major_faults_per_s = 2;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "cpu 180 % · thread 4250 at 99 % of cpu1 · 42 faults/s"
		   " · run delay 1 %\n");
	e.ev.thread_queued_pct_x100 = 1000;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "cpu 180 % · thread 4250 at 99 % of cpu1 + 10 % waiting for a CPU"
		   " · 42 faults/s · run delay 1 %\n");
}

/* A thread that wants a CPU: on one, or waiting for one from 1 %. */
static void test_human_thread_waiting(void)
{
	static const struct {
		__u32 queued_pct_x100;
		const char *s;
	} v[] = {
		{ 0, "thread 4250 at 50 % of cpu1 · 0 faults/s" },
		{ 5, "thread 4250 at 50 % of cpu1 · 0 faults/s" },
		{ 99, "thread 4250 at 50 % of cpu1 · 0 faults/s" },
		{ 100, "thread 4250 at 50 % of cpu1 + 1 % waiting for a CPU"
		       " · 0 faults/s" },
		{ 149, "thread 4250 at 50 % of cpu1 + 1.5 % waiting for a CPU"
		       " · 0 faults/s" },
		{ 4900, "thread 4250 at 50 % of cpu1 + 49 % waiting for a CPU"
			" · 0 faults/s" },
		{ 0xffffffffU, "thread 4250 at 50 % of cpu1 + 42949673 % waiting"
			       " for a CPU · 0 faults/s" },
	};
	struct hk_event e;
	unsigned int i;

	/* a busy loop on a saturated host: half on a CPU, half waiting */
	ev_cpu(&e);
	e.ev.cpu_pct_x100 = 5000;
	e.ev.thread_cpu_pct_x100 = 5000;
	e.ev.thread_queued_pct_x100 = 4900;
	e.ev.wait_pct_x100 = 4900;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "thread 4250 at 50 % of cpu1 + 49 % waiting for a CPU"
		   " · 0 faults/s · run delay 49 %\n");

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		e.ev.thread_queued_pct_x100 = v[i].queued_pct_x100;
		ASSERT_HAS(human(&e, &ctx_utc), v[i].s);
	}

	/* the process's run delay is not the thread's */
	e.ev.thread_queued_pct_x100 = 0;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "CPU-bound       thread 4250 at 50 % of cpu1 · 0 faults/s"
		   " · run delay 49 %\n");
}

static void test_human_ok(void)
{
	struct hk_event e;

	ev_ok(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "     CPU-bound → OK              "
		   "cpu 3 % · run delay 0 % · 0 faults/s\n");

	/* leaving OOM risk: the trend that no longer holds */
	ev_oom(&e);
	e.from = HK_OOM_RISK;
	e.to = HK_OK;
	e.ev.rss_slope_bytes_per_s = -2 * (__s64)HK_MIB;
	e.ev.eta_s = (__u64)HK_ETA_NONE;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "      OOM risk → OK              "
		   "anon 1.12 GiB -2.00 MiB/s over 12 s (rss 1.21 GiB)"
		   " · limit 23.4 GiB (RAM) · headroom 22.2 GiB\n");

	/* leaving Starved: the wait that fell */
	ev_starved(&e);
	e.from = HK_STARVED;
	e.to = HK_OK;
	e.ev.wait_pct_x100 = 5000;
	e.ev.thread_wait_pct_x100 = 995;
	e.ev.cpu_pct_x100 = 4000;
	e.ev.aggressor_tgid = 0;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "Starved → OK              "
		   "thread 4302 waited 10 % of the window for a CPU,"
		   " the process ran 40 %\n");

	/* leaving Throttled: the quota no longer bites */
	ev_throttled(&e);
	e.from = HK_THROTTLED;
	e.to = HK_OK;
	e.ev.throttled_pct_x100 = 0;
	e.ev.throttled_norm_pct_x100 = 0;
	e.ev.quota_cpus_x100 = 0;
	e.ev.thread_wait_pct_x100 = 300;
	e.ev.cpu_pct_x100 = 19000;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4400 java              "
		   "     Throttled → OK              "
		   "its cgroup's CPU quota throttled it 0 % of the window"
		   " · thread 4410 waited 3 % for a CPU, the process ran 190 %\n");
}

static void test_human_exited(void)
{
	struct hk_event e;

	ev_exited(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "      OOM risk → exited          after 31 windows\n");
	e.windows = 1;
	ASSERT_HAS(human(&e, &ctx_utc), "exited          after 1 window\n");
}

static void test_human_numbers(void)
{
	static const struct {
		__u64 v;
		const char *s;
	} counts[] = {
		{ 0, "0 minor" },
		{ 9999, "9999 minor" },
		{ 10000, "10.0k minor" },
		{ 10049, "10.0k minor" },
		{ 10050, "10.1k minor" },
		{ 99949, "99.9k minor" },
		{ 99950, "100k minor" },
		{ 9999499, "9999k minor" },
		{ 9999500, "10.0M minor" },
		{ 12345678, "12.3M minor" },
		{ 123456789, "123M minor" },
	};
	static const struct {
		__u32 pct_x100;
		const char *s;
	} pcts[] = {
		{ 0, "cpu 0 %\n" },
		{ 4, "cpu 0 %\n" },
		{ 5, "cpu 0.1 %\n" },
		{ 80, "cpu 0.8 %\n" },
		{ 100, "cpu 1 %\n" },
		{ 994, "cpu 9.9 %\n" },
		{ 995, "cpu 10 %\n" },
		{ 1049, "cpu 10 %\n" },
		{ 1050, "cpu 11 %\n" },
		{ 9712, "cpu 97 %\n" },
		{ 0xffffffffU, "cpu 42949673 %\n" },
	};
	struct hk_event e;
	unsigned int i;

	ev_thrash(&e);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		e.ev.minor_faults_per_s = counts[i].v;
		ASSERT_HAS(human(&e, &ctx_utc), counts[i].s);
	}
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		e.ev.cpu_pct_x100 = pcts[i].pct_x100;
		ASSERT_HAS(human(&e, &ctx_utc), pcts[i].s);
	}
	/* zero growth has no sign */
	ev_oom(&e);
	e.ev.rss_slope_bytes_per_s = 0;
	ASSERT_HAS(human(&e, &ctx_utc), "anon 1.12 GiB 0 B/s over 12 s (rss 1.21 GiB)");
	e.ev.rss_slope_bytes_per_s = INT64_MIN;
	ASSERT_HAS(human(&e, &ctx_utc), "anon 1.12 GiB -8.00 EiB/s over 12 s (rss");
}

static void test_human_color(void)
{
	static const struct {
		void (*make)(struct hk_event *e);
		const char *sgr;
	} v[] = {
		{ ev_oom, "\033[1;31mOOM risk\033[0m      " },
		{ ev_thrash, "\033[35mMem-thrashing\033[0m   " },
		{ ev_throttled, "\033[34mThrottled\033[0m       " },
		{ ev_starved, "\033[33mStarved\033[0m         " },
		{ ev_noisy, "\033[36mNoisy neighbor\033[0m  " },
		{ ev_cpu, "\033[31mCPU-bound\033[0m       " },
		{ ev_ok, "\033[32mOK\033[0m              " },
		{ ev_exited, "\033[2mexited\033[0m          " },
	};
	struct hk_event e;
	unsigned int i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		v[i].make(&e);
		ASSERT_HAS(human(&e, &ctx_color), v[i].sgr);
		/* one SGR and one reset, nothing else */
		CU_ASSERT_PTR_EQUAL(strchr(fmt_out, '\033'), strstr(fmt_out, v[i].sgr));
		CU_ASSERT_PTR_EQUAL(strrchr(fmt_out, '\033'), strstr(fmt_out, "\033[0m"));
		n = hk_format__human(fmt_out, sizeof(fmt_out), &e, NULL, &ctx_utc);
		CU_ASSERT(n > 0);
		CU_ASSERT_PTR_NULL(memchr(fmt_out, 0x1b, (size_t)n));
	}
	/* an unknown label has no colour */
	ev_cpu(&e);
	e.to = 42;
	CU_ASSERT_PTR_NULL(strchr(human(&e, &ctx_color), '\033'));
	ASSERT_HAS(fmt_out, "OK → unknown         cpu 99 %");
	e.to = HK_NR_LABELS;
	CU_ASSERT_PTR_NULL(strchr(human(&e, &ctx_color), '\033'));
	ASSERT_HAS(fmt_out, "OK → unknown         cpu 99 %");
}

static void test_human_local_time(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_cpu(&e);
	c.utc = 0;
	setenv("TZ", "XXX-1", 1);	/* POSIX: one hour east of UTC */
	tzset();
	CU_ASSERT_EQUAL(strncmp(human(&e, &c), "06:21:36.123  ", 14), 0);
	/* utc wins over the zone */
	CU_ASSERT_EQUAL(strncmp(human(&e, &ctx_utc), H_TIME, 14), 0);
	setenv("TZ", "UTC", 1);
	tzset();
	/* before the epoch: milliseconds still count forward */
	c.utc = 1;
	c.wall_offset_ns = -(__s64)T_MONO_NS - 1000000;
	CU_ASSERT_EQUAL(strncmp(human(&e, &c), "23:59:59.999  ", 14), 0);
}

/* Colour only on a terminal, unless NO_COLOR is set to something
 * (no-color.org: an empty NO_COLOR does not count) or TERM is "dumb". */
static void test_use_color(void)
{
	CU_ASSERT_EQUAL(hk_format__use_color(1, NULL, "xterm-256color"), 1);
	CU_ASSERT_EQUAL(hk_format__use_color(1, NULL, NULL), 1);
	CU_ASSERT_EQUAL(hk_format__use_color(0, NULL, "xterm"), 0);
	CU_ASSERT_EQUAL(hk_format__use_color(1, "1", "xterm"), 0);
	CU_ASSERT_EQUAL(hk_format__use_color(1, "0", "xterm"), 0);
	CU_ASSERT_EQUAL(hk_format__use_color(1, "", "xterm"), 1);
	CU_ASSERT_EQUAL(hk_format__use_color(1, NULL, "dumb"), 0);
	CU_ASSERT_EQUAL(hk_format__use_color(1, "", "dumb"), 0);
	CU_ASSERT_EQUAL(hk_format__use_color(1, NULL, "dumber"), 1);
}

/*
 * A transition's priority: its label's, but a notice (5) into Starved for
 * a waiter that asked for less and into Noisy neighbor for its neighbour.
 */
static void test_event_priority(void)
{
	struct hk_event e;

	ev_starved(&e);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);	/* the fair case */
	e.ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	e.ev.wait_nice = -5;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);
	e.ev.wait_policy = HK_SCHED_IDLE;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	e.ev.wait_policy = HK_SCHED_FIFO;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);
	e.ev.wait_group_weight = 1;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	e.ev.wait_group_weight = 0;			/* root: unknown */
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);
	e.ev.wait_group_idle = 1;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	/* leaving Starved is news either way */
	e.from = HK_STARVED;
	e.to = HK_OK;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 6);

	ev_noisy(&e);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);
	e.ev.victim_deprioritised = 0x1301;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	/* its own waiting thread's nice is not its victim's */
	e.ev.victim_deprioritised = 0;
	e.ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);

	/* every other label as hk_label__priority says */
	ev_cpu(&e);
	e.ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	ev_throttled(&e);
	e.ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);

	/* Mem-thrashing: a warning when its threads stalled on memory, a
	 * notice for a fault storm with no stall (#19) */
	ev_thrash(&e);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 5);
	e.ev.thrash_stalled = 1;
	e.ev.mem_stall_pct_x100 = 4200;
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);

	CU_ASSERT_STRING_EQUAL(hk_policy__name(HK_SCHED_NORMAL), "normal");
	CU_ASSERT_STRING_EQUAL(hk_policy__name(HK_SCHED_IDLE), "idle");
	CU_ASSERT_STRING_EQUAL(hk_policy__name(HK_SCHED_EXT), "ext");
	CU_ASSERT_PTR_NULL(hk_policy__name(4));
}

/*
 * Journal priorities: `journalctl -p warning` shows exactly the alarms.
 * The prefix is written only when stdout is the journal's stream.
 */
static void test_journal(void)
{
	static const int want[] = { 6, 4, 4, 4, 4, 4, 4, 5, 4, 6, 3, 4 };
	char stream[64], *text = NULL;
	struct hk_printer pr;
	struct hk_event e;
	size_t len = 0, i;
	struct stat st;
	int fds[2];
	FILE *out;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CU_ASSERT_EQUAL(hk_label__priority((__u32)i), want[i]);

	CU_ASSERT_FATAL(pipe(fds) == 0 && fstat(fds[1], &st) == 0);
	snprintf(stream, sizeof(stream), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	CU_ASSERT_EQUAL(hk_printer__is_journal(fds[1], stream), 1);
	CU_ASSERT_EQUAL(hk_printer__is_journal(STDIN_FILENO, stream), 0);	/* not it */
	snprintf(stream, sizeof(stream), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + 1);
	CU_ASSERT_EQUAL(hk_printer__is_journal(fds[1], stream), 0);
	CU_ASSERT_EQUAL(hk_printer__is_journal(fds[1], NULL), 0);
	CU_ASSERT_EQUAL(hk_printer__is_journal(fds[1], ""), 0);
	CU_ASSERT_EQUAL(hk_printer__is_journal(fds[1], "8:x"), 0);
	close(fds[0]);
	close(fds[1]);

	/* the printer puts it before the line, the line unchanged */
	out = open_memstream(&text, &len);
	CU_ASSERT_FATAL(out != NULL);
	CU_ASSERT_FATAL(hk_printer__init(&pr, out, 0, 1, 0) == 0);
	pr.syslog_prefix = 1;
	ev_cpu(&e);
	CU_ASSERT_EQUAL(hk_printer__event(&pr, &e, sizeof(e)), 0);
	e.from = HK_CPU_BOUND;
	e.to = HK_OOM_RISK;
	CU_ASSERT_EQUAL(hk_printer__event(&pr, &e, sizeof(e)), 0);
	pr.syslog_prefix = 0;
	e.to = HK_EXITED;
	CU_ASSERT_EQUAL(hk_printer__event(&pr, &e, sizeof(e)), 0);
	fclose(out);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_EQUAL(strncmp(text, "<5>", 3), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n<4>"));
	CU_ASSERT_PTR_NULL(strstr(text, "<6>"));
	CU_ASSERT_EQUAL(pr.events, 3);
	hk_printer__free(&pr);
	free(text);
}

int hk_add_format_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "label ids and names", test_label_names },
		{ "hk_format__bytes", test_fmt_bytes },
		{ "hk_format__duration", test_fmt_duration },
		{ "human oom_risk", test_human_oom_risk },
		{ "human mem_thrashing", test_human_mem_thrashing },
		{ "human growers", test_human_growers },
		{ "human mem_throttled", test_human_mem_throttled },
		{ "human throttled", test_human_throttled },
		{ "human starved", test_human_starved },
		{ "human noisy_neighbor", test_human_noisy_neighbor },
		{ "human cpu_bound", test_human_cpu_bound },
		{ "human deprioritised", test_human_deprioritised },
		{ "human cpu lost", test_human_cpu_lost },
		{ "event priorities", test_event_priority },
		{ "human thread waiting", test_human_thread_waiting },
		{ "human ok", test_human_ok },
		{ "human exited", test_human_exited },
		{ "human counts and shares", test_human_numbers },
		{ "human colour", test_human_color },
		{ "when to colour", test_use_color },
		{ "human local time", test_human_local_time },
		{ "journal priorities", test_journal },
	};

	return HK_ADD_SUITE("format", tests);
}
