/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * host_mem.bpf.h - what the host can still give, read in the kernel once a
 * walk: the figure /proc/meminfo calls MemAvailable (si_mem_available),
 * from the same counters, so that OOM risk's headroom is the host's when
 * the host binds before any memory cgroup (classify_mem.h's hk_limit).
 *
 *   available = free - reserved
 *             + file LRU - min(file LRU / 2, low watermarks)
 *             + reclaimable slab - min(that / 2, low watermarks)
 *
 * The global counters (vm_zone_stat, vm_node_stat, totalreserve_pages) are
 * not in this kernel's BTF or kallsyms (no KALLSYMS_ALL): the per-node and
 * per-zone counters they sum are, through each node's pglist_data, which
 * the root memory cgroup's per-node LRU vector points to. So the figure
 * needs the memory controller (as the memcg limits do); without it the
 * headroom stays RAM less the process's own anon. Free swap is not
 * counted: a leak that swaps gets a shorter ETA, not a longer one.
 */
#ifndef HK_BPF_HOST_MEM_H
#define HK_BPF_HOST_MEM_H

#include <bpf/bpf_core_read.h>
#include "shared/hotspot.h"
#include "loop.bpf.h"
#include "walk_state.bpf.h"	/* hk_walk_no */

#define HK_HOST_ZONES_MAX	6	/* zones of a node (MAX_NR_ZONES is 4..6) */

static __u64 hk_root_memcg;		/* struct mem_cgroup *: found once */
static __u64 hk_host_walk;		/* walk number of the last reading */
static __u64 hk_host_avail_pages;
static __u32 hk_host_known;		/* nodes the last reading found; 0: none */
static __u64 hk_host_deferred_pages;	/* of the last reading (the bench's) */

struct hk_host_sum {
	__u64 memcg;			/* the root struct mem_cgroup * */
	__s64 free;			/* pages, all zones */
	__s64 reserve;			/* totalreserve_pages, per node summed */
	__s64 wmark_low;		/* low watermarks (boost included) */
	__s64 file;			/* active + inactive file LRU */
	__s64 reclaimable;		/* reclaimable slab + kernel misc */
	__s64 managed;			/* the node's zones' managed pages */
	__s64 deferred;			/* of free: not initialised yet */
	__u32 nodes;			/* nodes read */
};

/* A counter of a vm_stat[] array (atomic_long_t), by its CO-RE index. */
static __always_inline __s64 hk_stat_read(void *arr, __u32 idx, __u32 nr)
{
	__s64 v = 0;

	if (idx >= nr)
		return 0;
	bpf_probe_read_kernel(&v, sizeof(v), arr + (idx & 0xff) * sizeof(long));
	return v;
}

static __always_inline void hk_host_zone(struct hk_host_sum *h, struct zone *z)
{
	__s64 managed = 0;

	__u32 nr = bpf_core_field_size(z->vm_stat) / sizeof(long);
	__u32 low = bpf_core_enum_value(enum zone_watermarks, WMARK_LOW);

	h->free += hk_stat_read(&z->vm_stat, bpf_core_enum_value(enum zone_stat_item,
								   NR_FREE_PAGES), nr);
	if (bpf_core_field_exists(z->_watermark) && low < 4)
		h->wmark_low += BPF_CORE_READ(z, _watermark[low & 3]);
	if (bpf_core_field_exists(z->watermark_boost))
		h->wmark_low += BPF_CORE_READ(z, watermark_boost);
	/* atomic_long_t since 5.9: a probe read, as hk_rss_counter's */
	if (bpf_core_field_exists(z->managed_pages))
		bpf_core_read(&managed, sizeof(managed), &z->managed_pages);
	h->managed += managed > 0 ? managed : 0;
}

/*
 * Pages whose struct page the kernel has not initialised yet: free, but in
 * no zone's count until deferred_grow_zone() hands them over (deferred
 * struct page init; with a lazy policy, as on this lab's kernel, they stay
 * so after boot, and MemFree counts them). ULONG_MAX once all are done,
 * as on a mainline kernel after boot.
 */
static __always_inline __s64 hk_deferred_pages(struct pglist_data *pgdat, __u64 managed)
{
	__u64 first, end, present;

	if (!bpf_core_field_exists(pgdat->first_deferred_pfn))
		return 0;
	first = BPF_CORE_READ(pgdat, first_deferred_pfn);
	end = BPF_CORE_READ(pgdat, node_start_pfn) + BPF_CORE_READ(pgdat, node_spanned_pages);
	if (first >= end)
		return 0;
	/* the span counts holes: no more than the node's present pages
	 * that no zone manages yet */
	present = BPF_CORE_READ(pgdat, node_present_pages);
	present = present > managed ? present - managed : 0;
	return (__s64)(end - first < present ? end - first : present);
}

/*
 * One node: its LRU and slab counters, its reserve, its zones. A global
 * function: verified once, not once per turn of the bounded loop that
 * stands in for bpf_loop on 5.15/5.16 (64 turns of it, inlined, took the
 * verifier past its 1M instructions).
 */
__noinline int hk_host_node(struct hk_host_sum *h, __u32 nid)
{
	struct mem_cgroup_per_node *pn = NULL;
	struct mem_cgroup *memcg;
	struct pglist_data *pgdat;
	__u32 nr, zones, z, zone_size;
	__s64 deferred;
	void *vs;

	/* CONFIG_MEMCG=n: no per-node LRU vectors. Here, not in the caller:
	 * the verifier checks a global function on its own, and a CO-RE
	 * read it can reach that did not relocate fails the whole load */
	if (!h || !bpf_core_type_exists(struct mem_cgroup_per_node) ||
	    !bpf_core_field_exists(struct mem_cgroup, nodeinfo))
		return 0;
	memcg = (void *)h->memcg;
	bpf_probe_read_kernel(&pn, sizeof(pn), (void *)memcg +
			      bpf_core_field_offset(struct mem_cgroup, nodeinfo) +
			      (nid & (HK_HOST_NODES_MAX - 1)) * sizeof(void *));
	/* a node count larger than nr_node_ids (a guessed one: no sysfs)
	 * reads past nodeinfo[]: only the root's own node info counts */
	if (!pn || (__u64)BPF_CORE_READ(pn, memcg) != h->memcg)
		return 0;
	/* set when the node's LRU was first used (mem_cgroup_lruvec) */
	pgdat = BPF_CORE_READ(pn, lruvec.pgdat);
	if (!pgdat)
		return 0;
	if (bpf_core_field_exists(pgdat->node_id) && BPF_CORE_READ(pgdat, node_id) != nid)
		return 0;
	h->nodes++;
	h->reserve += BPF_CORE_READ(pgdat, totalreserve_pages);
	vs = &pgdat->vm_stat;
	nr = bpf_core_field_size(pgdat->vm_stat) / sizeof(long);
	h->file += hk_stat_read(vs, bpf_core_enum_value(enum node_stat_item, NR_ACTIVE_FILE), nr) +
		   hk_stat_read(vs, bpf_core_enum_value(enum node_stat_item, NR_INACTIVE_FILE), nr);
	/* in bytes' name, in pages' unit since 5.9 (as /proc/meminfo reads it) */
	if (bpf_core_enum_value_exists(enum node_stat_item, NR_SLAB_RECLAIMABLE_B))
		h->reclaimable += hk_stat_read(vs, bpf_core_enum_value(enum node_stat_item,
								       NR_SLAB_RECLAIMABLE_B), nr);
	if (bpf_core_enum_value_exists(enum node_stat_item, NR_KERNEL_MISC_RECLAIMABLE))
		h->reclaimable += hk_stat_read(vs, bpf_core_enum_value(enum node_stat_item,
								       NR_KERNEL_MISC_RECLAIMABLE), nr);
	/* the zone's size is this kernel's, not vmlinux.h's */
	zone_size = bpf_core_type_size(struct zone);
	zones = bpf_core_field_size(pgdat->node_zones) / zone_size;
	h->managed = 0;
	for (z = 0; z < HK_HOST_ZONES_MAX; z++) {
		if (z >= zones)
			break;
		hk_host_zone(h, (void *)pgdat + bpf_core_field_offset(struct pglist_data,
								       node_zones) +
				z * zone_size);
	}
	deferred = hk_deferred_pages(pgdat, (__u64)h->managed);
	h->free += deferred;
	h->deferred += deferred;
	return 0;
}

static long hk_host_node_cb(__u64 nid, struct hk_host_sum *h)
{
	hk_host_node(h, (__u32)nid);
	return 0;
}

/* The root memory cgroup, from any task's: up its parents. */
static long hk_host_up_cb(__u64 i, struct hk_host_sum *h)
{
	struct cgroup_subsys_state *css = (void *)h->memcg, *parent;

	parent = BPF_CORE_READ(css, parent);
	if (!parent)
		return 1;
	h->memcg = (__u64)parent;
	return 0;
}

/* What reclaim would leave of a reclaimable kind: all but min(half, low
 * watermarks), as si_mem_available says. Negative sums (per-CPU drift) 0. */
static __always_inline __u64 hk_reclaimable(__s64 pages, __s64 low)
{
	__u64 p = pages > 0 ? (__u64)pages : 0, l = low > 0 ? (__u64)low : 0;
	__u64 half = p >> 1;

	return p - (half < l ? half : l);
}

/*
 * Read what the host can still give into hk_host_avail_pages, once per
 * walk (the first process closed reads it for all). cset_addr: any task's
 * struct css_set, for the first reading, which finds the root memory
 * cgroup. A global function: verified once, on its own.
 */
__noinline int hk_host_read(__u64 cset_addr, __u32 nr_nodes)
{
	struct css_set *cset = (struct css_set *)cset_addr;
	struct hk_host_sum h = {};
	struct cgroup_subsys_state *css;
	__s64 avail;
	int id;

	hk_host_walk = hk_walk_no;
	hk_host_known = 0;
	if (!hk_root_memcg) {
		if (!cset || !bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id) ||
		    !bpf_core_field_exists(struct mem_cgroup, css))
			return 0;
		id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		if (id < 0 || id >= 16)
			return 0;
		h.memcg = (__u64)BPF_CORE_READ(cset, subsys[id]);
		if (!h.memcg)
			return 0;
		hk_loop(HK_MEMCG_DEPTH * 8, HK_MEMCG_DEPTH_BOUNDED, hk_host_up_cb, &h);
		/* a local: a field of h inside BPF_CORE_READ would be relocated
		 * as a kernel type's */
		css = (void *)h.memcg;
		if (BPF_CORE_READ(css, parent))
			return 0;	/* deeper than the loop: not the root */
		/* css is the first member of struct mem_cgroup */
		hk_root_memcg = (__u64)css - bpf_core_field_offset(struct mem_cgroup, css);
	}
	h.memcg = hk_root_memcg;
	if (!nr_nodes)
		nr_nodes = 1;
	if (nr_nodes > HK_HOST_NODES_MAX)
		nr_nodes = HK_HOST_NODES_MAX;
	hk_loop(nr_nodes, HK_HOST_NODES_BOUNDED, hk_host_node_cb, &h);
	if (!h.nodes)
		return 0;
	avail = h.free - h.reserve;
	avail += (__s64)hk_reclaimable(h.file, h.wmark_low);
	avail += (__s64)hk_reclaimable(h.reclaimable, h.wmark_low);
	hk_host_avail_pages = avail > 0 ? (__u64)avail : 0;
	hk_host_known = h.nodes;
	hk_host_deferred_pages = h.deferred > 0 ? (__u64)h.deferred : 0;
	return 0;
}

#endif /* HK_BPF_HOST_MEM_H */
