// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prom_check.c - the Prometheus text format 0.0.4, read strictly
 * (prometheus.io/docs/instrumenting/exposition_formats/).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prom_check.h"
#include "text_check.h"

#define NAME_MAX_LEN	200
#define LABELS_MAX	16

struct series {
	const char *s;			/* name and labels, as written */
	size_t n;
};

struct reader {
	char family[NAME_MAX_LEN + 1];	/* opened by the last HELP */
	bool typed;			/* ... and its TYPE seen */
	char **families;		/* every HELP so far */
	size_t nr_families;
	struct series *series;
	size_t nr_series, cap_series;
};

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the name at s: [a-zA-Z_:][a-zA-Z0-9_:]* (no ':' for labels). */
static size_t name_len(const char *s, size_t n, bool colon)
{
	size_t i = 0;

	while (i < n && (is_alpha(s[i]) || (colon && s[i] == ':') || (i && is_digit(s[i]))))
		i++;
	return i;
}

static size_t digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_digit(s[i]))
		i++;
	return i;
}

/* Length of the number at s (a Go float, as hotspot-k writes one), or 0. */
static size_t number_len(const char *s, size_t n)
{
	size_t i = 0, d;

	if (n >= 3 && !memcmp(s, "NaN", 3))
		return 3;
	if (n >= 4 && (!memcmp(s, "+Inf", 4) || !memcmp(s, "-Inf", 4)))
		return 4;
	if (i < n && s[i] == '-')
		i++;
	d = digits(s + i, n - i);
	if (!d)
		return 0;
	i += d;
	if (i < n && s[i] == '.') {
		d = digits(s + i + 1, n - i - 1);
		if (!d)
			return 0;
		i += 1 + d;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = digits(s + i, n - i);
		if (!d)
			return 0;
		i += d;
	}
	return i;
}

/*
 * Why the escaped text at s is not valid up to the byte stop (a '"' for a
 * label value, the end of the line for a docstring), or NULL; *len gets
 * where stop is. Escapes: \\ and \n, and \" in a label value.
 */
static const char *text_bad(const char *s, size_t n, char stop, size_t *len)
{
	size_t i = 0, k;
	__u32 cp;

	while (i < n && s[i] != stop) {
		if (s[i] == '\\') {
			if (i + 1 >= n || !(s[i + 1] == '\\' || s[i + 1] == 'n' ||
					    (stop == '"' && s[i + 1] == '"')))
				return "an escape other than \\\\, \\\" or \\n";
			i += 2;
			continue;
		}
		k = tc_utf8_seq((const unsigned char *)s + i, n - i, &cp);
		if (!k)
			return "not UTF-8";
		if (tc_is_control(cp))
			return "a control character";
		if (tc_is_bidi(cp))
			return "a bidi control";
		i += k;
	}
	if (stop && i == n)
		return "an unterminated label value";
	*len = i;
	return NULL;
}

static const char *help_line(struct reader *r, const char *s, size_t n)
{
	size_t k = name_len(s, n, true), len, i;
	char **f;
	const char *why;

	if (!k || k > NAME_MAX_LEN || k == n || s[k] != ' ')
		return "HELP: a bad metric name";
	if (r->family[0] && !r->typed)
		return "a HELP without its TYPE";
	for (i = 0; i < r->nr_families; i++)
		if (strlen(r->families[i]) == k && !memcmp(r->families[i], s, k))
			return "a family opened twice";
	why = text_bad(s + k + 1, n - k - 1, 0, &len);
	if (why)
		return why;
	if (!len)
		return "HELP: no docstring";
	f = realloc(r->families, (r->nr_families + 1) * sizeof(*f));
	if (!f)
		return "out of memory";
	r->families = f;
	f[r->nr_families] = strndup(s, k);
	if (!f[r->nr_families])
		return "out of memory";
	r->nr_families++;
	memcpy(r->family, s, k);
	r->family[k] = '\0';
	r->typed = false;
	return NULL;
}

static bool ends_total(const char *s)
{
	size_t n = strlen(s);

	return n > 6 && !strcmp(s + n - 6, "_total");
}

static const char *type_line(struct reader *r, const char *s, size_t n)
{
	size_t k = strlen(r->family);
	const char *type = s + k + 1;
	size_t tn = n - k - 1;

	if (!r->family[0] || r->typed || n <= k || memcmp(s, r->family, k) || s[k] != ' ')
		return "a TYPE not right after the HELP of its family";
	if (tn == 7 && !memcmp(type, "counter", 7)) {
		if (!ends_total(r->family))
			return "a counter not named _total";
	} else if ((tn == 5 && !memcmp(type, "gauge", 5)) ||
		   (tn == 7 && !memcmp(type, "untyped", 7))) {
		if (ends_total(r->family))
			return "a _total that is not a counter";
	} else {
		return "TYPE: not counter, gauge or untyped";
	}
	r->typed = true;
	return NULL;
}

static const char *labels_bad(const char *s, size_t n, size_t *len)
{
	const char *names[LABELS_MAX];
	size_t lens[LABELS_MAX], nr = 0, i = 1, k, v, j;
	const char *why;

	for (;;) {
		k = name_len(s + i, n - i, false);
		if (!k)
			return "a bad label name";
		if (k >= 2 && s[i] == '_' && s[i + 1] == '_')
			return "a reserved label name (__)";
		for (j = 0; j < nr; j++)
			if (lens[j] == k && !memcmp(names[j], s + i, k))
				return "a label twice in a series";
		if (nr == LABELS_MAX)
			return "too many labels";
		names[nr] = s + i;
		lens[nr++] = k;
		i += k;
		if (i + 1 >= n || s[i] != '=' || s[i + 1] != '"')
			return "a label without =\"";
		i += 2;
		why = text_bad(s + i, n - i, '"', &v);
		if (why)
			return why;
		i += v + 1;
		if (i < n && s[i] == '}') {
			*len = i + 1;
			return NULL;
		}
		/* no trailing comma: one is allowed, hotspot-k writes none */
		if (i >= n || s[i] != ',')
			return "labels not separated by ','";
		i++;
	}
}

static const char *sample_line(struct reader *r, const char *s, size_t n)
{
	size_t k = name_len(s, n, true), len, v;
	struct series *ser;
	const char *why;

	if (!k)
		return "a bad metric name";
	if (!r->family[0] || strlen(r->family) != k || memcmp(s, r->family, k))
		return "a sample outside its family (no HELP, or interleaved)";
	if (!r->typed)
		return "a sample before its TYPE";
	len = k;
	if (k < n && s[k] == '{') {
		why = labels_bad(s + k, n - k, &len);
		if (why)
			return why;
		len += k;
	}
	if (len >= n || s[len] != ' ')
		return "no space before the value";
	v = number_len(s + len + 1, n - len - 1);
	if (!v)
		return "a value that is not a number";
	v += len + 1;
	if (v < n) {
		/* a timestamp: milliseconds, an integer */
		if (s[v] != ' ' || digits(s + v + 1, n - v - 1) != n - v - 1 || v + 1 == n)
			return "junk after the value";
	}
	if (r->nr_series == r->cap_series) {
		r->cap_series = r->cap_series ? 2 * r->cap_series : 256;
		ser = realloc(r->series, r->cap_series * sizeof(*ser));
		if (!ser)
			return "out of memory";
		r->series = ser;
	}
	r->series[r->nr_series++] = (struct series){ s, len };
	return NULL;
}

static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

static char why_buf[256];

const char *pc_check(const char *text)
{
	struct reader r = { 0 };
	const char *s = text, *end, *why = NULL;
	size_t line = 0, i;

	while (*s && !why) {
		line++;
		end = strchr(s, '\n');
		if (!end)
			why = "the last line is not ended";
		else if (end == s)
			why = "an empty line";
		else if (!strncmp(s, "# HELP ", 7))
			why = help_line(&r, s + 7, (size_t)(end - s) - 7);
		else if (!strncmp(s, "# TYPE ", 7))
			why = type_line(&r, s + 7, (size_t)(end - s) - 7);
		else if (*s == '#')
			why = "a comment";
		else
			why = sample_line(&r, s, (size_t)(end - s));
		if (!why)
			s = end + 1;
	}
	if (!why && r.family[0] && !r.typed)
		why = "a HELP without its TYPE";
	if (!why) {
		line = 0;
		if (r.nr_series)
			qsort(r.series, r.nr_series, sizeof(*r.series), series_cmp);
		for (i = 1; i < r.nr_series && !why; i++)
			if (!series_cmp(&r.series[i - 1], &r.series[i]))
				why = "a series twice";
	}
	for (i = 0; i < r.nr_families; i++)
		free(r.families[i]);
	free(r.families);
	free(r.series);
	if (!why)
		return NULL;
	if (line)
		snprintf(why_buf, sizeof(why_buf), "line %zu: %s", line, why);
	else
		snprintf(why_buf, sizeof(why_buf), "%s", why);
	return why_buf;
}

size_t pc_count_samples(const char *text, const char *name)
{
	size_t n = strlen(name), count = 0;
	const char *s = text;

	while (*s) {
		if (!strncmp(s, name, n) && (s[n] == '{' || s[n] == ' '))
			count++;
		s = strchr(s, '\n');
		if (!s)
			break;
		s++;
	}
	return count;
}
