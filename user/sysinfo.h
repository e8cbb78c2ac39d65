/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sysinfo.h - what userspace knows and the kernel cannot: total RAM, CPUs,
 * our PID namespace, a process's cgroup path; and the preflight checks that
 * turn libbpf's vague failures into one clear line.
 */
#ifndef HK_USER_SYSINFO_H
#define HK_USER_SYSINFO_H

#include <stddef.h>
#include "shared/hotspot.h"

/* Fill the environment fields of c (RAM, CPUs, page size, PID ns). */
int hk_sys__fill_env(struct hk_config *c);

/* 0 when we may load BPF programs; else -1 with a reason in err. */
int hk_sys__check_privileges(char *err, size_t err_len);

/* The oldest kernel hotspot-k loads on (the iter/task driver's). */
#define HK_MIN_KERNEL_MAJOR 5
#define HK_MIN_KERNEL_MINOR 15

/* 0 when the running kernel is new enough (or unknown); else -1. */
int hk_sys__check_kernel(char *err, size_t err_len);

/* Tasks (threads, kernel threads included) on the machine now; 0: unknown. */
__u32 hk_sys__nr_threads(void);

/* 0 when the kernel has BTF; else -1 with a reason in err. */
int hk_sys__check_btf(char *err, size_t err_len);

/*
 * The cgroup path of pid for a controller ("memory", "cpu"): the v1
 * hierarchy's that has it on a hybrid v1/v2 host, else the unified one,
 * whole (malloc'd: free it). NULL when the process is gone.
 */
char *hk_sys__cgroup_path(__u32 pid, const char *controller);

/* Capacity of hk_procs: 4 x the processes running now, 4096..65536. */
__u32 hk_sys__default_max_procs(void);

/* CLOCK_REALTIME - CLOCK_MONOTONIC, to turn event times into wall time. */
__s64 hk_sys__wall_offset_ns(void);

/*
 * The cgroup filter (c->filter_cgroup, a path in the memory controller's
 * hierarchy on a hybrid v1/v2 host, else in the unified one; or a whole
 * path under /sys/fs/cgroup) to the id and hierarchy the walk compares.
 * 0 (also with no filter), or -1 with why in err.
 */
int hk_sys__resolve_cgroup(struct hk_config *c, char *err, size_t err_len);

#endif /* HK_USER_SYSINFO_H */
