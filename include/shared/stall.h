/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stall.h - the stall ledger's types: the causes a process's threads
 * waited for (enum hk_stall_cause), a ledger of ns per cause, and the
 * memory stall the walk sums for it (classify_stall.h has the rule). Part
 * of hotspot.h: include that.
 */
#ifndef HK_SHARED_STALL_H
#define HK_SHARED_STALL_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Why a thread waited. The CPU causes come first: a node's CPU wait is
 * the first HK_STALL_CPU_NR of them (hk_stats's node_cpu_wait_ns). */
enum hk_stall_cause {
	HK_STALL_NEIGHBOR = 0,	/* run-queue wait: another process held the CPU */
	HK_STALL_SELF = 1,	/* ... its own threads did */
	HK_STALL_QUOTA = 2,	/* ... its cgroups' cpu.max throttled it */
	HK_STALL_STEAL_IRQ = 3,	/* steal + IRQ time took its CPU */
	HK_STALL_WEIGHT = 4,	/* another process, but it asked for less:
				 * nice > 0, BATCH/IDLE, cpu.idle, cpu.weight */
	HK_STALL_CPU_NR = 5,
	HK_STALL_RECLAIM = 5,	/* memory: direct reclaim + compaction */
	HK_STALL_SWAPIN = 6,	/* memory: swap-in */
	HK_STALL_REFAULT = 7,	/* memory: refaults of its working set */
	HK_STALL_IO = 8,	/* I/O: its own blkio waits */
	HK_STALL_NR = 9,
};

/* Per cause, in ns: one window's (hk_evidence's stall_win) or a running
 * total (stall_ns). */
struct hk_ledger {
	__u64 ns[HK_STALL_NR];
};

/* A process's threads' memory stall in one window, by kind, as the walk
 * sums it (hk_sample's `stall`; each thread at most a window). */
struct hk_stall_mem {
	__u64 reclaim_ns;	/* direct reclaim + compaction */
	__u64 swapin_ns;
	__u64 refault_ns;	/* thrashing minus swap-in: delay accounting
				 * counts a swapped-in working-set page in both */
};

#endif /* HK_SHARED_STALL_H */
