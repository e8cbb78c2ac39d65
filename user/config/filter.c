// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * filter.c - the keys whose values are text, and the flags that set
 * the same: [filter]'s lists of PIDs and process names and its cgroup
 * path, [freeze]'s list of cgroups never frozen. The parser hands them
 * here, --generate-config prints them from here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keys.h"
#include "lib/msg.h"

/* The largest PID the kernel hands out (PID_MAX_LIMIT on 64-bit). */
#define HK_PID_MAX 4194304

static void *field_of(const struct hk_key *k, struct hk_config *c)
{
	return (char *)c + k->off;
}

static const void *cfield_of(const struct hk_key *k, const struct hk_config *c)
{
	return (const char *)c + k->off;
}

/* Whether s[0..n) holds a control character or one of extra. */
static bool has_special(const char *s, size_t n, const char *extra)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || strchr(extra, s[i]))
			return true;
	return false;
}

/*
 * s (n bytes) into a list of cap NUL-padded items of item_len bytes, *nr of
 * them used, unless it is there already: 0, or -1 when full ("more than
 * CAP WHAT").
 */
static int add_item(char *items, size_t item_len, __u32 *nr, __u32 cap, const char *s,
		    size_t n, const char *what, char *why, size_t why_len)
{
	__u32 i;

	for (i = 0; i < *nr; i++)
		if (!strncmp(items + i * item_len, s, item_len))
			return 0;
	if (*nr == cap)
		return hk_msg__fail(why, why_len, "more than %u %s", cap, what);
	memset(items + *nr * item_len, 0, item_len);
	memcpy(items + *nr * item_len, s, n);
	(*nr)++;
	return 0;
}

int hk_filter__add_pid(struct hk_config *c, const char *s, char *why, size_t why_len)
{
	struct hk_pid_list *l = &c->filter_pids;
	char q[HK_QUOTE_BUF];
	__u64 pid;
	__u32 i;

	if (hk_units__parse(s, HK_UNIT_INT, &pid, NULL, 0) || !pid || pid > HK_PID_MAX)
		return hk_msg__fail(why, why_len, "'%s' is not a PID (1..%d)",
				    hk_msg__quote(q, sizeof(q), s), HK_PID_MAX);
	for (i = 0; i < l->n; i++)
		if (l->pid[i] == pid)
			return 0;
	if (l->n == HK_FILTER_PIDS)
		return hk_msg__fail(why, why_len, "more than %d PIDs", HK_FILTER_PIDS);
	l->pid[l->n++] = (__u32)pid;
	return 0;
}

int hk_filter__add_comm(struct hk_comm_list *l, const char *s, char *why, size_t why_len)
{
	char q[HK_QUOTE_BUF];
	size_t n = strlen(s);

	/* what a comm can be, less what the list syntax needs (',' '#') */
	if (!n || n >= HK_COMM_LEN)
		return hk_msg__fail(why, why_len, "'%s' is not a process name (1 to %d bytes)",
				    hk_msg__quote(q, sizeof(q), s), HK_COMM_LEN - 1);
	if (has_special(s, n, ",#"))
		return hk_msg__fail(why, why_len,
				    "'%s': a process name here has no control "
				    "character, ',' or '#'",
				    hk_msg__quote(q, sizeof(q), s));
	return add_item(&l->comm[0][0], HK_COMM_LEN, &l->n, HK_FILTER_COMMS, s, n,
			"process names", why, why_len);
}

int hk_filter__set_cgroup(struct hk_config *c, const char *s, char *why, size_t why_len)
{
	char q[HK_QUOTE_BUF];
	size_t n = strlen(s);

	if (s[0] != '/' || n >= HK_FILTER_PATH_LEN)
		return hk_msg__fail(why, why_len, "'%s' is not a cgroup path (it starts "
				    "with '/', at most %d bytes)",
				    hk_msg__quote(q, sizeof(q), s), HK_FILTER_PATH_LEN - 1);
	if (has_special(s, n, "#"))
		return hk_msg__fail(why, why_len, "'%s': a cgroup path here has no "
				    "control character or '#'",
				    hk_msg__quote(q, sizeof(q), s));
	memset(c->filter_cgroup, 0, sizeof(c->filter_cgroup));
	memcpy(c->filter_cgroup, s, n);
	/* resolved to an id by hk_sysinfo__resolve_cgroup() */
	c->filter_cgroup_id = 0;
	c->filter_cgroup_hier = HK_FILTER_HIER_NONE;
	return 0;
}

int hk_filter__add_path(struct hk_path_list *l, const char *s, char *why, size_t why_len)
{
	char q[HK_QUOTE_BUF], norm[HK_FILTER_PATH_LEN];
	size_t n = 0, comp;
	const char *p = s;

	/* as /proc/PID/cgroup writes it: one leading '/', no empty, '.' or
	 * '..' component, no trailing '/', so that equal cgroups compare
	 * equal ("init.scope" is "/init.scope") */
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = strcspn(p, "/");
		if ((comp == 1 && p[0] == '.') || (comp == 2 && p[0] == '.' && p[1] == '.'))
			return hk_msg__fail(why, why_len, "'%s': a cgroup path here has no '.' "
					    "or '..' component", hk_msg__quote(q, sizeof(q), s));
		if (has_special(p, comp, ",#"))
			return hk_msg__fail(why, why_len, "'%s': a cgroup path here has no "
					    "control character, ',' or '#'",
					    hk_msg__quote(q, sizeof(q), s));
		if (n + 1 + comp >= sizeof(norm))
			return hk_msg__fail(why, why_len, "'%s' is longer than %d bytes",
					    hk_msg__quote(q, sizeof(q), s), HK_FILTER_PATH_LEN - 1);
		norm[n++] = '/';
		memcpy(norm + n, p, comp);
		n += comp;
		p += comp;
	}
	if (!n)
		norm[n++] = '/';
	norm[n] = '\0';
	return add_item(&l->path[0][0], HK_FILTER_PATH_LEN, &l->n, HK_FREEZE_NEVER, norm, n,
			"cgroups", why, why_len);
}

/* Each comma-separated item of val, trimmed, through add(). */
static int each_item(const char *val, int (*add)(void *, const char *, char *, size_t),
		     void *dst, char *why, size_t why_len)
{
	char *copy = strdup(val), *rest = copy, *item, *end;
	int ret = 0;

	if (!copy)
		return hk_msg__fail(why, why_len, "out of memory");
	/* strsep, not strtok: "1,,2" has an empty item to refuse */
	while (!ret && (item = strsep(&rest, ","))) {
		while (isspace((unsigned char)*item))
			item++;
		end = item + strlen(item);
		while (end > item && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*item) {
			ret = hk_msg__fail(why, why_len, "an empty item in the list");
			break;
		}
		ret = add(dst, item, why, why_len);
	}
	free(copy);
	return ret;
}

static int add_pid_cb(void *c, const char *s, char *why, size_t why_len)
{
	return hk_filter__add_pid(c, s, why, why_len);
}

static int add_comm_cb(void *l, const char *s, char *why, size_t why_len)
{
	return hk_filter__add_comm(l, s, why, why_len);
}

static int add_path_cb(void *l, const char *s, char *why, size_t why_len)
{
	return hk_filter__add_path(l, s, why, why_len);
}

int hk_filter__parse(const struct hk_key *k, struct hk_config *c, const char *val,
		     char *why, size_t why_len)
{
	/* a key set again in the file replaces the list, as for numbers;
	 * an empty value clears it */
	switch (k->kind) {
	case HK_UNIT_PID_LIST:
		memset(&c->filter_pids, 0, sizeof(c->filter_pids));
		return *val ? each_item(val, add_pid_cb, c, why, why_len) : 0;
	case HK_UNIT_COMM_LIST:
		memset(field_of(k, c), 0, sizeof(struct hk_comm_list));
		return *val ? each_item(val, add_comm_cb, field_of(k, c), why, why_len) : 0;
	case HK_UNIT_PATH:
		if (!*val) {
			memset(c->filter_cgroup, 0, sizeof(c->filter_cgroup));
			return 0;
		}
		return hk_filter__set_cgroup(c, val, why, why_len);
	case HK_UNIT_PATH_LIST:
		memset(field_of(k, c), 0, sizeof(struct hk_path_list));
		return *val ? each_item(val, add_path_cb, field_of(k, c), why, why_len) : 0;
	default:
		return hk_msg__fail(why, why_len, "not a filter");
	}
}

/* n NUL-padded items of item_len bytes, ", " between them. */
static void print_items(char *buf, size_t len, const char *items, size_t item_len, __u32 n,
			__u32 cap)
{
	size_t off = 0;
	__u32 i;

	for (i = 0; i < n && i < cap && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%.*s", i ? ", " : "", (int)item_len,
				items + i * item_len);
}

void hk_filter__print(const struct hk_key *k, const struct hk_config *c, char *buf,
		      size_t len)
{
	const struct hk_path_list *pl;
	const struct hk_comm_list *l;
	size_t off = 0;
	__u32 i;

	buf[0] = '\0';
	switch (k->kind) {
	case HK_UNIT_PID_LIST:
		for (i = 0; i < c->filter_pids.n && i < HK_FILTER_PIDS && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%u", i ? ", " : "",
					c->filter_pids.pid[i]);
		break;
	case HK_UNIT_COMM_LIST:
		l = cfield_of(k, c);
		print_items(buf, len, &l->comm[0][0], HK_COMM_LEN, l->n, HK_FILTER_COMMS);
		break;
	case HK_UNIT_PATH:
		snprintf(buf, len, "%.*s", HK_FILTER_PATH_LEN - 1, c->filter_cgroup);
		break;
	case HK_UNIT_PATH_LIST:
		pl = cfield_of(k, c);
		print_items(buf, len, &pl->path[0][0], HK_FILTER_PATH_LEN, pl->n, HK_FREEZE_NEVER);
		break;
	default:
		break;
	}
}
