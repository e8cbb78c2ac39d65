/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bn_table.h - bn-bpf's table walk (bench_table.bpf.c), for bn_bpf.c; and
 * what the TGID table walk (bn_tgid.c) shares with it. */
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

/* one sample of a table walk, as both tables print it */
struct bn_tsample {
	__u64 threads;
	__u64 procs;
	__u64 ns;		/* chunks: their own times summed */
	__u64 max;		/* chunks: the longest */
	__u32 chunks;		/* 0: one run */
	__u32 per;		/* chunks: processes each */
};

/* "TAG t=SEC mode=one threads=N procs=N ns=N" or, with chunks, "... mode=chunks
 * ... max=NS chunks=N per=N"; no newline */
void bn_tsample_print(const char *tag, const struct bn_tsample *s);
/* the processes a walk of procs in ns walks in ~1 ms (a chunk), at least 1 */
__u32 bn_chunk_of(__u64 procs, __u64 ns);
/* a chunk's run added to a sample */
void bn_tsample_add(struct bn_tsample *s, __u64 threads, __u64 procs, __u64 ns);

/* load and fill the table; < 0 (said on stderr): no table, go on without */
int bn_table__open(struct bn_table *t, __u32 max_procs);
/* one sample: the whole table in one run, or in chunks, in turn */
void bn_table__sample(struct bn_table *t);
/* empty the table (every reference dropped), say so, unload */
void bn_table__close(struct bn_table *t);

#endif /* HK_BN_TABLE_H */
