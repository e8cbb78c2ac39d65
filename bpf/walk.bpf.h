/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk.bpf.h - once per window, visit every thread with the open-coded
 * task iterator and sum the kernel's own counters per process.
 *
 * Threads of one process come consecutively, so a process's entry is
 * looked up once, on its first thread, and its window runs when the next
 * process starts. Totals = signal (exited threads, folded in under
 * signal->stats_lock) + live threads; a process whose stats sequence was
 * odd or moved during its threads is skipped this window. Run delay of an
 * exited thread is kept nowhere, so wait is a sum of per-thread deltas
 * from task storage.
 */
#ifndef HK_BPF_WALK_H
#define HK_BPF_WALK_H

#include "core_fixes.bpf.h"
#include "window.bpf.h"

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

/* the process being summed */
static struct hk_sample hk_acc;
static __u32 hk_acc_seq;		/* signal stats sequence on its first thread */
static __u32 hk_acc_seq_last;		/* ... and on its latest */
static __u64 hk_prev_walk_ns;		/* start of the previous walk */
static __u64 hk_first_walk_ns;		/* start of the first walk */
static __u64 hk_prev_walk_task_ns;	/* previous walk, run-queue task clock */
static __u64 hk_walk_switches;

/*
 * The loop body is split into subprograms that hold no pointer across
 * iterations: the verifier then sees few distinct states at the loop head
 * (one body with everything inlined exceeds its 1M instruction budget).
 */

/* First thread of a process: 1 when the process is tracked. */
static __noinline int hk_proc_begin(struct task_struct *t, __u32 tgid)
{
	struct task_struct *leader = t->group_leader;
	struct signal_struct *sig = t->signal;
	struct hk_config *c = hk_cfg();
	struct hk_sample *acc = &hk_acc;
	struct hk_proc *p;
	__u64 start = leader->start_time;

	if (!c)
		return 0;
	/* a dying process has no meaningful window left (its mm is gone):
	 * its last label stands until its exit is handled */
	if (!sig->live.counter || (sig->flags & HK_SIGNAL_GROUP_EXIT))
		return 0;
	p = hk_proc_get(tgid, start);
	if (!p)
		return 0;
	__builtin_memset(acc, 0, sizeof(*acc));
	acc->now_ns = bpf_ktime_get_ns();
	acc->start_time_ns = start;
	acc->fresh = hk_prev_walk_ns && start > hk_prev_walk_ns;
	/* two 8-byte loads: cheaper than a string copy helper */
	*(__u64 *)&acc->comm[0] = *(__u64 *)&leader->comm[0];
	*(__u64 *)&acc->comm[8] = *(__u64 *)&leader->comm[8];
	/* the sequence first: an exit folding in after it moves it */
	hk_acc_seq = hk_stats_seq(sig);
	hk_acc_seq_last = hk_acc_seq;
	acc->runtime_ns = sig->sum_sched_runtime;
	acc->minor_faults = sig->min_flt;
	acc->major_faults = sig->maj_flt;
	acc->nvcsw = sig->nvcsw;
	acc->nivcsw = sig->nivcsw;
	acc->rss_pages = hk_rss_pages(t);
	/* the cgroup chain only matters while RSS grows */
	if (acc->rss_pages > p->rss_pages &&
	    hk_memcg_limit(t, c->page_size_bytes, &acc->limit_bytes,
			   &acc->headroom_bytes, &acc->memcg_id))
		acc->limit_kind = HK_LIMIT_MEMCG;
	if (!p->windows) {
		hk_ns_pid(leader, &acc->ns_pid, &acc->ns_ino);
		if (acc->ns_ino == c->pidns_ino)
			acc->ns_ino = 0;	/* our own namespace */
	} else {
		acc->ns_pid = p->ns_pid;
		acc->ns_ino = p->ns_ino;
	}
	return 1;
}

static __noinline int hk_thread(struct task_struct *t, __u64 rq_now_ns,
				__u64 window_ns, __u64 skip_before_ns)
{
	struct hk_sample *acc = &hk_acc;
	__u64 runtime = t->se.sum_exec_runtime;
	__u64 wait = t->sched_info.run_delay;
	__u64 queued = t->sched_info.last_queued;
	__u64 drun = 0, dwait = 0;
	struct hk_task *ts;

	acc->runtime_ns += runtime;
	acc->minor_faults += t->min_flt;
	acc->major_faults += t->maj_flt;
	acc->nvcsw += t->nvcsw;
	acc->nivcsw += t->nivcsw;
	acc->nr_threads++;
	hk_acc_seq_last = hk_stats_seq(t->signal);

	/*
	 * A thread that has not run since the previous walk and is not
	 * queued changed nothing but the totals above: skip its task storage
	 * (a chain of cache misses, ~1 us per thread measured here, where the
	 * loads above cost ~50 ns). Most threads of a machine sleep.
	 */
	if (!queued && skip_before_ns && !t->on_cpu &&
	    t->se.exec_start < skip_before_ns)
		return 0;

	/* run delay is credited only when the task finally runs: add the
	 * wait still pending, so a thread that never gets the CPU shows */
	if (queued && rq_now_ns > queued)
		wait += rq_now_ns - queued;

	ts = bpf_task_storage_get(&hk_tasks, t, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts)
		return 0;
	if (ts->walk) {
		drun = hk_sub_clamp(runtime, ts->runtime_ns);
		dwait = hk_sub_clamp(wait, ts->wait_ns);
	} else if (hk_first_walk_ns && t->start_time >= hk_first_walk_ns) {
		/* born since we started, first run now: all it did is new */
		drun = runtime;
		dwait = wait;
	}
	if (window_ns && dwait > window_ns)
		dwait = window_ns;
	ts->runtime_ns = runtime;
	ts->wait_ns = wait;
	ts->walk = hk_walk_no;
	acc->wait_delta_ns += dwait;
	if (dwait > acc->thread_wait_delta_ns)
		acc->thread_wait_delta_ns = dwait;
	if (drun > acc->thread_run_delta_ns) {
		acc->thread_run_delta_ns = drun;
		acc->thread_tid = t->pid;
		acc->thread_cpu = hk_task_cpu(t);
	}
	hk_walk_switches += ts->invol;
	ts->invol = 0;
	if (ts->aggr_votes > acc->aggressor_switches) {
		acc->aggressor_tgid = ts->aggr_tgid;
		acc->aggressor_switches = ts->aggr_votes;
	}
	/* a starved thread runs a few times a second: halve the votes
	 * rather than forget them, so one stray preemption does not
	 * cancel a window's worth of evidence */
	ts->aggr_votes /= 2;
	if (!ts->aggr_votes)
		ts->aggr_tgid = 0;
	return 0;
}

__noinline int hk_proc_finish(__u32 tgid)
{
	struct hk_proc *p = bpf_map_lookup_elem(&hk_procs, &tgid);
	struct hk_stats *st = hk_st();

	if (!p || !st)
		return 0;
	if ((hk_acc_seq & 1) || hk_acc_seq != hk_acc_seq_last) {
		/* a thread exited mid-walk: keep the old baseline */
		p->carry_wait_ns += hk_acc.wait_delta_ns;
		p->carry_thread_wait_ns += hk_acc.thread_wait_delta_ns;
		p->seen_walk = hk_walk_no;
		__sync_fetch_and_add(&st->samples_skipped, 1);
		return 0;
	}
	return hk_proc_window(p, tgid, &hk_acc);
}

/*
 * The run-queue clocks (rq_clock for sched_info, rq_clock_task for
 * se.exec_start) are not CLOCK_MONOTONIC. In the work item, current is the
 * kworker that just got the CPU: its last_arrival and exec_start are both
 * clocks at about now (a little before: the error falls on the safe side,
 * less pending wait and fewer threads skipped). In softirq current is
 * whatever was interrupted: assume rq_clock ~ ktime and skip nothing.
 */
static __always_inline void hk_clocks(__u64 now_ns, int in_worker,
				      __u64 *rq_now_ns, __u64 *task_now_ns)
{
	struct task_struct *cur;
	__u64 arrival;

	*rq_now_ns = now_ns;
	*task_now_ns = 0;
	if (!in_worker)
		return;
	cur = bpf_get_current_task_btf();
	arrival = cur->sched_info.last_arrival;
	if (arrival && arrival < now_ns)
		*rq_now_ns = arrival;
	*task_now_ns = cur->se.exec_start;
}

/*
 * Called on every thread: a new TGID closes the previous process's window
 * and opens the next. The walk's cursor lives in globals, so that the loop
 * head carries no scalar that differs between iterations.
 */
static __u32 hk_cur_tgid;
static __u32 hk_cur_tracked;
static __u64 hk_cur_threads;
static __u64 hk_cur_procs;
static __u64 hk_cur_rq_now_ns;
static __u64 hk_cur_window_ns;
static __u64 hk_cur_skip_before_ns;

static __noinline int hk_walk_task(struct task_struct *t)
{
	__u32 tgid;

	hk_cur_threads++;
	/* kernel threads are not diagnosed */
	if (t->flags & HK_PF_KTHREAD)
		return 0;
	tgid = t->tgid;
	if (tgid != hk_cur_tgid) {
		if (hk_cur_tracked)
			hk_proc_finish(hk_cur_tgid);
		hk_cur_tgid = tgid;
		hk_cur_procs++;
		hk_cur_tracked = hk_proc_begin(t, tgid);
	}
	if (hk_cur_tracked)
		hk_thread(t, hk_cur_rq_now_ns, hk_cur_window_ns,
			  hk_cur_skip_before_ns);
	return 0;
}

static __noinline int hk_walk(int in_worker)
{
	struct hk_stats *st = hk_st();
	struct task_struct *t;
	struct bpf_iter_task it;
	__u64 start_ns, took_ns, task_now_ns;

	if (!st)
		return 0;
	start_ns = bpf_ktime_get_ns();
	hk_clocks(start_ns, in_worker, &hk_cur_rq_now_ns, &task_now_ns);
	if (!hk_first_walk_ns)
		hk_first_walk_ns = start_ns;
	hk_cur_skip_before_ns = hk_prev_walk_task_ns;
	hk_cur_window_ns = hk_prev_walk_ns ? start_ns - hk_prev_walk_ns : 0;
	hk_cur_tgid = 0;
	hk_cur_tracked = 0;
	hk_cur_threads = 0;
	hk_cur_procs = 0;
	hk_window_begin();
	hk_walk_switches = 0;

	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_THREADS);
	while ((t = bpf_iter_task_next(&it)))
		hk_walk_task(t);
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	if (hk_cur_tracked)
		hk_proc_finish(hk_cur_tgid);

	hk_window_end();
	hk_prev_walk_ns = start_ns;
	hk_prev_walk_task_ns = task_now_ns;

	took_ns = bpf_ktime_get_ns() - start_ns;
	st->windows++;
	st->threads_walked += hk_cur_threads;
	st->procs_walked += hk_cur_procs;
	st->walk_ns_total += took_ns;
	st->last_walk_ns = took_ns;
	if (took_ns > st->walk_ns_max)
		st->walk_ns_max = took_ns;
	st->switches_recorded += hk_walk_switches;
	st->walk_in_timer = !in_worker;
	return 0;
}

#endif /* HK_BPF_WALK_H */
