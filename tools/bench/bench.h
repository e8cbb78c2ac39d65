/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bench.h - types shared by bench*.bpf.c and bn_bpf.c, bn_table.c. */
#ifndef HK_BENCH_H
#define HK_BENCH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum bn_limits {
	BN_PROC_WORDS = 57,	/* 456 bytes, the size of hotspot-k's entry */
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
