/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bn_table.h - bn-bpf's table walk (bench_table.bpf.c), for bn_bpf.c. */
#ifndef HK_BN_TABLE_H
#define HK_BN_TABLE_H

#include <linux/types.h>

struct bench_table_bpf;

struct bn_table {
	struct bench_table_bpf *skel;
	__u32 slots;		/* filled */
	__u32 chunk;		/* processes per chunk, ~1 ms of the last run */
	__u64 runs;		/* samples taken: one run and chunks in turn */
};

/* load and fill the table; < 0 (said on stderr): no table, go on without */
int bn_table__open(struct bn_table *t, __u32 max_procs);
/* one sample: the whole table in one run, or in chunks, in turn */
void bn_table__sample(struct bn_table *t);
/* empty the table (every reference dropped), say so, unload */
void bn_table__close(struct bn_table *t);

#endif /* HK_BN_TABLE_H */
