/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * delayacct.h - kernel.task_delayacct, which io_blocked reads from: on
 * while the tool runs, the value found put back when it exits.
 *
 * The switch is global and instances come and go, or die: the one that
 * turns it on (from 0) records that in HK_RUNDIR/delayacct before it
 * writes 1, and whoever exits last while the record is there (the one
 * that turned it on, an instance that started meanwhile, `unpin`, or the
 * next start after a crash or a SIGKILL) puts 0 back and drops the record.
 * Without a record, a 1 found is the administrator's: left alone.
 */
#ifndef HK_USER_DELAYACCT_H
#define HK_USER_DELAYACCT_H

#include <stddef.h>
#include "shared/hotspot.h"

#define HK_DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"
/* The record, a file in HK_RUNDIR (rundir.h), and what it says. */
#define HK_DELAYACCT_STATE "delayacct"
#define HK_DELAYACCT_RECORD "hotspot-k set kernel.task_delayacct to 1, it was 0\n"

struct hk_delayacct {
	const char *path;	/* HK_DELAYACCT_SYSCTL; a test may point elsewhere */
	const char *rundir;	/* HK_RUNDIR; likewise */
	int turned_on;		/* this instance holds the duty to put 0 back */
};

/* What is known when a decision is due. */
struct hk_delayacct_facts {
	int value;		/* the switch: 0 or 1; -1: cannot be read */
	int recorded;		/* the record is there: a hotspot-k set it */
	unsigned int others;	/* other instances running, pinned included */
	int want;		/* start: io_blocked is diagnosed; exit: this
				 * instance holds the duty */
};

enum hk_delayacct_step {
	HK_DELAYACCT_NOTHING,	/* leave the switch and the record be */
	HK_DELAYACCT_TURN_ON,	/* record, then write 1: the duty is ours */
	HK_DELAYACCT_TAKE,	/* 1 by a hotspot-k's doing: ours too */
	HK_DELAYACCT_PUT_BACK,	/* write 0, then drop the record */
	HK_DELAYACCT_FORGET,	/* 0 already: drop the record */
};

/* The decisions, from the facts alone (the unit tests run them). */
enum hk_delayacct_step hk_delayacct__at_start(const struct hk_delayacct_facts *f);
enum hk_delayacct_step hk_delayacct__at_exit(const struct hk_delayacct_facts *f);

/*
 * At start, or when a reload turns io_blocked on (want): make sure delay
 * accounting is on, and honour a record a dead instance left (put 0 back
 * when nothing wants it on). others: instances running beside this one
 * (hk_delayacct__instances() before the load, minus one after). 0, with
 * a line to say in note when there is one (note[0]: "" otherwise); -1
 * when want and it cannot be on, why in note.
 */
int hk_delayacct__start(struct hk_delayacct *d, int want, unsigned int others,
			char *note, size_t note_len);

/*
 * At exit (or `unpin`, with want: the pinned instance held the duty):
 * 0 back if this instance held the duty or the record is there, the
 * switch is still 1, and no other instance runs. 1 when it put 0 back, 0
 * when it had nothing to do (a line to say in note when there is one: it
 * stays 1 for another instance), -1 when the write failed (why in note).
 */
int hk_delayacct__exit(struct hk_delayacct *d, int want, unsigned int others,
		       char *note, size_t note_len);

/* Whether the record is there: a hotspot-k set the switch, and its duty
 * to put 0 back is not done. */
int hk_delayacct__recorded(const struct hk_delayacct *d);

/*
 * hotspot-k instances running now, pinned included, as status finds them
 * (the caller's own counts once it is loaded); 0 when none can be seen
 * (no CAP_SYS_ADMIN to list them).
 */
unsigned int hk_delayacct__instances(void);

/*
 * The running instance's hand-over, one per process (its state is this
 * file's). io_blocked reads delay accounting: on while it is diagnosed; a
 * record a dead instance left honoured either way. hk_delayacct__for is
 * called before the load, and by a reload that turns io_blocked on (after
 * its config is in place); the duty is shown in cfg->delayacct_duty. What
 * could not be done is said by hk_delayacct__say, once the load went well:
 * a tool that cannot load has a better first line to give.
 */
void hk_delayacct__for(struct hk_config *cfg);
/*
 * Once the first walk is done (it visits every thread; *said is set
 * then): the processes delay accounting does not cover (st's
 * procs_no_delays), with how to cover them and what is sampled instead,
 * in line; 0 with line "" when there is nothing to say (none, or nothing
 * reads delay accounting: wanted 0), else the log priority.
 */
int hk_delayacct__coverage(const struct hk_stats *st, int wanted, int *said, char *line,
			   size_t len);
/* Does this config read delay accounting (io_blocked, the stall rule)? */
int hk_delayacct__wanted(const struct hk_config *cfg);
void hk_delayacct__say(void);
/* Loaded: hk_delayacct__instances() counts this instance too from now. */
void hk_delayacct__loaded(void);
/* Whether this instance holds the duty to put 0 back. */
int hk_delayacct__duty(void);
/* Pinned: the diagnosis outlives this process, and so does the switch, until
 * unpin (the record in HK_RUNDIR and the pinned hk_config keep the duty). */
void hk_delayacct__leave_on(void);
/* Exiting: 0 back, unless another instance still runs (it takes over);
 * said through hk_log. Call it once. */
void hk_delayacct__put_back(void);

/*
 * `hotspot-k unpin`: whether the pinned instance holds the duty (its
 * pinned hk_config says), read before its pins go; then
 * hk_delayacct__unpin(duty): the pinned instance turned delay accounting
 * on (or took it over: duty), or a record says a hotspot-k did: off again,
 * once its programs are gone (they outlive their pins a moment), unless
 * another instance runs. Said on stdout, a failure on stderr. The duty is
 * read from pd's hk_config only when it is one this hotspot-k reads (its
 * type and sizes): else 0, and note says why (empty: nothing to say).
 */
struct hk_pindir;
int hk_delayacct__pinned_duty(const struct hk_pindir *pd, char *note, size_t len);
void hk_delayacct__unpin(int duty);

#endif /* HK_USER_DELAYACCT_H */
