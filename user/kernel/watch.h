/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * watch.h - what the event loop looks at when it wakes up anyway (a walk,
 * the watchdog), at most once a window, so that a blind spot is said
 * while it lasts rather than counted for the summary:
 *  - the --cgroup filter holds the id of the cgroup at its path, and
 *    `systemctl restart` makes that cgroup anew with another id: a filter
 *    that kept the old one would match nothing, silently. The path is
 *    looked up again, the new id followed, and its going and coming said;
 *  - hk_procs full: processes that start are not tracked, so not
 *    diagnosed, until the walk gives up quiet entries (a user can fill
 *    it with sleepers: bpf/procs_room.bpf.h). Said when it starts, once
 *    a minute while it lasts, with the uid that holds most entries, and
 *    when it ends.
 * Both decide only; the loop writes hk_config and the lines.
 */
#ifndef HK_USER_WATCH_H
#define HK_USER_WATCH_H

#include <stddef.h>
#include "config/config.h"
#include "lib/ratelimit.h"

struct hk_cgroup_watch {
	__u64 next_ns;		/* no look before (CLOCK_MONOTONIC) */
	int gone;		/* said: the path names no cgroup now */
};

/*
 * Look up the running filter's path again (at most once per interval):
 * 1 when *next (running, with the id found) must be written into
 * hk_config; 0 when not. A line to say goes into line (line[0]: "" when
 * none), at the log priority in *prio.
 */
int hk_watch__cgroup(struct hk_cgroup_watch *w, const struct hk_config *running,
		     __u64 now_ns, struct hk_config *next, char *line, size_t len, int *prio);

struct hk_procs_watch {
	__u64 windows;		/* hk_stats.windows at the last look */
	__u64 untracked;	/* hk_stats.procs_untracked then */
	struct hk_ratelimit said;
	int procs_fd;		/* hk_procs, for the uid holding most; <= 0: none */
	const char *proc_root;	/* NULL: /proc (tests: a directory of PIDs) */
};

/*
 * hk_stats now: the line to say, if any, into line (its priority
 * returned; 0 with line "" when there is nothing to say). max_procs:
 * hk_procs's capacity, for the line.
 */
int hk_watch__procs(struct hk_procs_watch *w, const struct hk_stats *st, __u32 max_procs,
		    __u64 now_ns, char *line, size_t len);

/* The uid holding most of hk_procs's entries. */
struct hk_uid_top {
	__u32 uid;
	__u32 entries;		/* ... of that uid */
	__u32 known;		/* entries whose process's owner was read */
};

/*
 * Of the processes pids[0..n) (hk_procs's keys), the uid that owns most
 * (proc_root/PID's owner; the first 256 uids met are told apart): 0, or
 * -1 when no owner could be read.
 */
int hk_watch__uid_top(const __u32 *pids, __u32 n, const char *proc_root,
		      struct hk_uid_top *out);

#endif /* HK_USER_WATCH_H */
