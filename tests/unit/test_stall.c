// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_stall.c - the stall ledger's split (include/shared/classify_stall.h,
 * the code the kernel runs): each cause from the data a window has, in
 * the documented order, and a ledger's sum never past window x threads.
 */
#include "check.h"
#include "suites.h"
#include "shared/classify.h"

#define MS HK_NSEC_PER_MSEC
#define WIN (1000 * MS)

static struct hk_ledger split(const struct hk_evidence *ev, const struct hk_stall_walk *w,
			      __u64 wait_ns, __u64 io_ns, __u32 saturated)
{
	struct hk_ledger out;

	memset(&out, 0xa5, sizeof(out));
	hk_stall_split(ev, w, wait_ns, io_ns, saturated, &out);
	return out;
}

static __u64 sum(const struct hk_ledger *l)
{
	__u64 s = 0;
	int i;

	for (i = 0; i < HK_STALL_NR; i++)
		s += l->ns[i];
	return s;
}

#define CAUSE(l, c, want) check_s64((__s64)(l).ns[c], (__s64)(want), __LINE__, "%s", #c)

/* Two hogs of two processes on one CPU: every switch went to the other. */
static void test_neighbor(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 1 };
	struct hk_stall_walk w = { .other_ns = 500 * MS };
	struct hk_ledger l = split(&ev, &w, 500 * MS, 0, 0);

	CAUSE(l, HK_STALL_NEIGHBOR, 500 * MS);
	CAUSE(l, HK_STALL_SELF, 0);
	CAUSE(l, HK_STALL_QUOTA, 0);
	CAUSE(l, HK_STALL_WEIGHT, 0);
	check_s64((__s64)sum(&l), 500 * MS, __LINE__, "sum");
	/* the same, but its waiting thread is nice 10: it asked for less */
	ev.wait_nice = 10;
	l = split(&ev, &w, 500 * MS, 0, 0);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	CAUSE(l, HK_STALL_WEIGHT, 500 * MS);
}

/* Four busy threads on one CPU: the switches went to its own threads, and
 * a wait with no switch behind it is its own when it got the CPUs. */
static void test_self(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 4 };
	struct hk_stall_walk w = { .other_ns = 300 * MS, .unswitched_ns = 600 * MS };
	struct hk_ledger l = split(&ev, &w, 3000 * MS, 0, 1);

	CAUSE(l, HK_STALL_NEIGHBOR, 300 * MS);
	CAUSE(l, HK_STALL_SELF, 2700 * MS);
	/* not saturated: the unswitched wait was behind somebody else */
	l = split(&ev, &w, 3000 * MS, 0, 0);
	CAUSE(l, HK_STALL_NEIGHBOR, 900 * MS);
	CAUSE(l, HK_STALL_SELF, 2100 * MS);
}

/*
 * A 20 % quota, 2 threads on 1 CPU: throttled 80 % of the window, each
 * thread waits it, and each waits 10 % behind the other: 1.6 s quota of
 * 1.8 s, the rest its own. Some of the throttled switches went to other
 * processes (a neighbor ran while it was throttled): their share is taken
 * from what the quota left.
 */
static void test_quota(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 2,
				  .throttled_norm_pct_x100 = 8000 };
	struct hk_stall_walk w = { .other_ns = 900 * MS };
	struct hk_ledger l = split(&ev, &w, 1800 * MS, 0, 1);

	CAUSE(l, HK_STALL_QUOTA, 1600 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 100 * MS);	/* 200 ms x 50 % */
	CAUSE(l, HK_STALL_SELF, 100 * MS);
	/* spread over 2 CPUs, throttled on both (180 %, taken as 100 %):
	 * all of it is the quota's */
	ev.throttled_norm_pct_x100 = 18000;
	l = split(&ev, &w, 1800 * MS, 0, 1);
	CAUSE(l, HK_STALL_QUOTA, 1800 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	CAUSE(l, HK_STALL_SELF, 0);
}

/* Steal, I/O and memory after the run-queue wait, each capped by what the
 * window x threads leaves: the sum never passes it. */
static void test_budget(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 2,
				  .cpu_lost_pct_x100 = 1500 };
	struct hk_stall_walk w = { .reclaim_ns = 400 * MS, .swapin_ns = 300 * MS,
				   .refault_ns = 200 * MS };
	struct hk_ledger l = split(&ev, &w, 500 * MS, 700 * MS, 1);

	CAUSE(l, HK_STALL_SELF, 500 * MS);
	CAUSE(l, HK_STALL_STEAL_IRQ, 150 * MS);
	CAUSE(l, HK_STALL_IO, 700 * MS);
	CAUSE(l, HK_STALL_RECLAIM, 400 * MS);
	CAUSE(l, HK_STALL_SWAPIN, 250 * MS);	/* 2 s - 1.75 s */
	CAUSE(l, HK_STALL_REFAULT, 0);
	check_s64((__s64)sum(&l), 2000 * MS, __LINE__, "sum = window x threads");
	/* a wait past window x threads (a thread counted twice) is cut */
	l = split(&ev, &w, 5000 * MS, 0, 1);
	CAUSE(l, HK_STALL_SELF, 2000 * MS);
	check_s64((__s64)sum(&l), 2000 * MS, __LINE__, "sum = window x threads");
	/* no window: nothing */
	ev.window_ns = 0;
	l = split(&ev, &w, 500 * MS, 0, 1);
	check_s64((__s64)sum(&l), 0, __LINE__, "no window");
}

/* The invariant over a grid of inputs, the measured parts past the wait
 * included (the walk's per-thread parts and the wait are summed apart). */
static void test_invariant(void)
{
	static const __u64 v[] = { 0, 1, 7 * MS, 333 * MS, WIN, 3 * WIN, 50 * WIN };
	struct hk_evidence ev = { .window_ns = WIN };
	struct hk_stall_walk w;
	struct hk_ledger l;
	unsigned int a, b, c, d, n, bad = 0;

	for (n = 0; n <= 3; n++)
		for (a = 0; a < sizeof(v) / sizeof(v[0]); a++)
			for (b = 0; b < sizeof(v) / sizeof(v[0]); b++)
				for (c = 0; c < sizeof(v) / sizeof(v[0]); c++)
					for (d = 0; d < sizeof(v) / sizeof(v[0]); d++) {
						ev.nr_threads = n;
						ev.throttled_norm_pct_x100 = (__u32)(v[d] % 20011);
						ev.cpu_lost_pct_x100 = (__u32)(v[c] % 10001);
						w = (struct hk_stall_walk){ v[b], v[c], v[d], v[a], v[b] };
						l = split(&ev, &w, v[a], v[c], a & 1);
						bad += sum(&l) > WIN * (n ? n : 1);
					}
	check_s64(bad, 0, __LINE__, "ledgers past window x threads");
}

static const struct hk_unit_test tests[] = {
	{ "neighbor, weight", test_neighbor },
	{ "self", test_self },
	{ "quota", test_quota },
	{ "steal, io, memory within the budget", test_budget },
	{ "sum <= window x threads", test_invariant },
};

int hk_add_stall_suite(void)
{
	return HK_ADD_SUITE("stall ledger", tests);
}
