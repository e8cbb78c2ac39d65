/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * workload.h - who a process is, read from its cgroup path alone (no
 * container runtime or Kubernetes API to ask): its systemd unit, its
 * container's id and its pod's UID, as containerd, CRI-O, docker and
 * podman name their cgroups under the systemd and the cgroupfs drivers.
 * A shape it does not know gives "" (it never guesses), and so does a
 * name a user chose in a cgroup delegated to them (they could name it
 * after anyone's unit, container or pod).
 */
#ifndef HK_USER_WORKLOAD_H
#define HK_USER_WORKLOAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

/* systemd's UNIT_NAME_MAX (255 bytes) and its NUL */
#define HK_WORKLOAD_UNIT_LEN		256
/* a container id: 64 lowercase hex digits (docker, containerd, CRI-O) */
#define HK_WORKLOAD_CONTAINER_ID_LEN	65
/* a pod UID: 8-4-4-4-12 lowercase hex digits */
#define HK_WORKLOAD_POD_UID_LEN		37
/* the container id as `docker ps` and the status table show it */
#define HK_WORKLOAD_CONTAINER_ID_SHORT	12

struct hk_workload {
	/* the *.service or *.scope below the root's slices, as systemd
	 * places units ("nginx.service"; a container's scope,
	 * "cri-containerd-<id>.scope"; "user@1000.service" for all of a user
	 * manager's units) */
	char unit[HK_WORKLOAD_UNIT_LEN];
	char container_id[HK_WORKLOAD_CONTAINER_ID_LEN];
	char pod_uid[HK_WORKLOAD_POD_UID_LEN];	/* with '-', as kubectl shows it */
	/* the unit is a system service's: in system.slice or at the root
	 * (init.scope), as root named it */
	bool system;
	/* whose it is, for fair shares (owner.h): its caller fills it */
	bool owner_known;
	__u32 owner_uid;
};

/* hk_workload__parse's named for a path whose every name is root's */
#define HK_WORKLOAD_ALL_NAMED	UINT_MAX

/*
 * Fill w from a cgroup path ("/system.slice/nginx.service"), reading only
 * its first named components (the names root chose: hk_workload__root_named);
 * every field "" that they do not name. path NULL: all "".
 */
void hk_workload__parse(struct hk_workload *w, const char *path, unsigned int named);

/*
 * How many of path's first components (under the hierarchy mounted at
 * mount) owner named: each whose parent directory is owner's and
 * writable by no group or other, from the root down to the first that is
 * not (a delegated cgroup: its name is owner's, what is below it is not)
 * or cannot be opened. 0 when mount itself is not owner's alone.
 */
unsigned int hk_workload__root_named(const char *mount, const char *path, uid_t owner);

/* where hk_workload__from_proc checks whose names a path has */
struct hk_workload_fs {
	const char *mountinfo;	/* the text of /proc/self/mountinfo */
	uid_t owner_uid;	/* whose names count: 0 */
};

/*
 * Fill w from the text of a /proc/PID/cgroup file: from the unified (v2)
 * path, or, when that names nothing (a hybrid host's unified hierarchy
 * may hold every process at its root), the v1 "name=systemd" path; each
 * path's names only as far as root chose them (hk_workload__root_named,
 * under the hierarchy's mount point in fs->mountinfo). fs NULL: this
 * process's mountinfo and uid 0. All "" when neither names anything, text
 * is NULL or the mount points are not known.
 */
void hk_workload__from_proc(struct hk_workload *w, const char *text,
			    const struct hk_workload_fs *fs);

/* Fill w for the process pid that started at start_boottime_ns (CLOCK_BOOTTIME,
 * as hk_proc has it), its owner too; all "" when that process is gone. */
void hk_workload__of_pid(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns);

#endif /* HK_USER_WORKLOAD_H */
