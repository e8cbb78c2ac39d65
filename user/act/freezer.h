/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freezer.h - the freezer's state, which every part of the freeze reads:
 * its settings (a reload replaces them), what it remembers between events
 * (the freezes it holds, the cgroups thawed by hand, the refusals of a
 * moment ago), and what one act came to. Types and limits only: no
 * function is declared here, so every part may include it and none
 * depends on another through it (freeze.h lists the parts).
 */
#ifndef HK_USER_FREEZER_H
#define HK_USER_FREEZER_H

#include <stdbool.h>
#include <stddef.h>
#include "config/config.h"
#include "freeze_cgroup.h"
#include "freeze_record.h"
#include "lib/rundir.h"
#include "shared/hotspot.h"

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

/* A refusal of the uid rule, remembered (freeze_memory.c). */
struct hk_freeze_recent {
	enum hk_freeze_hier hier;
	__u64 id;			/* the cgroup */
	__u32 uid;			/* the leak's uid */
	__u64 since_ms, until_ms;	/* CLOCK_BOOTTIME; until 0: free */
	char why[HK_FREEZE_WHY_MAX];
};

struct hk_freeze_blame;

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
	/* the cgroups thawed by hand (freeze_memory.c) */
	struct hk_freeze_hand *hand;	/* HK_FREEZE_HAND_MAX of them */
	unsigned int nr_hand;
	__u64 settle_ms;		/* a freeze's flat RSS leaves the trend */
	struct hk_freeze_recent *recent;	/* HK_FREEZE_RECENT_MAX refusals */
};

/* Where a line goes: the printer (act.c), a test. */
typedef void hk_freeze_say_fn(void *arg, int prio, const char *line, size_t n);

#endif /* HK_USER_FREEZER_H */
