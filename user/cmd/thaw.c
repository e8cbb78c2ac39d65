// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * thaw.c - `hotspot-k thaw CGROUP` and `hotspot-k thaw --all`:
 * undo what --freeze-on-oom did, in the words the freeze line used. It
 * needs no running hotspot-k and loads nothing: it writes one cgroup file
 * per cgroup, reads the state back, and drops the record of the freeze
 * (a running tool then leaves that cgroup be).
 *
 * The path is root's to write through, and may have been pasted from
 * someone else: confined to the cgroup mount (freeze_cgroup.c), or the
 * thaw is refused in one line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "act/freeze.h"
#include "cmd.h"
#include "kernel/preflight.h"
#include "lib/escape.h"
#include "lib/msg.h"
#include "lib/outbuf.h"
#include "usage.h"

#define PROG "hotspot-k thaw"

static const char usage_text[] =
"Usage: hotspot-k thaw CGROUP\n"
"       hotspot-k thaw --all\n"
"\n"
"Thaw a cgroup that --freeze-on-oom froze (or any frozen cgroup), so that its\n"
"processes run again. CGROUP is the path the freeze line printed, within the\n"
"freezer's hierarchy (the v1 freezer's where the host has one, else the\n"
"unified one), or the cgroup's whole directory under /sys/fs/cgroup; it has\n"
"no '.' or '..' component and must resolve to a directory of the cgroup\n"
"filesystem.\n"
"\n"
"  -a, --all       every freeze recorded in " HK_RUNDIR " (by a running\n"
"                  hotspot-k, or one that crashed)\n"
"  -h, --help      this help\n"
"\n"
"Examples:\n"
"  sudo hotspot-k thaw /hk/leak\n"
"  sudo hotspot-k thaw /sys/fs/cgroup/freezer/hk/leak\n"
"  sudo hotspot-k thaw /system.slice/batch.service   # on a cgroup v2 host\n"
"  sudo hotspot-k thaw --all\n"
"\n"
"Exit status: 0 thawed (or it was not frozen), 1 failure, 2 usage error.\n";

static int usage_error(const char *what, const char *arg)
{
	char q[HK_QUOTE_BUF];

	return hk_usage__error("thaw", "%s%s%s%s", what, arg ? "'" : "",
			       arg ? hk_msg__quote(q, sizeof(q), arg) : "", arg ? "'" : "");
}

/* Drop the record of cg's freeze, if there is a run directory. */
static void drop_record(const struct hk_freeze_cg *cg)
{
	char why[256];
	struct hk_safedir d;
	struct stat st;

	if (lstat(HK_RUNDIR, &st) || hk_rundir__open(&d, HK_RUNDIR, why, sizeof(why)))
		return;
	hk_freeze_record__drop(&d, cg->hier, cg->id);
	hk_safefile__dir_close(&d);
}

/* Thaw cg, named path: the exit status; said on stdout, or on stderr
 * when it failed. */
static int thaw(struct hk_freeze_cg *cg, const char *path)
{
	char why[HK_FREEZE_WHY_MAX], name[4 * HK_FREEZE_PATH_MAX];
	__u64 settle_ms = 0;
	struct hk_out o;
	int frozen;

	/* the whole path, safe for a terminal: a name may hold any byte */
	hk_out__init(&o, name, sizeof(name));
	hk_out__term_text(&o, path, strlen(path));
	if (hk_out__finish(&o) < 0)
		snprintf(name, sizeof(name), "(a path too long to print)");
	frozen = hk_freeze__is_frozen(cg, why, sizeof(why));
	if (frozen < 0) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_RUNTIME;
	}
	if (!frozen) {
		drop_record(cg);
		printf(PROG ": %s was not frozen: nothing to do\n", name);
		return EXIT_OK;
	}
	if (hk_freeze__set(cg, false, HK_FREEZE_WAIT_MS, &settle_ms, why, sizeof(why)) != 1) {
		fprintf(stderr, PROG ": %s: %s\n", name, why);
		return EXIT_RUNTIME;
	}
	drop_record(cg);
	printf(PROG ": %s thawed (%s)\n", name, cg->hier == HK_FREEZE_HIER_V1 ?
	       "v1 freezer" : "cgroup.freeze");
	return EXIT_OK;
}

static int thaw_one(const char *arg)
{
	char why[HK_FREEZE_WHY_MAX];
	struct hk_freeze_fs fs;
	struct hk_freeze_cg cg;
	int ret;

	hk_freeze__find_fs(&fs);
	if (hk_freeze__open(&fs, arg, true, &cg, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_RUNTIME;
	}
	ret = thaw(&cg, cg.rel);
	hk_freeze__close(&cg);
	return ret;
}

static int thaw_all(void)
{
	char why[HK_FREEZE_WHY_MAX], bad_name[64], q[HK_QUOTE_BUF];
	struct hk_freeze_rec *recs;
	unsigned int i, n, bad;
	struct hk_safedir d;
	struct hk_freeze_cg cg;
	int ret = EXIT_OK, e;

	if (hk_freeze_record__list(HK_RUNDIR, &d, &recs, &n, &bad, bad_name, sizeof(bad_name),
				   why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_RUNTIME;
	}
	if (bad) {
		fprintf(stderr, PROG ": %s/%s%s: not a freeze record: left as it is\n", HK_RUNDIR,
			bad_name, bad > 1 ? " (and others)" : "");
		ret = EXIT_RUNTIME;
	}
	if (!n && !bad)
		printf(PROG ": no freeze recorded in %s: nothing to do\n", HK_RUNDIR);
	for (i = 0; i < n; i++) {
		e = hk_freeze__open_rec(&recs[i], &cg, why, sizeof(why));
		if (e == -ENOENT) {
			printf(PROG ": %s is gone: its record dropped\n",
			       hk_msg__quote(q, sizeof(q), recs[i].cgroup));
			hk_freeze_record__drop(&d, recs[i].hier, recs[i].id);
			continue;
		}
		if (e) {
			fprintf(stderr, PROG ": %s\n", why);
			ret = EXIT_RUNTIME;
			continue;
		}
		if (thaw(&cg, recs[i].cgroup))
			ret = EXIT_RUNTIME;
		hk_freeze__close(&cg);
	}
	hk_safefile__dir_close(&d);
	free(recs);
	return ret;
}

int hk_cmd_thaw(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int opt, all = 0, ret;
	char err[256];

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:ah", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		}
		if (opt == 'a') {
			all = 1;
			continue;
		}
		return hk_usage__getopt("thaw", opt, argv, opts);
	}
	if (all && optind < argc)
		return usage_error("--all or one cgroup, not both; unexpected ", argv[optind]);
	if (!all && optind == argc)
		return usage_error("which cgroup? (e.g. hotspot-k thaw /hk/leak, or --all)", NULL);
	if (optind + 1 < argc)
		return usage_error("one cgroup at a time; unexpected ", argv[optind + 1]);
	if (hk_preflight__need_root("thaw", "it writes cgroupfs and /run/hotspot-k", err, sizeof(err))) {
		fprintf(stderr, "hotspot-k thaw: %s\n", err);
		return EXIT_RUNTIME;
	}
	ret = all ? thaw_all() : thaw_one(argv[optind]);
	if (fflush(stdout) && !ret)
		ret = EXIT_RUNTIME;
	return ret;
}
