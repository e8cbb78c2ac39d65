// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_format_json.c - the JSON line of every transition, byte for byte:
 * every field, in its order, with its value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "format_fixtures.h"
#include "shared/classify.h"
#include "suites.h"

/* a stall ledger of nothing (the window's, or the running total) */
#define J_STALL0 "{\"neighbor_s\":0.000,\"self_s\":0.000,\"quota_s\":0.000,\"steal_irq_s\":0.000,\"weight_s\":0.000,\"reclaim_s\":0.000,\"swapin_s\":0.000,\"refault_s\":0.000,\"io_s\":0.000}"
#define J_NOSTALL ",\"stall\":" J_STALL0 ",\"stall_total\":" J_STALL0
/* what only a stall in reclaim says (its growers), null in every other
 * transition; what only an oom_killed says, likewise (both after the stall
 * ledger, which every transition has) */
#define J_NOGROW ",\"limit_growth_bytes\":null,\"growers\":null,\"growers_cut\":null"
#define J_NOOOM J_NOSTALL J_NOGROW ",\"oom_memcg\":null,\"oom_memcg_id\":null,\"oom_limit_bytes\":null," \
		"\"oom_usage_bytes\":null,\"flagged\":null,\"flagged_for_s\":null," \
		"\"tracked\":null}\n"
#define J_NOPEERS ",\"aggressor_pid\":null,\"aggressor_comm\":null," \
		  "\"victim_pid\":null,\"victim_comm\":null,\"victim_deprioritised\":false" J_NOOOM
/* the RSS and limit of ev_base() */
#define J_QUIET_MEM "\"rss_bytes\":10485760,\"rss_anon_bytes\":8388608,\"swap_bytes\":0," \
		    "\"rss_growth_bytes_per_s\":0,\"rss_slope_bytes_per_s\":0," \
		    "\"rss_net_growth_bytes\":0,\"rss_trend_s\":0.000,\"rss_growing_s\":0.000," \
		    "\"trend_samples\":0," \
		    "\"limit_kind\":\"ram\",\"limit_bytes\":8589934592," \
		    "\"headroom_bytes\":8579448832,\"limit_levels_unread\":0,\"eta_s\":null,\"memcg_id\":1," \
		    "\"mem_high_bytes\":0,\"mem_high_usage_bytes\":0,\"mem_high_file_bytes\":0," \
		    "\"mem_high_events_per_s\":0,\"mem_high_cgroup_id\":0,\"mem_stalled\":false,\"memory_stall_pct\":0.00,\"memory_stall_tid\":0,\"stall_source\":\"delayacct\""

static void test_json_oom_risk(void)
{
	struct hk_event e;

	ev_oom(&e);
	ASSERT_STR(json(&e, "/user.slice/user-1000.slice"),
		   J_TIME "\"pid\":4242,\"comm\":\"python3\",\"from\":\"ok\","
		   "\"to\":\"oom_risk\",\"cgroup\":\"/user.slice/user-1000.slice\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":3.50,"
		   "\"thread_cpu_pct\":3.00,\"thread_queued_pct\":0.25,"
		   "\"thread_tid\":4243,\"thread_cpu\":2,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":0.12,\"thread_run_delay_pct\":0.10,"
		   "\"run_delay_tid\":4244,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":4,\"faults_per_s\":9700,\"minor_faults_per_s\":9700,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":12,\"ivcsw_per_s\":3,\"rss_bytes\":1300000000,"
		   "\"rss_anon_bytes\":1200000000,\"swap_bytes\":0,"
		   "\"rss_growth_bytes_per_s\":40000000,"
		   "\"rss_slope_bytes_per_s\":42991616,"
		   "\"rss_net_growth_bytes\":503316480,\"rss_trend_s\":12.000,\"rss_growing_s\":95.000,"
		   "\"trend_samples\":7,"
		   "\"limit_kind\":\"ram\",\"limit_bytes\":25125000000,"
		   "\"headroom_bytes\":23825000000,\"limit_levels_unread\":0,\"eta_s\":554,\"memcg_id\":1,"
		   "\"mem_high_bytes\":0,\"mem_high_usage_bytes\":0,\"mem_high_file_bytes\":0,"
		   "\"mem_high_events_per_s\":0,\"mem_high_cgroup_id\":0,\"mem_stalled\":false,\"memory_stall_pct\":0.00,\"memory_stall_tid\":0,\"stall_source\":\"delayacct\""
		   J_NOPEERS);
}

static void test_json_mem_thrashing(void)
{
	struct hk_event e;

	ev_thrash(&e);
	e.ev.window_ns = 1999499999;	/* rounds to 1.999 */
	e.ev.rss_slope_bytes_per_s = -2 * (__s64)HK_MIB;
	e.ev.rss_trend_ms = 7005;
	/* in a container: its own PID and namespace too */
	e.ns_pid = 7;
	e.ns_ino = 4026532512ULL;
	ASSERT_STR(json(&e, "/kubepods/pod1"),
		   J_TIME "\"pid\":5100,\"comm\":\"thrash\",\"from\":\"ok\","
		   "\"to\":\"mem_thrashing\",\"cgroup\":\"/kubepods/pod1\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"ns_pid\":7,\"pidns_ino\":4026532512,"
		   "\"windows\":12,\"window_s\":1.999,\"cpu_pct\":25.00,"
		   "\"thread_cpu_pct\":25.00,\"thread_queued_pct\":0.00,"
		   "\"thread_tid\":5100,\"thread_cpu\":0,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":0.00,\"thread_run_delay_pct\":0.00,"
		   "\"run_delay_tid\":0,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":1,\"faults_per_s\":12348,\"minor_faults_per_s\":12345,"
		   "\"major_faults_per_s\":3,\"unexplained_faults_per_s\":11900,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2,\"rss_bytes\":10485760,"
		   "\"rss_anon_bytes\":8388608,\"swap_bytes\":0,"
		   "\"rss_growth_bytes_per_s\":-4096,"
		   "\"rss_slope_bytes_per_s\":-2097152,"
		   "\"rss_net_growth_bytes\":-65536,\"rss_trend_s\":7.005,\"rss_growing_s\":0.000,"
		   "\"trend_samples\":3,"
		   "\"limit_kind\":\"memcg\",\"limit_bytes\":536870912,"
		   "\"headroom_bytes\":526385152,\"limit_levels_unread\":0,\"eta_s\":null,\"memcg_id\":77,"
		   "\"mem_high_bytes\":0,\"mem_high_usage_bytes\":0,\"mem_high_file_bytes\":0,"
		   "\"mem_high_events_per_s\":0,\"mem_high_cgroup_id\":0,\"mem_stalled\":false,\"memory_stall_pct\":0.00,\"memory_stall_tid\":0,\"stall_source\":\"delayacct\""
		   J_NOPEERS);
}

static void test_json_throttled(void)
{
	struct hk_event e;

	ev_throttled(&e);
	ASSERT_STR(json(&e, "/kubepods/burstable/pod7"),
		   J_TIME "\"pid\":4400,\"comm\":\"java\",\"from\":\"ok\","
		   "\"to\":\"throttled\",\"cgroup\":\"/kubepods/burstable/pod7\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":200.00,"
		   "\"thread_cpu_pct\":25.00,\"thread_queued_pct\":8.00,"
		   "\"thread_tid\":4401,\"thread_cpu\":3,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":210.00,\"thread_run_delay_pct\":41.00,"
		   "\"run_delay_tid\":4410,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":125.00,\"throttled_per_cpu_pct\":62.50,\"cpus_allowed\":8,\"usable_cpus\":2.00,\"quota_cpus\":2.00,\"quota_cgroup_id\":4242,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":8,\"faults_per_s\":0,\"minor_faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM J_NOPEERS);

	/* and back */
	e.from = HK_THROTTLED;
	e.to = HK_OK;
	e.ev.throttled_pct_x100 = 1;
	ASSERT_HAS(json(&e, NULL),
		   "\"from\":\"throttled\",\"to\":\"ok\",\"cgroup\":null,\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\",");
	ASSERT_HAS(fmt_out,
		   ",\"run_delay_tid\":4410,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.01,\"throttled_per_cpu_pct\":62.50,\"cpus_allowed\":8,\"usable_cpus\":2.00,\"quota_cpus\":2.00,\"quota_cgroup_id\":4242,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\",\"nr_threads\":8,");
}

static void test_json_starved(void)
{
	struct hk_event e;

	ev_starved(&e);
	ASSERT_STR(json(&e, NULL),
		   J_TIME "\"pid\":4301,\"comm\":\"bash\",\"from\":\"ok\","
		   "\"to\":\"starved\",\"cgroup\":null,\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":0.80,"
		   "\"thread_cpu_pct\":0.80,\"thread_queued_pct\":0.00,"
		   "\"thread_tid\":4301,\"thread_cpu\":0,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":97.50,\"thread_run_delay_pct\":97.00,"
		   "\"run_delay_tid\":4302,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":2,\"faults_per_s\":0,\"minor_faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM
		   ",\"aggressor_pid\":4300,\"aggressor_comm\":\"bash\","
		   "\"victim_pid\":null,\"victim_comm\":null,\"victim_deprioritised\":false" J_NOOOM);
}

static void test_json_noisy_neighbor(void)
{
	struct hk_event e;

	ev_noisy(&e);
	e.ev.thread_queued_pct_x100 = 150;
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4300,\"comm\":\"bash\",\"from\":\"ok\","
		   "\"to\":\"noisy_neighbor\",\"cgroup\":\"/\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":98.00,"
		   "\"thread_cpu_pct\":98.00,\"thread_queued_pct\":1.50,"
		   "\"thread_tid\":4300,\"thread_cpu\":0,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":1.50,\"thread_run_delay_pct\":0.00,"
		   "\"run_delay_tid\":0,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":1,\"faults_per_s\":0,\"minor_faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM
		   ",\"aggressor_pid\":null,\"aggressor_comm\":null,"
		   "\"victim_pid\":4301,\"victim_comm\":\"bash\",\"victim_deprioritised\":false" J_NOOOM);
}

/* What the waiting thread asked for; the Noisy neighbor's victim. */
static void test_json_deprioritised(void)
{
	struct hk_event e;

	ev_starved(&e);
	e.ev.wait_nice = 19;
	e.ev.wait_group_weight = 100;
	ASSERT_HAS(json(&e, NULL),
		   "\"run_delay_tid\":4302,\"wait_nice\":19,\"wait_policy\":\"normal\","
		   "\"wait_group_weight\":100,\"wait_group_idle\":false,");
	ASSERT_HAS(fmt_out, "\"victim_deprioritised\":false,");
	e.ev.wait_nice = -20;
	e.ev.wait_policy = HK_SCHED_IDLE;
	e.ev.wait_group_weight = 1;
	e.ev.wait_group_idle = 1;
	ASSERT_HAS(json(&e, NULL),
		   "\"wait_nice\":-20,\"wait_policy\":\"idle\","
		   "\"wait_group_weight\":1,\"wait_group_idle\":true,");
	e.ev.wait_policy = HK_SCHED_BATCH;
	ASSERT_HAS(json(&e, NULL), "\"wait_policy\":\"batch\",");
	e.ev.wait_policy = HK_SCHED_DEADLINE;
	ASSERT_HAS(json(&e, NULL), "\"wait_policy\":\"deadline\",");
	e.ev.wait_policy = 4;	/* no such policy today: the number */
	ASSERT_HAS(json(&e, NULL), "\"wait_policy\":4,");

	ev_noisy(&e);
	e.ev.victim_deprioritised = 0x1301;
	ASSERT_HAS(json(&e, NULL),
		   "\"victim_pid\":4301,\"victim_comm\":\"bash\",\"victim_deprioritised\":true,");
	e.ev.cpu_lost_pct_x100 = 1411;
	ASSERT_HAS(json(&e, NULL), "\"thread_cpu\":0,\"thread_cpu_lost_pct\":14.11,");
}

static void test_json_cpu_bound(void)
{
	struct hk_event e;

	ev_cpu(&e);
	e.ev.cpu_pct_x100 = 19712;
	e.ev.nr_threads = 3;
	/* the busiest thread and the one that waited most differ */
	e.ev.thread_queued_pct_x100 = 4321;
	e.ev.wait_pct_x100 = 9000;
	e.ev.wait_tid = 4251;
	e.ev.thread_wait_pct_x100 = 4500;
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4250,\"comm\":\"yes\",\"from\":\"ok\","
		   "\"to\":\"cpu_bound\",\"cgroup\":\"/\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":197.12,"
		   "\"thread_cpu_pct\":99.00,\"thread_queued_pct\":43.21,"
		   "\"thread_tid\":4250,\"thread_cpu\":1,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":90.00,\"thread_run_delay_pct\":45.00,"
		   "\"run_delay_tid\":4251,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":3,\"faults_per_s\":0,\"minor_faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM J_NOPEERS);
}

static void test_json_ok(void)
{
	struct hk_event e;

	ev_ok(&e);
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4250,\"comm\":\"yes\",\"from\":\"cpu_bound\","
		   "\"to\":\"ok\",\"cgroup\":\"/\",\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":3.00,"
		   "\"thread_cpu_pct\":3.00,\"thread_queued_pct\":0.00,"
		   "\"thread_tid\":4250,\"thread_cpu\":1,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":0.00,\"thread_run_delay_pct\":0.00,"
		   "\"run_delay_tid\":0,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":1,\"faults_per_s\":0,\"minor_faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM J_NOPEERS);
}

static void test_json_exited(void)
{
	struct hk_event e;

	ev_exited(&e);
	e.ev.eta_s = 0;		/* zero is a number, not null */
	ASSERT_STR(json(&e, NULL),
		   J_TIME "\"pid\":4242,\"comm\":\"python3\",\"from\":\"oom_risk\","
		   "\"to\":\"exited\",\"cgroup\":null,\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\","
		   "\"windows\":31,\"window_s\":1.000,\"cpu_pct\":3.50,"
		   "\"thread_cpu_pct\":3.00,\"thread_queued_pct\":0.25,"
		   "\"thread_tid\":4243,\"thread_cpu\":2,\"thread_cpu_lost_pct\":0.00,"
		   "\"run_delay_pct\":0.12,\"thread_run_delay_pct\":0.10,"
		   "\"run_delay_tid\":4244,"
		   "\"wait_nice\":0,\"wait_policy\":\"normal\",\"wait_group_weight\":0,"
		   "\"wait_group_idle\":false,\"throttled_pct\":0.00,\"throttled_per_cpu_pct\":0.00,\"cpus_allowed\":0,\"usable_cpus\":0.00,\"quota_cpus\":0.00,\"quota_cgroup_id\":0,\"io_blocked_pct\":0.00,"
		   "\"thread_io_blocked_pct\":0.00,\"io_blocked_tid\":0,\"io_bytes_per_s\":null,\"io_stuck_threads\":0,\"io_source\":\"delayacct\","
		   "\"nr_threads\":4,\"faults_per_s\":9700,\"minor_faults_per_s\":9700,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":12,\"ivcsw_per_s\":3,\"rss_bytes\":1300000000,"
		   "\"rss_anon_bytes\":1200000000,\"swap_bytes\":0,"
		   "\"rss_growth_bytes_per_s\":40000000,"
		   "\"rss_slope_bytes_per_s\":42991616,"
		   "\"rss_net_growth_bytes\":503316480,\"rss_trend_s\":12.000,\"rss_growing_s\":95.000,"
		   "\"trend_samples\":7,"
		   "\"limit_kind\":\"ram\",\"limit_bytes\":25125000000,"
		   "\"headroom_bytes\":23825000000,\"limit_levels_unread\":0,\"eta_s\":0,\"memcg_id\":1,"
		   "\"mem_high_bytes\":0,\"mem_high_usage_bytes\":0,\"mem_high_file_bytes\":0,"
		   "\"mem_high_events_per_s\":0,\"mem_high_cgroup_id\":0,\"mem_stalled\":false,\"memory_stall_pct\":0.00,\"memory_stall_tid\":0,\"stall_source\":\"delayacct\""
		   J_NOPEERS);
}

/* a stall in reclaim: the growers under its limit, the largest first */
static void test_json_growers(void)
{
	struct hk_mem_blame b = { .n = 2, .looked = 1, .limit_growth_bytes = 90 * HK_MIB,
				  .cut = 3 };
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	b.g[0] = (struct hk_grower){ .tgid = 4242, .share_pct_x100 = 8600,
				     .growth_bytes = 86 * HK_MIB };
	set_comm(b.g[0].comm, "leak\"x");
	b.g[1] = (struct hk_grower){ .tgid = 300, .share_pct_x100 = 1400,
				     .growth_bytes = 14 * HK_MIB };
	c.blame = &b;
	ev_thrash(&e);
	CU_ASSERT(hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c) > 0);
	ASSERT_HAS(fmt_out, "\"victim_deprioritised\":false" J_NOSTALL ",\"limit_growth_bytes\":94371840,"
		   "\"growers\":[{\"pid\":4242,\"comm\":\"leak\\\"x\",\"growth_bytes\":90177536,"
		   "\"share_pct\":86.00},{\"pid\":300,\"comm\":\"\",\"growth_bytes\":14680064,"
		   "\"share_pct\":14.00}],\"growers_cut\":3,\"oom_memcg\":null,");
	/* sought, nobody grew: an empty list, not null */
	b.n = 0;
	CU_ASSERT(hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c) > 0);
	ASSERT_HAS(fmt_out, ",\"growers\":[],\"growers_cut\":3,");
}

static void test_json_ns_fields(void)
{
	struct hk_event e;

	ev_cpu(&e);
	e.ns_pid = 1;
	CU_ASSERT_PTR_NULL(strstr(json(&e, NULL), "ns_pid"));
	CU_ASSERT_PTR_NULL(strstr(fmt_out, "pidns_ino"));
	e.ns_ino = 4026531836ULL;
	ASSERT_HAS(json(&e, NULL),
		   "\"cgroup\":null,\"cgroup_truncated\":false,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\",\"ns_pid\":1,\"pidns_ino\":4026531836,"
		   "\"windows\":12,");
}

static void test_json_extremes(void)
{
	struct hk_event e;

	ev_oom(&e);
	e.tgid = 0xffffffffU;
	e.ev.window_ns = UINT64_MAX;
	e.ev.cpu_pct_x100 = 0xffffffffU;
	e.ev.thread_queued_pct_x100 = 0xffffffffU;
	e.ev.wait_tid = 0xffffffffU;
	e.ev.wait_nice = INT32_MIN;
	e.ev.wait_policy = 0xffffffffU;	/* no name: the number */
	e.ev.wait_group_weight = 0xffffffffU;
	e.ev.wait_group_idle = 0xffffffffU;
	e.ev.victim_deprioritised = 0xffffffffU;
	e.ev.cpu_lost_pct_x100 = 0xffffffffU;
	e.ev.throttled_pct_x100 = 0xfffffffeU;
	e.ev.rss_bytes = UINT64_MAX;
	e.ev.rss_anon_bytes = UINT64_MAX - 1;
	e.ev.rss_growth_bytes_per_s = INT64_MIN;
	e.ev.rss_slope_bytes_per_s = INT64_MAX;
	e.ev.rss_net_growth_bytes = INT64_MIN;
	e.ev.rss_trend_ms = UINT64_MAX;
	e.ev.rss_growing_ms = 0xffffffffU;
	e.ev.trend_samples = 0xffffffffU;
	e.ev.eta_s = UINT64_MAX - 1;
	e.ev.limit_kind = 9;
	json(&e, NULL);
	ASSERT_HAS(fmt_out, "\"pid\":4294967295,");
	ASSERT_HAS(fmt_out, "\"window_s\":18446744073.710,");
	ASSERT_HAS(fmt_out, "\"cpu_pct\":42949672.95,");
	ASSERT_HAS(fmt_out, "\"thread_queued_pct\":42949672.95,");
	ASSERT_HAS(fmt_out, "\"run_delay_tid\":4294967295,"
		   "\"wait_nice\":-2147483648,\"wait_policy\":4294967295,"
		   "\"wait_group_weight\":4294967295,\"wait_group_idle\":true,");
	ASSERT_HAS(fmt_out, "\"thread_cpu_lost_pct\":42949672.95,");
	ASSERT_HAS(fmt_out, "\"victim_deprioritised\":true,");
	ASSERT_HAS(fmt_out, "\"throttled_pct\":42949672.94,");
	ASSERT_HAS(fmt_out, "\"rss_bytes\":18446744073709551615,");
	ASSERT_HAS(fmt_out, "\"rss_anon_bytes\":18446744073709551614,");
	ASSERT_HAS(fmt_out, "\"rss_growth_bytes_per_s\":-9223372036854775808,");
	ASSERT_HAS(fmt_out, "\"rss_slope_bytes_per_s\":9223372036854775807,");
	ASSERT_HAS(fmt_out, "\"rss_net_growth_bytes\":-9223372036854775808,");
	ASSERT_HAS(fmt_out, "\"rss_trend_s\":18446744073709551.615,");
	ASSERT_HAS(fmt_out, "\"rss_growing_s\":4294967.295,");
	ASSERT_HAS(fmt_out, "\"trend_samples\":4294967295,");
	ASSERT_HAS(fmt_out, "\"limit_kind\":\"unknown\",");
	ASSERT_HAS(fmt_out, "\"eta_s\":18446744073709551614,");
	e.ev.rss_net_growth_bytes = INT64_MAX;
	ASSERT_HAS(json(&e, NULL), "\"rss_net_growth_bytes\":9223372036854775807,");
}

static void test_json_time_offset(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_cpu(&e);
	c.utc = 0;
	setenv("TZ", "XXX-1", 1);
	tzset();
	hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c);
	ASSERT_HAS(fmt_out, "{\"time\":\"2026-11-22T06:21:36.123+01:00\",");
	setenv("TZ", "XXX+5:30", 1);	/* five and a half hours west */
	tzset();
	hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c);
	ASSERT_HAS(fmt_out, "{\"time\":\"2026-11-21T23:51:36.123-05:30\",");
	setenv("TZ", "UTC", 1);
	tzset();
	/* local time at offset zero is written with Z */
	hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c);
	ASSERT_HAS(fmt_out, "{\"time\":\"2026-11-22T05:21:36.123Z\",");
}

/* who the process is, and the cgroups its evidence names, as given */
static void test_json_workload(void)
{
	static const struct hk_workload wl = {
		.unit = "cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
		.container_id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		.pod_uid = "1c2d3e4f-aaaa-bbbb-cccc-123456789abc",
	};
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_throttled(&e);
	c.workload = &wl;
	c.quota_cgroup = "/kubepods.slice/kubepods-burstable.slice";
	c.mem_high_cgroup = "/a\"b";
	hk_format__json(fmt_out, sizeof(fmt_out), &e, "/kubepods/burstable/pod7", &c);
	ASSERT_HAS(fmt_out, "\"cgroup\":\"/kubepods/burstable/pod7\",\"cgroup_truncated\":false,"
		   "\"unit\":\"cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef"
		   "0123456789abcdef.scope\",\"container_id\":\"0123456789abcdef0123456789abcdef"
		   "0123456789abcdef0123456789abcdef\",\"pod_uid\":\"1c2d3e4f-aaaa-bbbb-cccc-"
		   "123456789abc\",\"quota_cgroup\":\"/kubepods.slice/kubepods-burstable.slice\","
		   "\"mem_high_cgroup\":\"/a\\\"b\",\"windows\":12,");
}

int hk_add_format_json_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "json oom_risk", test_json_oom_risk },
		{ "json mem_thrashing", test_json_mem_thrashing },
		{ "json throttled", test_json_throttled },
		{ "json starved", test_json_starved },
		{ "json noisy_neighbor", test_json_noisy_neighbor },
		{ "json cpu_bound", test_json_cpu_bound },
		{ "json deprioritised", test_json_deprioritised },
		{ "json ok", test_json_ok },
		{ "json exited", test_json_exited },
		{ "json growers", test_json_growers },
		{ "json ns fields", test_json_ns_fields },
		{ "json extremes", test_json_extremes },
		{ "json time offset", test_json_time_offset },
		{ "json unit, container, pod, cgroups by id", test_json_workload },
	};

	return HK_ADD_SUITE("format json", tests);
}
