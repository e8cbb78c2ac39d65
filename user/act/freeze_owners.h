/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_owners.h - decide, the uid rule: whose processes a cgroup and
 * every cgroup below it hold, read from /proc and the cgroup's files
 * (freeze_owners.c). A cgroup is frozen only when all are the leak's uid.
 */
#ifndef HK_USER_FREEZE_OWNERS_H
#define HK_USER_FREEZE_OWNERS_H

#include <stddef.h>
#include <linux/types.h>

/* Processes, cgroups and levels the uid rule reads in one cgroup's subtree. */
#define HK_FREEZE_MEMBERS_MAX	4096
#define HK_FREEZE_CGROUPS_MAX	1024
#define HK_FREEZE_DEPTH_MAX	64



/*
 * pid's real, effective, saved and filesystem uids from proc ("/proc")
 * PID/status: 0; -ESRCH it is gone; another -errno.
 */
int hk_freeze_owners__uids(const char *proc, __u32 pid, __u32 uids[4]);

/*
 * Whether every process in the cgroup open at fd, and in every cgroup
 * below it, runs as uid (all four uids): 0 yes; -1 no, or it cannot be
 * told (a file unreadable, a process outside our PID namespace, more
 * than HK_FREEZE_MEMBERS_MAX processes or HK_FREEZE_CGROUPS_MAX
 * cgroups), why naming the rule and one
 * process (rel is the cgroup's path, for it). fd is left open.
 */
int hk_freeze_owners__check(int fd, const char *rel, const char *proc, __u32 uid, char *why,
			    size_t why_len);

#endif /* HK_USER_FREEZE_OWNERS_H */
