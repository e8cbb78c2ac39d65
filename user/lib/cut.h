/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cut.h - escaped hostile text (a cgroup path a delegated user named, any
 * bytes at all) cut to a byte budget, so that no output line grows with
 * what a user can make: the JSON line stays under journald's LineMax,
 * a Prometheus label under its cap. A cut value ends with "…" and a hash
 * of the whole, so that two long paths stay two values.
 */
#ifndef HK_USER_CUT_H
#define HK_USER_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "outbuf.h"

/* What a cut value ends with: "…" (3 bytes) and 8 hex digits. */
#define HK_CUT_MARK_LEN (3 + 8)

/* FNV-1a of s: short, stable from one run to the next (not a secret: a
 * user can make two of their own paths collide). */
__u32 hk_cut__hash(const char *s, size_t n);

/*
 * escaped (len bytes: valid UTF-8 and the escapes this tree writes, \uXXXX,
 * \xHH and a backslash before one character) into o: whole when len <=
 * max, else its first whole characters and escapes, then "…" and the hash
 * of raw (raw_n bytes, the text before escaping), max bytes at most
 * (max > HK_CUT_MARK_LEN). true when cut.
 */
bool hk_cut__write(struct hk_out *o, const char *escaped, size_t len, size_t max,
		   const char *raw, size_t raw_n);

#endif /* HK_USER_CUT_H */
