/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * journal_entry.h - one entry in the journal's native protocol
 * (systemd.io/JOURNAL_NATIVE_PROTOCOL): fields NAME=value, each ending in a
 * newline, or, for a value that holds a newline, NAME, a newline, its
 * length as 64-bit little-endian, the bytes, a newline. Every value a user
 * can name (a comm, a unit, a cgroup path) may hold any byte: the length
 * form keeps it one field, so no value can end its field early and start
 * another. Values are bounded too (cut with a hash, as cut.h cuts a line's
 * paths), so that an entry always fits one datagram: no memfd needed.
 */
#ifndef HK_USER_JOURNAL_ENTRY_H
#define HK_USER_JOURNAL_ENTRY_H

#include <stddef.h>
#include <linux/types.h>

/*
 * The largest entry: a line (HK_FORMAT_LINE_MAX, 16 KiB) and ~60 short
 * fields fit with room to spare. One datagram of it is far under the
 * socket's send buffer (net.core.wmem_default, 208 KiB) and journald's
 * 8 MiB receive buffer: the memfd form for large entries is never needed.
 */
#define HK_JOURNAL_ENTRY_MAX	32768
/* A user's text as a field's value: at most this many bytes (cgroup
 * paths: HK_FORMAT_PATH_MAX, as in the JSON line) */
#define HK_JOURNAL_TEXT_MAX	1024

struct hk_jentry {
	char *buf;
	size_t cap;
	size_t len;
	unsigned int left_out;	/* fields that did not fit, or badly named */
};

void hk_jentry__init(struct hk_jentry *j, char *buf, size_t cap);

/*
 * NAME=value, value n bytes of anything (in the length form when it holds
 * a newline). name: [A-Z0-9_], not starting with '_' (journald's trusted
 * fields), 64 bytes at most; else, or when it does not fit, the field is
 * left out whole and counted in left_out.
 */
void hk_jentry__add(struct hk_jentry *j, const char *name, const char *value, size_t n);
void hk_jentry__addf(struct hk_jentry *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A user's text, n bytes of it: whole when n <= max, else its first bytes
 * to a UTF-8 character's start, then "…" and the FNV-1a hash of all n
 * (cut.h), max bytes in all (max > HK_CUT_MARK_LEN). 1 when cut.
 */
int hk_jentry__add_text(struct hk_jentry *j, const char *name, const char *value, size_t n,
			size_t max);

#endif /* HK_USER_JOURNAL_ENTRY_H */
