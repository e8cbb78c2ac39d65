/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_write.h - a profile's counts out of the BPF maps, named, and
 * written as folded stacks and an SVG flame graph. What a profile's end
 * reports (struct hk_profile_result) is here, below the profiler that
 * hands it on (profiler.h).
 */
#ifndef HK_USER_PROFILE_WRITE_H
#define HK_USER_PROFILE_WRITE_H

#include <stddef.h>
#include <time.h>
#include <linux/types.h>
#include "profile_stacks.h"

#define HK_PROFILE_PATH_MAX 4096

/*
 * The profiles' files (hotspot-k.*.folded and .svg of ours) one directory
 * keeps: past it, after each profile, the oldest are removed. With each
 * file at most 64 MiB (flamegraph.h), that is 8 profiles at the caps,
 * thousands of usual ones (100 KiB to a few MiB).
 */
#define HK_PROFILE_DIR_MAX_BYTES (1ULL << 30)

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
	__u32 kind;			/* enum hk_prof_kind: ON_CPU (time) or MEMORY */
	__u64 on_cpu_samples;
	__u64 off_cpu_ns;
	__u64 grown_bytes;		/* memory: anonymous memory grown, all stacks */
	__u64 mem_events;		/* memory: its counter's changes seen */
	__u64 stacks;			/* distinct stacks in the files */
	__u64 lost;			/* samples or stacks the maps had no room for */
	char err[256];			/* not written: why */
	char cut[640];			/* caps that bit ("perf map cut at 64 MiB
					 * of 64 GiB"), "" none */
};

struct hk_pidref;

/* A process's names for its addresses, taken at the profile's start (a
 * process that exits takes its /proc/PID/maps with it). */
struct hk_profile_syms;

/*
 * Read pid's maps and name, each kept only if ref still held the PID
 * after; NULL with why in err.
 */
struct hk_profile_syms *hk_profile_syms__open(__u32 pid, const struct hk_pidref *ref,
					      char *err, size_t err_len);
void hk_profile_syms__close(struct hk_profile_syms *s);
/* Its name as of the start (/proc/PID/comm), the PID when unreadable. */
const char *hk_profile_syms__comm(const struct hk_profile_syms *s);

/*
 * The directory profiles are written into, path (the same the prefixes
 * start with): opened, checked and tried once (outdir.h), and kept open;
 * opening it again replaces it. 0, or -1 with one line in err (a
 * directory its group or others can write without the sticky bit, one
 * where no file can be created); warn[0] set when it is accepted with a
 * warning (another user owns it).
 */
int hk_profile__dir_open(const char *path, char *warn, size_t warn_len, char *err,
			 size_t err_len);

/* "DIR/hotspot-k.PID.LABEL.20261123T073400Z"; snprintf's return. */
int hk_profile__prefix(char *buf, size_t len, const char *dir, __u32 pid,
		       const char *label, time_t when);

/* r's samples, off-CPU time and stacks, from what was taken. */
void hk_profile__tally(const struct hk_profile_stacks *st, struct hk_profile_result *r);

/* What the child that wrote the files says back (at most PIPE_BUF). */
struct hk_profile_outcome {
	int written;		/* .folded and .svg exist */
	char err[256];		/* not written: why */
	char cut[512];		/* the caps on its input that bit, "" none */
};

/*
 * Name st's frames (the maps read again first, the kernel's names from
 * /proc/kallsyms) and write r->prefix + ".folded" and ".svg": in the
 * child. out is zeroed by the caller.
 */
void hk_profile__render(const struct hk_profile_stacks *st, struct hk_profile_syms *syms,
			const struct hk_profile_result *r, struct hk_profile_outcome *out);

#endif /* HK_USER_PROFILE_WRITE_H */
