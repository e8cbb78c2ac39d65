/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * evidence.h - what one window says about one process: the labels (the
 * diagnoses) and struct hk_evidence, the rates and names a transition
 * carries. Apart because every reader of a diagnosis (the printer, the
 * metrics, `status`) needs these and none of the walk's bookkeeping.
 * Part of hotspot.h: include that.
 */
#ifndef HK_SHARED_EVIDENCE_H
#define HK_SHARED_EVIDENCE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "stall.h"

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
	/* the stall ledger (classify_stall.h): this window's waits by
	 * cause, and their running total since the tool first saw it (an
	 * event carries both) */
	struct hk_ledger stall_win;
	struct hk_ledger stall_ns;
};

#endif /* HK_SHARED_EVIDENCE_H */
