/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cgroup_limits.bpf.h - what a process's cgroups allow it, read when the
 * walk closes the process: the tightest memory limit and the memory.high
 * that binds (up its memory cgroups, and down from the top), and its CPU
 * quotas (up its task groups). Each walk is a global function with one
 * bpf_loop step per level, so that the verifier checks it once, on its own
 * (see hk_memcg_limit). Apart from core_fixes.bpf.h's per-thread field
 * readers: these run once per process, and every read is a probe read.
 */
#ifndef HK_BPF_CGROUP_LIMITS_H
#define HK_BPF_CGROUP_LIMITS_H

#include <bpf/bpf_core_read.h>
#include "shared/hotspot.h"
#include "loop.bpf.h"

#define HK_RUNTIME_INF (~0ULL)		/* kernel/sched/sched.h: no CPU quota */

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
 * use and the operator sees which cgroup sets it. tg_addr: the task's
 * struct task_group (0: none, or no CPU controller built).
 *
 * A global function, like hk_memcg_limit: verified once on its own rather
 * than in every path of hk_proc_close's callers (as a static subprogram
 * it took hk_arm past the verifier's 1M instructions on 6.18, once the
 * memory.high and steal reads were in), and its walk state stays out of
 * hk_proc_close's frame (6.1's 512-byte limit on the whole call chain).
 */
__noinline int hk_cpu_quota(__u64 tg_addr, struct hk_sample *s)
{
	struct hk_tg_walk w = {};

	if (!s)
		return 0;
	s->throttled_ns = 0;
	s->quota_cpus_x100 = 0;
	s->quota_cgroup_id = 0;
	s->cpu_group_id = 0;
	if (!tg_addr || !bpf_core_field_exists(struct task_group, parent))
		return 0;
	/* its own group, unless the root's: there everyone is (an
	 * autogroup has no cgroup: 0 too) */
	if (BPF_CORE_READ((struct task_group *)tg_addr, parent))
		s->cpu_group_id = BPF_CORE_READ((struct task_group *)tg_addr, css.cgroup, kn, id);
	if (!bpf_core_field_exists(struct task_group, cfs_bandwidth))
		return 0;
	w.tg = tg_addr;
	hk_loop(HK_TG_DEPTH, HK_TG_DEPTH, hk_tg_level_cb, &w);
	s->throttled_ns = w.throttled_ns;
	s->quota_cpus_x100 = (__u32)w.quota_cpus_x100;
	s->quota_cgroup_id = w.quota_cgroup_id;
	return 0;
}

#endif /* HK_BPF_CGROUP_LIMITS_H */
