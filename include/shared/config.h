/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * config.h - what userspace tells the walk: struct hk_config, the one entry
 * of the hk_config map (thresholds, environment, filters), and how the
 * walk and the sched_switch hook are run. Apart from the walk's own types
 * because the config file, its reload and the loader write it and the
 * kernel only reads it. Part of hotspot.h: include that.
 */
#ifndef HK_SHARED_CONFIG_H
#define HK_SHARED_CONFIG_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "capacities.h"

/* Which hierarchy a cgroup filter's id is in. */
enum hk_filter_hier {
	HK_FILTER_HIER_NONE = 0,
	HK_FILTER_HIER_V2 = 1,		/* the unified (default) hierarchy */
	HK_FILTER_HIER_V1_MEMORY = 2,	/* a hybrid host's v1 memory controller */
};

struct hk_pid_list {
	__u32 n;
	__u32 pid[HK_FILTER_PIDS];	/* TGIDs, as the host's PID namespace sees them */
};

struct hk_comm_list {
	__u32 n;
	char comm[HK_FILTER_COMMS][HK_COMM_LEN];	/* NUL-padded */
};

/* Cgroup paths within a hierarchy, each starting with '/', NUL-padded. */
struct hk_path_list {
	__u32 n;
	char path[HK_FREEZE_NEVER][HK_FILTER_PATH_LEN];
};

/*
 * What drives the walk, chosen by the loader from the kernel's BTF (and
 * the number of threads): the same walk body and window step under each.
 */
enum hk_driver {
	HK_DRIVER_NONE = 0,
	HK_DRIVER_WQ = 1,	/* bpf_timer -> bpf_wq: a kworker walks (>= 6.10) */
	HK_DRIVER_TIMER = 2,	/* the bpf_timer callback walks, softirq (>= 6.7) */
	HK_DRIVER_ITER = 3,	/* an iter/task program, read() by userspace each
				 * window; the kernel offers the CPU between
				 * threads (>= 5.15) */
	HK_DRIVER_TABLE = 4,	/* bpf_timer -> bpf_wq in chunks over a table of
				 * processes: a kworker walks, offering the CPU
				 * every chunk_ns (>= 6.10) */
};

/* hk_config.hook: when the sched_switch hook runs. */
enum hk_hook_mode {
	HK_HOOK_NONE = 0,	/* --no-hook: never; no aggressor naming */
	HK_HOOK_ON_DEMAND = 1,	/* attached while some thread is watched */
	HK_HOOK_ALWAYS = 2,	/* --pin: nobody would attach it on demand */
};

/* Windows with no watched thread before the hook is detached: a starved
 * thread that gets a good window now and then keeps its hook. */
#define HK_HOOK_IDLE_WINDOWS 3

/*
 * Thresholds and environment, one entry in the hk_config array map.
 * Userspace writes it before arming the timer; the walk reads it each window.
 * Rates are per second, shares are of the window, so that no diagnosis
 * depends on the interval.
 */
struct hk_config {
	__u64 interval_ns;
	__u32 enter_windows;		/* consecutive matches to enter a label */
	__u32 exit_windows;		/* consecutive misses to leave it */

	/* oom_risk: anonymous memory, resident or swapped out: what the
	 * kernel cannot drop (shmem is shared: see classify_mem.h) */
	__u64 oom_trend_span_ns;	/* RSS history the trend looks at */
	__u64 oom_min_trend_ns;		/* ... and must already cover */
	__u64 oom_min_growth_bytes;	/* net growth over the trend */
	__u32 oom_steady_pct_x100;	/* share of the trend's time growing */
	__u32 oom_eta_share_pct_x100;	/* the growth lasted this share of
					 * its ETA beyond eta_floor (0: off) */
	__u64 oom_eta_horizon_s;	/* limit reached within this */
	__u64 oom_eta_floor_s;		/* ETAs within this: min_trend is
					 * evidence enough */

	/* mem_thrashing */
	__u64 thrash_major_faults_per_s;
	__u64 thrash_minor_faults_per_s; /* not explained by RSS growth */
	__u32 thrash_stall_pct_x100;	/* a thread stalled on memory (delay
					 * accounting: refaults, swap-in, direct
					 * reclaim, compaction), share of the
					 * window; busy or not. 0: off */
	__u32 nr_nodes;			/* NUMA nodes the host may have
					 * (nr_node_ids): the host headroom
					 * reads each one's counters */

	/* throttled: CPU quota of its own cgroup */
	__u32 throttled_pct_x100;	/* quota throttling, share of window */

	/* starved */
	__u32 starved_wait_pct_x100;	/* run-queue wait, share of window */

	/* noisy_neighbor */
	__u32 noisy_cpu_pct_x100;	/* of one CPU */

	/* cpu_bound */
	__u32 cpu_thread_pct_x100;	/* one thread running or runnable */
	__u32 cpu_total_pct_x100;	/* whole process, of all CPUs */
	/* io_blocked: its threads' time blocked on I/O (delay accounting's
	 * blkio), summed, share of one thread's window; 0: off */
	__u32 io_blocked_pct_x100;
	__u64 cpu_max_faults_per_s;

	/* mem_throttled: held at its memory cgroup's memory.high */
	__u32 mem_high_usage_pct_x100;	/* that cgroup's usage, of high */
	__u32 mem_high_non_cache_pct_x100; /* ... less its page cache, of high */
	__u64 mem_high_events_per_s;	/* its memory.events "high"; 0: off */
	__u64 mem_high_faults_per_s;	/* this process's page faults */

	/* derived from the above by hk_config__derive() */
	__u64 trend_stride_ns;		/* time between two trend samples */
	__u32 watch_wait_pct_x100;	/* wait from which the hook records
					 * who preempts a thread */

	/* environment, filled in by userspace: the kernel cannot know these */
	__u32 nr_cpus;
	__u64 total_ram_bytes;
	__u32 page_size_bytes;
	__u32 hook;			/* enum hk_hook_mode */
	__u64 pidns_ino;		/* the tool's own PID namespace */
	__u64 chunk_ns;			/* a timer driver's walk holding a CPU
					 * over 2x this hands over to iter */

	/*
	 * Filters: the walk skips a process that does not pass every one that
	 * is set, before any per-process work. Empty: no filter.
	 */
	struct hk_pid_list filter_pids;		/* only these processes */
	struct hk_comm_list filter_comms;	/* only these names */
	struct hk_comm_list exclude_comms;	/* never these names */
	char filter_cgroup[HK_FILTER_PATH_LEN];	/* only this subtree, as given */
	__u64 filter_cgroup_id;			/* ... its cgroup's kernfs id */
	__u32 filter_cgroup_hier;		/* enum hk_filter_hier */
	__u32 filter_gen;			/* bumped when the filters change:
						 * the next walk sweeps hk_procs */
	__u32 filter_cgroup_level;		/* the filter cgroup's depth below
						 * its hierarchy's root (0: the root) */
	__u32 pad_filter;

	__u64 freeze_eta_s;			/* freeze the cgroup of a process
						 * in oom_risk whose ETA is below
						 * this; 0: never. The kernel sends
						 * HK_EV_ETA when a held OOM risk's
						 * ETA falls under it */

	/*
	 * Userspace only: the kernel does not read these. They live here so
	 * that the config file, --generate-config, a reload and its diff
	 * treat them like every other key.
	 */
	struct hk_path_list freeze_never;	/* cgroups never frozen */
	__u64 profile_ns;			/* profile a process entering an alarm
						 * label for this long; 0: off */
	__u32 delayacct_duty;			/* this instance turns delay
						 * accounting back off if it exits
						 * last (delayacct.c) */
	__u32 freeze_max_s;			/* a freeze is thawed after this */
	__u32 pm_records;			/* OOM post-mortem files kept; 0:
						 * none written (act/postmortem.h) */
	__u32 pm_record_bytes;			/* ... each at most this long */
	/* [budget]: the tool's own cost it holds to (user/act/budget.h) */
	__u64 budget_span_ns;			/* own CPU measured over this */
	__u64 budget_rss_bytes;			/* its RSS; 0: no budget */
	__u32 budget_cpu_pct_x100;		/* of one CPU; 0: no budget */
	__u32 pad_budget;
};

#endif /* HK_SHARED_CONFIG_H */
