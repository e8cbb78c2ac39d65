// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ratelimit.c - a condition said when it starts, while it lasts and when
 * it ends, a few lines at most (ratelimit.h).
 */
#include "ratelimit.h"

static __u64 period(const struct hk_ratelimit *r)
{
	return r->period_ns ? r->period_ns : HK_RATELIMIT_PERIOD_NS;
}

static enum hk_ratelimit_say tell(struct hk_ratelimit *r, enum hk_ratelimit_say say,
				  __u64 now_ns)
{
	r->told = r->count;
	r->count = 0;
	r->next_ns = now_ns + period(r);
	return say;
}

enum hk_ratelimit_say hk_ratelimit__step(struct hk_ratelimit *r, int on, __u64 n,
					 __u64 now_ns)
{
	if (!on) {
		if (!r->on)
			return HK_RATELIMIT_QUIET;
		r->on = 0;
		if (!r->announced)
			return HK_RATELIMIT_QUIET;
		r->announced = 0;
		/* an end is said at once, whatever the period */
		r->told = r->count;
		r->count = 0;
		return HK_RATELIMIT_END;
	}
	r->count += n;
	if (!r->on) {
		r->on = 1;
		r->announced = 0;
	}
	if (now_ns < r->next_ns)
		return HK_RATELIMIT_QUIET;
	if (!r->announced) {
		r->announced = 1;
		return tell(r, HK_RATELIMIT_START, now_ns);
	}
	return tell(r, HK_RATELIMIT_STILL, now_ns);
}
