/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * core_fixes.bpf.h - CO-RE readers for task fields that differ across
 * kernels. Task pointers here come from the task iterator (trusted), so
 * fields are read with direct loads (the verifier turns them into faulting
 * loads), not bpf_probe_read_kernel() calls: the walk does this per thread. A CO-RE read of a field the running kernel lacks fails the whole
 * load, so every field that moved is read through a ___flavor struct and
 * guarded with bpf_core_field_exists().
 */
#ifndef HK_BPF_CORE_FIXES_H
#define HK_BPF_CORE_FIXES_H

#include <bpf/bpf_core_read.h>

#define HK_PF_KTHREAD 0x00200000	/* include/linux/sched.h */
#define HK_SIGNAL_GROUP_EXIT 0x00000004 /* include/linux/sched/signal.h */
#define HK_PAGE_COUNTER_MAX_MIN (1ULL << 50) /* any max above is "unset" */

/* Before 6.2 (f1a7941243c1 "mm: convert mm's rss stats into
 * percpu_counter") rss_stat was struct mm_rss_stat with atomic counters. */
struct mm_rss_stat___pre62 {
	atomic_long_t count[4];
};

struct mm_struct___pre62 {
	struct mm_rss_stat___pre62 rss_stat;
} __attribute__((preserve_access_index));

struct mm_struct___post62 {
	struct percpu_counter rss_stat[4];
} __attribute__((preserve_access_index));

/* Kernels before 5.16 kept the CPU in task_struct, not thread_info. */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline __s64 hk_rss_counter(struct mm_struct *mm, int idx)
{
	struct mm_struct___post62 *m = (void *)mm;
	struct mm_struct___pre62 *o = (void *)mm;

	/* .count of a percpu_counter misses up to batch x CPUs unfolded
	 * pages: exact enough for the processes big enough to matter */
	if (bpf_core_field_exists(m->rss_stat[0].count))
		return m->rss_stat[idx].count;
	return o->rss_stat.count[idx].counter;
}

/* Resident pages: file + anon + shmem (MM_SWAPENTS excluded). */
static __always_inline __u64 hk_rss_pages(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	__s64 pages;

	if (!mm)
		return 0;
	pages = hk_rss_counter(mm, 0) + hk_rss_counter(mm, 1) +
		hk_rss_counter(mm, 3);
	return pages > 0 ? (__u64)pages : 0;
}

static __always_inline __u32 hk_task_cpu(struct task_struct *t)
{
	struct task_struct___cpu *o = (void *)t;

	if (bpf_core_field_exists(t->thread_info.cpu))
		return t->thread_info.cpu;
	return o->cpu;
}

/* signal->stats_lock sequence: odd while an exiting thread folds in. */
static __always_inline __u32 hk_stats_seq(struct signal_struct *sig)
{
	return sig->stats_lock.seqcount.seqcount.sequence;
}

/*
 * Tightest memory cgroup limit on the task's path: the smallest headroom
 * (max - usage) over its memory cgroup and ancestors. Returns 0 when no
 * cgroup sets a limit (total RAM binds) or memcg is not built.
 */
static __always_inline int hk_memcg_limit(struct task_struct *t, __u64 page_size,
					  __u64 *limit_bytes, __u64 *headroom_bytes,
					  __u64 *memcg_id)
{
	struct cgroup_subsys_state *css;
	__u64 best_headroom = ~0ULL, best_limit = 0;
	int id, i;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return 0;
	id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (id < 0 || id >= 16)
		return 0;
	css = BPF_CORE_READ(t, cgroups, subsys[id]);
	if (!css)
		return 0;
	*memcg_id = BPF_CORE_READ(css, cgroup, kn, id);
	for (i = 0; i < HK_MEMCG_DEPTH && css; i++) {
		/* css is the first member of struct mem_cgroup */
		struct mem_cgroup *memcg = (void *)css -
			bpf_core_field_offset(struct mem_cgroup, css);
		__u64 max = BPF_CORE_READ(memcg, memory.max);
		__u64 usage = BPF_CORE_READ(memcg, memory.usage.counter);

		if (max < HK_PAGE_COUNTER_MAX_MIN) {
			__u64 room = max > usage ? max - usage : 0;

			if (room < best_headroom) {
				best_headroom = room;
				best_limit = max;
			}
		}
		css = BPF_CORE_READ(css, parent);
	}
	if (!best_limit)
		return 0;
	*limit_bytes = best_limit * page_size;
	*headroom_bytes = best_headroom * page_size;
	return 1;
}

/* PID in the process's own namespace and that namespace's inode. */
static __always_inline void hk_ns_pid(struct task_struct *leader, __u32 *ns_pid,
				      __u64 *ns_ino)
{
	struct pid *pid = BPF_CORE_READ(leader, thread_pid);
	unsigned int level = BPF_CORE_READ(pid, level);
	struct upid up = {};

	bpf_probe_read_kernel(&up, sizeof(up), &pid->numbers[level & 31]);
	*ns_pid = up.nr;
	*ns_ino = BPF_CORE_READ(up.ns, ns.inum);
}

#endif /* HK_BPF_CORE_FIXES_H */
