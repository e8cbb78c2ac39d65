/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_cost.h - the kernel's counters (hk_stats) and the tool's own
 * cost: loader_cost.c. The face, loader.h, includes it: callers see one
 * header.
 */
#ifndef HK_USER_LOADER_COST_H
#define HK_USER_LOADER_COST_H

#include <stddef.h>
#include "loader_types.h"
#include "self_cost.h"

struct hk_loader;

int hk_loader__stats(struct hk_loader *l, struct hk_stats *out);
/*
 * The tool's own cost since it started (self_cost.h), also written into
 * the hk_cost map for `status`. 0, or -errno when that write failed (*out
 * is filled in all the same).
 */
int hk_loader__cost(struct hk_loader *l, struct hk_cost *out);
/* [budget]'s step and measures, written into hk_stats for `status` and the
 * Prometheus file: 0, or -ENOENT without a mapping of hk_stats. */
int hk_loader__budget(struct hk_loader *l, const struct hk_budget_use *b);

#endif /* HK_USER_LOADER_COST_H */
