// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * msg.c - one-line error messages that quote user text safely.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "msg.h"

int hk_msg__fail(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

const char *hk_msg__quote(char *buf, size_t len, const char *s)
{
	size_t i, n = strlen(s);

	if (n > HK_QUOTE_LEN)
		n = HK_QUOTE_LEN;
	if (n > len - 4)
		n = len - 4;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	if (s[i])
		strcpy(buf + i, "...");
	return buf;
}
