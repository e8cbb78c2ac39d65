/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze.h - freeze before the OOM killer (opt-in, --freeze-on-oom): the
 * cgroup of a process that enters OOM risk with a short ETA is frozen, so
 * that nothing in it runs, allocates or is killed until someone looks, or
 * until --freeze-max has passed and hotspot-k thaws it itself.
 *
 *   freeze.c         what may be frozen (pure), the freezer's settings
 *   freeze_act.c     the act on a transition: the process checked, its
 *                    cgroup's processes checked, recorded, frozen
 *   freeze_owners.c  whose processes a cgroup holds (the uid rule)
 *   freeze_cgroup.c  the kernel's side: which freezer, its files, its state
 *   freeze_state.c   the record of a freeze in /run/hotspot-k
 *   freeze_held.c    the freezes a running tool must end: --freeze-max,
 *                    those a crashed tool left, its own exit
 *   freeze_format.c  the lines that say what was done, human or JSON
 *   freeze_status.c  the records, for `hotspot-k status`
 *   freeze_thaw.c    `hotspot-k thaw CGROUP`, `hotspot-k thaw --all`
 */
#ifndef HK_USER_FREEZE_H
#define HK_USER_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "config.h"
#include "format.h"
#include "rundir.h"
#include "shared/hotspot.h"

/* A cgroup path, within its hierarchy or under /sys/fs/cgroup. */
#define HK_FREEZE_PATH_MAX	4096
/* A cgroup's whole directory: the mount point and the path. */
#define HK_FREEZE_DIR_MAX	(HK_FREEZE_PATH_MAX + 64)
/* A reason: a sentence that may quote two paths. */
#define HK_FREEZE_WHY_MAX	(2 * HK_FREEZE_PATH_MAX + 256)
/*
 * The longest line about a freeze: the cgroup twice (the thaw command) and
 * a reason, every byte of them escaped (\u0001 in JSON, \x01 on a terminal).
 */
#define HK_FREEZE_LINE_MAX	(6 * (2 * HK_FREEZE_PATH_MAX + HK_FREEZE_WHY_MAX) + 1024)
/* How long a freeze may take to settle before it is reported as pending. */
#define HK_FREEZE_WAIT_MS	1000
/* Freezes one tool holds at once: beyond, a freeze is refused. */
#define HK_FREEZE_HELD_MAX	64
/* Processes and levels the uid rule reads in one cgroup's subtree. */
#define HK_FREEZE_MEMBERS_MAX	4096
#define HK_FREEZE_DEPTH_MAX	64

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

/* One cgroup, opened: what it is checked to be is what is written. */
struct hk_freeze_cg {
	int fd;				/* its directory; -1: not open */
	enum hk_freeze_hier hier;	/* which file freezes it */
	__u64 id;			/* its inode: the cgroup's kernfs id */
	char dir[HK_FREEZE_DIR_MAX];	/* its directory, resolved */
	char rel[HK_FREEZE_PATH_MAX];	/* its path within its hierarchy */
};

enum hk_freeze_outcome {
	HK_FREEZE_FROZEN = 0,		/* the kernel says frozen */
	HK_FREEZE_PENDING = 1,		/* asked, not frozen within the wait */
	HK_FREEZE_REFUSED = 2,		/* never ours to freeze: why says which rule */
	HK_FREEZE_FAILED = 3,		/* could not ask, or asking failed: why */
	HK_FREEZE_ALREADY = 4,		/* frozen already (by us for another
					 * process of it, or by someone else) */
};

/* What was done about one process. */
struct hk_freeze_result {
	enum hk_freeze_outcome outcome;
	enum hk_freeze_hier hier;
	__u64 settle_ms;		/* from the write to the state frozen */
	__u64 max_s;			/* FROZEN, PENDING: thawed after this */
	char cgroup[HK_FREEZE_PATH_MAX];	/* within the hierarchy; "": unknown */
	char why[HK_FREEZE_WHY_MAX];	/* REFUSED, FAILED, PENDING, ALREADY */
};

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
};

/* The settings the printer acts on (a reload replaces them). */
struct hk_freezer {
	__u64 eta_s;			/* freeze below this ETA; 0: never */
	__u64 max_s;			/* thaw after this */
	struct hk_path_list never;	/* cgroups never frozen */
	__u64 frozen, refused, failed;	/* acts, for the summary */
	__u64 thawed;			/* freezes ended by this tool */
	struct hk_freeze_result *r;	/* the latest act */
	char *line;			/* HK_FREEZE_LINE_MAX bytes: its line */
	/* the freezes this tool must end, and where they are recorded */
	struct hk_freeze_rec *held;	/* HK_FREEZE_HELD_MAX of them */
	unsigned int nr_held;
	const char *rundir;		/* HK_RUNDIR; a test gives another */
	const char *proc;		/* "/proc"; a test gives another */
	struct hk_safedir dir;		/* rundir, once opened */
	bool looked;			/* the records found at start are seen to */
	__u32 self_pid;			/* this tool, as records name it */
	__u64 self_start;
};

/* Where a line goes: the printer (act.c), a test. */
typedef void hk_freeze_say_fn(void *arg, int prio, const char *line, size_t n);

/* --- freeze.c --------------------------------------------------------- */

/*
 * Whether target (a cgroup path as /proc/PID/cgroup writes it) may be
 * frozen by a hotspot-k whose own cgroup, in the same hierarchy, is self
 * (NULL: unknown), with never the --never-freeze list. A listed cgroup is
 * never frozen, nor is one of its children (part of it), nor one of its
 * ancestors (freezing it would freeze the listed one). 0: it may; else -1
 * and why says which rule forbids it. Pure: reads no file.
 */
int hk_freeze__decide(const char *target, const char *self, const struct hk_path_list *never,
		      char *why, size_t why_len);

/* Set up f with the [freeze] keys of c: 0, or -1 (out of memory). */
int hk_freeze__init(struct hk_freezer *f, const struct hk_config *c);
/* The [freeze] keys of c again (a reload): the counts and the freezes
 * held stay, each with the time it was given. */
void hk_freeze__configure(struct hk_freezer *f, const struct hk_config *c);
/*
 * Free f. The freezes it still holds are thawed first, each said on
 * stderr: a freeze does not outlive the tool that would end it.
 */
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

/* --- freeze_act.c ----------------------------------------------------- */

/* Act on e's process for f (freeze.c decided it is due): r says what
 * came of it. */
void hk_freeze_act__run(struct hk_freezer *f, const struct hk_event *e,
			struct hk_freeze_result *r);

/* --- freeze_owners.c -------------------------------------------------- */

/*
 * pid's real, effective, saved and filesystem uids from proc ("/proc")
 * PID/status: 0; -ESRCH it is gone; another -errno.
 */
int hk_freeze_owners__uids(const char *proc, __u32 pid, __u32 uids[4]);

/*
 * Whether every process in the cgroup open at fd, and in every cgroup
 * below it, runs as uid (all four uids): 0 yes; -1 no, or it cannot be
 * told (a file unreadable, a process outside our PID namespace, more
 * than HK_FREEZE_MEMBERS_MAX processes), why naming the rule and one
 * process (rel is the cgroup's path, for it). fd is left open.
 */
int hk_freeze_owners__check(int fd, const char *rel, const char *proc, __u32 uid, char *why,
			    size_t why_len);

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
 * Open arg as a cgroup into cg: a path within fs's hierarchy ("/hk/leak"),
 * or when whole_ok a whole directory under /sys/fs/cgroup. No '.' or '..'
 * component; the directory, resolved (realpath), must be under the
 * hierarchy's mount and on a cgroup filesystem, and have a freezer's
 * files. 0, or -1 with why (not there, outside cgroupfs, the root, no
 * freezer). A path read from /proc is never whole: a cgroup named
 * /sys/fs/cgroup/x must not stand for another.
 */
int hk_freeze__open(const struct hk_freeze_fs *fs, const char *arg, bool whole_ok,
		    struct hk_freeze_cg *cg, char *why, size_t why_len);

/* Open a record's cgroup, checked as above and to be the one recorded
 * (its id): 0; -ENOENT it is gone (or another has its name); -1 why. */
int hk_freeze__open_rec(const struct hk_freeze_rec *rec, struct hk_freeze_cg *cg, char *why,
			size_t why_len);

void hk_freeze__close(struct hk_freeze_cg *cg);

/*
 * Freeze (frozen true) or thaw cg and wait up to wait_ms for the kernel
 * to say it is done: 1 done (*settle_ms: how long it took), 0 not yet
 * (why: the state it is in), -1 failed (why). The control file is
 * written as an existing regular file, never created, never through a
 * symlink (hk_safefile__write_ctl).
 */
int hk_freeze__set(const struct hk_freeze_cg *cg, bool frozen, int wait_ms, __u64 *settle_ms,
		   char *why, size_t why_len);

/* 1 frozen (or freezing, v1), 0 thawed, -1 unreadable (why). */
int hk_freeze__is_frozen(const struct hk_freeze_cg *cg, char *why, size_t why_len);

/* --- freeze_state.c --------------------------------------------------- */

/* "freeze.v1.4242": the record's file name in the run directory. */
void hk_freeze_state__name(char *buf, size_t len, enum hk_freeze_hier hier, __u64 id);

/* r as its file holds it: the length, or -1 when buf is too small. */
int hk_freeze_state__format(char *buf, size_t len, const struct hk_freeze_rec *r);

/* The text of a record file into r: 0, or -1 with why. */
int hk_freeze_state__parse(struct hk_freeze_rec *r, const char *text, char *why,
			   size_t why_len);

/* Write r's file in d (atomically): 0, or -errno. */
int hk_freeze_state__put(const struct hk_safedir *d, const struct hk_freeze_rec *r);

/* Read the record of (hier, id) from d: 0; -ENOENT none; -1 unparsable
 * (why); another -errno. */
int hk_freeze_state__get(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id,
			 struct hk_freeze_rec *r, char *why, size_t why_len);

/* Remove the record of (hier, id): 0 (also when there was none), -errno. */
int hk_freeze_state__drop(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id);

/*
 * Every record in the run directory path (malloc'd array in *recs: free
 * it), without making the directory: 0 with *n (0 when it is absent);
 * -1 with why (it is not root's 0700, unreadable). A file that does not
 * parse is skipped and counted in *bad, its name in bad_name.
 */
int hk_freeze_state__list(const char *path, struct hk_safedir *d, struct hk_freeze_rec **recs,
			  unsigned int *n, unsigned int *bad, char *bad_name, size_t bad_len,
			  char *why, size_t why_len);

/* Whether the tool that holds r still runs (its pid and start match). */
bool hk_freeze_state__holder_runs(const struct hk_freeze_rec *r);

/* --- freeze_held.c ---------------------------------------------------- */

/*
 * ms until f must thaw something (the first freeze held whose time is
 * up), 0 when the records left at start are still to be seen to, -1:
 * nothing to do (the event loop waits on it).
 */
int hk_freeze__timeout_ms(const struct hk_freezer *f);

/*
 * What is due: at the first call, the records a crashed or killed tool
 * left (those whose time is up are thawed, the others taken over and
 * said); then every freeze held whose time is up is thawed. Each line
 * goes to say().
 */
void hk_freeze__tick(struct hk_freezer *f, int json, const struct hk_format_ctx *ctx,
		     hk_freeze_say_fn *say, void *arg);

/* The freeze held for (hier, id), or NULL. */
struct hk_freeze_rec *hk_freeze_held__find(struct hk_freezer *f, enum hk_freeze_hier hier,
					   __u64 id);
/* Add r (room was checked): the freeze is f's to end. */
void hk_freeze_held__add(struct hk_freezer *f, const struct hk_freeze_rec *r);
/* Forget the freeze r points at (one of f->held). */
void hk_freeze_held__forget(struct hk_freezer *f, struct hk_freeze_rec *r);
/* Open f's run directory if it is not: 0, or -1 with why. */
int hk_freeze_held__dir(struct hk_freezer *f, char *why, size_t why_len);
/* Thaw every freeze f holds (its exit), each said on stderr. */
void hk_freeze_held__release(struct hk_freezer *f);

/* Now on CLOCK_BOOTTIME and the wall clock. */
__u64 hk_freeze__boot_ms(void);
__s64 hk_freeze__unix_s(void);

/* --- freeze_format.c -------------------------------------------------- */

/*
 * The line about r, for the process of e, as text (starting "hotspot-k: ")
 * or as a JSON object {"event":"freeze",...}; eta_s is the setting it was
 * decided by. Returns the length, or -1 when buf is too small.
 */
int hk_freeze__format(char *buf, size_t len, const struct hk_event *e,
		      const struct hk_freeze_result *r, __u64 eta_s, int json,
		      const struct hk_format_ctx *ctx);

/* The line's syslog priority: 4 frozen or pending, 5 refused, 3 failed,
 * 6 frozen already. */
int hk_freeze__priority(enum hk_freeze_outcome outcome);

/* What became of a freeze held (freeze_held.c). */
enum hk_freeze_end {
	HK_FREEZE_END_MAX = 0,		/* thawed: its time was up */
	HK_FREEZE_END_LEFT = 1,		/* thawed at start: left by a tool
					 * that is gone, its time up */
	HK_FREEZE_END_TAKEN = 2,	/* left by a tool that is gone, its
					 * time not up: taken over */
	HK_FREEZE_END_EXIT = 3,		/* thawed: this tool exits */
	HK_FREEZE_END_FAILED = 4,	/* its thaw failed: why */
};

/* The moment a line is about. */
struct hk_freeze_now {
	__u64 boot_ms;			/* CLOCK_BOOTTIME: against a record's times */
	__u64 mono_ns;			/* CLOCK_MONOTONIC: the line's time, as an
					 * event's */
};

void hk_freeze__now(struct hk_freeze_now *now);

/*
 * The line about the end (or the taking over) of the freeze rec: text, or
 * a JSON object {"event":"freeze","result":"thawed", "held" or "failed",
 * "end":"max", "left", "taken", "exit" or "failed",...}; why: FAILED's
 * reason. The length, or -1 when buf is too small.
 */
int hk_freeze__format_end(char *buf, size_t len, const struct hk_freeze_rec *rec,
			  enum hk_freeze_end end, const char *why,
			  const struct hk_freeze_now *now, int json,
			  const struct hk_format_ctx *ctx);

/* Its syslog priority: 4 thawed or taken over (the leak runs again, or a
 * cgroup stays stopped), 3 failed. */
int hk_freeze__end_priority(enum hk_freeze_end end);

/*
 * s as one shell word that names exactly s: as it is when plain, else in
 * single quotes when every byte is printable ASCII, else $'...' with
 * \xHH for every other byte (terminal-safe too). The length, or -1.
 */
int hk_freeze__shell_word(char *buf, size_t len, const char *s);

/* --- freeze_status.c -------------------------------------------------- */

/*
 * For `hotspot-k status`: the freezes recorded in the run directory path,
 * one line each (nothing when there are none), to f; at now_unix_s, in
 * UTC when utc. 0, or -1 with why.
 */
int hk_freeze_status__text(FILE *f, const char *path, __s64 now_unix_s, bool utc, char *why,
			   size_t why_len);
/* ... as ,"frozen":[{...},...] inside status's JSON object. */
int hk_freeze_status__json(FILE *f, const char *path, char *why, size_t why_len);

/* --- freeze_thaw.c ---------------------------------------------------- */

/* `hotspot-k thaw CGROUP|--all`: argv[0] is "thaw". The exit status. */
int hk_freeze__thaw_main(int argc, char **argv);

#endif /* HK_USER_FREEZE_H */
