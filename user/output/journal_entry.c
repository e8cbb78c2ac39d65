// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * journal_entry.c - one entry in the journal's native protocol, bounded
 * and binary-safe (journal_entry.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "journal_entry.h"
#include "lib/cut.h"

void hk_jentry__init(struct hk_jentry *j, char *buf, size_t cap)
{
	j->buf = buf;
	j->cap = cap;
	j->len = 0;
	j->left_out = 0;
}

/* journald's own rule (journal_field_valid): anything else is dropped
 * there, silently; here it is counted */
static int name_ok(const char *name)
{
	size_t i;

	if (!name[0] || name[0] == '_' || (name[0] >= '0' && name[0] <= '9'))
		return 0;
	for (i = 0; name[i]; i++)
		if (i >= 64 || !((name[i] >= 'A' && name[i] <= 'Z') ||
				 (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return 0;
	return 1;
}

void hk_jentry__add(struct hk_jentry *j, const char *name, const char *value, size_t n)
{
	size_t nlen = strlen(name), need;
	int binary = memchr(value, '\n', n) != NULL;
	unsigned char le[8];
	char *p;
	int i;

	/* NAME=value\n, or NAME\n + 8 bytes of length + value + \n */
	need = nlen + 1 + n + 1 + (binary ? 8 : 0);
	if (!name_ok(name) || need > j->cap - j->len) {
		j->left_out++;
		return;
	}
	p = j->buf + j->len;
	memcpy(p, name, nlen);
	p += nlen;
	if (binary) {
		*p++ = '\n';
		for (i = 0; i < 8; i++)
			le[i] = (unsigned char)((__u64)n >> (8 * i));
		memcpy(p, le, 8);
		p += 8;
	} else {
		*p++ = '=';
	}
	memcpy(p, value, n);
	p += n;
	*p++ = '\n';
	j->len = (size_t)(p - j->buf);
}

void hk_jentry__addf(struct hk_jentry *j, const char *name, const char *fmt, ...)
{
	char v[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(v)) {
		j->left_out++;
		return;
	}
	hk_jentry__add(j, name, v, (size_t)n);
}

int hk_jentry__add_text(struct hk_jentry *j, const char *name, const char *value, size_t n,
			size_t max)
{
	char cut[HK_JOURNAL_TEXT_MAX + 1];
	size_t keep;

	if (n <= max) {
		hk_jentry__add(j, name, value, n);
		return 0;
	}
	if (max > HK_JOURNAL_TEXT_MAX || max <= HK_CUT_MARK_LEN) {
		j->left_out++;
		return 1;
	}
	/* back to a character's first byte: no half character before "…" */
	keep = max - HK_CUT_MARK_LEN;
	while (keep && ((unsigned char)value[keep] & 0xc0) == 0x80)
		keep--;
	memcpy(cut, value, keep);
	snprintf(cut + keep, sizeof(cut) - keep, "\xe2\x80\xa6%08x", hk_cut__hash(value, n));
	hk_jentry__add(j, name, cut, keep + HK_CUT_MARK_LEN);
	return 1;
}
