// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_mem_blame.c - memory-pressure blame on made-up processes: each
 * grower's exact share of the limit's growth, the largest first (ties by
 * TGID), at most HK_GROWERS; nobody when the limit did not grow; a
 * page-cache streamer (file pages only: no anon + swap growth) never
 * named; the candidates limited to the limiting cgroup's subtree, to
 * fresh entries, and to the cap, what is past it counted; on a made-up
 * cgroup tree, the limiting cgroup found up from the process's and its
 * subtree listed within its caps.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "format_fixtures.h"
#include "output/mem_blame.h"
#include "output/mem_blame_scope.h"
#include "suites.h"

#define MIB (1LL << 20)

static struct hk_blame_cand cand(__u32 tgid, const char *comm, __s64 growth)
{
	struct hk_blame_cand c = { .tgid = tgid, .growth_bytes = growth };

	set_comm(c.comm, comm);
	return c;
}

static void test_shares_exact(void)
{
	struct hk_blame_cand c[] = {
		cand(100, "service", 0),
		cand(4242, "leak", 86 * MIB),
		cand(300, "helper", 14 * MIB),
	};
	struct hk_mem_blame b = {};

	CU_ASSERT_EQUAL(hk_mem_blame__shares(c, 3, HK_BLAME_MIN_GROWTH_BYTES, &b), 2);
	CU_ASSERT_EQUAL(b.n, 2);
	CU_ASSERT_EQUAL(b.limit_growth_bytes, 100 * MIB);
	CU_ASSERT_EQUAL(b.g[0].tgid, 4242);
	CU_ASSERT_STRING_EQUAL(b.g[0].comm, "leak");
	CU_ASSERT_EQUAL(b.g[0].growth_bytes, 86 * MIB);
	CU_ASSERT_EQUAL(b.g[0].share_pct_x100, 8600);
	CU_ASSERT_EQUAL(b.g[1].tgid, 300);
	CU_ASSERT_EQUAL(b.g[1].share_pct_x100, 1400);
	/* a third of it each: floored, never over 100 % summed */
	{
		struct hk_blame_cand t[] = { cand(1, "a", 3 * MIB), cand(2, "b", 3 * MIB),
					     cand(3, "c", 3 * MIB) };

		CU_ASSERT_EQUAL(hk_mem_blame__shares(t, 3, HK_BLAME_MIN_GROWTH_BYTES, &b), 3);
		CU_ASSERT_EQUAL(b.g[0].share_pct_x100, 3333);
		CU_ASSERT_EQUAL(b.g[2].share_pct_x100, 3333);
	}
}

/* Shares are of the growers' growth: a process that shrank frees room,
 * it does not take part of the blame, but it is in the limit's growth. */
static void test_shrinker(void)
{
	struct hk_blame_cand c[] = { cand(7, "leak", 40 * MIB), cand(8, "gc", -10 * MIB) };
	struct hk_mem_blame b = {};

	CU_ASSERT_EQUAL(hk_mem_blame__shares(c, 2, HK_BLAME_MIN_GROWTH_BYTES, &b), 1);
	CU_ASSERT_EQUAL(b.limit_growth_bytes, 30 * MIB);
	CU_ASSERT_EQUAL(b.g[0].tgid, 7);
	CU_ASSERT_EQUAL(b.g[0].share_pct_x100, 10000);
}

/* The limit did not grow: one grew as much as another shrank, or all
 * grew by less than the floor summed. Nobody is named. */
static void test_no_growth(void)
{
	struct hk_blame_cand c[] = { cand(7, "a", 20 * MIB), cand(8, "b", -20 * MIB) };
	struct hk_blame_cand small[] = { cand(7, "a", MIB / 2), cand(8, "b", MIB / 2 - 1) };
	struct hk_mem_blame b = { .n = 9 };

	CU_ASSERT_EQUAL(hk_mem_blame__shares(c, 2, HK_BLAME_MIN_GROWTH_BYTES, &b), 0);
	CU_ASSERT_EQUAL(b.n, 0);
	CU_ASSERT_EQUAL(b.limit_growth_bytes, 0);
	CU_ASSERT_EQUAL(hk_mem_blame__shares(small, 2, HK_BLAME_MIN_GROWTH_BYTES, &b), 0);
	CU_ASSERT_EQUAL(b.limit_growth_bytes, MIB - 1);
	/* exactly the floor: named */
	small[1].growth_bytes = MIB / 2;
	CU_ASSERT_EQUAL(hk_mem_blame__shares(small, 2, HK_BLAME_MIN_GROWTH_BYTES, &b), 2);
	CU_ASSERT_EQUAL(hk_mem_blame__shares(NULL, 0, HK_BLAME_MIN_GROWTH_BYTES, &b), 0);
}

/* Equal growth: the lower TGID first, whatever the order given; the
 * largest HK_GROWERS named, the shares still of everyone's growth. */
static void test_ties_and_top(void)
{
	struct hk_blame_cand c[] = {
		cand(50, "e", 10 * MIB), cand(40, "d", 20 * MIB), cand(30, "c", 20 * MIB),
		cand(20, "b", 30 * MIB), cand(10, "a", 20 * MIB),
	};
	struct hk_mem_blame b = {};

	CU_ASSERT_EQUAL(hk_mem_blame__shares(c, 5, HK_BLAME_MIN_GROWTH_BYTES, &b), HK_GROWERS);
	CU_ASSERT_EQUAL(b.limit_growth_bytes, 100 * MIB);
	CU_ASSERT_EQUAL(b.g[0].tgid, 20);
	CU_ASSERT_EQUAL(b.g[0].share_pct_x100, 3000);
	CU_ASSERT_EQUAL(b.g[1].tgid, 10);
	CU_ASSERT_EQUAL(b.g[1].share_pct_x100, 2000);
	CU_ASSERT_EQUAL(b.g[2].tgid, 30);
	CU_ASSERT_EQUAL(b.g[2].share_pct_x100, 2000);
}

/* hk_procs entries -> candidates: the streamer's window grew its page
 * cache (rss_bytes) by 200 MiB and its anon + swap by nothing. */
#define NOW_NS		(100 * HK_NSEC_PER_SEC)
#define WINDOW_NS	HK_NSEC_PER_SEC

static void entry(struct hk_proc *p, const char *comm, __u64 memcg, __s64 growth_per_s,
		  __u64 sample_ns)
{
	memset(p, 0, sizeof(*p));
	set_comm(p->comm, comm);
	p->sample_ns = sample_ns;
	p->ev.window_ns = WINDOW_NS;
	p->ev.memcg_id = memcg;
	p->ev.rss_growth_bytes_per_s = growth_per_s;
}

static void test_cands(void)
{
	__u32 pids[5] = { 11, 12, 13, 14, 15 };
	struct hk_proc procs[5];
	__u64 ids[] = { 900, 77, 500 };
	struct hk_blame_scope s = { .ids = ids, .nr_ids = 3 };
	struct hk_blame_cand out[5];
	struct hk_mem_blame b = {};
	__u64 cut = 0;

	hk_mem_blame__sort_ids(ids, 3);
	CU_ASSERT_EQUAL(ids[0], 77);
	CU_ASSERT_EQUAL(ids[2], 900);
	entry(&procs[0], "service", 77, 0, NOW_NS);
	entry(&procs[1], "leak", 500, 32 * MIB, NOW_NS - 1000);
	entry(&procs[2], "streamer", 900, 0, NOW_NS);
	procs[2].ev.rss_bytes = 200 * MIB;
	/* outside the limit's subtree: grows, not a candidate */
	entry(&procs[3], "other", 600, 64 * MIB, NOW_NS);
	/* not sampled in this walk (gone quiet, or its entry stale) */
	entry(&procs[4], "stale", 500, 64 * MIB, NOW_NS - WINDOW_NS);
	CU_ASSERT_EQUAL(hk_mem_blame__cands(pids, procs, 5, &s, NOW_NS, out, 5, &cut), 3);
	CU_ASSERT_EQUAL(cut, 0);
	CU_ASSERT_EQUAL(out[1].tgid, 12);
	CU_ASSERT_EQUAL(out[1].growth_bytes, 32 * MIB);
	CU_ASSERT_EQUAL(hk_mem_blame__shares(out, 3, HK_BLAME_MIN_GROWTH_BYTES, &b), 1);
	CU_ASSERT_EQUAL(b.g[0].tgid, 12);
	CU_ASSERT_EQUAL(b.g[0].share_pct_x100, 10000);
	/* a 500 ms window: half the bytes */
	procs[1].ev.window_ns = WINDOW_NS / 2;
	hk_mem_blame__cands(pids, procs, 5, &s, NOW_NS, out, 5, &cut);
	CU_ASSERT_EQUAL(out[1].growth_bytes, 16 * MIB);
	/* the host binds: everyone sampled now is a candidate */
	s.all = 1;
	CU_ASSERT_EQUAL(hk_mem_blame__cands(pids, procs, 5, &s, NOW_NS, out, 5, &cut), 4);
	/* the cap: two taken, the rest counted */
	CU_ASSERT_EQUAL(hk_mem_blame__cands(pids, procs, 5, &s, NOW_NS, out, 2, &cut), 2);
	CU_ASSERT_EQUAL(cut, 2);
	CU_ASSERT(hk_mem_blame__in_scope(&s, 12345));
	s.all = 0;
	CU_ASSERT(hk_mem_blame__in_scope(&s, 500));
	CU_ASSERT(!hk_mem_blame__in_scope(&s, 501));
	CU_ASSERT(!hk_mem_blame__in_scope(&s, 0));
}

static char base[64];

/* mkdir -p each of the paths under base (NULL-terminated) */
static void dirs(const char *first, ...)
{
	char cmd[512];
	const char *d;
	va_list ap;

	va_start(ap, first);
	for (d = first; d; d = va_arg(ap, const char *)) {
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s%s'", base, d);
		CU_ASSERT_FATAL(system(cmd) == 0);
	}
	va_end(ap);
}

static void rm_base(void)
{
	char cmd[128];

	/* base is /tmp/hk-unit-blame.XXXXXX, mkdtemp's */
	CU_ASSERT_FATAL(!strncmp(base, "/tmp/hk-unit-blame.", 19));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT(system(cmd) == 0);
}

static void limit_file(const char *dir, const char *name, const char *value)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/%s", base, dir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(value, f);
	fclose(f);
}

static const char *limiting(const char *path, __u64 limit_bytes)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s", path);
	hk_mem_blame__limiting(base, p, limit_bytes);
	return p;
}

/* A pod's 128 MiB given to its containers too (v2), one container with a
 * tighter one of its own, a v1 limit file above: the highest cgroup with
 * the limit the walk found binds. */
static void test_limiting(void)
{
	snprintf(base, sizeof(base), "/tmp/hk-unit-blame.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	dirs("/kube/pod/c1", "/kube/pod/c2", NULL);
	limit_file("/kube", "memory.limit_in_bytes", "9223372036854771712\n");
	limit_file("/kube/pod", "memory.max", "134217728\n");
	limit_file("/kube/pod/c1", "memory.max", "134217728\n");
	limit_file("/kube/pod/c2", "memory.max", "67108864\n");
	CU_ASSERT_STRING_EQUAL(limiting("/kube/pod/c1", 134217728), "/kube/pod");
	CU_ASSERT_STRING_EQUAL(limiting("/kube/pod/c2", 67108864), "/kube/pod/c2");
	CU_ASSERT_STRING_EQUAL(limiting("/kube/pod/c2", 134217728), "/kube/pod");
	/* "max" is no limit; a limit nobody has: none */
	limit_file("/kube/pod", "memory.max", "max\n");
	CU_ASSERT_STRING_EQUAL(limiting("/kube/pod/c1", 134217728), "/kube/pod/c1");
	CU_ASSERT_STRING_EQUAL(limiting("/kube/pod/c1", 4096), "");
	rm_base();
}

/* The subtree's ids: every directory's inode, within the caps; each
 * cgroup a cap leaves out counted once. */
static void test_list_ids(void)
{
	__u64 ids[8], cut = 0;
	char deep[256] = "";
	struct stat st;
	int fd, i;

	snprintf(base, sizeof(base), "/tmp/hk-unit-blame.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	dirs("/a/x", "/b/y", NULL);
	limit_file("", "memory.max", "max\n");
	fd = open(base, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(hk_mem_blame__list_ids(fd, ids, 8, &cut), 5);
	CU_ASSERT_EQUAL(cut, 0);
	CU_ASSERT(!fstat(fd, &st) && ids[0] == (__u64)st.st_ino);
	/* a cap of 3: the root, one child and its child; the other child
	 * counted once, its own child unlisted */
	cut = 0;
	CU_ASSERT_EQUAL(hk_mem_blame__list_ids(fd, ids, 3, &cut), 3);
	CU_ASSERT_EQUAL(cut, 1);
	close(fd);
	/* deeper than HK_BLAME_MAX_DEPTH: the level past it counted */
	for (i = 0; i <= HK_BLAME_MAX_DEPTH; i++)
		strcat(deep, "/d");
	rm_base();
	CU_ASSERT_FATAL(mkdtemp(strcpy(base, "/tmp/hk-unit-blame.XXXXXX")) != NULL);
	dirs(deep, NULL);
	fd = open(base, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(fd >= 0);
	cut = 0;
	{
		__u64 many[64];

		CU_ASSERT_EQUAL(hk_mem_blame__list_ids(fd, many, 64, &cut),
				HK_BLAME_MAX_DEPTH + 1);
		CU_ASSERT_EQUAL(cut, 1);
	}
	close(fd);
	rm_base();
}

static const struct hk_unit_test tests[] = {
	{ "shares_exact", test_shares_exact },
	{ "shrinker", test_shrinker },
	{ "no_growth", test_no_growth },
	{ "ties_and_top", test_ties_and_top },
	{ "cands", test_cands },
	{ "limiting cgroup", test_limiting },
	{ "subtree ids and caps", test_list_ids },
};

int hk_add_mem_blame_suite(void)
{
	return HK_ADD_SUITE("mem_blame", tests);
}
