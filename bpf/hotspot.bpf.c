// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hotspot.bpf.c - per-process diagnosis computed in the kernel.
 *
 * What runs where, and why:
 *  - hk_switch (tp_btf/sched_switch) is the only hot-path hook. Voluntary
 *    switches return at once, and so do involuntary ones of threads the
 *    last walk did not see waiting (one bit of a bitmap). For a watched
 *    thread preempted by another process it writes into prev's task
 *    storage who took the CPU from it: no hash map work per switch. The
 *    kernel already counts everything else. --no-hook leaves it out.
 *  - hk_exit (tp_btf/sched_process_exit) adds what an exiting thread did
 *    since the walk last saw it to its process's sums, and queues a
 *    tracked process whose last thread exits; it never deletes (only the
 *    walk does).
 *  - hk_oom_kill (tp_btf/mark_victim; hk_oom_kill_pid where the tracepoint
 *    passes the PID: before 6.8 and in 6.1.y before March 2025, chosen by
 *    the tracepoint's BTF) notes an OOM kill and the memory cgroup at its
 *    limit (oom_kill.bpf.h): the victim's last transition says oom_killed,
 *    flagged in time or not; a mark that killed nothing (a task dying
 *    already: its memcg's count of OOM kills unmoved) is counted apart.
 *  - The walk over every thread has four drivers, by kernel generation
 *    and host size, all calling the same walk body (walk.bpf.h):
 *    - hk_arm (SEC("syscall"), run once through BPF_PROG_TEST_RUN) arms a
 *      bpf_timer; each tick re-arms it and kicks a bpf_wq work item, so
 *      the walk runs in a kworker rather than in softirq (>= 6.10);
 *    - hk_arm_table: the same timer and work item, the walk cut in chunks
 *      of ~1 ms over a table of processes (walk_table.bpf.h,
 *      table_run.bpf.h) that hk_table_seed, hk_fork and hk_exit_table
 *      keep (>= 6.10, hosts of over 2000 threads);
 *    - hk_arm_nowq: the tick walks itself (6.7 - 6.9: no bpf_wq);
 *    - hk_iter, an iter/task program: the tool read()s it once per window
 *      (>= 5.15: no open-coded task iterator before 6.7). It returns from
 *      read(), offering the CPU after every thread (the kernel's
 *      cond_resched()), so that the walk never holds a CPU long; the tool makes the first walk (every thread's baseline) this way under
 *      every driver, and the whole walk on hosts with many threads.
 *  - The walk sums the kernel's per-thread counters per TGID
 *    and runs the window step (window.bpf.h + include/shared/classify.h):
 *    rates, RSS trend, diagnosis, hysteresis; a ring-buffer event goes out
 *    only when a label changes. Threads and processes that did nothing
 *    since the previous walk cost little more than the iteration.
 *  - hk_test_win (SEC("raw_tp"), run by BPF_PROG_TEST_RUN) runs the same
 *    window step on synthetic samples, for the in-kernel tests.
 *  - Older kernels: hk_switch_noarg stands in for hk_switch before 5.18
 *    (no prev_state argument), bounded loops for bpf_loop() before 5.17
 *    (loop.bpf.h); core_fixes.bpf.h reads the fields that moved.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "shared/hotspot.h"
#include "maps.bpf.h"
#include "walk.bpf.h"
#include "walk_table.bpf.h"
#include "table_run.bpf.h"
#include "oom_kill.bpf.h"

#define CLOCK_MONOTONIC 1
#define TASK_RUNNING 0
/* the first walk runs at once: it takes the baselines */
#define HK_FIRST_WALK_NS HK_NSEC_PER_MSEC

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline int hk_on_switch(bool preempt, struct task_struct *prev,
					struct task_struct *next, unsigned int prev_state)
{
	struct hk_task *ts;
	__u32 bit, aggressor;

	/* the kernel's own rule for an involuntary switch (__schedule) */
	if (!preempt && prev_state != TASK_RUNNING)
		return 0;
	/* the idle task (leaving idle is "involuntary") and kernel threads
	 * are not diagnosed: their flags sit in the cache line the scheduler
	 * has just written, the TID 19 lines further */
	if (prev->flags & HK_PF_KTHREAD)
		return 0;
	/* only threads the last walk saw waiting for a CPU: every thread
	 * that could not be Starved stops at this one bit */
	bit = hk_watch_bit(prev);
	if (!(hk_watch[(bit / 64) & (HK_WATCH_WORDS - 1)] & (1ULL << (bit & 63))))
		return 0;
	aggressor = next->tgid;
	if (aggressor == prev->tgid || !aggressor)
		return 0;
	/* kernel threads are not named as aggressors either */
	if (next->flags & HK_PF_KTHREAD)
		return 0;
	/* the walk that set the watch bit made the storage */
	ts = bpf_task_storage_get(&hk_tasks, prev, NULL, 0);
	if (!ts)
		return 0;
	ts->invol++;
	if (ts->aggr_tgid == aggressor)
		ts->aggr_votes++;
	else if (!ts->aggr_votes) {
		ts->aggr_tgid = aggressor;
		ts->aggr_votes = 1;
	} else {
		ts->aggr_votes--;
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(hk_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	return hk_on_switch(preempt, prev, next, prev_state);
}

/* Before 5.18 the tracepoint had no prev_state: the state is read from
 * prev, in the cache line that holds its flags. Loaded instead of
 * hk_switch there. */
SEC("tp_btf/sched_switch")
int BPF_PROG(hk_switch_noarg, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return hk_on_switch(preempt, prev, next, hk_task_state(prev));
}

/* A thread exits: what it did since it was last seen, and, for a group's
 * last thread, its process's exit queued (and, under the table driver,
 * its table entry taken out: table, a constant in each program). */
static __always_inline int hk_exit_thread(struct task_struct *t, const int table)
{
	if (t->flags & HK_PF_KTHREAD)
		return 0;
	hk_retire_thread(t);
	/* the process's `exited` only when the last thread of the group goes */
	if (BPF_CORE_READ(t, signal, live.counter))
		return 0;
	if (table)
		hk_table_del(t->tgid);
	hk_queue_exit(t->tgid);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(hk_exit, struct task_struct *t)
{
	return hk_exit_thread(t, 0);
}

/* The table driver's exit hook: the same, and the table's entry dropped
 * with the reference it holds (bpf_kptr_xchg, bpf_task_release: on 6.10+
 * only, so a program of its own, loaded instead of hk_exit there). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(hk_exit_table, struct task_struct *t)
{
	return hk_exit_thread(t, 1);
}

/* The table driver's fork hook: a new process's bit (walk_table.bpf.h). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(hk_fork, struct task_struct *parent, struct task_struct *child)
{
	if (!(child->flags & HK_PF_KTHREAD) && child->pid == child->tgid)
		hk_table_add(child);
	return 0;
}

static int hk_work(void *map, int *key, void *value)
{
	hk_walk(HK_DRIVER_WQ);
	return 0;
}

static __always_inline void hk_rearm(struct hk_timer_val *v)
{
	struct hk_config *c = hk_cfg();
	struct hk_stats *st = hk_st();

	if (!c || !st)
		return;
	if (bpf_timer_start(&v->timer, c->interval_ns, 0))
		__sync_fetch_and_add(&st->timer_rearm_failures, 1);
}

static int hk_tick(void *map, int *key, struct hk_timer_val *v)
{
	struct hk_stats *st = hk_st();

	if (hk_timer_off)
		return 0;	/* handed over: the timer stops here */
	hk_rearm(v);
	if (bpf_wq_start(&v->wq, 0) && st)
		__sync_fetch_and_add(&st->wq_start_failures, 1);
	return 0;
}

static int hk_tick_walk(void *map, int *key, struct hk_timer_val *v)
{
	if (hk_timer_off)
		return 0;
	hk_rearm(v);
	hk_walk(HK_DRIVER_TIMER);
	return 0;
}

/* The timer (and the work item, when there is one), first fire at once,
 * or an interval after the walk the tool made at start. */
static __always_inline int hk_arm_timer(int (*tick)(void *, int *, struct hk_timer_val *),
					int (*work)(void *, int *, void *))
{
	struct hk_config *c = hk_cfg();
	struct hk_timer_val *v;
	__u32 zero = 0;
	int err;

	v = bpf_map_lookup_elem(&hk_timer, &zero);
	if (!v || !c || !c->interval_ns)
		return -22;	/* EINVAL: hk_config not written */
	/* -EBUSY: initialised by an earlier attempt (the loader retries
	 * on -ENOMEM, which the kernel's atomic allocation may return) */
	err = bpf_timer_init(&v->timer, &hk_timer, CLOCK_MONOTONIC);
	if (err && err != -16)
		return err;
	if (work) {
		err = bpf_wq_init(&v->wq, &hk_timer, 0);
		if (err && err != -16)
			return err;
		err = bpf_wq_set_callback_impl(&v->wq, work, 0, NULL);
		if (err)
			return err;
	}
	err = bpf_timer_set_callback(&v->timer, tick);
	if (err)
		return err;
	return bpf_timer_start(&v->timer, hk_prev_walk_ns ? c->interval_ns : HK_FIRST_WALK_NS, 0);
}

SEC("syscall")
int hk_arm(void *ctx)
{
	return hk_arm_timer(hk_tick, hk_work);
}

/* The table driver (>= 6.10): the same tick, its own work item. */
SEC("syscall")
int hk_arm_table(void *ctx)
{
	return hk_arm_timer(hk_tick, hk_table_work);
}

/*
 * Run once by the loader, after the fork hook is attached and before the
 * timer is armed: every process then in the table (one stretch on a CPU,
 * as long as a bare walk of the processes alone).
 */
SEC("syscall")
int hk_table_seed(void *ctx)
{
	struct task_struct *t;
	struct bpf_iter_task it;

	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_PROCS);
	while ((t = bpf_iter_task_next(&it)))
		if (!(t->flags & HK_PF_KTHREAD))
			hk_table_add(t);
	bpf_iter_task_destroy(&it);
	bpf_rcu_read_unlock();
	return 0;
}

/* Kernels without bpf_wq (< 6.10): loaded instead of hk_arm. */
SEC("syscall")
int hk_arm_nowq(void *ctx)
{
	return hk_arm_timer(hk_tick_walk, NULL);
}

/*
 * The iter/task driver. The tool creates an iterator from this program's
 * link once per window and read()s it to the end: the kernel runs it for
 * every thread, by TID, and once more with no task at the end (stop()).
 * The first thread begins a walk, the end ends it. It writes nothing: the
 * kernel offers the CPU after every thread (bpf_seq_read()'s cond_resched()
 * for BPF_ITER_RESCHED targets, 5.11+), so one read() walks everything
 * and what waits for this CPU waits for one thread at most, not the walk.
 */
/* not static: clang would shrink a static flag to one byte, which the
 * kernel's BTF check of .bss then rejects */
__u32 hk_iter_open;			/* a walk begun here, not ended */
static __u32 hk_chunk_threads;
static __u64 hk_chunk_start_ns;		/* the last look at the clock */
static __u64 hk_chunk_csw;		/* the walker's switches then */
static __u64 hk_chunk_span_ns;		/* the last span with no switch */
/* threads between two looks at the clock */
#define HK_CHUNK_CHECK_THREADS 32

/* Context switches of the thread running the walk (in its read()). */
static __always_inline __u64 hk_walker_csw(void)
{
	struct task_struct *me = bpf_get_current_task_btf();

	return me->nvcsw + me->nivcsw;
}

/*
 * A look at the clock, every HK_CHUNK_CHECK_THREADS threads: the threads
 * since the last look ran with a chance to yield after each, so their
 * span bounds each one's stretch from above, unless the walker let go of
 * the CPU in between (it moved: the span is time off the CPU, no stretch).
 * Then the last span, and stop() alone, the walk's one long stretch.
 */
static __always_inline void hk_iter_look(void)
{
	__u64 now_ns = bpf_ktime_get_ns(), csw = hk_walker_csw();

	if (csw == hk_chunk_csw) {
		hk_chunk_span_ns = now_ns - hk_chunk_start_ns;
		hk_stretch_end(hk_chunk_span_ns);
	} else {
		hk_walker_yielded(now_ns - hk_chunk_start_ns, hk_chunk_span_ns);
	}
	hk_chunk_csw = csw;
	hk_chunk_start_ns = now_ns;
}

SEC("iter/task")
int hk_iter(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;

	if (!t) {
		if (hk_iter_open) {
			hk_iter_open = 0;
			hk_iter_look();
			hk_walk_end(HK_DRIVER_ITER);
			hk_walk_end_stretch(bpf_ktime_get_ns() - hk_chunk_start_ns);
		}
		return 0;
	}
	if (ctx->meta->seq_num == 0) {
		/* the tool took over from a timer whose walk still runs:
		 * this walk waits for the next interval */
		if (hk_timer_walking || hk_walk_begin(1))
			return 0;
		hk_iter_open = 1;
		hk_chunk_threads = 0;
		hk_chunk_start_ns = hk_walk_start_ns;
		hk_chunk_csw = hk_walker_csw();
	}
	if (!hk_iter_open)
		return 0;
	hk_walk_task(t);
	if (hk_exits_more && hk_exit_one(1))
		hk_exits_more = 0;
	if (!(++hk_chunk_threads % HK_CHUNK_CHECK_THREADS))
		hk_iter_look();
	return 0;
}

/*
 * One synthetic window for the in-kernel tests: the same window step,
 * aggressor pass, hysteresis, events, exit handling and sweep as the walk,
 * on samples from ctx instead of task counters (the processes in ctx are
 * the ones this window meets).
 */
struct hk_test_window hk_test_io;	/* in and out, through the skeleton */

/*
 * A raw_tp program, not SEC("syscall"): syscall programs are sleepable and
 * 6.1 lets those use no queue map (hk_exits).
 */
/* Copy k of the test window's process 0, TGID tgid[0] + k. A global
 * function: verified once, not once per turn of its caller's loop. */
__noinline int hk_test_copy(__u32 k)
{
	struct hk_test_window *ctx = &hk_test_io;
	__u32 tgid = ctx->tgid[0] + k, created;
	struct hk_proc *p;

	__builtin_memcpy(&hk_cur.s, &ctx->sample[0], sizeof(hk_cur.s));
	p = hk_proc_get(tgid, hk_cur.s.start_time_ns, &created);
	if (p)
		hk_proc_window(p, tgid, &hk_cur.s);
	return 0;
}

SEC("raw_tp")
int hk_test_win(void *unused)
{
	struct hk_test_window *ctx = &hk_test_io;
	struct hk_proc *p;
	__u32 tgid, i, k, created, sweep;

	hk_window_begin();
	/* as the walk does: exits lost before this window make it sweep */
	sweep = hk_sweep_needed;
	hk_sweep_needed = 0;
	/* the exit hook's own path, for processes that exit first */
	if (ctx->exit_tgid)
		hk_queue_exit(ctx->exit_tgid);
	if (ctx->exit_tgid2)
		hk_queue_exit(ctx->exit_tgid2);
	for (i = 0; i < HK_TEST_PROCS; i++) {
		if (i >= ctx->nr_procs)
			break;
		tgid = ctx->tgid[i];
		__builtin_memcpy(&hk_cur.s, &ctx->sample[i], sizeof(hk_cur.s));
		p = hk_proc_get(tgid, hk_cur.s.start_time_ns, &created);
		if (p)
			hk_proc_window(p, tgid, &hk_cur.s);
	}
	/* process 0's copies: more busy processes than a bounded loop's turns */
	for (k = 1; k < HK_TEST_COPIES; k++) {
		if (k >= ctx->copies || !ctx->nr_procs)
			break;
		hk_test_copy(k);
	}
	hk_window_end(sweep, 1 << 16);
	for (i = 0; i < HK_TEST_PROCS; i++) {
		if (i >= ctx->nr_procs)
			break;
		tgid = ctx->tgid[i];
		p = bpf_map_lookup_elem(&hk_procs, &tgid);
		ctx->label[i] = p ? p->hyst.label : HK_EXITED;
		ctx->match[i] = p ? p->hyst.match : HK_EXITED;
	}
	return 0;
}
