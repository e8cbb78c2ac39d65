// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_oom_kill.c - an OOM kill, said: which memory cgroup was at its limit
 * and whether the victim was flagged in time (shared/oom_kill.h, the same
 * code the BPF side runs), the cgroup's path found by its inode
 * (output/oom_memcg.c), and the oom_killed line in words, JSON and journal
 * priority.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "format_fixtures.h"
#include "output/oom_memcg.h"
#include "shared/oom_kill.h"
#include "suites.h"

#define PAGES_256M (256 * HK_MIB / 4096)
#define UNSET (0x7fffffffffffffffULL / 4096)
#define W_NS HK_NSEC_PER_SEC

static void test_at_limit(void)
{
	/* the charge that failed was not made: a little under max is at it */
	CU_ASSERT_TRUE(hk_oom_at_limit(PAGES_256M, PAGES_256M, UNSET));
	CU_ASSERT_TRUE(hk_oom_at_limit(PAGES_256M - PAGES_256M / 32, PAGES_256M, UNSET));
	CU_ASSERT_FALSE(hk_oom_at_limit(PAGES_256M - PAGES_256M / 32 - 1, PAGES_256M, UNSET));
	CU_ASSERT_FALSE(hk_oom_at_limit(PAGES_256M / 2, PAGES_256M, UNSET));
	/* a small limit: a huge page of slack at least */
	CU_ASSERT_TRUE(hk_oom_at_limit(1000 - 512, 1000, UNSET));
	CU_ASSERT_FALSE(hk_oom_at_limit(1000 - 513, 1000, UNSET));
	/* no limit set (max at or above PAGE_COUNTER_MAX), or none read */
	CU_ASSERT_FALSE(hk_oom_at_limit(UNSET, UNSET, UNSET));
	CU_ASSERT_FALSE(hk_oom_at_limit(UNSET + 5, UNSET + 5, UNSET));
	CU_ASSERT_FALSE(hk_oom_at_limit(0, 0, UNSET));
}

static void test_flagged(void)
{
	__u64 kill = 1000 * W_NS;

	CU_ASSERT_FALSE(hk_oom_flagged(kill, 0, 0, W_NS));		/* never */
	CU_ASSERT_FALSE(hk_oom_flagged(kill, kill + 1, 0, W_NS));	/* after */
	CU_ASSERT_TRUE(hk_oom_flagged(kill, kill - 42 * W_NS, 0, W_NS));	/* held */
	CU_ASSERT_TRUE(hk_oom_flagged(kill, kill, 0, W_NS));
	/* left it after the kill (the victim's last windows) */
	CU_ASSERT_TRUE(hk_oom_flagged(kill, kill - 42 * W_NS, kill + W_NS, W_NS));
	/* left it shortly before: the grace of HK_OOM_FLAG_WINDOWS windows */
	CU_ASSERT_TRUE(hk_oom_flagged(kill, kill - 42 * W_NS,
				      kill - HK_OOM_FLAG_WINDOWS * W_NS, W_NS));
	CU_ASSERT_FALSE(hk_oom_flagged(kill, kill - 42 * W_NS,
				       kill - HK_OOM_FLAG_WINDOWS * W_NS - 1, W_NS));
	/* the grace follows the interval */
	CU_ASSERT_TRUE(hk_oom_flagged(kill, kill - 100 * W_NS, kill - 20 * W_NS, 5 * W_NS));
	CU_ASSERT_FALSE(hk_oom_flagged(kill, kill - 100 * W_NS, kill - 26 * W_NS, 5 * W_NS));
}

static void test_flagged_for(void)
{
	struct hk_oom_kill k = { .time_ns = 1000 * W_NS, .flagged = 1 };

	k.oom_risk_since_ns = k.time_ns - 42 * W_NS - W_NS / 2;
	CU_ASSERT_EQUAL(hk_oom_flagged_for_s(&k), 42);
	k.oom_risk_since_ns = k.time_ns;
	CU_ASSERT_EQUAL(hk_oom_flagged_for_s(&k), 0);
	k.oom_risk_since_ns = k.time_ns + W_NS;		/* cannot be: no wrap */
	CU_ASSERT_EQUAL(hk_oom_flagged_for_s(&k), 0);
	k.oom_risk_since_ns = 1;
	k.flagged = 0;
	CU_ASSERT_EQUAL(hk_oom_flagged_for_s(&k), 0);
}

static void test_killed(void)
{
	/* a cgroup's first mark: its count at 0 (it starts there) is no kill */
	CU_ASSERT_FALSE(hk_oom_killed(0, 0));
	CU_ASSERT_TRUE(hk_oom_killed(1, 0));
	/* first seen with kills before the tool: taken for a kill */
	CU_ASSERT_TRUE(hk_oom_killed(7, 0));
	/* since the previous mark: one kill (or a group kill's several), none */
	CU_ASSERT_TRUE(hk_oom_killed(8, 7));
	CU_ASSERT_TRUE(hk_oom_killed(12, 8));
	CU_ASSERT_FALSE(hk_oom_killed(12, 12));
}

/* A 256 MiB memcg "pod-x" killed the process 42 s after it entered OOM risk. */
static void ev_killed(struct hk_event *e, int flagged, int tracked)
{
	ev_oom(e);
	e->from = tracked ? HK_OOM_RISK : HK_OK;
	e->to = HK_OOM_KILLED;
	e->oom.time_ns = e->time_ns - 2 * W_NS;
	e->oom.memcg_id = 4242;
	e->oom.limit_bytes = 256 * HK_MIB;
	e->oom.usage_bytes = 256 * HK_MIB - 4096;
	e->oom.window_ns = W_NS;
	e->oom.tracked = tracked;
	e->oom.flagged = flagged;
	e->oom.oom_risk_since_ns = flagged ? e->oom.time_ns - 42 * W_NS : 0;
	memcpy(e->oom.memcg_name, "pod-x", 6);
}

static void test_human(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_killed(&e, 1, 1);
	c.oom_memcg = "/kubepods/pod-x";
	/* the kill's time (2 s before the walk said it), not the line's */
	ASSERT_STR(human(&e, &c), "05:21:34.123  " "   4242 python3                 OOM risk \xe2\x86\x92 "
		   "OOM killed      memcg /kubepods/pod-x (limit 256 MiB) \xc2\xb7 flagged OOM "
		   "risk 42 s before\n");
	/* the cgroup gone by the time of the line: the name the kernel gave */
	ASSERT_HAS(human(&e, &ctx_utc), "memcg .../pod-x (limit 256 MiB)");
	ev_killed(&e, 0, 0);
	ASSERT_HAS(human(&e, &ctx_utc), "OK \xe2\x86\x92 OOM killed      memcg .../pod-x "
		   "(limit 256 MiB) \xc2\xb7 not flagged (not tracked)\n");
	/* tracked, but it had left OOM risk long before */
	ev_killed(&e, 0, 1);
	e.oom.oom_risk_since_ns = 1;
	ASSERT_HAS(human(&e, &ctx_utc), "\xc2\xb7 not flagged in time (left OOM risk before)\n");
	/* no memory cgroup at its limit: the host ran out */
	e.oom.memcg_id = 0;
	e.oom.oom_risk_since_ns = 0;
	ASSERT_HAS(human(&e, &ctx_utc), "OOM killed      host OOM \xc2\xb7 not flagged\n");
	/* a hostile cgroup name is made terminal-safe */
	ev_killed(&e, 1, 1);
	c.oom_memcg = "/a\033[31mb";
	ASSERT_LACKS(human(&e, &c), "\033[31m");
}

static void test_json(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;
	int n;

	ev_killed(&e, 1, 1);
	ASSERT_HAS(json(&e, NULL), "\"from\":\"oom_risk\",\"to\":\"oom_killed\",");
	ASSERT_HAS(fmt_out, "{\"time\":\"2026-11-22T05:21:34.123Z\",");
	ASSERT_HAS(fmt_out, "\"oom_memcg\":\".../pod-x\",\"oom_memcg_id\":4242,"
		   "\"oom_limit_bytes\":268435456,\"oom_usage_bytes\":268431360,"
		   "\"flagged\":true,\"flagged_for_s\":42,\"tracked\":true}\n");
	c.oom_memcg = "/kubepods/pod-x";
	n = hk_format__json(fmt_out, sizeof(fmt_out), &e, NULL, &c);
	CU_ASSERT(n > 0);
	ASSERT_HAS(fmt_out, "\"oom_memcg\":\"/kubepods/pod-x\",");
	ev_killed(&e, 0, 0);
	e.oom.memcg_id = 0;
	ASSERT_HAS(json(&e, NULL), "\"oom_memcg\":\"host\",\"oom_memcg_id\":0,");
	ASSERT_HAS(fmt_out, "\"flagged\":false,\"flagged_for_s\":null,\"tracked\":false}\n");
}

static void test_priority(void)
{
	struct hk_event e;

	ev_killed(&e, 1, 1);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 4);	/* said before: a warning */
	ev_killed(&e, 0, 1);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 3);	/* missed: an error */
	ev_exited(&e);
	CU_ASSERT_EQUAL(hk_event__priority(&e), 6);
}

/* A tree of directories under TMPDIR; the kill names one by its inode. */
static void test_find(void)
{
	char root[256], path[512], buf[128];
	const char *base = getenv("TMPDIR");
	struct hk_oom_kill k = {};
	struct stat st;
	char *found;

	snprintf(root, sizeof(root), "%s/hk-oom-XXXXXX", base && *base ? base : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/a", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/pod-x", root);	/* same name, elsewhere */
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/a/b", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/a/b/pod-x", root);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);

	k.memcg_id = st.st_ino;
	memcpy(k.memcg_name, "pod-x", 6);
	found = hk_oom_memcg__find(root, &k, NULL, NULL);
	ASSERT_STR(found ? found : "(null)", "/a/b/pod-x");
	hk_oom_memcg__name(buf, sizeof(buf), &k, found);
	ASSERT_STR(buf, "/a/b/pod-x");
	free(found);
	/* gone (or another inode): not found, and the line says the name */
	k.memcg_id = st.st_ino + 1000000;
	CU_ASSERT_PTR_NULL(hk_oom_memcg__find(root, &k, NULL, NULL));
	hk_oom_memcg__name(buf, sizeof(buf), &k, NULL);
	ASSERT_STR(buf, ".../pod-x");
	/* the hierarchy's root itself */
	CU_ASSERT_EQUAL_FATAL(stat(root, &st), 0);
	k.memcg_id = st.st_ino;
	found = hk_oom_memcg__find(root, &k, NULL, NULL);
	ASSERT_STR(found ? found : "(null)", "/");
	free(found);
	/* a host OOM names no cgroup */
	k.memcg_id = 0;
	CU_ASSERT_PTR_NULL(hk_oom_memcg__find(root, &k, NULL, NULL));
	hk_oom_memcg__name(buf, sizeof(buf), &k, NULL);
	ASSERT_STR(buf, "host");
	/* a name that fills the field has no NUL */
	k.memcg_id = 7;
	memset(k.memcg_name, 'n', sizeof(k.memcg_name));
	hk_oom_memcg__name(buf, sizeof(buf), &k, NULL);
	CU_ASSERT_EQUAL(strlen(buf), 4 + HK_OOM_NAME_LEN);

	snprintf(path, sizeof(path), "%s/a/b/pod-x", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a/b", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/pod-x", root);
	rmdir(path);
	rmdir(root);
}

/*
 * A search within a budget: a wide tree (what a delegated user makes for
 * free) is left after b.dirs directories or at the deadline, said in
 * b.cut; with room, the same search finds the cgroup.
 */
static void test_find_budget(void)
{
	char root[256], path[512];
	const char *base = getenv("TMPDIR");
	struct hk_oom_memcg_budget b = { .dirs = 100 };
	struct hk_oom_kill k = {};
	struct stat st;
	char *found;
	long uid = 7;
	int i;

	snprintf(root, sizeof(root), "%s/hk-oomb-XXXXXX", base && *base ? base : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	for (i = -1; i < 300; i++) {
		snprintf(path, sizeof(path), i < 0 ? "%s/wide" : "%s/wide/c%d", root, i);
		CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	}
	/* in the last directory made: readdir may give it early, then found */
	strcat(path, "/pod-z");
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700) || stat(path, &st), 0);
	k.memcg_id = st.st_ino;
	memcpy(k.memcg_name, "pod-z", 6);

	found = hk_oom_memcg__find(root, &k, &b, &uid);
	if (found) {
		/* readdir gave c299 among the first 100 */
		free(found);
	} else {
		CU_ASSERT_EQUAL(b.cut, 1);
		CU_ASSERT_EQUAL(b.dirs, 0);
		CU_ASSERT_EQUAL(uid, -1);
	}
	/* a deadline passed: cut before the first directory */
	b.dirs = 1000;
	b.deadline_ns = 1;
	b.cut = 0;
	CU_ASSERT_PTR_NULL(hk_oom_memcg__find(root, &k, &b, NULL));
	CU_ASSERT_EQUAL(b.cut, 1);
	CU_ASSERT_EQUAL(b.dirs, 1000);
	/* room enough: found, its owner said */
	b.dirs = 1000;
	b.deadline_ns = 0;
	b.cut = 0;
	found = hk_oom_memcg__find(root, &k, &b, &uid);
	ASSERT_STR(found ? found : "(null)", "/wide/c299/pod-z");
	CU_ASSERT_EQUAL(b.cut, 0);
	CU_ASSERT_EQUAL(uid, (long)getuid());
	free(found);

	rmdir(path);
	for (i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/wide/c%d", root, i);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/wide", root);
	rmdir(path);
	rmdir(root);
}

/* An id looked up once in a while, not at every kill: the second kill in
 * the same memory cgroup is answered from what the first found (or not). */
static void test_describe_cached(void)
{
	struct hk_oom_memcgs c = {};
	struct hk_oom_kill k = {};
	char *a, *b;
	long uid;

	k.memcg_id = 0x7fffffff00000001ULL;	/* no cgroup has it */
	memcpy(k.memcg_name, "gone", 5);
	a = hk_oom_memcg__describe(&c, &k, 1000, &uid);
	b = hk_oom_memcg__describe(&c, &k, 2000, &uid);
	ASSERT_STR(a ? a : "(null)", ".../gone");
	ASSERT_STR(b ? b : "(null)", ".../gone");
	CU_ASSERT_EQUAL(c.lookups, 2);
	CU_ASSERT_EQUAL(c.cached, 1);
	/* kept HK_OOM_MEMCG_TTL_NS, then looked up again */
	free(a);
	a = hk_oom_memcg__describe(&c, &k, 1000 + HK_OOM_MEMCG_TTL_NS, &uid);
	CU_ASSERT_EQUAL(c.cached, 1);
	free(a);
	free(b);
	/* a host OOM: no lookup, root's */
	k.memcg_id = 0;
	a = hk_oom_memcg__describe(&c, &k, 3000, &uid);
	ASSERT_STR(a ? a : "(null)", "host");
	CU_ASSERT_EQUAL(uid, 0);
	CU_ASSERT_EQUAL(c.lookups, 3);
	free(a);
	hk_oom_memcgs__free(&c);
}

int hk_add_oom_kill_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "at its limit", test_at_limit },
		{ "flagged in time", test_flagged },
		{ "flagged_for_s", test_flagged_for },
		{ "a mark that killed nothing", test_killed },
		{ "human oom_killed", test_human },
		{ "json oom_killed", test_json },
		{ "journal priority", test_priority },
		{ "the memcg's path by inode", test_find },
		{ "the search's budget", test_find_budget },
		{ "kept per memcg id", test_describe_cached },
	};

	return HK_ADD_SUITE("oom kill", tests);
}
