// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * humanize.c - numbers and times as people read them: sizes in binary
 * units, rates, counts, shares, durations, RFC 3339 times.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "humanize.h"

/*
 * Unsigned a * m / d rounded to nearest, m <= 100, d a power of two up to
 * 2^60; the remainder is scaled down first where r * m could overflow.
 */
static __u64 scale_round(__u64 a, __u64 m, __u64 d)
{
	__u64 q = a / d, r = a % d;

	while (d > (1ULL << 56)) {
		r >>= 1;
		d >>= 1;
	}
	return q * m + (r * m + d / 2) / d;
}

int hk_format__bytes(char *buf, size_t len, __u64 bytes)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	unsigned int u = 0;
	struct hk_out o;
	__u64 d, v;

	hk_out__init(&o, buf, len);
	if (bytes < 1024) {
		hk_out__printf(&o, "%llu B", (unsigned long long)bytes);
		return hk_out__finish(&o);
	}
	/* the largest unit that leaves at least 1 */
	while (u < 6 && bytes >> (10 * (u + 1)))
		u++;
	d = 1ULL << (10 * u);
	/* three significant digits, rounding up into the next unit if need be */
	v = scale_round(bytes, 100, d);
	if (v < 1000) {
		hk_out__printf(&o, "%llu.%02llu %s", (unsigned long long)v / 100,
			   (unsigned long long)v % 100, units[u]);
		return hk_out__finish(&o);
	}
	v = scale_round(bytes, 10, d);
	if (v < 1000) {
		hk_out__printf(&o, "%llu.%llu %s", (unsigned long long)v / 10,
			   (unsigned long long)v % 10, units[u]);
		return hk_out__finish(&o);
	}
	v = scale_round(bytes, 1, d);
	if (v >= 1024 && u < 6)
		hk_out__printf(&o, "1.00 %s", units[u + 1]);
	else
		hk_out__printf(&o, "%llu %s", (unsigned long long)v, units[u]);
	return hk_out__finish(&o);
}

int hk_format__duration(char *buf, size_t len, __u64 s)
{
	unsigned long long v = s;
	struct hk_out o;

	hk_out__init(&o, buf, len);
	if (v < 60)
		hk_out__printf(&o, "%llus", v);
	else if (v < 3600)
		hk_out__printf(&o, "%llum%02llus", v / 60, v % 60);
	else if (v < 86400)
		hk_out__printf(&o, "%lluh%02llum", v / 3600, v / 60 % 60);
	else
		hk_out__printf(&o, "%llud%02lluh", v / 86400, v / 3600 % 24);
	return hk_out__finish(&o);
}

void hk_out__bytes(struct hk_out *o, __u64 bytes)
{
	char tmp[32];

	if (hk_format__bytes(tmp, sizeof(tmp), bytes) < 0)
		o->full = true;
	else
		hk_out__str(o, tmp);
}

/* A signed rate with its sign spelled out: "+41.0 MiB/s", "-2.00 MiB/s". */
void hk_out__bytes_rate(struct hk_out *o, __s64 rate)
{
	if (rate > 0)
		hk_out__mem(o, "+", 1);
	else if (rate < 0)
		hk_out__mem(o, "-", 1);
	hk_out__bytes(o, rate < 0 ? 0 - (__u64)rate : (__u64)rate);
	hk_out__str(o, "/s");
}

/* A count per second: 950, 9999, 12.3k, 123k, 12.3M. */
void hk_out__count(struct hk_out *o, __u64 v)
{
	unsigned long long unit, tenths, whole;
	char suffix;

	if (v < 10000) {
		hk_out__printf(o, "%llu", (unsigned long long)v);
		return;
	}
	unit = v < 10000000 ? 1000 : 1000000;
	suffix = unit == 1000 ? 'k' : 'M';
	tenths = v / (unit / 10) + (v % (unit / 10) >= unit / 20);
	if (tenths < 1000) {
		hk_out__printf(o, "%llu.%llu%c", tenths / 10, tenths % 10, suffix);
		return;
	}
	whole = v / unit + (v % unit >= unit / 2);
	if (unit == 1000 && whole >= 10000)
		hk_out__str(o, "10.0M");	/* 9 999 500 and up round to 10 M */
	else
		hk_out__printf(o, "%llu%c", whole, suffix);
}

/* A share: integer from 10 %, else one decimal, without a trailing ".0". */
void hk_out__pct(struct hk_out *o, __u32 pct_x100)
{
	unsigned long long v = pct_x100, tenths;

	if (v >= 995) {
		hk_out__printf(o, "%llu %%", (v + 50) / 100);
		return;
	}
	tenths = (v + 5) / 10;
	if (tenths % 10)
		hk_out__printf(o, "%llu.%llu %%", tenths / 10, tenths % 10);
	else
		hk_out__printf(o, "%llu %%", tenths / 10);
}

/*
 * Wall-clock time of the event, broken down (UTC or local), with its
 * milliseconds and the local offset from UTC in seconds.
 */
void hk_event__wall_time(const struct hk_event *e, const struct hk_format_ctx *ctx,
		   struct tm *tm, unsigned int *ms, long *gmtoff)
{
	/* an OOM kill's line says when the kernel killed it, not when the
	 * walk met the victim's exit */
	__u64 mono_ns = e->to == HK_OOM_KILLED && e->oom.time_ns ? e->oom.time_ns : e->time_ns;
	/* unsigned sum: wraps instead of overflowing, like the clocks do */
	__s64 wall = (__s64)(mono_ns + (__u64)ctx->wall_offset_ns);
	const __s64 ns_per_s = (__s64)HK_NSEC_PER_SEC;	/* signed: before 1970 */
	__s64 sec = wall / ns_per_s, rem = wall % ns_per_s;
	time_t t;

	if (rem < 0) {
		sec--;
		rem += ns_per_s;
	}
	t = (time_t)sec;
	*ms = (unsigned int)(rem / (__s64)HK_NSEC_PER_MSEC);
	*gmtoff = 0;
	if (!ctx->utc && localtime_r(&t, tm)) {
		*gmtoff = tm->tm_gmtoff;
		/* RFC 3339 offsets are whole minutes: else say it in UTC */
		if (*gmtoff % 60 == 0)
			return;
		*gmtoff = 0;
	}
	if (!gmtime_r(&t, tm))
		memset(tm, 0, sizeof(*tm));
}

void hk_out__rfc3339(struct hk_out *o, const struct hk_event *e,
		     const struct hk_format_ctx *ctx)
{
	unsigned int ms;
	struct tm tm;
	long off;

	hk_event__wall_time(e, ctx, &tm, &ms, &off);
	hk_out__printf(o, "%04d-%02d-%02dT%02d:%02d:%02d.%03u", tm.tm_year + 1900,
		   tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		   ms);
	if (!off) {
		hk_out__mem(o, "Z", 1);
		return;
	}
	hk_out__printf(o, "%c%02ld:%02ld", off < 0 ? '-' : '+',
		   (off < 0 ? -off : off) / 3600, (off < 0 ? -off : off) / 60 % 60);
}
