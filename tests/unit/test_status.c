// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_status.c - `hotspot-k status` from made-up hk_procs entries, byte
 * for byte: the table with none, one and several flagged processes, the
 * top lists' order and ties, hostile comms, and the JSON object (checked by
 * the strict checker too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format_fixtures.h"
#include "json_check.h"
#include "status/status.h"
#include "suites.h"
#include "text_check.h"

#define MAX_PROCS 8

/* The latest walk ran from 99.999 s to 100 s of the monotonic clock. */
#define WALK_END_NS	(100 * HK_NSEC_PER_SEC)
#define WALK_NS		HK_NSEC_PER_MSEC
#define FRESH_NS	(WALK_END_NS - WALK_NS / 2)

static __u32 pids[MAX_PROCS];
static struct hk_proc procs[MAX_PROCS];
static struct hk_status_snap snap;
static char *out;

/* An instance at -i 1s, 57 windows in, nothing tracked yet. */
static void snap_reset(void)
{
	snap_base(&snap, pids, procs, MAX_PROCS, WALK_END_NS);
	snap.cfg.enter_windows = 2;
	snap.cfg.exit_windows = 3;
	snap.max_procs = 4096;
}

/*
 * One more process, sampled by the latest walk: label held for `held`
 * windows in a row (0: OK), a single thread, its CPU and RSS.
 */
static struct hk_proc *add(__u32 pid, const char *comm, __u32 label, __u32 held,
			   __u32 cpu_x100, __u64 rss_bytes)
{
	struct hk_proc *p = &procs[snap.n];

	CU_ASSERT_FATAL(snap.n < MAX_PROCS);
	pids[snap.n++] = pid;
	set_comm(p->comm, comm);
	p->hyst.label = label;
	p->hyst.match = label;
	p->hyst.cand = label;
	p->hyst.cand_windows = held;
	p->windows = 60;
	p->sample_ns = FRESH_NS;
	p->ev.window_ns = HK_NSEC_PER_SEC;
	p->ev.nr_threads = 1;
	p->ev.thread_tid = pid;
	p->ev.thread_cpu = 1;
	p->ev.cpu_pct_x100 = cpu_x100;
	p->ev.thread_cpu_pct_x100 = cpu_x100;
	p->ev.rss_bytes = rss_bytes;
	p->ev.rss_anon_bytes = rss_bytes / 2;
	p->ev.limit_kind = HK_LIMIT_RAM;
	p->ev.limit_bytes = 16 * HK_GIB;
	p->ev.eta_s = (__u64)HK_ETA_NONE;
	return p;
}

/* Write the snapshot as status would; the text, or NULL on failure. */
static const char *status(bool all, unsigned int top_n, bool json)
{
	struct hk_status_opts o = { .all = all, .top_n = top_n, .json = json };
	size_t len = 0;
	FILE *f;
	int ret;

	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ret = hk_status__write(f, &snap, &o);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
	return out;
}

#define TEXT(all, n) status((all), (n), false)
#define JSON(all, n) status((all), (n), true)

/* The object must pass the strict checker: one line, valid, no dup keys. */
static void check_json(const char *s)
{
	struct tc_json_obj top;
	const char *why;
	size_t at = 0;

	why = tc_json_line_bad(s, strlen(s), &top, &at);
	if (why)
		fprintf(stderr, "\n    invalid JSON at %zu: %s", at, why);
	CU_ASSERT_PTR_NULL(why);
}

/* Every line of a table: valid UTF-8, nothing that drives a terminal. */
static void check_terminal_safe(const char *s)
{
	const char *line, *nl, *why;
	size_t at = 0;

	CU_ASSERT_TRUE(tc_utf8_valid(s, strlen(s), &at));
	for (line = s; (nl = strchr(line, '\n')); line = nl + 1) {
		why = tc_term_unsafe(line, (size_t)(nl + 1 - line), false, &at);
		if (why)
			fprintf(stderr, "\n    unsafe at %zu of \"%.*s\": %s", at,
				(int)(nl - line), line, why);
		CU_ASSERT_PTR_NULL(why);
	}
	CU_ASSERT_EQUAL(*line, '\0');	/* ends with its last line's '\n' */
}

/* The raw JSON value v (len bytes) contains the literal lit. */
#define VALUE_HAS(v, len, lit) \
	CU_ASSERT_PTR_NOT_NULL((v) ? memmem((v), (len), (lit), sizeof(lit) - 1) : NULL)
#define VALUE_LACKS(v, len, lit) \
	CU_ASSERT_PTR_NULL((v) ? memmem((v), (len), (lit), sizeof(lit) - 1) : NULL)

#define HEAD "    PID  COMM              UNIT                      CONTAINER     LABEL              FOR     CPU    WAIT       RSS        RSS/s"
#define INSTANCE "hotspot-k every 1s (driver wq): 57 windows, "

/* ---- the table ----------------------------------------------------------- */

static void test_table_empty(void)
{
	snap_reset();
	ASSERT_STR(TEXT(false, 10),
		   INSTANCE "0 of 4096 processes tracked, 0 flagged\n"
		   "no process flagged\n");

	/* processes, none flagged; one process said in the singular */
	add(100, "sshd", HK_OK, 0, 10, 8 * HK_MIB);
	ASSERT_STR(TEXT(false, 10),
		   INSTANCE "1 of 4096 processes tracked, 0 flagged\n"
		   "no process flagged\n");

	/* before the first window: no driver yet, capacity unknown */
	snap.stats.windows = 0;
	snap.max_procs = 0;
	snap.cfg.interval_ns = 500 * HK_NSEC_PER_MSEC;
	ASSERT_STR(TEXT(false, 10),
		   "hotspot-k every 500ms: no window yet, 1 process tracked, 0 flagged\n"
		   "no process flagged\n");

	/* an instance --pin left in the kernel says so */
	snap.pinned = true;
	ASSERT_STR(TEXT(false, 10),
		   "hotspot-k every 500ms (pinned): no window yet, 1 process tracked, 0 flagged\n"
		   "no process flagged\n");
	snap.stats.windows = 1;
	ASSERT_STR(TEXT(false, 10),
		   "hotspot-k every 500ms (driver wq, pinned): 1 window, 1 process tracked,"
		   " 0 flagged\n"
		   "no process flagged\n");
	check_json(JSON(false, 10));
	ASSERT_HAS(out, "{\"instance\":{\"interval_s\":0.500,\"driver\":\"wq\","
		   "\"pinned\":true,\"windows\":1,");
}

static void test_table_one(void)
{
	struct hk_proc *p;

	snap_reset();
	add(100, "sshd", HK_OK, 0, 10, 8 * HK_MIB);
	p = add(18217, "yes", HK_CPU_BOUND, 12, 9987, 1536 * HK_KIB);
	p->ev.minor_faults_per_s = 3;
	p->ev.major_faults_per_s = 1;
	p->ev.wait_pct_x100 = 12;
	ASSERT_STR(TEXT(false, 10),
		   INSTANCE "2 of 4096 processes tracked, 1 flagged\n"
		   HEAD "  EVIDENCE\n"
		   "  18217  yes               -                         -             CPU-bound          12s   100 %   0.1 %  1.50 MiB"
		   "        0 B/s  thread 18217 at 100 % of cpu1 · 4 faults/s\n");
	check_terminal_safe(out);

	/* many threads: their total is the CPU column's, not the evidence's;
	 * the thread's own wait for a CPU stays */
	p->ev.cpu_pct_x100 = 15000;
	p->ev.thread_queued_pct_x100 = 4000;
	TEXT(false, 10);
	ASSERT_HAS(out, "   150 %   0.1 %  1.50 MiB        0 B/s  thread 18217 at 100 % of cpu1"
		   " + 40 % waiting for a CPU · 4 faults/s\n");
}

static void test_table_several(void)
{
	struct hk_proc *p;

	snap_reset();
	snap.cfg.interval_ns = 5 * HK_NSEC_PER_SEC;
	/* a starved victim and its aggressor, named from their entries */
	p = add(4301, "victim", HK_STARVED, 3, 80, 4 * HK_MIB);
	p->ev.wait_tid = 4302;
	p->ev.thread_wait_pct_x100 = 9700;
	p->ev.wait_pct_x100 = 9700;
	p->ev.aggressor_tgid = 4300;
	p = add(4300, "hog", HK_NOISY_NEIGHBOR, 2, 9900, 2 * HK_MIB);
	p->ev.thread_cpu = 0;
	p->ev.victim_tgid = 4301;
	/* a leak: the most severe, listed first */
	p = add(4242, "python3", HK_OOM_RISK, 30, 350, 1300000000);
	p->ev.rss_anon_bytes = 1200000000;
	p->ev.rss_growth_bytes_per_s = 40000000;
	p->ev.rss_slope_bytes_per_s = 42991616;
	p->ev.limit_bytes = 25125000000ULL;
	p->ev.eta_s = 554;
	/* thrashing, in its last window before OK: the label is leaving */
	p = add(4500, "thrash", HK_MEM_THRASHING, 0, 5100, 300 * HK_MIB);
	p->hyst.match = HK_OK;
	p->hyst.cand = HK_OK;
	p->hyst.cand_windows = 2;
	p->hyst.miss_windows = 2;
	p->ev.minor_faults_per_s = 19300;
	p->ev.unexplained_faults_per_s = 19200;
	p->ev.rss_growth_bytes_per_s = -2 * (__s64)HK_MIB;
	/* throttled by its quota; its starved peer (4600) is not tracked */
	p = add(4400, "quota", HK_THROTTLED, 720, 2000, 12 * HK_MIB);
	p->ev.throttled_pct_x100 = 6300;
	p->ev.throttled_norm_pct_x100 = 6300;
	p->ev.wait_tid = 4410;
	p->ev.thread_wait_pct_x100 = 4100;
	p->ev.wait_pct_x100 = 8000;
	p = add(4600, "lone", HK_STARVED, 2, 100, 1 * HK_MIB);
	p->ev.wait_tid = 4600;
	p->ev.thread_wait_pct_x100 = 9000;
	p->ev.aggressor_tgid = 999;
	add(1, "systemd", HK_OK, 0, 0, 12 * HK_MIB);

	ASSERT_STR(TEXT(false, 10),
		   "hotspot-k every 5s (driver wq): 57 windows, 7 of 4096 processes tracked, 6 flagged\n"
		   HEAD "  EVIDENCE\n"
		   "   4242  python3           -                         -             OOM risk         2m30s   3.5 %     0 %  1.21 GiB"
		   "  +38.1 MiB/s  anon 1.12 GiB +41.0 MiB/s · limit 23.4 GiB (RAM) · ETA 9m14s\n"
		   "   4500  thrash            -                         -             Mem-thrashing        -    51 %     0 %   300 MiB"
		   "  -2.00 MiB/s  leaving: 2 of 3 windows without it · 19.3k minor faults/s,"
		   " 19.2k not explained by RSS growth · 0 major faults/s · stalled 0 %"
		   /* the leak beside it, under the same RAM, grew 40 MB in the window */
		   " · reclaim caused by pid 4242 (python3) 100 % of the limit's growth\n"
		   "   4400  quota             -                         -             Throttled        1h00m    20 %    80 %  12.0 MiB"
		   "        0 B/s  its cgroup's CPU quota throttled it 63 % of the window · thread 4410"
		   " waited 41 % for a CPU\n"
		   "   4301  victim            -                         -             Starved            15s   0.8 %    97 %  4.00 MiB"
		   "        0 B/s  thread 4302 waited 97 % of the window for a CPU · preempted by 4300"
		   " (hog)\n"
		   "   4600  lone              -                         -             Starved            10s     1 %     0 %  1.00 MiB"
		   "        0 B/s  thread 4600 waited 90 % of the window for a CPU · preempted by 999\n"
		   "   4300  hog               -                         -             Noisy neighbor     10s    99 %     0 %  2.00 MiB"
		   "        0 B/s  thread 4300 at 99 % of cpu0 · starves 4301 (victim)\n");
	check_terminal_safe(out);
}

/* ---- -a: the top lists ---------------------------------------------------- */

static void test_top_order_and_ties(void)
{
	struct hk_proc *p;

	snap_reset();
	/* ties on CPU broken by PID, whatever the order in the map */
	add(300, "c", HK_OK, 0, 5000, 3 * HK_MIB)->ev.wait_pct_x100 = 200;
	add(200, "b", HK_OK, 0, 5000, 2 * HK_MIB)->ev.wait_pct_x100 = 200;
	add(400, "d", HK_OK, 0, 7000, 4 * HK_MIB)->ev.rss_growth_bytes_per_s = 1024;
	p = add(100, "a", HK_CPU_BOUND, 3, 9900, 1 * HK_MIB);
	p->ev.wait_pct_x100 = 100;
	p->ev.rss_growth_bytes_per_s = 2048;
	/* nothing to rank: not listed anywhere */
	add(500, "idle", HK_OK, 0, 0, 5 * HK_MIB);
	/* quiet in the latest window: its old 90 % is not now's */
	p = add(600, "quiet", HK_OK, 0, 9000, 6 * HK_MIB);
	p->sample_ns = WALK_END_NS - 2 * HK_NSEC_PER_SEC;
	p->ev.wait_pct_x100 = 5000;
	p->ev.rss_growth_bytes_per_s = 1 << 20;

	ASSERT_STR(TEXT(true, 3),
		   INSTANCE "6 of 4096 processes tracked, 1 flagged\n"
		   HEAD "  EVIDENCE\n"
		   "    100  a                 -                         -             CPU-bound           3s    99 %     1 %  1.00 MiB"
		   "  +2.00 KiB/s  thread 100 at 99 % of cpu1 · 0 faults/s\n"
		   "\n"
		   "top 3 by CPU:\n"
		   HEAD "\n"
		   "    100  a                 -                         -             CPU-bound           3s    99 %     1 %  1.00 MiB  +2.00 KiB/s\n"
		   "    400  d                 -                         -             OK                   -    70 %     0 %  4.00 MiB  +1.00 KiB/s\n"
		   "    200  b                 -                         -             OK                   -    50 %     2 %  2.00 MiB        0 B/s\n"
		   "\n"
		   "top 3 by run delay (wait):\n"
		   HEAD "\n"
		   "    200  b                 -                         -             OK                   -    50 %     2 %  2.00 MiB        0 B/s\n"
		   "    300  c                 -                         -             OK                   -    50 %     2 %  3.00 MiB        0 B/s\n"
		   "    100  a                 -                         -             CPU-bound           3s    99 %     1 %  1.00 MiB  +2.00 KiB/s\n"
		   "\n"
		   "top 3 by RSS growth:\n"
		   HEAD "\n"
		   "    100  a                 -                         -             CPU-bound           3s    99 %     1 %  1.00 MiB  +2.00 KiB/s\n"
		   "    400  d                 -                         -             OK                   -    70 %     0 %  4.00 MiB  +1.00 KiB/s\n");

	/* a list with nothing above 0 says so */
	snap_reset();
	add(500, "idle", HK_OK, 0, 0, 5 * HK_MIB);
	ASSERT_STR(TEXT(true, 10),
		   INSTANCE "1 of 4096 processes tracked, 0 flagged\n"
		   "no process flagged\n"
		   "\n"
		   "top 10 by CPU: none above 0\n"
		   "\n"
		   "top 10 by run delay (wait): none above 0\n"
		   "\n"
		   "top 10 by RSS growth: none above 0\n");
}

/* ---- hostile comms ---------------------------------------------------------- */

static void test_hostile_comm(void)
{
	struct hk_proc *p;

	snap_reset();
	/* clears the screen, sets the title, reorders the line: all escaped */
	p = add(4301, "\x1b[2J\x1b]0;x\x07\xe2\x80\xae", HK_STARVED, 2, 80, HK_MIB);
	p->ev.wait_tid = 4301;
	p->ev.thread_wait_pct_x100 = 9000;
	p->ev.aggressor_tgid = 4300;
	/* 16 bytes, no NUL; a quote and a backslash */
	add(4300, "ab\"\\efghijklmnop", HK_OK, 0, 9900, HK_MIB);
	ASSERT_STR(TEXT(false, 10),
		   INSTANCE "2 of 4096 processes tracked, 1 flagged\n"
		   HEAD "  EVIDENCE\n"
		   "   4301  \\x1b[2J\\x1b]0;x\\x07\\xe2\\x80\\xae  -                         -             Starved             2s   0.8 %     0 %"
		   "  1.00 MiB        0 B/s  thread 4301 waited 90 % of the window for a CPU · preempted"
		   " by 4300 (ab\"\\\\efghijklmnop)\n");
	check_terminal_safe(out);

	check_json(JSON(false, 10));
	ASSERT_HAS(out, "\"comm\":\"\\u001b[2J\\u001b]0;x\\u0007\xe2\x80\xae\"");
	ASSERT_HAS(out, "\"aggressor_pid\":4300,\"aggressor_comm\":\"ab\\\"\\\\efghijklmnop\"");
	ASSERT_HAS(out, "preempted by 4300 (ab\\\"\\\\efghijklmnop)\"}");

	/* bytes that are not UTF-8: \xHH on a terminal, U+FFFD in JSON */
	set_comm(procs[0].comm, "\xff\xfe\xc0\xaf");
	check_terminal_safe(TEXT(true, 10));
	ASSERT_HAS(out, "   4301  \\xff\\xfe\\xc0\\xaf  -                         -             Starved  ");
	check_json(JSON(true, 10));
	ASSERT_HAS(out, "\"comm\":\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

/* ---- JSON ------------------------------------------------------------------ */

#define J_INSTANCE "{\"instance\":{\"interval_s\":1.000,\"driver\":\"wq\"," \
		   "\"pinned\":false,\"windows\":57," \
		   "\"enter_windows\":2,\"exit_windows\":3,"

static void test_json_exact(void)
{
	struct hk_proc *p;

	snap_reset();
	ASSERT_STR(JSON(false, 10),
		   J_INSTANCE "\"procs_tracked\":0,\"max_procs\":4096,\"procs_flagged\":0,\"own_cost\":null,\"budget\":null},"
		   "\"flagged\":[],\"top_cpu\":null,\"top_run_delay\":null,"
		   "\"top_rss_growth\":null}\n");
	check_json(out);

	p = add(18217, "yes", HK_CPU_BOUND, 12, 9987, 1536 * HK_KIB);
	p->ev.minor_faults_per_s = 3;
	p->ev.wait_pct_x100 = 12;
	p->ns_pid = 7;
	p->ns_ino = 4026532512ULL;
	ASSERT_STR(JSON(false, 10),
		   J_INSTANCE "\"procs_tracked\":1,\"max_procs\":4096,\"procs_flagged\":1,\"own_cost\":null,\"budget\":null},"
		   "\"flagged\":[{\"pid\":18217,\"comm\":\"yes\",\"ns_pid\":7,"
		   "\"pidns_ino\":4026532512,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"label\":\"cpu_bound\",\"match\":\"cpu_bound\","
		   "\"for_s\":12,\"missed_windows\":0,\"windows\":60,\"quiet\":false,"
		   "\"nr_threads\":1,\"cpu_pct\":99.87,\"run_delay_pct\":0.12,"
		   "\"throttled_pct\":0.00,\"faults_per_s\":3,\"rss_bytes\":1572864,"
		   "\"rss_anon_bytes\":786432,\"rss_growth_bytes_per_s\":0,"
		   "\"rss_slope_bytes_per_s\":0,\"limit_kind\":\"ram\","
		   "\"limit_bytes\":17179869184,\"eta_s\":null,\"aggressor_pid\":null,"
		   "\"aggressor_comm\":null,\"victim_pid\":null,\"victim_comm\":null,"
		   "\"stall\":{\"neighbor_s\":0.000,\"self_s\":0.000,\"quota_s\":0.000,\"steal_irq_s\":0.000,\"weight_s\":0.000,\"reclaim_s\":0.000,\"swapin_s\":0.000,\"refault_s\":0.000,\"io_s\":0.000},"
		   "\"stall_total\":{\"neighbor_s\":0.000,\"self_s\":0.000,\"quota_s\":0.000,\"steal_irq_s\":0.000,\"weight_s\":0.000,\"reclaim_s\":0.000,\"swapin_s\":0.000,\"refault_s\":0.000,\"io_s\":0.000},"
		   "\"evidence\":\"thread 18217 at 100 % of cpu1 · 3 faults/s\"}],"
		   "\"top_cpu\":null,\"top_run_delay\":null,\"top_rss_growth\":null}\n");
	check_json(out);
}

static void test_json_lists(void)
{
	struct hk_proc *p;
	struct tc_json_obj top;
	const char *v;
	size_t at, len;

	snap_reset();
	add(300, "c", HK_OK, 0, 5000, 3 * HK_MIB);
	add(200, "b", HK_OK, 0, 5000, 2 * HK_MIB);
	p = add(4301, "victim", HK_STARVED, 2, 80, HK_MIB);
	p->ev.wait_pct_x100 = 9000;
	p->ev.wait_tid = 4301;
	p->ev.thread_wait_pct_x100 = 9000;
	p->ev.aggressor_tgid = 999;	/* not tracked: its comm is null */
	p->ev.eta_s = 60;
	/* leaving: no FOR, its misses counted */
	p->hyst.cand = HK_OK;
	p->hyst.miss_windows = 1;
	/* quiet: its rates are 0 */
	p = add(600, "quiet", HK_OK, 0, 9000, 6 * HK_MIB);
	p->sample_ns = 1;

	JSON(true, 2);
	CU_ASSERT_PTR_NULL_FATAL(tc_json_line_bad(out, strlen(out), &top, &at));
	v = tc_json_get(&top, "top_cpu", &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	/* 50 % twice: PID 200 before 300; victim's 0.8 % cut by -n 2; the
	 * quiet 90 % is not now's */
	CU_ASSERT_TRUE(len > 12 && !strncmp(v, "[{\"pid\":200,", 12));
	VALUE_HAS(v, len, "},{\"pid\":300,");
	VALUE_LACKS(v, len, "\"pid\":4301");
	VALUE_LACKS(v, len, "\"pid\":600");
	v = tc_json_get(&top, "top_rss_growth", &len);
	CU_ASSERT_TRUE(v && tc_json_is(v, len, "[]"));
	v = tc_json_get(&top, "top_run_delay", &len);
	CU_ASSERT_TRUE(len > 12 && !strncmp(v, "[{\"pid\":4301,", 13));
	v = tc_json_get(&top, "flagged", &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	VALUE_HAS(v, len, "\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"label\":\"starved\",\"match\":\"ok\","
		  "\"for_s\":null,\"missed_windows\":1,");
	VALUE_HAS(v, len, "\"eta_s\":60,\"aggressor_pid\":999,\"aggressor_comm\":null,");
	VALUE_HAS(v, len, "\"evidence\":\"leaving: 1 of 3 windows without it"
		  " \xc2\xb7 thread 4301 waited 90 % of the window for a CPU"
		  " \xc2\xb7 preempted by 999\"}]");
	v = tc_json_get(&top, "instance", &len);
	VALUE_HAS(v, len, "\"procs_flagged\":1,\"own_cost\":null,\"budget\":null}");

	/* the quiet process, listed by -a nowhere, but its rates say 0 where
	 * it is shown: with a label it is in "flagged" */
	p->hyst.label = HK_CPU_BOUND;
	p->hyst.cand = HK_CPU_BOUND;
	p->hyst.cand_windows = 2;
	check_json(JSON(true, 10));
	ASSERT_HAS(out, "{\"pid\":600,\"comm\":\"quiet\",\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"label\":\"cpu_bound\","
		   "\"match\":\"cpu_bound\",\"for_s\":2,\"missed_windows\":0,\"windows\":60,"
		   "\"quiet\":true,\"nr_threads\":1,\"cpu_pct\":0.00,\"run_delay_pct\":0.00,");
}

/* FOR: the run of matching windows times the interval, rounded. */
static void test_for_column(void)
{
	snap_reset();
	snap.cfg.interval_ns = 1500 * HK_NSEC_PER_MSEC;
	add(10, "a", HK_CPU_BOUND, 1, 9900, HK_MIB);	/* 1.5 s -> 2s */
	add(11, "b", HK_CPU_BOUND, 41, 9900, HK_MIB);	/* 61.5 s -> 1m02s */
	add(12, "c", HK_CPU_BOUND, 0xffffffffU, 9900, HK_MIB);
	TEXT(false, 10);
	ASSERT_HAS(out, "     10  a                 -                         -             CPU-bound           2s  ");
	ASSERT_HAS(out, "     11  b                 -                         -             CPU-bound        1m02s  ");
	/* 6442450942.5 s, rounded: 74565 days 9 h */
	ASSERT_HAS(out, "     12  c                 -                         -             CPU-bound       74565d09h  ");
	check_json(JSON(false, 10));
	ASSERT_HAS(out, "\"for_s\":6442450943,");
}

/* who PID 18217 and 300 are, as the command reads it from /proc; the
 * start time handed over with the PID */
static __u64 who_start_ns;

static void fake_who(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns)
{
	memset(w, 0, sizeof(*w));
	who_start_ns = start_boottime_ns;
	if (pid == 18217) {
		strcpy(w->unit, "cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef"
		       "0123456789abcdef.scope");
		strcpy(w->container_id, "0123456789abcdef0123456789abcdef0123456789abcdef"
		       "0123456789abcdef");
		strcpy(w->pod_uid, "1c2d3e4f-aaaa-bbbb-cccc-123456789abc");
	} else if (pid == 300) {
		strcpy(w->unit, "nginx.service");
	}
}

static void test_who_columns(void)
{
	struct hk_proc *p;

	snap_reset();
	snap.who = fake_who;
	p = add(18217, "yes", HK_CPU_BOUND, 12, 9987, 1536 * HK_KIB);
	p->start_boottime_ns = 123456789;
	p = add(300, "nginx", HK_CPU_BOUND, 12, 9987, 1536 * HK_KIB);
	TEXT(false, 10);
	/* the unit cut to 24 columns, the id to 12 as docker ps has it */
	ASSERT_HAS(out, "\n  18217  yes               cri-containerd-01234567~  0123456789ab  CPU-bound ");
	ASSERT_HAS(out, "\n    300  nginx             nginx.service             -             CPU-bound ");
	CU_ASSERT_EQUAL(who_start_ns, 123456789);
	check_json(JSON(false, 10));
	ASSERT_HAS(out, "{\"pid\":18217,\"comm\":\"yes\",\"unit\":\"cri-containerd-"
		   "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope\","
		   "\"container_id\":\"0123456789abcdef0123456789abcdef0123456789abcdef"
		   "0123456789abcdef\",\"pod_uid\":\"1c2d3e4f-aaaa-bbbb-cccc-123456789abc\","
		   "\"label\":\"cpu_bound\"");
	ASSERT_HAS(out, "{\"pid\":300,\"comm\":\"nginx\",\"unit\":\"nginx.service\","
		   "\"container_id\":\"\",\"pod_uid\":\"\",\"label\":");
}

/* The tool's own cost, as the running tool last wrote it into hk_stats. */
/* The stall ledger: the node's CPU wait, then each flagged process's
 * waits since first seen and in its latest window, causes above 0 only;
 * in JSON every cause, in seconds. */
static void test_stall_ledger(void)
{
	struct hk_proc *p;

	snap_reset();
	p = add(18217, "yes", HK_THROTTLED, 12, 2000, 1536 * HK_KIB);
	p->ev.stall_ns.ns[HK_STALL_QUOTA] = 11 * HK_NSEC_PER_SEC;
	p->ev.stall_ns.ns[HK_STALL_SELF] = 1340 * HK_NSEC_PER_MSEC;
	p->ev.stall_ns.ns[HK_STALL_IO] = 5 * HK_NSEC_PER_MSEC;	/* under 0.01 s */
	p->ev.stall_win.ns[HK_STALL_QUOTA] = 850 * HK_NSEC_PER_MSEC;
	snap.stats.node_cpu_wait_ns[HK_STALL_QUOTA] = 11 * HK_NSEC_PER_SEC;
	snap.stats.node_cpu_wait_ns[HK_STALL_NEIGHBOR] = 250 * HK_NSEC_PER_MSEC;
	TEXT(false, 10);
	ASSERT_HAS(out, "\nnode CPU wait since the start: 11.25 s: neighbor 0.25, quota 11.00\n"
		   "\nwaited since first seen, by cause (seconds):\n"
		   "  18217  yes waited 12.34 s: self 1.34, quota 11.00; "
		   "last window 0.85 s: quota 0.85\n");
	check_terminal_safe(out);
	JSON(false, 10);
	ASSERT_HAS(out, "\"stall\":{\"neighbor_s\":0.000,\"self_s\":0.000,"
		   "\"quota_s\":0.850,");
	ASSERT_HAS(out, "\"stall_total\":{\"neighbor_s\":0.000,\"self_s\":1.340,"
		   "\"quota_s\":11.000,\"steal_irq_s\":0.000,\"weight_s\":0.000,"
		   "\"reclaim_s\":0.000,\"swapin_s\":0.000,\"refault_s\":0.000,"
		   "\"io_s\":0.005}");
	check_json(out);
	/* all 0: no such lines */
	snap_reset();
	add(18217, "yes", HK_THROTTLED, 12, 2000, 1536 * HK_KIB);
	TEXT(false, 10);
	CU_ASSERT_PTR_NULL(strstr(out, "waited since first seen"));
	CU_ASSERT_PTR_NULL(strstr(out, "yes waited"));
	CU_ASSERT_PTR_NULL(strstr(out, "node CPU wait"));
}

static void test_own_cost(void)
{
	struct hk_cost *c = &snap.stats.cost;

	snap_reset();
	c->source = HK_COST_STATS;
	c->lifetime_ns = 120 * HK_NSEC_PER_SEC;
	c->start_cpu_ns = 612 * HK_NSEC_PER_MSEC;
	c->walk_cpu_ns = 9 * HK_NSEC_PER_MSEC;
	c->user_cpu_ns = 3 * HK_NSEC_PER_MSEC;
	c->exit_runs = 1000;
	c->exit_run_ns = 300 * HK_NSEC_PER_USEC;
	c->total_ns = c->walk_cpu_ns + c->user_cpu_ns + c->exit_run_ns;
	ASSERT_STR(TEXT(false, 10),
		   INSTANCE "0 of 4096 processes tracked, 0 flagged\n"
		   "own cost 12.300 ms CPU in 120 s (0.0102 % of one CPU; measured: "
		   "BPF_ENABLE_STATS), start apart (612.000 ms: load, verifier, first walk): "
		   "walks 9.000 ms, userspace 3.000 ms, sched_switch hook 0 runs 0.000 ms "
		   "(attached 0 times, 0 s in all), exit hook 1000 runs 0.300 ms, fork hook 0 "
		   "runs 0.000 ms, OOM hook 0 runs\n"
		   "no process flagged\n");
	check_json(JSON(false, 10));
	ASSERT_HAS(out, "\"procs_flagged\":0,\"own_cost\":{\"source\":\"stats\","
		   "\"lifetime_ns\":120000000000,\"start_cpu_ns\":612000000,"
		   "\"cpu_ns\":12300000,\"walk_cpu_ns\":9000000,\"user_cpu_ns\":3000000,"
		   "\"hook_attached\":false,\"hook_attaches\":0,\"hook_attached_ns\":0,"
		   "\"hook_attach_ns_max\":0,\"hook_runs\":0,\"hook_run_ns\":0,"
		   "\"exit_runs\":1000,\"exit_run_ns\":300000,\"oom_runs\":0,"
		   "\"oom_run_ns\":0,\"fork_runs\":0,\"fork_run_ns\":0},\"budget\":null}");
	c->source = HK_COST_ESTIMATE;
	c->hook_attached = 1;
	JSON(false, 10);
	ASSERT_HAS(out, "\"own_cost\":{\"source\":\"estimate\",");
	ASSERT_HAS(out, "\"hook_attached\":true,");
	/* [budget], as the tool last judged it: a line, an object */
	snap.stats.budget = (struct hk_budget_use){ .step = 3, .degrades = 3, .recovers = 1,
		.cpu_pct_x100 = 310, .cpu_budget_pct_x100 = 100, .rss_bytes = 9 * HK_MIB,
		.rss_budget_bytes = 16 * HK_MIB };
	TEXT(false, 10);
	ASSERT_HAS(out, "OOM hook 0 runs\nbudget: step 3 of 5 (windows x 2): own CPU 3.1% of "
		   "one CPU (budget 1%), RSS 9MiB (budget 16MiB); 3 steps down, 1 back\n"
		   "no process flagged\n");
	check_json(JSON(false, 10));
	ASSERT_HAS(out, "\"budget\":{\"step\":3,\"step_name\":\"windows x 2\","
		   "\"steps_down\":3,\"steps_up\":1,\"cpu_pct_x100\":310,"
		   "\"cpu_budget_pct_x100\":100,\"rss_bytes\":9437184,"
		   "\"rss_budget_bytes\":16777216}}");
}

int hk_add_status_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "table: none flagged", test_table_empty },
		{ "table: one flagged", test_table_one },
		{ "table: several flagged, by severity", test_table_several },
		{ "-a: top lists, order and ties", test_top_order_and_ties },
		{ "hostile comms", test_hostile_comm },
		{ "json: exact", test_json_exact },
		{ "json: lists", test_json_lists },
		{ "FOR column", test_for_column },
		{ "UNIT and CONTAINER", test_who_columns },
		{ "own cost", test_own_cost },
		{ "stall ledger", test_stall_ledger },
	};

	return HK_ADD_SUITE("status", tests);
}
