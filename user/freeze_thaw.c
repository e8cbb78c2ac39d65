// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_thaw.c - `hotspot-k thaw CGROUP`: undoes what --freeze-on-oom
 * did, in the words the freeze line used. It needs no running hotspot-k
 * and loads nothing: it writes one cgroup file and reads the state back.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "freeze.h"
#include "msg.h"

#define PROG "hotspot-k thaw"

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

static const char usage_text[] =
"Usage: hotspot-k thaw CGROUP\n"
"\n"
"Thaw a cgroup that --freeze-on-oom froze (or any frozen cgroup), so that its\n"
"processes run again. CGROUP is the path the freeze line printed, within the\n"
"freezer's hierarchy (the v1 freezer's where the host has one, else the\n"
"unified one), or the cgroup's whole directory under /sys/fs/cgroup.\n"
"\n"
"Examples:\n"
"  sudo hotspot-k thaw /hk/leak\n"
"  sudo hotspot-k thaw /sys/fs/cgroup/freezer/hk/leak\n"
"  sudo hotspot-k thaw /system.slice/batch.service   # on a cgroup v2 host\n"
"\n"
"Exit status: 0 thawed (or it was not frozen), 1 failure, 2 usage error.\n";

static int usage_error(const char *what, const char *arg)
{
	char q[HK_QUOTE_BUF];

	fprintf(stderr, PROG ": %s%s\nTry 'hotspot-k thaw --help' for more information.\n",
		what, arg ? hk_msg__quote(q, sizeof(q), arg) : "");
	return EXIT_USAGE;
}

int hk_freeze__thaw_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	char dir[HK_FREEZE_PATH_MAX + 64], rel[HK_FREEZE_PATH_MAX], why[HK_FREEZE_WHY_MAX];
	enum hk_freeze_hier hier;
	struct hk_freeze_fs fs;
	__u64 settle_ms = 0;
	int opt, frozen;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		}
		return usage_error("unknown option ", argv[optind - 1]);
	}
	if (optind == argc)
		return usage_error("which cgroup? (e.g. hotspot-k thaw /hk/leak)", NULL);
	if (optind + 1 < argc)
		return usage_error("one cgroup at a time; unexpected ", argv[optind + 1]);
	hk_freeze__find_fs(&fs);
	if (hk_freeze__resolve(&fs, argv[optind], true, dir, sizeof(dir), rel, sizeof(rel),
			       &hier, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_RUNTIME;
	}
	frozen = hk_freeze__is_frozen(dir, hier, why, sizeof(why));
	if (frozen < 0) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_RUNTIME;
	}
	if (!frozen) {
		printf(PROG ": %s was not frozen: nothing to do\n", rel);
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}
	switch (hk_freeze__set(dir, hier, false, HK_FREEZE_WAIT_MS, &settle_ms, why,
			       sizeof(why))) {
	case 1:
		printf(PROG ": %s thawed (%s)\n", rel, hier == HK_FREEZE_HIER_V1 ?
		       "v1 freezer" : "cgroup.freeze");
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	default:
		fprintf(stderr, PROG ": %s: %s\n", rel, why);
		return EXIT_RUNTIME;
	}
}
