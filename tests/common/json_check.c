// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * json_check.c - a strict JSON checker: recursive descent over a bounded
 * buffer, the first error wins.
 */
#include <stdbool.h>
#include <string.h>
#include "json_check.h"
#include "text_check.h"

/* Deeper than this is not what a formatter writes: refuse, not recurse. */
#define MAX_DEPTH 32

struct jp {
	const char *s, *p, *end;
	const char *why;		/* the first error */
	const char *at;
	int depth;
	struct tc_json_obj *top;
};

static bool fail(struct jp *j, const char *why)
{
	if (!j->why) {
		j->why = why;
		j->at = j->p;
	}
	return false;
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

static bool lit(struct jp *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n))
		return fail(j, "bad literal");
	j->p += n;
	return true;
}

static bool digits(struct jp *j)
{
	const char *start = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number(struct jp *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (j->p >= j->end || *j->p < '1' || *j->p > '9' || !digits(j))
		return fail(j, "bad number");
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!digits(j))
			return fail(j, "no digits after '.'");
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!digits(j))
			return fail(j, "no digits in the exponent");
	}
	return true;
}

static int hex4(const char *p, const char *end)
{
	int v = 0, i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A \u escape at p (after the backslash), a surrogate pair taken whole. */
static bool u_escape(struct jp *j)
{
	int v = hex4(j->p + 1, j->end), lo;

	if (v < 0)
		return fail(j, "bad \\u escape");
	j->p += 5;
	if (v >= 0xdc00 && v <= 0xdfff)
		return fail(j, "lone low surrogate");
	if (v < 0xd800 || v > 0xdbff)
		return true;
	if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
	    (lo = hex4(j->p + 2, j->end)) < 0xdc00 || lo > 0xdfff)
		return fail(j, "high surrogate without a low one");
	j->p += 6;
	return true;
}

static bool string(struct jp *j)
{
	const unsigned char *u;
	size_t k;
	__u32 cp;

	j->p++;			/* the opening quote */
	while (j->p < j->end) {
		u = (const unsigned char *)j->p;
		if (*u == '"') {
			j->p++;
			return true;
		}
		if (*u < 0x20)
			return fail(j, "raw control character in a string");
		if (*u == '\\') {
			if (j->end - j->p < 2)
				break;
			if (j->p[1] == 'u') {
				j->p++;
				if (!u_escape(j))
					return false;
				continue;
			}
			if (!j->p[1] || !strchr("\"\\/bfnrt", j->p[1]))
				return fail(j, "bad escape");
			j->p += 2;
			continue;
		}
		k = tc_utf8_seq(u, (size_t)(j->end - j->p), &cp);
		if (!k)
			return fail(j, "not UTF-8 in a string");
		j->p += k;
	}
	return fail(j, "unterminated string");
}

static bool value(struct jp *j);

/* The members of an object or the elements of an array, after the '{'/'['. */
static bool members(struct jp *j, char close, bool keyed)
{
	bool top = keyed && j->depth == 1 && j->top;
	const char *key = NULL, *val;
	struct tc_json_member *m;
	size_t key_len = 0, i;

	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		ws(j);
		if (keyed) {
			if (j->p >= j->end || *j->p != '"')
				return fail(j, "expected a key");
			key = j->p + 1;
			if (!string(j))
				return false;
			key_len = (size_t)(j->p - 1 - key);
			ws(j);
			if (j->p >= j->end || *j->p != ':')
				return fail(j, "expected ':'");
			j->p++;
		}
		ws(j);
		val = j->p;
		if (!value(j))
			return false;
		if (top) {
			if (j->top->n == TC_JSON_MAX_MEMBERS)
				return fail(j, "too many members");
			m = &j->top->m[j->top->n];
			m->key = key;
			m->key_len = key_len;
			m->val = val;
			m->val_len = (size_t)(j->p - val);
			/* value() took the blanks after it too */
			while (m->val_len && (val[m->val_len - 1] == ' ' ||
					      val[m->val_len - 1] == '\t' ||
					      val[m->val_len - 1] == '\r' ||
					      val[m->val_len - 1] == '\n'))
				m->val_len--;
			for (i = 0; i < j->top->n; i++)
				if (j->top->m[i].key_len == m->key_len &&
				    !memcmp(j->top->m[i].key, key, m->key_len))
					return fail(j, "duplicate key");
			j->top->n++;
		}
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			ws(j);
			if (j->p < j->end && *j->p == close)
				return fail(j, "trailing ','");
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return true;
		}
		return fail(j, keyed ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool value(struct jp *j)
{
	bool ok;

	ws(j);
	if (j->p >= j->end)
		return fail(j, "value expected");
	if (++j->depth > MAX_DEPTH)
		return fail(j, "too deep");
	switch (*j->p) {
	case '{':
		ok = members(j, '}', true);
		break;
	case '[':
		ok = members(j, ']', false);
		break;
	case '"':
		ok = string(j);
		break;
	case 't':
		ok = lit(j, "true");
		break;
	case 'f':
		ok = lit(j, "false");
		break;
	case 'n':
		ok = lit(j, "null");
		break;
	default:
		ok = number(j);
		break;
	}
	j->depth--;
	ws(j);
	return ok;
}

const char *tc_json_line_bad(const char *s, size_t n, struct tc_json_obj *top,
			     size_t *at)
{
	struct jp j = { .s = s, .p = s, .end = s + n, .top = top };

	top->n = 0;
	*at = 0;
	if (!n || s[n - 1] != '\n')
		return "does not end with '\\n'";
	if (s[0] != '{')
		return "not an object";
	/* the line's own '\n' is whitespace after the value: check it alone */
	j.end = s + n - 1;
	if (value(&j) && j.p != j.end)
		fail(&j, "text after the object");
	if (j.why)
		*at = (size_t)(j.at - s);
	return j.why;
}

const char *tc_json_get(const struct tc_json_obj *o, const char *key, size_t *len)
{
	size_t i, n = strlen(key);

	for (i = 0; i < o->n; i++) {
		if (o->m[i].key_len == n && !memcmp(o->m[i].key, key, n)) {
			*len = o->m[i].val_len;
			return o->m[i].val;
		}
	}
	return NULL;
}

int tc_json_is(const char *v, size_t len, const char *want)
{
	return v && strlen(want) == len && !memcmp(v, want, len);
}
