// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * journal_line.c - the printer's lines as journal entries with fields
 * (journal.h): when they are sent, and what MESSAGE holds.
 *
 * MESSAGE is the line as stdout has it, its newline left out (as journald
 * leaves it out of a stream's line), and without colour: a terminal's line
 * is formatted again for the journal.
 */
#include <errno.h>
#include <string.h>
#include "format.h"
#include "journal.h"
#include "lib/log.h"

int hk_journal__start(struct hk_journal *j, enum hk_journal_mode mode, const char *path,
		      int stdout_is_journal)
{
	if (!path)
		path = HK_JOURNAL_SOCKET;
	if (mode == HK_JOURNAL_OFF || (mode == HK_JOURNAL_AUTO && !stdout_is_journal))
		return 0;
	if (hk_journal__open(j, path)) {
		if (mode == HK_JOURNAL_ON)
			return -1;
		hk_log__print(HK_LOG_NOTICE, "the journal's socket %s: %s: lines go to the "
			      "journal's stream, without fields (--journal-socket names "
			      "another)\n", path, strerror(errno));
		return 0;
	}
	j->instead = stdout_is_journal;
	return 0;
}

/* n bytes of line, its newline left out */
static size_t msg_len(const char *line, size_t n)
{
	return n && line[n - 1] == '\n' ? n - 1 : n;
}

static int send_entry(struct hk_journal *jr, const struct hk_jentry *j)
{
	jr->fields_left_out += j->left_out;
	return hk_journal__send(jr, j->buf, j->len);
}

int hk_journal__send_event(struct hk_journal *jr, const struct hk_event *e, const char *line,
			   size_t n, int priority, const struct hk_journal_who *who,
			   struct hk_format_ctx *fmt, int json)
{
	struct hk_jentry j;
	int m;

	/* a terminal's line has colour; the journal's has none */
	if (fmt->color && !json) {
		fmt->color = 0;
		m = hk_format__human(jr->msg, HK_FORMAT_LINE_MAX, e, NULL, fmt);
		fmt->color = 1;
		if (m > 0) {
			line = jr->msg;
			n = (size_t)m;
		}
	}
	hk_jentry__init(&j, jr->entry, HK_JOURNAL_ENTRY_MAX);
	hk_journal__event_entry(&j, e, line, msg_len(line, n), priority, who);
	return send_entry(jr, &j);
}

int hk_journal__send_line(struct hk_journal *jr, enum hk_jmsg kind, int priority,
			  const char *line, size_t n)
{
	struct hk_jentry j;

	hk_jentry__init(&j, jr->entry, HK_JOURNAL_ENTRY_MAX);
	hk_journal__line_entry(&j, kind, line, msg_len(line, n), priority);
	return send_entry(jr, &j);
}

int hk_journal__send_log(void *arg, int kind, int priority, const char *line, size_t n)
{
	/* stderr's longest line (log.c) and the few fields of a line */
	char buf[16384 + 256];
	struct hk_jentry j;

	hk_jentry__init(&j, buf, sizeof(buf));
	hk_journal__line_entry(&j, (enum hk_jmsg)kind, line, msg_len(line, n), priority);
	return send_entry(arg, &j);
}
