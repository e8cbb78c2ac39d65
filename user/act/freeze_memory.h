/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_memory.h - remember, in the tool, between events: the freezes it
 * holds (f->held), the cgroups thawed by hand while it held them
 * (f->hand), the refusals of the uid rule a moment ago (f->recent); each
 * bounded, each in struct hk_freezer (freezer.h). freeze_memory.c.
 */
#ifndef HK_USER_FREEZE_MEMORY_H
#define HK_USER_FREEZE_MEMORY_H

#include <stddef.h>
#include "freezer.h"
#include "shared/hotspot.h"

/* --- the freezes held ------------------------------------------------ */

/* The freeze held for (hier, id), or NULL. */
struct hk_freeze_rec *hk_freeze_held__find(struct hk_freezer *f, enum hk_freeze_hier hier,
					   __u64 id);
/* Add r (room was checked): the freeze is f's to end. */
void hk_freeze_held__add(struct hk_freezer *f, const struct hk_freeze_rec *r);
/* Forget the freeze r points at (one of f->held). */
void hk_freeze_held__forget(struct hk_freezer *f, struct hk_freeze_rec *r);
/* Open f's run directory if it is not: 0, or -1 with why. */
int hk_freeze_held__dir(struct hk_freezer *f, char *why, size_t why_len);
/* --- the cgroups thawed by hand -------------------------------------- */


/* rec's cgroup was thawed by hand: remembered, for its process's OOM
 * risk; e: the event being acted on when it was seen (NULL at a tick),
 * counted when it is that process's entry into OOM risk. */
void hk_freeze_hand__saw(struct hk_freezer *f, const struct hk_freeze_rec *rec,
			 const struct hk_event *e);

/*
 * Whether cg was thawed by hand and its process is still at OOM risk: 1
 * yes (r refused, why says so), 0 no.
 */
int hk_freeze_hand__refuses(const struct hk_freezer *f, const struct hk_freeze_cg *cg,
			    struct hk_freeze_result *r);

/*
 * Every event e, before the freeze is decided on it: the episode of a
 * cgroup thawed by hand ends when its process exits, or leaves OOM risk
 * after it entered it again (or long enough after the thaw that the
 * freeze's flat stretch is out of its trend: f->settle_ms).
 */
void hk_freeze_hand__event(struct hk_freezer *f, const struct hk_event *e);

/* --- the uid rule's refusals, a moment ago --------------------------- */


/* The uid rule refused cg for uid's leak (why): remembered a while. */
void hk_freeze_recent__put(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
			   const char *why);
/* 1: it did, HK_FREEZE_RECENT_MS ago at most (r refused, why says so and
 * when); 0: nothing remembered. */
int hk_freeze_recent__get(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
			  struct hk_freeze_result *r);

#endif /* HK_USER_FREEZE_MEMORY_H */
