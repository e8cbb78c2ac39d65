// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_journal.c - the native journal entry (output/journal_entry.c,
 * journal_event.c): exact bytes, the length form for a value with a
 * newline, hostile names that stay one field each, bounds and cuts; and
 * the sender (journal_send.c) against a datagram socket of its own: an
 * entry received whole, a full socket never waited on, a missing one
 * refused at open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <CUnit/CUnit.h>
#include "output/format.h"
#include "output/journal.h"
#include "lib/cut.h"
#include "suites.h"

/* One field as journald reads it (journald-native.c's rules). */
struct field {
	char name[72];
	const char *value;
	size_t n;
};

/*
 * Parse an entry as journald does: NAME=value\n, or NAME\n + 64-bit LE
 * length + bytes + \n. The number of fields, or -1 when malformed.
 */
static int parse(const char *p, size_t len, struct field *f, int max)
{
	const char *end = p + len, *nl, *eq;
	int k = 0;
	__u64 n;
	int i;

	while (p < end) {
		if (k == max)
			return -1;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return -1;
		eq = memchr(p, '=', (size_t)(nl - p));
		if (eq) {
			snprintf(f[k].name, sizeof(f[k].name), "%.*s", (int)(eq - p), p);
			f[k].value = eq + 1;
			f[k].n = (size_t)(nl - eq - 1);
			p = nl + 1;
		} else {
			snprintf(f[k].name, sizeof(f[k].name), "%.*s", (int)(nl - p), p);
			if (end - nl - 1 < 8)
				return -1;
			for (n = 0, i = 7; i >= 0; i--)
				n = n << 8 | (unsigned char)nl[1 + i];
			if ((__u64)(end - nl - 9) < n + 1 || nl[9 + n] != '\n')
				return -1;
			f[k].value = nl + 9;
			f[k].n = (size_t)n;
			p = nl + 10 + n;
		}
		k++;
	}
	return k;
}

/* The field named name in f[0..k): its index, -1 when absent; *count:
 * how many carry that name. */
static int find(const struct field *f, int k, const char *name, int *count)
{
	int i, at = -1, c = 0;

	for (i = 0; i < k; i++)
		if (!strcmp(f[i].name, name)) {
			if (at < 0)
				at = i;
			c++;
		}
	if (count)
		*count = c;
	return at;
}

static int value_is(const struct field *f, int k, const char *name, const char *v, size_t n)
{
	int c, i = find(f, k, name, &c);

	return i >= 0 && c == 1 && f[i].n == n && !memcmp(f[i].value, v, n);
}

#define VALUE_IS(f, k, name, s) value_is(f, k, name, s, strlen(s))

static void test_exact_bytes(void)
{
	static const char want[] = "MESSAGE=a=b c\nPRIORITY=4\n"
		"HOTSPOT_K_COMM\n\x05\0\0\0\0\0\0\0" "a\nb=c\n"
		"HOTSPOT_K_UNIT=x\0y\n";
	char buf[256];
	struct hk_jentry j;

	hk_jentry__init(&j, buf, sizeof(buf));
	/* '=' in a value: only the first one ends the name */
	hk_jentry__add(&j, "MESSAGE", "a=b c", 5);
	hk_jentry__addf(&j, "PRIORITY", "%d", 4);
	/* a newline: the length form, whatever follows it */
	hk_jentry__add(&j, "HOTSPOT_K_COMM", "a\nb=c", 5);
	/* a NUL is a byte like another in either form */
	hk_jentry__add(&j, "HOTSPOT_K_UNIT", "x\0y", 3);
	CU_ASSERT_EQUAL(j.left_out, 0);
	CU_ASSERT_EQUAL(j.len, sizeof(want) - 1);
	CU_ASSERT_EQUAL(memcmp(buf, want, sizeof(want) - 1), 0);
}

static void test_names(void)
{
	char buf[256], name65[66];
	struct hk_jentry j;

	memset(name65, 'A', 65);
	name65[65] = 0;
	hk_jentry__init(&j, buf, sizeof(buf));
	/* journald's trusted fields start with '_': never ours to send */
	hk_jentry__add(&j, "_PID", "1", 1);
	hk_jentry__add(&j, "lower", "1", 1);
	hk_jentry__add(&j, "1ABC", "1", 1);
	hk_jentry__add(&j, "A=B", "1", 1);
	hk_jentry__add(&j, "", "1", 1);
	hk_jentry__add(&j, name65, "1", 1);
	CU_ASSERT_EQUAL(j.len, 0);
	CU_ASSERT_EQUAL(j.left_out, 6);
	name65[64] = 0;
	hk_jentry__add(&j, name65, "1", 1);
	CU_ASSERT_EQUAL(j.len, 64 + 3);
}

static void test_does_not_fit(void)
{
	char buf[24];
	struct hk_jentry j;

	hk_jentry__init(&j, buf, sizeof(buf));
	hk_jentry__add(&j, "A", "0123456789", 10);		/* 13 bytes */
	/* 12 bytes in the 11 left: left out whole, never half a field */
	hk_jentry__add(&j, "B", "012345678", 9);
	CU_ASSERT_EQUAL(j.len, 13);
	CU_ASSERT_EQUAL(j.left_out, 1);
	hk_jentry__add(&j, "C", "01234567", 8);		/* 11: fits exactly */
	CU_ASSERT_EQUAL(j.len, 24);
	/* the length form's 8 bytes count too */
	hk_jentry__init(&j, buf, sizeof(buf));
	hk_jentry__add(&j, "A", "0123456789\n1", 12);	/* 2 + 8 + 12 + 1 = 23 */
	CU_ASSERT_EQUAL(j.len, 23);
	hk_jentry__init(&j, buf, 22);
	hk_jentry__add(&j, "A", "0123456789\n1", 12);
	CU_ASSERT_EQUAL(j.len, 0);
	CU_ASSERT_EQUAL(j.left_out, 1);
}

static void test_cut(void)
{
	char buf[4096], text[3000], want[64];
	struct field f[4];
	struct hk_jentry j;
	int k;

	/* whole when it fits */
	hk_jentry__init(&j, buf, sizeof(buf));
	CU_ASSERT_EQUAL(hk_jentry__add_text(&j, "X", "abc", 3, 3), 0);
	CU_ASSERT_EQUAL(j.len, 6);
	/* past max: its first bytes, "…" and the hash of the whole */
	memset(text, '\n', sizeof(text));
	hk_jentry__init(&j, buf, sizeof(buf));
	CU_ASSERT_EQUAL(hk_jentry__add_text(&j, "X", text, sizeof(text), 1024), 1);
	k = parse(buf, j.len, f, 4);
	CU_ASSERT_EQUAL_FATAL(k, 1);
	CU_ASSERT_EQUAL(f[0].n, 1024);
	snprintf(want, sizeof(want), "\xe2\x80\xa6%08x", hk_cut__hash(text, sizeof(text)));
	CU_ASSERT_EQUAL(memcmp(f[0].value + 1024 - HK_CUT_MARK_LEN, want, HK_CUT_MARK_LEN), 0);
	CU_ASSERT_EQUAL(f[0].value[0], '\n');
	/* never half a character before the mark: "é" (2 bytes) across the
	 * cut is left out whole */
	memset(text, 'a', sizeof(text));
	text[20 - HK_CUT_MARK_LEN - 1] = (char)0xc3;
	text[20 - HK_CUT_MARK_LEN] = (char)0xa9;
	hk_jentry__init(&j, buf, sizeof(buf));
	hk_jentry__add_text(&j, "X", text, 40, 20);
	k = parse(buf, j.len, f, 4);
	CU_ASSERT_EQUAL_FATAL(k, 1);
	CU_ASSERT_EQUAL(f[0].n, 20 - 1);
	CU_ASSERT_EQUAL((unsigned char)f[0].value[20 - HK_CUT_MARK_LEN - 2], 'a');
	CU_ASSERT_EQUAL(memcmp(f[0].value + 20 - HK_CUT_MARK_LEN - 1, "\xe2\x80\xa6", 3), 0);
}

static void hostile_event(struct hk_event *e)
{
	memset(e, 0, sizeof(*e));
	e->tgid = 4242;
	e->from = HK_OK;
	e->to = HK_CPU_BOUND;
	e->windows = 3;
	/* a comm that would be a field of its own in the text form */
	memcpy(e->comm, "x\nMESSAGE_ID=1\n", 15);
	e->ev.cpu_pct_x100 = 9712;
	e->ev.rss_slope_bytes_per_s = -4096;
	e->ev.eta_s = (__u64)HK_ETA_NONE;
}

static void test_event_entry(void)
{
	static char buf[HK_JOURNAL_ENTRY_MAX], cgroup[5000];
	struct hk_workload wl = {};
	struct hk_journal_who who = { cgroup, &wl, NULL };
	struct field f[128];
	struct hk_jentry j;
	struct hk_event e;
	int k, c;

	hostile_event(&e);
	memset(cgroup, '\n', sizeof(cgroup) - 1);
	memcpy(cgroup, "/HOTSPOT_K_LABEL=ok\n", 20);
	memcpy(wl.unit, "u\n_PID=1.service", 16);
	hk_jentry__init(&j, buf, sizeof(buf));
	hk_journal__event_entry(&j, &e, "the line", 8, 5, &who);
	CU_ASSERT_EQUAL(j.left_out, 0);
	k = parse(buf, j.len, f, 128);
	CU_ASSERT_FATAL(k > 0);
	CU_ASSERT(VALUE_IS(f, k, "MESSAGE", "the line"));
	CU_ASSERT(VALUE_IS(f, k, "PRIORITY", "5"));
	CU_ASSERT(VALUE_IS(f, k, "SYSLOG_IDENTIFIER", "hotspot-k"));
	CU_ASSERT(VALUE_IS(f, k, "MESSAGE_ID", hk_jmsg__id(HK_CPU_BOUND)));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_LABEL", "cpu_bound"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_FROM", "ok"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_PID", "4242"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_COMM", "x\nMESSAGE_ID=1\n"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_UNIT", "u\n_PID=1.service"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_CPU_PCT", "97.12"));
	CU_ASSERT(VALUE_IS(f, k, "HOTSPOT_K_RSS_SLOPE_BYTES_PER_S", "-4096"));
	/* the cgroup: one field, cut as the JSON line's paths are */
	CU_ASSERT_EQUAL(find(f, k, "HOTSPOT_K_CGROUP", &c) >= 0 && c == 1, 1);
	CU_ASSERT_EQUAL(f[find(f, k, "HOTSPOT_K_CGROUP", NULL)].n, HK_FORMAT_PATH_MAX);
	/* what JSON says null is left out; no hostile byte made a field */
	CU_ASSERT_EQUAL(find(f, k, "HOTSPOT_K_ETA_S", NULL), -1);
	CU_ASSERT_EQUAL(find(f, k, "HOTSPOT_K_POD_UID", NULL), -1);
	CU_ASSERT_EQUAL(find(f, k, "HOTSPOT_K_FLAGGED", NULL), -1);
	find(f, k, "MESSAGE_ID", &c);
	CU_ASSERT_EQUAL(c, 1);
	find(f, k, "HOTSPOT_K_LABEL", &c);
	CU_ASSERT_EQUAL(c, 1);
	CU_ASSERT_EQUAL(find(f, k, "_PID", NULL), -1);
}

/* The widest entry the printer can make fits, every field in it. */
static void test_widest(void)
{
	static char buf[HK_JOURNAL_ENTRY_MAX], line[HK_FORMAT_LINE_MAX], cgroup[8192],
		memcg[8192];
	struct hk_workload wl;
	struct hk_journal_who who = { cgroup, &wl, memcg };
	struct hk_jentry j;
	struct hk_event e;

	memset(&e, '\n', sizeof(e));
	e.to = HK_OOM_KILLED;
	e.from = HK_OOM_RISK;
	e.oom.flagged = 1;
	memset(&wl, '\n', sizeof(wl));
	wl.unit[sizeof(wl.unit) - 1] = wl.pod_uid[sizeof(wl.pod_uid) - 1] = 0;
	wl.container_id[sizeof(wl.container_id) - 1] = 0;
	memset(line, '\n', sizeof(line));
	memset(cgroup, '\n', sizeof(cgroup) - 1);
	memset(memcg, '\n', sizeof(memcg) - 1);
	cgroup[sizeof(cgroup) - 1] = memcg[sizeof(memcg) - 1] = 0;
	hk_jentry__init(&j, buf, sizeof(buf));
	hk_journal__event_entry(&j, &e, line, sizeof(line) - 1, 3, &who);
	CU_ASSERT_EQUAL(j.left_out, 0);
	CU_ASSERT(j.len <= HK_JOURNAL_ENTRY_MAX);
}

static void test_ids(void)
{
	struct hk_event e = { .to = HK_OOM_KILLED };
	unsigned int a, b, n = 0;
	const char *id;
	size_t i;

	for (a = 0; a < HK_NR_JMSG; a++) {
		id = hk_jmsg__id(a);
		if (!id)
			continue;
		n++;
		CU_ASSERT_EQUAL(strlen(id), 32);
		for (i = 0; i < 32; i++)
			CU_ASSERT(strchr("0123456789abcdef", id[i]) != NULL);
		CU_ASSERT_PTR_NOT_NULL(hk_jmsg__name(a));
		for (b = a + 1; b < HK_NR_JMSG; b++)
			CU_ASSERT(!hk_jmsg__id(b) || strcmp(id, hk_jmsg__id(b)));
	}
	/* every label but oom_killed, which is one of two kinds */
	CU_ASSERT_EQUAL(n, HK_NR_JMSG - 1);
	CU_ASSERT_PTR_NULL(hk_jmsg__id(HK_OOM_KILLED));
	CU_ASSERT_PTR_NULL(hk_jmsg__id(HK_NR_JMSG));
	CU_ASSERT_EQUAL(hk_jmsg__of_event(&e), HK_JMSG_OOM_KILL_MISSED);
	e.oom.flagged = 1;
	CU_ASSERT_EQUAL(hk_jmsg__of_event(&e), HK_JMSG_OOM_KILL_FLAGGED);
	CU_ASSERT_STRING_EQUAL(hk_jmsg__name(HK_JMSG_OOM_KILL_FLAGGED), "oom_kill_flagged");
	CU_ASSERT_STRING_EQUAL(hk_jmsg__name(HK_OOM_RISK), "oom_risk");
	CU_ASSERT_STRING_EQUAL(hk_jmsg__name(HK_JMSG_SUMMARY), "summary");
	e.to = HK_NR_LABELS + 7;
	CU_ASSERT_PTR_NULL(hk_jmsg__id(hk_jmsg__of_event(&e)));
}

/* A datagram socket bound at a path of its own (rcvbuf: its size). */
static int bound(struct sockaddr_un *sa, int rcvbuf)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "/tmp/hk-unit-journal.%d", (int)getpid());
	unlink(sa->sun_path);
	if (fd < 0)
		return -1;
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_send(void)
{
	static char entry[HK_JOURNAL_ENTRY_MAX], got[HK_JOURNAL_ENTRY_MAX + 1];
	struct sockaddr_un sa;
	struct hk_journal j;
	int fd, i, r = 0;
	ssize_t n;

	/* nobody there: refused at open, nothing left open */
	CU_ASSERT_EQUAL(hk_journal__open(&j, "/nonexistent/hk-journal.socket"), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_EQUAL(j.fd, -1);
	fd = bound(&sa, 4096);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL_FATAL(hk_journal__open(&j, sa.sun_path), 0);
	memset(entry, 'x', sizeof(entry));
	memcpy(entry, "MESSAGE=", 8);
	entry[sizeof(entry) - 1] = '\n';
	/* the largest entry, whole, in one datagram */
	CU_ASSERT_EQUAL(hk_journal__send(&j, entry, sizeof(entry)), 0);
	n = recv(fd, got, sizeof(got), MSG_DONTWAIT);
	CU_ASSERT_EQUAL(n, (ssize_t)sizeof(entry));
	CU_ASSERT_EQUAL(memcmp(got, entry, sizeof(entry)), 0);
	/* a reader that stops reading: sends fail at once, counted */
	for (i = 0; i < 10000 && !r; i++)
		r = hk_journal__send(&j, entry, 64);
	CU_ASSERT_EQUAL(r, -1);
	CU_ASSERT_EQUAL(j.full, 1);
	CU_ASSERT_EQUAL(j.failed, 0);
	CU_ASSERT_EQUAL(j.sent, (__u64)i);
	/* gone: refused, counted apart */
	close(fd);
	unlink(sa.sun_path);
	CU_ASSERT_EQUAL(hk_journal__send(&j, entry, 64), -1);
	CU_ASSERT_EQUAL(j.failed, 1);
	hk_journal__close(&j);
	CU_ASSERT_EQUAL(j.fd, -1);
}

/* When entries are sent at all (journal_line.c): the flags and JOURNAL_STREAM */
static void test_start(void)
{
	struct sockaddr_un sa;
	struct hk_journal j;
	int fd;

	fd = bound(&sa, 0);
	CU_ASSERT_FATAL(fd >= 0);
	/* stdout not the journal: by default nothing is opened */
	hk_journal__init(&j);
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_AUTO, sa.sun_path, 0), 0);
	CU_ASSERT_EQUAL(j.fd, -1);
	/* the journal: entries, in place of the stream's lines */
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_AUTO, sa.sun_path, 1), 0);
	CU_ASSERT(j.fd >= 0 && j.instead);
	hk_journal__close(&j);
	/* off, even on the journal */
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_OFF, sa.sun_path, 1), 0);
	CU_ASSERT_EQUAL(j.fd, -1);
	/* on, wherever stdout goes: stdout keeps its lines */
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_ON, sa.sun_path, 0), 0);
	CU_ASSERT(j.fd >= 0 && !j.instead);
	hk_journal__close(&j);
	close(fd);
	unlink(sa.sun_path);
	/* no journald: on fails, by default the stream's lines go on */
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_ON, sa.sun_path, 1), -1);
	CU_ASSERT_EQUAL(j.fd, -1);
	CU_ASSERT_EQUAL(hk_journal__start(&j, HK_JOURNAL_AUTO, sa.sun_path, 1), 0);
	CU_ASSERT_EQUAL(j.fd, -1);
}

int hk_add_journal_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "entry: exact bytes, the length form", test_exact_bytes },
		{ "entry: names journald would drop", test_names },
		{ "entry: a field fits whole or not at all", test_does_not_fit },
		{ "entry: a user's text cut with a hash", test_cut },
		{ "event: hostile names stay one field each", test_event_entry },
		{ "event: the widest entry fits", test_widest },
		{ "MESSAGE_IDs: one per kind, distinct", test_ids },
		{ "send: whole, never waiting, counted", test_send },
		{ "start: auto, off, on, and no journald", test_start },
	};

	return HK_ADD_SUITE("journal", tests);
}
