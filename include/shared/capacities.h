/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * capacities.h - how many of each thing the kernel side keeps: trend
 * points, deferred processes, cgroup levels, bitmap bits, filter entries.
 * They size the boundary structs (hotspot.h) and the maps and bitmaps of
 * bpf/maps.bpf.h alike, so both sides read them from here; an index
 * masked with N - 1 needs N a power of two, asserted below. Enums, so
 * that they reach BTF and bpftool shows them by name.
 */
#ifndef HK_SHARED_CAPACITIES_H
#define HK_SHARED_CAPACITIES_H


enum hk_limits {
	HK_COMM_LEN = 16,
	/* RSS samples kept for the trend; a power of two (ring index mask). */
	HK_TREND_SLOTS = 8,
	/* Fewer points than this (the current window's included) are not a
	 * trend: three points over 10 s is what a 5 s interval can have
	 * 15 s after a leak starts. */
	HK_TREND_MIN_SAMPLES = 3,
	/* Processes per window whose label waits for the aggressor pass. */
	HK_DEFER_SLOTS = 256,
	/* Starved victims per window whose aggressor is resolved. */
	HK_VICTIM_SLOTS = 256,
	/* Memory cgroup levels examined for the tightest limit: this many
	 * up from the process's own, and as many down from the top, where
	 * an administrator's limits are (user-UID.slice, a pod): a user who
	 * nests deeper in a delegated subtree hides only its own limits,
	 * and the evidence says so (limit_partial). Without bpf_loop (5.15,
	 * 5.16) the walk up takes HK_MEMCG_DEPTH_BOUNDED turns. */
	HK_MEMCG_DEPTH = 32,
	HK_MEMCG_DEPTH_BOUNDED = 16,
	/* NUMA nodes the host headroom reads: every node a kernel can have
	 * (MAX_NUMNODES at NODES_SHIFT 10; POWER declares 256 possible with
	 * sparse IDs), 64 without bpf_loop (5.15, 5.16), said at start. Also
	 * the node count when neither sysfs nor /proc/zoneinfo gives one. */
	HK_HOST_NODES_MAX = 1024,
	HK_HOST_NODES_BOUNDED = 64,
	/* CPU task-group ancestors examined for a quota. */
	HK_TG_DEPTH = 8,
	/* Threads the sched_switch hook records aggressors for: a bitmap
	 * indexed by TID, rebuilt by every walk (collisions only cost). */
	HK_WATCH_BITS = 32768,
	/* Processes that need a window even when none of their threads ran
	 * (a label or a candidate to settle): a bitmap indexed by TGID. */
	HK_ATTN_BITS = 65536,
	/* Processes one synthetic test window can carry. */
	HK_TEST_PROCS = 4,
	HK_TEST_COPIES = 64,	/* ... and copies of its first (a crowd) */
	/* Filters: PIDs and process names a config or the flags can give. */
	HK_FILTER_PIDS = 16,
	HK_FILTER_COMMS = 8,
	/* A cgroup filter's path, as given (bpftool shows it). */
	HK_FILTER_PATH_LEN = 256,
	/* Cgroup levels the filter looks up from a process's cgroup where
	 * the kernel keeps no ancestors[] array (before 5.15's ids; never
	 * on the kernels hotspot-k loads on, but for a BTF that lacks it). */
	HK_FILTER_DEPTH = 32,
	/* Cgroups --never-freeze and [freeze] never can list. */
	HK_FREEZE_NEVER = 16,
	/* The hk_events ring buffer: ~7000 events; `follow` refuses a
	 * pinned ring of another size (someone else's). */
	HK_EVENTS_RING_BYTES = 2 << 20,
	/* Walks a process's entry must go unclosed (none of its threads
	 * ran) before it may be given up for room (bpf/procs_room.bpf.h). */
	HK_QUIET_WALKS = 4,
};

#ifdef __cplusplus
#define HK_STATIC_ASSERT static_assert
#else
#define HK_STATIC_ASSERT _Static_assert
#endif

HK_STATIC_ASSERT((HK_TREND_SLOTS & (HK_TREND_SLOTS - 1)) == 0,
		 "trend ring capacity must be a power of two");
HK_STATIC_ASSERT((HK_DEFER_SLOTS & (HK_DEFER_SLOTS - 1)) == 0,
		 "defer list capacity must be a power of two");
HK_STATIC_ASSERT((HK_VICTIM_SLOTS & (HK_VICTIM_SLOTS - 1)) == 0,
		 "victim list capacity must be a power of two");
HK_STATIC_ASSERT((HK_WATCH_BITS & (HK_WATCH_BITS - 1)) == 0,
		 "watch and ran bitmaps: a power of two of bits");
HK_STATIC_ASSERT((HK_ATTN_BITS & (HK_ATTN_BITS - 1)) == 0,
		 "attention bitmap: a power of two of bits");

#endif /* HK_SHARED_CAPACITIES_H */
