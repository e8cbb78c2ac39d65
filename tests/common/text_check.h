/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * text_check.h - what a line must be, byte by byte, whoever wrote it:
 * strict UTF-8, and on a terminal nothing that drives it or reorders it.
 * Written apart from user/lib/escape.c, so that the two do not share a bug.
 */
#ifndef HK_TESTS_COMMON_TEXT_CHECK_H
#define HK_TESTS_COMMON_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/*
 * Length of the well-formed UTF-8 sequence at s (n bytes left) and its code
 * point, 0 if there is none (Unicode table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF).
 */
size_t tc_utf8_seq(const unsigned char *s, size_t n, __u32 *cp);

/* Whether s[0..n) is well-formed UTF-8; *bad gets the offset where not. */
bool tc_utf8_valid(const char *s, size_t n, size_t *bad);

/* C0, DEL and C1. */
bool tc_is_control(__u32 cp);

/* U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069. */
bool tc_is_bidi(__u32 cp);

/*
 * Why s[0..n), valid UTF-8, is not safe to print on a terminal, or NULL:
 * a control character (the final '\n' and, when sgr, "\033[...m" allowed)
 * or a bidi control. *at gets the offset.
 */
const char *tc_term_unsafe(const char *s, size_t n, bool sgr, size_t *at);

/*
 * Why buf is not one line of n bytes (ret): NUL at n, one '\n' and that
 * at the end; NULL when it is.
 */
const char *tc_line_bad(const char *buf, int ret);

#endif /* HK_TESTS_COMMON_TEXT_CHECK_H */
