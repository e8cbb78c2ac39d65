/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * printer.h - the ring buffer's transitions written out, one line each,
 * every one of them or a reason why not.
 */
#ifndef HK_USER_PRINTER_H
#define HK_USER_PRINTER_H

#include <stdio.h>
#include "format.h"
#include "journal.h"
#include "lib/outfd.h"
#include "lib/ratelimit.h"
#include "linelimit.h"
#include "mem_blame_scope.h"
#include "oom_memcg.h"
#include "prometheus.h"

struct hk_printer {
	FILE *out;
	int json;
	struct hk_format_ctx fmt;
	char *line;			/* HK_FORMAT_LINE_MAX bytes */
	__u64 events;			/* lines written */
	__u64 cgroups_cut;		/* paths cut to HK_FORMAT_PATH_MAX */
	__u64 lines_lost;		/* not written: output failed or stalled */
	__u64 lines_stalled;		/* ... of which dropped: nobody read */
	int write_errno;		/* the first write error, then no more */
	int use_outfd;			/* lines go through outfd, not out */
	struct hk_outfd outfd;		/* out's fd, written without blocking */
	struct hk_ratelimit stall;	/* "stdout is not read", said seldom */
	struct hk_oom_memcgs oom_memcgs; /* OOM kills' memory cgroups, kept */
	/* a stall transition's growers (procs_fd: the run's hk_procs; unset,
	 * none are sought) */
	struct hk_mem_blame_ctx blame;
	struct hk_linelimit limit;	/* lines per user, bounded */
	__u64 oom_kills_delegated;	/* in memory cgroups a user owns */
	int syslog_prefix;		/* "<N>" before each line: the journal */
	struct hk_journal journal;	/* each line as an entry with fields too */
	struct hk_prom *prom;		/* --prometheus: told every transition */
	int prom_changed;		/* ... and one came since the last write */
	/* told every transition once it is written: what the tool does
	 * about it (act.c: freeze, profile) */
	void (*on_transition)(void *act, const struct hk_event *e);
	void *act;
};

/*
 * Whether fd is the journal's stream: systemd sets JOURNAL_STREAM to the
 * "device:inode" of the stdout/stderr it connected to the journal.
 * journal_stream is that variable's value, NULL when unset.
 */
int hk_printer__is_journal(int fd, const char *journal_stream);

/*
 * One line of the tool's own (a profile written, a cgroup frozen), n bytes
 * ending in a newline, at a syslog priority, of kind (its MESSAGE_ID in the
 * journal): 0 (also when it was dropped
 * because nobody reads the output: counted, and said), or -1 when the
 * output failed (counted, and said at exit, as for transitions).
 */
int hk_printer__write(struct hk_printer *p, enum hk_jmsg kind, int priority, const char *line,
		      size_t n);

/* 0, or -1 (out of memory). */
int hk_printer__init(struct hk_printer *p, FILE *out, int json, int utc, int color);
/* The same on stdout, as run and follow print: in colour on a terminal
 * unless NO_COLOR or TERM=dumb says not, never in JSON; with syslog
 * priority prefixes when stdout is the journal. 0, or -1 (ENOMEM). */
int hk_printer__init_stdout(struct hk_printer *p, int json, int utc);

/* Lines as journal entries too, as mode says (hk_journal__start), and
 * stderr's lines of a kind (log.h's hk_log__kind) until hk_printer__free:
 * 0, or -1 with errno when HK_JOURNAL_ON and the socket refuses. */
int hk_printer__journal(struct hk_printer *p, enum hk_journal_mode mode, const char *path);

/*
 * From now on, lines go out through out's fd without blocking for long
 * (outfd.h): a reader that stops reading costs a line a bounded wait, then
 * lines are dropped whole, counted in lines_lost, and said on stderr (once,
 * once a minute while it lasts, and when it ends). For a loop that must
 * not hang on its output. 0, or -1 with errno.
 */
int hk_printer__unblock(struct hk_printer *p);

/* Write what is left of a line begun, without waiting: called when the
 * loop wakes up, so that a reader back at work gets it soon. */
void hk_printer__flush(struct hk_printer *p);
void hk_printer__free(struct hk_printer *p);

/*
 * A ring_buffer_sample_fn. Returns 0, or -EIO once a write failed (which
 * stops the ring buffer's consume): p->write_errno says why.
 */
int hk_printer__event(void *ctx, void *data, size_t size);

#endif /* HK_USER_PRINTER_H */
