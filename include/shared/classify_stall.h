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
 * The split of one window (out->ns[], ns). Its sum is at most window x
 * threads: each cause takes at most what the ones before it left, in this
 * order:
 *  1. quota: while its group is throttled every thread it has waiting
 *     waits; that is the throttled share (at most the window) times the
 *     threads waiting on average (wait / window, rounded up);
 *  2. the rest of the run-queue wait, by who took the CPU: the share the
 *     sched_switch hook saw go to other processes is neighbor (weight when
 *     the thread asked for less), the rest self (its own threads, and
 *     kernel threads); a wait with no switch behind it (woken onto a busy
 *     CPU) is self when it got all the CPUs it may use, else neighbor;
 *  3. steal + IRQ, then I/O, then memory (reclaim, swap-in, refault).
 */
static inline void hk_stall_split(const struct hk_evidence *ev, const struct hk_stall_walk *in,
				  __u64 wait_ns, __u64 io_ns, __u32 saturated,
				  struct hk_ledger *out)
{
	__u64 window_ns = ev->window_ns;
	__u64 budget = window_ns * (ev->nr_threads ? ev->nr_threads : 1);
	__u64 used = 0, wait, quota, rest, other, unsw, share, waiting;
	__u64 throttled_x100 = hk_min_u64(ev->throttled_norm_pct_x100, 10000);
	__u32 i;

	for (i = 0; i < HK_STALL_NR; i++)
		out->ns[i] = 0;
	if (!window_ns)
		return;
	wait = hk_stall_take(wait_ns, budget, &used);
	waiting = (wait + window_ns - 1) / window_ns;
	quota = hk_min_u64(wait, window_ns * throttled_x100 / 10000 * waiting);
	rest = wait - quota;
	other = 0;
	unsw = 0;
	if (wait) {
		/* shares of the measured wait, applied to what quota left */
		share = hk_min_u64(in->other_ns, wait) * 10000 / wait;
		other = rest * share / 10000;
		share = hk_min_u64(in->unswitched_ns, wait) * 10000 / wait;
		unsw = hk_min_u64(rest * share / 10000, rest - other);
	}
	if (saturated)
		out->ns[HK_STALL_SELF] = rest - other;
	else {
		out->ns[HK_STALL_SELF] = rest - other - unsw;
		other += unsw;
	}
	out->ns[hk_deprio(ev) ? HK_STALL_WEIGHT : HK_STALL_NEIGHBOR] = other;
	out->ns[HK_STALL_QUOTA] = quota;
	out->ns[HK_STALL_STEAL_IRQ] = hk_stall_take(window_ns * ev->cpu_lost_pct_x100 / 10000,
						    budget, &used);
	out->ns[HK_STALL_IO] = hk_stall_take(io_ns, budget, &used);
	out->ns[HK_STALL_RECLAIM] = hk_stall_take(in->reclaim_ns, budget, &used);
	out->ns[HK_STALL_SWAPIN] = hk_stall_take(in->swapin_ns, budget, &used);
	out->ns[HK_STALL_REFAULT] = hk_stall_take(in->refault_ns, budget, &used);
}

/* Add a window's ledger to a running total. */
static inline void hk_stall_add(struct hk_ledger *total, const struct hk_ledger *win)
{
	__u32 i;

	for (i = 0; i < HK_STALL_NR; i++)
		total->ns[i] += win->ns[i];
}

#endif /* HK_SHARED_CLASSIFY_STALL_H */
