/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sysinfo.h - what userspace knows and the kernel cannot: total RAM, CPUs,
 * our PID namespace, a process's cgroup path. (The checks before a load
 * are kernel/preflight.h.)
 */
#ifndef HK_USER_SYSINFO_H
#define HK_USER_SYSINFO_H

#include <stddef.h>
#include "shared/hotspot.h"

/* Fill the environment fields of c (RAM, CPUs, page size, PID ns). */
int hk_sysinfo__fill_env(struct hk_config *c);
/*
 * NUMA nodes the kernel may have (nr_node_ids: the highest possible node,
 * plus one), which the host headroom reads: from possible
 * (/sys/devices/system/node/possible: "0", "0-3", "0,2-3"); without it
 * (no sysfs in some containers), zoneinfo's (/proc/zoneinfo) highest node
 * plus one; without either, HK_HOST_NODES_BOUNDED.
 */
__u32 hk_sysinfo__nr_nodes(void);
__u32 hk_sysinfo__nodes_at(const char *possible, const char *zoneinfo);
/*
 * 1 when PSI is on (/proc/pressure/memory exists). Off (CONFIG_PSI=n, or
 * CONFIG_PSI_DEFAULT_DISABLED as on RHEL without psi=1), the kernel never
 * marks a task in a memory stall (in_memstall): Mem-throttled then cannot
 * see a process asleep in memory.high's penalty sleep.
 */
int hk_sysinfo__psi_memory(void);

/* Tasks (threads, kernel threads included) on the machine now; 0: unknown. */
__u32 hk_sysinfo__nr_threads(void);
/* Processes (kernel threads included) in this PID namespace's /proc. */
__u32 hk_sysinfo__nr_procs(void);

/*
 * The cgroup path of pid for a controller ("memory", "cpu"; "" for the
 * unified hierarchy's): the v1 hierarchy's that has it on a hybrid v1/v2
 * host, else the unified one, whole (malloc'd: free it); "" when
 * /proc/PID/cgroup has neither. NULL with errno otherwise:
 *   ENOENT or ESRCH  the process is gone;
 *   ENAMETOOLONG     its path is 4095 bytes or more: the kernel formats
 *                    /proc/PID/cgroup into PATH_MAX, and either fails the
 *                    read or (6.18, v1 and v2 alike) cuts the path at 4095
 *                    bytes, which then names another cgroup. A user can
 *                    nest that deep in a delegated subtree: say
 *                    HK_SYS_CGROUP_TOO_LONG, never take it for "", "/" or
 *                    the cut path;
 *   ENOMEM, EIO...   it could not be read.
 * Never "" for a path that could not be read.
 */
char *hk_sysinfo__cgroup_path(__u32 pid, const char *controller);

/* Does a comma-separated list ("cpu,cpuacct" in /proc/PID/cgroup,
 * "rw,cpu,cpuacct" in mountinfo) name ctrl? 1 or 0. */
int hk_sysinfo__lists_controller(const char *list, const char *ctrl);

/* A file's text, whole (malloc'd, NUL-terminated), or NULL with errno. */
char *hk_sysinfo__read_text(const char *path);

/*
 * A counter of /proc/stat: "ctxt" (context switches since boot),
 * "processes" (forks, threads included). 0 when unreadable. The value of
 * key in that file's text: hk_sysinfo__stat_value (0 when absent).
 */
__u64 hk_sysinfo__proc_stat(const char *key);
__u64 hk_sysinfo__stat_value(const char *text, const char *key);

/* The text of /proc/PID/cgroup, whole (malloc'd, NUL-terminated), or NULL
 * with errno as hk_sysinfo__cgroup_path() says. */
char *hk_sysinfo__cgroup_file(__u32 pid);

/*
 * hk_sysinfo__cgroup_path()'s choice made in text, a /proc/PID/cgroup file's
 * lines ("ID:controllers:path"): the path (malloc'd), "" when text has no
 * line for controller; NULL with errno ENAMETOOLONG or ENOMEM.
 */
char *hk_sysinfo__cgroup_parse(const char *text, const char *controller);

/* What the outputs show for a cgroup path the kernel cannot give (no
 * leading '/': no path reads like it). */
#define HK_SYS_CGROUP_TOO_LONG "cgroup path too long"

/*
 * Whether dir is in a /tmp or /var/tmp private to a systemd service
 * (PrivateTmp=yes: nobody else sees it, and it is removed when the
 * service stops), from mountinfo (NULL: /proc/self/mountinfo). 1 with the
 * mount point in why, 0 when not (or it cannot be told).
 */
int hk_sysinfo__private_tmp(const char *dir, const char *mountinfo, char *why, size_t why_len);

/* A mountinfo path field: "\040" and the like back to bytes, in place. */
void hk_sysinfo__mountinfo_unescape(char *s);

/*
 * Whether the PID namespace whose inode is pidns_ino (/proc/self/ns/pid)
 * is the host's (the initial one): 1, 0, or -1 when unknown (0). In
 * another, the iter/task walk sees that namespace's tasks only.
 */
int hk_sysinfo__pidns_is_init(__u64 pidns_ino);

/* Capacity of hk_procs for procs processes: 4 x, a power of two,
 * 4096..65536. */
__u32 hk_sysinfo__max_procs_for(__u32 procs);

/* ... for the processes running now: /proc counted in the host's PID
 * namespace, /proc/loadavg's task count (global) in another. */
__u32 hk_sysinfo__default_max_procs(__u64 pidns_ino);

/* CLOCK_REALTIME - CLOCK_MONOTONIC, to turn event times into wall time. */
__s64 hk_sysinfo__wall_offset_ns(void);

/*
 * The cgroup filter (c->filter_cgroup, a path in the memory controller's
 * hierarchy on a hybrid v1/v2 host, else in the unified one; or a whole
 * path under /sys/fs/cgroup) to the id and hierarchy the walk compares.
 * 0 (also with no filter), or -1 with why in err.
 */
int hk_sysinfo__resolve_cgroup(struct hk_config *c, char *err, size_t err_len);

#endif /* HK_USER_SYSINFO_H */
