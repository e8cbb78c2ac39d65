/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_pin.h - the maps and the hook links pinned under a directory
 * (--pin): loader_pin.c. The face, loader.h, includes it: callers see one
 * header.
 */
#ifndef HK_USER_LOADER_PIN_H
#define HK_USER_LOADER_PIN_H

#include <stddef.h>
#include "loader_types.h"
#include "self_cost.h"

struct hk_loader;

/*
 * Pin every map and the hook links under dir, so that the diagnosis goes
 * on after this process exits (the timer lives as long as its map; no
 * hand-over then: nobody would take it). Needs a timer driver. dir is
 * made and checked by the caller, and named through its fd (pindir.h).
 * 0, or -1 with why in err (the caller removes what was pinned).
 */
int hk_loader__pin(struct hk_loader *l, const char *dir, char *err, size_t err_len);

#endif /* HK_USER_LOADER_PIN_H */
