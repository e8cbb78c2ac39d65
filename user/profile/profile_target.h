/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_target.h - what the profiler asks of the process it profiles,
 * each answer read from /proc/PID and kept only if the pidfd still held
 * the PID after the read (pidref.h): never another process's.
 */
#ifndef HK_USER_PROFILE_TARGET_H
#define HK_USER_PROFILE_TARGET_H

#include <linux/types.h>

struct hk_pidref;

/* Has it ended? A zombie has: its threads are gone, nothing more comes. */
int hk_profile_target__gone(const struct hk_pidref *ref);

#endif /* HK_USER_PROFILE_TARGET_H */
