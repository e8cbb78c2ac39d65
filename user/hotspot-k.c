// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hotspot-k - tells, the moment it happens, which process became OOM risk,
 * Mem-thrashing, Starved, a Noisy neighbor or CPU-bound, and why. The
 * diagnosis runs in the kernel; this program configures it and prints the
 * transitions it sends. It does nothing periodically: it sleeps on the
 * ring buffer.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "config.h"
#include "units.h"
#include "format.h"
#include "loader.h"
#include "sysinfo.h"

enum {
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

enum {
	OPT_GENERATE = 256,
	OPT_CHECK,
	OPT_MAX_PROCS,
	OPT_TIMER_WALK,
	OPT_DRIVER,
	OPT_DURATION,
	OPT_UTC,
	OPT_NO_HOOK,
};

static const char usage_text[] =
"Usage: hotspot-k [--config FILE] [--interval DUR] [--json] [OPTION...]\n"
"\n"
"Diagnose every process in the kernel and print each change of diagnosis:\n"
"OOM risk, Mem-thrashing, Throttled, Starved, Noisy neighbor, CPU-bound, OK,\n"
"exited.\n"
"Runs until SIGINT/SIGTERM, then detaches everything and exits 0.\n"
"\n"
"  -c, --config FILE        thresholds (see --generate-config); unset keys keep\n"
"                           their defaults\n"
"  -i, --interval DUR       window length, e.g. 1s, 500ms (default 5s;\n"
"                           overrides [general] interval)\n"
"  -j, --json               one JSON object per line instead of text\n"
"      --utc                times in UTC instead of local time\n"
"      --duration DUR       stop by itself after DUR (e.g. 60s)\n"
"      --max-procs N        processes tracked at once (default: 4 x the\n"
"                           processes running at start, 4096..65536)\n"
"      --driver NAME        how the walk over all threads runs: wq (a kworker,\n"
"                           Linux >= 6.10), timer (the timer's softirq, >= 6.7),\n"
"                           iter (read here each window, in 1 ms chunks,\n"
"                           >= 5.15); default: by kernel, iter above 2000 threads\n"
"      --timer-walk         the same as --driver timer\n"
"      --no-hook            nothing on the scheduler's hot path (no sched_switch\n"
"                           program): Starved still works, but nobody is named\n"
"                           as its aggressor and nobody is a Noisy neighbor\n"
"      --generate-config    print the default config, fully commented, and exit\n"
"      --check-config FILE  validate FILE, load nothing; exit 0 or 2\n"
"  -v, --verbose            libbpf debug output (full verifier log on failure)\n"
"  -h, --help               this help\n"
"  -V, --version            version\n"
"\n"
"Examples:\n"
"  sudo hotspot-k                             # defaults, 5 s windows\n"
"  sudo hotspot-k -i 1s --json | jq .         # JSON lines, 1 s windows\n"
"  hotspot-k --generate-config > t.conf       # edit, then:\n"
"  hotspot-k --check-config t.conf && sudo hotspot-k --config t.conf\n"
"  sudo bpftool map dump name hk_procs        # current state per process\n"
"\n"
"Exit status: 0 normal, 1 runtime failure, 2 usage or config error.\n";

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "interval", required_argument, NULL, 'i' },
	{ "json", no_argument, NULL, 'j' },
	{ "utc", no_argument, NULL, OPT_UTC },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "max-procs", required_argument, NULL, OPT_MAX_PROCS },
	{ "timer-walk", no_argument, NULL, OPT_TIMER_WALK },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "no-hook", no_argument, NULL, OPT_NO_HOOK },
	{ "generate-config", no_argument, NULL, OPT_GENERATE },
	{ "check-config", required_argument, NULL, OPT_CHECK },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

struct printer {
	int json;
	struct hk_format_ctx fmt;
	__u64 events;
};

static int on_event(void *ctx, void *data, size_t size)
{
	struct printer *pr = ctx;
	const struct hk_event *e = data;
	char cgroup[4096], line[8192];
	const char *cg = NULL;
	int n;

	if (size < sizeof(*e))
		return 0;
	/* the process may be gone already: then there is no path to give.
	 * The cgroup that matters: the CPU controller's for a quota, the
	 * memory controller's otherwise (on a hybrid v1/v2 host every v2
	 * cgroup may be the root) */
	if (e->to != HK_EXITED &&
	    !hk_sys__cgroup_path(e->tgid, e->to == HK_THROTTLED ||
				 (e->to == HK_OK && e->from == HK_THROTTLED) ?
				 "cpu" : "memory", cgroup, sizeof(cgroup)))
		cg = cgroup;
	if (pr->json)
		n = hk_format__json(line, sizeof(line), e, cg, &pr->fmt);
	else
		n = hk_format__human(line, sizeof(line), e, cg, &pr->fmt);
	if (n > 0) {
		fwrite(line, 1, n, stdout);
		fflush(stdout);
	}
	pr->events++;
	return 0;
}

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hotspot-k: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'hotspot-k --help' for more information.\n");
}

static void print_summary(struct hk_loader *l, const struct printer *pr)
{
	struct hk_stats st = {};
	__u64 run_ns = 0, run_cnt = 0;
	char hook[64] = "hook cost unknown (sysctl kernel.bpf_stats_enabled=1)";
	int e;

	if (hk_loader__stats(l, &st))
		return;
	e = hk_loader__hook_cost(l, &run_ns, &run_cnt);
	if (e == -ENOENT)
		snprintf(hook, sizeof(hook), "no hook");
	else if (!e && run_cnt)
		snprintf(hook, sizeof(hook), "hook %llu ns/switch",
			 (unsigned long long)(run_ns / run_cnt));
	fprintf(stderr,
		"hotspot-k: %llu windows, %llu events (%llu dropped, retried), "
		"driver %s, walk %llu ns/thread avg, longest walk %llu us, "
		"longest stretch on a CPU %llu us (%llu of %llu over 2 ms), %s, "
		"%llu of %llu process-windows quiet, %llu samples skipped, "
		"%llu process-windows untracked (hk_procs full), "
		"%llu stale run delays dropped\n",
		(unsigned long long)st.windows, (unsigned long long)st.events_emitted,
		(unsigned long long)st.events_dropped,
		hk_driver_name(hk_loader__driver(l, NULL)),
		(unsigned long long)(st.threads_walked ? st.walk_cpu_ns_total / st.threads_walked : 0),
		(unsigned long long)(st.walk_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)(st.stretch_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)st.stretches_over_2ms, (unsigned long long)st.stretches, hook,
		(unsigned long long)st.procs_quiet, (unsigned long long)st.procs_walked,
		(unsigned long long)st.samples_skipped,
		(unsigned long long)st.procs_untracked,
		(unsigned long long)st.stale_waits);
}

/* Which driver walks, why, and what that costs this process per window. */
static void print_start(struct hk_loader *l, __u64 interval_ns)
{
	struct hk_walk_cost first;
	const char *why;
	enum hk_driver d = hk_loader__driver(l, &why);
	char cost[160];

	hk_loader__walk_cost(l, &first, NULL);
	if (d == HK_DRIVER_ITER)
		snprintf(cost, sizeof(cost),
			 "walked from here each window; the first walk took %u system calls, %llu us",
			 first.syscalls, (unsigned long long)(first.wall_ns / HK_NSEC_PER_USEC));
	else
		snprintf(cost, sizeof(cost), "walked by the kernel's timer, %s; no system calls",
			 d == HK_DRIVER_WQ ? "in a kworker" : "in softirq");
	fprintf(stderr, "hotspot-k: diagnosing every %llu ms; driver %s (%s): %s%s; Ctrl-C to stop\n",
		(unsigned long long)(interval_ns / HK_NSEC_PER_MSEC), hk_driver_name(d), why, cost,
		hk_loader__bounded_loops(l) ? "; bounded loops (no bpf_loop before 5.17)" : "");
}

int main(int argc, char **argv)
{
	struct hk_loader_opts opts = {};
	struct printer pr = {};
	const char *config_path = NULL, *check_path = NULL;
	char err[HK_ERR_LEN + 512];
	__u64 interval_ns = 0, duration_ns = 0, max_procs;
	struct hk_loader *l = NULL;
	int opt, generate = 0, interval_set = 0, ret = 0;

	hk_config__defaults(&opts.cfg);
	while ((opt = getopt_long(argc, argv, "c:i:jvhV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_path = optarg;
			break;
		case 'i':
			if (hk_units__parse_duration_ns(optarg, &interval_ns)) {
				usage_error("bad --interval '%s' (e.g. 5s, 500ms)", optarg);
				return EXIT_USAGE;
			}
			interval_set = 1;
			break;
		case 'j':
			pr.json = 1;
			break;
		case OPT_UTC:
			pr.fmt.utc = 1;
			break;
		case OPT_DURATION:
			if (hk_units__parse_duration_ns(optarg, &duration_ns) ||
			    duration_ns < HK_NSEC_PER_SEC) {
				usage_error("bad --duration '%s' (at least 1s, e.g. 60s)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_MAX_PROCS:
			if (hk_units__parse_count(optarg, &max_procs) || max_procs < 64 ||
			    max_procs > 4194304) {
				usage_error("bad --max-procs '%s' (64..4194304)", optarg);
				return EXIT_USAGE;
			}
			opts.max_procs = (__u32)max_procs;
			break;
		case OPT_TIMER_WALK:
			opts.driver = HK_DRIVER_TIMER;
			break;
		case OPT_DRIVER:
			if (!strcmp(optarg, "wq"))
				opts.driver = HK_DRIVER_WQ;
			else if (!strcmp(optarg, "timer"))
				opts.driver = HK_DRIVER_TIMER;
			else if (!strcmp(optarg, "iter"))
				opts.driver = HK_DRIVER_ITER;
			else {
				usage_error("bad --driver '%s' (wq, timer or iter)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_NO_HOOK:
			opts.no_hook = 1;
			break;
		case OPT_GENERATE:
			generate = 1;
			break;
		case OPT_CHECK:
			check_path = optarg;
			break;
		case 'v':
			opts.verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("hotspot-k %s\n", HK_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'hotspot-k --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (generate) {
		if (!hk_config__generate(&opts.cfg, stdout))
			return 0;
		/* a reader that went away (| head) is not an error to tell */
		if (errno != EPIPE)
			fprintf(stderr, "hotspot-k: writing output: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}

	if (check_path || config_path) {
		const char *path = check_path ? check_path : config_path;

		if (hk_config__parse_file(&opts.cfg, path, err, sizeof(err))) {
			fprintf(stderr, "hotspot-k: %s\n", err);
			return EXIT_USAGE;
		}
	}
	/* the command line wins over the file; validate checks the range */
	if (interval_set)
		opts.cfg.interval_ns = interval_ns;
	if (hk_config__validate(&opts.cfg, err, sizeof(err))) {
		fprintf(stderr, "hotspot-k: %s%s%s\n", check_path ? check_path :
			config_path ? config_path : "", check_path || config_path ? ": " : "",
			err);
		return EXIT_USAGE;
	}
	hk_config__derive(&opts.cfg);
	if (check_path) {
		printf("%s: ok\n", check_path);
		return 0;
	}

	if (hk_sys__fill_env(&opts.cfg)) {
		fprintf(stderr, "hotspot-k: cannot read system facts: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	/* hk_procs is preallocated: size it for the machine, not the worst
	 * case (32768 entries are 17 MiB of kernel memory) */
	if (!opts.max_procs)
		opts.max_procs = hk_sys__default_max_procs();
	pr.fmt.wall_offset_ns = hk_sys__wall_offset_ns();
	pr.fmt.color = !pr.json && hk_format__use_color(isatty(STDOUT_FILENO), getenv("NO_COLOR"),
						getenv("TERM"));
	opts.on_event = on_event;
	opts.ctx = &pr;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGALRM, on_signal);
	if (hk_loader__start(&l, &opts, err, sizeof(err))) {
		fprintf(stderr, "hotspot-k: %s\n", err);
		return EXIT_RUNTIME;
	}
	/* on stderr in --json mode too: which driver runs is worth a line */
	print_start(l, opts.cfg.interval_ns);
	if (duration_ns) {
		/* not alarm(): its 32-bit seconds cut 4294967297 s to 1 s */
		struct itimerval stop_at = {
			.it_value.tv_sec = (time_t)(duration_ns / HK_NSEC_PER_SEC),
			.it_value.tv_usec = (suseconds_t)(duration_ns % HK_NSEC_PER_SEC / HK_NSEC_PER_USEC),
		};

		setitimer(ITIMER_REAL, &stop_at, NULL);
	}

	while (!exiting) {
		/* blocks until an event, a signal or, under the iter driver,
		 * the next walk: a timer driver has no periodic wake-up */
		int n = hk_loader__poll(l, hk_loader__timeout_ms(l));
		struct hk_handover ho;

		/* a signal that is not ours to stop on (SIGCONT after Ctrl-Z,
		 * a debugger attaching) interrupts the poll too */
		if (n == -EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "hotspot-k: reading the ring buffer: %s\n", strerror(-n));
			ret = EXIT_RUNTIME;
			break;
		}
		if (hk_loader__handover(l, &ho))
			fprintf(stderr, "hotspot-k: a walk by driver %s held a CPU %llu us (over 2 "
				"chunks of %llu us): from now on driver iter, walked from here in "
				"chunks\n", hk_driver_name(ho.from),
				(unsigned long long)(ho.walk_ns / HK_NSEC_PER_USEC),
				(unsigned long long)(HK_CHUNK_NS / HK_NSEC_PER_USEC));
		n = hk_loader__walk_if_due(l);
		if (n < 0) {
			fprintf(stderr, "hotspot-k: walking: reading the task iterator: %s\n",
				strerror(-n));
			ret = EXIT_RUNTIME;
			break;
		}
	}
	print_summary(l, &pr);
	hk_loader__destroy(l);
	return ret;
}
