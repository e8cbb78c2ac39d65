/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile.h - what crosses the kernel/user boundary while a process is
 * profiled (bpf/profile.bpf.c, user/profile/profiler.c). A separate BPF object
 * from the diagnosis: it is loaded and attached only while a profile runs,
 * so that with nothing profiled no program of it runs at all.
 */
#ifndef HK_SHARED_PROFILE_H
#define HK_SHARED_PROFILE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum hk_prof_limits {
	/* processes profiled at once: each sample and switch compares its
	 * TGID with this many */
	HK_PROF_TARGETS = 4,
	/* frames kept of a stack (the kernel's own limit is 127) */
	HK_PROF_DEPTH = 127,
	/* distinct stacks the stack map keeps, all profiles together */
	HK_PROF_STACKS = 16384,
	/* distinct (process, user stack, kernel stack, on/off) counted */
	HK_PROF_KEYS = 16384,
	/* samples a second on each CPU: off 100 Hz timer ticks, so that
	 * samples do not beat against periodic work */
	HK_PROF_FREQ_HZ = 99,
	/* words copied from the user stack pointer up with each new stack:
	 * a leaf without a frame pointer (libc's memset, clock_nanosleep)
	 * still has its caller's return address there (user/profile/leaf.h) */
	HK_PROF_TOP_WORDS = 16,
	/* processes whose anonymous memory size is remembered (memory
	 * profiles): one per target, with room for a PID reused meanwhile */
	HK_PROF_SIZES = 4 * HK_PROF_TARGETS,
};

/* What a key counts, and what a profile slot samples (hk_prof_kind). */
enum hk_prof_kind {
	HK_PROF_ON_CPU = 0,	/* samples on a CPU */
	HK_PROF_OFF_CPU = 1,	/* ns asleep */
	HK_PROF_MEMORY = 2,	/* bytes of anonymous memory grown */
};

/* A key of hk_prof_counts: one stack of one process, and what it counts. */
struct hk_prof_key {
	__u32 tgid;
	__s32 user_stack;	/* id in hk_prof_stacks; < 0: none */
	__s32 kern_stack;	/* id in hk_prof_stacks; < 0: none */
	__u32 kind;		/* enum hk_prof_kind */
};

/* hk_prof_tops' value: the words at the user stack pointer when the
 * key's first event happened, [0] the lowest address (0: unread); on arm64
 * [0] is the link register (x30) and the stack starts at [1]
 * (profile.bpf.c, hk_prof_top_read). */
struct hk_prof_top {
	__u64 words[HK_PROF_TOP_WORDS];
};

/* What the programs could not keep, per run of the object. */
struct hk_prof_stats {
	__u64 samples;		/* on-CPU samples of a profiled process */
	__u64 switches_out;	/* its threads going to sleep */
	__u64 stack_errors;	/* bpf_get_stackid failed (map full, ...) */
	__u64 keys_lost;	/* hk_prof_counts full */
	__u64 mem_events;	/* anonymous memory counter changes of a
				 * memory-profiled process */
	__u64 mem_grown_bytes;	/* the increases among them */
	__u64 tops_lost;	/* no stack top kept for a new key */
	__u64 mem_reads;	/* rss counters read from an mm (6.2 on: the
				 * event has no count), for a target's own
				 * changes only: as many as mem_events */
};

#endif /* HK_SHARED_PROFILE_H */
