// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_recent.c - a refusal by the uid rule, remembered a short while.
 *
 * The uid rule reads a whole subtree (freeze_owners.c: up to 1024 cgroups
 * and 4096 /proc/PID/status, tens of ms in the event loop). Every process
 * of a cgroup that enters OOM risk, and every ETA crossing, would read it
 * again: a user who makes their leaks cross the setting every window makes
 * the tool walk their subtree every window. So a refusal is remembered per
 * (cgroup, uid) for HK_FREEZE_RECENT_MS (two default windows) and said
 * again from memory, with its age. What the rule found may be over by then
 * (the other user's process gone): the freeze waits that long at most.
 */
#include <stdio.h>
#include <string.h>
#include "freeze.h"

/* Where (hier, id, uid) is remembered, or the slot to take: a free one,
 * one whose time is up, else the oldest. */
static struct hk_freeze_recent *slot(struct hk_freezer *f, const struct hk_freeze_cg *cg,
				     __u32 uid, bool take)
{
	struct hk_freeze_recent *r, *old = NULL;
	unsigned int i;

	for (i = 0; i < HK_FREEZE_RECENT_MAX; i++) {
		r = &f->recent[i];
		if (r->until_ms && r->hier == cg->hier && r->id == cg->id && r->uid == uid)
			return r;
		if (take && (!old || r->until_ms < old->until_ms))
			old = r;
	}
	return old;
}

void hk_freeze_recent__put(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
			   const char *why)
{
	struct hk_freeze_recent *r = f->recent ? slot(f, cg, uid, true) : NULL;
	__u64 now = hk_freeze__boot_ms();

	if (!r)
		return;
	r->hier = cg->hier;
	r->id = cg->id;
	r->uid = uid;
	r->since_ms = now;
	r->until_ms = now + HK_FREEZE_RECENT_MS;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

int hk_freeze_recent__get(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
			  struct hk_freeze_result *r)
{
	struct hk_freeze_recent *c = f->recent ? slot(f, cg, uid, false) : NULL;
	__u64 now = hk_freeze__boot_ms();

	if (!c)
		return 0;
	if (now >= c->until_ms) {
		c->until_ms = 0;
		return 0;
	}
	r->outcome = HK_FREEZE_REFUSED;
	snprintf(r->why, sizeof(r->why), "%.*s (checked %llu s ago)", (int)sizeof(r->why) - 64,
		 c->why, (unsigned long long)((now - c->since_ms) / 1000));
	return 1;
}
