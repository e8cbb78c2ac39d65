// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Classifier: the rules of include/shared/classify.h, the very header the
 * BPF object compiles: every threshold at its boundary, the order in which
 * the diagnoses win, the windows a match needs. Rates, the trend and the
 * window step are in test_window_step.c, the scenarios of tests/vectors/
 * in test_vectors.c.
 */
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/classify.h"
#include "config/config.h"
#include "suites.h"
#include "check.h"



/* --- thresholds ------------------------------------------------------------ */

static struct hk_config cfg;

static void vec_config(void)
{
	hkv_config(&cfg);
}

/* Steady growth now, over a trend long enough, reaching the limit within
 * the horizon, for long enough: OOM risk; each field then breaks it. */
static void oom_base(struct hk_evidence *ev)
{
	hk_oom_evidence(&cfg, ev);
}

static void test_config_under_test(void)
{
	vec_config();
	/* the vectors were computed for these: fail loudly if they move */
	EQ(cfg.interval_ns, 1 * HK_NSEC_PER_SEC);
	EQ(cfg.enter_windows, 2);
	EQ(cfg.exit_windows, 3);
	EQ(cfg.oom_trend_span_ns, 30 * HK_NSEC_PER_SEC);
	EQ(cfg.oom_min_trend_ns, 10 * HK_NSEC_PER_SEC);
	EQ(cfg.trend_stride_ns, 3785714285ULL);
	EQ(cfg.oom_min_growth_bytes, 64 * HK_MIB);
	EQ(cfg.oom_steady_pct_x100, 7500);
	EQ(cfg.oom_eta_horizon_s, 900);
	EQ(cfg.oom_eta_share_pct_x100, 2500);
	EQ(cfg.oom_eta_floor_s, 120);
	EQ(cfg.thrash_major_faults_per_s, 100);
	EQ(cfg.thrash_minor_faults_per_s, 10000);
	EQ(cfg.thrash_stall_pct_x100, 1000);
	EQ(cfg.throttled_pct_x100, 2500);
	EQ(cfg.starved_wait_pct_x100, 7000);
	EQ(cfg.watch_wait_pct_x100, 7000);
	EQ(cfg.noisy_cpu_pct_x100, 5000);
	EQ(cfg.cpu_thread_pct_x100, 9000);
	EQ(cfg.cpu_total_pct_x100, 5000);
	EQ(cfg.cpu_max_faults_per_s, 1000);
	EQ(HK_TREND_MIN_SAMPLES, 3);
}

#define CLASSIFY(ev, want) \
	check_label(hk_classify(&cfg, &(ev)), (want), __LINE__, "hk_classify, %s", what)

/* What a waiting thread asked for, as the hk_deprio() word: exact. */
static void test_deprio(void)
{
	struct hk_evidence ev;

	memset(&ev, 0, sizeof(ev));
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0);		/* nice 0, normal, root */
	ev.wait_group_weight = 100;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0);		/* the default weight */
	ev.wait_group_weight = 10000;
	ev.wait_nice = -20;
	ev.wait_policy = HK_SCHED_FIFO;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0);		/* asked for more */
	memset(&ev, 0, sizeof(ev));
	ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0x1301);	/* NICE | 19 << 8 */
	ev.wait_nice = 1;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0x0101);
	memset(&ev, 0, sizeof(ev));
	ev.wait_policy = HK_SCHED_BATCH;
	CU_ASSERT_EQUAL(hk_deprio(&ev), HK_DEPRIO_BATCH);
	ev.wait_policy = HK_SCHED_IDLE;
	ev.wait_group_idle = 1;
	CU_ASSERT_EQUAL(hk_deprio(&ev), HK_DEPRIO_IDLE | HK_DEPRIO_GROUP_IDLE);
	memset(&ev, 0, sizeof(ev));
	ev.wait_group_weight = 99;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0x630010);	/* WEIGHT | 99 << 16 */
	ev.wait_group_weight = 1;
	ev.wait_nice = 19;
	CU_ASSERT_EQUAL(hk_deprio(&ev), 0x11311);	/* both, each with its value */
}

/* tg->shares as cpu.weight, as the kernel's cpu.weight file shows them. */
static void test_cgroup_weight(void)
{
	CU_ASSERT_EQUAL(hk_cgroup_weight(1024ULL << 10), 100);	/* cpu.shares 1024 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(512ULL << 10), 50);	/* cpu.weight 50 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(10ULL << 10), 1);	/* cpu.weight 1 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(15ULL << 10), 1);	/* autogroup nice 19 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(2ULL << 10), 1);	/* cpu.shares 2 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(3ULL), 1);		/* below the floor */
	CU_ASSERT_EQUAL(hk_cgroup_weight(102400ULL << 10), 10000);	/* weight 10000 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(262144ULL << 10), 10000);	/* shares 262144 */
	CU_ASSERT_EQUAL(hk_cgroup_weight(1587ULL << 10), 155);	/* 154.98 rounds up */
}

/* Steal + IRQ time of the thread's CPU: its part, and the hunger rule. */
static void test_cpu_lost(void)
{
	struct hk_evidence ev;
	struct hk_sample s;
	const char *what;

	vec_config();
	memset(&s, 0, sizeof(s));
	memset(&ev, 0, sizeof(ev));
	/* a busy loop at 80 % of a CPU that lost 15 % of a 1 s window:
	 * 1500 * 8000 / 8500 = 1411 */
	ev.thread_cpu_pct_x100 = 8000;
	ev.cpu_pct_x100 = 8000;
	s.cpu_lost_delta_ns = 150 * HK_NSEC_PER_MSEC;
	hk_cpu_lost_share(&s, HK_NSEC_PER_SEC, &ev);
	CU_ASSERT_EQUAL(ev.cpu_lost_pct_x100, 1411);
	what = "80 % + 15 % steal";
	CLASSIFY(ev, HK_CPU_BOUND);
	s.cpu_lost_delta_ns = 0;
	hk_cpu_lost_share(&s, HK_NSEC_PER_SEC, &ev);
	CU_ASSERT_EQUAL(ev.cpu_lost_pct_x100, 0);
	what = "80 % and no steal";
	CLASSIFY(ev, HK_OK);
	/* a thread at 10 % of a CPU that lost 85 %: 8500 * 1000 / 1500 */
	ev.thread_cpu_pct_x100 = 1000;
	s.cpu_lost_delta_ns = 850 * HK_NSEC_PER_MSEC;
	hk_cpu_lost_share(&s, HK_NSEC_PER_SEC, &ev);
	CU_ASSERT_EQUAL(ev.cpu_lost_pct_x100, 5666);
	/* never past the window: 60 % ran, 30 % queued, 50 % lost -> 10 % */
	ev.thread_cpu_pct_x100 = 6000;
	ev.thread_queued_pct_x100 = 3000;
	s.cpu_lost_delta_ns = 500 * HK_NSEC_PER_MSEC;
	hk_cpu_lost_share(&s, HK_NSEC_PER_SEC, &ev);
	CU_ASSERT_EQUAL(ev.cpu_lost_pct_x100, 1000);
	/* a CPU that lost the whole window gives no share */
	ev.thread_cpu_pct_x100 = 0;
	ev.thread_queued_pct_x100 = 0;
	s.cpu_lost_delta_ns = 2 * HK_NSEC_PER_SEC;
	hk_cpu_lost_share(&s, HK_NSEC_PER_SEC, &ev);
	CU_ASSERT_EQUAL(ev.cpu_lost_pct_x100, 0);
}

static void test_classify_oom(void)
{
	struct hk_evidence ev;
	const char *what;

	vec_config();
	what = "steady, long enough, ETA at the horizon";
	oom_base(&ev);
	CLASSIFY(ev, HK_OOM_RISK);
	what = "this window did not grow";
	oom_base(&ev);
	ev.rss_growth_bytes_per_s = 0;
	CLASSIFY(ev, HK_OK);
	what = "this window shrank";
	ev.rss_growth_bytes_per_s = -4096;
	CLASSIFY(ev, HK_OK);
	what = "one trend point too few";
	oom_base(&ev);
	ev.trend_samples = HK_TREND_MIN_SAMPLES - 1;
	CLASSIFY(ev, HK_OK);
	/* a quarter of an interval (1 s here) of slack for the walk's jitter */
	what = "the trend a quarter interval short of min_trend";
	oom_base(&ev);
	ev.rss_trend_ms = cfg.oom_min_trend_ns / HK_NSEC_PER_MSEC - 250;
	CLASSIFY(ev, HK_OOM_RISK);
	what = "the trend a quarter interval and one ms short of min_trend";
	ev.rss_trend_ms = cfg.oom_min_trend_ns / HK_NSEC_PER_MSEC - 251;
	CLASSIFY(ev, HK_OK);
	what = "grew one hundredth of a percent too little of the time";
	oom_base(&ev);
	ev.trend_grow_pct_x100 = cfg.oom_steady_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "slope 0";
	oom_base(&ev);
	ev.rss_slope_bytes_per_s = 0;
	CLASSIFY(ev, HK_OK);
	what = "net growth one byte short";
	oom_base(&ev);
	ev.rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes - 1;
	CLASSIFY(ev, HK_OK);
	what = "ETA a second past the horizon";
	oom_base(&ev);
	ev.eta_s = cfg.oom_eta_horizon_s + 1;
	CLASSIFY(ev, HK_OK);
	what = "no ETA";
	ev.eta_s = (__u64)HK_ETA_NONE;
	CLASSIFY(ev, HK_OK);
	/* big alone is not a risk: 8 GiB, growing, ETA a day away */
	what = "big, growing, ETA a day away";
	oom_base(&ev);
	ev.rss_bytes = 8 * HK_GIB;
	ev.rss_anon_bytes = 8 * HK_GIB;
	ev.eta_s = 86400;
	CLASSIFY(ev, HK_OK);
	/* OOM risk first: with every other diagnosis matching too */
	what = "OOM risk and all else";
	oom_base(&ev);
	ev.major_faults_per_s = 500;
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = 9000;
	ev.thread_wait_pct_x100 = 9000;
	ev.wait_pct_x100 = 9000;
	ev.victim_tgid = 7;
	ev.cpu_pct_x100 = 8000;
	CLASSIFY(ev, HK_OOM_RISK);
}

static void test_classify_thrashing(void)
{
	struct hk_evidence ev;
	__u64 major, minor;
	const char *what;

	vec_config();
	major = cfg.thrash_major_faults_per_s;
	minor = cfg.thrash_minor_faults_per_s;
	memset(&ev, 0, sizeof(ev));
	what = "nothing";
	CLASSIFY(ev, HK_OK);
	what = "major faults/s one below";
	ev.major_faults_per_s = major - 1;
	CLASSIFY(ev, HK_OK);
	what = "major faults/s at the threshold";
	ev.major_faults_per_s = major;
	CLASSIFY(ev, HK_MEM_THRASHING);
	what = "major faults/s, thread one below busy";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	CLASSIFY(ev, HK_MEM_THRASHING);
	/* busy is what it got: waiting for a CPU is not work */
	what = "major faults/s, thread wanting a CPU but waiting";
	ev.thread_cpu_pct_x100 = 2000;
	ev.thread_queued_pct_x100 = 7500;
	CLASSIFY(ev, HK_MEM_THRASHING);
	/* a busy thread is CPU-bound, not thrashing (faults < max) */
	what = "major faults/s, thread busy";
	ev.thread_queued_pct_x100 = 0;
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100;
	CLASSIFY(ev, major < cfg.cpu_max_faults_per_s ? HK_CPU_BOUND : HK_OK);

	memset(&ev, 0, sizeof(ev));
	what = "unexplained minor faults/s one below";
	ev.minor_faults_per_s = 3 * minor;
	ev.unexplained_faults_per_s = minor - 1;
	CLASSIFY(ev, HK_OK);
	what = "unexplained minor faults/s at the threshold";
	ev.unexplained_faults_per_s = minor;
	CLASSIFY(ev, HK_MEM_THRASHING);
	/* Mem-thrashing before Throttled and Starved */
	what = "thrashing, throttled and starved";
	ev.wait_pct_x100 = 10000;
	ev.thread_wait_pct_x100 = 10000;
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = 10000;
	CLASSIFY(ev, HK_MEM_THRASHING);
}

/*
 * Issue #19: a thread stalled on memory (delay accounting) for
 * mem_thrashing.stall of the window is Mem-thrashing, busy or not (zram
 * decompresses in the faulting thread); a fault storm without a stall is
 * still Mem-thrashing (hotspot-bpf's rule) but not "stalled".
 */
static void test_classify_stall(void)
{
	__u32 stall;
	struct hk_evidence ev;
	const char *what;

	vec_config();
	stall = cfg.thrash_stall_pct_x100;
	memset(&ev, 0, sizeof(ev));
	/* busy: one thread on the CPU all the window, no fault storm */
	ev.thread_cpu_pct_x100 = 10000;
	ev.cpu_pct_x100 = 10000;
	what = "busy, stall one below";
	ev.mem_stall_pct_x100 = stall - 1;
	CLASSIFY(ev, HK_CPU_BOUND);
	EQ(hk_thrash_stalled(&cfg, &ev), 0);
	what = "busy, stall at the threshold";
	ev.mem_stall_pct_x100 = stall;
	CLASSIFY(ev, HK_MEM_THRASHING);
	EQ(hk_thrash_stalled(&cfg, &ev), 1);
	/* OOM risk still wins: a leak that swaps stalls too */
	what = "stalled, and an OOM risk";
	oom_base(&ev);
	ev.mem_stall_pct_x100 = 10000;
	CLASSIFY(ev, HK_OOM_RISK);
	/* off: the stall alone says nothing */
	what = "stall rule off";
	memset(&ev, 0, sizeof(ev));
	ev.mem_stall_pct_x100 = 10000;
	cfg.thrash_stall_pct_x100 = 0;
	CLASSIFY(ev, HK_OK);
	EQ(hk_thrash_stalled(&cfg, &ev), 0);
	/* a fault storm with no stall: thrashing, not stalled (a notice) */
	vec_config();
	what = "fault storm, no stall";
	ev.mem_stall_pct_x100 = 0;
	ev.minor_faults_per_s = ev.unexplained_faults_per_s = cfg.thrash_minor_faults_per_s;
	CLASSIFY(ev, HK_MEM_THRASHING);
	EQ(hk_thrash_stalled(&cfg, &ev), 0);
}

/* The headroom that binds: the smaller of the memcg's and the host's. */
static void test_limit_host(void)
{
	struct hk_sample s;
	struct hk_evidence ev;

	vec_config();
	memset(&s, 0, sizeof(s));
	memset(&ev, 0, sizeof(ev));
	/* nothing read: RAM less its own anon, as before */
	ev.rss_anon_bytes = 1 * HK_GIB;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_RAM);
	EQ(ev.headroom_bytes, cfg.total_ram_bytes - 1 * HK_GIB);
	/* the host read, no memcg limit: the host's */
	s.host_avail_known = 1;
	s.host_avail_bytes = 3 * HK_GIB;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_HOST);
	EQ(ev.limit_bytes, cfg.total_ram_bytes);
	EQ(ev.headroom_bytes, 3 * HK_GIB);
	/* a memcg leaving less: the memcg's */
	s.limit_kind = HK_LIMIT_MEMCG;
	s.limit_bytes = 4 * HK_GIB;
	s.headroom_bytes = 3 * HK_GIB - 1;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_MEMCG);
	EQ(ev.limit_bytes, 4 * HK_GIB);
	EQ(ev.headroom_bytes, 3 * HK_GIB - 1);
	/* a memcg leaving more (a Burstable pod on a full node): the host */
	s.headroom_bytes = 3 * HK_GIB + 1;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_HOST);
	EQ(ev.headroom_bytes, 3 * HK_GIB);
	/* equal: the memcg's (it names the cgroup) */
	s.headroom_bytes = 3 * HK_GIB;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_MEMCG);
	/* the host has nothing left: 0 binds */
	s.host_avail_bytes = 0;
	hk_limit(&cfg, &s, &ev);
	EQ(ev.limit_kind, HK_LIMIT_HOST);
	EQ(ev.headroom_bytes, 0);
}

/* The ETA crossing that decides a freeze again (HK_EV_ETA). */
static void test_eta_crossed(void)
{
	const __u64 none = (__u64)HK_ETA_NONE;

	vec_config();
	cfg.freeze_eta_s = 300;
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, 301, 300), 1);
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, none, 10), 1);
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, 300, 299), 0);	/* under already */
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, 600, 301), 0);	/* still above */
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, 600, none), 0);	/* no ETA now */
	EQ(hk_eta_crossed(&cfg, HK_OK, 600, 10), 0);		/* not held */
	EQ(hk_eta_crossed(&cfg, HK_MEM_THRASHING, 600, 10), 0);
	cfg.freeze_eta_s = 0;					/* no freeze */
	EQ(hk_eta_crossed(&cfg, HK_OOM_RISK, none, 0), 0);
}

static void test_classify_throttled(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 t;

	vec_config();
	t = cfg.throttled_pct_x100;
	memset(&ev, 0, sizeof(ev));
	what = "throttled and waiting at the threshold";
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = t;
	ev.thread_wait_pct_x100 = t;
	ev.wait_pct_x100 = t;
	CLASSIFY(ev, HK_THROTTLED);
	what = "throttled one below";
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	what = "throttled, its threads waiting one below";
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = t;
	ev.thread_wait_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	/* its own quota, not a neighbour: before Starved */
	what = "throttled and starved";
	ev.thread_wait_pct_x100 = 9700;
	ev.wait_pct_x100 = 9700;
	ev.cpu_pct_x100 = 200;
	CLASSIFY(ev, HK_THROTTLED);
	what = "starved, not throttled";
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = 0;
	CLASSIFY(ev, HK_STARVED);
	/* a throttled cgroup, a process in it that waits for nothing */
	what = "in a throttled cgroup, idle";
	memset(&ev, 0, sizeof(ev));
	ev.throttled_pct_x100 = ev.throttled_norm_pct_x100 = 8000;
	CLASSIFY(ev, HK_OK);
}

static void test_classify_io_blocked(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 t;

	vec_config();
	t = cfg.io_blocked_pct_x100;
	CU_ASSERT_EQUAL(t, 5000);
	memset(&ev, 0, sizeof(ev));
	what = "blocked on I/O at the threshold";
	ev.io_pct_x100 = t;
	ev.thread_io_pct_x100 = t;
	CLASSIFY(ev, HK_IO_BLOCKED);
	/* a pool: the sum is there, no thread is held back */
	what = "blocked at the threshold, its longest thread one below a quarter";
	ev.thread_io_pct_x100 = t / 4 - 1;
	CLASSIFY(ev, HK_OK);
	what = "blocked at the threshold, its longest thread a quarter";
	ev.thread_io_pct_x100 = t / 4;
	CLASSIFY(ev, HK_IO_BLOCKED);
	what = "one below";
	ev.io_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	what = "blocked 100 % with the diagnosis off";
	ev.io_pct_x100 = 10000;
	cfg.io_blocked_pct_x100 = 0;
	CLASSIFY(ev, HK_OK);
	cfg.io_blocked_pct_x100 = t;
	/* starved comes first: it is not on a CPU because others are */
	what = "blocked and starved";
	ev.thread_wait_pct_x100 = 9700;
	ev.wait_pct_x100 = 9700;
	CLASSIFY(ev, HK_STARVED);
	/* a spinning thread beside a blocked one: the disk holds it back */
	what = "blocked, a thread spinning";
	memset(&ev, 0, sizeof(ev));
	ev.io_pct_x100 = 6000;
	ev.thread_io_pct_x100 = 6000;
	ev.thread_cpu_pct_x100 = 9900;
	ev.cpu_pct_x100 = 9900;
	CLASSIFY(ev, HK_IO_BLOCKED);
	/* a noisy neighbour is named for what it does to others */
	what = "blocked, and starving another";
	ev.victim_tgid = 77;
	CLASSIFY(ev, HK_NOISY_NEIGHBOR);
	/* and can still become one after the first pass */
	CU_ASSERT_TRUE(hk_may_be_noisy(&cfg, &ev, HK_IO_BLOCKED));
}

static void test_classify_starved(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 t;

	vec_config();
	t = cfg.starved_wait_pct_x100;
	memset(&ev, 0, sizeof(ev));
	what = "wait one below";
	ev.wait_pct_x100 = t - 1;
	ev.thread_wait_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	what = "wait at the threshold";
	ev.wait_pct_x100 = t;
	ev.thread_wait_pct_x100 = t;
	CLASSIFY(ev, HK_STARVED);
	what = "the process waits enough, but spread over threads";
	ev.thread_wait_pct_x100 = t - 1;
	ev.wait_pct_x100 = 4 * t;
	CLASSIFY(ev, HK_OK);
	ev.thread_wait_pct_x100 = t;
	ev.wait_pct_x100 = t;
	what = "wait at the threshold, run just less";
	ev.cpu_pct_x100 = t - 1;
	CLASSIFY(ev, HK_STARVED);
	what = "wait at the threshold, run as much";
	ev.cpu_pct_x100 = t;
	CLASSIFY(ev, HK_OK);	/* 70 % of one CPU: 35 % of 2 CPUs */
	/* Starved before Noisy neighbor */
	what = "starved and aggressor";
	ev.wait_pct_x100 = t + 2000;
	ev.thread_wait_pct_x100 = t + 2000;
	ev.cpu_pct_x100 = t + 1000;
	ev.victim_tgid = 42;
	CLASSIFY(ev, HK_STARVED);
}

static void test_classify_noisy(void)
{
	struct hk_evidence ev;
	const char *what;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	ev.victim_tgid = 42;
	what = "aggressor one below";
	ev.cpu_pct_x100 = cfg.noisy_cpu_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "aggressor at the threshold";
	ev.cpu_pct_x100 = cfg.noisy_cpu_pct_x100;
	CLASSIFY(ev, HK_NOISY_NEIGHBOR);
	/* Noisy neighbor before CPU-bound */
	what = "aggressor with a saturated thread";
	ev.cpu_pct_x100 = 9900;
	ev.thread_cpu_pct_x100 = 9900;
	CLASSIFY(ev, HK_NOISY_NEIGHBOR);
	what = "no victim";
	ev.victim_tgid = 0;
	CLASSIFY(ev, HK_CPU_BOUND);
}

static void test_classify_cpu(void)
{
	struct hk_evidence ev;
	const char *what;
	__u32 total;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	what = "thread one below";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	ev.cpu_pct_x100 = cfg.cpu_thread_pct_x100 - 1;
	CLASSIFY(ev, HK_OK);
	what = "thread at the threshold";
	ev.thread_cpu_pct_x100 = cfg.cpu_thread_pct_x100;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "faults/s one below";
	ev.minor_faults_per_s = ev.unexplained_faults_per_s = cfg.cpu_max_faults_per_s - 1;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "faults/s at the maximum";
	ev.minor_faults_per_s = ev.unexplained_faults_per_s = cfg.cpu_max_faults_per_s;
	CLASSIFY(ev, HK_OK);
	what = "minor + major faults/s at the maximum";
	ev.major_faults_per_s = cfg.cpu_max_faults_per_s / 2;
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s - ev.major_faults_per_s;
	ev.unexplained_faults_per_s = ev.minor_faults_per_s;
	CLASSIFY(ev, HK_OK);
	/* review finding 10(b): a job that keeps what it computes faults for
	 * its growth; those faults are its work */
	what = "4x the maximum faults/s, all explained by RSS growth";
	ev.major_faults_per_s = 0;
	ev.minor_faults_per_s = 4 * cfg.cpu_max_faults_per_s;
	ev.unexplained_faults_per_s = 0;
	CLASSIFY(ev, HK_CPU_BOUND);

	/* what a thread asks for: on a CPU plus waiting for one */
	memset(&ev, 0, sizeof(ev));
	what = "half on a CPU, half waiting (four loops on two CPUs)";
	ev.thread_cpu_pct_x100 = 5000;
	ev.thread_queued_pct_x100 = 5000;
	ev.cpu_pct_x100 = 5000;
	ev.wait_pct_x100 = 5000;
	ev.thread_wait_pct_x100 = 5000;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "run + wait one below";
	ev.thread_queued_pct_x100 = cfg.cpu_thread_pct_x100 - 5000 - 1;
	ev.wait_pct_x100 = ev.thread_queued_pct_x100;
	ev.thread_wait_pct_x100 = ev.thread_queued_pct_x100;
	CLASSIFY(ev, HK_OK);

	/* the whole process as a share of all (2) CPUs: what it ran */
	total = cfg.cpu_total_pct_x100 * 2;
	memset(&ev, 0, sizeof(ev));
	what = "total one below, of 2 CPUs";
	ev.thread_cpu_pct_x100 = 5000;
	ev.cpu_pct_x100 = total - 1;
	CLASSIFY(ev, HK_OK);
	what = "total one below, of 2 CPUs, its threads waiting besides";
	ev.wait_pct_x100 = 5000;
	ev.thread_wait_pct_x100 = 2000;
	CLASSIFY(ev, HK_OK);
	what = "total at the threshold, of 2 CPUs";
	ev.cpu_pct_x100 = total;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "half of that, with nr_cpus 0 (counts as 1)";
	cfg.nr_cpus = 0;
	ev.cpu_pct_x100 = total / 2;
	CLASSIFY(ev, HK_CPU_BOUND);
	cfg.nr_cpus = 2;
	what = "half of that, of 2 CPUs";
	CLASSIFY(ev, HK_OK);
}

/*
 * The CPUs it may use (review findings 1, 5, 7): its affinity and quota
 * bound what "busy" and "saturated" mean, and the throttled time the
 * kernel sums over CPUs is taken over the CPUs its quota allows.
 */
static void test_classify_room(void)
{
	struct hk_evidence ev;
	struct hk_sample s;
	const char *what;

	vec_config();
	cfg.nr_cpus = 8;
	/* 8 busy threads allowed on 2 of 8 CPUs, nothing else there */
	memset(&ev, 0, sizeof(ev));
	what = "8 threads on 2 allowed CPUs, got both";
	ev.usable_cpus_x100 = 200;
	ev.cpu_pct_x100 = 19975;
	ev.wait_pct_x100 = 60000;
	ev.thread_wait_pct_x100 = 8000;
	ev.thread_cpu_pct_x100 = 2000;
	ev.thread_queued_pct_x100 = 8000;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "... one below 90 % of them";
	ev.cpu_pct_x100 = 200 * 90 - 1;
	CLASSIFY(ev, HK_STARVED);
	what = "... at 90 % of them";
	ev.cpu_pct_x100 = 200 * 90;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "the same, allowed on all 8: others took 6";
	ev.usable_cpus_x100 = 800;
	ev.cpu_pct_x100 = 19975;
	CLASSIFY(ev, HK_STARVED);
	what = "a victim pinned to one CPU, 20 % of it";
	memset(&ev, 0, sizeof(ev));
	ev.usable_cpus_x100 = 100;
	ev.cpu_pct_x100 = 2000;
	ev.wait_pct_x100 = 8000;
	ev.thread_wait_pct_x100 = 8000;
	ev.thread_cpu_pct_x100 = 2000;
	ev.thread_queued_pct_x100 = 8000;
	CLASSIFY(ev, HK_STARVED);

	/* busy: of the CPUs it may use */
	memset(&ev, 0, sizeof(ev));
	what = "faulting at 3 of 4 quota CPUs on 8: busy";
	ev.usable_cpus_x100 = 400;
	ev.cpu_pct_x100 = 30000;
	ev.minor_faults_per_s = ev.unexplained_faults_per_s =
		3 * cfg.thrash_minor_faults_per_s;
	CLASSIFY(ev, HK_OK);
	what = "the same with all 8 CPUs usable: not busy, thrashing";
	ev.usable_cpus_x100 = 800;
	CLASSIFY(ev, HK_MEM_THRASHING);
	what = "... one below 3 CPUs' worth of the threshold";
	ev.minor_faults_per_s = ev.unexplained_faults_per_s =
		3 * cfg.thrash_minor_faults_per_s - 1;
	CLASSIFY(ev, HK_OK);
	what = "under one CPU: the threshold itself";
	ev.cpu_pct_x100 = 4000;
	ev.minor_faults_per_s = ev.unexplained_faults_per_s = cfg.thrash_minor_faults_per_s;
	CLASSIFY(ev, HK_MEM_THRASHING);

	/* the room a sample gives */
	memset(&s, 0, sizeof(s));
	memset(&ev, 0, sizeof(ev));
	what = "no affinity, no quota";
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.usable_cpus_x100, 800);
	s.cpus_allowed = 2;
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.usable_cpus_x100, 200);
	s.cpus_allowed = 8;
	s.quota_cpus_x100 = 150;
	s.quota_cgroup_id = 77;
	ev.throttled_pct_x100 = 3000;
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.usable_cpus_x100, 150);
	EQ(ev.quota_cgroup_id, 77);
	EQ(ev.quota_cpus_x100, 150);
	EQ(ev.throttled_norm_pct_x100, 1500);	/* over 2 whole CPUs */
	s.quota_cpus_x100 = 50;
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.throttled_norm_pct_x100, 3000);	/* at least one CPU */
	cfg.nr_cpus = 64;
	s.cpus_allowed = 64;
	s.quota_cpus_x100 = 400;
	ev.throttled_pct_x100 = 2560;		/* 0.4 % of a period on 64 CPUs */
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.throttled_norm_pct_x100, 640);
	s.quota_cpus_x100 = 0;
	hk_cpu_room(&cfg, &s, &ev);
	EQ(ev.throttled_norm_pct_x100, 40);	/* over all 64 */

	/* Throttled or Starved (review finding 5) */
	cfg.nr_cpus = 8;
	memset(&ev, 0, sizeof(ev));
	what = "the quota's sum over 64 CPUs reads 25.6 %, over 4: a foreign hog starves it";
	ev.usable_cpus_x100 = 400;
	ev.throttled_pct_x100 = 2560;
	ev.throttled_norm_pct_x100 = 640;
	ev.thread_wait_pct_x100 = 8000;
	ev.wait_pct_x100 = 8000;
	ev.cpu_pct_x100 = 2000;
	ev.aggressor_tgid = 7;
	CLASSIFY(ev, HK_STARVED);
	what = "throttled 30 %, waited 80 % for a named aggressor";
	ev.throttled_norm_pct_x100 = 3000;
	CLASSIFY(ev, HK_STARVED);
	what = "... no aggressor named";
	ev.aggressor_tgid = 0;
	CLASSIFY(ev, HK_THROTTLED);
	what = "throttled 40 % of an 80 % wait, aggressor named: the quota";
	ev.aggressor_tgid = 7;
	ev.throttled_norm_pct_x100 = 4000;
	CLASSIFY(ev, HK_THROTTLED);
	cfg.nr_cpus = 2;
}

static void test_may_be_noisy(void)
{
	struct hk_evidence ev;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	ev.cpu_pct_x100 = 5000;
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OK), 1);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_CPU_BOUND), 1);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_STARVED), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_THROTTLED), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_MEM_THRASHING), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OOM_RISK), 0);
	ev.cpu_pct_x100 = 4999;
	EQ(hk_may_be_noisy(&cfg, &ev, HK_OK), 0);
	EQ(hk_may_be_noisy(&cfg, &ev, HK_CPU_BOUND), 0);
}

/* OOM risk and a Noisy neighbor whose victim entered Starved need no
 * further windows; everything else needs enter_windows. */
static void test_enter_windows(void)
{
	struct hk_evidence ev;

	vec_config();
	memset(&ev, 0, sizeof(ev));
	EQ(hk_enter_windows(&cfg, HK_OOM_RISK, &ev), 1);
	EQ(hk_enter_windows(&cfg, HK_NOISY_NEIGHBOR, &ev), cfg.enter_windows);
	ev.victim_starved = 1;
	EQ(hk_enter_windows(&cfg, HK_NOISY_NEIGHBOR, &ev), 1);
	EQ(hk_enter_windows(&cfg, HK_STARVED, &ev), cfg.enter_windows);
	EQ(hk_enter_windows(&cfg, HK_CPU_BOUND, &ev), cfg.enter_windows);
	EQ(hk_enter_windows(&cfg, HK_THROTTLED, &ev), cfg.enter_windows);
	EQ(hk_enter_windows(&cfg, HK_MEM_THRASHING, &ev), cfg.enter_windows);
	cfg.enter_windows = 5;
	EQ(hk_enter_windows(&cfg, HK_OOM_RISK, &ev), 1);
	EQ(hk_enter_windows(&cfg, HK_CPU_BOUND, &ev), 5);
}

int hk_add_classify_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "config under test", test_config_under_test },
		{ "classify oom_risk", test_classify_oom },
		{ "classify mem_thrashing", test_classify_thrashing },
		{ "classify memory stall", test_classify_stall },
		{ "headroom: memcg or host", test_limit_host },
		{ "ETA under freeze_eta_s", test_eta_crossed },
		{ "classify throttled", test_classify_throttled },
		{ "classify starved", test_classify_starved },
		{ "classify noisy_neighbor", test_classify_noisy },
		{ "classify io_blocked", test_classify_io_blocked },
		{ "classify cpu_bound", test_classify_cpu },
		{ "classify the CPUs it may use", test_classify_room },
		{ "hk_deprio", test_deprio },
		{ "hk_cgroup_weight", test_cgroup_weight },
		{ "cpu lost to steal/IRQ", test_cpu_lost },
		{ "may_be_noisy", test_may_be_noisy },
		{ "enter_windows", test_enter_windows },
		{ "vectors consistent", hk_test_vectors_consistent },
		{ "vectors", hk_test_vectors },
	};

	return HK_ADD_SUITE("classify", tests);
}
