// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_freeze.c - freeze before the OOM killer: which cgroups may be
 * frozen (each rule, with its exact reason), the [freeze] keys and their
 * flags, and the line that says what was done, human and JSON, byte for
 * byte. The act itself (cgroup files) is the end-to-end suite's.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "config_fixtures.h"
#include "format_fixtures.h"
#include "act/freeze.h"
#include "lib/pidref.h"
#include "suites.h"

/* The default list: /init.scope, journald, dbus, logind, ssh. */
static void never_defaults(struct hk_path_list *l)
{
	struct hk_config c;

	hk_config__defaults(&c);
	*l = c.freeze_never;
}

#define DECIDE(target, self, want_ret, want_why)				\
	do {									\
		why[0] = '\0';							\
		CHECK_U64((__u64)hk_freeze__decide(target, self, &never, why,	\
						   sizeof(why)), (__u64)(want_ret));	\
		CHECK_STR(why, want_why);					\
	} while (0)

static void test_decide(void)
{
	char why[HK_FREEZE_WHY_MAX], want[HK_FILTER_PATH_LEN + 32];
	struct hk_path_list never;
	__u32 i;

	never_defaults(&never);
	/* the leak's own cgroup, hotspot-k elsewhere: allowed */
	DECIDE("/hk/leak", "/system.slice/hotspot-k.service", 0, "");
	/* a service beside the listed ones is allowed */
	DECIDE("/system.slice/batch.service", "/", 0, "");
	DECIDE("/system.slice/batch.service", "/hk-tool", 0, "");
	/* each default, itself (the defaults are checked by name in "freeze keys") */
	for (i = 0; i < never.n; i++) {
		snprintf(want, sizeof(want), "%s is in --never-freeze", never.path[i]);
		DECIDE(never.path[i], "/hk-tool", -1, want);
	}
	/* a part of a listed one (a service's own sub-cgroups) */
	DECIDE("/system.slice/ssh.service/sub", "/hk-tool", -1,
	       "/system.slice/ssh.service/sub is part of /system.slice/ssh.service, in "
	       "--never-freeze");
	/* an ancestor of a listed one: freezing it would freeze it */
	DECIDE("/system.slice", "/hk-tool", -1,
	       "/system.slice holds /system.slice/systemd-journald.service, in --never-freeze");
	/* a name that only starts the same is another cgroup */
	DECIDE("/system.slice/ssh.service2", "/hk-tool", 0, "");
	DECIDE("/system.slice/ssh.servic", "/hk-tool", 0, "");
	/* the root, however it is written */
	DECIDE("/", "/hk-tool", -1, "/ is the root cgroup");
	DECIDE("", "/hk-tool", -1, "/ is the root cgroup");
	/* hotspot-k's own cgroup and its ancestors */
	DECIDE("/system.slice/hotspot-k.service", "/system.slice/hotspot-k.service", -1,
	       "/system.slice/hotspot-k.service is hotspot-k's own cgroup");
	DECIDE("/a", "/a/b/c", -1, "/a holds hotspot-k's own cgroup /a/b/c");
	DECIDE("/a/b", "/a/b/c", -1, "/a/b holds hotspot-k's own cgroup /a/b/c");
	/* a sibling, or a name that only starts the same, is not an ancestor */
	DECIDE("/a/b", "/a/bc", 0, "");
	DECIDE("/a/b/c/d", "/a/b/c", 0, "");
	/* unknown: it might hold us */
	DECIDE("/hk/leak", NULL, -1, "hotspot-k's own cgroup is unknown: /hk/leak might hold it");
	/* another cgroup namespace's view: not under our mount */
	DECIDE("/../other/leak", "/", -1,
	       "/../other/leak is outside hotspot-k's cgroup namespace");
	DECIDE("/a/..", "/x", -1, "/a/.. is outside hotspot-k's cgroup namespace");
	DECIDE("hk/leak", "/x", -1, "hk/leak is outside hotspot-k's cgroup namespace");
	/* ".." inside a name is a name */
	DECIDE("/a..b/c", "/x", 0, "");
	/* an empty list protects nothing but the rules above */
	never.n = 0;
	DECIDE("/system.slice", "/hk-tool", 0, "");
	DECIDE("/system.slice/ssh.service", "/hk-tool", 0, "");
	/* a slice listed protects every unit in it */
	CHECK_U64(hk_filter__add_path(&never, "/system.slice", why, sizeof(why)), 0);
	DECIDE("/system.slice/batch.service", "/hk-tool", -1,
	       "/system.slice/batch.service is part of /system.slice, in --never-freeze");
	DECIDE("/user.slice/user-1000.slice", "/hk-tool", 0, "");
	/* the rules come first: the root is the root even when listed */
	never.n = 0;
	CHECK_U64(hk_filter__add_path(&never, "/", why, sizeof(why)), 0);
	DECIDE("/", "/hk-tool", -1, "/ is the root cgroup");
	/* ... and "/" listed holds every cgroup */
	DECIDE("/hk/leak", "/hk-tool", -1, "/hk/leak is part of /, in --never-freeze");
}

static void test_never_paths(void)
{
	struct hk_path_list l = {};
	char why[HK_ERR_LEN], long_path[HK_FILTER_PATH_LEN + 8];
	int i;

	/* written as /proc/PID/cgroup writes them */
	CHECK_U64(hk_filter__add_path(&l, "init.scope", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_path(&l, "//a//b/", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_path(&l, "/", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_path(&l, "///", why, sizeof(why)), 0);	/* "/" again */
	CHECK_U64(hk_filter__add_path(&l, "/init.scope/", why, sizeof(why)), 0);
	CHECK_U64(hk_filter__add_path(&l, "/x y/..z", why, sizeof(why)), 0);
	CHECK_U64(l.n, 4);
	CHECK_STR(l.path[0], "/init.scope");
	CHECK_STR(l.path[1], "/a/b");
	CHECK_STR(l.path[2], "/");
	CHECK_STR(l.path[3], "/x y/..z");
	/* NUL-padded: compared as whole arrays */
	CHECK_U64(l.path[2][1] | l.path[2][HK_FILTER_PATH_LEN - 1], 0);

	CHECK_U64(hk_filter__add_path(&l, "/a/../b", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'/a/../b': a cgroup path here has no '.' or '..' component");
	CHECK_U64(hk_filter__add_path(&l, "./a", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'./a': a cgroup path here has no '.' or '..' component");
	CHECK_U64(hk_filter__add_path(&l, "/a,b", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'/a,b': a cgroup path here has no control character, ',' or '#'");
	CHECK_U64(hk_filter__add_path(&l, "/a\tb", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'/a\\x09b': a cgroup path here has no control character, ',' or '#'");
	/* 255 bytes fit, 256 do not */
	memset(long_path, 'x', sizeof(long_path));
	long_path[0] = '/';
	long_path[HK_FILTER_PATH_LEN] = '\0';
	CHECK_U64(hk_filter__add_path(&l, long_path, why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "'/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is longer than "
		  "255 bytes");
	long_path[HK_FILTER_PATH_LEN - 1] = '\0';
	CHECK_U64(hk_filter__add_path(&l, long_path, why, sizeof(why)), 0);
	CHECK_U64(l.n, 5);
	for (i = 0; i < HK_FREEZE_NEVER - 5; i++) {
		char p[8] = "/p0";

		p[2] = (char)('a' + i);
		CHECK_U64(hk_filter__add_path(&l, p, why, sizeof(why)), 0);
	}
	CHECK_U64(hk_filter__add_path(&l, "/one-too-many", why, sizeof(why)), (__u64)-1);
	CHECK_STR(why, "more than 16 cgroups");
	CHECK_U64(l.n, HK_FREEZE_NEVER);
}

static int parse(struct hk_config *c, const char *text, char *err, size_t len)
{
	hk_config__defaults(c);
	err[0] = '\0';
	return hk_config__parse_string(c, text, "t.conf", err, len);
}

/* --generate-config prints c with want in it, and that parses back to c. */
static void round_trip(const struct hk_config *c, const char *want, unsigned int line)
{
	struct hk_config back;
	char err[HK_ERR_LEN], *text = generate(c);

	check_true(text && strstr(text, want), want, line);
	check_true(text && strstr(text, "\n[freeze]\n") &&
		   strstr(text, "\n# Cgroup paths, comma-separated, at most 16. Default: "
			  HK_FREEZE_NEVER_DEFAULT ".\n") &&
		   strstr(text, "\n# Duration, in whole seconds, 1s..1d. Default: 10m.\n"),
		   "never's and max's help and default", line);
	check_true(text && !parse(&back, text, err, sizeof(err)) &&
		   !memcmp(&back, c, sizeof(back)), "parses back to the same config", line);
	free(text);
}

static void test_freeze_keys(void)
{
	struct hk_config c;
	char err[HK_ERR_LEN];

	/* off by default; the default list */
	hk_config__defaults(&c);
	CHECK_U64(c.freeze_eta_s, 0);
	CHECK_U64(c.freeze_max_s, 600);
	CHECK_U64(c.freeze_never.n, 7);
	CHECK_STR(c.freeze_never.path[0], "/init.scope");
	CHECK_STR(c.freeze_never.path[1], "/system.slice/systemd-journald.service");
	CHECK_STR(c.freeze_never.path[2], "/system.slice/dbus.service");
	CHECK_STR(c.freeze_never.path[3], "/system.slice/dbus-broker.service");
	CHECK_STR(c.freeze_never.path[4], "/system.slice/systemd-logind.service");
	CHECK_STR(c.freeze_never.path[5], "/system.slice/ssh.service");
	CHECK_STR(c.freeze_never.path[6], "/system.slice/sshd.service");

	CHECK_U64(parse(&c, "[freeze]\nmax = 90s\n", err, sizeof(err)), 0);
	CHECK_U64(c.freeze_max_s, 90);
	CHECK_U64(parse(&c, "[freeze]\nmax = 1d\n", err, sizeof(err)), 0);
	CHECK_U64(c.freeze_max_s, 86400);
	CHECK_U64(parse(&c, "[freeze]\nmax = 0s\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: max 0s out of range (1s..1d)");
	CHECK_U64(parse(&c, "[freeze]\nmax = 25h\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: max 25h out of range (1s..1d)");
	CHECK_U64(parse(&c, "[freeze]\nmax = 1500ms\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: bad value '1500ms' for max: not a whole number of seconds");

	CHECK_U64(parse(&c, "[freeze]\non_oom_eta = 2m\nnever = init.scope, /kubepods/ ,/a b\n",
			err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_U64(c.freeze_eta_s, 120);
	CHECK_U64(c.freeze_never.n, 3);
	CHECK_STR(c.freeze_never.path[0], "/init.scope");
	CHECK_STR(c.freeze_never.path[1], "/kubepods");
	CHECK_STR(c.freeze_never.path[2], "/a b");
	/* an empty value lists none */
	CHECK_U64(parse(&c, "[freeze]\nnever =\n", err, sizeof(err)), 0);
	CHECK_U64(c.freeze_never.n, 0);

	/* one line each, pointing at the line */
	CHECK_U64(parse(&c, "[freeze]\n\non_oom_eta = 1500ms\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:3: bad value '1500ms' for on_oom_eta: not a whole number of "
		  "seconds");
	CHECK_U64(parse(&c, "[freeze]\non_oom_eta = 31d\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: on_oom_eta 31d out of range (0s..30d)");
	CHECK_U64(parse(&c, "[freeze]\non_oom_eta = 60\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: bad value '60' for on_oom_eta: missing unit (e.g. 5s)");
	CHECK_U64(parse(&c, "[freeze]\nnever = /a/../b\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: bad value for never: '/a/../b': a cgroup path here has no "
		  "'.' or '..' component");
	CHECK_U64(parse(&c, "[freeze]\nnever = /a,,/b\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: bad value for never: an empty item in the list");
	CHECK_U64(parse(&c, "[freeze]\nnever = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n", err,
			sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: bad value for never: more than 16 cgroups");
	CHECK_U64(parse(&c, "[freeze]\nthaw = 1s\n", err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "t.conf:2: unknown key 'thaw' in [freeze]");

	/* --generate-config: the defaults and a non-default, both ways */
	hk_config__defaults(&c);
	round_trip(&c, "\non_oom_eta = 0s\n", __LINE__);
	round_trip(&c, "\nmax = 10m\n", __LINE__);
	round_trip(&c, "\nnever = " HK_FREEZE_NEVER_DEFAULT "\n", __LINE__);
	CHECK_U64(parse(&c, "[freeze]\non_oom_eta = 90s\nmax = 3s\nnever = /k8s, /x y\n", err,
			sizeof(err)), 0);
	round_trip(&c, "\non_oom_eta = 90s\n", __LINE__);
	round_trip(&c, "\nmax = 3s\n", __LINE__);
	round_trip(&c, "\nnever = /k8s, /x y\n", __LINE__);
	/* an empty list stays empty, not the default */
	c.freeze_never.n = 0;
	memset(c.freeze_never.path, 0, sizeof(c.freeze_never.path));
	round_trip(&c, "\nnever =\n", __LINE__);
}

/* hk_cli__parse on a NULL-terminated list; the exit status or -1. */
static int cli(struct hk_cli *c, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(c, 0, sizeof(*c));
	optind = 0;	/* getopt from scratch */
	return hk_cli__parse(c, argc, argv);
}

static void test_freeze_flags(void)
{
	char *set[] = { "hotspot-k", "--freeze-on-oom", "60s", "--never-freeze", "/hk",
			"--never-freeze", "b/c/", NULL };
	char *none[] = { "hotspot-k", "--never-freeze", "", NULL };
	char *none_then[] = { "hotspot-k", "--never-freeze", "/a", "--never-freeze", "none",
			      "--never-freeze", "/b", NULL };
	char *one[] = { "hotspot-k", "--never-freeze", "/hk", "--never-freeze", "/init.scope",
			NULL };
	char *many[] = { "hotspot-k", "--never-freeze", "/1", "--never-freeze", "/2",
			 "--never-freeze", "/3", "--never-freeze", "/4", "--never-freeze", "/5",
			 "--never-freeze", "/6", "--never-freeze", "/7", "--never-freeze", "/8",
			 "--never-freeze", "/9", "--never-freeze", "/10", NULL };
	char *zero[] = { "hotspot-k", "--freeze-on-oom", "0s", NULL };
	char *frac[] = { "hotspot-k", "--freeze-on-oom", "1.5s", NULL };
	char *dots[] = { "hotspot-k", "--never-freeze", "/a/..", NULL };
	char *max[] = { "hotspot-k", "--freeze-max", "5s", NULL };
	char *max0[] = { "hotspot-k", "--freeze-max", "0s", NULL };
	char *max_big[] = { "hotspot-k", "--freeze-max", "2d", NULL };
	struct hk_config cfg;
	char err[HK_ERR_LEN], diff[512];
	struct hk_cli c;

	/* the ETA replaces the key; --never-freeze adds to the file's list
	 * (it replaced it, and dropped the seven defaults with it) */
	CHECK_U64((__u64)cli(&c, set), (__u64)-1);
	CHECK_U64(parse(&cfg, "[freeze]\non_oom_eta = 10s\nnever = /x\n", err, sizeof(err)), 0);
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_eta_s, 60);
	CHECK_U64(cfg.freeze_never.n, 3);
	CHECK_STR(cfg.freeze_never.path[0], "/x");
	CHECK_STR(cfg.freeze_never.path[1], "/hk");
	CHECK_STR(cfg.freeze_never.path[2], "/b/c");
	/* ... and to the defaults: seven and /hk (/init.scope is one) */
	CHECK_U64((__u64)cli(&c, one), (__u64)-1);
	hk_config__defaults(&cfg);
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_never.n, 8);
	CHECK_STR(cfg.freeze_never.path[0], "/init.scope");
	CHECK_STR(cfg.freeze_never.path[7], "/hk");
	/* '' lists none; the ETA is the file's */
	CHECK_U64((__u64)cli(&c, none), (__u64)-1);
	CHECK_U64(parse(&cfg, "[freeze]\non_oom_eta = 10s\n", err, sizeof(err)), 0);
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_eta_s, 10);
	CHECK_U64(cfg.freeze_never.n, 0);
	/* none drops the defaults and what came before it, not what follows */
	CHECK_U64((__u64)cli(&c, none_then), (__u64)-1);
	hk_config__defaults(&cfg);
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_never.n, 1);
	CHECK_STR(cfg.freeze_never.path[0], "/b");
	/* the defaults and ten more: past the 16, said in one line */
	CHECK_U64((__u64)cli(&c, many), (__u64)-1);
	hk_config__defaults(&cfg);
	CHECK_U64((__u64)hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), (__u64)-1);
	CHECK_STR(err, "--never-freeze /10: more than 16 cgroups (with the list in force; "
		  "--never-freeze none drops it)");
	/* 0s turns a file's freeze off */
	CHECK_U64((__u64)cli(&c, zero), (__u64)-1);
	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 30;
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_eta_s, 0);
	CHECK_U64(cfg.freeze_never.n, 7);
	CHECK_U64(cfg.freeze_max_s, 600);
	/* --freeze-max replaces max, and nothing else */
	CHECK_U64((__u64)cli(&c, max), (__u64)-1);
	CHECK_U64(parse(&cfg, "[freeze]\non_oom_eta = 10s\nmax = 1h\n", err, sizeof(err)), 0);
	CHECK_U64(hk_cli__apply_flags(&c, &cfg, err, sizeof(err)), 0);
	CHECK_U64(cfg.freeze_max_s, 5);
	CHECK_U64(cfg.freeze_eta_s, 10);
	/* usage errors (said on stderr) */
	CHECK_U64((__u64)cli(&c, frac), EXIT_USAGE);
	CHECK_U64((__u64)cli(&c, dots), EXIT_USAGE);
	CHECK_U64((__u64)cli(&c, max0), EXIT_USAGE);
	CHECK_U64((__u64)cli(&c, max_big), EXIT_USAGE);

	/* a reload says what it changed, in the file's words */
	hk_config__defaults(&cfg);
	c.filters = cfg;
	c.filters.freeze_eta_s = 60;
	c.filters.freeze_never.n = 1;
	CHECK_U64(hk_config__diff(&cfg, &c.filters, diff, sizeof(diff)), 2);
	CHECK_STR(diff, "freeze.on_oom_eta 0s -> 1m, freeze.never " HK_FREEZE_NEVER_DEFAULT
		  " -> /init.scope");
	c.filters = cfg;
	c.filters.freeze_max_s = 30;
	CHECK_U64(hk_config__diff(&cfg, &c.filters, diff, sizeof(diff)), 1);
	CHECK_STR(diff, "freeze.max 10m -> 30s");
}

static void oom_event(struct hk_event *e)
{
	ev_oom(e);
	e->ev.eta_s = 7;
	e->ev.limit_kind = HK_LIMIT_MEMCG;
	e->ev.limit_bytes = 400 * HK_MIB;
	e->ev.memcg_id = 77;
}

static const char *fmt(const struct hk_event *e, const struct hk_freeze_result *r, int as_json)
{
	static char out[HK_FREEZE_LINE_MAX];
	int n = hk_freeze__format(out, sizeof(out), e, r, 60, as_json, &ctx_utc);

	CU_ASSERT(n > 0 && (size_t)n == strlen(out));
	return out;
}

static void result(struct hk_freeze_result *r, enum hk_freeze_outcome o, const char *cgroup,
		   const char *why)
{
	memset(r, 0, sizeof(*r));
	r->outcome = o;
	r->hier = HK_FREEZE_HIER_V1;
	r->settle_ms = 3;
	r->max_s = 600;
	snprintf(r->cgroup, sizeof(r->cgroup), "%s", cgroup);
	snprintf(r->why, sizeof(r->why), "%s", why);
}

static void test_format(void)
{
	static struct hk_freeze_result r;
	struct hk_event e;

	oom_event(&e);
	result(&r, HK_FREEZE_FROZEN, "/hk/leak", "");
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: froze cgroup /hk/leak (pid 4242 python3, "
		   "oom_risk in 7s) for 10m at most; thaw with: hotspot-k thaw /hk/leak\n");
	ASSERT_STR(fmt(&e, &r, 1), "{\"event\":\"freeze\",\"time\":\"2026-11-22T05:21:36.123Z\","
		   "\"pid\":4242,\"comm\":\"python3\",\"cgroup\":\"/hk/leak\",\"freezer\":\"v1\","
		   "\"result\":\"frozen\",\"reason\":null,\"settle_ms\":3,\"eta_s\":7,"
		   "\"freeze_eta_s\":60,\"freeze_max_s\":600,\"rss_anon_bytes\":1200000000,"
		   "\"limit_bytes\":419430400,\"memcg_id\":77}\n");

	result(&r, HK_FREEZE_REFUSED, "/system.slice", "/system.slice is in --never-freeze");
	r.hier = HK_FREEZE_HIER_V2;
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: pid 4242 python3 (oom_risk in 7s) not frozen: "
		   "/system.slice is in --never-freeze\n");
	ASSERT_STR(fmt(&e, &r, 1), "{\"event\":\"freeze\",\"time\":\"2026-11-22T05:21:36.123Z\","
		   "\"pid\":4242,\"comm\":\"python3\",\"cgroup\":\"/system.slice\","
		   "\"freezer\":\"v2\",\"result\":\"refused\","
		   "\"reason\":\"/system.slice is in --never-freeze\",\"settle_ms\":null,"
		   "\"eta_s\":7,\"freeze_eta_s\":60,\"freeze_max_s\":null,"
		   "\"rss_anon_bytes\":1200000000,\"limit_bytes\":419430400,\"memcg_id\":77}\n");

	result(&r, HK_FREEZE_PENDING, "/hk/leak", "not frozen after 1000 ms: freezer.state "
	       "still FREEZING (a task cannot stop yet)");
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: freezing cgroup /hk/leak (pid 4242 python3, "
		   "oom_risk in 7s) for 10m at most: not frozen after 1000 ms: freezer.state still FREEZING (a "
		   "task cannot stop yet); thaw with: hotspot-k thaw /hk/leak\n");
	ASSERT_HAS(fmt(&e, &r, 1), "\"result\":\"pending\",\"reason\":\"not frozen after");

	/* gone before it could be looked at: no cgroup, no freezer known */
	result(&r, HK_FREEZE_FAILED, "", "the process is gone");
	r.hier = HK_FREEZE_HIER_NONE;
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: pid 4242 python3 (oom_risk in 7s) not frozen: "
		   "the process is gone\n");
	ASSERT_HAS(fmt(&e, &r, 1), "\"cgroup\":null,\"freezer\":null,\"result\":\"failed\","
		   "\"reason\":\"the process is gone\",\"settle_ms\":null,");

	/* a second process of a frozen cgroup: said, not frozen again */
	result(&r, HK_FREEZE_ALREADY, "/hk/leak", "/hk/leak is frozen already, for pid 4241; "
	       "thawed in 9m58s");
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: pid 4242 python3 (oom_risk in 7s) not frozen: "
		   "/hk/leak is frozen already, for pid 4241; thawed in 9m58s\n");
	ASSERT_HAS(fmt(&e, &r, 1), "\"result\":\"already\",\"reason\":\"/hk/leak is frozen "
		   "already, for pid 4241; thawed in 9m58s\",\"settle_ms\":null,");
	CHECK_U64(hk_freeze__priority(HK_FREEZE_ALREADY), 6);
}

/* A cgroup's name may hold any byte but '/' and NUL. */
static void test_format_hostile(void)
{
	static struct hk_freeze_result r;
	struct hk_event e;

	oom_event(&e);
	set_comm(e.comm, "a\033]0;x\a");
	result(&r, HK_FREEZE_FROZEN, "/it's \033[31mred\xff", "");
	/* one shell word that names it exactly, every control escaped */
	ASSERT_STR(fmt(&e, &r, 0), "hotspot-k: froze cgroup /it's \\x1b[31mred\\xff "
		   "(pid 4242 a\\x1b]0;x\\x07, oom_risk in 7s) for 10m at most; thaw with: "
		   "hotspot-k thaw $'/it\\'s \\x1b[31mred\\xff'\n");
	ASSERT_HAS(fmt(&e, &r, 1), "\"comm\":\"a\\u001b]0;x\\u0007\","
		   "\"cgroup\":\"/it's \\u001b[31mred\\ufffd\",");
	/* the longest path and reason fit */
	memset(r.cgroup, 0x01, sizeof(r.cgroup) - 1);
	memset(r.why, 0x01, sizeof(r.why) - 1);
	r.outcome = HK_FREEZE_PENDING;
	CU_ASSERT(strlen(fmt(&e, &r, 0)) > 4 * (sizeof(r.cgroup) - 1));
	CU_ASSERT(strlen(fmt(&e, &r, 1)) > 6 * (sizeof(r.cgroup) - 1));
}

/* What is not an entry into oom_risk below the ETA is left alone. */
static void test_event_not_acted_on(void)
{
	struct hk_freezer f;
	struct hk_config cfg;
	struct hk_event e;
	int prio = -1;

	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 60;
	CU_ASSERT_FATAL(hk_freeze__init(&f, &cfg) == 0);
	oom_event(&e);
	e.ev.eta_s = 60;	/* below, not at */
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	e.ev.eta_s = (__u64)HK_ETA_NONE;
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	oom_event(&e);
	e.to = HK_MEM_THRASHING;
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	oom_event(&e);
	e.from = HK_OOM_RISK;
	e.to = HK_EXITED;
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	/* off */
	oom_event(&e);
	cfg.freeze_eta_s = 0;
	hk_freeze__configure(&f, &cfg);
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	CHECK_U64(f.frozen + f.refused + f.failed, 0);
	CHECK_U64((__u64)prio, (__u64)-1);
	hk_freeze__free(&f);

	CHECK_U64(hk_freeze__priority(HK_FREEZE_FROZEN), 4);
	CHECK_U64(hk_freeze__priority(HK_FREEZE_PENDING), 4);
	CHECK_U64(hk_freeze__priority(HK_FREEZE_REFUSED), 5);
	CHECK_U64(hk_freeze__priority(HK_FREEZE_FAILED), 3);
}

/* This process's start on CLOCK_BOOTTIME, as an event carries it. */
static __u64 own_start_ns(void)
{
	return hk_pidref__start_ticks((__u32)getpid()) *
	       (HK_NSEC_PER_SEC / (__u64)sysconf(_SC_CLK_TCK));
}

/*
 * The act, on this very process: it is hotspot-k here, so whatever cgroup
 * it is in (the v1 freezer's root, or a v2 cgroup of its own) is refused,
 * and nothing is ever frozen; a PID that does not exist fails.
 */
static void test_event_acts_safely(void)
{
	struct hk_freeze_fs fs;
	struct hk_freezer f;
	struct hk_config cfg;
	struct hk_event e;
	int prio = -1, n;

	hk_freeze__find_fs(&fs);
	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 60;
	CU_ASSERT_FATAL(hk_freeze__init(&f, &cfg) == 0);
	f.rundir = "/nonexistent/hk-unit-rundir";
	oom_event(&e);
	e.tgid = (__u32)getpid();
	e.start_boottime_ns = own_start_ns();
	n = hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(n > 0 && (size_t)n == strlen(f.line));
	CHECK_U64(f.frozen, 0);
	if (fs.hier == HK_FREEZE_HIER_NONE) {
		CHECK_U64(f.failed, 1);
	} else {
		CHECK_U64(f.refused, 1);
		CHECK_U64((__u64)prio, 5);
		check_true(f.r->outcome == HK_FREEZE_REFUSED, f.line, __LINE__);
	}
	/* above PID_MAX_LIMIT: never a process */
	e.tgid = 4194305;
	n = hk_freeze__event(&f, &e, 1, &ctx_utc, &prio);
	CU_ASSERT(n > 0 && (size_t)n == strlen(f.line));
	CHECK_U64(f.frozen, 0);
	CHECK_U64((__u64)prio, 3);
	ASSERT_HAS(f.line, "\"result\":\"failed\"");
	if (fs.hier != HK_FREEZE_HIER_NONE)
		ASSERT_HAS(f.line, "\"cgroup\":null,\"freezer\":\"v");
	hk_freeze__free(&f);
}

/*
 * PID reuse: the event is about a process that started at another time
 * than the one holding its PID now (here: this process, a second later).
 * Nothing of the PID's holder is read, nothing is frozen, and the line
 * says why.
 */
static void test_event_pid_reused(void)
{
	struct hk_freeze_fs fs;
	struct hk_freezer f;
	struct hk_config cfg;
	struct hk_event e;
	char want[256];
	int prio = -1, n;

	hk_freeze__find_fs(&fs);
	if (fs.hier == HK_FREEZE_HIER_NONE)
		return;		/* no freezer: it fails before it looks */
	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 60;
	CU_ASSERT_FATAL(hk_freeze__init(&f, &cfg) == 0);
	f.rundir = "/nonexistent/hk-unit-rundir";
	oom_event(&e);
	e.tgid = (__u32)getpid();
	e.start_boottime_ns = own_start_ns() + HK_NSEC_PER_SEC;
	n = hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	snprintf(want, sizeof(want), "hotspot-k: pid %u python3 (oom_risk in 7s) not frozen: it "
		 "exited, and its PID now belongs to another process\n", e.tgid);
	ASSERT_STR(f.line, want);
	CHECK_U64((__u64)n, strlen(want));
	CHECK_U64(f.frozen + f.refused, 0);
	CHECK_U64(f.failed, 1);
	CHECK_U64((__u64)prio, 3);
	/* the cgroup is not even named: it was not read */
	n = hk_freeze__event(&f, &e, 1, &ctx_utc, &prio);
	ASSERT_HAS(f.line, "\"cgroup\":null,");
	ASSERT_HAS(f.line, "\"result\":\"failed\",\"reason\":\"it exited, and its PID now "
		   "belongs to another process\"");
	/* gone for good: the PID is nobody's */
	e.tgid = 4194305;
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	ASSERT_STR(f.line, "hotspot-k: pid 4194305 python3 (oom_risk in 7s) not frozen: it "
		   "exited\n");
	CHECK_U64(f.frozen, 0);
	hk_freeze__free(&f);
}

int hk_add_freeze_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "decide", test_decide },
		{ "never paths", test_never_paths },
		{ "freeze keys", test_freeze_keys },
		{ "freeze flags", test_freeze_flags },
		{ "format", test_format },
		{ "format hostile", test_format_hostile },
		{ "event not acted on", test_event_not_acted_on },
		{ "event acts safely", test_event_acts_safely },
		{ "event: PID reused", test_event_pid_reused },
	};

	return HK_ADD_SUITE("freeze", tests);
}
