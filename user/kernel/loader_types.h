/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_types.h - the values the loader hands out by value: what a walk
 * driven from userspace cost, a hand-over. Apart from loader.h so that
 * loader_state.h (the loader's own files' shared state) holds them without
 * including the loader's face: the parts of the loader then depend on the
 * state, never the state on the face (make include-check).
 */
#ifndef HK_USER_LOADER_TYPES_H
#define HK_USER_LOADER_TYPES_H

#include "shared/hotspot.h"

/* What a walk driven from userspace (the iter driver) cost here. */
struct hk_walk_cost {
	unsigned int syscalls;
	__u64 wall_ns;
};

/* A timer driver that stopped because its walk held a CPU too long. */
struct hk_handover {
	enum hk_driver from;
	__u64 walk_ns;			/* that walk */
	int pending;
};

#endif /* HK_USER_LOADER_TYPES_H */
