/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * postmortem_json.h - an OOM kill's post-mortem record, a pure function of the kill's
 * event and the victim's history (postmortem_json.c has its format).
 */
#ifndef HK_USER_POSTMORTEM_JSON_H
#define HK_USER_POSTMORTEM_JSON_H

#include <stddef.h>
#include "postmortem_hist.h"

/* What a record is made of. */
struct hk_pm_record_in {
	const struct hk_event *e;	/* the oom_killed transition */
	const struct hk_pm_proc *h;	/* its history; NULL: none kept */
	const char *memcg;		/* as the kill's line names it; NULL */
	__s64 wall_offset_ns;		/* CLOCK_REALTIME - CLOCK_MONOTONIC */
};

/* The record, into buf (at most len bytes, its NUL included): its length,
 * the oldest of what it holds left out until it fits; -1: it cannot. */
int hk_pm__record(char *buf, size_t len, const struct hk_pm_record_in *in);
/* The kill's wall-clock second, as the file name and record say it. */
__s64 hk_pm__kill_unix_s(const struct hk_event *e, __s64 wall_offset_ns);

#endif /* HK_USER_POSTMORTEM_JSON_H */
