// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_linelimit.c - a user's lines bounded per interval, root and system
 * users never, what was held back counted and owed once the interval ends
 * (output/linelimit.c).
 */
#include <CUnit/CUnit.h>
#include "output/linelimit.h"
#include "suites.h"

#define T0 (100ULL * HK_LINELIMIT_INTERVAL_NS)

static void test_root_and_system(void)
{
	static struct hk_linelimit l;
	long uids[] = { -1, 0, 999 };
	unsigned int i, n;

	for (i = 0; i < 3; i++)
		for (n = 0; n < 10 * HK_LINELIMIT_LINES; n++)
			CU_ASSERT_EQUAL(hk_linelimit__take(&l, uids[i], T0 + n),
					HK_LINELIMIT_WRITE);
	CU_ASSERT_EQUAL(l.held_total, 0);
	/* an OOM kill's memory cgroup not found: its owner unknown, bounded */
	for (n = 0; n < HK_LINELIMIT_LINES; n++)
		CU_ASSERT_EQUAL(hk_linelimit__take(&l, HK_LINELIMIT_OWNER_UNKNOWN, T0 + n),
				HK_LINELIMIT_WRITE);
	CU_ASSERT_EQUAL(hk_linelimit__take(&l, HK_LINELIMIT_OWNER_UNKNOWN, T0 + n),
			HK_LINELIMIT_HOLD_FIRST);
}

static void test_user_bounded(void)
{
	static struct hk_linelimit l;
	__u64 held;
	long uid;
	int n;

	for (n = 0; n < HK_LINELIMIT_LINES; n++)
		CU_ASSERT_EQUAL(hk_linelimit__take(&l, 65534, T0 + n), HK_LINELIMIT_WRITE);
	CU_ASSERT_EQUAL(hk_linelimit__take(&l, 65534, T0 + n), HK_LINELIMIT_HOLD_FIRST);
	for (n = 0; n < 5; n++)
		CU_ASSERT_EQUAL(hk_linelimit__take(&l, 65534, T0 + 100 + n), HK_LINELIMIT_HOLD);
	/* another user is not held for it */
	CU_ASSERT_EQUAL(hk_linelimit__take(&l, 1000, T0 + 200), HK_LINELIMIT_WRITE);
	/* nothing owed before the interval ends; then the count, once */
	CU_ASSERT_EQUAL(hk_linelimit__due(&l, T0 + HK_LINELIMIT_INTERVAL_NS - 1, &uid, &held), 0);
	CU_ASSERT_EQUAL(hk_linelimit__due(&l, T0 + HK_LINELIMIT_INTERVAL_NS, &uid, &held), 1);
	CU_ASSERT_EQUAL(uid, 65534);
	CU_ASSERT_EQUAL(held, 6);
	CU_ASSERT_EQUAL(hk_linelimit__due(&l, T0 + HK_LINELIMIT_INTERVAL_NS, &uid, &held), 0);
	CU_ASSERT_EQUAL(l.held_total, 6);
	/* a new interval: written again */
	CU_ASSERT_EQUAL(hk_linelimit__take(&l, 65534, T0 + HK_LINELIMIT_INTERVAL_NS + 1),
			HK_LINELIMIT_WRITE);
}

/* Users past the table share one slot: bounded together, never unbounded. */
static void test_many_users(void)
{
	static struct hk_linelimit l;
	unsigned int u, n, written = 0;
	__u64 held;
	long uid;

	for (u = 0; u < 10 * HK_LINELIMIT_USERS; u++)
		for (n = 0; n < HK_LINELIMIT_LINES + 1; n++)
			written += hk_linelimit__take(&l, 100000 + u, T0 + n) ==
				   HK_LINELIMIT_WRITE;
	CU_ASSERT_EQUAL(written, HK_LINELIMIT_USERS * HK_LINELIMIT_LINES);
	for (n = 0; hk_linelimit__due(&l, T0 + HK_LINELIMIT_INTERVAL_NS, &uid, &held); n++)
		;
	CU_ASSERT_EQUAL(n, HK_LINELIMIT_USERS);
	CU_ASSERT_EQUAL(uid, HK_LINELIMIT_PAST_TABLE);
}

/* An exit's line is the process's, whose uid was kept at its last line. */
static void test_remember(void)
{
	static struct hk_linelimit l;

	CU_ASSERT_EQUAL(hk_linelimit__recall(&l, 4301), -1);
	hk_linelimit__remember(&l, 4301, 65534);
	CU_ASSERT_EQUAL(hk_linelimit__recall(&l, 4301), 65534);
	/* another PID in the same slot takes it over */
	hk_linelimit__remember(&l, 4301 + HK_LINELIMIT_PIDS, 1000);
	CU_ASSERT_EQUAL(hk_linelimit__recall(&l, 4301), -1);
	CU_ASSERT_EQUAL(hk_linelimit__recall(&l, 4301 + HK_LINELIMIT_PIDS), 1000);
}

int hk_add_linelimit_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "root and system users never held", test_root_and_system },
		{ "a user's lines bounded, the rest counted", test_user_bounded },
		{ "users past the table share a slot", test_many_users },
		{ "an exit's uid kept", test_remember },
	};

	return HK_ADD_SUITE("line limit", tests);
}
