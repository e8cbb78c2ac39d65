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
#include "loop.bpf.h"

#define HK_PF_EXITING 0x00000004	/* include/linux/sched.h */
#define HK_PF_KTHREAD 0x00200000	/* include/linux/sched.h */
#define HK_SIGNAL_GROUP_EXIT 0x00000004 /* include/linux/sched/signal.h */
#define HK_TASK_RUNNING 0
#define HK_RUNTIME_INF (~0ULL)		/* kernel/sched/sched.h: no CPU quota */
/* include/linux/mm_types_task.h: indexes of mm->rss_stat, stable since 4.5 */
#define HK_MM_FILEPAGES 0
#define HK_MM_ANONPAGES 1
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
	/* a probe read: 6.1's verifier cannot walk a direct load through
	 * the atomic_long_t typedef ("Type 'atomic_long_t' is not a struct") */
	bpf_core_read(&pages, sizeof(pages), &o->rss_stat.count[idx].counter);
	return pages;
}

/* Resident pages: all of them, and the anon + shmem part the kernel
 * cannot drop (MM_SWAPENTS are not resident). */
static __always_inline int hk_rss_pages(struct mm_struct *mm, __u64 *rss, __u64 *anon)
{
	__s64 file, a;

	if (!mm)
		return 0;
	file = hk_rss_counter(mm, HK_MM_FILEPAGES);
	a = hk_rss_counter(mm, HK_MM_ANONPAGES) + hk_rss_counter(mm, HK_MM_SHMEMPAGES);
	*anon = a > 0 ? (__u64)a : 0;
	*rss = file + a > 0 ? (__u64)(file + a) : 0;
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
	ns = BPF_CORE_READ(d, blkio_delay);
	if (hk_task_in_iowait(t)) {
		start = BPF_CORE_READ(d, blkio_start);
		if (start && rq_now_ns > start)
			ns += rq_now_ns - start;
	}
	return ns;
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

static __always_inline __u32 hk_task_cpu(struct task_struct *t)
{
	struct task_struct___cpu *o = (void *)t;

	if (bpf_core_field_exists(t->thread_info.cpu))
		return t->thread_info.cpu;
	return o->cpu;
}

/*
 * memcg statistics: a pointer since 6.7 (memcg_vmstats moved out of struct
 * mem_cgroup), embedded before. Either way an array of counters, indexed
 * by the stat item until 6.11, by a compact index since (only the items
 * memcg keeps, in the order of memcg_node_stat_items[], whose first four
 * are the LRU lists: inactive/active anon, inactive/active file).
 */
struct mem_cgroup___vsptr {
	struct memcg_vmstats *vmstats;
} __attribute__((preserve_access_index));

struct mem_cgroup___vsemb {
	struct memcg_vmstats vmstats;
} __attribute__((preserve_access_index));

#define HK_COMPACT_INACTIVE_FILE 2
#define HK_COMPACT_ACTIVE_FILE 3

/* Page cache on the memcg's file LRU lists (subtree included): memory the
 * kernel reclaims before it OOM-kills anything. 0 when unknown. */
static __always_inline __u64 hk_memcg_file_pages(struct mem_cgroup *memcg)
{
	struct mem_cgroup___vsptr *mp = (void *)memcg;
	struct mem_cgroup___vsemb *me = (void *)memcg;
	struct memcg_vmstats *vs;
	__u32 n, inactive, active;
	long a = 0, b = 0;

	if (bpf_core_field_exists(mp->vmstats))
		vs = BPF_CORE_READ(mp, vmstats);
	else if (bpf_core_field_exists(me->vmstats))
		vs = &me->vmstats;
	else
		return 0;
	if (!vs)
		return 0;
	n = bpf_core_field_size(vs->state) / sizeof(long);
	if (n == bpf_core_enum_value(enum memcg_stat_item, MEMCG_NR_STAT)) {
		inactive = bpf_core_enum_value(enum node_stat_item, NR_INACTIVE_FILE);
		active = bpf_core_enum_value(enum node_stat_item, NR_ACTIVE_FILE);
	} else {
		inactive = HK_COMPACT_INACTIVE_FILE;
		active = HK_COMPACT_ACTIVE_FILE;
	}
	if (inactive >= n || active >= n)
		return 0;
	bpf_core_read(&a, sizeof(a), &vs->state[inactive & 0xff]);
	bpf_core_read(&b, sizeof(b), &vs->state[active & 0xff]);
	return a + b > 0 ? (__u64)(a + b) : 0;
}

/* The walk over a task's memory cgroups, one bpf_loop step per level (the
 * verifier then checks one level, not every path through them all). */
struct hk_memcg_walk {
	__u64 css;			/* struct cgroup_subsys_state *, 0: done */
	__u64 unset;			/* PAGE_COUNTER_MAX: no limit */
	__u64 best_headroom;		/* pages */
	__u64 best_limit;		/* pages, 0: none */
	__u64 cgrp;			/* struct cgroup *: the task's, whose
					 * ancestors[] the walk down reads */
	__u32 ssid;			/* memory_cgrp_id */
	__u32 top;			/* deepest level the walk down reads */
	/* the memory.high that binds: the smallest high - usage (below 0
	 * once over it), where the kernel reclaims and throttles first */
	__s64 high_room;		/* pages */
	__u64 high;			/* pages (valid when high_css) */
	__u64 high_usage;		/* pages */
	__u64 high_css;			/* its struct cgroup_subsys_state * */
};

/* One memory cgroup's headroom against the tightest so far. */
static __always_inline void hk_memcg_consider(struct hk_memcg_walk *w,
					      struct cgroup_subsys_state *css)
{
	struct mem_cgroup *memcg;
	__u64 max, high, usage, file, used, room;

	/* css is the first member of struct mem_cgroup */
	memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);
	max = BPF_CORE_READ(memcg, memory.max);
	/* memory.high in the page counter since 5.8; unset on cgroup v1 */
	high = bpf_core_field_exists(memcg->memory.high) ?
	       BPF_CORE_READ(memcg, memory.high) : w->unset;
	if (max >= w->unset && high >= w->unset)
		return;
	usage = BPF_CORE_READ(memcg, memory.usage.counter);
	/* the kernel holds usage (page cache included) to high: so do we */
	if (high < w->unset &&
	    (!w->high_css || (__s64)high - (__s64)usage < w->high_room)) {
		w->high_room = (__s64)high - (__s64)usage;
		w->high = high;
		w->high_usage = usage;
		w->high_css = (__u64)css;
	}
	if (max >= w->unset)
		return;
	file = hk_memcg_file_pages(memcg);
	used = usage > file ? usage - file : 0;
	room = max > used ? max - used : 0;
	if (room < w->best_headroom) {
		w->best_headroom = room;
		w->best_limit = max;
	}
}

static long hk_memcg_up_cb(__u64 i, struct hk_memcg_walk *w)
{
	struct cgroup_subsys_state *css = (void *)w->css;

	if (!css)
		return 1;
	hk_memcg_consider(w, css);
	w->css = (__u64)BPF_CORE_READ(css, parent);
	return 0;
}

/* Level i + 1 from the top (the root, level 0, has no limit). */
static long hk_memcg_down_cb(__u64 i, struct hk_memcg_walk *w)
{
	struct cgroup *cg = (void *)w->cgrp, *anc;
	struct cgroup_subsys_state *css;
	/* locals: an index read from w inside BPF_CORE_READ would be
	 * relocated as a kernel type's field */
	__u32 level = (__u32)i + 1, ssid = w->ssid & 0xf;

	if (level > w->top)
		return 1;
	anc = BPF_CORE_READ(cg, ancestors[level & 0xffff]);
	css = anc ? BPF_CORE_READ(anc, subsys[ssid]) : NULL;
	if (css)
		hk_memcg_consider(w, css);
	return 0;
}

/*
 * The memory.high the walk found binding (if any) into s: its bytes, its
 * cgroup's usage and page cache (which reclaim frees first), its cgroup id
 * and that cgroup's memory.events "high" count: how often the kernel
 * reclaimed it for being over high (hierarchical: a child's count too).
 */
static __always_inline void hk_memcg_high_fill(const struct hk_memcg_walk *w,
					       __u64 page_size, struct hk_sample *s)
{
	struct cgroup_subsys_state *css = (void *)w->high_css;
	struct mem_cgroup *memcg;
	long events = 0;
	__u32 idx, n;

	if (!css)
		return;
	memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);
	s->mem_high_bytes = w->high * page_size;
	s->mem_high_usage_bytes = w->high_usage * page_size;
	s->mem_high_file_bytes = hk_memcg_file_pages(memcg) * page_size;
	s->mem_high_cgroup_id = BPF_CORE_READ(css, cgroup, kn, id);
	/* memory_events[] and MEMCG_HIGH since 4.x; guarded all the same,
	 * so that a kernel that renames them loads without the count */
	if (!bpf_core_field_exists(memcg->memory_events) ||
	    !bpf_core_enum_value_exists(enum memcg_memory_event, MEMCG_HIGH))
		return;
	idx = bpf_core_enum_value(enum memcg_memory_event, MEMCG_HIGH);
	n = bpf_core_field_size(memcg->memory_events) / sizeof(long);
	if (idx >= n)
		return;
	/* a probe read: atomic_long_t, as in hk_rss_counter */
	bpf_core_read(&events, sizeof(events), &memcg->memory_events[idx & 0xf].counter);
	s->mem_high_events = events > 0 ? (__u64)events : 0;
}

/*
 * Tightest memory cgroup limit on the task's path: the smallest headroom
 * over its memory cgroup and ancestors, where headroom = max - (usage -
 * reclaimable page cache): a cgroup a writer filled with cache is not
 * about to OOM. A max of PAGE_COUNTER_MAX (LONG_MAX / PAGE_SIZE) or more
 * is unset, whatever the page size. Returns 0 when no cgroup sets a limit
 * (total RAM binds) or memcg is not built.
 *
 * HK_MEMCG_DEPTH levels up from the task's memory cgroup; deeper than
 * that, as many again down from the top through cgroup->ancestors[]
 * (Linux >= 6.0; 5.15 has ids there, not pointers), where the limits an
 * administrator sets are. Fills s's limit_bytes, headroom_bytes,
 * memcg_id and limit_partial (levels in between left unread), and the
 * memory.high that binds on the same levels (hk_memcg_high_fill).
 *
 * A subprogram of its own: inlined, its walk state lay in the frame of
 * hk_proc_close, under the chain that ends in hk_emit, and 6.1's verifier
 * (512 bytes for the whole chain, no private stack before 6.13) refused
 * hk_iter at 544. A global one, given the task's css_set as a scalar
 * address (a probe read's, not a typed pointer; every read here is a
 * probe read): the verifier checks it once, on its own.
 * Static, it was checked again on every path of the walk's loop that
 * reached it, and the memory.high branches took 6.18's verifier past 1M
 * instructions on hk_arm (as hk_filter_pass did before).
 */
__noinline int hk_memcg_limit(__u64 cset_addr, __u64 page_size, struct hk_sample *s)
{
	struct css_set *cset = (struct css_set *)cset_addr;
	struct hk_memcg_walk w = { .best_headroom = ~0ULL };
	struct cgroup_subsys_state *css, *stop;
	struct cgroup *cg;
	int id, level, stop_level;

	if (!s)
		return 0;
	s->limit_partial = 0;
	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id) ||
	    !page_size)
		return 0;
	id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (id < 0 || id >= 16)
		return 0;
	css = cset ? BPF_CORE_READ(cset, subsys[id]) : NULL;
	if (!css)
		return 0;
	cg = BPF_CORE_READ(css, cgroup);
	s->memcg_id = BPF_CORE_READ(cg, kn, id);
	w.css = (__u64)css;
	w.unset = 0x7fffffffffffffffULL / page_size;
	hk_loop(HK_MEMCG_DEPTH, HK_MEMCG_DEPTH_BOUNDED, hk_memcg_up_cb, &w);
	stop = (void *)w.css;
	if (stop) {
		/* the walk up stopped short of the root, at stop_level; the
		 * levels from 1 to stop_level are unread */
		level = BPF_CORE_READ(cg, level);
		stop_level = BPF_CORE_READ(stop, cgroup, level);
		w.top = stop_level > 0 ? (__u32)stop_level : 0;
		if (w.top > HK_MEMCG_DEPTH)
			w.top = HK_MEMCG_DEPTH;
		if (bpf_core_field_exists(cg->ancestors) && level > 0) {
			w.cgrp = (__u64)cg;
			w.ssid = (__u32)id;
			hk_loop(HK_MEMCG_DEPTH, HK_MEMCG_DEPTH_BOUNDED, hk_memcg_down_cb, &w);
		} else {
			w.top = 0;
		}
		s->limit_partial = stop_level > (int)w.top ? (__u32)(stop_level - (int)w.top) : 0;
	}
	hk_memcg_high_fill(&w, page_size, s);
	if (!w.best_limit)
		return 0;
	s->limit_bytes = w.best_limit * page_size;
	s->headroom_bytes = w.best_headroom * page_size;
	return 1;
}

/* The walk up a task's CPU task groups, one bpf_loop step per level. */
struct hk_tg_walk {
	__u64 tg;			/* struct task_group *, 0: done */
	__u64 throttled_ns;
	__u64 quota_cpus_x100;		/* tightest so far; 0: none */
	__u64 quota_cgroup_id;
};

static long hk_tg_level_cb(__u64 i, struct hk_tg_walk *w)
{
	struct task_group *tg = (void *)w->tg;
	__u64 quota_ns, period_ns, cpus_x100;

	if (!tg)
		return 1;
	quota_ns = BPF_CORE_READ(tg, cfs_bandwidth.quota);
	if (quota_ns != HK_RUNTIME_INF) {
		w->throttled_ns += BPF_CORE_READ(tg, cfs_bandwidth.throttled_time);
		period_ns = BPF_CORE_READ(tg, cfs_bandwidth.period);
		/* rounded up: 1 ns over 4 CPUs is a 5th CPU's worth */
		cpus_x100 = period_ns ? (quota_ns * 100 + period_ns - 1) / period_ns : 0;
		if (cpus_x100 && (!w->quota_cpus_x100 || cpus_x100 < w->quota_cpus_x100)) {
			w->quota_cpus_x100 = cpus_x100;
			w->quota_cgroup_id = BPF_CORE_READ(tg, css.cgroup, kn, id);
		}
	}
	w->tg = (__u64)BPF_CORE_READ(tg, parent);
	return 0;
}

/*
 * The CPU quotas on the task's path (cfs_bandwidth: cgroup v1
 * cpu.cfs_quota_us, v2 cpu.max): the time they held its run queues back,
 * summed over its task groups that have one, in ns, cumulative (the
 * kernel counts it per run queue, i.e. per CPU, as each is unthrottled);
 * and the tightest of them, in CPUs, with its cgroup's id, so that the
 * classifier can take that sum over the CPUs the quota lets the group
 * use and the operator sees which cgroup sets it. A subprogram of its
 * own, like hk_memcg_limit: its walk state stays out of hk_proc_close's
 * frame (6.1's 512-byte limit on the whole call chain).
 */
static __noinline int hk_cpu_quota(struct task_struct *t, struct hk_sample *s)
{
	struct hk_tg_walk w = {};

	if (!s)
		return 0;
	s->throttled_ns = 0;
	s->quota_cpus_x100 = 0;
	s->quota_cgroup_id = 0;
	if (!bpf_core_field_exists(t->sched_task_group) ||
	    !bpf_core_field_exists(struct task_group, cfs_bandwidth))
		return 0;
	w.tg = (__u64)BPF_CORE_READ(t, sched_task_group);
	hk_loop(HK_TG_DEPTH, HK_TG_DEPTH, hk_tg_level_cb, &w);
	s->throttled_ns = w.throttled_ns;
	s->quota_cpus_x100 = (__u32)w.quota_cpus_x100;
	s->quota_cgroup_id = w.quota_cgroup_id;
	return 0;
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
