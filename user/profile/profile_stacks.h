/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_stacks.h - one profile's counts and stacks, taken out of the
 * profiler's shared BPF maps into memory, so that naming them (slow, and
 * fed by the process's own files) can happen elsewhere, in a child
 * (profile_write.h), while the maps serve the other profiles.
 */
#ifndef HK_USER_PROFILE_STACKS_H
#define HK_USER_PROFILE_STACKS_H

#include <stddef.h>
#include <linux/types.h>
#include "shared/profile.h"

struct hk_prof_count {
	struct hk_prof_key key;
	__u64 value;		/* on-CPU: samples; off-CPU: ns asleep;
				 * memory: bytes grown */
	struct hk_prof_top top;	/* the user stack's top words, zeroes: none */
};

/* A stack: its frames, leaf first, in hk_profile_stacks.ips. */
struct hk_prof_trace {
	__s32 id;
	__u32 n;
	size_t at;
};

struct hk_profile_stacks {
	struct hk_prof_count *counts;
	size_t n;
	struct hk_prof_trace *traces;	/* sorted by id */
	size_t ntraces;
	__u64 *ips;
	size_t nips;
};

/*
 * Take pid's counts out of counts_fd (deleted from the map) with the
 * stacks they name (copied out of stack_fd) and their stack tops (out of
 * tops_fd, deleted; -1: none). Its user stacks that no
 * other key of the map names are deleted as well: the stack map is shared
 * by every profile and would fill up for good under profiles that keep
 * following each other. (Kernel stacks are shared by every process that
 * sleeps the same way and cannot be told free: they stay.)
 * 0, or -ENOMEM (nothing taken: st is empty).
 */
int hk_profile_stacks__take(struct hk_profile_stacks *st, int counts_fd, int stack_fd,
			    int tops_fd, __u32 pid);

/* The frames of stack id (leaf first) and their number; NULL: none kept. */
const __u64 *hk_profile_stacks__trace(const struct hk_profile_stacks *st, __s32 id,
				      __u32 *n);

void hk_profile_stacks__free(struct hk_profile_stacks *st);

/*
 * Keys of counts_fd per TGID of tgids[0..n) into keys[] (0 for a TGID
 * with none): who fills the map the profiles share. 0 or -errno.
 */
int hk_profile_stacks__keys_per_tgid(int counts_fd, const __u32 *tgids, size_t n,
				     __u64 *keys);

#endif /* HK_USER_PROFILE_STACKS_H */
