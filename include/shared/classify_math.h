/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_math.h - the integer arithmetic of the window step: rates per
 * second, shares of a window, clamped differences. Apart from the rules so
 * that each rule reads as its condition. Integers only: signed 64-bit
 * division crashes clang 14's BPF backend, so hk_sdiv divides unsigned
 * magnitudes and applies the sign afterwards.
 */
#ifndef HK_SHARED_CLASSIFY_MATH_H
#define HK_SHARED_CLASSIFY_MATH_H

#include "hotspot.h"

/*
 * A rule that more than one rule calls, inlined into each caller in the
 * BPF object. Clang outlines a static function it sees called twice, and
 * the verifier then rounds its frame up to 32 bytes (6.8 and older, and
 * any kernel without the JIT) though it has no stack at all: hk_starved
 * and hk_io_blocked, each a frame of 32 bytes at the bottom of the walk's
 * deepest call chain (tests/bpf-prog-test/stack_chain.py). Userspace (the
 * unit tests, the tool) keeps plain static inline.
 */
#ifdef __bpf__
#define HK_INLINE static inline __attribute__((always_inline))
#else
#define HK_INLINE static inline
#endif

/* a / b for a signed numerator, rounding towards zero; b > 0. */
static inline __s64 hk_sdiv(__s64 a, __u64 b)
{
	__u64 mag;

	if (!b)
		return 0;
	mag = a < 0 ? (__u64)(-a) : (__u64)a;
	mag /= b;
	return a < 0 ? -(__s64)mag : (__s64)mag;
}

/* Events per second from a count over a window; counts fit 2^44. */
static inline __u64 hk_per_s(__u64 count, __u64 window_ns)
{
	__u64 window_ms = window_ns / HK_NSEC_PER_MSEC;

	if (!window_ms)
		return 0;
	return count * 1000 / window_ms;
}

/* Share of a window, in hundredths of a percent. */
static inline __u32 hk_share_x100(__u64 part_ns, __u64 window_ns)
{
	__u64 window_us = window_ns / 1000;
	__u64 share;

	if (!window_us)
		return 0;
	share = part_ns / 1000 * 10000 / window_us;
	return share > 0xffffffffULL ? 0xffffffffU : (__u32)share;
}

static inline __u64 hk_sub_clamp(__u64 now, __u64 before)
{
	return now > before ? now - before : 0;
}

static inline __u64 hk_min_u64(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

/* One thread's share of a window: at most the whole window (a thread
 * cannot run, wait or block for longer than it lasted). */
static inline __u32 hk_thread_share_x100(__u64 part_ns, __u64 window_ns)
{
	return (__u32)hk_min_u64(hk_share_x100(part_ns, window_ns), 10000);
}

#endif /* HK_SHARED_CLASSIFY_MATH_H */
