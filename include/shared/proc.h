/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * proc.h - struct hk_proc, the value of hk_procs (one per process, keyed by
 * TGID): the labels' hysteresis, the baseline counters, the RSS trend and
 * the latest evidence; and the kernel's cumulative counters it keeps.
 * Apart because it is the walk's memory between windows, which `status`
 * reads from a running instance's map. Part of hotspot.h: include that.
 */
#ifndef HK_SHARED_PROC_H
#define HK_SHARED_PROC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "capacities.h"
#include "evidence.h"

/* A thread's memory stall counters (delay accounting), cumulative. */
struct hk_stall_ns {
	__u64 thrashing_ns;		/* refaults of its working set */
	__u64 swapin_ns;		/* swap-in: a working-set page's counts
					 * in both (hk_mem_stall_delta) */
	__u64 other_ns;			/* direct reclaim + compaction */
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

/* 816 with the OOM kill's oom_risk_since_ns and _until_ns (800 before);
 * 960 with the stall ledger's two hk_ledger in ev (72 bytes each) */
HK_STATIC_ASSERT(sizeof(struct hk_proc) <= 960, "hk_proc stays small");

#endif /* HK_SHARED_PROC_H */
