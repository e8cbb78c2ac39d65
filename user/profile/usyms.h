/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * usyms.h - a process's mappings read from /proc/PID/maps (usyms.c); the
 * types, the mapping that holds an address and the readers of each
 * file's symbols are usyms_load.h's.
 */
#ifndef HK_USER_USYMS_H
#define HK_USER_USYMS_H

#include <stdio.h>
#include <linux/types.h>
#include "symbolize.h"
#include "usyms_load.h"

/* The maps text of pid read from f (a test feeds its own); as hk_usyms__open. */
struct hk_usyms *hk_usyms__parse(FILE *f, int pid, const struct hk_usyms_opts *o);

#endif /* HK_USER_USYMS_H */
