// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cut.c - escaped hostile text cut to a byte budget, whole characters and
 * escapes kept, a hash of the whole at the end (cut.h).
 */
#include "cut.h"

__u32 hk_cut__hash(const char *s, size_t n)
{
	__u32 h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Bytes of the escape or UTF-8 character that starts at v (valid UTF-8). */
static size_t token_len(const char *v)
{
	unsigned char c = (unsigned char)*v;

	if (c == '\\')
		return v[1] == 'u' ? 6 : v[1] == 'x' ? 4 : 2;
	return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

bool hk_cut__write(struct hk_out *o, const char *escaped, size_t len, size_t max,
		   const char *raw, size_t raw_n)
{
	size_t keep = 0, tok;

	if (len <= max) {
		hk_out__mem(o, escaped, len);
		return false;
	}
	while (keep < len && (tok = token_len(escaped + keep)) <= max - HK_CUT_MARK_LEN - keep)
		keep += tok;
	hk_out__mem(o, escaped, keep);
	hk_out__printf(o, "\xe2\x80\xa6%08x", hk_cut__hash(raw, raw_n));
	return true;
}
