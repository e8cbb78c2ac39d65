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
 */
#ifndef HK_BPF_WALK_H
#define HK_BPF_WALK_H

#include "core_fixes.bpf.h"
#include "filter.bpf.h"
#include "window.bpf.h"
#include "sched_prio.bpf.h"

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;
/* weak: the iter driver's kernels (< 6.2) have neither; the programs
 * that call them are then not loaded */
extern void bpf_rcu_read_lock(void) __weak __ksym;
extern void bpf_rcu_read_unlock(void) __weak __ksym;

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
static __u64 hk_cur_window_ns;
static __u64 hk_walk_switches;
static __u32 hk_io_on;			/* io_blocked is on: hk_config's, per walk */

static __u64 hk_stale_dropped;
static __u64 hk_cur_parked;
static __u32 hk_acc_ns_pid;		/* PID in its own namespace */
static __u64 hk_acc_ns_ino;		/* that namespace, 0: ours */
static __u64 hk_acc_boot_ns;		/* the leader's start_boottime */
static struct hk_accum hk_zero_accum;	/* never written */

static __always_inline void hk_watch_set(struct task_struct *t)
{
	__u32 bit = hk_watch_bit(t);

	hk_watch[(bit / 64) & (HK_WATCH_WORDS - 1)] |= 1ULL << (bit & 63);
}

static __always_inline void hk_rq_raise(__u64 t_ns)
{
	if (t_ns > hk_rq_now_ns)
		hk_rq_now_ns = t_ns;
}

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
	__u64 start_ns;		/* its start_time */
	__u64 queued_ns;	/* its queue stamp (sched_info.last_queued) */
	__u64 task;		/* its address */
	__u32 waiting;		/* queued for a CPU now */
	__u32 pid;
	__u32 cpu;
	__u32 watch_bit;
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
	__u64 drun, dwait = 0, dio = 0, dbytes = 0;
	__u64 wait, window = hk_cur_window_ns;
	struct hk_counters zero = {};

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
		window = hk_sub_clamp(hk_walk_start_ns, r->start_ns);
		hk_counters_add_since(&hk_cur.did, &r->c, &zero);
	} else {
		drun = 0;	/* first seen: a baseline only */
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
	}
	ts->seen = r->c;
	ts->wait_ns = wait;
	ts->io_ns = r->io_ns;
	ts->io_bytes = r->io_bytes;
	ts->walk = hk_walk_no;

	acc->wait_delta_ns += dwait;
	if (dwait > acc->thread_wait_delta_ns) {
		acc->thread_wait_delta_ns = dwait;
		acc->wait_tid = r->pid;
		hk_cur.wait_task = r->task;
	}
	acc->io_delta_ns += dio;
	acc->io_delta_bytes += dbytes;
	if (dio > acc->thread_io_delta_ns) {
		acc->thread_io_delta_ns = dio;
		acc->io_tid = r->pid;
	}
	if (drun + dwait > acc->thread_run_delta_ns + acc->thread_queued_delta_ns) {
		acc->thread_run_delta_ns = drun;
		acc->thread_queued_delta_ns = dwait;
		acc->thread_tid = r->pid;
		acc->thread_cpu = r->cpu;
		hk_cur.thread_task = r->task;
	}
	if (c->hook && window &&
	    dwait * 10000 >= (__u64)c->watch_wait_pct_x100 * window)
		hk_watch[(r->watch_bit / 64) & (HK_WATCH_WORDS - 1)] |= 1ULL << (r->watch_bit & 63);

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

/* What a visit reads for io_blocked. Not inlined: its CO-RE branches,
 * inlined, cost the verifier 0.6 s more of hk_arm's walk loop. */
static __noinline int hk_visit_io(struct task_struct *t)
{
	struct hk_thread_now *r = &hk_visit_now;

	if (hk_io_on) {
		r->io_ns = hk_task_io_ns(t, hk_rq_now_ns);
		/* what corroborates that wait (hk_io_blocked) */
		r->io_bytes = hk_task_io_bytes(t);
		hk_cur.s.io_bytes_known = hk_task_io_bytes_known(t);
		hk_cur.s.io_stuck_threads += hk_task_io_stuck(t);
	} else {
		r->io_ns = 0;
		r->io_bytes = 0;
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
	if (t->on_cpu)
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
 * Two parts of one window, each with the thread that wanted a CPU most
 * (ran + waited) and the most frequent preemptor: into *dst. The parts of
 * one thread (one aggressor) add up; else the larger part stands.
 */
static __always_inline void hk_thread_merge(__u64 *run, __u64 *queued, __u32 *tid, __u32 *cpu,
					    __u64 o_run, __u64 o_queued, __u32 o_tid, __u32 o_cpu)
{
	if (o_tid && o_tid == *tid) {
		*run += o_run;
		*queued += o_queued;
	} else if (o_run + o_queued > *run + *queued) {
		*run = o_run;
		*queued = o_queued;
		*tid = o_tid;
		*cpu = o_cpu;
	}
}

static __always_inline void hk_aggressor_merge(__u32 *tgid, __u32 *switches,
					       __u32 o_tgid, __u32 o_switches)
{
	if (o_tgid && o_tgid == *tgid) {
		*switches += o_switches;
	} else if (o_switches > *switches) {
		*tgid = o_tgid;
		*switches = o_switches;
	}
}

/* Nothing ran in the process (or it cannot be sampled now): the baseline
 * stays; the wait its threads showed, its busiest thread and the votes
 * for its aggressor (halved in task storage already) carry over to its
 * next window. */
static __always_inline void hk_proc_carry(struct hk_proc *p, __u32 tgid)
{
	struct hk_sample *s = &hk_cur.s;

	p->carry_wait_ns += s->wait_delta_ns;
	p->carry_thread_wait_ns += s->thread_wait_delta_ns;
	p->carry_io_ns += s->io_delta_ns;
	p->carry_thread_io_ns += s->thread_io_delta_ns;
	hk_thread_merge(&p->carry_thread_run_ns, &p->carry_thread_queued_ns,
			&p->carry_thread_tid, &p->carry_thread_cpu, s->thread_run_delta_ns,
			s->thread_queued_delta_ns, s->thread_tid, s->thread_cpu);
	hk_aggressor_merge(&p->carry_aggressor_tgid, &p->carry_aggressor_switches,
			   s->aggressor_tgid, s->aggressor_switches);
	p->carry_io_bytes += s->io_delta_bytes;
	p->seen_walk = hk_walk_no;
	hk_attn_set(tgid);
}

/* What hk_proc_carry kept, into the sample taken now. */
static __always_inline void hk_carry_take(struct hk_proc *p, struct hk_sample *s)
{
	hk_thread_merge(&s->thread_run_delta_ns, &s->thread_queued_delta_ns,
			&s->thread_tid, &s->thread_cpu, p->carry_thread_run_ns,
			p->carry_thread_queued_ns, p->carry_thread_tid, p->carry_thread_cpu);
	hk_aggressor_merge(&s->aggressor_tgid, &s->aggressor_switches,
			   p->carry_aggressor_tgid, p->carry_aggressor_switches);
	p->carry_thread_run_ns = 0;
	p->carry_thread_queued_ns = 0;
	p->carry_thread_tid = 0;
	p->carry_thread_cpu = 0;
	p->carry_aggressor_tgid = 0;
	p->carry_aggressor_switches = 0;
}

/* What its threads did since last seen, and its exited threads, into its
 * running totals. */
static __always_inline void hk_proc_count(struct hk_proc *p)
{
	struct hk_counters *did = &hk_cur.did, *tot = &p->total;

	tot->runtime_ns += did->runtime_ns +
			   __sync_lock_test_and_set(&p->exited.runtime_ns, 0);
	tot->minor_faults += did->minor_faults +
			     __sync_lock_test_and_set(&p->exited.minor_faults, 0);
	tot->major_faults += did->major_faults +
			     __sync_lock_test_and_set(&p->exited.major_faults, 0);
	tot->nvcsw += did->nvcsw + __sync_lock_test_and_set(&p->exited.nvcsw, 0);
	tot->nivcsw += did->nivcsw + __sync_lock_test_and_set(&p->exited.nivcsw, 0);
}

/*
 * The process's window, once hk_cur holds its sample. A global function:
 * the verifier checks it once, not once per path of its caller. Its
 * totals move by what its threads did since each was last seen, and by
 * what its exited threads did (taken from the exit hook's sums, atomically:
 * the hook may be adding on another CPU). Returns 1 when it created the
 * process's entry.
 */
__noinline int hk_proc_finish(__u32 tgid, __u32 no_mm)
{
	struct hk_sample *acc = &hk_cur.s;
	struct hk_stats *st = hk_st();
	struct hk_proc *p;
	__u32 created = 0;

	if (!st)
		return 0;
	p = hk_proc_get(tgid, acc->start_time_ns, &created);
	if (!p)
		return 0;
	if (created)
		__sync_fetch_and_add(&st->entries_created, 1);
	/* the identity userspace checks before it acts on this PID */
	p->start_boottime_ns = hk_acc_boot_ns;
	hk_proc_count(p);
	/* closed once already in this walk: the iter driver met a thread
	 * born after the close; what it did goes into the next window */
	if (p->windows && p->seen_walk == hk_walk_no)
		no_mm = 1;
	if (no_mm) {
		hk_proc_carry(p, tgid);
		__sync_fetch_and_add(&st->samples_skipped, 1);
		return created;
	}
	hk_carry_take(p, acc);
	acc->runtime_ns = p->total.runtime_ns;
	acc->minor_faults = p->total.minor_faults;
	acc->major_faults = p->total.major_faults;
	acc->nvcsw = p->total.nvcsw;
	acc->nivcsw = p->total.nivcsw;
	/* not closed in the previous walk: quiet until it began */
	if (p->windows && p->seen_walk + 1 < hk_walk_no)
		acc->quiet_until_ns = hk_prev_walk_ns;
	if (!p->windows || p->start_time_ns != acc->start_time_ns) {
		acc->ns_pid = hk_acc_ns_pid;
		acc->ns_ino = hk_acc_ns_ino;
	} else {
		acc->ns_pid = p->ns_pid;
		acc->ns_ino = p->ns_ino;
	}
	hk_proc_window(p, tgid, acc);
	return created;
}

/*
 * The last thread of a process: read what it shares (mm, cgroups) through
 * that thread, then its window. The mm and the cgroups are a live
 * thread's: a leader that called pthread_exit() has none.
 */
static __noinline int hk_proc_close(struct task_struct *t, __u32 tgid)
{
	struct task_struct *leader = t->group_leader;
	struct signal_struct *sig = t->signal;
	struct hk_config *c = hk_cfg();
	struct hk_sample *acc = &hk_cur.s;
	struct mm_struct *mm;
	__u32 no_mm;

	if (!c)
		return 0;
	if (!hk_cur.active && !hk_full_walk && !hk_attn_test(tgid)) {
		hk_cur_quiet++;
		return 0;
	}
	/* a dying process has no meaningful window left (its mm is gone):
	 * its last label stands until its exit is handled */
	if (!sig->live.counter || (sig->flags & HK_SIGNAL_GROUP_EXIT))
		return 0;
	mm = t->mm;
	if (!mm)
		mm = leader->mm;
	no_mm = !hk_rss_pages(mm, &acc->rss_pages, &acc->anon_pages);
	acc->now_ns = bpf_ktime_get_ns();
	acc->nr_threads = sig->nr_threads;
	acc->start_time_ns = leader->start_time;
	hk_acc_boot_ns = leader->start_boottime;	/* so named since 5.5 */
	acc->fresh = hk_prev_walk_ns && acc->start_time_ns > hk_prev_walk_ns;
	/* two 8-byte loads: cheaper than a string copy helper */
	*(__u64 *)&acc->comm[0] = *(__u64 *)&leader->comm[0];
	*(__u64 *)&acc->comm[8] = *(__u64 *)&leader->comm[8];
	if (hk_memcg_limit((__u64)BPF_CORE_READ(t, cgroups), c->page_size_bytes, acc))
		acc->limit_kind = HK_LIMIT_MEMCG;
	hk_cpu_quota(bpf_core_field_exists(t->sched_task_group) ?
		     (__u64)BPF_CORE_READ(t, sched_task_group) : 0, acc);
	/* the widest affinity of the closing thread and the leader: threads
	 * inherit theirs, and a cpuset binds them all */
	acc->cpus_allowed = (__u32)t->nr_cpus_allowed;
	if ((__u32)leader->nr_cpus_allowed > acc->cpus_allowed)
		acc->cpus_allowed = (__u32)leader->nr_cpus_allowed;
	/* the closing thread only (its newest): one bit, not a thread walk */
	acc->mem_stalled = hk_task_in_memstall(t);
	hk_sched_sample(acc, hk_cur.wait_task, hk_cur.thread_task);
	hk_ns_pid(leader, &hk_acc_ns_pid, &hk_acc_ns_ino);
	if (hk_acc_ns_ino == c->pidns_ino)
		hk_acc_ns_ino = 0;	/* our own namespace */
	/* created the entry: the exit hook's own test after the barrier of
	 * that atomic add, so that either the hook saw the entry or this
	 * sees the process dying */
	if (hk_proc_finish(tgid, no_mm) && !sig->live.counter)
		bpf_map_delete_elem(&hk_procs, &tgid);
	return 0;
}

/* A process whose last thread the walk did not meet (it exited between
 * two steps of the iterator): no sample this window; what its threads did
 * counts in the next. A global function: verified once, not in every
 * state of the walk's loop that parks a process. */
__noinline int hk_proc_unclosed(__u32 tgid)
{
	struct hk_proc *p = bpf_map_lookup_elem(&hk_procs, &tgid);
	struct hk_stats *st = hk_st();

	if (p) {
		hk_proc_count(p);
		hk_proc_carry(p, tgid);
	}
	if (st)
		__sync_fetch_and_add(&st->samples_skipped, 1);
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

/* The head of t's process's thread list (in its signal struct). */
static __always_inline __u64 hk_thread_head(struct task_struct *t)
{
	return (__u64)t->signal + bpf_core_field_offset(struct signal_struct, thread_head);
}

/* Is t the last thread of its process (its signal's thread list ends)? */
static __always_inline int hk_last_thread(struct task_struct *t)
{
	return (__u64)t->thread_node.next == hk_thread_head(t);
}

static __always_inline void hk_parked_mark(__u32 tgid, int set)
{
	__u64 bit = 1ULL << (tgid & 63);
	__u64 *w = &hk_parked_bits[(tgid / 64) & (HK_ATTN_WORDS - 1)];

	if (set)
		*w |= bit;
	else
		*w &= ~bit;
}

static __always_inline int hk_parked_test(__u32 tgid)
{
	return !!(hk_parked_bits[(tgid / 64) & (HK_ATTN_WORDS - 1)] & (1ULL << (tgid & 63)));
}

/* Park the process being summed until its next thread comes. No room:
 * no sample this window, and nothing lost (see hk_proc_unclosed). */
static __noinline int hk_cur_park(void)
{
	__u32 tgid = hk_cur.tgid;

	hk_cur_state = HK_CUR_NONE;
	if (bpf_map_update_elem(&hk_parked, &tgid, &hk_cur, BPF_ANY)) {
		hk_proc_unclosed(tgid);
		return 0;
	}
	hk_parked_mark(tgid, 1);
	hk_nr_parked++;
	hk_cur_parked++;
	return 0;
}

/* Make sig's process the one summed: parked, or new. */
static __noinline int hk_cur_take(__u64 sig, __u32 tgid)
{
	struct hk_accum *a = NULL;

	if (hk_nr_parked && hk_parked_test(tgid))
		a = bpf_map_lookup_elem(&hk_parked, &tgid);
	if (a) {
		__builtin_memcpy(&hk_cur, a, sizeof(hk_cur));
		bpf_map_delete_elem(&hk_parked, &tgid);
		hk_parked_mark(tgid, 0);
		hk_nr_parked--;
		if (hk_cur.sig == sig)
			return 0;
		/* its TGID's previous process, gone during the walk */
		hk_proc_unclosed(tgid);
	}
	__builtin_memcpy(&hk_cur, &hk_zero_accum, sizeof(hk_cur));
	hk_cur.sig = sig;
	hk_cur.tgid = tgid;
	return 0;
}

/*
 * The process of t is the one summed, unless t should be skipped: a kernel
 * thread (not diagnosed), a process the filters leave out, or a thread of a
 * process already closed in this walk. Its flags and TGID are read once per
 * process met.
 */
static __always_inline int hk_cur_select(struct task_struct *t)
{
	__u64 sig = (__u64)t->signal;

	if (sig == hk_cur.sig)
		return hk_cur_state == HK_CUR_OPEN;
	if (hk_cur_state == HK_CUR_OPEN)
		hk_cur_park();
	hk_cur_state = HK_CUR_NONE;
	hk_cur.sig = sig;
	if (t->flags & HK_PF_KTHREAD)
		return 0;
	if (hk_walk_filtered) {
		__u64 leader = 0;

		bpf_probe_read_kernel(&leader, sizeof(leader), &t->group_leader);
		if (!leader || !hk_filter_pass(leader))
			return 0;
	}
	hk_cur_take(sig, t->tgid);
	hk_cur_state = HK_CUR_OPEN;
	return 1;
}

/*
 * By TID: is t the last thread of the process summed that the walk will
 * meet? Yes when the threads met reach its thread count, read on its first
 * thread and again when the count reaches it (a thread born since, with a
 * higher TID, is still to come; one that exited is not). A thread born
 * during the walk with a TID below the iterator's is never met: the
 * process is then not closed this walk (hk_walk_flush), and loses nothing.
 */
static __always_inline int hk_cur_all_met(struct task_struct *t)
{
	__u64 head;

	if (++hk_cur.met < hk_cur.nr_threads)
		return 0;
	/* the only thread on its list (most processes): no need to read
	 * the signal's count, a cache line further */
	if (hk_cur.met == 1) {
		head = hk_thread_head(t);
		if ((__u64)t->thread_node.next == head && (__u64)t->thread_node.prev == head)
			return 1;
	}
	hk_cur.nr_threads = t->signal->nr_threads;
	return hk_cur.met >= hk_cur.nr_threads;
}

/*
 * Every thread, under every driver. In list order (the open-coded
 * iterator's: a process's threads together), a thread that did nothing
 * and does not end its process's thread list costs the quiet test only;
 * by TID (iter/task), a quiet thread is counted too (see hk_cur_all_met):
 * its process is the one summed. A thread that did something adds to it,
 * and the last one closes it. in_list_order is a constant at each call:
 * the verifier sees one shape of the loop per driver.
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
	}
	if (!hk_cur_select(t))
		return 0;
	if (!quiet) {
		hk_cur.active++;
		hk_thread_visit(t, queued, waiting, hk_ran_bit(arrival));
	}
	if (!in_list_order)
		last = hk_cur_all_met(t);
	if (last) {
		hk_cur_state = HK_CUR_CLOSED;
		hk_cur_procs++;
		hk_proc_close(t, hk_cur.tgid);
	}
	return 0;
}

/* The iter/task driver's thread: by TID. */
static __always_inline int hk_walk_task(struct task_struct *t)
{
	return hk_walk_thread(t, 0);
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
	hk_walk_switches = 0;
	hk_stale_dropped = 0;
	hk_cur_parked = 0;
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
	struct hk_stats *st = hk_st();
	__u64 end_ns, took_ns;

	hk_walk_flush();
	hk_window_end(hk_walk_sweep);
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
 * one go (>= 6.7). The whole walk is one stretch on the CPU.
 */
static __noinline int hk_walk(__u32 driver)
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
		hk_walk_thread(t, 1);
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
