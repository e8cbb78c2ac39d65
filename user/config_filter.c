// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * config_filter.c - the [filter] keys and the flags that set the same:
 * lists of PIDs and process names, a cgroup path. Text, not numbers: the
 * parser hands them here, --generate-config prints them from here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config_keys.h"
#include "msg.h"

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
	size_t n = strlen(s), i;

	/* what a comm can be, less what the list syntax needs (',' '#') */
	if (!n || n >= HK_COMM_LEN)
		return hk_msg__fail(why, why_len, "'%s' is not a process name (1 to %d bytes)",
				    hk_msg__quote(q, sizeof(q), s), HK_COMM_LEN - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || s[i] == ',' || s[i] == '#')
			return hk_msg__fail(why, why_len,
					    "'%s': a process name here has no control "
					    "character, ',' or '#'",
					    hk_msg__quote(q, sizeof(q), s));
	for (i = 0; i < l->n; i++)
		if (!strncmp(l->comm[i], s, HK_COMM_LEN))
			return 0;
	if (l->n == HK_FILTER_COMMS)
		return hk_msg__fail(why, why_len, "more than %d process names", HK_FILTER_COMMS);
	memset(l->comm[l->n], 0, HK_COMM_LEN);
	memcpy(l->comm[l->n], s, n);
	l->n++;
	return 0;
}

int hk_filter__set_cgroup(struct hk_config *c, const char *s, char *why, size_t why_len)
{
	char q[HK_QUOTE_BUF];
	size_t n = strlen(s), i;

	if (s[0] != '/' || n >= HK_FILTER_PATH_LEN)
		return hk_msg__fail(why, why_len, "'%s' is not a cgroup path (it starts "
				    "with '/', at most %d bytes)",
				    hk_msg__quote(q, sizeof(q), s), HK_FILTER_PATH_LEN - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || s[i] == '#')
			return hk_msg__fail(why, why_len, "'%s': a cgroup path here has no "
					    "control character or '#'",
					    hk_msg__quote(q, sizeof(q), s));
	memset(c->filter_cgroup, 0, sizeof(c->filter_cgroup));
	memcpy(c->filter_cgroup, s, n);
	/* resolved to an id by hk_sys__resolve_cgroup() */
	c->filter_cgroup_id = 0;
	c->filter_cgroup_hier = HK_FILTER_HIER_NONE;
	return 0;
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
	default:
		return hk_msg__fail(why, why_len, "not a filter");
	}
}

void hk_filter__print(const struct hk_key *k, const struct hk_config *c, char *buf,
		      size_t len)
{
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
		for (i = 0; i < l->n && i < HK_FILTER_COMMS && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%.*s", i ? ", " : "",
					HK_COMM_LEN, l->comm[i]);
		break;
	case HK_UNIT_PATH:
		snprintf(buf, len, "%.*s", HK_FILTER_PATH_LEN - 1, c->filter_cgroup);
		break;
	default:
		break;
	}
}
