/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ratelimit.h - a condition said when it starts, again at most once a
 * period while it lasts, and when it ends: hk_procs full, a stdout nobody
 * reads. An admin hears of it while it happens, in a few lines however
 * long it lasts or however often it comes and goes.
 */
#ifndef HK_USER_RATELIMIT_H
#define HK_USER_RATELIMIT_H

#include <linux/types.h>

/* A minute between two lines about one condition. */
#define HK_RATELIMIT_PERIOD_NS (60ULL * 1000000000ULL)

struct hk_ratelimit {
	__u64 period_ns;	/* set by the caller; 0: HK_RATELIMIT_PERIOD_NS */
	__u64 next_ns;		/* no line before this (CLOCK_MONOTONIC) */
	__u64 count;		/* occurrences not yet told of */
	__u64 told;		/* the count the last line told of */
	int on;			/* the condition holds now */
	int announced;		/* ... and that was said: its end will be too */
};

enum hk_ratelimit_say {
	HK_RATELIMIT_QUIET,	/* nothing to say now */
	HK_RATELIMIT_START,	/* it began (told: occurrences, some maybe
				 * from quiet episodes before) */
	HK_RATELIMIT_STILL,	/* it goes on (told: since the last line) */
	HK_RATELIMIT_END,	/* it ended (told: since the last line) */
};

/*
 * One look at the condition at now_ns: on, with n new occurrences. What
 * to say, the count to say in r->told. A start within a period of the
 * last line is not said (its count goes into the next line), and then
 * neither is its end: coming and going every second costs two lines a
 * period at most.
 */
enum hk_ratelimit_say hk_ratelimit__step(struct hk_ratelimit *r, int on, __u64 n,
					 __u64 now_ns);

#endif /* HK_USER_RATELIMIT_H */
