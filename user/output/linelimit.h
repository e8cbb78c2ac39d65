/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * linelimit.h - transition lines per user, bounded: a user who flaps
 * thousands of processes or OOM-kills their own in a loop would otherwise
 * write to the journal without limit (the unit turns journald's rate limit
 * off so that no alarm of the tool's is lost), and journald's vacuum then
 * deletes other services' logs. Root and system users (uid below
 * HK_LINELIMIT_FIRST_UID) are never held back; another user's lines past
 * HK_LINELIMIT_LINES in HK_LINELIMIT_INTERVAL_NS are counted, and said in
 * one line when the interval ends.
 */
#ifndef HK_USER_LINELIMIT_H
#define HK_USER_LINELIMIT_H

#include <linux/types.h>

/* login.defs' UID_MIN: below it, root and the system's own users */
#define HK_LINELIMIT_FIRST_UID 1000
/* lines of one user an interval: 2 a second, a burst of 20 */
#define HK_LINELIMIT_LINES 20
#define HK_LINELIMIT_INTERVAL_NS (10ULL * 1000 * 1000 * 1000)
/* users counted apart; those past the table share the last slot (uid -1) */
#define HK_LINELIMIT_PAST_TABLE (-1L)
/* OOM kills in a memory cgroup not found (its owner unknown: removed, or
 * past the search's budget), bounded together as one user */
#define HK_LINELIMIT_OWNER_UNKNOWN (-2L)
#define HK_LINELIMIT_USERS 32

struct hk_linelimit_user {
	long uid;		/* -1: the slot of every user past the table */
	__u64 since_ns;		/* the interval's start (CLOCK_MONOTONIC) */
	__u32 lines;		/* written in it */
	__u64 held;		/* held back in it */
};

/* processes whose uid is kept for their exit's line (the process is gone
 * then): direct-mapped on the PID */
#define HK_LINELIMIT_PIDS 256

struct hk_linelimit {
	struct hk_linelimit_user user[HK_LINELIMIT_USERS];
	struct {
		__u32 pid;
		long uid;
	} pid[HK_LINELIMIT_PIDS];
	unsigned int used;	/* slots taken, the shared one apart */
	__u64 held_total;	/* held back since the start */
};

enum hk_linelimit_take {
	HK_LINELIMIT_HOLD,	/* held back (counted) */
	HK_LINELIMIT_WRITE,	/* written (counted) */
	HK_LINELIMIT_HOLD_FIRST, /* held back, the first of its interval: say
				  * so now, the count when it ends */
};

/* Whether a line of uid may be written at now_ns: -1 (not known) is let
 * through, HK_LINELIMIT_OWNER_UNKNOWN is not. */
enum hk_linelimit_take hk_linelimit__take(struct hk_linelimit *l, long uid, __u64 now_ns);

/* Keep pid's uid for its exit; the uid kept for pid, -1 when none is. */
void hk_linelimit__remember(struct hk_linelimit *l, __u32 pid, long uid);
long hk_linelimit__recall(const struct hk_linelimit *l, __u32 pid);

/*
 * A user whose interval has ended at now_ns with lines held back: 1, with
 * its uid (or HK_LINELIMIT_PAST_TABLE, HK_LINELIMIT_OWNER_UNKNOWN) and the
 * count in *uid and *held, its count reset (call again for the next); 0
 * when none is due.
 */
int hk_linelimit__due(struct hk_linelimit *l, __u64 now_ns, long *uid, __u64 *held);

#endif /* HK_USER_LINELIMIT_H */
