/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk_thread.bpf.h - one thread of the walk: is it quiet (nothing done
 * since the previous walk: one cache line read), and if not, what it did
 * since it was last seen (visit, account); and, from the exit hook, what
 * an exiting thread did since. Apart from the process side (walk_proc.bpf.h)
 * because a thread's reads are the walk's hot path, measured per cache line.
 */
#ifndef HK_BPF_WALK_THREAD_H
#define HK_BPF_WALK_THREAD_H

#include "core_fixes.bpf.h"
#include "window.bpf.h"
#include "walk_state.bpf.h"
#include "hook_gate.bpf.h"
#include "sched_prio.bpf.h"	/* what the scheduler gave it, read when met */

/*
 * A stint's bit in hk_ran: its start (last_arrival), hashed. A thread
 * still on the CPU it was on at the previous walk has the same
 * last_arrival; one that got a CPU again since has a later one, after the
 * previous walk began, and is visited anyway. Collisions only cost a visit.
 */
static __always_inline __u32 hk_ran_bit(__u64 arrival)
{
	return (__u32)((arrival * 0x9e3779b97f4a7c15ULL) >> 49) & (HK_WATCH_BITS - 1);
}

static __always_inline int hk_ran_test(__u32 bit)
{
	__u32 cur = hk_walk_no & 1;

	return !!(hk_ran[cur][(bit / 64) & (HK_WATCH_WORDS - 1)] & (1ULL << (bit & 63)));
}

static __always_inline void hk_ran_set(__u32 bit)
{
	__u32 next = (hk_walk_no & 1) ^ 1;

	hk_ran[next][(bit / 64) & (HK_WATCH_WORDS - 1)] |= 1ULL << (bit & 63);
}

static __always_inline void hk_counters_read(struct task_struct *t, struct hk_counters *c)
{
	c->runtime_ns = t->se.sum_exec_runtime;
	c->minor_faults = t->min_flt;
	c->major_faults = t->maj_flt;
	c->nvcsw = t->nvcsw;
	c->nivcsw = t->nivcsw;
}

/* What a thread did since its baseline (all its life if born since the
 * previous walk: then its baseline is zero). */
static __always_inline void hk_counters_add_since(struct hk_counters *sum,
						  const struct hk_counters *now,
						  const struct hk_counters *seen)
{
	sum->runtime_ns += hk_sub_clamp(now->runtime_ns, seen->runtime_ns);
	sum->minor_faults += hk_sub_clamp(now->minor_faults, seen->minor_faults);
	sum->major_faults += hk_sub_clamp(now->major_faults, seen->major_faults);
	sum->nvcsw += hk_sub_clamp(now->nvcsw, seen->nvcsw);
	sum->nivcsw += hk_sub_clamp(now->nivcsw, seen->nivcsw);
}

/* A thread's memory stall since it was last seen, by kind, into the
 * process's sums for the stall ledger: each kind at most the window. */
static __always_inline void hk_stall_mem_add(struct hk_stall_mem *sum,
					     const struct hk_stall_ns *now,
					     const struct hk_stall_ns *seen, __u64 window)
{
	__u64 thrashing = hk_sub_clamp(now->thrashing_ns, seen->thrashing_ns);
	__u64 swapin = hk_sub_clamp(now->swapin_ns, seen->swapin_ns);

	sum->reclaim_ns += hk_min_u64(hk_sub_clamp(now->other_ns, seen->other_ns), window);
	sum->swapin_ns += hk_min_u64(swapin, window);
	sum->refault_ns += hk_min_u64(hk_sub_clamp(thrashing, swapin), window);
}

/* A thread whose task storage the kernel could not allocate (ENOMEM: 6.18
 * allocates it with kmalloc_nolock()) is not measured: counted, so that the
 * summary says how often. Returns 0. */
static __noinline int hk_count_unstored(void)
{
	struct hk_stats *st = hk_st();

	if (st)
		__sync_fetch_and_add(&st->threads_unstored, 1);
	return 0;
}

/*
 * What a visit reads of a thread, read where the task pointer is trusted
 * (hk_thread_visit) and accounted where it is not needed (hk_thread_account).
 * The task's address travels as a scalar: the sample reads it later.
 */
struct hk_thread_now {
	struct hk_counters c;
	__u64 wait_ns;		/* run delay credited, plus the pending wait */
	__u64 io_ns;		/* I/O wait, pending included (io_blocked) */
	__u64 io_bytes;
	struct hk_stall_ns stall; /* stalled on memory (hk_task_stall_read) */
	__u64 start_ns;		/* its start_time */
	__u64 queued_ns;	/* its queue stamp (sched_info.last_queued) */
	__u64 task;		/* its address */
	__u32 waiting;		/* queued for a CPU now */
	__u32 pid;
	__u32 cpu;
	__u32 watch_bit;
	/* no delay accounting (hk_task_has_delays): sampled instead */
	__u32 no_delays;
	__u32 io_stuck;		/* asleep uninterruptibly in I/O wait now */
	__u32 stalled;		/* in a memory stall now (hk_task_stalled_now) */
	__u32 pad;
};

/* The thread being visited: one walk at a time, as hk_cur. In .bss, not
 * on the stack: the walk's frames already come close to 512 bytes. */
static struct hk_thread_now hk_visit_now;

/*
 * A thread that is not idle this window: what it did since it was last
 * seen (baselines in task storage), its wait, who preempted it (from the
 * hook), whether the hook should watch it. A global function: the
 * verifier checks it once, not once per state of the walk's loop (the
 * open-coded iterator's loop re-verified a static one ~60 times: 615 k
 * instructions and 5.3 s of every load on 6.18, 113 k and 0.5 s so).
 * Its pointer is checked: a global function's may be NULL.
 */
__noinline int hk_thread_account(struct hk_task *ts)
{
	struct hk_thread_now *r = &hk_visit_now;
	struct hk_config *c = hk_cfg();
	struct hk_sample *acc = &hk_cur.s;
	__u64 drun, dwait = 0, dio = 0, dbytes = 0, dmem = 0;
	__u64 wait, window = hk_cur_window_ns;
	struct hk_counters zero = {};
	struct hk_stall_ns no_stall = {};
	__u32 counted = 1, stall_sampled = 0;

	if (!ts || !c)
		return 0;
	hk_cur_visited++;
	/* run delay is credited only when the task finally runs: add the
	 * wait still pending, so a thread that never gets the CPU shows.
	 * Not from a stale stamp (see below): that wait is not real. */
	wait = r->wait_ns;
	if (r->waiting && hk_rq_now_ns > r->queued_ns && r->queued_ns != ts->stale_queued)
		wait += hk_rq_now_ns - r->queued_ns;
	if (ts->walk) {
		drun = hk_sub_clamp(r->c.runtime_ns, ts->seen.runtime_ns);
		dwait = hk_sub_clamp(wait, ts->wait_ns);
		dio = hk_sub_clamp(r->io_ns, ts->io_ns);
		dbytes = hk_sub_clamp(r->io_bytes, ts->io_bytes);
		dmem = hk_mem_stall_delta(&r->stall, &ts->stall);
		hk_stall_mem_add(&acc->stall, &r->stall, &ts->stall, window);
		hk_counters_add_since(&hk_cur.did, &r->c, &ts->seen);
		/* the stale stamp was consumed since: the kernel credited
		 * the whole sleep as run delay */
		if (ts->stale_queued && r->queued_ns != ts->stale_queued) {
			if (dwait)
				hk_stale_dropped++;
			dwait = 0;
		}
	} else if (hk_prev_walk_ns && r->start_ns > hk_prev_walk_ns) {
		/* born since the previous walk: all it did is this window's,
		 * and its window is its life */
		drun = r->c.runtime_ns;
		dwait = wait;
		dio = r->io_ns;
		dbytes = r->io_bytes;
		dmem = hk_mem_stall_delta(&r->stall, &no_stall);
		window = hk_sub_clamp(hk_walk_start_ns, r->start_ns);
		hk_stall_mem_add(&acc->stall, &r->stall, &no_stall, window);
		hk_counters_add_since(&hk_cur.did, &r->c, &zero);
	} else {
		drun = 0;	/* first seen: a baseline only */
		counted = 0;
	}
	/* the share of its last visits that found it blocked (enum
	 * hk_source): its I/O wait without delay accounting, as hk_task_io_ns
	 * counts an I/O in progress (bounded by its time off the CPU below);
	 * its stall without, or in progress with (hk_stall_pick) */
	ts->samples = ((ts->samples << 1) & 0xfefe) | r->io_stuck | (r->stalled << 8);
	if (counted) {
		if (r->no_delays)
			dio = hk_io_on ? hk_sampled_ns(ts->samples, window) : 0;
		if (hk_mem_stall_on)
			dmem = hk_stall_pick(dmem, hk_sampled_ns(ts->samples >> 8, window),
					     r->no_delays, &stall_sampled);
	}
	/*
	 * A sleeping thread with a queue stamp: EEVDF's delayed dequeue (>=
	 * 6.12) left it on a run queue when it slept, a migration then
	 * stamped it there, and its dequeue at pick does not clear the stamp.
	 * Seen on 6.18 for 4..13 of 10 000 sleeping threads; when such a
	 * thread wakes, the kernel credits its whole sleep as run delay.
	 */
	ts->stale_queued = r->queued_ns && !r->waiting ? r->queued_ns :
			   (r->queued_ns == ts->stale_queued ? r->queued_ns : 0);
	/* one thread runs, waits and sleeps at most a whole window, in all */
	if (window) {
		drun = hk_min_u64(drun, window);
		dwait = hk_min_u64(dwait, window - drun);
		dio = hk_min_u64(dio, window - drun - dwait);
		/* a stall in reclaim runs on the CPU: of the window only */
		dmem = hk_min_u64(dmem, window);
	}
	ts->seen = r->c;
	ts->wait_ns = wait;
	ts->io_ns = r->io_ns;
	ts->io_bytes = r->io_bytes;
	ts->stall = r->stall;
	/* the hook votes only for threads the previous walk watched, and a
	 * walk watches only threads it visits: votes of a thread that walk
	 * skipped are an earlier episode's, for a process maybe gone */
	if (ts->walk + 1 < hk_walk_no)
		ts->aggr_votes = 0;
	ts->walk = hk_walk_no;

	acc->wait_delta_ns += dwait;
	if (dwait > acc->thread_wait_delta_ns) {
		acc->thread_wait_delta_ns = dwait;
		acc->wait_tid = r->pid;
		hk_sched_wait_now(r->task);
	}
	acc->io_delta_ns += dio;
	acc->io_delta_bytes += dbytes;
	if (dio > acc->thread_io_delta_ns) {
		acc->thread_io_delta_ns = dio;
		acc->io_tid = r->pid;
		acc->sampled = (acc->sampled & ~HK_SRC_IO_SAMPLED) |
			       (r->no_delays ? HK_SRC_IO_SAMPLED : 0);
	}
	if (dmem > acc->thread_mem_stall_delta_ns) {
		acc->thread_mem_stall_delta_ns = dmem;
		acc->mem_stall_tid = r->pid;
		acc->sampled = (acc->sampled & ~HK_SRC_STALL_SAMPLED) |
			       (stall_sampled ? HK_SRC_STALL_SAMPLED : 0);
	}
	if (drun + dwait > acc->thread_run_delta_ns + acc->thread_queued_delta_ns) {
		acc->thread_run_delta_ns = drun;
		acc->thread_queued_delta_ns = dwait;
		acc->thread_tid = r->pid;
		acc->thread_cpu = r->cpu;
		hk_cur.thread_rq = hk_task_rq(r->task);
	}
	if (c->hook && window &&
	    dwait * 10000 >= (__u64)c->watch_wait_pct_x100 * window) {
		hk_watch[(r->watch_bit / 64) & (HK_WATCH_WORDS - 1)] |= 1ULL << (r->watch_bit & 63);
		hk_cur_watched++;
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

/* What a visit reads of delay accounting: I/O wait for io_blocked, and
 * memory stalls for Mem-thrashing (both 0 while it is off); for a thread
 * without it, whether it is blocked in I/O or stalled on memory now (the
 * samples hk_thread_account counts instead). Not inlined: its CO-RE
 * branches, inlined, cost the verifier 0.6 s more of hk_arm's walk loop. */
static __noinline int hk_visit_io(struct task_struct *t)
{
	struct hk_thread_now *r = &hk_visit_now;

	r->no_delays = !hk_task_has_delays(t);
	hk_cur_no_delays += r->no_delays;
	if (r->no_delays && t->pid == t->tgid)
		hk_cur_no_delays_leaders++;
	r->io_stuck = 0;
	r->stalled = 0;
	if (hk_io_on) {
		r->io_ns = hk_task_io_ns(t, hk_rq_now_ns);
		/* what corroborates that wait (hk_io_blocked) */
		r->io_bytes = hk_task_io_bytes(t);
		hk_cur.s.io_bytes_known = hk_task_io_bytes_known(t);
		r->io_stuck = hk_task_io_stuck(t);
		hk_cur.s.io_stuck_threads += r->io_stuck;
	} else {
		r->io_ns = 0;
		r->io_bytes = 0;
	}
	if (hk_mem_stall_on) {
		hk_task_stall_read(t, &r->stall);
		r->stalled = hk_task_stalled_now(t);
	} else {
		r->stall.thrashing_ns = 0;
		r->stall.swapin_ns = 0;
		r->stall.other_ns = 0;
	}
	return 0;
}

/* A thread that is not idle: read it, then account it (above). Whether it
 * is on a CPU goes to hk_ran. */
static __always_inline int hk_thread_visit(struct task_struct *t, __u64 queued, __u32 waiting,
					   __u32 bit)
{
	struct hk_thread_now *r = &hk_visit_now;
	struct hk_task *ts;

	/* an exiting thread is the exit hook's to count, from the same
	 * baseline (a zombie leader stays on the list) */
	if (t->flags & HK_PF_EXITING)
		return 0;
	if (hk_task_on_cpu(t))
		hk_ran_set(bit);
	ts = bpf_task_storage_get(&hk_tasks, t, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts)
		return hk_count_unstored();
	hk_counters_read(t, &r->c);
	r->wait_ns = t->sched_info.run_delay;
	r->queued_ns = queued;
	r->waiting = waiting;
	hk_visit_io(t);
	r->start_ns = t->start_time;
	r->task = (__u64)t;
	r->pid = t->pid;
	r->cpu = hk_task_cpu(t);
	r->watch_bit = hk_watch_bit(t);
	return hk_thread_account(ts);
}

/*
 * Did the thread do nothing since the previous walk? Yes if it is not
 * queued for a CPU, its last stint on one began (last_arrival, run-queue
 * clock) before the previous walk did, and that stint was not on a CPU
 * when the previous walk saw it (hk_ran: it may have gone on since).
 * That reads one cache line of the task beside those the iterator
 * touches: a quiet thread costs about what iterating it costs. A thread
 * that did something is visited: its counters and task storage.
 */
static __always_inline int hk_thread_quiet(struct task_struct *t, __u64 *queued,
					   __u64 *arrival, __u32 *waiting)
{
	*queued = t->sched_info.last_queued;
	*arrival = t->sched_info.last_arrival;
	*waiting = 0;
	if (!*queued) {
		if (*arrival < hk_quiet_before_ns && !hk_ran_test(hk_ran_bit(*arrival)))
			return 1;
		hk_rq_raise(*arrival);
		return 0;
	}
	/* queued and runnable: waiting; queued but asleep: a stale stamp
	 * (see hk_thread_visit) */
	hk_rq_raise(*queued);
	*waiting = hk_task_state(t) == HK_TASK_RUNNING;
	return 0;
}

/*
 * A thread exits (the sched_process_exit hook): what it did since the walk
 * last saw it goes to its process's `exited` sums, for the next window.
 * Never seen: all its life, if it was born since its process's last
 * sample (else it was never counted, and is not now either).
 */
static __always_inline void hk_retire_thread(struct task_struct *t)
{
	struct hk_counters now, base = {};
	__u32 tgid = t->tgid;
	struct hk_task *ts;
	struct hk_proc *p;

	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (!p)
		return;
	ts = bpf_task_storage_get(&hk_tasks, t, NULL, 0);
	if (ts && ts->walk)
		base = ts->seen;
	else if (t->start_time <= p->sample_ns)
		return;
	hk_counters_read(t, &now);
	__sync_fetch_and_add(&p->exited.runtime_ns,
			     hk_sub_clamp(now.runtime_ns, base.runtime_ns));
	__sync_fetch_and_add(&p->exited.minor_faults,
			     hk_sub_clamp(now.minor_faults, base.minor_faults));
	__sync_fetch_and_add(&p->exited.major_faults,
			     hk_sub_clamp(now.major_faults, base.major_faults));
	__sync_fetch_and_add(&p->exited.nvcsw, hk_sub_clamp(now.nvcsw, base.nvcsw));
	__sync_fetch_and_add(&p->exited.nivcsw, hk_sub_clamp(now.nivcsw, base.nivcsw));
}

#endif /* HK_BPF_WALK_THREAD_H */
