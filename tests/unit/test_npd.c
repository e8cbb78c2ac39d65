// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_npd.c - `hotspot-k status --npd CHECK` decided on made-up
 * snapshots: each check's exit status (NPD's OK / NonOK / Unknown) and its
 * line, byte for byte; the worst offender named first, within NPD's
 * default 80 bytes, in printable ASCII whatever the comm.
 */
#include <stdio.h>
#include <string.h>
#include "format_fixtures.h"
#include "status/npd.h"
#include "suites.h"

#define MAX_PROCS 8

/* The latest walk ended at 100 s of the monotonic clock. */
#define WALK_END_NS	(100 * HK_NSEC_PER_SEC)

static __u32 pids[MAX_PROCS];
static void (*who_fn)(struct hk_workload *w, __u32 pid, __u64 start);
static struct hk_proc procs[MAX_PROCS];
static struct hk_status_snap snap;
static char msg[HK_NPD_MSG_LEN + 1];

/* An instance at -i 1s, 57 windows in, driver wq, nothing tracked. */
static void snap_reset(void)
{
	snap_base(&snap, pids, procs, MAX_PROCS, WALK_END_NS);
	who_fn = NULL;
}

static struct hk_proc *add(__u32 pid, const char *comm, __u32 label)
{
	struct hk_proc *p = &procs[snap.n];

	CU_ASSERT_FATAL(snap.n < MAX_PROCS);
	pids[snap.n++] = pid;
	set_comm(p->comm, comm);
	p->hyst.label = label;
	p->hyst.cand = label;
	p->sample_ns = WALK_END_NS;
	p->ev.eta_s = (__u64)HK_ETA_NONE;
	return p;
}

/* The check over the snapshot (a view of it) at now_ns; its exit status. */
static int check_at(enum hk_npd_check c, __u64 now_ns, __u64 since_load_ns)
{
	struct hk_status_view v;
	struct hk_npd_in in = { .v = &v, .now_mono_ns = now_ns,
				.since_load_ns = since_load_ns, .who = who_fn };
	int ret;

	CU_ASSERT_EQUAL_FATAL(hk_status_view__build(&v, &snap, 0), 0);
	memset(msg, 'x', sizeof(msg));
	ret = hk_npd__check(c, &in, msg, sizeof(msg));
	hk_status_view__free(&v);
	return ret;
}

static int check(enum hk_npd_check c)
{
	return check_at(c, WALK_END_NS + HK_NSEC_PER_SEC / 2, 0);
}

#define ASSERT_MSG(want) do {						\
	CU_ASSERT_STRING_EQUAL(msg, want);				\
	if (strcmp(msg, want))						\
		fprintf(stderr, "\n    got  %s\n    want %s", msg, want); \
} while (0)

static void test_no_instance(void)
{
	struct hk_npd_in in = {};

	/* `up` is the one check whose problem this is: NPD's condition True */
	CU_ASSERT_EQUAL(hk_npd__check(HK_NPD_UP, &in, msg, sizeof(msg)), HK_NPD_PROBLEM);
	ASSERT_MSG("hotspot-k not running");
	in.stale_pin = true;
	CU_ASSERT_EQUAL(hk_npd__check(HK_NPD_UP, &in, msg, sizeof(msg)), HK_NPD_PROBLEM);
	ASSERT_MSG("hotspot-k not running: a gone one left its pins (hotspot-k unpin)");
	/* the others cannot tell: Unknown, never a False that reads "fine" */
	CU_ASSERT_EQUAL(hk_npd__check(HK_NPD_OOM_RISK, &in, msg, sizeof(msg)),
			HK_NPD_NO_TOOL);
	ASSERT_MSG("hotspot-k not running: OOM risk unknown");
	CU_ASSERT_EQUAL(hk_npd__check(HK_NPD_NOISY_NEIGHBOR, &in, msg, sizeof(msg)),
			HK_NPD_NO_TOOL);
	ASSERT_MSG("hotspot-k not running: Noisy neighbor unknown");
	CU_ASSERT_EQUAL(hk_npd__check(HK_NPD_NR_CHECKS, &in, msg, sizeof(msg)),
			HK_NPD_CANNOT);
}

static void test_up(void)
{
	snap_reset();
	add(10, "busy", HK_CPU_BOUND);
	add(11, "idle", HK_OK);
	CU_ASSERT_EQUAL(check(HK_NPD_UP), HK_NPD_OK);
	ASSERT_MSG("hotspot-k up: 57 windows every 1s (driver wq), 1 flagged");
	/* 6 intervals without a window: a watchdog's take-over may be under way */
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS + 6 * HK_NSEC_PER_SEC, 0), HK_NPD_OK);
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS + 6 * HK_NSEC_PER_SEC + 1, 0),
			HK_NPD_PROBLEM);
	ASSERT_MSG("hotspot-k stalled: no window for 6s (every 1s, driver wq)");
	snap.stats.driver = HK_DRIVER_ITER;
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS + 95 * HK_NSEC_PER_SEC, 0),
			HK_NPD_PROBLEM);
	ASSERT_MSG("hotspot-k stalled: no window for 1m35s (every 1s, driver iter)");
	/* a clock read before the walk's stamp: no time without a window */
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS - 1, 0), HK_NPD_OK);
}

static void test_up_starting(void)
{
	snap_reset();
	snap.stats.windows = 0;
	snap.stats.last_walk_end_ns = 0;
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS, 2 * HK_NSEC_PER_SEC), HK_NPD_OK);
	ASSERT_MSG("hotspot-k starting: no window yet (every 1s)");
	/* load time unknown: starting, not stalled */
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS, 0), HK_NPD_OK);
	CU_ASSERT_EQUAL(check_at(HK_NPD_UP, WALK_END_NS, 10 * HK_NSEC_PER_SEC),
			HK_NPD_PROBLEM);
	ASSERT_MSG("hotspot-k stalled: no window 10s after its start (every 1s)");
}

/* who the unit tests' processes are: pid 200 in a container */
static unsigned int who_calls;

static void fake_who(struct hk_workload *w, __u32 pid, __u64 start)
{
	(void)start;
	who_calls++;
	memset(w, 0, sizeof(*w));
	if (pid == 200)
		strcpy(w->container_id, "0123456789abcdef0123456789abcdef"
					"0123456789abcdef0123456789abcdef");
	if (pid == 300)
		strcpy(w->unit, "batch.service");
}

static void test_oom_risk(void)
{
	snap_reset();
	add(10, "busy", HK_CPU_BOUND);
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_OK);
	ASSERT_MSG("no process in OOM risk (1 tracked)");

	/* the soonest to its limit named; no ETA (not growing now) last */
	add(100, "flat", HK_OOM_RISK);
	add(300, "slow", HK_OOM_RISK)->ev.eta_s = 120;
	add(200, "leak", HK_OOM_RISK)->ev.eta_s = 38;
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_PROBLEM);
	ASSERT_MSG("OOM risk: pid 200 leak ETA 38s; 2 more");
	who_fn = fake_who;
	who_calls = 0;
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_PROBLEM);
	ASSERT_MSG("OOM risk: pid 200 leak ETA 38s container 0123456789ab; 2 more");
	/* a /proc read for the one named, not one per process flagged */
	CU_ASSERT_EQUAL(who_calls, 1);
	/* a tie: the lower PID */
	procs[1].ev.eta_s = 38;
	procs[2].ev.eta_s = 38;
	procs[3].ev.eta_s = 38;
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_PROBLEM);
	ASSERT_MSG("OOM risk: pid 100 flat ETA 38s; 2 more");
	/* one alone, with no ETA: named all the same */
	snap_reset();
	who_fn = fake_who;
	add(300, "slow", HK_OOM_RISK);
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_PROBLEM);
	ASSERT_MSG("OOM risk: pid 300 slow unit batch.service");
}

/* NPD keeps 80 bytes: the longest PID, comm and ETA still fit in them */
static void test_oom_risk_80_bytes(void)
{
	snap_reset();
	who_fn = fake_who;
	add(4194304, "\x1b[31mevil\nname\x7f\xff", HK_OOM_RISK)->ev.eta_s = 86399;
	add(200, "leak", HK_OOM_RISK)->ev.eta_s = 86400 * 3;
	CU_ASSERT_EQUAL(check(HK_NPD_OOM_RISK), HK_NPD_PROBLEM);
	ASSERT_MSG("OOM risk: pid 4194304 ?[31mevil?name? ETA 23h59m; 1 more");
	CU_ASSERT(strlen(msg) <= 80);
}

static void test_noisy_neighbor(void)
{
	struct hk_proc *p;

	snap_reset();
	who_fn = fake_who;
	add(55, "web", HK_STARVED)->ev.aggressor_tgid = 88;
	CU_ASSERT_EQUAL(check(HK_NPD_NOISY_NEIGHBOR), HK_NPD_OK);
	ASSERT_MSG("no Noisy neighbor (1 tracked)");
	/* a victim that asked for less is not a node problem */
	p = add(66, "nicehog", HK_NOISY_NEIGHBOR);
	p->ev.victim_tgid = 67;
	p->ev.victim_switches = 500;
	p->ev.victim_deprioritised = 1;
	CU_ASSERT_EQUAL(check(HK_NPD_NOISY_NEIGHBOR), HK_NPD_OK);
	ASSERT_MSG("no Noisy neighbor but 1 whose victim asked for less");
	/* the one that took its victim's CPU most often named, its victim's
	 * comm from hk_procs when it has it */
	p = add(77, "hog", HK_NOISY_NEIGHBOR);
	p->ev.victim_tgid = 55;
	p->ev.victim_switches = 10;
	p = add(300, "batch", HK_NOISY_NEIGHBOR);
	p->ev.victim_tgid = 55;
	p->ev.victim_switches = 20;
	CU_ASSERT_EQUAL(check(HK_NPD_NOISY_NEIGHBOR), HK_NPD_PROBLEM);
	ASSERT_MSG("Noisy neighbor: pid 300 batch starves pid 55 web unit batch.service; "
		   "1 more");
	p->ev.victim_tgid = 99;		/* not tracked: its PID alone */
	p->ev.victim_switches = 5;
	procs[2].ev.victim_tgid = 0;	/* hog: no victim known */
	CU_ASSERT_EQUAL(check(HK_NPD_NOISY_NEIGHBOR), HK_NPD_PROBLEM);
	ASSERT_MSG("Noisy neighbor: pid 77 hog; 1 more");
	procs[2].ev.victim_switches = 0;
	CU_ASSERT_EQUAL(check(HK_NPD_NOISY_NEIGHBOR), HK_NPD_PROBLEM);
	ASSERT_MSG("Noisy neighbor: pid 300 batch starves pid 99 unit batch.service; 1 more");
}

/* the names --help and the usage error list are the table's, each once */
static void test_names(void)
{
	char names[128], *tok, *save = NULL;
	int c, seen[HK_NPD_NR_CHECKS] = {}, n = 0;

	snprintf(names, sizeof(names), "%s", hk_npd__names());
	for (tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		c = hk_npd__parse(tok);
		CU_ASSERT_FATAL(c < HK_NPD_NR_CHECKS);
		CU_ASSERT_STRING_EQUAL(hk_npd__name(c), tok);
		seen[c]++;
		n++;
	}
	CU_ASSERT_EQUAL(n, HK_NPD_NR_CHECKS);
	for (c = 0; c < HK_NPD_NR_CHECKS; c++)
		CU_ASSERT_EQUAL(seen[c], 1);
	CU_ASSERT_EQUAL(hk_npd__parse("OOM-risk"), HK_NPD_NR_CHECKS);
	CU_ASSERT_EQUAL(hk_npd__parse(""), HK_NPD_NR_CHECKS);
	CU_ASSERT_EQUAL(hk_npd__parse("cpu-contention"), HK_NPD_CPU_CONTENTION);
}

/* A process's CPU wait in the latest window (1 s), by cause, in ms. */
static struct hk_proc *waiting(__u32 pid, const char *comm, __u32 neighbor_ms, __u32 self_ms,
			       __u32 quota_ms, __u32 aggressor)
{
	struct hk_proc *p = add(pid, comm, HK_OK);

	p->ev.window_ns = HK_NSEC_PER_SEC;
	p->ev.stall_win.ns[HK_STALL_NEIGHBOR] = (__u64)neighbor_ms * HK_NSEC_PER_MSEC;
	p->ev.stall_win.ns[HK_STALL_SELF] = (__u64)self_ms * HK_NSEC_PER_MSEC;
	p->ev.stall_win.ns[HK_STALL_QUOTA] = (__u64)quota_ms * HK_NSEC_PER_MSEC;
	p->ev.aggressor_tgid = aggressor;
	return p;
}

static void test_cpu_contention(void)
{
	struct hk_proc *p;

	snap_reset();
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_OK);
	ASSERT_MSG("no CPU wait in the last window (0 tracked)");
	/* a pod at its quota, a build crowding its own threads: not
	 * contention, however long they wait */
	waiting(200, "quota-pod", 30, 20, 1700, 0);
	waiting(201, "make", 0, 2900, 0, 0);
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_OK);
	ASSERT_MSG("no CPU contention: last window's CPU wait 4.6 s: 1% neighbor, "
		   "37% quota, 63% self");
	/* two hogs on one CPU: each waits for the other */
	snap_reset();
	waiting(300, "hog-a", 450, 0, 0, 301);
	waiting(301, "hog-b", 480, 10, 0, 300);
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_PROBLEM);
	ASSERT_MSG("CPU contention: pid 301 hog-b waited 0.48 s for pid 300 hog-a; "
		   "neighbor 99% of 0.9 s; 1 more");
	CU_ASSERT(strlen(msg) <= HK_NPD_MSG_LEN);
	/* no aggressor seen (the hook watches threads that wait most of a
	 * window): the two that waited longest on others */
	snap_reset();
	waiting(300, "hog-a", 450, 0, 0, 0);
	waiting(301, "hog-b", 480, 10, 0, 0);
	waiting(302, "hog-c", 20, 0, 0, 0);
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_PROBLEM);
	ASSERT_MSG("CPU contention: pid 301 hog-b waited 0.48 s, pid 300 hog-a 0.45 s; "
		   "neighbor 99% of 0.9 s; 1 more");
	/* under a quarter of a CPU waiting on others: noise, not a problem */
	snap_reset();
	waiting(300, "hog-a", 200, 0, 0, 301);
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_OK);
	ASSERT_MSG("no CPU contention: last window's CPU wait 0.2 s: 100% neighbor, "
		   "0% quota, 0% self");
	/* a quiet process (not sampled by the latest walk): its old window
	 * is not recent */
	snap_reset();
	p = waiting(300, "hog-a", 900, 0, 0, 301);
	p->sample_ns = WALK_END_NS - 10 * HK_NSEC_PER_SEC;
	CU_ASSERT_EQUAL(check(HK_NPD_CPU_CONTENTION), HK_NPD_OK);
	ASSERT_MSG("no CPU wait in the last window (1 tracked)");
}

int hk_add_npd_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "no instance", test_no_instance },
		{ "up and stalled", test_up },
		{ "up: starting", test_up_starting },
		{ "oom-risk: the soonest named", test_oom_risk },
		{ "oom-risk: 80 bytes, ASCII", test_oom_risk_80_bytes },
		{ "noisy-neighbor: the aggressor named", test_noisy_neighbor },
		{ "names", test_names },
		{ "cpu-contention: neighbor only, named", test_cpu_contention },
	};

	return HK_ADD_SUITE("npd", tests);
}
