/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * format_check.h - what both formatters owe whatever the event: a whole
 * line in a HK_FORMAT_LINE_MAX buffer, and in a smaller one either the
 * same line or -1 and an empty string, never a byte past the end.
 */
#ifndef HK_TESTS_FUZZ_FORMAT_CHECK_H
#define HK_TESTS_FUZZ_FORMAT_CHECK_H

#include "event_input.h"

typedef int (*fz_format_fn)(char *buf, size_t len, const struct hk_event *e,
			    const char *cgroup, const struct hk_format_ctx *ctx);

/*
 * Format fe into a buffer of exactly HK_FORMAT_LINE_MAX bytes (its own
 * allocation: ASan sees a byte past it) and check it is one line; returns
 * the line, valid until the next call. *n gets its length.
 */
const char *fz_format__line(fz_format_fn fn, const struct fz_event *fe, size_t *n);

/*
 * Format fe again with buffers of every length from 0 to n + 1 (or of a
 * sample of them, see format_check.c), each followed by canary bytes: too
 * small gives -1 and "", large enough gives the line; nothing past len
 * changes. And with no buffer at all (NULL, 0): -1.
 */
void fz_format__sweep(fz_format_fn fn, const struct fz_event *fe,
		      const char *line, size_t n);

#endif /* HK_TESTS_FUZZ_FORMAT_CHECK_H */
