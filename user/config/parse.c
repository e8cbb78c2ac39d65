// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * parse.c - the config file's text: `key = value` lines in
 * [sections], read all or nothing, on top of the defaults the key table
 * gives (hk_config__defaults: here, the table itself only lists them).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keys.h"
#include "lib/msg.h"

/* A config file is a few hundred bytes: refuse to slurp /dev/zero. */
#define HK_CONFIG_MAX_BYTES	(1024 * 1024)

struct hk_parser {
	struct hk_config cfg;		/* the copy being filled in */
	const char *name;
	unsigned int line;
	const struct hk_section *section;
	unsigned int set_on[HK_CONFIG_MAX_KEYS];	/* line of each key, 0: unset */
	char *err;
	size_t err_len;
};

static int parse_fail(struct hk_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "NAME:LINE: message" */
static int parse_fail(struct hk_parser *ps, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	hk_msg__fail(ps->err, ps->err_len, "%s:%u: %s", ps->name, ps->line,
		     msg ? msg : "out of memory");
	free(msg);
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

static int parse_section(struct hk_parser *ps, char *s)
{
	char valid[256] = "", q[HK_QUOTE_BUF];
	char *close = strchr(s, ']');
	size_t i;

	if (!close || *trim(close + 1))
		return parse_fail(ps, "expected '[section]'");
	*close = '\0';
	s = trim(s + 1);
	for (i = 0; i < hk_nr_sections; i++) {
		if (!strcmp(s, hk_sections[i].name)) {
			ps->section = &hk_sections[i];
			return 0;
		}
	}
	for (i = 0; i < hk_nr_sections; i++) {
		if (i)
			strncat(valid, ", ", sizeof(valid) - strlen(valid) - 1);
		strncat(valid, hk_sections[i].name, sizeof(valid) - strlen(valid) - 1);
	}
	return parse_fail(ps, "unknown section [%s] (valid: %s)",
			  hk_msg__quote(q, sizeof(q), s), valid);
}

static int parse_value(struct hk_parser *ps, const struct hk_key *k,
		       const char *val)
{
	char why[HK_ERR_LEN], q[HK_QUOTE_BUF], range[80];
	__u64 v;

	if (hk_units__is_text(k->kind)) {
		if (hk_filter__parse(k, &ps->cfg, val, why, sizeof(why)))
			return parse_fail(ps, "bad value for %s: %s", k->name, why);
		return 0;
	}
	if (!*val)
		return parse_fail(ps, "missing value for %s", k->name);
	if (hk_units__parse(val, k->kind, &v, why, sizeof(why)))
		return parse_fail(ps, "bad value '%s' for %s: %s",
				  hk_msg__quote(q, sizeof(q), val), k->name, why);
	if (v < k->min || v > k->max) {
		hk_key__print_range(k, range, sizeof(range));
		return parse_fail(ps, "%s %s out of range (%s)", k->name,
				  hk_msg__quote(q, sizeof(q), val), range);
	}
	hk_key__set(k, &ps->cfg, v);
	return 0;
}

static int parse_line(struct hk_parser *ps, char *line)
{
	char q[HK_QUOTE_BUF];
	char *hash, *eq, *key, *val;
	size_t i;

	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '[')
		return parse_section(ps, line);

	eq = strchr(line, '=');
	if (!eq || eq == line)
		return parse_fail(ps, "expected 'key = value'");
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!ps->section)
		return parse_fail(ps, "key outside any section");

	for (i = 0; i < hk_nr_keys; i++)
		if (!strcmp(hk_keys[i].section, ps->section->name) &&
		    !strcmp(hk_keys[i].name, key))
			break;
	if (i == hk_nr_keys) {
		for (i = 0; i < hk_nr_removed_keys; i++)
			if (!strcmp(hk_removed_keys[i].section, ps->section->name) &&
			    !strcmp(hk_removed_keys[i].name, key))
				return parse_fail(ps, "key '%s' in [%s] was removed: %s",
						  key, ps->section->name,
						  hk_removed_keys[i].why);
		return parse_fail(ps, "unknown key '%s' in [%s]",
				  hk_msg__quote(q, sizeof(q), key), ps->section->name);
	}
	if (ps->set_on[i])
		return parse_fail(ps, "duplicate key '%s' in [%s] (first set on line %u)",
				  key, ps->section->name, ps->set_on[i]);
	if (parse_value(ps, &hk_keys[i], val))
		return -1;
	ps->set_on[i] = ps->line;
	return 0;
}

/* The parser; lines (may be NULL) gets the line that set each key. */
static int parse_text(struct hk_config *c, const char *text, const char *name,
		      unsigned int *lines, char *err, size_t err_len)
{
	struct hk_parser ps = {
		.cfg = *c,
		.name = name ? name : "config",
		.err = err,
		.err_len = err_len,
	};
	char *copy, *line, *nl;
	int ret = 0;

	copy = strdup(text ? text : "");
	if (!copy)
		return hk_msg__fail(err, err_len, "%s: out of memory", ps.name);
	line = copy;
	/* a byte order mark some editors write */
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	while (line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		ps.line++;
		ret = parse_line(&ps, line);
		if (ret)
			break;
		line = nl ? nl + 1 : NULL;
	}
	/* all or nothing: *c changes only when every line parsed */
	if (!ret) {
		*c = ps.cfg;
		if (lines)
			memcpy(lines, ps.set_on, sizeof(ps.set_on));
	}
	free(copy);
	return ret;
}

void hk_config__defaults(struct hk_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < hk_nr_keys; i++) {
		if (!hk_units__is_text(hk_keys[i].kind))
			hk_key__set(&hk_keys[i], c, hk_keys[i].def);
		/* the table's own text: a unit test parses every default */
		else if (hk_keys[i].def_text)
			hk_filter__parse(&hk_keys[i], c, hk_keys[i].def_text, NULL, 0);
	}
}

int hk_config__parse_string(struct hk_config *c, const char *text,
			    const char *name, char *err, size_t err_len)
{
	return parse_text(c, text, name, NULL, err, err_len);
}

static int parse_file(struct hk_config *c, const char *path, unsigned int *lines,
		      char *err, size_t err_len)
{
	size_t len = 0, cap = 4096, n;
	char *text, *bigger;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f)
		return hk_msg__fail(err, err_len, "%s: cannot open: %s", path, strerror(errno));
	text = malloc(cap);
	if (!text) {
		fclose(f);
		return hk_msg__fail(err, err_len, "%s: out of memory", path);
	}
	for (;;) {
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (len > HK_CONFIG_MAX_BYTES || n == 0)
			break;
		if (len + 1 == cap) {
			bigger = realloc(text, cap * 2);
			if (!bigger) {
				ret = hk_msg__fail(err, err_len, "%s: out of memory", path);
				goto out;
			}
			text = bigger;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		ret = hk_msg__fail(err, err_len, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (len > HK_CONFIG_MAX_BYTES) {
		ret = hk_msg__fail(err, err_len, "%s: too large (over %d bytes)", path,
			   HK_CONFIG_MAX_BYTES);
		goto out;
	}
	if (memchr(text, '\0', len)) {
		ret = hk_msg__fail(err, err_len, "%s: not a text file (NUL byte)", path);
		goto out;
	}
	text[len] = '\0';
	ret = parse_text(c, text, path, lines, err, err_len);
out:
	free(text);
	fclose(f);
	return ret;
}

int hk_config__parse_file(struct hk_config *c, const char *path,
			  char *err, size_t err_len)
{
	return parse_file(c, path, NULL, err, err_len);
}

int hk_config__parse_file_origin(struct hk_config *c, const char *path,
				 struct hk_config_origin *o, char *err, size_t err_len)
{
	o->name = path;
	return parse_file(c, path, o->line, err, err_len);
}
