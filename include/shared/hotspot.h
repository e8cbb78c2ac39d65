/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hotspot.h - every type that crosses the kernel/user boundary.
 *
 * Included by bpf/hotspot.bpf.c (after vmlinux.h), by the userspace tool and
 * by the tests. Constants are enums so that they reach BTF and bpftool shows
 * them by name; the capacities that size the arrays are capacities.h's.
 * Every field carries its unit in its name.
 *
 * The types live in one header a job, below, so that each reads on its own;
 * this one is the face: include it, not them.
 */
#ifndef HK_SHARED_HOTSPOT_H
#define HK_SHARED_HOTSPOT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "units.h"
#include "capacities.h"
#include "config.h"	/* hk_config: what userspace tells the walk */
#include "evidence.h"	/* the labels; what a window says of a process */
#include "proc.h"	/* hk_proc: the walk's memory of a process */
#include "sample.h"	/* hk_sample: the window step's input */
#include "events.h"	/* hk_event: the ring buffer's records */
#include "stats.h"	/* hk_stats, hk_cost: the tool's own cost */

#endif /* HK_SHARED_HOTSPOT_H */
