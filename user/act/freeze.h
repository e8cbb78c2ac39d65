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
 *   freeze_blame.c   against the host's headroom: only a process whose own
 *                    growth explains its fall (freeze_blame.h)
 *   freeze_recent.c  its refusals, remembered a short while
 *   freeze_cgroup.c  the kernel's side: which freezer, its files, its state
 *                    (freeze_cgroup.h)
 *   freeze_state.c   the record of a freeze in /run/hotspot-k
 *                    (freeze_state.h)
 *   freeze_held.c    the freezes a running tool must end: --freeze-max,
 *                    those a crashed tool left, its own exit; a thaw by
 *                    hand seen
 *   freeze_hand.c    the cgroups thawed by hand: not frozen again while
 *                    their process's OOM risk lasts
 *   freeze_format.c  the lines that say what was done, human or JSON
 *   freeze_status.c  the records, for `hotspot-k status`
 *   cmd/thaw.c    `hotspot-k thaw CGROUP`, `hotspot-k thaw --all`
 */
#ifndef HK_USER_FREEZE_H
#define HK_USER_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "config/config.h"
#include "freeze_cgroup.h"
#include "freeze_state.h"
#include "lib/rundir.h"
#include "output/format.h"
#include "shared/hotspot.h"

/*
 * The longest line about a freeze: the cgroup twice (the thaw command) and
 * a reason, every byte of them escaped (\u0001 in JSON, \x01 on a terminal).
 */
#define HK_FREEZE_LINE_MAX	(6 * (2 * HK_FREEZE_PATH_MAX + HK_FREEZE_WHY_MAX) + 1024)
/* How long a freeze may take to settle before it is reported as pending:
 * `thaw` by hand waits; the event loop waits a few ms, no more (a task
 * that cannot stop yet must not stall it), and sees the rest at a tick. */
#define HK_FREEZE_WAIT_MS	1000
#define HK_FREEZE_LOOP_WAIT_MS	50
/* Freezes one tool holds at once, and for one uid: beyond, refused. */
#define HK_FREEZE_HELD_MAX	64
#define HK_FREEZE_HELD_UID_MAX	8
/* How often the freezes held are looked at: thawed by hand? */
#define HK_FREEZE_CHECK_MS	1000
/* Cgroups thawed by hand, remembered at once (the oldest forgotten). */
#define HK_FREEZE_HAND_MAX	256
/* Refusals of the uid rule remembered at once, and for how long. */
#define HK_FREEZE_RECENT_MAX	16
#define HK_FREEZE_RECENT_MS	10000
/* Processes, cgroups and levels the uid rule reads in one cgroup's subtree. */
#define HK_FREEZE_MEMBERS_MAX	4096
#define HK_FREEZE_CGROUPS_MAX	1024
#define HK_FREEZE_DEPTH_MAX	64

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
 * A cgroup thawed by hand while this tool held its freeze: not frozen
 * again until the process it was frozen for has left OOM risk (or exited).
 */
struct hk_freeze_hand {
	enum hk_freeze_hier hier;
	__u64 id;			/* the cgroup */
	__u32 pid;			/* the process it was frozen for */
	__u64 start_ns;			/* its start (CLOCK_BOOTTIME); 0: unknown */
	__u64 since_ms;			/* the thaw seen, CLOCK_BOOTTIME */
	bool entered;			/* it entered OOM risk since */
};

/* A refusal of the uid rule, remembered (freeze_recent.c). */
struct hk_freeze_recent {
	enum hk_freeze_hier hier;
	__u64 id;			/* the cgroup */
	__u32 uid;			/* the leak's uid */
	__u64 since_ms, until_ms;	/* CLOCK_BOOTTIME; until 0: free */
	char why[HK_FREEZE_WHY_MAX];
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
	struct hk_freeze_blame *blame;	/* the host's headroom, sampled
					 * (freeze_blame.h) */
	__u64 check_ms;			/* the freezes held looked at next */
	/* the cgroups thawed by hand (freeze_hand.c) */
	struct hk_freeze_hand *hand;	/* HK_FREEZE_HAND_MAX of them */
	unsigned int nr_hand;
	__u64 settle_ms;		/* a freeze's flat RSS leaves the trend */
	struct hk_freeze_recent *recent;	/* HK_FREEZE_RECENT_MAX refusals */
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

/* --- freeze_blame.c --------------------------------------------------- */

/* The event loop's tick: a sample of the host's MemAvailable when its
 * stride is up (the history a freeze against the host is judged on). */
void hk_freeze__sample(struct hk_freezer *f);
/* ms until that sample is due, -1 none (the event loop wakes for it: a
 * timer driver's loop may sleep several windows) */
int hk_freeze__sample_timeout_ms(const struct hk_freezer *f);

/* --- freeze_act.c ----------------------------------------------------- */

/* Act on e's process for f (freeze.c decided it is due): r says what
 * came of it. */
void hk_freeze_act__run(struct hk_freezer *f, const struct hk_event *e,
			struct hk_freeze_result *r);

/* --- freeze_hand.c ---------------------------------------------------- */

/* rec's cgroup was thawed by hand: remembered, for its process's OOM
 * risk; e: the event being acted on when it was seen (NULL at a tick),
 * counted when it is that process's entry into OOM risk. */
void hk_freeze_hand__saw(struct hk_freezer *f, const struct hk_freeze_rec *rec,
			 const struct hk_event *e);

/*
 * Whether cg was thawed by hand and its process is still at OOM risk: 1
 * yes (r refused, why says so), 0 no.
 */
int hk_freeze_hand__refuses(const struct hk_freezer *f, const struct hk_freeze_cg *cg,
			    struct hk_freeze_result *r);

/*
 * Every event e, before the freeze is decided on it: the episode of a
 * cgroup thawed by hand ends when its process exits, or leaves OOM risk
 * after it entered it again (or long enough after the thaw that the
 * freeze's flat stretch is out of its trend: f->settle_ms).
 */
void hk_freeze_hand__event(struct hk_freezer *f, const struct hk_event *e);

/* --- freeze_recent.c -------------------------------------------------- */

/* The uid rule refused cg for uid's leak (why): remembered a while. */
void hk_freeze_recent__put(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
			   const char *why);
/* 1: it did, HK_FREEZE_RECENT_MS ago at most (r refused, why says so and
 * when); 0: nothing remembered. */
int hk_freeze_recent__get(struct hk_freezer *f, const struct hk_freeze_cg *cg, __u32 uid,
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
 * than HK_FREEZE_MEMBERS_MAX processes or HK_FREEZE_CGROUPS_MAX
 * cgroups), why naming the rule and one
 * process (rel is the cgroup's path, for it). fd is left open.
 */
int hk_freeze_owners__check(int fd, const char *rel, const char *proc, __u32 uid, char *why,
			    size_t why_len);

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
 * said); then every freeze held whose time is up is thawed; every
 * HK_FREEZE_CHECK_MS, a freeze held found thawed (by hand, or by its
 * owner) is let go: said, its record dropped, its cgroup remembered
 * (freeze_hand.c). Each line goes to say().
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
/*
 * The same from another thread, when the event loop is stuck (the stop
 * guard): every freeze recorded in f's run directory as this tool's is
 * thawed and its record dropped, each said on stderr. Reads only what
 * never changes in f (its run directory, this tool's pid and start).
 */
void hk_freeze__release_recorded(const struct hk_freezer *f);

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
	HK_FREEZE_END_HAND = 5,		/* thawed by someone else: let go */
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

#endif /* HK_USER_FREEZE_H */
