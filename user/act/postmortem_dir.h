/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * postmortem_dir.h - the post-mortem records' files: STATE/oom/UNIX_S-PID.json, written
 * atomically, bounded in count, listed for `status` (postmortem_dir.c).
 */
#ifndef HK_USER_POSTMORTEM_DIR_H
#define HK_USER_POSTMORTEM_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "lib/safefile.h"
#include "shared/hotspot.h"

/* STATE/oom: where the records go, under the state directory */
#define HK_PM_SUBDIR "oom"

enum {
	HK_PM_LIST_MAX = 10,		/* status lists the newest so many */
	/* the record's start, which `status` reads: pid, comm, time, flagged */
	HK_PM_HEAD_MAX = 512,
};

/* Open (made 0700 when absent) path/oom: 0, or -1 with one line in err. */
int hk_pm_dir__open(struct hk_safedir *d, const char *path, bool create, char *err,
		    size_t err_len);
/* Write UNIX_S-PID.json atomically (0600), then remove the oldest past
 * keep: 0, or -errno. */
int hk_pm_dir__write(const struct hk_safedir *d, __s64 unix_s, __u32 pid, const char *text,
		     size_t len, unsigned int keep);
/* For `status`: the newest records under path (HK_RUNDIR), a line each
 * (nothing when none), or as ,"postmortems":[...]; 0, or -1 with why. */
int hk_pm_dir__text(FILE *f, const char *path, char *why, size_t why_len);
int hk_pm_dir__json(FILE *f, const char *path, char *why, size_t why_len);

#endif /* HK_USER_POSTMORTEM_DIR_H */
