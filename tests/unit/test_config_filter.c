// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_config_filter.c - the [filter] keys and the flags' helpers: lists of
 * PIDs and names, a cgroup path; their errors, --generate-config's round
 * trip, and what a reload says it changed.
 */
#include <stdlib.h>
#include <string.h>
#include "config_fixtures.h"
#include "suites.h"

static int parse(struct hk_config *c, const char *text, char *err, size_t len)
{
	hk_config__defaults(c);
	err[0] = '\0';
	return hk_config__parse_string(c, text, "t.conf", err, len);
}

static void test_filter_keys(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN];

	CHECK_U64(parse(&c, "[filter]\npids = 1, 22 ,4194304,22\n"
			"comms = nginx , postgres\nexclude_comms = sshd\n"
			"cgroup = /system.slice/x y.service\n", err, sizeof(err)), 0);
	CHECK_STR(err, "");
	/* a PID given twice counts once */
	CHECK_U64(c.filter_pids.n, 3);
	CHECK_U64(c.filter_pids.pid[0], 1);
	CHECK_U64(c.filter_pids.pid[1], 22);
	CHECK_U64(c.filter_pids.pid[2], 4194304);
	CHECK_U64(c.filter_comms.n, 2);
	CHECK_STR(c.filter_comms.comm[0], "nginx");
	CHECK_STR(c.filter_comms.comm[1], "postgres");
	CHECK_U64(c.exclude_comms.n, 1);
	CHECK_STR(c.exclude_comms.comm[0], "sshd");
	CHECK_STR(c.filter_cgroup, "/system.slice/x y.service");
	/* names are NUL-padded: the BPF side compares whole arrays */
	CHECK_U64(c.filter_comms.comm[0][5] | c.filter_comms.comm[0][15], 0);

	/* an empty value clears, as a key set again replaces */
	CHECK_U64(parse(&c, "[filter]\npids = 3\n[filter]\n", err, sizeof(err)), 0);
	CHECK_U64(c.filter_pids.n, 1);
	CHECK_U64(hk_config__parse_string(&c, "[filter]\npids =\ncomms =\ncgroup =\n", "t.conf",
					  err, sizeof(err)), 0);
	CHECK_U64(c.filter_pids.n, 0);
	CHECK_STR(c.filter_cgroup, "");
}

#define FILTER_ERROR(text, msg)							\
	do {									\
		CHECK_U64(parse(&c, text, err, sizeof(err)), (__u64)-1);	\
		CHECK_STR(err, msg);						\
	} while (0)

static void test_filter_errors(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN];

	FILTER_ERROR("[filter]\npids = 0\n",
		     "t.conf:2: bad value for pids: '0' is not a PID (1..4194304)");
	FILTER_ERROR("[filter]\npids = 4194305\n",
		     "t.conf:2: bad value for pids: '4194305' is not a PID (1..4194304)");
	FILTER_ERROR("[filter]\npids = 12k\n",
		     "t.conf:2: bad value for pids: '12k' is not a PID (1..4194304)");
	FILTER_ERROR("[filter]\npids = 1,,2\n",
		     "t.conf:2: bad value for pids: an empty item in the list");
	FILTER_ERROR("[filter]\npids = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n",
		     "t.conf:2: bad value for pids: more than 16 PIDs");
	FILTER_ERROR("[filter]\ncomms = a,b,c,d,e,f,g,h,i\n",
		     "t.conf:2: bad value for comms: more than 8 process names");
	FILTER_ERROR("[filter]\ncomms = abcdefghijklmnop\n",
		     "t.conf:2: bad value for comms: 'abcdefghijklmnop' is not a process "
		     "name (1 to 15 bytes)");
	FILTER_ERROR("[filter]\nexclude_comms = a\tb\n",
		     "t.conf:2: bad value for exclude_comms: 'a\\x09b': a process name here "
		     "has no control character, ',' or '#'");
	FILTER_ERROR("[filter]\ncgroup = system.slice\n",
		     "t.conf:2: bad value for cgroup: 'system.slice' is not a cgroup path "
		     "(it starts with '/', at most 255 bytes)");
	FILTER_ERROR("[filter]\nthreads = 3\n", "t.conf:2: unknown key 'threads' in [filter]");
}

/* What --generate-config prints of the filters parses back to them. */
static void test_filter_generate(void)
{
	struct hk_config c, back;
	char err[HK_ERR_LEN], *text;

	CHECK_U64(parse(&c, "[filter]\npids = 7, 4300\ncomms = a b, x\n"
			"exclude_comms = kworker/0:1\ncgroup = /kubepods/pod1\n",
			err, sizeof(err)), 0);
	text = generate(&c);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\npids = 7, 4300\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ncomms = a b, x\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ncgroup = /kubepods/pod1\n"));
	CHECK_U64(parse(&back, text, err, sizeof(err)), 0);
	CHECK_U64(memcmp(&back, &c, sizeof(c)) == 0, 1);
	free(text);
	/* the defaults: empty, and they parse as such */
	hk_config__defaults(&c);
	text = generate(&c);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\npids =\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n# PIDs, comma-separated, at most 16. Default: none.\n"));
	CHECK_U64(parse(&back, text, err, sizeof(err)), 0);
	CHECK_U64(memcmp(&back, &c, sizeof(c)) == 0, 1);
	free(text);
}

/* The flags' helpers, and what a reload says. */
static void test_filter_flags_and_diff(void)
{
	struct hk_config a, b;
	char why[HK_ERR_LEN], diff[512];

	hk_config__defaults(&a);
	b = a;
	CHECK_U64(hk_filter__add_pid(&b, "4300", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_comm(&b.filter_comms, "nginx", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__set_cgroup(&b, "/a", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_pid(&b, "x", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'x' is not a PID (1..4194304)");
	b.starved_wait_pct_x100 = 6000;
	CHECK_U64(hk_config__diff(&a, &b, diff, sizeof(diff)), 4);
	CHECK_STR(diff, "starved.min_wait 70% -> 60%, filter.pids (none) -> 4300, "
		  "filter.comms (none) -> nginx, filter.cgroup (none) -> /a");
	CHECK_U64(hk_config__diff(&a, &a, diff, sizeof(diff)), 0);
	CHECK_STR(diff, "");
	CHECK_U64(hk_config__filters_differ(&a, &b), 1);
	a.filter_pids = b.filter_pids;
	a.filter_comms = b.filter_comms;
	CHECK_U64(hk_config__filters_differ(&a, &b), 0);	/* the path's id is unresolved */
}

int hk_add_config_filter_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "filter keys", test_filter_keys },
		{ "filter errors", test_filter_errors },
		{ "filter generate", test_filter_generate },
		{ "filter flags and diff", test_filter_flags_and_diff },
	};

	return HK_ADD_SUITE("config filter", tests);
}
