/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sample.h - the window step's input: struct hk_sample, one process's
 * counters for one window as the walk sums them, and struct
 * hk_test_window, the same made up by the in-kernel tests. Apart because
 * only the walk, the window step and their tests use it. Part of
 * hotspot.h: include that.
 */
#ifndef HK_SHARED_SAMPLE_H
#define HK_SHARED_SAMPLE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "capacities.h"
#include "stall.h"

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
	/* its CPU task group's cgroup id (0: the root's, or an autogroup's):
	 * the group whose own crowding the stall ledger counts as self */
	__u64 cpu_group_id;
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
	struct hk_stall_mem stall;	/* the stall ledger's memory parts */
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

#endif /* HK_SHARED_SAMPLE_H */
