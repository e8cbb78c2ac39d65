/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stall.bpf.h - the stall ledger in the kernel: after the window step, a
 * process's window split by cause (include/shared/classify_stall.h) into
 * its hk_proc, and the node's CPU wait by cause into hk_stats. Apart from
 * window.bpf.h, which calls it once a window per process.
 */
#ifndef HK_BPF_STALL_H
#define HK_BPF_STALL_H

#include "shared/classify.h"
#include "maps.bpf.h"

/*
 * The stall ledger of the window just made (hk_stall_window), and the
 * node's CPU wait by cause (one walk at a time adds). A global function:
 * verified once, on its own; inlined into the window step, the test
 * entry's bounded-loop build passed the verifier's 1M instructions. A
 * sibling of hk_window_step_frame: no call level deeper. The memory
 * stall comes in hk_stall_cur, not as a pointer: the test entry's sample
 * sits at a variable offset, which older verifiers may refuse to pass to
 * a global function.
 */
static struct hk_stall_mem hk_stall_cur;
/* and, the same way, its CPU group (sample's cpu_group_id) and the walk */
static __u64 hk_stall_group_id;
static __u64 hk_stall_walk_no;

/*
 * A CPU group's sums over one walk's windows (the processes closed in it
 * that belong to the group), and what the walk before left: its own share
 * of its wait (hk_stall_group_self). One walk late: a group's sum is whole
 * only at the walk's end, and its first process is closed long before.
 * LRU: a group gone is pushed out by the ones that run.
 */
struct hk_cpu_group {
	__u64 walk;			/* the walk the sums are of */
	__u64 window_ns;		/* its first process's window */
	__u64 ran_wait_ns;		/* ran + waited (quota's wait apart) */
	__u64 wait_ns;			/* waited (quota's apart) */
	__u32 cpus;			/* the widest its processes may use */
	__u32 self_pct_x100;		/* of the walk before */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);		/* cgroup id of the task group */
	__type(value, struct hk_cpu_group);
} hk_cpu_groups SEC(".maps");

/* The group of the process closed now, its sums moved on to this walk. */
static __always_inline struct hk_cpu_group *hk_cpu_group_now(void)
{
	struct hk_cpu_group *g, fresh = { .walk = hk_stall_walk_no };
	__u64 id = hk_stall_group_id;

	if (!id)
		return NULL;
	g = bpf_map_lookup_elem(&hk_cpu_groups, &id);
	if (!g) {
		bpf_map_update_elem(&hk_cpu_groups, &id, &fresh, BPF_NOEXIST);
		return bpf_map_lookup_elem(&hk_cpu_groups, &id);
	}
	if (g->walk == hk_stall_walk_no)
		return g;
	/* only the walk just before says what the group does now */
	g->self_pct_x100 = g->walk + 1 == hk_stall_walk_no ?
		hk_stall_group_self(g->ran_wait_ns, g->wait_ns, g->window_ns, g->cpus) : 0;
	g->walk = hk_stall_walk_no;
	g->window_ns = 0;
	g->ran_wait_ns = 0;
	g->wait_ns = 0;
	g->cpus = 0;
	return g;
}

/* The process's window into its group's sums. */
static __always_inline void hk_cpu_group_add(struct hk_cpu_group *g, const struct hk_config *c,
					     const struct hk_evidence *ev)
{
	__u64 rest = ev->stall_win.ns[HK_STALL_NEIGHBOR] + ev->stall_win.ns[HK_STALL_SELF] +
		     ev->stall_win.ns[HK_STALL_WEIGHT];
	__u32 cpus = hk_stall_cpus(c, ev);

	if (!g->window_ns)
		g->window_ns = ev->window_ns;
	g->ran_wait_ns += ev->window_ns / 100 * ev->cpu_pct_x100 / 100 + rest;
	g->wait_ns += rest;
	if (cpus > g->cpus)
		g->cpus = cpus;
}

__noinline int hk_stall_frame(struct hk_proc *p)
{
	__u32 zero = 0, i;
	struct hk_config *c = bpf_map_lookup_elem(&hk_config, &zero);
	struct hk_stats *st = bpf_map_lookup_elem(&hk_stats, &zero);
	struct hk_cpu_group *g;

	if (!p || !c || !st)
		return 0;
	g = hk_cpu_group_now();
	hk_stall_window(c, &p->ev, &hk_stall_cur, g ? g->self_pct_x100 : 0);
	if (g)
		hk_cpu_group_add(g, c, &p->ev);
	for (i = 0; i < HK_STALL_CPU_NR; i++)
		st->node_cpu_wait_ns[i] += p->ev.stall_win.ns[i];
	return 0;
}

#endif /* HK_BPF_STALL_H */
