/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze.h - freeze before the OOM killer (opt-in, --freeze-on-oom): the
 * cgroup of a process that enters OOM risk with a short ETA is frozen, so
 * that nothing in it runs, allocates or is killed until someone looks.
 *
 *   freeze.c         what may be frozen (pure), and the act on a transition
 *   freeze_cgroup.c  the kernel's side: which freezer, its files, its state
 *   freeze_format.c  the line that says what was done, human or JSON
 *   freeze_thaw.c    `hotspot-k thaw CGROUP`
 */
#ifndef HK_USER_FREEZE_H
#define HK_USER_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include "format.h"
#include "shared/hotspot.h"

/* A cgroup path, within its hierarchy or under /sys/fs/cgroup. */
#define HK_FREEZE_PATH_MAX	4096
/* A reason: a sentence that may quote two paths. */
#define HK_FREEZE_WHY_MAX	(2 * HK_FREEZE_PATH_MAX + 256)
/*
 * The longest line about a freeze: the cgroup twice (the thaw command) and
 * a reason, every byte of them escaped (\u0001 in JSON, \x01 on a terminal).
 */
#define HK_FREEZE_LINE_MAX	(6 * (2 * HK_FREEZE_PATH_MAX + HK_FREEZE_WHY_MAX) + 1024)
/* How long a freeze may take to settle before it is reported as pending. */
#define HK_FREEZE_WAIT_MS	1000

/* Where freezing is done on this host. */
enum hk_freeze_hier {
	HK_FREEZE_HIER_NONE = 0,	/* no freezer: neither of the below */
	HK_FREEZE_HIER_V1 = 1,		/* the v1 freezer's hierarchy: freezer.state */
	HK_FREEZE_HIER_V2 = 2,		/* the unified hierarchy: cgroup.freeze */
};

struct hk_freeze_fs {
	enum hk_freeze_hier hier;
	const char *root;		/* its mount point */
};

enum hk_freeze_outcome {
	HK_FREEZE_FROZEN = 0,		/* the kernel says frozen */
	HK_FREEZE_PENDING = 1,		/* asked, not frozen within the wait */
	HK_FREEZE_REFUSED = 2,		/* never ours to freeze: why says which rule */
	HK_FREEZE_FAILED = 3,		/* could not ask, or asking failed: why */
};

/* What was done about one process. */
struct hk_freeze_result {
	enum hk_freeze_outcome outcome;
	enum hk_freeze_hier hier;
	__u64 settle_ms;		/* from the write to the state frozen */
	char cgroup[HK_FREEZE_PATH_MAX];	/* within the hierarchy; "": unknown */
	char why[HK_FREEZE_WHY_MAX];	/* REFUSED, FAILED, PENDING: a sentence */
};

/* The settings the printer acts on (a reload replaces them). */
struct hk_freezer {
	__u64 eta_s;			/* freeze below this ETA; 0: never */
	struct hk_path_list never;	/* cgroups never frozen */
	__u64 frozen, refused, failed;	/* acts, for the summary */
	struct hk_freeze_result *r;	/* the latest act */
	char *line;			/* HK_FREEZE_LINE_MAX bytes: its line */
};

/* --- freeze.c --------------------------------------------------------- */

/*
 * Whether target (a cgroup path as /proc/PID/cgroup writes it) may be
 * frozen by a hotspot-k whose own cgroup, in the same hierarchy, is self
 * (NULL: unknown), with never the --never-freeze list. 0: it may; else -1
 * and why says which rule forbids it. Pure: reads no file.
 */
int hk_freeze__decide(const char *target, const char *self, const struct hk_path_list *never,
		      char *why, size_t why_len);

/* Set up f with the [freeze] keys of c: 0, or -1 (out of memory). */
int hk_freeze__init(struct hk_freezer *f, const struct hk_config *c);
/* The [freeze] keys of c again (a reload): the counts stay. */
void hk_freeze__configure(struct hk_freezer *f, const struct hk_config *c);
void hk_freeze__free(struct hk_freezer *f);

/*
 * What f will do, in a line for the start (no newline) into buf; returns
 * its syslog priority: 6, or 4 when this host has no freezer at all.
 */
int hk_freeze__describe(const struct hk_freezer *f, char *buf, size_t len);

/*
 * A transition e: when it enters oom_risk with an ETA below f->eta_s,
 * freeze its process's cgroup or say why not, and write the line that
 * tells into f->line (human or JSON). Returns the line's length, 0 when
 * there is nothing to do or say; *prio gets the line's syslog priority.
 */
int hk_freeze__event(struct hk_freezer *f, const struct hk_event *e, int json,
		     const struct hk_format_ctx *ctx, int *prio);

/* --- freeze_cgroup.c -------------------------------------------------- */

/*
 * The host's freezer: the unified hierarchy when /sys/fs/cgroup is
 * cgroup2, else the v1 freezer at /sys/fs/cgroup/freezer, else a hybrid
 * host's unified tree at /sys/fs/cgroup/unified. fs->hier NONE: none.
 */
void hk_freeze__find_fs(struct hk_freeze_fs *fs);

/*
 * pid's cgroup in fs's hierarchy (malloc'd: free it); NULL when the
 * process is gone.
 */
char *hk_freeze__cgroup_of(const struct hk_freeze_fs *fs, __u32 pid);

/*
 * arg (a path within fs's hierarchy, "/hk/leak", or when whole_ok a whole
 * directory under /sys/fs/cgroup) to the cgroup's directory in dir, its
 * path within its hierarchy in rel, and the kind of freezer its files say
 * it has. 0, or -1 with why (not there, no freezer files: the root, not a
 * cgroup). A path read from /proc is never whole: a cgroup named
 * /sys/fs/cgroup/x must not stand for another.
 */
int hk_freeze__resolve(const struct hk_freeze_fs *fs, const char *arg, bool whole_ok,
		       char *dir, size_t dir_len, char *rel, size_t rel_len,
		       enum hk_freeze_hier *hier, char *why, size_t why_len);

/*
 * Freeze (frozen true) or thaw the cgroup at dir and wait up to wait_ms
 * for the kernel to say it is done: 1 done (*settle_ms: how long it
 * took), 0 not yet (why: the state it is in), -1 failed (why).
 */
int hk_freeze__set(const char *dir, enum hk_freeze_hier hier, bool frozen, int wait_ms,
		   __u64 *settle_ms, char *why, size_t why_len);

/* 1 frozen (or freezing, v1), 0 thawed, -1 unreadable (why). */
int hk_freeze__is_frozen(const char *dir, enum hk_freeze_hier hier, char *why,
			 size_t why_len);

/* --- freeze_format.c -------------------------------------------------- */

/*
 * The line about r, for the process of e, as text (starting "hotspot-k: ")
 * or as a JSON object {"event":"freeze",...}; eta_s is the setting it was
 * decided by. Returns the length, or -1 when buf is too small.
 */
int hk_freeze__format(char *buf, size_t len, const struct hk_event *e,
		      const struct hk_freeze_result *r, __u64 eta_s, int json,
		      const struct hk_format_ctx *ctx);

/* The line's syslog priority: 4 frozen or pending, 5 refused, 3 failed. */
int hk_freeze__priority(enum hk_freeze_outcome outcome);

/* --- freeze_thaw.c ---------------------------------------------------- */

/* `hotspot-k thaw CGROUP`: argv[0] is "thaw". The exit status. */
int hk_freeze__thaw_main(int argc, char **argv);

#endif /* HK_USER_FREEZE_H */
