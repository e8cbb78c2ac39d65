/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk.bpf.h - once per window, visit every thread and sum the kernel's
 * own counters per process. The drivers (hotspot.bpf.c) differ only in
 * how they meet the threads: the open-coded task iterator (timer and
 * bpf_wq drivers) gives a process's threads together, in the order of its
 * thread list; an iter/task program (the iter driver) gives every thread
 * by TID, so a process's threads may be interleaved with others'. Both
 * call hk_walk_task() per thread, between hk_walk_begin() and
 * hk_walk_end().
 *
 * A process is summed thread by thread and closed on the last of its
 * threads the walk meets, while that thread is still at hand: in list
 * order the one whose thread_node ends its signal's thread list; in TID
 * order the one that makes the count of threads met reach the process's
 * thread count. Not the end of the list there: once the PID counter has
 * wrapped, a thread made since can have a lower TID than the older ones,
 * and be met first. A process's window is the sum of
 * what its threads did since each was last seen (baselines in task
 * storage), plus what the threads that exited since did (the exit hook
 * adds it to its hk_procs entry): a thread that did not run since the
 * previous walk is read no further than its run-queue stamps, one cache
 * line, and a process none of whose threads ran (most of a machine) whose
 * label has nothing to settle touches neither hk_procs nor its signal, mm
 * or cgroups.
 *
 * In parts, each a header of its own, included here in the order they
 * build on each other:
 *  - walk_state.bpf.h: the globals (process summed, clocks, counts);
 *  - walk_thread.bpf.h: a thread: quiet or visited, and its exit;
 *  - walk_proc.bpf.h: a process: summed, parked, closed into its window;
 *  - this file: the drivers' walk: a thread met, begin, end, hand-over.
 */
#ifndef HK_BPF_WALK_H
#define HK_BPF_WALK_H

#include "core_fixes.bpf.h"
#include "cgroup_limits.bpf.h"
#include "filter.bpf.h"
#include "window.bpf.h"
#include "sched_prio.bpf.h"
#include "walk_state.bpf.h"
#include "walk_thread.bpf.h"
#include "walk_proc.bpf.h"

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;
/* weak: the iter driver's kernels (< 6.2) have neither; the programs
 * that call them are then not loaded */
extern void bpf_rcu_read_lock(void) __weak __ksym;
extern void bpf_rcu_read_unlock(void) __weak __ksym;

/*
 * Every thread, under every driver. In list order (the open-coded
 * iterator's: a process's threads together), a thread that did nothing
 * and does not end its process's thread list costs the quiet test only;
 * by TID (iter/task), a quiet thread is counted too (see hk_cur_all_met):
 * its process is the one summed. A thread that did something adds to it;
 * 1 for the last one, whose caller closes the process (hk_walk_close).
 * in_list_order is a constant at each call: the verifier sees one shape
 * of the loop per driver.
 */
static __always_inline int hk_walk_thread(struct task_struct *t, const int in_list_order)
{
	__u64 queued, arrival;
	__u32 waiting, quiet, last = 0;

	hk_cur_threads++;
	quiet = hk_thread_quiet(t, &queued, &arrival, &waiting);
	/* asleep on I/O since before the previous walk: not quiet, its
	 * pending I/O wait is this window's (one more cache line of the
	 * task, only with io_blocked on) */
	if (quiet && hk_io_on && hk_task_in_iowait(t))
		quiet = 0;
	if (in_list_order) {
		last = hk_last_thread(t);
		if (quiet && !last)
			return 0;
	} else if (quiet && hk_quiet_settle(t)) {
		return 0;
	}
	if (!hk_cur_select(t))
		return 0;
	if (!quiet) {
		hk_cur.active++;
		hk_thread_visit(t, queued, waiting, hk_ran_bit(arrival));
	}
	if (!in_list_order)
		last = hk_cur_all_met(t);
	return last;
}

/* t was its process's last thread: the process's window, from its sums */
static __always_inline void hk_walk_close(struct task_struct *t)
{
	hk_cur_state = HK_CUR_CLOSED;
	hk_cur_procs++;
	hk_proc_close(t, hk_cur.tgid);
}

/* The iter/task driver's thread: by TID. */
static __always_inline int hk_walk_task(struct task_struct *t)
{
	if (hk_walk_thread(t, 0))
		hk_walk_close(t);
	return 0;
}

/*
 * The timer drivers' thread, in list order: a call, not inlined into the
 * iterator's loop. Inlined, each of the body's paths reached the loop's
 * head as a state of its own, and the verifier compared them all there:
 * 2.1 s to verify hk_arm on 6.18, against 0.4 s as a call, whose paths end
 * in it. The close stays in the loop: as a call from here it was one
 * frame more on the timer's and the wq's deepest chains.
 */
static __noinline int hk_walk_listed(struct task_struct *t)
{
	return hk_walk_thread(t, 1);
}

/* Parked processes whose last thread the walk did not meet: as
 * hk_proc_unclosed. */
static long hk_flush_cb(struct bpf_map *map, __u32 *key, struct hk_accum *a, void *ctx)
{
	__u32 tgid = *key;

	__builtin_memcpy(&hk_cur, a, sizeof(hk_cur));
	hk_proc_unclosed(tgid);
	hk_parked_mark(tgid, 0);
	bpf_map_delete_elem(&hk_parked, &tgid);
	return 0;
}

/* What the walk still holds: the process summed, the parked ones. */
static __always_inline void hk_walk_flush(void)
{
	if (hk_cur_state == HK_CUR_OPEN)
		hk_proc_unclosed(hk_cur.tgid);
	hk_cur_state = HK_CUR_NONE;
	hk_cur.sig = 0;
	if (hk_nr_parked)
		bpf_for_each_map_elem(&hk_parked, hk_flush_cb, NULL, 0);
	hk_nr_parked = 0;
}

static long hk_clear_attn_cb(__u64 i, __u32 *half)
{
	if (i >= HK_ATTN_WORDS)
		return 1;
	hk_attn[*half & 1][i & (HK_ATTN_WORDS - 1)] = 0;
	return 0;
}

static long hk_clear_ran_cb(__u64 i, __u32 *half)
{
	if (i >= HK_WATCH_WORDS)
		return 1;
	hk_ran[*half & 1][i & (HK_WATCH_WORDS - 1)] = 0;
	return 0;
}

static long hk_clear_watch_cb(__u64 i, void *ctx)
{
	if (i >= HK_WATCH_WORDS)
		return 1;
	hk_watch[i & (HK_WATCH_WORDS - 1)] = 0;
	return 0;
}

/*
 * The run-queue clock at the start of the walk, a lower bound (see
 * hk_rq_now_ns). In a task of its own (the kworker of the bpf_wq driver,
 * the tool's thread in read() under the iter driver) current has just
 * got the CPU, or is still on it: its last_arrival is a recent run-queue
 * time. In softirq (the timer driver) current is whatever was
 * interrupted: only the previous walk's bound, advanced by the monotonic
 * time since, is known.
 */
static __always_inline void hk_clock_start(__u64 now_ns, int in_worker)
{
	struct task_struct *cur;

	hk_rq_now_ns = hk_rq_seen_ns ? hk_rq_seen_ns + (now_ns - hk_rq_seen_at_ns) : 0;
	if (in_worker) {
		cur = bpf_get_current_task_btf();
		hk_rq_raise(cur->sched_info.last_arrival);
	}
	hk_quiet_before_ns = hk_full_walk ? 0 : hk_prev_walk_rq_ns;
}

/*
 * A walk begins: the window's clocks, scratch and bitmaps. in_worker: the
 * walk runs in a task of its own (a kworker, or the tool's read() of the
 * iter/task driver), not in softirq.
 */
static __noinline int hk_walk_begin(__u32 in_worker)
{
	__u64 start_ns = bpf_ktime_get_ns();
	struct hk_config *c = hk_cfg();
	__u32 next_half;

	if (!c)
		return -1;
	/* an iter/task walk the tool abandoned half-way */
	hk_walk_flush();
	hk_walk_start_ns = start_ns;
	hk_window_begin();
	/* the filters changed (a reload): the processes they now leave out
	 * are not met, and the sweep drops their entries */
	hk_walk_filtered = hk_filter_any(c);
	hk_io_on = c->io_blocked_pct_x100 != 0;
	hk_mem_stall_on = c->thrash_stall_pct_x100 != 0;
	if (c->filter_gen != hk_filter_gen_seen) {
		hk_filter_gen_seen = c->filter_gen;
		hk_sweep_needed = 1;
	}
	/* exits were lost: close every process, then drop entries whose
	 * process the walk did not meet */
	hk_walk_sweep = hk_sweep_needed;
	hk_sweep_needed = 0;
	hk_full_walk = hk_walk_sweep || !hk_prev_walk_ns;
	hk_clock_start(start_ns, in_worker);
	hk_walk_rq_start_ns = hk_rq_now_ns;
	hk_cur_window_ns = hk_prev_walk_ns ? start_ns - hk_prev_walk_ns : 0;
	hk_cur_threads = 0;
	hk_cur_procs = 0;
	hk_cur_quiet = 0;
	hk_cur_visited = 0;
	hk_cur_no_delays = 0;
	hk_cur_no_delays_leaders = 0;
	hk_walk_switches = 0;
	hk_cur_watched = 0;
	hk_stale_dropped = 0;
	hk_cur_parked = 0;
	hk_exits_more = 1;
	next_half = (hk_walk_no & 1) ^ 1;
	hk_loop(HK_ATTN_WORDS, HK_ATTN_WORDS, hk_clear_attn_cb, &next_half);
	hk_loop(HK_WATCH_WORDS, HK_WATCH_WORDS, hk_clear_ran_cb, &next_half);
	if (c->hook)
		hk_loop(HK_WATCH_WORDS, HK_WATCH_WORDS, hk_clear_watch_cb, NULL);
	return 0;
}

/* The walk met every thread: close what is open, the window's end, the
 * clocks for the next, the counts. Returns how long the walk took. */
static __noinline __u64 hk_walk_end(__u32 driver)
{
	struct hk_config *c = hk_cfg();
	struct hk_stats *st = hk_st();
	__u64 end_ns, took_ns;

	hk_walk_flush();
	hk_window_end(hk_walk_sweep, driver == HK_DRIVER_ITER ? HK_ITER_END_EXITS : 1 << 16);
	if (c)
		hk_hook_gate(c);
	end_ns = bpf_ktime_get_ns();
	took_ns = end_ns - hk_walk_start_ns;
	hk_prev_walk_ns = hk_walk_start_ns;
	/* where the run-queue clock was when this walk began, at least:
	 * the bound taken then, or the latest time seen since, less the
	 * walk's duration */
	hk_prev_walk_rq_ns = hk_rq_now_ns > took_ns ? hk_rq_now_ns - took_ns : 0;
	if (hk_walk_rq_start_ns > hk_prev_walk_rq_ns)
		hk_prev_walk_rq_ns = hk_walk_rq_start_ns;
	hk_rq_seen_ns = hk_rq_now_ns;
	hk_rq_seen_at_ns = end_ns;
	if (!st)
		return took_ns;
	st->windows++;
	st->threads_walked += hk_cur_threads;
	st->procs_walked += hk_cur_procs;
	st->procs_quiet += hk_cur_quiet;
	st->threads_visited += hk_cur_visited;
	st->threads_no_delays += hk_cur_no_delays;
	if (hk_full_walk)
		st->procs_no_delays = hk_cur_no_delays_leaders;
	st->stale_waits += hk_stale_dropped;
	st->procs_parked += hk_cur_parked;
	st->sweeps += hk_walk_sweep;
	st->walk_ns_total += took_ns;
	st->last_walk_ns = took_ns;
	st->last_walk_end_ns = end_ns;
	if (took_ns > st->walk_ns_max)
		st->walk_ns_max = took_ns;
	st->switches_recorded += hk_walk_switches;
	st->driver = driver;
	return took_ns;
}

/* A stretch on a CPU with no preemption point ends. */
static __always_inline void hk_stretch_end(__u64 took_ns)
{
	struct hk_stats *st = hk_st();

	if (!st)
		return;
	st->walk_cpu_ns_total += took_ns;
	st->stretches++;
	if (took_ns > 2000000)
		st->stretches_over_2ms++;
	if (took_ns > st->stretch_ns_max)
		st->stretch_ns_max = took_ns;
}

/* The iter driver's stop(): the walk's end, one stretch (exits, victims,
 * the deferred, a sweep), also kept apart: its longest is the driver's
 * worst case. */
static __always_inline void hk_walk_end_stretch(__u64 took_ns)
{
	struct hk_stats *st = hk_st();

	hk_stretch_end(took_ns);
	if (st && took_ns > st->walk_end_ns_max)
		st->walk_end_ns_max = took_ns;
}

/* The iter driver's walker let go of the CPU between two looks: the span
 * counts to the walk's CPU as the threads' usual share (the last span
 * with no switch, est_ns), not with the time off the CPU. */
static __always_inline void hk_walker_yielded(__u64 span_ns, __u64 est_ns)
{
	struct hk_stats *st = hk_st();

	if (!st)
		return;
	st->chunks++;
	st->walk_cpu_ns_total += span_ns < est_ns ? span_ns : est_ns;
}

/*
 * Set when a timer driver handed the walk over to the tool (HK_EV_HANDOVER):
 * the timer is not re-armed and no timer walk starts again. Not static:
 * clang would keep a 0/1 static in one byte, which the kernel's BTF check
 * of the datasec rejects.
 */
__u32 hk_timer_off;

/*
 * Set while a timer driver's walk runs. One preempted for longer than the
 * watchdog's 3 intervals (a PREEMPT kernel under load, a short interval)
 * still runs when the tool takes over: the iter walk does not begin until
 * it ends (hk_iter), or two walks would share hk_cur and the lists. The
 * timer walk sets it, then reads hk_timer_off; the tool sets hk_timer_off,
 * then walks, reading it: with a full barrier on each side, either the
 * timer walk sees the take-over or the iter walk sees the timer walk.
 */
__u64 hk_timer_walking;	/* 64 bits: clang 14 has no 32-bit xchg */

/*
 * A timer driver's walk cannot be cut in pieces (the open-coded iterator
 * cannot resume), so one that held a CPU longer than two chunks stops the
 * timer and tells the tool, which walks in chunks from then on. If the
 * ring buffer is full, the next walk tries again.
 */
static __noinline int hk_hand_over(__u32 driver, __u64 took_ns)
{
	struct hk_event *e;

	e = bpf_ringbuf_reserve(&hk_events, sizeof(*e), 0);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	e->type = HK_EV_HANDOVER;
	e->from = driver;
	e->time_ns = hk_prev_walk_ns;	/* this walk's start */
	e->ev.window_ns = took_ns;
	bpf_ringbuf_submit(e, 0);
	hk_timer_off = 1;
	return 0;
}

/*
 * The timer drivers' walk: the open-coded task iterator, every thread in
 * one go (>= 6.7). The whole walk is one stretch on the CPU. Inlined into
 * its callback (one per driver, each in its own program): as a call it was
 * a frame of every chain of the timer's and the wq's, 8 of the 8 allowed.
 */
static __always_inline int hk_walk(__u32 driver)
{
	struct hk_config *c = hk_cfg();
	struct task_struct *t;
	struct bpf_iter_task it;
	__u64 took_ns;

	if (!c)
		return 0;
	/* xchg: a full barrier before hk_timer_off is read */
	__sync_lock_test_and_set(&hk_timer_walking, 1);
	/* a walk queued before the hand-over: the tool walks now */
	if (hk_timer_off || hk_walk_begin(driver == HK_DRIVER_WQ)) {
		hk_timer_walking = 0;
		return 0;
	}
	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_THREADS);
	while ((t = bpf_iter_task_next(&it)))
		if (hk_walk_listed(t))
			hk_walk_close(t);
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	took_ns = hk_walk_end(driver);
	hk_timer_walking = 0;
	hk_stretch_end(took_ns);
	if (c->chunk_ns && took_ns > 2 * c->chunk_ns)
		hk_hand_over(driver, took_ns);
	return 0;
}

#endif /* HK_BPF_WALK_H */
