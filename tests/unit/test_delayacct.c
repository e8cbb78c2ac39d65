// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_delayacct.c - the delay accounting switch, on a stand-in file: on
 * only when it was off, put back only what was turned on, and a switch
 * that cannot be read or written said so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "delayacct.h"
#include "suites.h"

static char path[64];

static void put(const char *v)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(v, f);
	fclose(f);
}

static char got(void)
{
	char buf[8] = "";
	FILE *f = fopen(path, "r");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	return buf[0];
}

static void test_switch(void)
{
	struct hk_delayacct d = { .path = path };
	char why[256];
	int fd;

	snprintf(path, sizeof(path), "/tmp/hk-unit-delayacct.XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);

	/* off: turned on, and back off */
	put("0\n");
	CU_ASSERT_EQUAL(hk_delayacct__enable(&d, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(d.turned_on, 1);
	CU_ASSERT_EQUAL(got(), '1');
	/* twice: nothing more */
	CU_ASSERT_EQUAL(hk_delayacct__enable(&d, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(hk_delayacct__restore(&d), 0);
	CU_ASSERT_EQUAL(d.turned_on, 0);
	CU_ASSERT_EQUAL(got(), '0');

	/* on already (the administrator's): left on */
	put("1\n");
	CU_ASSERT_EQUAL(hk_delayacct__enable(&d, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(d.turned_on, 0);
	CU_ASSERT_EQUAL(hk_delayacct__restore(&d), 0);
	CU_ASSERT_EQUAL(got(), '1');

	/* not a switch's value */
	put("x\n");
	CU_ASSERT_EQUAL(hk_delayacct__enable(&d, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, path));
	CU_ASSERT_EQUAL(d.turned_on, 0);

	/* no such switch (a kernel without CONFIG_TASK_DELAY_ACCT) */
	unlink(path);
	why[0] = '\0';
	CU_ASSERT_EQUAL(hk_delayacct__enable(&d, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "No such file or directory"));
}

int hk_add_delayacct_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "switch on, back off, left alone", test_switch },
	};

	return HK_ADD_SUITE("delayacct", tests);
}
