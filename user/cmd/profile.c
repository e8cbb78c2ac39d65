// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile.c - `hotspot-k profile PID [--memory] [--duration DUR]
 * [--profile-dir DIR]`: the profile --profile takes on a transition, taken
 * now. SIGINT or
 * SIGTERM ends it early, written with what was collected; so does the
 * process's exit.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "act/act.h"
#include "cli.h"
#include "cmd.h"
#include "lib/log.h"
#include "lib/pidref.h"
#include "lib/units.h"
#include "kernel/preflight.h"
#include "profile/profile_write.h"
#include "shared/units.h"
#include "usage.h"

static const char usage_text[] =
"Usage: hotspot-k profile PID [--memory] [--duration DUR] [--profile-dir DIR]\n"
"                             [--json]\n"
"\n"
"Profile one process: its on-CPU stacks, sampled at 99 Hz on every CPU, and\n"
"the time its threads slept, with the stacks they slept in. Written as\n"
"DIR/hotspot-k.PID.manual.TIME.folded (folded stacks, read by flamegraph.pl,\n"
"inferno and speedscope) and .svg (a flame graph: on-CPU warm, off-CPU blue).\n"
"With --memory, the stacks that grow its anonymous memory instead, each\n"
"weighed by the bytes it grew (the kernel's rss_stat tracepoint: increases\n"
"of the counter only, frees are not subtracted); label \"memory\". This is the\n"
"profile --profile takes when a process enters oom_risk.\n"
"Ends after DUR, when the process exits, or on SIGINT/SIGTERM, written with\n"
"what was collected. Complete user stacks need frame pointers\n"
"(-fno-omit-frame-pointer); a leaf without them (libc's memset, read,\n"
"clock_nanosleep) gets its caller back from the return address at the top\n"
"of the stack. The frames are named and the files written by a\n"
"child with capped inputs, memory (1 GiB) and time (30 s); the written line\n"
"says which cap cut what (\"cut\" in JSON). A second signal stops the child.\n"
"\n"
"  -m, --memory         where its anonymous memory grows, in bytes\n"
"      --duration DUR   how long (default 10s, at most 1h)\n"
"      --profile-dir DIR, --dir DIR\n"
"                       where the files go (default .), as hotspot-k\n"
"                       --profile-dir; refused when its group or others can\n"
"                       write it without the sticky bit; files are 0640,\n"
"                       created anew (a name planted there is replaced, never\n"
"                       followed)\n"
"  -j, --json           the lines as JSON objects\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 written, 1 no such process, a failure or nothing written,\n"
"2 usage error or directory refused.\n";

/* SIGINT and SIGTERM, blocked: sigtimedwait takes them between polls. */
static void block_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigprocmask(SIG_BLOCK, set, NULL);
}

int hk_cmd_profile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		/* the run's spelling; --dir, the older one, stays */
		{ "profile-dir", required_argument, NULL, 'D' },
		{ "dir", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "memory", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	char prefix[HK_PROFILE_PATH_MAX], err[512], warn[512], *end;
	struct hk_act act = { .profile_ns = 10 * HK_NSEC_PER_SEC, .profile_dir = "." };
	struct hk_printer pr;
	struct timespec ts;
	unsigned long long ticks;
	unsigned long pid;
	sigset_t stop;
	long hz;
	__u32 kind = HK_PROF_ON_CPU;
	const char *label = "manual", *dir_flag = "--profile-dir";
	int opt, json = 0, t, li = 0;

	optind = 0;
	opterr = 0;	/* its messages say argv[0]: usage.h says them */
	while ((opt = getopt_long(argc, argv, ":jmh", opts, &li)) != -1) {
		switch (opt) {
		case 'd':
			if (hk_units__parse_duration_ns(optarg, &act.profile_ns) ||
			    act.profile_ns < HK_NSEC_PER_SEC || act.profile_ns > HK_NSEC_PER_HOUR)
				return hk_usage__error("profile", "bad --duration '%s' (1s..1h, "
						       "e.g. 10s)", optarg);
			break;
		case 'D':
			/* the messages name the flag the user typed */
			dir_flag = !strcmp(opts[li].name, "dir") ? "--dir" : "--profile-dir";
			act.profile_dir = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'm':
			kind = HK_PROF_MEMORY;
			label = "memory";
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		default:
			return hk_usage__getopt("profile", opt, argv, opts);
		}
	}
	if (optind == argc)
		return hk_usage__error("profile", "which PID? (e.g. hotspot-k profile 4242)");
	if (optind < argc - 1)
		return hk_usage__error("profile", "one PID only; unexpected argument '%s'",
				       argv[optind + 1]);
	errno = 0;
	pid = strtoul(argv[optind], &end, 10);
	if (errno || *end || !pid || pid > 4194304)
		return hk_usage__error("profile", "bad PID '%s' (1..4194304)", argv[optind]);
	if (hk_preflight__need_root("profile", "it loads BPF programs and opens perf events",
				    err, sizeof(err))) {
		fprintf(stderr, "hotspot-k profile: %s\n", err);
		return EXIT_RUNTIME;
	}
	/* the process of that PID now: its start, checked again as it is opened */
	errno = 0;
	ticks = hk_pidref__start_ticks((__u32)pid);
	hz = sysconf(_SC_CLK_TCK);
	if ((!ticks && errno) || hz <= 0) {
		fprintf(stderr, "hotspot-k profile: no process %lu\n", pid);
		return EXIT_RUNTIME;
	}
	/* opened and checked once: the files go in relative to it */
	if (hk_profile__dir_open(act.profile_dir, warn, sizeof(warn), err, sizeof(err))) {
		fprintf(stderr, "hotspot-k profile: %s %s\n", dir_flag, err);
		return EXIT_USAGE;
	}
	if (warn[0])
		hk_log__print(HK_LOG_WARNING, "profile %s %s\n", dir_flag, warn);
	signal(SIGPIPE, SIG_IGN);
	if (hk_printer__init(&pr, stdout, json, 0, 0)) {
		fprintf(stderr, "hotspot-k profile: out of memory\n");
		return EXIT_RUNTIME;
	}
	act.pr = &pr;
	act.prof = hk_profiler__new(hk_act__profile_done, &act);
	block_stop_signals(&stop);
	if (!act.prof || hk_profiler__start(act.prof, (__u32)pid,
					    ticks * (HK_NSEC_PER_SEC / (__u64)hz), label, kind,
					    act.profile_ns, act.profile_dir, prefix, sizeof(prefix),
					    err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "profile %lu: %s\n", pid, act.prof ? err : "out of memory");
		hk_profiler__free(act.prof);
		hk_printer__free(&pr);
		return EXIT_RUNTIME;
	}
	hk_act__profile_started(&act, (__u32)pid, hk_profiler__comm(act.prof, (__u32)pid),
				label, kind, prefix);
	/* sampling, then its child naming and writing (within its budget): a
	 * signal ends the first, a second one the other */
	while (hk_profiler__count(act.prof)) {
		t = hk_profiler__timeout_ms(act.prof);
		ts.tv_sec = t / 1000;
		ts.tv_nsec = (long)(t % 1000) * 1000000L;
		if (sigtimedwait(&stop, NULL, &ts) > 0)
			hk_profiler__stop_all(act.prof);
		hk_profiler__poll(act.prof);
	}
	hk_profiler__free(act.prof);
	opt = pr.write_errno;
	hk_printer__free(&pr);
	return !opt && act.profiles_written ? EXIT_OK : EXIT_RUNTIME;
}
