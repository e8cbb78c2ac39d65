/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sched_prio.bpf.h - what a waiting thread asked the scheduler for: its
 * policy, its nice, and its task group's weight and cpu.idle. A thread
 * that asked for less (nice 19, SCHED_IDLE, a BestEffort pod) waits by
 * its owner's choice; the evidence says so (review finding 3).
 */
#ifndef HK_BPF_SCHED_PRIO_H
#define HK_BPF_SCHED_PRIO_H

#include <bpf/bpf_core_read.h>

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

/*
 * The waiting thread's policy, nice and group into the sample. The root
 * group (no parent) has no weight of its own: 0. A global function: the
 * verifier checks it once, not again on every path of the walk that calls
 * it (as static ones: with them inside hk_thread_visit, hk_arm's walk went
 * past a million instructions). Hence scalars, and probe reads.
 */
__noinline int hk_wait_prio(struct hk_sample *acc, __u32 policy, __s32 static_prio,
			    __u64 tg_addr)
{
	struct task_group___prio *tg = (void *)tg_addr;

	if (!acc)
		return 0;
	acc->wait_policy = policy;
	acc->wait_nice = static_prio - HK_NICE_0_PRIO;
	acc->wait_group_weight = 0;
	acc->wait_group_idle = 0;
	if (!tg || !bpf_core_field_exists(struct task_group___prio, shares) ||
	    !BPF_CORE_READ(tg, parent))
		return 0;
	acc->wait_group_weight = hk_cgroup_weight(BPF_CORE_READ(tg, shares));
	if (bpf_core_field_exists(tg->idle))
		acc->wait_group_idle = BPF_CORE_READ(tg, idle) != 0;
	return 0;
}

/* Read where t is at hand: two loads and one probe read. */
static __always_inline void hk_wait_prio_note(struct task_struct *t, struct hk_sample *acc)
{
	struct task_struct___prio *o = (void *)t;
	__u64 tg = 0;

	if (bpf_core_field_exists(o->sched_task_group))
		tg = (__u64)BPF_CORE_READ(o, sched_task_group);
	hk_wait_prio(acc, t->policy, t->static_prio, tg);
}

#endif /* HK_BPF_SCHED_PRIO_H */
