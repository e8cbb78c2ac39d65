/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk_state.bpf.h - the walk's globals: the process being summed, the
 * clocks, the cursor and the counts. Globals rather than locals: the walk
 * spans several runs of the iter/task program, and a loop head that
 * carries few scalars gives the verifier few states to tell apart. One
 * walk runs at a time (see hk_timer_walking): no two walks share them.
 */
#ifndef HK_BPF_WALK_STATE_H
#define HK_BPF_WALK_STATE_H

#include "maps.bpf.h"		/* struct hk_accum */

/* the process being summed (see struct hk_accum) */
static struct hk_accum hk_cur;
enum hk_cur_state {
	HK_CUR_NONE,		/* nothing open: hk_cur.sig, if set, is a
				 * kernel thread's */
	HK_CUR_OPEN,		/* hk_cur is being summed */
	HK_CUR_CLOSED,		/* hk_cur.sig was closed: a thread of it that
				 * comes after (born during the walk) waits
				 * for the next window */
};
static __u32 hk_cur_state;
static __u32 hk_nr_parked;		/* entries in hk_parked */

/*
 * Clocks. CLOCK_MONOTONIC (bpf_ktime_get_ns) for windows and births; the
 * run-queue clock (rq_clock: sched_info's last_queued and last_arrival)
 * for pending wait and for telling threads that did not run. The two are
 * different clocks, and rq_clock cannot be read from here, so hk_rq_now_ns
 * is a lower bound of it: the latest run-queue time any thread showed,
 * advanced by the monotonic time since, raised as the walk meets later
 * ones. A lower bound errs on the safe side: less pending wait, fewer
 * threads taken for quiet.
 */
static __u64 hk_prev_walk_ns;		/* start of the previous walk */
static __u64 hk_walk_start_ns;		/* start of this one */
static __u64 hk_rq_now_ns;		/* run-queue clock now, lower bound */
static __u64 hk_rq_seen_ns;		/* ... at the end of the previous walk */
static __u64 hk_rq_seen_at_ns;		/* ... which was then (monotonic) */
static __u64 hk_quiet_before_ns;	/* previous walk's start, run-queue
					 * clock; 0: no thread is quiet */
static __u64 hk_prev_walk_rq_ns;

/*
 * The walk's cursor and counts live in globals, so that the loop head
 * carries no scalar that differs between iterations (the verifier then
 * sees few distinct states there), and so that a walk can span several
 * runs of the iter/task program.
 */
static __u32 hk_full_walk;		/* close every process: first walk, sweep */
static __u32 hk_walk_sweep;		/* this walk sweeps hk_procs after */
static __u32 hk_walk_filtered;		/* a filter is set: ask per process */
static __u32 hk_filter_gen_seen;	/* hk_config.filter_gen last walk */
static __u64 hk_walk_rq_start_ns;	/* hk_rq_now_ns when it began */
static __u64 hk_cur_threads;
static __u64 hk_cur_procs;
static __u64 hk_cur_quiet;
static __u64 hk_cur_visited;
/* ... of which with no delay accounting, and of those main threads */
static __u64 hk_cur_no_delays;
static __u64 hk_cur_no_delays_leaders;
static __u64 hk_cur_window_ns;
static __u64 hk_walk_switches;
static __u32 hk_io_on;			/* io_blocked is on: hk_config's, per walk */
static __u32 hk_mem_stall_on;		/* Mem-thrashing reads stall time: ditto */

static __u64 hk_stale_dropped;
static __u64 hk_cur_parked;
static __u32 hk_acc_ns_pid;		/* PID in its own namespace */
static __u64 hk_acc_ns_ino;		/* that namespace, 0: ours */
static __u64 hk_acc_boot_ns;		/* the leader's start_boottime */
static struct hk_accum hk_zero_accum;	/* never written */

/*
 * By TID (iter driver): processes whose threads met so far were all quiet
 * and that need nothing at their close, counted here rather than parked
 * (hk_quiet_settle). Direct-mapped by TGID; a slot is free unless its walk
 * is this one. Processes met interleaved are the rule by TID (threads made
 * while other processes started): parking each costs a hash update that
 * allocates, a lookup, two copies of hk_accum and a delete that frees.
 */
struct hk_light {
	__u64 sig;		/* which process (its signal struct) */
	__u32 tgid;
	__u32 walk;		/* the walk that took it, low 32 bits */
	__u32 met;		/* threads met */
	__u32 nr_threads;	/* as hk_accum's */
};
#define HK_LIGHT_SLOTS 8192
static struct hk_light hk_light[HK_LIGHT_SLOTS];

/* A thread showed run-queue time t_ns: the clock is at least there. */
static __always_inline void hk_rq_raise(__u64 t_ns)
{
	if (t_ns > hk_rq_now_ns)
		hk_rq_now_ns = t_ns;
}

#endif /* HK_BPF_WALK_STATE_H */
