/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_walk.h - the walks made from userspace (the iter driver), a dead
 * timer's take-over, a hand-over: loader_walk.c. The face, loader.h,
 * includes it: callers see one header.
 */
#ifndef HK_USER_LOADER_WALK_H
#define HK_USER_LOADER_WALK_H

#include <stddef.h>
#include "loader_types.h"
#include "self_cost.h"

struct hk_loader;

/*
 * The timer driver's timer died (no window for a while): stop it for good
 * and walk from here (the iter driver). 1 if that changed the driver.
 */
int hk_loader__take_over(struct hk_loader *l);
/* ms until the next walk is due from userspace; -1: never (a timer walks). */
int hk_loader__timeout_ms(const struct hk_loader *l);
/* Walk if one is due (iter driver); 0 or -errno. */
int hk_loader__walk_if_due(struct hk_loader *l);
void hk_loader__walk_cost(const struct hk_loader *l, struct hk_walk_cost *first,
			  struct hk_walk_cost *last);
/* 1 once after a hand-over to the iter driver (then *out says from what
 * and why); 0 otherwise. */
int hk_loader__handover(struct hk_loader *l, struct hk_handover *out);

#endif /* HK_USER_LOADER_WALK_H */
