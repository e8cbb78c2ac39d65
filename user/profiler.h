/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profiler.h - profile a process for a while: on-CPU samples and off-CPU
 * time with stacks (bpf/profile.bpf.c), then a folded file and an SVG
 * flame graph. Several at once, up to HK_PROF_TARGETS; the BPF object is
 * loaded with the first and unloaded with the last.
 */
#ifndef HK_USER_PROFILER_H
#define HK_USER_PROFILER_H

#include <stddef.h>
#include <linux/types.h>
#include "shared/profile.h"

#define HK_PROFILE_PATH_MAX 4096

/* A profile that ended (its time was up, its process exited, or the tool
 * stops): what was written where, or why nothing was. */
struct hk_profile_result {
	__u32 pid;
	char comm[16];
	const char *label;		/* why it was profiled ("cpu_bound", "manual") */
	char prefix[HK_PROFILE_PATH_MAX];	/* DIR/hotspot-k.PID.LABEL.TIME */
	int written;			/* .folded and .svg exist */
	int exited;			/* the process ended before its time */
	__u64 duration_ns;		/* how long it ran */
	__u64 on_cpu_samples;
	__u64 off_cpu_ns;
	__u64 stacks;			/* distinct stacks in the files */
	__u64 lost;			/* samples or stacks the maps had no room for */
	char err[256];			/* not written: why */
};

typedef void (*hk_profile_done_fn)(void *ctx, const struct hk_profile_result *r);

struct hk_profiler;

struct hk_profiler *hk_profiler__new(hk_profile_done_fn done, void *ctx);
void hk_profiler__free(struct hk_profiler *p);

/*
 * Profile pid for duration_ns, into dir. 0 and the files' prefix (without
 * .folded/.svg) in prefix; -1 with why in err: the cap is reached, it is
 * profiled already, the BPF object cannot load or attach.
 */
int hk_profiler__start(struct hk_profiler *p, __u32 pid, const char *label,
		       __u64 duration_ns, const char *dir, char *prefix, size_t prefix_len,
		       char *err, size_t err_len);

/* The name of a process being profiled, as of its start; NULL: it is not. */
const char *hk_profiler__comm(const struct hk_profiler *p, __u32 pid);

/* Is pid being profiled? */
int hk_profiler__active(const struct hk_profiler *p, __u32 pid);
/* Profiles running. */
int hk_profiler__count(const struct hk_profiler *p);

/* ms until the next profile is due; -1: none runs. */
int hk_profiler__timeout_ms(const struct hk_profiler *p);

/* End the profiles whose time is up or whose process is gone, each
 * reported to done(). */
void hk_profiler__poll(struct hk_profiler *p);

/* End pid's profile now (its process exited): written with what there is. */
void hk_profiler__stop(struct hk_profiler *p, __u32 pid);

/* End every profile now (the tool stops). */
void hk_profiler__stop_all(struct hk_profiler *p);

#endif /* HK_USER_PROFILER_H */
