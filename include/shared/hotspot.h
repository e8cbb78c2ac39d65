/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hotspot.h - every type that crosses the kernel/user boundary.
 *
 * Included by bpf/hotspot.bpf.c (after vmlinux.h), by the userspace tool and
 * by the tests. Constants are enums so that they reach BTF and bpftool shows
 * them by name; the capacities that size the arrays are capacities.h's.
 * Every field carries its unit in its name.
 */
#ifndef HK_SHARED_HOTSPOT_H
#define HK_SHARED_HOTSPOT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "units.h"
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

/* Diagnoses, most severe first: the first that matches wins. */
enum hk_label {
	HK_OK = 0,
	HK_OOM_RISK = 1,
	HK_MEM_THRASHING = 2,
	HK_THROTTLED = 3,
	HK_STARVED = 4,
	HK_NOISY_NEIGHBOR = 5,
	HK_IO_BLOCKED = 6,
	HK_CPU_BOUND = 7,
	/* held at its memory cgroup's memory.high: the kernel reclaims and
	 * throttles its allocations (after OOM risk, before Mem-thrashing in
	 * hk_classify's order; numbered after the first seven, whose values
	 * stay) */
	HK_MEM_THROTTLED = 8,
	HK_EXITED = 9,		/* only ever a transition's target */
	/* the kernel's OOM killer killed it: its last transition, in place
	 * of exited, said for every process (tracked or not) */
	HK_OOM_KILLED = 10,
	HK_NR_LABELS = 11,
};

enum hk_limit_kind {
	HK_LIMIT_RAM = 0,	/* no memory cgroup limit: total RAM binds */
	HK_LIMIT_MEMCG = 1,	/* a memory cgroup (or an ancestor) binds */
	HK_LIMIT_HOST = 2,	/* what the host can still give binds (free +
				 * reclaimable, read in the kernel each window):
				 * less than any memory cgroup leaves */
};

enum hk_consts {
	HK_ETA_NONE = -1,	/* (as __u64) RSS is not heading to a limit */
};

/* OOM kills (bpf/oom_kill.bpf.h, shared/oom_kill.h). */
enum hk_oom_consts {
	HK_OOM_NAME_LEN = 64,		/* a memory cgroup's directory name kept */
	HK_OOM_KILLS = 1024,		/* kills kept until the victim's exit */
	HK_OOM_MEMCGS = 1024,		/* memory cgroups whose count of OOM
					 * kills a mark_victim was seen at */
	HK_OOM_MEMCG_LEVELS = 16,	/* memory cgroups looked at, up from the
					 * victim's, for the one at its limit */
	/* "flagged": it held OOM risk at the kill, or left it no more than
	 * this many windows before (at its limit the kernel's reclaim can
	 * flatten the trend for a window or two before the kill) */
	HK_OOM_FLAG_WINDOWS = 5,
};

/*
 * What drives the walk, chosen by the loader from the kernel's BTF (and
 * the number of threads): the same walk body and window step under each.
 */
/*
 * Where a window's I/O wait and memory stall come from (hk_sample's and
 * hk_evidence's `sampled` bits): delay accounting, or, for a thread that
 * has none (started before kernel.task_delayacct was 1: the kernel gives
 * task->delays only to tasks forked while it is on), the walk's samples
 * of what the kernel keeps for every task (in_iowait asleep
 * uninterruptibly; PSI's in_memstall) over its last HK_SAMPLE_WALKS
 * visits. The bit is the busiest thread's: the one io_tid or
 * mem_stall_tid names.
 */
enum hk_source {
	HK_SRC_IO_SAMPLED = 1,		/* I/O wait sampled, not delay accounting's */
	HK_SRC_STALL_SAMPLED = 2,	/* memory stall sampled, likewise */
	HK_SAMPLE_WALKS = 8,		/* visits a sampled share spans */
	HK_SAMPLE_MIN_HITS = 3,		/* hits below which it counts nothing */
};

/* A thread's memory stall counters (delay accounting), cumulative. */
struct hk_stall_ns {
	__u64 thrashing_ns;		/* refaults of its working set */
	__u64 swapin_ns;		/* swap-in: a working-set page's counts
					 * in both (hk_mem_stall_delta) */
	__u64 other_ns;			/* direct reclaim + compaction */
};

enum hk_driver {
	HK_DRIVER_NONE = 0,
	HK_DRIVER_WQ = 1,	/* bpf_timer -> bpf_wq: a kworker walks (>= 6.10) */
	HK_DRIVER_TIMER = 2,	/* the bpf_timer callback walks, softirq (>= 6.7) */
	HK_DRIVER_ITER = 3,	/* an iter/task program, read() by userspace each
				 * window; the kernel offers the CPU between
				 * threads (>= 5.15) */
};

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
};

/*
 * What one window says about one process: the rates the classifier reads
 * and the evidence a transition carries. Kept in hk_procs (bpftool shows
 * the latest window) and copied into each event.
 */
struct hk_evidence {
	__u64 window_ns;
	__u32 cpu_pct_x100;		/* all threads on a CPU, of one CPU */
	__u32 wait_pct_x100;		/* run-queue wait (run delay), all
					 * threads, at most 100 % per thread */
	__u32 nr_threads;
	/* the thread that wanted a CPU most: ran + waited for one */
	__u32 thread_tid;
	__u32 thread_cpu;
	__u32 thread_cpu_pct_x100;	/* ... its time on a CPU */
	__u32 thread_queued_pct_x100;	/* ... its run-queue wait */
	/* the thread that waited for a CPU most */
	__u32 wait_tid;
	__u32 thread_wait_pct_x100;
	__u32 throttled_pct_x100;	/* its cgroups' CPU quota throttling,
					 * summed over CPUs */
	__u64 minor_faults_per_s;
	__u64 major_faults_per_s;
	__u64 unexplained_faults_per_s;	/* minor faults RSS growth leaves */
	__u64 vcsw_per_s;
	__u64 ivcsw_per_s;
	__u64 rss_bytes;		/* resident: anon + file + shmem */
	__u64 rss_anon_bytes;		/* resident anon (shmem apart) */
	__s64 rss_growth_bytes_per_s;	/* anon + swapped out, this window */
	__s64 rss_slope_bytes_per_s;	/* least squares over the trend */
	__s64 rss_net_growth_bytes;	/* newest minus oldest trend point */
	__u64 rss_trend_ms;		/* time the trend's points cover */
	__u32 trend_samples;		/* points, the current window's included */
	__u32 trend_grow_pct_x100;	/* share of the trend's time growing */
	enum hk_limit_kind limit_kind;
	__u32 victim_starved;		/* victim_tgid entered or holds Starved */
	__u64 limit_bytes;
	__u64 headroom_bytes;		/* reclaimable page cache not counted */
	__u64 eta_s;			/* HK_ETA_NONE when not growing */
	__u64 memcg_id;			/* cgroup id of the memory cgroup */
	__u32 aggressor_tgid;		/* took the CPU from us most often */
	__u32 aggressor_switches;
	__u32 victim_tgid;		/* a Starved process we starve */
	__u32 victim_switches;		/* how often we took its CPU */
	/* blocked on I/O (in_iowait sleeps: delay accounting's blkio) */
	__u32 io_pct_x100;		/* all threads, of one thread's window */
	__u32 io_tid;			/* the thread blocked longest */
	__u32 thread_io_pct_x100;	/* ... its share, at most 100 % */
	__u32 limit_partial;		/* its memory cgroups are nested deeper
					 * than the walk reads (HK_MEMCG_DEPTH
					 * up and down): a limit in between is
					 * not seen */
	/* the CPUs it may use, and who set its share of them */
	__u32 cpus_allowed;		/* widest affinity among its threads
					 * (nr_cpus_allowed), at most nr_cpus */
	__u32 quota_cpus_x100;		/* tightest CPU quota above it, in CPUs
					 * (cpu.max quota / period); 0: none */
	__u64 quota_cgroup_id;		/* ... the cgroup that sets it */
	__u32 usable_cpus_x100;		/* min(nr_cpus, cpus_allowed, quota) */
	__u32 throttled_norm_pct_x100;	/* throttled_pct_x100 over the CPUs
					 * its quota lets it use */
	/* the thread that waited most: what it asked the scheduler for */
	__s32 wait_nice;		/* -20..19 */
	__u32 wait_policy;		/* SCHED_NORMAL 0, BATCH 3, IDLE 5, ... */
	__u32 wait_group_weight;	/* its task group's cpu.weight (1..10000;
					 * 100 default; 0: root / unknown) */
	__u32 wait_group_idle;		/* its task group has cpu.idle set */
	__u32 victim_deprioritised;	/* Noisy neighbor: the victim it starves
					 * asked for less (nice > 0, BATCH/IDLE,
					 * cpu.idle, a low cpu.weight): why, as
					 * classify.h's hk_deprio(); 0: it did not */
	__u32 cpu_lost_pct_x100;	/* steal + IRQ time on thread_cpu, the
					 * thread's part (hk_cpu_lost_share) */
	/* memory.high: above it the kernel reclaims and throttles */
	__u64 mem_high_bytes;		/* the tightest memory.high above it
					 * (0: none set) */
	__u64 mem_high_usage_bytes;	/* ... that cgroup's usage */
	__u64 mem_high_cgroup_id;	/* ... that cgroup */
	__u64 mem_high_events_per_s;	/* ... its memory.events "high" count */
	__u64 mem_high_file_bytes;	/* ... its page cache (reclaimed first) */
	__u32 mem_stalled;		/* its newest thread was stalled on memory
					 * (PSI in_memstall) when sampled */
	__u32 sampled;			/* enum hk_source bits: io_pct_x100's
					 * and mem_stall_pct_x100's source */
	/* what corroborates I/O wait: bytes its threads moved to or from
	 * storage (task I/O accounting's read_bytes + write_bytes; NFS and
	 * netfs reads count too), and threads asleep uninterruptibly in
	 * I/O wait at the walk (a stuck device: its bytes counted when the
	 * request was submitted) */
	__u64 io_bytes_per_s;
	__u32 io_bytes_known;		/* the kernel counts them
					 * (CONFIG_TASK_IO_ACCOUNTING) */
	__u32 io_stuck_threads;
	/* memory truth: what the trend follows beside resident anon, and
	 * the kernel's own stall time */
	__u64 swap_bytes;		/* its anon swapped out (MM_SWAPENTS):
					 * the trend follows anon + this */
	__u32 mem_stall_tid;		/* the thread stalled on memory longest */
	__u32 mem_stall_pct_x100;	/* ... its share of the window (delay
					 * accounting: max(thrashing, swap-in)
					 * + direct reclaim + compaction; or
					 * sampled: enum hk_source) */
	__u32 thrash_stalled;		/* that share reaches thrash_stall: real
					 * memory pressure, not a fault storm
					 * (hk_thrash_stalled) */
	__u32 rss_growing_ms;		/* how long the trend has shown steady
					 * growth (hk_growth_age); 0: none */
};

/* What a thread or a process did, counted by the kernel (cumulative). */
struct hk_counters {
	__u64 runtime_ns;
	__u64 minor_faults;
	__u64 major_faults;
	__u64 nvcsw;
	__u64 nivcsw;
};

/* Hysteresis state: the committed label and the counters that move it. */
struct hk_hyst {
	enum hk_label label;		/* committed */
	enum hk_label match;		/* this window's diagnosis */
	enum hk_label cand;		/* label being matched in a row */
	__u32 cand_windows;
	__u32 miss_windows;		/* windows in a row not matching label */
	__u32 pad;
};

/* Value of hk_procs, keyed by TGID (as the host sees it). */
struct hk_proc {
	__u64 start_time_ns;		/* group leader's; tells recycled PIDs */
	__u64 start_boottime_ns;	/* ... on CLOCK_BOOTTIME, as /proc/PID/stat
					 * gives it (field 22, in clock ticks):
					 * userspace tells a recycled PID too */
	char comm[HK_COMM_LEN];
	struct hk_hyst hyst;
	__u32 windows;			/* samples taken */
	__u32 ns_pid;			/* PID in its own namespace */
	__u64 ns_ino;			/* that namespace's inode */
	__u64 seen_walk;		/* walk number that last sampled it */
	__u64 sample_ns;		/* time of the last sample */
	/* cumulative counters at the last sample (the baseline) */
	__u64 runtime_ns;
	__u64 minor_faults;
	__u64 major_faults;
	__u64 nvcsw;
	__u64 nivcsw;
	__u64 rss_pages;
	__u64 owned_pages;		/* anon + swapped out (hk_owned_pages) */
	__u64 throttled_ns;
	__u64 mem_high_events;		/* memory.events "high" of mem_high_cgroup_id */
	__u64 carry_io_bytes;		/* bytes moved in a skipped sample */
	__u64 carry_wait_ns;		/* wait of a skipped sample */
	__u64 carry_thread_wait_ns;	/* ... of its thread that waited most */
	__u64 carry_io_ns;		/* I/O wait of a skipped sample */
	__u64 carry_thread_io_ns;	/* ... of its thread blocked longest */
	/* ... its thread that wanted a CPU most, and its most frequent
	 * preemptor (hk_sample's fields of the same names) */
	__u64 carry_thread_run_ns;
	__u64 carry_thread_queued_ns;
	__u32 carry_thread_tid;
	__u32 carry_thread_cpu;
	__u32 carry_aggressor_tgid;
	__u32 carry_aggressor_switches;
	/* anon + swapped-out trend ring (hk_owned_pages) */
	__u32 trend_head;		/* next slot to write */
	__u32 trend_nr;
	__u64 trend_ms[HK_TREND_SLOTS];
	__u64 trend_pages[HK_TREND_SLOTS];
	struct hk_evidence ev;		/* the latest window */
	/* the walk's running totals: what its threads did since each was
	 * last seen, summed window after window (quiet threads are not read) */
	struct hk_counters total;
	/* threads that exited since the last close: what each did since it
	 * was last seen (the exit hook adds, the walk takes) */
	struct hk_counters exited;
	/* its latest OOM risk, for an OOM kill's "flagged" (hk_oom_flagged):
	 * when it entered the label (0: never) and when it left it (0: holds
	 * it); CLOCK_MONOTONIC, set as the transitions go out */
	__u64 oom_risk_since_ns;
	__u64 oom_risk_until_ns;
};

/*
 * One process's counters for one window, as the walk sums them (or a test
 * makes them up): the input of the window step.
 */
struct hk_sample {
	__u64 now_ns;
	__u64 start_time_ns;
	__u64 quiet_until_ns;		/* its counters did not move before
					 * this (skipped as quiet); 0: unknown */
	__u64 runtime_ns;		/* cumulative, live + exited threads */
	__u64 minor_faults;		/* cumulative */
	__u64 major_faults;		/* cumulative */
	__u64 nvcsw;			/* cumulative */
	__u64 nivcsw;			/* cumulative */
	__u64 throttled_ns;		/* cumulative, its cgroups' quota */
	__u64 wait_delta_ns;		/* run-queue wait in this window */
	/* the thread that wanted a CPU most in this window */
	__u64 thread_run_delta_ns;
	__u64 thread_queued_delta_ns;
	__u64 thread_wait_delta_ns;	/* run-queue wait of the thread that
					 * waited most in this window */
	__u64 io_delta_ns;		/* blocked on I/O in this window */
	__u64 thread_io_delta_ns;	/* ... the thread blocked longest */
	__u32 io_tid;
	__u32 pad_io;
	__u32 thread_tid;
	__u32 thread_cpu;
	__u32 wait_tid;
	__u32 nr_threads;
	__u32 aggressor_tgid;
	__u32 aggressor_switches;
	__u32 ns_pid;
	__u32 fresh;			/* born since the previous walk */
	__u64 ns_ino;
	__u64 rss_pages;		/* anon + file + shmem */
	__u64 anon_pages;		/* resident anon */
	__u64 swap_pages;		/* anon swapped out (MM_SWAPENTS) */
	__u32 limit_kind;
	__u32 pad;
	__u64 limit_bytes;		/* 0: unknown, total RAM binds */
	__u64 headroom_bytes;
	__u64 memcg_id;
	__u32 limit_partial;		/* memory cgroup levels left unread */
	__u32 pad_limit;
	/* CPUs and quota (see hk_evidence) */
	__u32 cpus_allowed;
	__u32 quota_cpus_x100;
	__u64 quota_cgroup_id;
	/* the thread that waited most: its policy, nice and task group */
	__s32 wait_nice;
	__u32 wait_policy;
	__u32 wait_group_weight;
	__u32 wait_group_idle;
	__u64 cpu_lost_delta_ns;	/* steal + IRQ time on thread_cpu while
					 * that thread was runnable there */
	/* memory.high (see hk_evidence) */
	__u64 mem_high_bytes;
	__u64 mem_high_usage_bytes;
	__u64 mem_high_cgroup_id;
	__u64 mem_high_events;		/* cumulative: memory.events "high" */
	char comm[HK_COMM_LEN];
	__u64 mem_high_file_bytes;	/* (see hk_evidence) */
	__u32 mem_stalled;		/* (see hk_evidence) */
	__u32 sampled;			/* (see hk_evidence) */
	/* I/O moved (see hk_evidence) */
	__u64 io_delta_bytes;		/* in this window, by its visited threads */
	__u32 io_bytes_known;
	__u32 io_stuck_threads;
	/* memory truth (see hk_evidence) */
	__u64 host_avail_bytes;		/* what the host can still give (free +
					 * reclaimable, as MemAvailable: see
					 * bpf/host_mem.bpf.h) */
	__u32 host_avail_known;		/* 0: not read (no memory controller) */
	__u32 mem_stall_tid;
	__u64 thread_mem_stall_delta_ns; /* stalled on memory in this window,
					  * the thread stalled longest */
};

enum hk_event_type {
	HK_EV_TRANSITION = 1,
	/*
	 * A timer driver's walk held a CPU longer than 2 x chunk_ns (threads
	 * grew since the start): the timer stopped, and the tool walks from
	 * now on with the iter driver. from: the driver that stopped;
	 * time_ns: the start of that walk; ev.window_ns: how long it took.
	 */
	HK_EV_HANDOVER = 2,
	/*
	 * A process that holds OOM risk: its ETA fell under freeze_eta_s in
	 * this window (it entered above it, or held above it until now).
	 * from = to = HK_OOM_RISK; ev: this window's. The freeze is decided
	 * on it as on the entry (act/freeze.c).
	 */
	HK_EV_ETA = 3,
	/*
	 * The sched_switch hook is wanted (from = 1: the walk began watching
	 * a thread) or no longer (from = 0: none watched for
	 * HK_HOOK_IDLE_WINDOWS windows); to: threads watched by this walk.
	 * The tool attaches or detaches it at once (hk_config.hook
	 * HK_HOOK_ON_DEMAND only).
	 */
	HK_EV_HOOK = 4,
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
 * An OOM kill: what the kernel did (oom:mark_victim) and what hotspot-k
 * had said of the victim before. Kept in hk_oom until the victim's last
 * transition (HK_OOM_KILLED) carries it; zero in every other event.
 */
struct hk_oom_kill {
	__u64 time_ns;			/* the kill, CLOCK_MONOTONIC */
	__u64 start_time_ns;		/* the victim's group leader's start
					 * (0: unknown, kernels before 6.8) */
	__u64 memcg_id;			/* kernfs id of the memory cgroup whose
					 * limit was hit; 0: none, a host OOM */
	__u64 limit_bytes;		/* ... its limit */
	__u64 usage_bytes;		/* ... its usage at the kill */
	__u64 oom_risk_since_ns;	/* hk_proc's, at the kill: 0 never */
	__u64 oom_risk_until_ns;	/* ... 0: held at the kill */
	__u64 window_ns;		/* the interval then (hk_oom_flagged) */
	__u32 flagged;			/* hk_oom_flagged() */
	__u32 tracked;			/* hk_procs had an entry for it */
	char memcg_name[HK_OOM_NAME_LEN]; /* that cgroup's directory name,
					 * NUL-padded (its path: userspace) */
};

/* A label change, sent over the hk_events ring buffer. */
struct hk_event {
	__u32 type;			/* enum hk_event_type */
	__u32 tgid;
	__u32 ns_pid;
	__u32 from;			/* enum hk_label */
	__u32 to;			/* enum hk_label (HK_EXITED included) */
	__u32 windows;			/* windows the process was sampled */
	__u64 ns_ino;
	__u64 time_ns;			/* CLOCK_MONOTONIC */
	__u64 start_time_ns;
	__u64 start_boottime_ns;	/* the process's start on CLOCK_BOOTTIME:
					 * an act checks the PID still holds it */
	char comm[HK_COMM_LEN];
	char aggressor_comm[HK_COMM_LEN];
	char victim_comm[HK_COMM_LEN];
	struct hk_evidence ev;
	struct hk_oom_kill oom;		/* to HK_OOM_KILLED only; zero otherwise */
};

/* How the tool knows what its programs cost (struct hk_cost.source). */
enum hk_cost_source {
	HK_COST_UNKNOWN = 0,	/* not written yet, or by a tool that left */
	HK_COST_STATS = 1,	/* the kernel's run times: BPF_ENABLE_STATS,
				 * held by the tool for its lifetime */
	HK_COST_SYSCTL = 2,	/* ... kernel.bpf_stats_enabled=1, set by
				 * someone else */
	HK_COST_ESTIMATE = 3,	/* runs from the kernel's own counts (context
				 * switches while attached, forks) x the ns a
				 * run took in `make bench` (HK_COST_EST_*) */
};

/* ns per run for HK_COST_ESTIMATE, run times under BPF_ENABLE_STATS on the
 * 2-CPU lab VM (2026-11-26): hk_switch 51-61 ns in steady storms and under a
 * Starved pair (figures 1 and 14a; cache-cold hackbench 114-141), hk_exit
 * 172-177 ns (figure 14b); a faster host pays less */
#define HK_COST_EST_HOOK_NS 55
#define HK_COST_EST_EXIT_NS 175

/*
 * The tool's own cost since it started: the last part of hk_stats, written
 * by the tool (through its mapping of hk_stats) at most once a window, so
 * that `status` and the Prometheus file read it with the counters. Nothing
 * in the kernel writes it.
 */
struct hk_cost {
	__u64 source;			/* enum hk_cost_source */
	__u64 lifetime_ns;		/* since the tool was ready (after start) */
	__u64 start_cpu_ns;		/* the start: load, verifier, first walk */
	__u64 hook_attached;		/* the sched_switch hook is attached now */
	__u64 hook_attaches;		/* times attached (at a walk's ask) */
	__u64 hook_attached_ns;		/* ... for this long, all in all */
	__u64 hook_attach_ns_max;	/* from the walk's ask to the link */
	__u64 hook_runs;		/* sched_switch runs of the hook */
	__u64 hook_run_ns;
	__u64 exit_runs;		/* sched_process_exit runs */
	__u64 exit_run_ns;
	__u64 oom_runs;			/* mark_victim runs */
	__u64 oom_run_ns;
	__u64 walk_cpu_ns;		/* the walks since start (hk_stats') */
	__u64 user_cpu_ns;		/* the tool's process since start (user
					 * + system), less walks it ran in its
					 * read()s */
	__u64 total_ns;			/* all of the above but start_cpu_ns */
};

/* The tool's own cost and losses, one entry in the hk_stats array map. */
struct hk_stats {
	__u64 windows;			/* walks completed */
	__u64 threads_walked;
	__u64 procs_walked;
	__u64 walk_ns_total;		/* first stretch to last, yields included */
	__u64 walk_ns_max;		/* longest single walk */
	__u64 switches_recorded;	/* involuntary switches the hook saw */
	__u64 events_emitted;
	__u64 events_dropped;		/* ring buffer full: retried next window */
	__u64 samples_skipped;		/* no sample: the walk missed a process's
					 * last thread, or it had no mm */
	__u64 procs_untracked;		/* process-windows not tracked: hk_procs full */
	__u64 exits_lost;		/* hk_exits full: swept instead */
	__u64 defer_overflows;		/* aggressor pass too small */
	__u64 timer_rearm_failures;
	__u64 wq_start_failures;
	__u64 driver;			/* enum hk_driver of the last walk */
	__u64 last_walk_ns;
	__u64 procs_quiet;		/* process-windows skipped: nothing ran */
	__u64 threads_visited;		/* threads whose task storage was read */
	__u64 stale_waits;		/* run delay the kernel credited from a
					 * stale queue time, dropped */
	__u64 entries_created;
	__u64 sweeps;			/* full walks to drop lost exits */
	__u64 stretch_ns_max;		/* longest time the walk held a CPU with
					 * no preemption point: a whole walk
					 * (wq, timer); under iter 32 threads
					 * (an upper bound: the kernel offers
					 * the CPU after each) or the end */
	__u64 chunks;			/* iter driver: times the walker let go
					 * of the CPU mid-walk (the kernel's
					 * cond_resched() between threads) */
	__u64 procs_parked;		/* a process set aside until its next
					 * thread (iter driver: TIDs interleave) */
	__u64 walk_cpu_ns_total;	/* the walks' stretches on a CPU: the
					 * walk's own time, without the iter
					 * walker's time off the CPU */
	__u64 stretches;		/* stretches on a CPU, all walks */
	__u64 stretches_over_2ms;	/* ... of which longer than 2 ms */
	__u64 last_walk_end_ns;		/* CLOCK_MONOTONIC: the tool's watchdog
					 * takes a timer that stopped for dead */
	__u64 threads_unstored;		/* thread-visits skipped: the kernel
					 * could not allocate its task storage */
	/* OOM kills (oom:mark_victim) said, flagged OOM risk in time or not
	 * (hk_oom_flagged): the tool's recall, measured by the kernel */
	__u64 oom_kills_flagged;
	__u64 oom_kills_missed;
	__u64 oom_marks_not_kills;	/* mark_victim of a task dying already
					 * (task_will_free_mem): no kill, not
					 * counted above (hk_oom_killed) */
	__u64 oom_kills_lost;		/* hk_oom full, or its line refused by
					 * a full ring buffer: counted missed */
	__u64 walk_end_ns_max;		/* iter driver: longest stop() (the
					 * walk's end: exits, victims, sweep) */
	/* thread-visits of threads with no delay accounting (task->delays
	 * NULL: started before kernel.task_delayacct was 1; enum hk_source) */
	__u64 threads_no_delays;
	/* processes whose main thread has none, at the last full walk (the
	 * first, a sweep: every thread visited); the start line says it */
	__u64 procs_no_delays;
	__u64 procs_evicted;		/* quiet entries given up for room */
	struct hk_cost cost;		/* written by the tool, not here */
};

/* In and out of the hk_test_win program (its .bss): one synthetic window. */
struct hk_test_window {
	__u32 nr_procs;
	__u32 exit_tgid;		/* non-zero: that process exits first */
	__u32 exit_tgid2;		/* ... and that one (a second exit) */
	__u32 tgid[HK_TEST_PROCS];
	struct hk_sample sample[HK_TEST_PROCS];
	/* out: label committed after the window, per process */
	__u32 label[HK_TEST_PROCS];
	__u32 match[HK_TEST_PROCS];
	__s32 err;
	__u32 copies;			/* in: process 0 stands for this many
					 * (< HK_TEST_COPIES), with the same
					 * sample, TGIDs tgid[0] + 0, 1, ...;
					 * 0: one */
};

HK_STATIC_ASSERT(sizeof(struct hk_event) % 8 == 0, "event is 8-byte aligned");
HK_STATIC_ASSERT(sizeof(struct hk_oom_kill) % 8 == 0, "oom kill is 8-byte aligned");
/* 816 with the OOM kill's oom_risk_since_ns and _until_ns (800 before) */
HK_STATIC_ASSERT(sizeof(struct hk_proc) <= 832, "hk_proc stays small");

#endif /* HK_SHARED_HOTSPOT_H */
