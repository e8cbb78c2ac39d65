/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bn_wstate.h - figure 17's types, shared by bench_wstate.bpf.c and bn_wstate.c. */
#ifndef HK_BN_WSTATE_H
#define HK_BN_WSTATE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum bn_wstate_limits {
	BN_WST_ARRAY_BITS = 20,		/* the array's slots: TID & (2^20 - 1) */
	BN_WST_HASH_ENTRIES = 262144,	/* the TID hash: 100 k threads + the host's */
};

/* ctx of bench_wstate.bpf.c's programs: filled in by the program */
struct bn_wst_ctx {
	__u64 threads;		/* threads met */
	__u64 ns;		/* the walk, bpf_ktime_get_ns() around it */
	__u64 miss;		/* state not found (or, in the array, another TID's) */
	__u64 no_delays;	/* threads without task->delays */
};

/* per-thread state, 40 bytes as hotspot-k's hk_task; tid: the array's tag */
struct bn_wst_val {
	__u64 runtime_ns;
	__u64 wait_ns;
	__u64 walk;
	__u64 spare;
	__u32 tid;
	__u32 pad;
};

#endif /* HK_BN_WSTATE_H */
