// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * linelimit.c - transition lines per user, bounded, what was held back
 * said once an interval (linelimit.h).
 */
#include <stddef.h>
#include "linelimit.h"

/* uid's slot: its own, a free one, or the one every user past the table
 * shares (uid -1) */
static struct hk_linelimit_user *slot(struct hk_linelimit *l, long uid, __u64 now_ns)
{
	struct hk_linelimit_user *u = NULL;
	unsigned int i;

	for (i = 0; i < l->used; i++) {
		if (l->user[i].uid == uid)
			return &l->user[i];
		/* its interval over, nothing owed: free again */
		if (!u && !l->user[i].held &&
		    now_ns - l->user[i].since_ns >= HK_LINELIMIT_INTERVAL_NS)
			u = &l->user[i];
	}
	if (!u && l->used < HK_LINELIMIT_USERS - 1)
		u = &l->user[l->used++];
	if (!u) {
		u = &l->user[HK_LINELIMIT_USERS - 1];
		if (u->uid == HK_LINELIMIT_PAST_TABLE)
			return u;
		uid = HK_LINELIMIT_PAST_TABLE;
	}
	u->uid = uid;
	u->since_ns = now_ns;
	u->lines = 0;
	u->held = 0;
	return u;
}

enum hk_linelimit_take hk_linelimit__take(struct hk_linelimit *l, long uid, __u64 now_ns)
{
	struct hk_linelimit_user *u;

	if (uid != HK_LINELIMIT_OWNER_UNKNOWN && uid < HK_LINELIMIT_FIRST_UID)
		return HK_LINELIMIT_WRITE;
	u = slot(l, uid, now_ns);
	/* a new interval: what was held in the last one is said by _due */
	if (now_ns - u->since_ns >= HK_LINELIMIT_INTERVAL_NS && !u->held) {
		u->since_ns = now_ns;
		u->lines = 0;
	}
	if (u->lines < HK_LINELIMIT_LINES) {
		u->lines++;
		return HK_LINELIMIT_WRITE;
	}
	l->held_total++;
	return u->held++ ? HK_LINELIMIT_HOLD : HK_LINELIMIT_HOLD_FIRST;
}

int hk_linelimit__due(struct hk_linelimit *l, __u64 now_ns, long *uid, __u64 *held)
{
	struct hk_linelimit_user *u;
	unsigned int i;

	/* the shared slot too (an unused one has uid 0, never counted) */
	for (i = 0; i < HK_LINELIMIT_USERS; i++) {
		u = &l->user[i];
		if (!u->uid || !u->held || now_ns - u->since_ns < HK_LINELIMIT_INTERVAL_NS)
			continue;
		*uid = u->uid;
		*held = u->held;
		u->held = 0;
		u->lines = 0;
		u->since_ns = now_ns;
		return 1;
	}
	return 0;
}

void hk_linelimit__remember(struct hk_linelimit *l, __u32 pid, long uid)
{
	l->pid[pid % HK_LINELIMIT_PIDS].pid = pid;
	l->pid[pid % HK_LINELIMIT_PIDS].uid = uid;
}

long hk_linelimit__recall(const struct hk_linelimit *l, __u32 pid)
{
	if (!pid || l->pid[pid % HK_LINELIMIT_PIDS].pid != pid)
		return -1;
	return l->pid[pid % HK_LINELIMIT_PIDS].uid;
}
