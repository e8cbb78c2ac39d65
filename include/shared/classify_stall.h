/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_stall.h - the stall ledger's rule: one window's wait of a
 * process split by resource and cause (hk_stall_split). Pure, helper-free
 * and integer-only: the window step (classify.h) runs it in the kernel and
 * the unit tests run the same code. docs/stall-ledger.md says it in prose.
 */
#ifndef HK_SHARED_CLASSIFY_STALL_H
#define HK_SHARED_CLASSIFY_STALL_H

#include "hotspot.h"
#include "classify_math.h"
#include "classify_sched.h"

/* x capped at what is left of budget after *used, added to *used. */
static inline __u64 hk_stall_take(__u64 x, __u64 budget, __u64 *used)
{
	__u64 left = budget > *used ? budget - *used : 0;

	x = x < left ? x : left;
	*used += x;
	return x;
}

/*
 * The share of a CPU group's run-queue wait (its quota's apart) that its
 * own processes caused in one window, as self is for one process's
 * threads: its processes ran and waited ran_wait_ns in all, wait_ns of it
 * waiting; whatever went beyond cpus x window it would have waited with
 * nobody else there. A `make -j` in one cgroup waits on itself, though
 * each compiler is a process of one thread. In 0.01 % of wait_ns.
 */
static inline __u32 hk_stall_group_self(__u64 ran_wait_ns, __u64 wait_ns, __u64 window_ns,
					__u32 cpus)
{
	__u64 crowd;

	if (!wait_ns || !window_ns)
		return 0;
	crowd = hk_sub_clamp(ran_wait_ns, window_ns * (cpus ? cpus : 1));
	if (crowd >= wait_ns)
		return 10000;
	return (__u32)(crowd * 10000 / wait_ns);
}

/*
 * The split of one window (out->ns[], ns). Its sum is at most window x
 * threads: each cause takes at most what the ones before it left, in this
 * order:
 *  1. quota: while its group is throttled every thread it has waiting
 *     waits; that is the throttled share (at most the window) times the
 *     threads waiting on average (wait / window, rounded up);
 *  2. self: the rest of the run-queue wait, as far as its own threads
 *     outnumbered the CPUs it may use (cpus: the host's and its affinity's,
 *     its quota apart): with nobody else there, threads that ran and waited
 *     (cpu + wait) for more than cpus x window wait the excess anyway;
 *     or, when more, its CPU group's own share of the rest
 *     (group_self_pct_x100, hk_stall_group_self of the window before);
 *  3. neighbor: what is left, another process held the CPU (weight when
 *     the thread that waited most asked for less);
 *  4. steal + IRQ, then I/O, then memory (reclaim, swap-in, refault).
 */
static inline void hk_stall_split(const struct hk_evidence *ev, const struct hk_stall_mem *mem,
				  __u64 wait_ns, __u64 io_ns, __u32 cpus,
				  __u32 group_self_pct_x100, struct hk_ledger *out)
{
	__u64 window_ns = ev->window_ns;
	__u64 budget = window_ns * (ev->nr_threads ? ev->nr_threads : 1);
	__u64 throttled_x100 = hk_min_u64(ev->throttled_norm_pct_x100, 10000);
	__u64 used = 0, wait, quota, rest, ran, crowd, waiting, group;
	__u32 i;

	for (i = 0; i < HK_STALL_NR; i++)
		out->ns[i] = 0;
	if (!window_ns)
		return;
	wait = hk_stall_take(wait_ns, budget, &used);
	waiting = (wait + window_ns - 1) / window_ns;
	quota = hk_min_u64(wait, window_ns * throttled_x100 / 10000 * waiting);
	rest = wait - quota;
	ran = window_ns * ev->cpu_pct_x100 / 10000;
	crowd = hk_sub_clamp(ran + wait, window_ns * (cpus ? cpus : 1));
	out->ns[HK_STALL_QUOTA] = quota;
	/* in 100 ns first: 100 000 threads' minute times 10 000 */
	group = rest / 100 * hk_min_u64(group_self_pct_x100, 10000) / 100;
	out->ns[HK_STALL_SELF] = hk_min_u64(rest, crowd > group ? crowd : group);
	out->ns[hk_deprio(ev) ? HK_STALL_WEIGHT : HK_STALL_NEIGHBOR] =
		rest - out->ns[HK_STALL_SELF];
	out->ns[HK_STALL_STEAL_IRQ] = hk_stall_take(window_ns * ev->cpu_lost_pct_x100 / 10000,
						    budget, &used);
	out->ns[HK_STALL_IO] = hk_stall_take(io_ns, budget, &used);
	out->ns[HK_STALL_RECLAIM] = hk_stall_take(mem->reclaim_ns, budget, &used);
	out->ns[HK_STALL_SWAPIN] = hk_stall_take(mem->swapin_ns, budget, &used);
	out->ns[HK_STALL_REFAULT] = hk_stall_take(mem->refault_ns, budget, &used);
}

/* The CPUs a process may use for its own crowding (hk_stall_split): the
 * host's, or its widest thread affinity's when fewer. */
static inline __u32 hk_stall_cpus(const struct hk_config *c, const struct hk_evidence *ev)
{
	__u32 n = c->nr_cpus ? c->nr_cpus : 1;

	return ev->cpus_allowed && ev->cpus_allowed < n ? ev->cpus_allowed : n;
}

/* Add a window's ledger to a running total. */
static inline void hk_stall_add(struct hk_ledger *total, const struct hk_ledger *win)
{
	__u32 i;

	for (i = 0; i < HK_STALL_NR; i++)
		total->ns[i] += win->ns[i];
}

/*
 * The ledger of the window hk_window_step just made (it returned 1): its
 * wait and I/O from the evidence's shares (to 0.01 % of the window; in
 * 100 ns units first, so that 100 000 threads' shares of a minute fit 64
 * bits), mem what the walk summed, group_self_pct_x100 its CPU group's
 * (0: none), into stall_win and the running total.
 */
static inline void hk_stall_window(const struct hk_config *c, struct hk_evidence *ev,
				   const struct hk_stall_mem *mem, __u32 group_self_pct_x100)
{
	__u64 unit = ev->window_ns / 100;

	hk_stall_split(ev, mem, unit * ev->wait_pct_x100 / 100, unit * ev->io_pct_x100 / 100,
		       hk_stall_cpus(c, ev), group_self_pct_x100, &ev->stall_win);
	hk_stall_add(&ev->stall_ns, &ev->stall_win);
}

#endif /* HK_SHARED_CLASSIFY_STALL_H */
