// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_memory.c - remember, in the tool, between events: three bounded
 * sets in struct hk_freezer, each looked up by (hierarchy, cgroup id).
 *
 * The freezes held (f->held, HK_FREEZE_HELD_MAX): the ones this tool must
 * end (freeze_do.c), each a copy of its record in /run (freeze_record.c).
 *
 * The cgroups thawed by hand (f->hand): a thaw by hand wins. The cgroups
 * thawed by someone else (`hotspot-k thaw`, an echo into the freezer's
 * file by root or by the cgroup's owner) while this tool held their
 * freeze are not frozen again for the rest of their process's OOM-risk
 * episode.
 *
 * Without this, the leak that was thawed grows again, re-enters OOM risk
 * or sees its ETA cross the setting, and is frozen again a window or two
 * later: the tool undoing the operator (issue #30: 3 of 4 tries).
 *
 * The episode is the process's, not the label's: a frozen leak's RSS is
 * flat, so it usually leaves OOM risk while frozen and re-enters after the
 * thaw; that re-entry is the same episode. It ends when the process exits,
 * or leaves OOM risk after it entered it again since the thaw, or leaves
 * it once the freeze's flat stretch is out of its trend (f->settle_ms:
 * trend_span and exit_windows after the thaw). A later episode may be
 * frozen again.
 *
 * HK_FREEZE_HAND_MAX cgroups are remembered; beyond, the oldest is
 * forgotten (its cgroup may then be frozen again at its next crossing).
 *
 * The uid rule's refusals of a moment ago (f->recent): the uid rule reads
 * a whole subtree (freeze_owners.c: up to 1024 cgroups
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
#include "freeze_memory.h"
#include "freeze_record.h"
#include "lib/rundir.h"

/* --- the freezes held ---------------------------------------------------- */

struct hk_freeze_rec *hk_freeze_held__find(struct hk_freezer *f, enum hk_freeze_hier hier,
					   __u64 id)
{
	unsigned int i;

	for (i = 0; i < f->nr_held; i++)
		if (f->held[i].hier == hier && f->held[i].id == id)
			return &f->held[i];
	return NULL;
}

void hk_freeze_held__add(struct hk_freezer *f, const struct hk_freeze_rec *r)
{
	if (f->nr_held < HK_FREEZE_HELD_MAX)
		f->held[f->nr_held++] = *r;
}

void hk_freeze_held__forget(struct hk_freezer *f, struct hk_freeze_rec *r)
{
	unsigned int i = (unsigned int)(r - f->held);

	if (i >= f->nr_held)
		return;
	/* the last in its place: the order does not matter */
	if (i != f->nr_held - 1)
		f->held[i] = f->held[f->nr_held - 1];
	f->nr_held--;
}

int hk_freeze_held__dir(struct hk_freezer *f, char *why, size_t why_len)
{
	if (f->dir.fd >= 0)
		return 0;
	return hk_rundir__open(&f->dir, f->rundir, why, why_len);
}

/* --- the cgroups thawed by hand ------------------------------------------ */

static struct hk_freeze_hand *find(const struct hk_freezer *f, enum hk_freeze_hier hier,
				   __u64 id)
{
	unsigned int i;

	for (i = 0; i < f->nr_hand; i++)
		if (f->hand[i].hier == hier && f->hand[i].id == id)
			return &f->hand[i];
	return NULL;
}

static void drop(struct hk_freezer *f, struct hk_freeze_hand *h)
{
	unsigned int i = (unsigned int)(h - f->hand);

	/* the last in its place: the order does not matter */
	if (i != f->nr_hand - 1)
		f->hand[i] = f->hand[f->nr_hand - 1];
	f->nr_hand--;
}

/* Whether e is about h's process (a start unknown: a record read back). */
static bool about(const struct hk_freeze_hand *h, const struct hk_event *e)
{
	return h->pid == e->tgid && (!h->start_ns || h->start_ns == e->start_boottime_ns);
}

static bool entry(const struct hk_event *e)
{
	return e->type == HK_EV_TRANSITION && e->to == HK_OOM_RISK && e->from != HK_OOM_RISK;
}

void hk_freeze_hand__saw(struct hk_freezer *f, const struct hk_freeze_rec *rec,
			 const struct hk_event *e)
{
	struct hk_freeze_hand *h = find(f, rec->hier, rec->id);
	unsigned int i, old = 0;

	if (!f->hand)
		return;
	if (!h && f->nr_hand < HK_FREEZE_HAND_MAX)
		h = &f->hand[f->nr_hand++];
	if (!h) {
		for (i = 1; i < f->nr_hand; i++)
			if (f->hand[i].since_ms < f->hand[old].since_ms)
				old = i;
		h = &f->hand[old];
	}
	*h = (struct hk_freeze_hand){
		.hier = rec->hier,
		.id = rec->id,
		.pid = rec->pid,
		.start_ns = rec->start_ns,
		.since_ms = hk_freeze__boot_ms(),
	};
	/* seen at its re-entry: that entry is this episode's */
	h->entered = e && about(h, e) && entry(e);
}

int hk_freeze_hand__refuses(const struct hk_freezer *f, const struct hk_freeze_cg *cg,
			    struct hk_freeze_result *r)
{
	const struct hk_freeze_hand *h = f->hand ? find(f, cg->hier, cg->id) : NULL;

	if (!h)
		return 0;
	r->outcome = HK_FREEZE_REFUSED;
	snprintf(r->why, sizeof(r->why), "%s was thawed by hand: not freezing it again while "
		 "pid %u stays at OOM risk", cg->rel, h->pid);
	return 1;
}

void hk_freeze_hand__event(struct hk_freezer *f, const struct hk_event *e)
{
	struct hk_freeze_hand *h;
	unsigned int i;

	for (i = 0; i < f->nr_hand;) {
		h = &f->hand[i];
		if (!about(h, e)) {
			i++;
			continue;
		}
		if (e->to == HK_EXITED || e->to == HK_OOM_KILLED) {
			drop(f, h);
			continue;
		}
		if (entry(e))
			h->entered = true;
		/* out of OOM risk: the episode's end, unless the freeze's
		 * own flat stretch put it out (no entry since, too soon) */
		if (e->type == HK_EV_TRANSITION && e->from == HK_OOM_RISK &&
		    e->to != HK_OOM_RISK && (h->entered ||
		    hk_freeze__boot_ms() - h->since_ms >= f->settle_ms)) {
			drop(f, h);
			continue;
		}
		i++;
	}
}

/* --- the uid rule's refusals, a moment ago ------------------------------- */

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
