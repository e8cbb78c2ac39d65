/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_record.h - remember, across a crash: the record of a freeze in
 * /run/hotspot-k, one file per frozen cgroup: what a tool needs to thaw
 * it, or to tell whose it is, after a crash (freeze_record.c); the two
 * clocks its times are kept on.
 */
#ifndef HK_USER_FREEZE_RECORD_H
#define HK_USER_FREEZE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include "freeze_cgroup.h"
#include "lib/rundir.h"
#include "shared/hotspot.h"

/*
 * The record of one freeze, as /run/hotspot-k/freeze.v1.ID keeps it: what
 * a tool needs to thaw it, or to tell whose it is, after a crash.
 */
struct hk_freeze_rec {
	enum hk_freeze_hier hier;
	__u64 id;			/* the cgroup's inode, checked before a thaw */
	char dir[HK_FREEZE_DIR_MAX];	/* its directory */
	char cgroup[HK_FREEZE_PATH_MAX];	/* its path within its hierarchy */
	__u32 pid, uid;			/* the process that leaked, its real uid */
	char comm[HK_COMM_LEN];		/* NUL-terminated (15 bytes at most) */
	__u64 since_boot_ms;		/* frozen at, CLOCK_BOOTTIME */
	__u64 until_boot_ms;		/* thawed at */
	__s64 since_unix_s;		/* the same, on the wall clock, for people */
	__s64 until_unix_s;
	__u32 by_pid;			/* the hotspot-k that holds it */
	__u64 by_start;			/* ... its start, /proc/PID/stat field 22 */
	__u64 start_ns;			/* pid's start (CLOCK_BOOTTIME): the tool's
					 * own memory, not in the file (0: read back) */
};

/* "freeze.v1.4242": the record's file name in the run directory. */
void hk_freeze_record__name(char *buf, size_t len, enum hk_freeze_hier hier, __u64 id);

/* r as its file holds it: the length, or -1 when buf is too small. */
int hk_freeze_record__format(char *buf, size_t len, const struct hk_freeze_rec *r);

/* The text of a record file into r: 0, or -1 with why. */
int hk_freeze_record__parse(struct hk_freeze_rec *r, const char *text, char *why,
			    size_t why_len);

/* Write r's file in d (atomically): 0, or -errno. */
int hk_freeze_record__put(const struct hk_safedir *d, const struct hk_freeze_rec *r);

/* Read the record of (hier, id) from d: 0; -ENOENT none; -1 unparsable
 * (why); another -errno. */
int hk_freeze_record__get(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id,
			  struct hk_freeze_rec *r, char *why, size_t why_len);

/* Remove the record of (hier, id): 0 (also when there was none), -errno. */
int hk_freeze_record__drop(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id);

/*
 * Every record in the run directory path (malloc'd array in *recs: free
 * it), without making the directory: 0 with *n (0 when it is absent);
 * -1 with why (it is not root's 0700, unreadable). A file that does not
 * parse is skipped and counted in *bad, its name in bad_name.
 */
int hk_freeze_record__list(const char *path, struct hk_safedir *d, struct hk_freeze_rec **recs,
			   unsigned int *n, unsigned int *bad, char *bad_name, size_t bad_len,
			   char *why, size_t why_len);

/* Whether the tool that holds r still runs (its pid and start match). */
bool hk_freeze_record__holder_runs(const struct hk_freeze_rec *r);

/* Open rec's cgroup, checked to be the one recorded (hk_freeze__open_id):
 * 0; -ENOENT it is gone (or another has its name); -1 why. */
int hk_freeze__open_rec(const struct hk_freeze_rec *rec, struct hk_freeze_cg *cg, char *why,
			size_t why_len);

/* Now on CLOCK_BOOTTIME (a record's times: a suspend counts) and on the
 * wall clock (for people). */
__u64 hk_freeze__boot_ms(void);
__s64 hk_freeze__unix_s(void);

#endif /* HK_USER_FREEZE_RECORD_H */
