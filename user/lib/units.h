/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * units.h - values with units as the config file and the flags write them
 * (5s, 500ms, 1.5GiB, 12.5%, 10k), parsed and printed exactly.
 */
#ifndef HK_USER_UNITS_H
#define HK_USER_UNITS_H

#include <stddef.h>
#include "shared/hotspot.h"

enum hk_unit_kind {
	HK_UNIT_DURATION_NS,	/* written as a duration, stored in ns */
	HK_UNIT_DURATION_S,	/* written as a duration, stored in whole s */
	HK_UNIT_BYTES,		/* 512KiB 1.5GiB; a bare number is bytes */
	HK_UNIT_PCT_X100,	/* 12.5%, stored in hundredths of a percent */
	HK_UNIT_COUNT,		/* 10000 or 10k */
	HK_UNIT_INT,		/* a plain number */
	/* not numbers: the filters' values (config/filter.c) */
	HK_UNIT_PID_LIST,	/* 1234, 5678 */
	HK_UNIT_COMM_LIST,	/* nginx, postgres */
	HK_UNIT_PATH,		/* /system.slice/nginx.service */
	HK_UNIT_PATH_LIST,	/* /init.scope, /system.slice */
};

/* A kind whose value is text, not a number (config/filter.c parses it). */
static inline int hk_units__is_text(enum hk_unit_kind kind)
{
	return kind >= HK_UNIT_PID_LIST;
}

/*
 * Parse s as a value of kind into *out: 0, or -1 with what is wrong in why
 * (may be NULL). Numbers are integer and fraction digits scaled with integer
 * arithmetic only, so that 1.5GiB is exact.
 */
int hk_units__parse(const char *s, enum hk_unit_kind kind, __u64 *out,
		    char *why, size_t why_len);

/* Shorthands without the reason: 0 on success, -1 on a bad value. */
int hk_units__parse_duration_ns(const char *s, __u64 *out);
int hk_units__parse_bytes(const char *s, __u64 *out);
int hk_units__parse_pct_x100(const char *s, __u32 *out);
int hk_units__parse_count(const char *s, __u64 *out);

/*
 * v as the config file writes it, in the largest unit it is a whole
 * number of ("30s", "64MiB", "12.5%"): it parses back to the same bits.
 */
void hk_units__print(char *buf, size_t len, enum hk_unit_kind kind, __u64 v);

#endif /* HK_USER_UNITS_H */
