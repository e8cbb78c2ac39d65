/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mem_blame.h - memory-pressure blame: who grew while a process stalled
 * in reclaim under a shared limit (a memory cgroup's memory.max or
 * memory.high, or the host's RAM). Each process under the same limiting
 * cgroup is a candidate; its growth in the window is its anon + swapped
 * out pages' (hk_owned_pages, the OOM trend's measure), so a page-cache
 * streamer, whose file pages reclaim takes back, grows by nothing here and
 * is never named. The pure part (shares, candidates) is apart from the
 * part that reads the cgroup tree and hk_procs (mem_blame_scope.c), so
 * that the unit tests give it made-up processes.
 */
#ifndef HK_USER_MEM_BLAME_H
#define HK_USER_MEM_BLAME_H

#include <stddef.h>
#include "shared/hotspot.h"

enum hk_mem_blame_limits {
	HK_GROWERS = 3,			/* growers named, the largest first */
	/* hk_procs entries read at one stall transition, at most (the map's
	 * default size; more are counted in cut, not read) */
	HK_BLAME_MAX_PROCS = 8192,
	/* memory cgroups listed under the limiting one, at most (a process
	 * in one past it is not a candidate; counted in cut) */
	HK_BLAME_MAX_MEMCGS = 512,
	HK_BLAME_MAX_DEPTH = 16,	/* levels below the limiting cgroup */
	/* looks (a cgroup subtree listed, hk_procs read) a second, at most:
	 * a v1 memory cgroup is listed in ~60 us (oom_memcg.h), so a look
	 * lists its cgroups in ~30 ms at worst; a storm of stall transitions
	 * under many limits costs the loop a bounded few looks a second, the
	 * rest said as not sought (growers null) */
	HK_BLAME_LOOKS_PER_S = 4,
};

/* The limit's growth under which nobody is named: 1 MiB in a window is
 * allocator noise, not pressure (shares of it would name noise). */
#define HK_BLAME_MIN_GROWTH_BYTES (1ULL << 20)

/* One process under the limit: its anon + swap growth in the window. */
struct hk_blame_cand {
	__u32 tgid;
	__s64 growth_bytes;		/* hk_owned_pages' change; < 0: shrank */
	char comm[HK_COMM_LEN];
};

struct hk_grower {
	__u32 tgid;
	__u32 share_pct_x100;		/* of the growers' growth summed */
	__u64 growth_bytes;
	char comm[HK_COMM_LEN];
};

/* What blame found for one stalled process. */
struct hk_mem_blame {
	__u32 n;			/* growers named (0..HK_GROWERS) */
	__u32 looked;			/* a stall transition: blame was sought */
	__s64 limit_growth_bytes;	/* every candidate's growth summed */
	__u64 cut;			/* processes or cgroups past a cap */
	struct hk_grower g[HK_GROWERS];
};

/*
 * The growers among n candidates: those whose growth is > 0, the largest
 * first (ties: the lower TGID first), at most HK_GROWERS, each with its
 * share of the growers' growth summed (floored, x100). Nobody when the
 * limit's growth (every candidate's, shrinking ones included) is under
 * min_growth_bytes: then the limit did not grow and nobody caused the
 * pressure by growing. Fills b's n, limit_growth_bytes and g; returns n.
 */
__u32 hk_mem_blame__shares(const struct hk_blame_cand *c, size_t n,
			   __u64 min_growth_bytes, struct hk_mem_blame *b);

/* Which cgroups are under the limit: ids sorted (hk_mem_blame__sort_ids),
 * or all (the host's RAM binds: every process shares it). */
struct hk_blame_scope {
	int all;
	const __u64 *ids;		/* memory cgroups' kernfs ids, sorted */
	size_t nr_ids;
};

void hk_mem_blame__sort_ids(__u64 *ids, size_t n);
int hk_mem_blame__in_scope(const struct hk_blame_scope *s, __u64 memcg_id);

/*
 * The candidates among n hk_procs entries (pids[i] keys procs[i]): those
 * in scope and sampled in the walk of newest_ns (sample_ns within half a
 * window of it: an entry not seen then is stale); growth_bytes from each
 * one's latest window (rss_growth_bytes_per_s over window_ns). At most
 * cap into out; more are counted in *cut. Returns how many.
 */
size_t hk_mem_blame__cands(const __u32 *pids, const struct hk_proc *procs, size_t n,
			   const struct hk_blame_scope *s, __u64 newest_ns,
			   struct hk_blame_cand *out, size_t cap, __u64 *cut);

#endif /* HK_USER_MEM_BLAME_H */
