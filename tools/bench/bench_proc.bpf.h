/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench_proc.bpf.h - what the two table walks of figure 3 share (the kptr
 * table, bench_table.bpf.c; the TGID bitmap, bench_tgid.bpf.c): their
 * counters and one process's threads walked as bn_walk_iter walks every
 * thread, so that the columns compare.
 */
#ifndef HK_BENCH_PROC_BPF_H
#define HK_BENCH_PROC_BPF_H

#include "bench_walk.bpf.h"

/* counts in globals: the loop heads carry no varying scalar */
static __u64 bn_threads;
static __u64 bn_procs;

/* one thread: a call, as bn_walk_iter's bn_visit at level 1 */
static __noinline int bn_proc_visit(struct task_struct *t)
{
	bn_threads++;
	return 0;
}

/* a live process's threads (BPF_TASK_ITER_PROC_THREADS wants it trusted),
 * under bpf_rcu_read_lock */
static __always_inline void bn_proc_threads(struct task_struct *leader)
{
	struct task_struct *t;
	struct bpf_iter_task it;

	bn_procs++;
	bpf_iter_task_new(&it, leader, BPF_TASK_ITER_PROC_THREADS);
	while ((t = bpf_iter_task_next(&it)))
		bn_proc_visit(t);
	bpf_iter_task_destroy(&it);
}

#endif /* HK_BENCH_PROC_BPF_H */
