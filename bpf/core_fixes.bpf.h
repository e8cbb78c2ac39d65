/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * core_fixes.bpf.h - CO-RE readers for task and mm fields that differ
 * across kernels. Task pointers here come from the task iterator
 * (trusted), so fields are read with direct loads (the verifier turns them
 * into faulting loads), not bpf_probe_read_kernel() calls: the walk does
 * this per thread, and a helper call costs 30-50 ns where a load costs
 * 1-5 (make bench figure 17; the delay and I/O reads below were 7 calls,
 * ~270 ns per visited thread, until issue #34). A CO-RE read of a field the running kernel lacks fails
 * the whole load, so every field that moved is read through a ___flavor
 * struct and guarded with bpf_core_field_exists(). What a task's cgroups
 * allow it (memory limits, CPU quota) is cgroup_limits.bpf.h's.
 */
#ifndef HK_BPF_CORE_FIXES_H
#define HK_BPF_CORE_FIXES_H

#include <bpf/bpf_core_read.h>

#define HK_PF_EXITING 0x00000004	/* include/linux/sched.h */
#define HK_PF_KTHREAD 0x00200000	/* include/linux/sched.h */
#define HK_SIGNAL_GROUP_EXIT 0x00000004 /* include/linux/sched/signal.h */
#define HK_TASK_RUNNING 0
#define HK_TASK_UNINTERRUPTIBLE 0x2	/* include/linux/sched.h */
/* include/linux/mm_types_task.h: indexes of mm->rss_stat, stable since 4.5 */
#define HK_MM_FILEPAGES 0
#define HK_MM_ANONPAGES 1
#define HK_MM_SWAPENTS 2
#define HK_MM_SHMEMPAGES 3

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
	__s64 pages = 0;

	if (bpf_core_field_exists(m->rss_stat[0].count))
		return m->rss_stat[idx].count;
	/* neither layout (a vendor's atomic-mode counter): unknown, 0, said
	 * at start (user/kernel/kfields.h) rather than a failed load */
	if (!bpf_core_field_exists(o->rss_stat.count))
		return 0;
	/* a probe read: 6.1's verifier cannot walk a direct load through
	 * the atomic_long_t typedef ("Type 'atomic_long_t' is not a struct") */
	bpf_core_read(&pages, sizeof(pages), &o->rss_stat.count[idx].counter);
	return pages;
}

/* Resident pages (anon + file + shmem), resident anon, and anon swapped
 * out (MM_SWAPENTS, not resident): what the OOM trend follows is anon,
 * wherever it is; shmem is shared (classify_mem.h). */
static __always_inline int hk_rss_pages(struct mm_struct *mm, __u64 *rss, __u64 *anon,
					__u64 *swap)
{
	__s64 file, a, sh, sw;

	if (!mm)
		return 0;
	file = hk_rss_counter(mm, HK_MM_FILEPAGES);
	a = hk_rss_counter(mm, HK_MM_ANONPAGES);
	sh = hk_rss_counter(mm, HK_MM_SHMEMPAGES);
	sw = hk_rss_counter(mm, HK_MM_SWAPENTS);
	*anon = a > 0 ? (__u64)a : 0;
	*swap = sw > 0 ? (__u64)sw : 0;
	*rss = file + a + sh > 0 ? (__u64)(file + a + sh) : 0;
	return 1;
}

/* Before 5.14 (2f064a59a11f "sched: Change task_struct::state") the
 * state was `long state`. */
struct task_struct___state {
	long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int hk_task_state(struct task_struct *t)
{
	struct task_struct___state *o = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return t->__state;
	return (unsigned int)o->state;
}

/*
 * Is the thread asleep in an I/O wait (io_schedule: a disk, a network file
 * system)? in_iowait stays set from io_schedule_prepare() until the thread
 * runs again; asleep, it is blocked on that I/O.
 */
static __always_inline int hk_task_in_iowait(struct task_struct *t)
{
	if (!bpf_core_field_exists(t->in_iowait))
		return 0;
	return BPF_CORE_READ_BITFIELD(t, in_iowait) &&
	       hk_task_state(t) != HK_TASK_RUNNING;
}

/*
 * Time the thread slept in I/O wait (delay accounting's blkio_delay),
 * plus the sleep it is in now: the kernel credits a sleep when it ends,
 * and a thread stuck on a dead disk must show. blkio_start is local_clock,
 * the clock rq_now_ns bounds from below. 0 when delay accounting is off
 * (kernel.task_delayacct = 0: the counters stand still) or not built.
 */
static __always_inline __u64 hk_task_io_ns(struct task_struct *t, __u64 rq_now_ns)
{
	struct task_delay_info *d;
	__u64 ns, start;

	if (!bpf_core_field_exists(t->delays))
		return 0;
	d = t->delays;
	if (!d)
		return 0;
	ns = d->blkio_delay;
	if (hk_task_in_iowait(t)) {
		start = d->blkio_start;
		if (start && rq_now_ns > start)
			ns += rq_now_ns - start;
	}
	return ns;
}

/*
 * Does the thread have delay accounting? The kernel gives task->delays
 * only to a task forked while kernel.task_delayacct is 1 (delayacct_tsk_init
 * at fork, 5.14+; Documentation/accounting/delay-accounting.rst: "only
 * tasks started after enabling it will have delayacct information"): a
 * service started before the tool turned the switch on has none, ever.
 */
static __always_inline int hk_task_has_delays(struct task_struct *t)
{
	if (!bpf_core_field_exists(t->delays))
		return 0;
	return t->delays != NULL;
}

/*
 * What the thread stalled on memory (delay accounting): refaults of its
 * working set (thrashing_delay, 5.0), swap-in (swapin_delay), direct
 * reclaim (freepages_delay) and compaction (compact_delay, 5.2), each
 * guarded: a kernel that renames one loads without it. Credited when the
 * stall ends; summed by hk_mem_stall_delta. Not wpcopy_delay
 * (copy-on-write: a fork's copies are work). Zeros without delay
 * accounting.
 */
static __always_inline void hk_task_stall_read(struct task_struct *t, struct hk_stall_ns *m)
{
	struct task_delay_info *d;

	m->thrashing_ns = 0;
	m->swapin_ns = 0;
	m->other_ns = 0;
	if (!bpf_core_field_exists(t->delays))
		return;
	d = t->delays;
	if (!d)
		return;
	if (bpf_core_field_exists(d->thrashing_delay))
		m->thrashing_ns = d->thrashing_delay;
	if (bpf_core_field_exists(d->swapin_delay))
		m->swapin_ns = d->swapin_delay;
	if (bpf_core_field_exists(d->freepages_delay))
		m->other_ns = d->freepages_delay;
	if (bpf_core_field_exists(d->compact_delay))
		m->other_ns += d->compact_delay;
}

/*
 * Is the thread stalled on memory now (PSI's in_memstall: in reclaim, or
 * asleep in memory.high's penalty, up to 2 s per return to user space)?
 * 0 without CONFIG_PSI. A thread held at memory.high sleeps whole
 * windows through: its faults and its cgroup's "high" count come between.
 */
static __always_inline __u32 hk_task_in_memstall(struct task_struct *t)
{
	if (!bpf_core_field_exists(t->in_memstall))
		return 0;
	return BPF_CORE_READ_BITFIELD(t, in_memstall) ? 1 : 0;
}

/*
 * Stalled on memory now, in a stall delay accounting would count: in
 * reclaim or a swap-in (on the CPU), or waiting for a refault's read (in
 * I/O wait). Not asleep otherwise: memory.high's penalty sleep (up to 2 s)
 * is in_memstall too, and is Mem-throttled's, not a thrashing stall.
 */
static __always_inline __u32 hk_task_stalled_now(struct task_struct *t)
{
	if (!hk_task_in_memstall(t))
		return 0;
	return hk_task_state(t) == HK_TASK_RUNNING || hk_task_in_iowait(t);
}

/*
 * Bytes the thread moved to or from storage: task I/O accounting's
 * read_bytes (counted at bio submission, and by NFS and netfs reads) and
 * write_bytes (counted when it dirties a page, or submits a direct write).
 * 0 without CONFIG_TASK_IO_ACCOUNTING (hk_task_io_bytes_known).
 */
static __always_inline int hk_task_io_bytes_known(struct task_struct *t)
{
	return bpf_core_field_exists(t->ioac.read_bytes);
}

static __always_inline __u64 hk_task_io_bytes(struct task_struct *t)
{
	if (!bpf_core_field_exists(t->ioac.read_bytes))
		return 0;
	return t->ioac.read_bytes + t->ioac.write_bytes;
}

/*
 * Asleep uninterruptibly in I/O wait: a disk or a network file system
 * that has not answered. An io_uring task waiting for completions is
 * in_iowait too since 6.5 (with any request in flight, an armed network
 * recv included), but asleep interruptibly (io_cqring_wait).
 */
static __always_inline int hk_task_io_stuck(struct task_struct *t)
{
	return hk_task_in_iowait(t) && (hk_task_state(t) & HK_TASK_UNINTERRUPTIBLE);
}

static __always_inline __u32 hk_task_cpu(struct task_struct *t)
{
	struct task_struct___cpu *o = (void *)t;

	if (bpf_core_field_exists(t->thread_info.cpu))
		return t->thread_info.cpu;
	if (bpf_core_field_exists(o->cpu))
		return o->cpu;
	return 0;	/* CONFIG_SMP=n: the one CPU */
}

/* On a CPU now. on_cpu is CONFIG_SMP's; on one CPU the task on it is the
 * current one: the interrupted task in the timer's softirq, the walker
 * itself in the kworker or the iterator's read() (so none of the walked) */
static __always_inline int hk_task_on_cpu(struct task_struct *t)
{
	if (bpf_core_field_exists(t->on_cpu))
		return t->on_cpu;
	return (__u64)t == bpf_get_current_task();
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
