/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loop.bpf.h - bpf_loop() where the kernel has it (5.17), a bounded loop
 * over the same callback on 5.15 and 5.16.
 *
 * bpf_loop's callback is verified once, whatever the count. A bounded
 * loop is verified turn by turn, so each call site gives the most turns
 * its work can need there (HK_LOOP_TURNS_* below); what a capped loop
 * leaves is done at the next window (exits stay queued) or counted
 * (victims: defer_overflows); busy processes are deferred no further
 * than the loop reaches (hk_proc_window). The choice is a
 * load-time constant: the verifier drops the branch not taken, and with
 * it the call to a helper an old kernel does not know.
 */
#ifndef HK_BPF_LOOP_H
#define HK_BPF_LOOP_H

#include <bpf/bpf_core_read.h>

/* Set by the loader before load: bounded loops even where bpf_loop()
 * exists, to test the 5.15/5.16 path on newer kernels (prog-test -b,
 * HOTSPOT_K_AS_5_15=1). */
const volatile __u32 hk_bounded_loops;

/* Turns of a bounded loop where bpf_loop would run more. */
#define HK_LOOP_TURNS_EXITS	1024	/* exits drained per window: 200/s
					 * at 5 s windows (a turn is a call
					 * of a global function, cheap to
					 * verify) */
#define HK_LOOP_TURNS_PAIRS	32	/* victims, deferred processes */

static __always_inline int hk_has_bpf_loop(void)
{
	return !hk_bounded_loops &&
	       bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop);
}

/*
 * cb(i, ctx) for i in [0, nr), stopping when it returns non-zero, as
 * bpf_loop() does; at most max_turns turns without bpf_loop(). Evaluates
 * to the turns not run because of that cap.
 */
#define hk_loop(nr, max_turns, cb, ctx)					\
	({								\
		__u32 __nr = (nr), __left = 0, __i;			\
									\
		if (hk_has_bpf_loop()) {				\
			bpf_loop(__nr, cb, ctx, 0);			\
		} else {						\
			for (__i = 0; __i < (max_turns); __i++) {	\
				/* opaque: no memset idiom of it */	\
				asm volatile("" : "+r"(__i));		\
				if (__i >= __nr || cb(__i, ctx))	\
					break;				\
			}						\
			if (__nr > (max_turns))				\
				__left = __nr - (max_turns);		\
		}							\
		__left;							\
	})

#endif /* HK_BPF_LOOP_H */
