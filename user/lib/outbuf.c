// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * outbuf.c - a bounded writer (see outbuf.h).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "outbuf.h"

void hk_out__init(struct hk_out *o, char *buf, size_t len)
{
	o->buf = buf;
	o->len = buf ? len : 0;
	o->pos = 0;
	o->full = !o->len;
}

void hk_out__mem(struct hk_out *o, const void *p, size_t n)
{
	if (o->full)
		return;
	if (n >= o->len - o->pos) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->pos, p, n);
	o->pos += (size_t)n;
}

void hk_out__str(struct hk_out *o, const char *s)
{
	hk_out__mem(o, s, strlen(s));
}

void hk_out__chars(struct hk_out *o, char c, size_t n)
{
	while (n--)
		hk_out__mem(o, &c, 1);
}

__attribute__((format(printf, 2, 3)))
void hk_out__printf(struct hk_out *o, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (o->full)
		return;
	room = o->len - o->pos;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		o->full = true;
		return;
	}
	o->pos += (size_t)n;
}

int hk_out__finish(struct hk_out *o)
{
	if (o->full || o->pos > INT_MAX) {
		if (o->len)
			o->buf[0] = '\0';
		return -1;
	}
	o->buf[o->pos] = '\0';
	return (int)o->pos;
}
