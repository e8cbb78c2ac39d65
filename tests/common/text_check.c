// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * text_check.c - strict UTF-8 and terminal safety, checked independently
 * of the code under test.
 */
#include <stdio.h>
#include <string.h>
#include "text_check.h"

size_t tc_utf8_seq(const unsigned char *s, size_t n, __u32 *cp)
{
	/* the second byte's range depends on the first (table 3-7) */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;
	__u32 c;

	if (!n)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		c = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong below U+0800 */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		c = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong below U+10000 */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	*cp = c;
	return need;
}

bool tc_utf8_valid(const char *s, size_t n, size_t *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	__u32 cp;

	while (i < n) {
		k = tc_utf8_seq(p + i, n - i, &cp);
		if (!k) {
			*bad = i;
			return false;
		}
		i += k;
	}
	return true;
}

bool tc_is_control(__u32 cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

bool tc_is_bidi(__u32 cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of "\033[" digits and ';' "m" at s, 0 if it is not one. */
static size_t sgr_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 3 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

const char *tc_term_unsafe(const char *s, size_t n, bool sgr, size_t *at)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	__u32 cp;

	while (i < n) {
		k = tc_utf8_seq(p + i, n - i, &cp);
		if (!k) {
			*at = i;
			return "not UTF-8";
		}
		if (cp == '\033' && sgr && (k = sgr_len(s + i, n - i))) {
			i += k;
			continue;
		}
		if (tc_is_control(cp) && !(cp == '\n' && i == n - 1)) {
			*at = i;
			return "control character";
		}
		if (tc_is_bidi(cp)) {
			*at = i;
			return "bidi control";
		}
		i += k;
	}
	return NULL;
}

const char *tc_line_bad(const char *buf, int ret)
{
	size_t n;

	if (ret <= 0)
		return "no line";
	n = (size_t)ret;
	if (buf[n] != '\0')
		return "no NUL at the returned length";
	if (strlen(buf) != n)
		return "a NUL before the returned length";
	if (buf[n - 1] != '\n')
		return "does not end with '\\n'";
	if (memchr(buf, '\n', n - 1))
		return "a '\\n' before the end";
	return NULL;
}
