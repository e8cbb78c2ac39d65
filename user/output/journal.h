/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * journal.h - each line also as a native journal entry, with fields a log
 * pipeline selects on (HOTSPOT_K_LABEL=oom_risk, MESSAGE_ID=...) beside
 * the line itself (MESSAGE), sent over the journal's datagram socket
 * without libsystemd (the binary stays static): journal_ids.c names the
 * event kinds, journal_event.c fills an entry, journal_send.c sends it.
 *
 * A send never waits: a journald that does not read (its socket full) or
 * is gone costs a failed sendto(), counted, said on stderr once a minute
 * at most while it lasts, and the line still goes to stdout (where, under
 * the unit, the journal's stream takes it with its priority).
 */
#ifndef HK_USER_JOURNAL_H
#define HK_USER_JOURNAL_H

#include <stddef.h>
#include <linux/types.h>
#include "journal_entry.h"
#include "lib/ratelimit.h"
#include "lib/workload.h"
#include "shared/hotspot.h"

/* where journald listens for native entries (systemd-journald.socket);
 * a service in a LogNamespace= finds its namespace's socket here too */
#define HK_JOURNAL_SOCKET	"/run/systemd/journal/socket"
#define HK_JOURNAL_IDENTIFIER	"hotspot-k"

/* One MESSAGE_ID each (journal_ids.c; dist/hotspot-k.catalog explains
 * each). The first HK_NR_LABELS are transitions into that label. */
enum hk_jmsg {
	/* HK_OK .. HK_EXITED: a transition into that label */
	HK_JMSG_OOM_KILL_FLAGGED = HK_NR_LABELS,	/* flagged OOM risk in time */
	HK_JMSG_OOM_KILL_MISSED,			/* not flagged */
	HK_JMSG_FREEZE,		/* --freeze-on-oom: a cgroup frozen, or not */
	HK_JMSG_THAW,		/* ... and its freeze's end */
	HK_JMSG_PROFILE,	/* --profile: started, written, failed */
	HK_JMSG_LINES_HELD,	/* a user's lines held back (linelimit.h) */
	HK_JMSG_START,		/* the tool's start lines (stderr) */
	HK_JMSG_SUMMARY,	/* its summary at exit (stderr) */
	HK_NR_JMSG,
};

/* The kind's MESSAGE_ID, 32 lower-case hex digits; NULL for
 * HK_JMSG_OOM_KILLED's own slot (a kill is flagged or missed) and past the
 * table. Its short name ("cpu_bound", "oom_kill_missed", "freeze"). */
const char *hk_jmsg__id(unsigned int kind);
const char *hk_jmsg__name(unsigned int kind);
/* The kind of transition e. */
enum hk_jmsg hk_jmsg__of_event(const struct hk_event *e);

/* Who an event's process is, as the printer found it (NULLs: unknown). */
struct hk_journal_who {
	const char *cgroup;
	const struct hk_workload *workload;
	const char *oom_memcg;	/* an OOM kill's memory cgroup, as worded */
};

/*
 * The entry of transition e, its line msg (n bytes, no newline) at
 * priority: MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, MESSAGE_ID, then
 * HOTSPOT_K_* (the JSON line's keys upper-cased; a JSON null is a field
 * left out). Into j.
 */
void hk_journal__event_entry(struct hk_jentry *j, const struct hk_event *e, const char *msg,
			     size_t n, int priority, const struct hk_journal_who *who);
/* The entry of one of the tool's own lines (kind: a freeze, a profile). */
void hk_journal__line_entry(struct hk_jentry *j, enum hk_jmsg kind, const char *msg, size_t n,
			    int priority);

/* Whether each line also goes to the journal's native socket as an entry
 * with fields */
enum hk_journal_mode {
	HK_JOURNAL_AUTO,	/* when stdout is the journal and the socket
				 * takes entries */
	HK_JOURNAL_OFF,
	HK_JOURNAL_ON,		/* wherever stdout goes: it cannot fail */
};

struct hk_journal {
	int fd;			/* -1: no entries sent */
	int instead;		/* stdout is that journal: an entry sent
				 * replaces the stream line (the journal
				 * would hold each line twice) */
	char path[108];		/* sun_path */
	char *entry;		/* HK_JOURNAL_ENTRY_MAX bytes */
	char *msg;		/* HK_FORMAT_LINE_MAX: a line without colour */
	__u64 sent;
	__u64 full;		/* not sent: the socket was full (EAGAIN) */
	__u64 failed;		/* not sent: any other error */
	__u64 fields_left_out;
	int last_errno;
	struct hk_ratelimit unsent;	/* said seldom */
};

/* Nothing sent (fd -1): hk_journal__close is safe on it. */
void hk_journal__init(struct hk_journal *j);
/*
 * Send entries to the socket at path from now on: 0, or -1 with errno
 * (the socket refuses a connection: no journald, not allowed) and j as
 * hk_journal__init left it.
 */
int hk_journal__open(struct hk_journal *j, const char *path);
/* One entry, without waiting: 0 sent, -1 not (counted, and said). */
int hk_journal__send(struct hk_journal *j, const char *entry, size_t n);
void hk_journal__close(struct hk_journal *j);

/*
 * Send entries to the socket at path (NULL: HK_JOURNAL_SOCKET) as mode
 * says (journal_line.c). When stdout is the journal, an entry sent is the
 * line (its stream line is not written too: j->instead). 0, or -1 with
 * errno when HK_JOURNAL_ON and the socket refuses; AUTO's refusal is said
 * on stderr, and lines go to the stream as before.
 */
int hk_journal__start(struct hk_journal *j, enum hk_journal_mode mode, const char *path,
		      int stdout_is_journal);

struct hk_format_ctx;

/*
 * Transition e's line (n bytes, as formatted with fmt: in JSON when json)
 * as an entry, sent; a coloured line formatted again without colour
 * (fmt's colour put back). 0 sent, -1 not (counted).
 */
int hk_journal__send_event(struct hk_journal *j, const struct hk_event *e, const char *line,
			   size_t n, int priority, const struct hk_journal_who *who,
			   struct hk_format_ctx *fmt, int json);
/* One of the tool's own lines (a freeze, a profile) as an entry, sent. */
int hk_journal__send_line(struct hk_journal *j, enum hk_jmsg kind, int priority,
			  const char *line, size_t n);
/*
 * The same for a line of stderr's (log.h's hk_log_send_fn; arg: the
 * struct hk_journal): in a buffer of its own, as the stop guard's thread
 * may say the summary while the loop is stuck in a send.
 */
int hk_journal__send_log(void *arg, int kind, int priority, const char *line, size_t n);

#endif /* HK_USER_JOURNAL_H */
