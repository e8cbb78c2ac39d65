/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* bn_tgid.h - bn-bpf's TGID table walk and fork hook (bench_tgid.bpf.c), for bn_bpf.c. */
#ifndef HK_BN_TGID_H
#define HK_BN_TGID_H

#include <signal.h>
#include <linux/types.h>

struct bench_tgid_bpf;

struct bn_tgid {
	struct bench_tgid_bpf *skel;
	__u32 words;		/* scanned: up to kernel.pid_max's */
	__u32 chunk;		/* processes per chunk, ~1 ms of the last run */
	__u64 runs;		/* samples taken: one run and chunks in turn */
};

/* load and fill the bitmap; < 0 (said on stderr): no TGID walk, go on without */
int bn_tgid__open(struct bn_tgid *t);
/* one sample: the whole bitmap in one run, or in chunks, in turn */
void bn_tgid__sample(struct bn_tgid *t);
/* unload (the bitmap pins no task) */
void bn_tgid__close(struct bn_tgid *t);
/* bn-bpf attach forkhook: attach bn_tgid_fork, "ready prog_id=N", wait */
int bn_tgid__attach_fork(volatile sig_atomic_t *exiting);

#endif /* HK_BN_TGID_H */
