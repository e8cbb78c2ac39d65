/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * json_check.h - a strict RFC 8259 checker for one JSON object on one line,
 * written apart from user/output/json.c, that also hands back the top-level
 * members so that a target can check what they say.
 */
#ifndef HK_TESTS_COMMON_JSON_CHECK_H
#define HK_TESTS_COMMON_JSON_CHECK_H

#include <stddef.h>

#define TC_JSON_MAX_MEMBERS 96

/* A member of the top-level object, as raw text (key without its quotes). */
struct tc_json_member {
	const char *key;
	size_t key_len;
	const char *val;
	size_t val_len;
};

struct tc_json_obj {
	struct tc_json_member m[TC_JSON_MAX_MEMBERS];
	size_t n;
};

/*
 * Why s[0..n) is not one JSON object followed by '\n', or NULL when it is.
 * Strict: strings valid UTF-8 with no raw control characters, escapes only
 * as the RFC lists them, \u surrogates in pairs, numbers without leading
 * zeros or a bare '.', no duplicate keys at the top. *at gets the offset of
 * the problem; top gets the top-level members.
 */
const char *tc_json_line_bad(const char *s, size_t n, struct tc_json_obj *top,
			     size_t *at);

/* The raw value text of key at the top, or NULL; *len gets its length. */
const char *tc_json_get(const struct tc_json_obj *o, const char *key, size_t *len);

/* Whether the raw value text v (len bytes) is exactly want. */
int tc_json_is(const char *v, size_t len, const char *want);

#endif /* HK_TESTS_COMMON_JSON_CHECK_H */
