/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * clock.h - now on CLOCK_MONOTONIC, in ns: the clock bpf_ktime_get_ns()
 * reads, so that userspace deadlines and the kernel's timestamps compare;
 * and in ms, for the waits counted in ms (poll(2) timeouts, settle times).
 * The one place userspace reads it.
 */
#ifndef HK_USER_CLOCK_H
#define HK_USER_CLOCK_H

#include <time.h>
#include <linux/types.h>
#include "shared/units.h"

static inline __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

/* signed: deadline - mono_ms() is what is left, below 0 once passed */
static inline long long mono_ms(void)
{
	return (long long)(mono_ns() / (HK_NSEC_PER_SEC / 1000));
}

#endif /* HK_USER_CLOCK_H */
