/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_report.h - report: the lines that say what a freeze did, human
 * or JSON, and their syslog priorities (freeze_report.c); `status`'s
 * lines are freeze_status.h's.
 */
#ifndef HK_USER_FREEZE_REPORT_H
#define HK_USER_FREEZE_REPORT_H

#include <stddef.h>
#include "freezer.h"
#include "output/format.h"
#include "shared/hotspot.h"

/*
 * The longest line about a freeze: the cgroup twice (the thaw command) and
 * a reason, every byte of them escaped (\u0001 in JSON, \x01 on a terminal).
 */
#define HK_FREEZE_LINE_MAX	(6 * (2 * HK_FREEZE_PATH_MAX + HK_FREEZE_WHY_MAX) + 1024)


/*
 * The line about r, for the process of e, as text (starting "hotspot-k: ")
 * or as a JSON object {"event":"freeze",...}; eta_s is the setting it was
 * decided by. Returns the length, or -1 when buf is too small.
 */
int hk_freeze__format(char *buf, size_t len, const struct hk_event *e,
		      const struct hk_freeze_result *r, __u64 eta_s, int json,
		      const struct hk_format_ctx *ctx);

/* The line's syslog priority: 4 frozen or pending, 5 refused, 3 failed,
 * 6 frozen already. */
int hk_freeze__priority(enum hk_freeze_outcome outcome);

/* What became of a freeze held (freeze_do.c). */
enum hk_freeze_end {
	HK_FREEZE_END_MAX = 0,		/* thawed: its time was up */
	HK_FREEZE_END_LEFT = 1,		/* thawed at start: left by a tool
					 * that is gone, its time up */
	HK_FREEZE_END_TAKEN = 2,	/* left by a tool that is gone, its
					 * time not up: taken over */
	HK_FREEZE_END_EXIT = 3,		/* thawed: this tool exits */
	HK_FREEZE_END_FAILED = 4,	/* its thaw failed: why */
	HK_FREEZE_END_HAND = 5,		/* thawed by someone else: let go */
};

/* The moment a line is about. */
struct hk_freeze_now {
	__u64 boot_ms;			/* CLOCK_BOOTTIME: against a record's times */
	__u64 mono_ns;			/* CLOCK_MONOTONIC: the line's time, as an
					 * event's */
};

void hk_freeze__now(struct hk_freeze_now *now);

/*
 * The line about the end (or the taking over) of the freeze rec: text, or
 * a JSON object {"event":"freeze","result":"thawed", "held" or "failed",
 * "end":"max", "left", "taken", "exit" or "failed",...}; why: FAILED's
 * reason. The length, or -1 when buf is too small.
 */
int hk_freeze__format_end(char *buf, size_t len, const struct hk_freeze_rec *rec,
			  enum hk_freeze_end end, const char *why,
			  const struct hk_freeze_now *now, int json,
			  const struct hk_format_ctx *ctx);

/* Its syslog priority: 4 thawed or taken over (the leak runs again, or a
 * cgroup stays stopped), 3 failed. */
int hk_freeze__end_priority(enum hk_freeze_end end);

/*
 * s as one shell word that names exactly s: as it is when plain, else in
 * single quotes when every byte is printable ASCII, else $'...' with
 * \xHH for every other byte (terminal-safe too). The length, or -1.
 */
int hk_freeze__shell_word(char *buf, size_t len, const char *s);

#endif /* HK_USER_FREEZE_REPORT_H */
