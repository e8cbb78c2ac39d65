/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pinned.h - the commands for an instance left running in the kernel by
 * --pin: follow (print its transitions) and unpin (stop it).
 */
#ifndef HK_USER_PINNED_H
#define HK_USER_PINNED_H

/* `hotspot-k follow [--json] [--utc]`: the exit status. */
int hk_pinned__follow(int argc, char **argv);
/* `hotspot-k unpin`: the exit status. */
int hk_pinned__unpin(int argc, char **argv);

#endif /* HK_USER_PINNED_H */
