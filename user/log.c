// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * log.c - the tool's own messages on stderr, with their syslog priority
 * when stderr is the journal.
 */
#include <stdarg.h>
#include <stdio.h>
#include "log.h"

static int log_journal;

void hk_log__init(int journal)
{
	log_journal = journal;
}

void hk_log__print(enum hk_log_prio prio, const char *fmt, ...)
{
	va_list ap;

	if (log_journal)
		fprintf(stderr, "<%d>", prio);
	fputs("hotspot-k: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
