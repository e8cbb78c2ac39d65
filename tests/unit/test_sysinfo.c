// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_sysinfo.c - the NUMA node count the host headroom reads
 * (user/lib/sysinfo.c): sysfs's possible list; without sysfs (some
 * containers), /proc/zoneinfo's highest node; without either, the most
 * the kernel side reads, never 1 (review kernel-2, finding 8: a missing
 * /sys shrank the headroom to node 0's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "lib/sysinfo.h"
#include "suites.h"

static char dir[] = "/tmp/hk-sysinfo-XXXXXX";

static const char *put(const char *name, const char *text)
{
	static char path[2][128];
	static int n;
	char *p = path[n++ & 1];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static void test_nodes(void)
{
	char none[160];
	const char *zi = "Node 0, zone      DMA\n  pages free     3584\n"
			 "Node 0, zone   Normal\nNode 3, zone   Normal\n  pages free 1\n";

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(none, sizeof(none), "%s/absent", dir);
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(put("possible", "0\n"), none), 1);
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(put("possible", "0-3\n"), none), 4);
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(put("possible", "0,2-3,252-255\n"), none), 256);
	/* no sysfs: the highest node with zones, plus one */
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(none, put("zoneinfo", zi)), 4);
	/* neither: every node the kernel side reads without bpf_loop */
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(none, none), HK_HOST_NODES_BOUNDED);
	CU_ASSERT_EQUAL(hk_sysinfo__nodes_at(none, put("zoneinfo", "garbage\n")),
			HK_HOST_NODES_BOUNDED);
	/* this machine: its own */
	CU_ASSERT(hk_sysinfo__nr_nodes() >= 1);
	unlink(put("possible", ""));
	unlink(put("zoneinfo", ""));
	rmdir(dir);
}

int hk_add_sysinfo_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "NUMA nodes: sysfs, zoneinfo, neither", test_nodes },
	};

	return HK_ADD_SUITE("sysinfo", tests);
}
