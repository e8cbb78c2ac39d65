/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * log.h - the tool's own messages on stderr, each with its syslog priority
 * when stderr is the journal, so that `journalctl -p err` shows a failed
 * reload and `-p warning` a timer taken for dead.
 */
#ifndef HK_USER_LOG_H
#define HK_USER_LOG_H

#include <stddef.h>

enum hk_log_prio {
	HK_LOG_ERR = 3,
	HK_LOG_WARNING = 4,
	HK_LOG_NOTICE = 5,
	HK_LOG_INFO = 6,
};

/* Whether stderr is the journal's stream ("<N>" then starts each line). */
void hk_log__init(int journal);

/* "hotspot-k: " and the message, one line (fmt ends with '\n'). */
void hk_log__print(enum hk_log_prio prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Where a line of a kind (hk_log__print_kind) goes besides stderr: the
 * journal's native socket (output/journal.h), the line given without its
 * "<N>". send returns 0 when it was sent: then, when stderr is the journal
 * (hk_log__init), the line is not written there too. NULL: nowhere.
 */
typedef int hk_log_send_fn(void *arg, int kind, int priority, const char *line, size_t n);
void hk_log__set_send(hk_log_send_fn *send, void *arg);

/* The kind of this thread's next lines (the tool's start, its summary:
 * their MESSAGE_ID), -1 (the default): stderr's alone. */
void hk_log__kind(int kind);

#endif /* HK_USER_LOG_H */
