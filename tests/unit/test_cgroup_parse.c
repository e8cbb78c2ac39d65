// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_cgroup_parse.c - which path of a /proc/PID/cgroup file the tool
 * takes for a controller, on each shape of host: pure v2 (one "0::" line),
 * hybrid (v1 lines and "0::"), v1 only; controller lists; long lines.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "suites.h"
#include "lib/sysinfo.h"

/* parse(text, ctrl) is want ("" included), or NULL with errno want_errno */
static void check_parse(const char *text, const char *ctrl, const char *want,
			int want_errno, unsigned int line)
{
	char *got;

	errno = 0;
	got = hk_sysinfo__cgroup_parse(text, ctrl);
	if (!want) {
		check_true(!got && errno == want_errno, line,
			   "parse(.., \"%s\"): got \"%.60s\" errno %d, expected NULL errno %d",
			   ctrl, got ? got : "(null)", errno, want_errno);
	} else {
		check_true(got && !strcmp(got, want), line,
			   "parse(.., \"%s\"): got \"%.200s\", expected \"%.200s\"", ctrl,
			   got ? got : "(null)", want);
	}
	free(got);
}

#define PARSE(text, ctrl, want) check_parse((text), (ctrl), (want), 0, __LINE__)
#define PARSE_ERR(text, ctrl, e) check_parse((text), (ctrl), NULL, (e), __LINE__)

/* systemd's default and every Kubernetes node today */
static const char pure_v2[] = "0::/system.slice/nginx.service\n";

static void test_pure_v2(void)
{
	PARSE(pure_v2, "", "/system.slice/nginx.service");
	/* no v1 hierarchy: every controller is the unified one's */
	PARSE(pure_v2, "memory", "/system.slice/nginx.service");
	PARSE(pure_v2, "cpu", "/system.slice/nginx.service");
	PARSE(pure_v2, "name=systemd", "/system.slice/nginx.service");
	/* the root cgroup, and no final newline */
	PARSE("0::/\n", "memory", "/");
	PARSE("0::/a/b", "cpu", "/a/b");
	/* a ':' in a name is the path's */
	PARSE("0::/a:b/c::d\n", "", "/a:b/c::d");
}

/* the lab host's shape: v1 controllers, name=systemd, and the unified one */
static const char hybrid[] =
	"12:pids:/user.slice/user-0.slice/session-1.scope\n"
	"11:cpu,cpuacct:/hk/quota\n"
	"10:memory:/hk/leak\n"
	"9:freezer:/hk/frozen\n"
	"1:name=systemd:/user.slice/user-0.slice/session-1.scope\n"
	"0::/user.slice/user-0.slice/session-1.scope\n";

static void test_hybrid(void)
{
	PARSE(hybrid, "memory", "/hk/leak");
	PARSE(hybrid, "cpu", "/hk/quota");
	PARSE(hybrid, "cpuacct", "/hk/quota");
	PARSE(hybrid, "freezer", "/hk/frozen");
	PARSE(hybrid, "name=systemd", "/user.slice/user-0.slice/session-1.scope");
	PARSE(hybrid, "", "/user.slice/user-0.slice/session-1.scope");
	/* a controller v1 does not have: the unified path */
	PARSE(hybrid, "io", "/user.slice/user-0.slice/session-1.scope");
}

static void test_v1_only(void)
{
	static const char v1[] = "3:cpu,cpuacct:/c\n2:memory:/m\n1:name=systemd:/s\n";

	PARSE(v1, "memory", "/m");
	PARSE(v1, "cpu", "/c");
	/* neither the controller nor a unified line: "" (not an error) */
	PARSE(v1, "freezer", "");
	PARSE(v1, "", "");
	PARSE("", "memory", "");
}

static void test_controller_lists(void)
{
	static const char t[] = "4:cpuacct,cpu:/ab\n3:net_cls,net_prio:/n\n0::/u\n";

	PARSE(t, "cpu", "/ab");
	PARSE(t, "cpuacct", "/ab");
	PARSE(t, "net_prio", "/n");
	/* a name that only starts the same is another controller */
	PARSE(t, "net", "/u");
	PARSE(t, "cpuac", "/u");
	/* lines without two colons are skipped, not misread */
	PARSE("garbage\n0:/x\n0::/y\n", "memory", "/y");
}

static void test_long_lines(void)
{
	size_t n = PATH_MAX + 100, i;
	char *t = malloc(16384), *want = malloc(n);

	CU_ASSERT_FATAL(t && want);
	/* a path of 4000 bytes, after a v1 line longer than any buffer */
	strcpy(t, "5:memory:/");
	for (i = 0; i < 9000 && strlen(t) < 9000; i++)
		strcat(t, "v1/");
	strcat(t, "\n0::/");
	want[0] = '/';
	for (i = 1; i < 4000; i++)
		want[i] = 'a' + (char)(i % 26);
	want[4000] = '\0';
	strcat(t, want + 1);
	strcat(t, "\n");
	PARSE(t, "", want);
	/* the kernel's PATH_MAX - 1 bytes: maybe cut, never taken as a path */
	strcpy(t, "0::/");
	for (i = 1; i < PATH_MAX - 1; i++)
		strcat(t, "x");
	PARSE_ERR(t, "", ENAMETOOLONG);
	PARSE_ERR(t, "memory", ENAMETOOLONG);
	free(t);
	free(want);
}

/* review finding 12: another PID namespace said, and hk_procs sized */
static void test_pidns(void)
{
	EQ(hk_sysinfo__pidns_is_init(4026531836ULL), 1);
	EQ(hk_sysinfo__pidns_is_init(4026532512ULL), 0);
	EQ(hk_sysinfo__pidns_is_init(0), -1);
	EQ(hk_sysinfo__max_procs_for(0), 4096);
	EQ(hk_sysinfo__max_procs_for(1024), 4096);
	EQ(hk_sysinfo__max_procs_for(1025), 8192);
	EQ(hk_sysinfo__max_procs_for(10000), 65536);
	EQ(hk_sysinfo__max_procs_for(0xffffffffU), 65536);
}

static const struct hk_unit_test tests[] = {
	{ "pure v2: every controller is 0::'s", test_pure_v2 },
	{ "hybrid: v1's controller, else 0::", test_hybrid },
	{ "v1 only", test_v1_only },
	{ "controller lists", test_controller_lists },
	{ "long lines", test_long_lines },
	{ "PID namespace; hk_procs sized", test_pidns },
};

int hk_add_cgroup_parse_suite(void)
{
	return HK_ADD_SUITE("cgroup_parse", tests);
}
