// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * msg.c - one-line error messages that quote user text safely.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "msg.h"

int hk_msg__fail(char *buf, size_t len, const char *fmt, ...)
{
	char *text = NULL;
	size_t n;
	va_list ap;

	if (!buf || !len)
		return -1;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text) {
		snprintf(buf, len, "out of memory");
		return -1;
	}
	/* cut to fit, but never inside a character: a message stays UTF-8 */
	n = strlen(text);
	if (n >= len) {
		n = len - 1;
		while (n && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, text, n);
	buf[n] = '\0';
	free(text);
	return -1;
}

const char *hk_msg__quote(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s), cut = n > HK_QUOTE_LEN ? HK_QUOTE_LEN : n;
	struct hk_out o;

	/* not inside a character: back to its first byte */
	while (cut < n && cut && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	hk_out__init(&o, buf, len);
	hk_out__term_text(&o, s, cut);
	if (cut < n)
		hk_out__str(&o, "...");
	if (hk_out__finish(&o) < 0 && len)
		snprintf(buf, len, "%s", len > 3 ? "..." : "");
	return buf;
}
