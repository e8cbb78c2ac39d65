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

static struct hk_ledger split_group(const struct hk_evidence *ev, const struct hk_stall_mem *m,
				    __u64 wait_ns, __u64 io_ns, __u32 cpus, __u32 group_pct_x100)
{
	struct hk_ledger out;

	memset(&out, 0xa5, sizeof(out));
	hk_stall_split(ev, m, wait_ns, io_ns, cpus, group_pct_x100, &out);
	return out;
}

/* a process alone in its CPU group, or in the root's */
static struct hk_ledger split(const struct hk_evidence *ev, const struct hk_stall_mem *m,
			      __u64 wait_ns, __u64 io_ns, __u32 cpus)
{
	return split_group(ev, m, wait_ns, io_ns, cpus, 0);
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

static const struct hk_stall_mem no_mem;

/* Two hogs of two processes on one CPU: each ran half and waited half,
 * one thread on the one CPU it may use: all of it is the other's. */
static void test_neighbor(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 1, .cpu_pct_x100 = 5000 };
	struct hk_ledger l = split(&ev, &no_mem, 500 * MS, 0, 1);

	CAUSE(l, HK_STALL_NEIGHBOR, 500 * MS);
	CAUSE(l, HK_STALL_SELF, 0);
	CAUSE(l, HK_STALL_QUOTA, 0);
	CAUSE(l, HK_STALL_WEIGHT, 0);
	check_s64((__s64)sum(&l), 500 * MS, __LINE__, "sum");
	/* the same, but its waiting thread is nice 10: it asked for less */
	ev.wait_nice = 10;
	l = split(&ev, &no_mem, 500 * MS, 0, 1);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	CAUSE(l, HK_STALL_WEIGHT, 500 * MS);
	/* four loops of four processes on two CPUs: each runs and waits half */
	ev.wait_nice = 0;
	l = split(&ev, &no_mem, 500 * MS, 0, 2);
	CAUSE(l, HK_STALL_NEIGHBOR, 500 * MS);
	CAUSE(l, HK_STALL_SELF, 0);
}

/* Eight busy threads of one process on one CPU: its own crowd. Four on two
 * CPUs beside a hog: 2 s of the wait is its own, the hog's 0.4 s is not. */
static void test_self(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 8, .cpu_pct_x100 = 10000 };
	struct hk_ledger l = split(&ev, &no_mem, 7000 * MS, 0, 1);

	CAUSE(l, HK_STALL_SELF, 7000 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	ev.nr_threads = 4;
	ev.cpu_pct_x100 = 16000;
	l = split(&ev, &no_mem, 2400 * MS, 0, 2);
	CAUSE(l, HK_STALL_SELF, 2000 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 400 * MS);
}

/*
 * `make -j4` in one cgroup on 2 CPUs: four compilers of one thread each,
 * each ran 0.5 s and waited 0.5 s. Each alone is a neighbor's victim;
 * the group ran and waited 4 s on 2 CPUs: 2 s beyond them, all its 2 s
 * of wait its own. Beside two hogs of other groups (6 loops on 2 CPUs,
 * each ran 1/3 s and waited 2/3 s), the group's 4 x 1 s exceed 2 CPUs by
 * 2 s of its 8/3 s wait: 75 % self, the rest the hogs'.
 */
static void test_group(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 1, .cpu_pct_x100 = 5000 };
	struct hk_ledger l;
	__u32 pct;

	pct = hk_stall_group_self(4000 * MS, 2000 * MS, WIN, 2);
	check_s64(pct, 10000, __LINE__, "make -j4 alone: all its wait its own");
	l = split_group(&ev, &no_mem, 500 * MS, 0, 2, pct);
	CAUSE(l, HK_STALL_SELF, 500 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	pct = hk_stall_group_self(4000 * MS, 4 * 2000 * MS / 3, WIN, 2);
	check_s64(pct, 7500, __LINE__, "make -j4 beside two hogs");
	ev.cpu_pct_x100 = 3333;
	l = split_group(&ev, &no_mem, 600 * MS, 0, 2, pct);
	CAUSE(l, HK_STALL_SELF, 450 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 150 * MS);
	/* a group within its CPUs: nothing its own; the process's own
	 * crowd still counts when it is more */
	check_s64(hk_stall_group_self(1500 * MS, 300 * MS, WIN, 2), 0, __LINE__, "within");
	ev.nr_threads = 8;
	ev.cpu_pct_x100 = 10000;
	l = split_group(&ev, &no_mem, 7000 * MS, 0, 1, 1000);
	CAUSE(l, HK_STALL_SELF, 7000 * MS);
	/* no wait, no window: 0 */
	check_s64(hk_stall_group_self(4000 * MS, 0, WIN, 2), 0, __LINE__, "no wait");
	check_s64(hk_stall_group_self(4000 * MS, 1000 * MS, 0, 2), 0, __LINE__, "no window");
	/* the quota's wait first: the group's share takes only the rest */
	ev.nr_threads = 1;
	ev.cpu_pct_x100 = 2000;
	ev.throttled_norm_pct_x100 = 6000;
	l = split_group(&ev, &no_mem, 800 * MS, 0, 1, 10000);
	CAUSE(l, HK_STALL_QUOTA, 600 * MS);
	CAUSE(l, HK_STALL_SELF, 200 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
}

/*
 * A 20 % quota, 2 threads on 1 CPU: throttled 80 % of the window, each
 * thread waits it, and each waits 10 % behind the other: 1.6 s quota of
 * 1.8 s, the rest its own. Spread on 2 CPUs, throttled on both (180 %,
 * taken as 100 %): all of it is the quota's. One loop under the quota
 * beside a hog: throttled 60 %, and the hog held it back 20 %.
 */
static void test_quota(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 2, .cpu_pct_x100 = 2000,
				  .throttled_norm_pct_x100 = 8000 };
	struct hk_ledger l = split(&ev, &no_mem, 1800 * MS, 0, 1);

	CAUSE(l, HK_STALL_QUOTA, 1600 * MS);
	CAUSE(l, HK_STALL_SELF, 200 * MS);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	ev.throttled_norm_pct_x100 = 18000;
	l = split(&ev, &no_mem, 1800 * MS, 0, 2);
	CAUSE(l, HK_STALL_QUOTA, 1800 * MS);
	CAUSE(l, HK_STALL_SELF, 0);
	CAUSE(l, HK_STALL_NEIGHBOR, 0);
	ev.nr_threads = 1;
	ev.throttled_norm_pct_x100 = 6000;
	l = split(&ev, &no_mem, 800 * MS, 0, 1);
	CAUSE(l, HK_STALL_QUOTA, 600 * MS);
	CAUSE(l, HK_STALL_SELF, 0);
	CAUSE(l, HK_STALL_NEIGHBOR, 200 * MS);
}

/* Steal, I/O and memory after the run-queue wait, each capped by what the
 * window x threads leaves: the sum never passes it. */
static void test_budget(void)
{
	struct hk_evidence ev = { .window_ns = WIN, .nr_threads = 2, .cpu_pct_x100 = 5000,
				  .cpu_lost_pct_x100 = 1500 };
	struct hk_stall_mem m = { .reclaim_ns = 400 * MS, .swapin_ns = 300 * MS,
				  .refault_ns = 200 * MS };
	struct hk_ledger l = split(&ev, &m, 500 * MS, 700 * MS, 2);

	CAUSE(l, HK_STALL_NEIGHBOR, 500 * MS);
	CAUSE(l, HK_STALL_STEAL_IRQ, 150 * MS);
	CAUSE(l, HK_STALL_IO, 700 * MS);
	CAUSE(l, HK_STALL_RECLAIM, 400 * MS);
	CAUSE(l, HK_STALL_SWAPIN, 250 * MS);	/* 2 s - 1.75 s */
	CAUSE(l, HK_STALL_REFAULT, 0);
	check_s64((__s64)sum(&l), 2000 * MS, __LINE__, "sum = window x threads");
	/* a wait past window x threads (a thread counted twice) is cut */
	l = split(&ev, &m, 5000 * MS, 0, 1);
	CAUSE(l, HK_STALL_SELF, 1500 * MS);	/* 0.5 s ran + 2 s - 1 CPU */
	CAUSE(l, HK_STALL_NEIGHBOR, 500 * MS);
	check_s64((__s64)sum(&l), 2000 * MS, __LINE__, "sum = window x threads");
	/* no window: nothing */
	ev.window_ns = 0;
	l = split(&ev, &m, 500 * MS, 0, 1);
	check_s64((__s64)sum(&l), 0, __LINE__, "no window");
}

/* The invariant over a grid of inputs, the measured parts past the wait
 * included (the walk's per-thread parts and the wait are summed apart). */
static void test_invariant(void)
{
	static const __u64 v[] = { 0, 1, 7 * MS, 333 * MS, WIN, 3 * WIN, 50 * WIN };
	const unsigned int nv = sizeof(v) / sizeof(v[0]);
	struct hk_evidence ev = { .window_ns = WIN };
	struct hk_stall_mem m;
	struct hk_ledger l;
	unsigned int a, b, c, d, n, bad = 0;

	for (n = 0; n <= 3; n++)
		for (a = 0; a < nv; a++)
			for (b = 0; b < nv; b++)
				for (c = 0; c < nv; c++)
					for (d = 0; d < nv; d++) {
						ev.nr_threads = n;
						ev.throttled_norm_pct_x100 = (__u32)(v[d] % 20011);
						ev.cpu_lost_pct_x100 = (__u32)(v[c] % 10001);
						ev.cpu_pct_x100 = (__u32)(v[b] % 40009);
						m = (struct hk_stall_mem){ v[b], v[d], v[a] };
						l = split_group(&ev, &m, v[a], v[c], n,
								(__u32)(v[b] % 10007));
						bad += sum(&l) > WIN * (n ? n : 1);
					}
	check_s64(bad, 0, __LINE__, "ledgers past window x threads");
}

static const struct hk_unit_test tests[] = {
	{ "neighbor, weight", test_neighbor },
	{ "self", test_self },
	{ "self: a CPU group's own crowd", test_group },
	{ "quota", test_quota },
	{ "steal, io, memory within the budget", test_budget },
	{ "sum <= window x threads", test_invariant },
};

int hk_add_stall_suite(void)
{
	return HK_ADD_SUITE("stall ledger", tests);
}
