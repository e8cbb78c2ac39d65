/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * driver.h - the kernel's features, probed in its BTF (what it has,
 * backports included, rather than what its version suggests), and which
 * driver walks the tasks (driver.c).
 */
#ifndef HK_USER_DRIVER_H
#define HK_USER_DRIVER_H

#include <stddef.h>
#include <bpf/btf.h>
#include "shared/hotspot.h"

/*
 * Above this many threads at start a walk in one stretch on a CPU (wq,
 * timer: ~0.3 us per thread) holds it too long: the table driver walks
 * there (>= 6.10), cut in 1 ms chunks, else the iter driver. Below, wq:
 * its walk is short there and costs less a process than the table's.
 */
#define HK_ITER_ABOVE_THREADS 2000

/*
 * The driver for this kernel and this machine into *driver, why into
 * *why, or the one asked for if the kernel has what it needs (-1 with err
 * when not). as_old: as 5.15 (no open-coded iterator). pin: a timer
 * driver whatever the threads.
 */
int hk_driver__choose(const struct btf *vmlinux, enum hk_driver asked, int pin, int as_old,
		      enum hk_driver *driver, const char **why, char *err, size_t err_len);
/* Arguments of the sched_switch tracepoint, the context included: 5 since
 * 5.18, 4 before; -1 unknown. */
int hk_driver__sched_switch_args(const struct btf *vmlinux);
/* Arguments of the oom:mark_victim tracepoint, the context included: 3
 * since 6.8 (task, uid), 2 before (pid); -1 absent. */
int hk_driver__mark_victim_args(const struct btf *vmlinux);
/* 0 when the kernel has what every driver needs (probed in its BTF, not
 * judged by its version); else -1 with one line naming the first missing
 * and the kernel's release in err. */
int hk_driver__check_features(const struct btf *vmlinux, const char *release, char *err,
			      size_t err_len);
/* Whether the kernel has bpf_loop() (5.17). */
int hk_driver__has_loop(const struct btf *vmlinux);

#endif /* HK_USER_DRIVER_H */
