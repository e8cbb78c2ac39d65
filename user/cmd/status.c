// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * status.c - `hotspot-k status`: the command. It finds a running
 * hotspot-k's maps (kernel/instance.c), reads them once and prints what they
 * hold (status/view.c and the writers); it loads nothing and writes to no
 * map, so that it can run beside the instance it looks at.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "act/freeze.h"
#include "act/postmortem_dir.h"
#include "cmd.h"
#include "kernel/bpffs.h"
#include "kernel/instance.h"
#include "kernel/preflight.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "output/format.h"
#include "status/npd.h"
#include "status/status.h"
#include "usage.h"

#define PROG "hotspot-k status"

static const char usage_text[] =
"Usage: hotspot-k status [-a] [-n N] [--json | --watch [DUR]]\n"
"       hotspot-k status --npd CHECK\n"
"\n"
"From another terminal, while a hotspot-k runs: every process it has flagged\n"
"(its label is not OK), read from the running instance's maps.\n"
"\n"
"  -a, --all       also the top N processes by CPU, by run delay (wait) and\n"
"                  by RSS growth, in the latest window\n"
"  -n, --top N     N for -a (default 10, 1..1000); implies -a\n"
"  -j, --json      one JSON object on one line instead of tables\n"
"  -w, --watch [DUR]\n"
"                  the tables redrawn in place every DUR (default 2s,\n"
"                  1s..1h; a bare number is seconds), as top does, until\n"
"                  q, Ctrl-C or SIGTERM; on a terminal only\n"
"      --npd CHECK one node-problem-detector check (a custom plugin): one\n"
"                  line on stdout, exit 0 OK, 1 a problem, 2 could not look,\n"
"                  3 no hotspot-k runs (NPD reads 2 and 3 as Unknown).\n"
"                  CHECK: up (not running or its windows stalled: 1),\n"
"                  oom-risk (the soonest to its limit named: pid, comm, ETA),\n"
"                  noisy-neighbor (the one that starves another named),\n"
"                  cpu-contention (the node's CPU wait mostly other\n"
"                  workloads', not quotas' or a process's own threads':\n"
"                  the process that waited most named, with its aggressor)\n"
"      --postmortem-dir DIR\n"
"                  the OOM post-mortems listed from DIR/oom (the tool's\n"
"                  --postmortem-dir; default " HK_RUNDIR ")\n"
"  -h, --help      this help\n"
"\n"
"Cgroups --freeze-on-oom froze are listed after the tables (\"frozen\" in\n"
"JSON), from " HK_RUNDIR ", also when no hotspot-k runs (then JSON's\n"
"\"instance\" is null, and the exit status 3); then the newest OOM kills'\n"
"post-mortems (\"postmortems\": pid, comm, when, flagged in time, file).\n"
"\n"
"FOR is how long the diagnosis has matched without a break (the windows it\n"
"took to enter included); CPU is of one CPU (200 %: two CPUs' worth); WAIT is\n"
"run delay, the share of the window its threads waited for a CPU; RSS/s is\n"
"the window's growth of its anonymous memory, resident or swapped out (shmem\n"
"and file pages are not counted). A process none of whose threads ran in\n"
"the latest window shows 0 there.\n"
"\n"
"Examples:\n"
"  sudo hotspot-k status                    # what is flagged now\n"
"  sudo hotspot-k status -a -n 5            # ... and the top 5 of each\n"
"  sudo hotspot-k status --json | jq .flagged\n"
"  sudo hotspot-k status --watch            # live, every 2 s\n"
"  sudo hotspot-k status --npd oom-risk     # NPD: exit 1 and who, or 0\n"
"\n"
"Exit status: 0 shown (nothing flagged included), 1 a failure, 2 usage\n"
"error, 3 no running hotspot-k; --npd's above.\n";

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "top", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "watch", optional_argument, NULL, 'w' },
	{ "npd", required_argument, NULL, 'N' },
	{ "postmortem-dir", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{},
};

static int usage_error(const char *fmt, const char *arg)
{
	char q[HK_QUOTE_BUF];

	return hk_usage__error("status", fmt, hk_msg__quote(q, sizeof(q), arg));
}

/* --watch's SECONDS: a duration (2s, 1m) in whole seconds, or a bare
 * number of seconds as before; 0 when neither, or out of 1..3600. */
static unsigned int watch_seconds(const char *s)
{
	__u64 v;

	if (s[0] >= '0' && s[0] <= '9' && s[strspn(s, "0123456789")] == '\0') {
		if (strlen(s) > 4)
			return 0;
		v = strtoull(s, NULL, 10);
	} else if (hk_units__parse(s, HK_UNIT_DURATION_S, &v, NULL, 0)) {
		return 0;
	}
	return v >= 1 && v <= HK_STATUS_WATCH_MAX_S ? (unsigned int)v : 0;
}

/* -1: go on; else the exit status (--help, a usage error). */
static int parse_args(struct hk_status_opts *o, int argc, char **argv)
{
	char *end;
	long n;
	int opt;

	*o = (struct hk_status_opts){ .top_n = HK_STATUS_TOP_DEFAULT };
	optind = 0;	/* from scratch: the tests call this more than once */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:an:jw::h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			o->all = true;
			break;
		case 'n':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 1 || n > HK_STATUS_TOP_MAX)
				return usage_error("bad -n '%s' (a number from 1 to 1000)",
						   optarg);
			o->top_n = (unsigned int)n;
			o->all = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'P':
			o->postmortem_dir = optarg;
			break;
		case 'w':
			/* "--watch 5" as well as "--watch=5" and "-w5" */
			if (!optarg && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				optarg = argv[optind++];
			o->watch_s = HK_STATUS_WATCH_DEFAULT_S;
			if (!optarg)
				break;
			o->watch_s = watch_seconds(optarg);
			if (!o->watch_s)
				return usage_error("bad --watch '%s' (1s..1h in whole seconds, "
						   "e.g. 2s; a bare number is seconds)", optarg);
			break;
		case 'N':
			o->npd = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		default:
			return hk_usage__getopt("status", opt, argv, long_opts);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (o->watch_s && o->json)
		return usage_error("--watch redraws tables: not with %s", "--json");
	if (o->npd && (o->all || o->json || o->watch_s))
		return usage_error("--npd answers one check: not with %s", o->all ? "-a or -n" :
				   o->json ? "--json" : "--watch");
	/* one line on stdout, where NPD looks (its config names the check) */
	if (o->npd && hk_npd__parse(o->npd) == HK_NPD_NR_CHECKS) {
		char q[HK_QUOTE_BUF];

		printf(PROG ": unknown --npd check '%s' (%s)\n",
		       hk_msg__quote(q, sizeof(q), o->npd), hk_npd__names());
		return EXIT_USAGE;
	}
	return -1;
}

/* "12s ago", from a program's load time (CLOCK_BOOTTIME). */
static void age(char *buf, size_t len, __u64 load_time_ns)
{
	struct timespec ts;
	__u64 now;

	if (!load_time_ns || clock_gettime(CLOCK_BOOTTIME, &ts)) {
		snprintf(buf, len, "at an unknown time");
		return;
	}
	now = (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec;
	if (hk_format__duration(buf, len, now > load_time_ns ?
				(now - load_time_ns) / HK_NSEC_PER_SEC : 0) < 0)
		snprintf(buf, len, "?");
	else
		strncat(buf, " ago", len - strlen(buf) - 1);
}

/* What stderr should know about the instance taken. */
static void notes(const struct hk_instance *m)
{
	char when[48];

	if (m->stale_pin)
		fprintf(stderr, PROG ": the hk_procs pinned in %s is used by no program: "
			"left by a hotspot-k that is gone\n", HK_PIN_DIR);
	if (m->alive_unknown)
		fprintf(stderr, PROG ": cannot list BPF programs to tell whether the "
			"hotspot-k pinned in %s still runs: its maps as they are\n",
			HK_PIN_DIR);
	if (m->nr_instances < 2)
		return;
	age(when, sizeof(when), m->load_time_ns);
	fprintf(stderr, PROG ": %u hotspot-k instances are running: showing %s "
		"(hk_procs map id %u, started %s)\n", m->nr_instances,
		m->pinned ? "the pinned one" : "the newest", m->procs_id, when);
}

/* The freezes recorded (--freeze-on-oom), a line each; none: nothing.
 * Then the OOM post-mortems in pm_dir, unless NULL. */
static void frozen_text(FILE *f, const char *pm_dir)
{
	char why[512];

	if (hk_freeze_status__text(f, HK_RUNDIR, hk_freeze__unix_s(), false, why,
				   sizeof(why)))
		fprintf(stderr, PROG ": what is frozen: %s\n", why);
	if (pm_dir && hk_pm_dir__text(f, pm_dir, why, sizeof(why)))
		fprintf(stderr, PROG ": OOM post-mortems: %s\n", why);
}

/*
 * No instance, with --json: status's object with its instance null and the
 * freezes recorded, {"instance":null,"frozen":[...]}, so that a script
 * finds what a crashed hotspot-k left frozen as a person does.
 */
static void frozen_json(FILE *f, const char *pm_dir)
{
	char why[512];

	fputs("{\"instance\":null", f);
	if (hk_freeze_status__json(f, HK_RUNDIR, why, sizeof(why))) {
		fprintf(stderr, PROG ": what is frozen: %s\n", why);
		fputs(",\"frozen\":null", f);
	}
	if (pm_dir && hk_pm_dir__json(f, pm_dir, why, sizeof(why))) {
		fprintf(stderr, PROG ": OOM post-mortems: %s\n", why);
		fputs(",\"postmortems\":null", f);
	}
	fputs("}\n", f);
}

/*
 * One status to f: the instance's maps found, read, written; what is
 * frozen after the tables. notes: what stderr should know about the
 * instance taken (not under --watch: the screen is redrawn). 0, or
 * EXIT_RUNTIME with why on err_f.
 */
static int status_once(FILE *f, FILE *err_f, const struct hk_status_opts *o, bool notes_on)
{
	struct hk_instance m;
	struct hk_status_snap s;
	struct hk_proc *procs = NULL;
	__u32 *pids = NULL;
	char err[512];
	int ret = EXIT_OK, e;

	e = hk_instance__find(&m, err, sizeof(err));
	if (notes_on)
		notes(&m);
	/* what is frozen matters most when no hotspot-k runs (a crash); the
	 * post-mortems are listed beside an instance only: stdout stays empty
	 * when none runs and nothing is frozen, and --json's object is
	 * {"instance":null,"frozen":[...]}, as scripts read them */
	if (e && o->json)
		frozen_json(f, NULL);
	else if (e)
		frozen_text(f, NULL);
	if (e == -ENOENT) {
		fprintf(err_f, PROG ": no running hotspot-k (no BPF map hk_procs): "
			"start one with sudo hotspot-k\n");
		return EXIT_NOT_RUNNING;
	}
	if (e) {
		fprintf(err_f, PROG ": %s\n", err);
		return EXIT_RUNTIME;
	}
	e = hk_snapshot__read(&m, &s, &pids, &procs, err, sizeof(err));
	hk_instance__close(&m);
	if (e) {
		fprintf(err_f, PROG ": %s\n", err);
		return EXIT_RUNTIME;
	}
	s.who = hk_workload__of_pid;
	if (hk_status__write(f, &s, o)) {
		fprintf(err_f, PROG ": %s\n", strerror(errno));
		ret = EXIT_RUNTIME;
	}
	free(pids);
	free(procs);
	if (!o->json)
		frozen_text(f, o->postmortem_dir);
	return ret;
}

/* A --watch frame: the status, or why there is none (and watching goes
 * on: an instance may start, or restart). */
static void watch_frame(FILE *f, const struct hk_status_opts *o)
{
	status_once(f, f, o, false);
}

/*
 * --npd CHECK: its line on stdout and its exit status (npd.h), nothing on
 * stderr (NPD logs it, and shows stdout). A failure to look exits 2, never
 * 1: NPD would set the condition True.
 */
static int npd_once(const struct hk_status_opts *o)
{
	struct hk_npd_in in = {};
	struct hk_status_view v;
	struct hk_status_snap s;
	struct hk_instance m;
	struct hk_proc *procs = NULL;
	struct timespec ts;
	__u32 *pids = NULL;
	char err[512], msg[HK_NPD_MSG_LEN + 1];
	int e, ret = HK_NPD_CANNOT;

	e = hk_instance__find(&m, err, sizeof(err));
	if (e == -ENOENT) {
		in.stale_pin = m.stale_pin;
		ret = hk_npd__check(hk_npd__parse(o->npd), &in, msg, sizeof(msg));
		printf("%s\n", msg);
		return ret;
	}
	if (!e) {
		e = hk_snapshot__read(&m, &s, &pids, &procs, err, sizeof(err));
		if (!e && !clock_gettime(CLOCK_BOOTTIME, &ts) && m.load_time_ns &&
		    (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec > m.load_time_ns)
			in.since_load_ns = (__u64)ts.tv_sec * HK_NSEC_PER_SEC +
					   (__u64)ts.tv_nsec - m.load_time_ns;
		hk_instance__close(&m);
	}
	if (e) {
		printf(PROG ": %s\n", err);
		return HK_NPD_CANNOT;
	}
	/* who: for the one process named, not every row flagged */
	in.who = hk_workload__of_pid;
	if (hk_status_view__build(&v, &s, 0)) {
		printf(PROG ": %s\n", strerror(errno));
	} else {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		in.v = &v;
		in.now_mono_ns = (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec;
		ret = hk_npd__check(hk_npd__parse(o->npd), &in, msg, sizeof(msg));
		printf("%s\n", msg);
		hk_status_view__free(&v);
	}
	free(pids);
	free(procs);
	return ret;
}

int hk_cmd_status(int argc, char **argv)
{
	struct hk_status_opts o;
	char err[256];
	int ret;

	/* a closed stdout is an EPIPE to report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	ret = parse_args(&o, argc, argv);
	if (ret >= 0)
		return ret;
	if (hk_preflight__need_root("status", "it reads the running instance's BPF maps", err,
				    sizeof(err))) {
		/* --npd: where NPD shows it, and Unknown rather than a problem */
		fprintf(o.npd ? stdout : stderr, "hotspot-k status: %s\n", err);
		return o.npd ? HK_NPD_CANNOT : EXIT_RUNTIME;
	}
	if (o.npd) {
		ret = npd_once(&o);
		return fflush(stdout) || ferror(stdout) ? HK_NPD_CANNOT : ret;
	}
	o.frozen_dir = HK_RUNDIR;
	if (!o.postmortem_dir)
		o.postmortem_dir = HK_RUNDIR;
	if (o.watch_s) {
		ret = hk_status__watch(&o, watch_frame);
		return ret == -2 ? EXIT_USAGE : ret ? EXIT_RUNTIME : EXIT_OK;
	}
	ret = status_once(stdout, stderr, &o, true);
	if (fflush(stdout) || ferror(stdout)) {
		/* a reader that went away (| head) is not an error to tell */
		if (errno != EPIPE)
			fprintf(stderr, PROG ": writing output: %s\n", strerror(errno));
		ret = EXIT_RUNTIME;
	}
	return ret;
}
