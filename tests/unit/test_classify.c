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
#include "config.h"
#include "suites.h"
#include "check.h"



/* --- thresholds ------------------------------------------------------------ */

static struct hk_config cfg;

static void vec_config(void)
{
	hkv_config(&cfg);
}

/* Steady growth now, over a trend long enough, reaching the limit within
 * the horizon: OOM risk; each field then breaks it. */
static void oom_base(struct hk_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->rss_growth_bytes_per_s = 1;
	ev->trend_samples = HK_TREND_MIN_SAMPLES;
	ev->rss_trend_ms = cfg.oom_min_trend_ns / HK_NSEC_PER_MSEC;
	ev->trend_grow_pct_x100 = cfg.oom_steady_pct_x100;
	ev->rss_slope_bytes_per_s = 1;
	ev->rss_net_growth_bytes = (__s64)cfg.oom_min_growth_bytes;
	ev->eta_s = cfg.oom_eta_horizon_s;
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
	EQ(cfg.thrash_major_faults_per_s, 100);
	EQ(cfg.thrash_minor_faults_per_s, 10000);
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
	ev.throttled_pct_x100 = 9000;
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
	ev.throttled_pct_x100 = 10000;
	CLASSIFY(ev, HK_MEM_THRASHING);
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
	ev.throttled_pct_x100 = t;
	ev.thread_wait_pct_x100 = t;
	ev.wait_pct_x100 = t;
	CLASSIFY(ev, HK_THROTTLED);
	what = "throttled one below";
	ev.throttled_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	what = "throttled, its threads waiting one below";
	ev.throttled_pct_x100 = t;
	ev.thread_wait_pct_x100 = t - 1;
	CLASSIFY(ev, HK_OK);
	/* its own quota, not a neighbour: before Starved */
	what = "throttled and starved";
	ev.thread_wait_pct_x100 = 9700;
	ev.wait_pct_x100 = 9700;
	ev.cpu_pct_x100 = 200;
	CLASSIFY(ev, HK_THROTTLED);
	what = "starved, not throttled";
	ev.throttled_pct_x100 = 0;
	CLASSIFY(ev, HK_STARVED);
	/* a throttled cgroup, a process in it that waits for nothing */
	what = "in a throttled cgroup, idle";
	memset(&ev, 0, sizeof(ev));
	ev.throttled_pct_x100 = 8000;
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
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s - 1;
	CLASSIFY(ev, HK_CPU_BOUND);
	what = "faults/s at the maximum";
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s;
	CLASSIFY(ev, HK_OK);
	what = "minor + major faults/s at the maximum";
	ev.major_faults_per_s = cfg.cpu_max_faults_per_s / 2;
	ev.minor_faults_per_s = cfg.cpu_max_faults_per_s - ev.major_faults_per_s;
	CLASSIFY(ev, HK_OK);

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
		{ "classify throttled", test_classify_throttled },
		{ "classify starved", test_classify_starved },
		{ "classify noisy_neighbor", test_classify_noisy },
		{ "classify io_blocked", test_classify_io_blocked },
		{ "classify cpu_bound", test_classify_cpu },
		{ "may_be_noisy", test_may_be_noisy },
		{ "enter_windows", test_enter_windows },
		{ "vectors consistent", hk_test_vectors_consistent },
		{ "vectors", hk_test_vectors },
	};

	return HK_ADD_SUITE("classify", tests);
}
