/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_status.h - report, for `hotspot-k status`: the freezes recorded in
 * /run/hotspot-k, read without a running instance (freeze_status.c).
 */
#ifndef HK_USER_FREEZE_STATUS_H
#define HK_USER_FREEZE_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

/*
 * For `hotspot-k status`: the freezes recorded in the run directory path,
 * one line each (nothing when there are none), to f; at now_unix_s, in
 * UTC when utc. 0, or -1 with why.
 */
int hk_freeze_status__text(FILE *f, const char *path, __s64 now_unix_s, bool utc, char *why,
			   size_t why_len);
/* ... as ,"frozen":[{...},...] inside status's JSON object. */
int hk_freeze_status__json(FILE *f, const char *path, char *why, size_t why_len);

#endif /* HK_USER_FREEZE_STATUS_H */
