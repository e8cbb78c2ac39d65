/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * humanize.h - numbers and times as people read them.
 */
#ifndef HK_USER_HUMANIZE_H
#define HK_USER_HUMANIZE_H

#include <time.h>
#include "format.h"
#include "lib/outbuf.h"

void hk_out__bytes(struct hk_out *o, __u64 bytes);	/* "1.21 GiB" */
void hk_out__bytes_rate(struct hk_out *o, __s64 rate);	/* "+41.0 MiB/s" */
void hk_out__count(struct hk_out *o, __u64 v);		/* "950", "12.3k" */
void hk_out__pct(struct hk_out *o, __u32 pct_x100);	/* "97 %", "4.5 %" */

/*
 * Wall-clock time of the event, broken down (UTC or local), with its
 * milliseconds and the local offset from UTC in seconds.
 */
void hk_event__wall_time(const struct hk_event *e, const struct hk_format_ctx *ctx,
		   struct tm *tm, unsigned int *ms, long *gmtoff);
/* "2026-11-23T04:47:35.123+01:00", or with "Z" in UTC. */
void hk_out__rfc3339(struct hk_out *o, const struct hk_event *e,
		     const struct hk_format_ctx *ctx);

#endif /* HK_USER_HUMANIZE_H */
