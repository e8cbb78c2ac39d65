/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * msg.h - one-line error messages that quote user text safely.
 */
#ifndef HK_USER_MSG_H
#define HK_USER_MSG_H

#include <stddef.h>

/* User text quoted in a message is cut to this many bytes. */
#define HK_QUOTE_LEN	48
/* A buffer for hk_msg__quote(): the text, each byte escaped (\xHH),
 * "..." and the NUL. */
#define HK_QUOTE_BUF	(4 * HK_QUOTE_LEN + 4)

/* Write one message into buf (when there is one) and return -1. */
int hk_msg__fail(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * s cut to HK_QUOTE_LEN bytes at a character boundary ("..." added), made
 * safe for a terminal as the human line makes process names (escape.h:
 * controls, bidi and invisible characters as \xHH, '\\' doubled), so that
 * a message quoting it stays one harmless line.
 */
const char *hk_msg__quote(char *buf, size_t len, const char *s);

#endif /* HK_USER_MSG_H */
