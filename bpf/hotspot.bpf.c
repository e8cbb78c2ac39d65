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
 *  - hk_arm (SEC("syscall"), run once through BPF_PROG_TEST_RUN) arms a
 *    bpf_timer. Each tick re-arms it and kicks a bpf_wq work item, so the
 *    walk over every thread runs in a kworker, preemptible, rather than in
 *    softirq. hk_arm_nowq is the variant for kernels without bpf_wq
 *    (< 6.10): the tick walks itself.
 *  - The walk (walk.bpf.h) sums the kernel's per-thread counters per TGID
 *    and runs the window step (window.bpf.h + include/shared/classify.h):
 *    rates, RSS trend, diagnosis, hysteresis; a ring-buffer event goes out
 *    only when a label changes. Threads and processes that did nothing
 *    since the previous walk cost little more than the iteration.
 *  - hk_test_win (SEC("syscall")) runs the same window step on synthetic
 *    samples, for the in-kernel tests.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "shared/hotspot.h"
#include "maps.bpf.h"
#include "walk.bpf.h"

#define CLOCK_MONOTONIC 1
#define TASK_RUNNING 0
/* the first walk runs at once: it takes the baselines */
#define HK_FIRST_WALK_NS 1000000ULL

char LICENSE[] SEC("license") = "Dual BSD/GPL";

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux) __weak __ksym;

SEC("tp_btf/sched_switch")
int BPF_PROG(hk_switch, bool preempt, struct task_struct *prev,
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

SEC("tp_btf/sched_process_exit")
int BPF_PROG(hk_exit, struct task_struct *t)
{
	if (t->flags & HK_PF_KTHREAD)
		return 0;
	hk_retire_thread(t);
	/* the process's `exited` only when the last thread of the group goes */
	if (BPF_CORE_READ(t, signal, live.counter))
		return 0;
	hk_queue_exit(t->tgid);
	return 0;
}

static int hk_work(void *map, int *key, void *value)
{
	hk_walk(1);
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

	hk_rearm(v);
	if (bpf_wq_start(&v->wq, 0) && st)
		__sync_fetch_and_add(&st->wq_start_failures, 1);
	return 0;
}

static int hk_tick_walk(void *map, int *key, struct hk_timer_val *v)
{
	hk_rearm(v);
	hk_walk(0);
	return 0;
}

/* The timer (and the work item, when there is one), first fire at once. */
static __always_inline int hk_arm_timer(int (*tick)(void *, int *, struct hk_timer_val *),
					int with_wq)
{
	struct hk_config *c = hk_cfg();
	struct hk_timer_val *v;
	__u32 zero = 0;
	int err;

	v = bpf_map_lookup_elem(&hk_timer, &zero);
	if (!v || !c || !c->interval_ns)
		return -22;	/* EINVAL: hk_config not written */
	err = bpf_timer_init(&v->timer, &hk_timer, CLOCK_MONOTONIC);
	if (err)
		return err;
	if (with_wq) {
		err = bpf_wq_init(&v->wq, &hk_timer, 0);
		if (err)
			return err;
		err = bpf_wq_set_callback_impl(&v->wq, hk_work, 0, NULL);
		if (err)
			return err;
	}
	err = bpf_timer_set_callback(&v->timer, tick);
	if (err)
		return err;
	return bpf_timer_start(&v->timer, HK_FIRST_WALK_NS, 0);
}

SEC("syscall")
int hk_arm(void *ctx)
{
	return hk_arm_timer(hk_tick, 1);
}

/* Kernels without bpf_wq (< 6.10): loaded instead of hk_arm. */
SEC("syscall")
int hk_arm_nowq(void *ctx)
{
	return hk_arm_timer(hk_tick_walk, 0);
}

/*
 * One synthetic window for the in-kernel tests: the same window step,
 * aggressor pass, hysteresis, events, exit handling and sweep as the walk,
 * on samples from ctx instead of task counters (the processes in ctx are
 * the ones this window meets).
 */
SEC("syscall")
int hk_test_win(struct hk_test_window *ctx)
{
	struct hk_proc *p;
	__u32 tgid, i, created, sweep;

	hk_window_begin();
	/* as the walk does: exits lost before this window make it sweep */
	sweep = hk_sweep_needed;
	hk_sweep_needed = 0;
	/* the exit hook's own path, for processes that exit first */
	if (ctx->exit_tgid)
		hk_queue_exit(ctx->exit_tgid);
	if (ctx->exit_tgid2)
		hk_queue_exit(ctx->exit_tgid2);
	/* unrolled: the verifier takes only constant offsets into ctx */
#pragma clang loop unroll(full)
	for (i = 0; i < HK_TEST_PROCS; i++) {
		if (i >= ctx->nr_procs)
			break;
		tgid = ctx->tgid[i];
		__builtin_memcpy(&hk_acc, &ctx->sample[i], sizeof(hk_acc));
		p = hk_proc_get(tgid, hk_acc.start_time_ns, &created);
		if (p)
			hk_proc_window(p, tgid, &hk_acc);
	}
	hk_window_end(sweep);
#pragma clang loop unroll(full)
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
