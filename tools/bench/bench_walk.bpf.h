/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench_walk.bpf.h - what the bare walks of figure 3 (bench.bpf.c) and
 * figure 17 (bench_wstate.bpf.c) share: the walk over every thread with
 * the open-coded task iterator, timed, and the per-thread fields both read,
 * as direct loads or through BPF_CORE_READ.
 */
#ifndef HK_BENCH_WALK_BPF_H
#define HK_BENCH_WALK_BPF_H

#include <bpf/bpf_core_read.h>

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

/*
 * Every task the iterator's FLAGS give (every thread, or every process:
 * BPF_TASK_ITER_ALL_PROCS) under one bpf_rcu_read_lock, VISIT(t) per task;
 * the ns it took, bpf_ktime_get_ns() around it.
 */
#define BN_WALK_TASKS(t, FLAGS, VISIT)						\
	({									\
		struct bpf_iter_task it__;					\
		__u64 start__ = bpf_ktime_get_ns();				\
										\
		bpf_rcu_read_lock();						\
		bpf_iter_task_new(&it__, NULL, FLAGS);				\
		while ((t = bpf_iter_task_next(&it__)))				\
			VISIT;							\
		bpf_iter_task_destroy(&it__);					\
		bpf_rcu_read_unlock();						\
		bpf_ktime_get_ns() - start__;					\
	})
#define BN_WALK_ALL_THREADS(t, VISIT) BN_WALK_TASKS(t, BPF_TASK_ITER_ALL_THREADS, VISIT)

/* the per-thread fields hotspot-k's walk reads, as direct loads from the
 * iterator's trusted pointer: 8 fields, 9 loads (signal, then its field) */
static __always_inline __u64 bn_fields_direct_sum(struct task_struct *t)
{
	return t->se.sum_exec_runtime + t->sched_info.run_delay + t->sched_info.last_queued +
	       t->min_flt + t->maj_flt + t->nvcsw + t->nivcsw +
	       t->signal->stats_lock.seqcount.seqcount.sequence;
}

/* the same through BPF_CORE_READ: 9 bpf_probe_read_kernel calls */
static __always_inline __u64 bn_fields_core_sum(struct task_struct *t)
{
	return BPF_CORE_READ(t, se.sum_exec_runtime) + BPF_CORE_READ(t, sched_info.run_delay) +
	       BPF_CORE_READ(t, sched_info.last_queued) + BPF_CORE_READ(t, min_flt) +
	       BPF_CORE_READ(t, maj_flt) + BPF_CORE_READ(t, nvcsw) + BPF_CORE_READ(t, nivcsw) +
	       BPF_CORE_READ(t, signal, stats_lock.seqcount.seqcount.sequence);
}

#endif /* HK_BENCH_WALK_BPF_H */
