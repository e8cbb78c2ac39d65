/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sched_prio.bpf.h - what the scheduler gave a process's threads beyond
 * their runtime, read once per process at its close:
 *  - what the thread that waited most asked for: its policy, its nice,
 *    its task group's weight and cpu.idle. A thread that asked for less
 *    (nice 19, SCHED_IDLE, a BestEffort pod) waits by its owner's choice;
 *    the evidence says so (review finding 3);
 *  - the steal and IRQ time of the CPU of the thread that wanted a CPU
 *    most (review finding 10). Its sum_exec_runtime runs on rq_clock_task,
 *    which leaves both out (steal with CONFIG_PARAVIRT_TIME_ACCOUNTING, IRQ
 *    time with CONFIG_IRQ_TIME_ACCOUNTING), and its run delay does not count
 *    them either. The run queue's clock minus its task clock is exactly what
 *    was left out, cumulative (update_rq_clock_task()): nothing counted
 *    twice whatever the config, 0 where neither is on. Not kernel_cpustat
 *    (a per-CPU __ksym): the verifier resolves a typed ksym through
 *    kallsyms, which lists per-CPU data only with CONFIG_KALLSYMS_ALL (off
 *    on the lab host's 6.18: "ldimm64 failed to find the address for
 *    kernel symbol 'kernel_cpustat'").
 *
 * Both are read when the thread is met, in hk_thread_account (a global
 * function, verified once: reading them in hk_thread_visit, inlined in the
 * walk's loop, took hk_arm's verification from 461 k to 730 k
 * instructions), each time a thread waits or wants more than the ones
 * before it. Not at the close: under the iter driver a parked process
 * closes many read()s later, when the thread may be gone and its
 * task_struct reused (review kernel-2, finding 14). The run queue's
 * clocks are read at the close: a run queue is never freed.
 */
#include "walk_state.bpf.h"	/* hk_cur */
#ifndef HK_BPF_SCHED_PRIO_H
#define HK_BPF_SCHED_PRIO_H

#include <bpf/bpf_core_read.h>
#include "window.bpf.h"		/* hk_walk_no, and classify.h's hk_cgroup_weight */

#define HK_NICE_0_PRIO 120		/* MAX_RT_PRIO + NICE_WIDTH / 2 */

/* CONFIG_CGROUP_SCHED: the group; CONFIG_FAIR_GROUP_SCHED: its shares;
 * cpu.idle since 5.15 ("sched: Cgroup SCHED_IDLE support"). */
struct task_group___prio {
	struct task_group___prio *parent;
	unsigned long shares;
	int idle;
} __attribute__((preserve_access_index));

struct task_struct___prio {
	struct task_group___prio *sched_task_group;
} __attribute__((preserve_access_index));

/* cfs_rq->rq only with CONFIG_FAIR_GROUP_SCHED; without it the task's
 * cfs_rq is the one embedded in its rq (rq->cfs). */
struct cfs_rq___lost {
	struct rq *rq;
} __attribute__((preserve_access_index));

/* The waiting thread's policy, nice and group, when it is met. The root
 * group (no parent) has no weight of its own: 0. */
static __always_inline void hk_sched_wait_now(__u64 task)
{
	struct task_struct___prio *o = (void *)task;
	struct task_struct *t = (void *)task;
	struct task_group___prio *tg = NULL;
	struct hk_sample *acc = &hk_cur.s;

	acc->wait_group_weight = 0;
	acc->wait_group_idle = 0;
	acc->wait_policy = BPF_CORE_READ(t, policy);
	acc->wait_nice = BPF_CORE_READ(t, static_prio) - HK_NICE_0_PRIO;
	if (bpf_core_field_exists(o->sched_task_group))
		tg = BPF_CORE_READ(o, sched_task_group);
	if (!tg || !bpf_core_field_exists(struct task_group___prio, shares) ||
	    !BPF_CORE_READ(tg, parent))
		return;
	acc->wait_group_weight = hk_cgroup_weight(BPF_CORE_READ(tg, shares));
	if (bpf_core_field_exists(tg->idle))
		acc->wait_group_idle = BPF_CORE_READ(tg, idle) != 0;
}

/* The run queue of a thread, when it is met. */
static __always_inline __u64 hk_task_rq(__u64 task)
{
	struct task_struct *t = (void *)task;
	struct cfs_rq___lost *cfs;

	/* CONFIG_FAIR_GROUP_SCHED=n: no run queue from a task without the
	 * per-CPU runqueues symbol, which kallsyms rarely lists: 0, said at
	 * start (kfields.h). Guarded here, inside the global function that
	 * inlines it: a caller's guard does not reach it */
	if (!bpf_core_field_exists(t->se.cfs_rq))
		return 0;
	cfs = (void *)BPF_CORE_READ(t, se.cfs_rq);
	if (!cfs)
		return 0;
	if (bpf_core_field_exists(cfs->rq))
		return (__u64)BPF_CORE_READ(cfs, rq);
	return (__u64)cfs - bpf_core_field_offset(struct rq, cfs);
}

/*
 * What cpu lost since the previous walk: the first process this walk
 * closes whose hungriest thread is on cpu notes it (hk_cpu_lost), if that
 * walk noted it too; 0 otherwise (a CPU's first busy window goes without).
 */
static __always_inline __u64 hk_cpu_lost_ns(__u64 rq_addr, __u32 cpu)
{
	struct hk_cpu_lost *v = bpf_map_lookup_elem(&hk_cpu_lost, &cpu);
	struct rq *rq = (void *)rq_addr;
	__u64 lost;

	if (!v)
		return 0;
	if (v->walk == hk_walk_no)
		return v->delta_ns;
	lost = hk_sub_clamp(BPF_CORE_READ(rq, clock), BPF_CORE_READ(rq, clock_task));
	v->delta_ns = v->walk + 1 == hk_walk_no ? hk_sub_clamp(lost, v->seen_ns) : 0;
	v->seen_ns = lost;
	v->walk = hk_walk_no;
	return v->delta_ns;
}

/*
 * The CPU's lost time into the sample, at the close (the waiter's policy
 * and group are in it already). A global function: the verifier checks
 * it once, not again on every path of the walk that reaches the close.
 */
__noinline int hk_sched_sample(struct hk_sample *acc, __u64 rq)
{
	if (!acc)
		return 0;
	acc->cpu_lost_delta_ns = rq ? hk_cpu_lost_ns(rq, acc->thread_cpu) : 0;
	return 0;
}

#endif /* HK_BPF_SCHED_PRIO_H */
