// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * printer_journal.c - the printer's lines as journal entries with fields
 * (journal.h): when, and what MESSAGE holds.
 *
 * MESSAGE is the line as stdout has it, its newline left out (as journald
 * leaves it out of a stream's line), and without colour: a terminal's line
 * is formatted again for the journal.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "lib/log.h"
#include "printer.h"

int hk_printer__journal(struct hk_printer *p, enum hk_journal_mode mode, const char *path)
{
	if (!path)
		path = HK_JOURNAL_SOCKET;
	if (mode == HK_JOURNAL_OFF || (mode == HK_JOURNAL_AUTO && !p->syslog_prefix))
		return 0;
	if (hk_journal__open(&p->journal, path)) {
		if (mode == HK_JOURNAL_ON)
			return -1;
		hk_log__print(HK_LOG_NOTICE, "the journal's socket %s: %s: lines go to the "
			      "journal's stream, without fields (--journal-socket names "
			      "another)\n", path, strerror(errno));
		return 0;
	}
	p->journal.instead = p->syslog_prefix;
	return 0;
}

/* n bytes of line, its newline left out */
static size_t msg_len(const char *line, size_t n)
{
	return n && line[n - 1] == '\n' ? n - 1 : n;
}

static int send_entry(struct hk_printer *p, const struct hk_jentry *j)
{
	p->journal.fields_left_out += j->left_out;
	return hk_journal__send(&p->journal, j->buf, j->len);
}

int hk_printer__journal_event(struct hk_printer *p, const struct hk_event *e,
			      const char *cgroup, const struct hk_workload *wl, size_t n,
			      int priority)
{
	struct hk_journal_who who = { cgroup, wl, p->fmt.oom_memcg };
	const char *msg = p->line;
	struct hk_jentry j;
	int m;

	/* a terminal's line has colour; the journal's has none */
	if (p->fmt.color && !p->json) {
		p->fmt.color = 0;
		m = hk_format__human(p->journal.msg, HK_FORMAT_LINE_MAX, e, NULL, &p->fmt);
		p->fmt.color = 1;
		if (m > 0) {
			msg = p->journal.msg;
			n = (size_t)m;
		}
	}
	hk_jentry__init(&j, p->journal.entry, HK_JOURNAL_ENTRY_MAX);
	hk_journal__event_entry(&j, e, msg, msg_len(msg, n), priority, &who);
	return send_entry(p, &j);
}

int hk_printer__journal_line(struct hk_printer *p, enum hk_jmsg kind, int priority,
			     const char *line, size_t n)
{
	struct hk_jentry j;

	hk_jentry__init(&j, p->journal.entry, HK_JOURNAL_ENTRY_MAX);
	hk_journal__line_entry(&j, kind, line, msg_len(line, n), priority);
	return send_entry(p, &j);
}
