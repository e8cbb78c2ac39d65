/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * outbuf.h - a bounded writer: every append either fits (leaving room for
 * the NUL) or marks the output failed, and nothing is ever written at or
 * past len.
 */
#ifndef HK_USER_OUTBUF_H
#define HK_USER_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>

struct hk_out {
	char *buf;
	size_t len;
	size_t pos;
	bool full;
};

void hk_out__init(struct hk_out *o, char *buf, size_t len);
void hk_out__mem(struct hk_out *o, const void *p, size_t n);
void hk_out__str(struct hk_out *o, const char *s);
void hk_out__chars(struct hk_out *o, char c, size_t n);
void hk_out__printf(struct hk_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * NUL-terminate and return the length. A failed output is left as an empty
 * string rather than a truncated line, which could be invalid JSON or end
 * in the middle of a UTF-8 sequence: -1.
 */
int hk_out__finish(struct hk_out *o);

#endif /* HK_USER_OUTBUF_H */
