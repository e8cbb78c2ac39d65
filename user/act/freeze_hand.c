// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_hand.c - a thaw by hand wins: the cgroups thawed by someone else
 * (`hotspot-k thaw`, an echo into the freezer's file by root or by the
 * cgroup's owner) while this tool held their freeze are not frozen again
 * for the rest of their process's OOM-risk episode.
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
 */
#include <stdio.h>
#include <string.h>
#include "freeze.h"

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
