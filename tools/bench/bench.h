/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bench.h - types shared by bench*.bpf.c and bn_bpf.c, bn_table.c, bn_tgid.c. */
#ifndef HK_BENCH_H
#define HK_BENCH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum bn_limits {
	BN_PROC_WORDS = 57,	/* 456 bytes, the size of hotspot-k's entry */
	BN_TGID_WORDS = 65536,	/* a bit per PID below PID_MAX_LIMIT (4194304) */
	BN_TGID_GROUP = 8,	/* words a TGID walk skips at once when empty */
};

/* ctx of the bn_walk_* programs: filled in by the program */
struct bn_walk_ctx {
	__u64 threads;
	__u64 procs;		/* user processes seen (levels >= 2) */
	__u64 ns;		/* the walk, bpf_ktime_get_ns() around it */
};

/* ctx of bench_table.bpf.c's programs: slots [start, end) in */
struct bn_table_ctx {
	__u32 start;
	__u32 end;
	__u64 threads;		/* threads met (bn_walk_table) */
	__u64 procs;		/* processes met, filled or released */
	__u64 ns;		/* the run, bpf_ktime_get_ns() around it */
	__u32 full;		/* bn_table_fill: more processes than slots */
	__u32 pad;
};

/* ctx of bench_tgid.bpf.c's programs: TGIDs from start, words below end */
struct bn_tgid_ctx {
	__u32 start;		/* the first TGID to look at */
	__u32 end;		/* the words to scan: up to pid_max's, a multiple of 8 */
	__u32 max;		/* processes to walk at most; 0: no limit */
	__u32 next;		/* out: the TGID to resume from (end * 64: done) */
	__u64 threads;		/* threads met (bn_walk_tgid) */
	__u64 procs;		/* processes met or set (bn_tgid_fill) */
	__u64 ns;		/* the run, bpf_ktime_get_ns() around it */
};

/* ctx of bn_host_read: reads and nr_nodes in, the rest out */
struct bn_host_ctx {
	__u64 reads;		/* hk_host_read calls, back to back */
	__u64 ns;		/* all of them, bpf_ktime_get_ns() around */
	__u64 avail_pages;	/* what the last one found */
	__u64 deferred_pages;	/* of which not-yet-initialised pages */
	__u32 nr_nodes;		/* as hotspot-k passes it (node/possible) */
	__u32 known;		/* nodes read; 0: no reading */
};

#endif /* HK_BENCH_H */
