/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_hook.h - the sched_switch hook's use: loader_hook.c. The face,
 * loader.h, includes it: callers see one header.
 */
#ifndef HK_USER_LOADER_HOOK_H
#define HK_USER_LOADER_HOOK_H

#include <stddef.h>
#include "loader_types.h"
#include "self_cost.h"

struct hk_loader;

/* The sched_switch hook's attaches and detaches so far; 1 when attached now. */
int hk_loader__hook_use(const struct hk_loader *l, struct hk_hook_use *out);
/* [budget]: hold the on-demand hook detached (1) or let it be asked again (0). */
void hk_loader__hook_hold(struct hk_loader *l, int hold);
/* 1 when a sched_switch hook was loaded (not --no-hook). */
int hk_loader__hook_prog(const struct hk_loader *l);

#endif /* HK_USER_LOADER_HOOK_H */
