/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * escape.h - hostile text (comms, cgroup paths) made safe for a terminal
 * or for JSON. Both go through one strict UTF-8 decoder.
 */
#ifndef HK_USER_ESCAPE_H
#define HK_USER_ESCAPE_H

#include <stdbool.h>
#include <string.h>
#include "outbuf.h"
#include "shared/hotspot.h"

/* A comm array: up to HK_COMM_LEN bytes, NUL-terminated only if shorter. */
static inline size_t hk_comm__len(const char *comm)
{
	return strnlen(comm, HK_COMM_LEN);
}

/*
 * Length of the well-formed UTF-8 sequence at s (Unicode table 3-7: no
 * overlong forms, no surrogates, nothing above U+10FFFF) and its code point
 * in *cp, 0 if there is none. n (> 0) is how many bytes are left.
 */
size_t hk_utf8__seq(const unsigned char *s, size_t n, __u32 *cp);

/*
 * Whether cp changes how the text around it reads without being seen:
 * bidi controls (U+202E shows "gpj.exe" as "exe.jpg"), zero-width
 * characters, the BOM, the soft hyphen, the line and paragraph separators.
 */
bool hk_utf8__invisible(__u32 cp);

/*
 * Terminal-safe text: control characters, invisible ones (bidi controls,
 * zero-width characters) and bytes outside well-formed UTF-8 become \xHH
 * for each byte, a backslash becomes two, the rest is kept. Returns the
 * columns it takes.
 */
size_t hk_out__term_text(struct hk_out *o, const char *str, size_t n);

/*
 * A JSON string: valid UTF-8 is kept, control characters are \u00XX (as are
 * U+2028/U+2029, which break JavaScript parsers), and every byte outside
 * well-formed UTF-8 becomes \ufffd.
 */
void hk_out__json_str(struct hk_out *o, const char *str, size_t n);

#endif /* HK_USER_ESCAPE_H */
