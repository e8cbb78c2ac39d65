/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * workload.h - who a process is, read from its cgroup path alone (no
 * container runtime or Kubernetes API to ask): its systemd unit, its
 * container's id and its pod's UID, as containerd, CRI-O, docker and
 * podman name their cgroups under the systemd and the cgroupfs drivers.
 * A shape it does not know gives "" (it never guesses).
 */
#ifndef HK_USER_WORKLOAD_H
#define HK_USER_WORKLOAD_H

#include <stddef.h>
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
	/* the innermost *.service or *.scope component ("nginx.service"; a
	 * container's scope, "cri-containerd-<id>.scope", for a container) */
	char unit[HK_WORKLOAD_UNIT_LEN];
	char container_id[HK_WORKLOAD_CONTAINER_ID_LEN];
	char pod_uid[HK_WORKLOAD_POD_UID_LEN];	/* with '-', as kubectl shows it */
};

/* Fill w from a cgroup path ("/system.slice/nginx.service"); every field
 * "" that the path does not name. path NULL: all "". */
void hk_workload__parse(struct hk_workload *w, const char *path);

/*
 * Fill w from the text of a /proc/PID/cgroup file: from the unified (v2)
 * path, or, when that names nothing (a hybrid host's unified hierarchy
 * may hold every process at its root), the v1 "name=systemd" path. All ""
 * when neither names anything or text is NULL.
 */
void hk_workload__from_proc(struct hk_workload *w, const char *text);

/* Fill w for the process pid that started at start_boottime_ns (CLOCK_BOOTTIME,
 * as hk_proc has it); all "" when that process is gone. */
void hk_workload__of_pid(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns);

#endif /* HK_USER_WORKLOAD_H */
