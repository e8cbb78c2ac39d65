// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_freeze_blame.c - a freeze against the host's headroom only for the
 * process whose own growth explains its fall (freeze_blame.c): the ring of
 * MemAvailable samples, the rule at and around its 50 %, the line, said
 * once per OOM-risk episode, and a memory cgroup's limit left as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config_fixtures.h"
#include "format_fixtures.h"
#include "act/freeze.h"
#include "act/freeze_blame.h"
#include "lib/clock.h"
#include "suites.h"

/* A host leak's event at t_ms: its trend covers trend_ms, it grew grew_mib. */
static void host_event(struct hk_event *e, __u64 t_ms, __u64 trend_ms, __u64 grew_mib)
{
	ev_oom(e);
	e->ev.eta_s = 7;
	e->ev.limit_kind = HK_LIMIT_HOST;
	e->time_ns = t_ms * HK_NSEC_PER_MSEC;
	e->ev.rss_trend_ms = trend_ms;
	e->ev.rss_net_growth_bytes = (__s64)(grew_mib * HK_MIB);
}

static void test_ring(void)
{
	static struct hk_freeze_blame b;
	struct hk_blame_point p;
	__u64 i;

	/* a 30 s trend: a sample every 937 ms, the ring over 60 s */
	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	CHECK_U64(b.stride_ms, 937);
	CHECK_U64((__u64)hk_blame__at(&b, 5, &p), (__u64)-1);
	hk_blame__push(&b, 1000, 10, false);
	hk_blame__push(&b, 1500, 11, false);	/* within the stride: not kept */
	CHECK_U64(b.nr, 1);
	hk_blame__push(&b, 1500, 11, true);	/* a reading for a decision */
	CHECK_U64(b.nr, 2);
	/* before the oldest: the oldest */
	CU_ASSERT(hk_blame__at(&b, 5, &p) == 0);
	CHECK_U64(p.ms, 1000);
	CHECK_U64(p.avail_bytes, 10);
	/* the newest at or before */
	hk_blame__at(&b, 1499, &p);
	CHECK_U64(p.ms, 1000);
	hk_blame__at(&b, 99999, &p);
	CHECK_U64(p.ms, 1500);
	/* wrapped: the oldest kept is 64 samples back */
	for (i = 1; i <= 2 * HK_BLAME_RING; i++)
		hk_blame__push(&b, 1500 + i * 1000, i, false);
	CHECK_U64(b.nr, HK_BLAME_RING);
	hk_blame__at(&b, 0, &p);
	CHECK_U64(p.ms, 1500 + (HK_BLAME_RING + 1) * 1000);
	hk_blame__at(&b, 1500 + 100 * 1000 + 999, &p);
	CHECK_U64(p.avail_bytes, 100);
	/* a short trend span: the stride's floor */
	hk_blame__configure(&b, 1 * HK_NSEC_PER_SEC);
	CHECK_U64(b.stride_ms, HK_BLAME_STRIDE_MIN_MS);
}

static void test_rule(void)
{
	static struct hk_freeze_blame b;
	struct hk_blame_verdict v;
	struct hk_event e;
	char why[HK_FREEZE_WHY_MAX];

	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	hk_blame__push(&b, 100000, 20000 * HK_MIB, false);	/* 100 s */
	hk_blame__push(&b, 119000, 19800 * HK_MIB, false);	/* 119 s */
	/* the attack: 600 MiB grown over 30 s while the host lost 6600 MiB */
	host_event(&e, 130000, 30000, 600);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 13400 * HK_MIB, &v), 1);
	CHECK_U64(v.fall_bytes, 6600 * HK_MIB);
	CHECK_U64(v.span_ms, 30200);
	CHECK_U64(v.growth_bytes, 600 * HK_MIB);
	CHECK_U64(v.explained_pct, 9);
	hk_blame__why(why, sizeof(why), &e, &v);
	ASSERT_STR(why, "the host's headroom (MemAvailable) fell 6600 MiB in 30 s, and pid 4242's "
		   "own growth explains 600 MiB of it (9 %, under 50 %): someone else's memory");
	/* a leak alone: its growth is the fall */
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 19400 * HK_MIB, &v), 0);
	CHECK_U64(v.explained_pct, 100);
	/* at 50 %: frozen; just under: not */
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 18800 * HK_MIB, &v), 0);
	CHECK_U64(v.explained_pct, 50);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 18799 * HK_MIB, &v), 1);
	CHECK_U64(v.explained_pct, 49);
	/* the headroom grew: nothing to blame on anyone */
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 21000 * HK_MIB, &v), 0);
	CHECK_U64(v.fall_bytes, 0);
	/* no growth at all (a trend that went back): any fall is another's */
	e.ev.rss_net_growth_bytes = -(__s64)HK_MIB;
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 19000 * HK_MIB, &v), 1);
	CHECK_U64(v.growth_bytes, 0);
	/* its memory cgroup binds (or RAM, without the host's figure): as before */
	host_event(&e, 130000, 30000, 600);
	e.ev.limit_kind = HK_LIMIT_MEMCG;
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 13400 * HK_MIB, &v), 0);
	e.ev.limit_kind = HK_LIMIT_RAM;
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130200, 13400 * HK_MIB, &v), 0);
	/* a history younger than the trend (the tool started 10 s ago): the
	 * trend's growth over the 11 s the history covers, 220 MiB of 600 */
	host_event(&e, 130000, 30000, 600);
	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	hk_blame__push(&b, 119000, 20000 * HK_MIB, false);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130000, 19600 * HK_MIB, &v), 0);
	CHECK_U64(v.growth_bytes, 220 * HK_MIB);
	CHECK_U64(v.span_ms, 11000);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130000, 19000 * HK_MIB, &v), 1);
	/* sampled only after the event: it cannot be told, as before */
	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	hk_blame__push(&b, 130000, 20000 * HK_MIB, false);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130100, 10000 * HK_MIB, &v), 0);
	/* nothing sampled yet: it cannot be told, as before */
	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	CHECK_U64((__u64)hk_blame__judge(&b, &e, 130000, 0, &v), 0);
}

static void test_told(void)
{
	static struct hk_freeze_blame b;
	struct hk_event e;
	__u32 i;

	hk_blame__init(&b, 30 * HK_NSEC_PER_SEC);
	host_event(&e, 1000, 1000, 1);
	CU_ASSERT(!hk_blame__told(&b, &e));
	CU_ASSERT(hk_blame__told(&b, &e));
	CHECK_U64(b.repeats, 1);
	/* the same PID, another process: its own episode */
	e.start_boottime_ns++;
	CU_ASSERT(!hk_blame__told(&b, &e));
	e.start_boottime_ns--;
	hk_blame__forget(&b, &e);
	CU_ASSERT(!hk_blame__told(&b, &e));
	/* HK_BLAME_TOLD episodes later, 4242's is forgotten: said again */
	for (i = 0; i < HK_BLAME_TOLD; i++) {
		e.tgid = 10000 + i;
		CU_ASSERT(!hk_blame__told(&b, &e));
	}
	e.tgid = 10000;
	CU_ASSERT(hk_blame__told(&b, &e));
	e.tgid = 4242;
	CU_ASSERT(!hk_blame__told(&b, &e));
}

static void write_meminfo(const char *path, __u64 avail_kib)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "MemTotal:       24683656 kB\nMemFree:        23000000 kB\n"
		"MemAvailable:   %llu kB\nBuffers:            1024 kB\n",
		(unsigned long long)avail_kib);
	fclose(f);
}

/*
 * Through the freezer: the refusal is a line, said and counted once per
 * episode; the episode ends as the process leaves OOM risk; a memory
 * cgroup's leak goes on to the act.
 */
static void test_event(void)
{
	char path[] = "/tmp/hk-unit-meminfo.XXXXXX", want[512];
	struct hk_freezer f;
	struct hk_config cfg;
	struct hk_event e, out;
	__u64 now_ms, avail;
	int fd, prio = -1, n;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT(hk_blame__read_avail("/proc/meminfo", &avail) == 0 && avail > 0);
	write_meminfo(path, 3 << 20);				/* 3 GiB */
	CU_ASSERT(hk_blame__read_avail(path, &avail) == 0);
	CHECK_U64(avail, 3 * HK_GIB);
	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 60;
	CU_ASSERT_FATAL(hk_freeze__init(&f, &cfg) == 0);
	/* the tool's start read /proc/meminfo, and wakes for the next reading
	 * a stride later; this test's host is the file */
	CHECK_U64(f.blame->nr, 1);
	n = hk_freeze__sample_timeout_ms(&f);
	CU_ASSERT(n > 0 && (__u64)n <= f.blame->stride_ms);
	/* a reading that fails is not tried again at once (no busy loop) */
	f.blame->meminfo = "/nonexistent/meminfo";
	f.blame->tried_ms = 0;
	hk_freeze__sample(&f);
	CHECK_U64(f.blame->nr, 1);
	n = hk_freeze__sample_timeout_ms(&f);
	CU_ASSERT(n > 0 && (__u64)n <= f.blame->stride_ms);
	hk_blame__init(f.blame, cfg.oom_trend_span_ns);
	f.blame->meminfo = path;
	f.rundir = "/nonexistent/hk-unit-rundir";
	now_ms = (__u64)mono_ms();
	hk_blame__push(f.blame, now_ms - 31000, 10 * HK_GIB, true);
	host_event(&e, now_ms, 30000, 600);
	n = hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT_FATAL(n > 0);
	/* the span runs from the sample to the reading: 31 s, give or take */
	CU_ASSERT(f.r->outcome == HK_FREEZE_REFUSED);
	snprintf(want, sizeof(want), "hotspot-k: pid 4242 python3 (oom_risk in 7s) not frozen: the "
		 "host's headroom (MemAvailable) fell 7168 MiB in %s s, and pid 4242's own growth "
		 "explains 600 MiB of it (8 %%, under 50 %%): someone else's memory\n",
		 strstr(f.line, "in 31 s") ? "31" : "32");
	ASSERT_STR(f.line, want);
	CHECK_U64(f.refused, 1);
	CHECK_U64((__u64)prio, 5);
	/* its ETA crosses again in the same episode: nothing more said */
	e.type = HK_EV_ETA;
	e.from = HK_OOM_RISK;
	prio = -1;
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	CHECK_U64(f.refused, 1);
	CHECK_U64(f.blame->repeats, 1);
	CHECK_U64((__u64)prio, (__u64)-1);
	/* it leaves OOM risk, and enters again: said again (JSON here) */
	out = e;
	out.type = HK_EV_TRANSITION;
	out.to = HK_OK;
	CHECK_U64(hk_freeze__event(&f, &out, 0, &ctx_utc, &prio), 0);
	e.type = HK_EV_TRANSITION;
	e.from = HK_OK;
	n = hk_freeze__event(&f, &e, 1, &ctx_utc, &prio);
	CU_ASSERT(n > 0);
	ASSERT_HAS(f.line, "\"cgroup\":null,\"freezer\":null,\"result\":\"refused\",\"reason\":"
		   "\"the host's headroom (MemAvailable) fell 7168 MiB in ");
	CHECK_U64(f.refused, 2);
	/* the same figures in a memory cgroup at its limit: to the act (which
	 * refuses hotspot-k's own cgroup, or fails on a PID that is not) */
	e.ev.limit_kind = HK_LIMIT_MEMCG;
	e.tgid = 4194305;
	n = hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(n > 0);
	CU_ASSERT(!strstr(f.line, "someone else's memory"));
	CHECK_U64(f.frozen, 0);
	hk_freeze__free(&f);
	unlink(path);
}

int hk_add_freeze_blame_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "ring", test_ring },
		{ "rule", test_rule },
		{ "told once per episode", test_told },
		{ "through the freezer", test_event },
	};

	return HK_ADD_SUITE("freeze blame", tests);
}
