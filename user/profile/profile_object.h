/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_object.h - the profiler's BPF object (bpf/profile.bpf.c through
 * profile.skel.h): loaded and attached while a profile samples, and the
 * few things the profiler asks of it.
 */
#ifndef HK_USER_PROFILE_OBJECT_H
#define HK_USER_PROFILE_OBJECT_H

#include <stddef.h>
#include <linux/types.h>

struct profile_bpf;
struct bpf_link;

struct hk_profile_object {
	struct profile_bpf *skel;	/* NULL: not loaded */
	struct bpf_link **links;	/* one per CPU's clock, then the switch */
	int *perf_fds;
	int nr_cpus;
	struct bpf_link *rss_link;	/* the memory program, while a memory
					 * profile samples */
	int rss_args;			/* rss_stat's arguments: 2, 3, 0 none */
};

/* Load, and attach a CPU clock on every CPU and sched_switch; 0, or -1
 * with one line in err (nothing stays loaded). */
int hk_profile_object__up(struct hk_profile_object *o, char *err, size_t err_len);

/* Detach and unload: nothing of the profiler runs any more. Idempotent. */
void hk_profile_object__down(struct hk_profile_object *o);

/* Sample tgid in slot (0: the slot samples nothing) for kind
 * (HK_PROF_ON_CPU: on- and off-CPU time; HK_PROF_MEMORY: growth). */
void hk_profile_object__target(struct hk_profile_object *o, int slot, __u32 tgid, __u32 kind);

/* Attach (on) or detach the memory program; 0, or -1 with one line in err. */
int hk_profile_object__memory(struct hk_profile_object *o, int on, char *err, size_t err_len);

/* rss_stat events of memory-profiled processes and the bytes they grew,
 * since the load; 0 when down. */
void hk_profile_object__mem_stats(const struct hk_profile_object *o, __u64 *events,
				  __u64 *grown_bytes);

/* Stacks and counts the maps had no room for, since the load; 0 when down. */
__u64 hk_profile_object__losses(const struct hk_profile_object *o);

int hk_profile_object__counts_fd(const struct hk_profile_object *o);
int hk_profile_object__stacks_fd(const struct hk_profile_object *o);
int hk_profile_object__tops_fd(const struct hk_profile_object *o);

#endif /* HK_USER_PROFILE_OBJECT_H */
