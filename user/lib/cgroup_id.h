/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cgroup_id.h - a cgroup the kernel names by id (a kernfs node id: the
 * inode number of the cgroup's directory) as a path, found among the
 * ancestors of a process's own cgroup: the one whose CPU quota or
 * memory.high binds it (hk_evidence's quota_cgroup_id, mem_high_cgroup_id).
 */
#ifndef HK_USER_CGROUP_ID_H
#define HK_USER_CGROUP_ID_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Where the hierarchy with controller is mounted ("cpu"; "" for the
 * unified one), from mountinfo's text: a v1 hierarchy that has it, else
 * the cgroup2 one. 0 with the mount point in out, -1 when none is.
 */
int hk_cgid__mount(const char *mountinfo, const char *controller, char *out, size_t len);

/*
 * The ancestor of path (a cgroup path, "/a/b"; itself included) whose
 * directory under mount has inode id: that ancestor's path (malloc'd,
 * "/" for the root), or NULL (id 0, not among them, or no memory).
 */
char *hk_cgid__ancestor(const char *mount, const char *path, __u64 id);

/*
 * The path of cgroup id for a process, from the text of its
 * /proc/PID/cgroup (controller "cpu" for a quota, "memory" for
 * memory.high) and of /proc/self/mountinfo: malloc'd, or NULL when id is
 * 0 or not found.
 */
char *hk_cgid__path(const char *proc_cgroup, const char *mountinfo, const char *controller,
		    __u64 id);

#endif /* HK_USER_CGROUP_ID_H */
