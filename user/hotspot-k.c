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
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include "config.h"
#include "format.h"
#include "loader.h"
#include "printer.h"
#include "sysinfo.h"
#include "units.h"

enum {
	EXIT_OK = 0,
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

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hotspot-k: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'hotspot-k --help' for more information.\n");
}

static void print_summary(struct hk_loader *l, const struct hk_printer *pr)
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
		"%llu stale run delays dropped\n",
		(unsigned long long)st.windows, (unsigned long long)st.events_emitted,
		(unsigned long long)st.events_dropped,
		hk_driver__name(hk_loader__driver(l, NULL)),
		(unsigned long long)(st.threads_walked ? st.walk_cpu_ns_total / st.threads_walked : 0),
		(unsigned long long)(st.walk_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)(st.stretch_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)st.stretches_over_2ms, (unsigned long long)st.stretches, hook,
		(unsigned long long)st.procs_quiet, (unsigned long long)st.procs_walked,
		(unsigned long long)st.samples_skipped,
		(unsigned long long)st.stale_waits);
	/* every way a diagnosis can be late, lost or cut short, even at 0:
	 * a count that is absent cannot be told from one that is zero */
	fprintf(stderr,
		"hotspot-k: losses: %llu events dropped (ring buffer full, retried), "
		"%llu exits lost (swept), %llu aggressor pairs over the cap, "
		"%llu process-windows untracked (hk_procs full, see --max-procs), "
		"%llu timer re-arm failures, %llu wq start failures, "
		"%llu lines not written, %llu cgroup paths cut to %d bytes\n",
		(unsigned long long)st.events_dropped, (unsigned long long)st.exits_lost,
		(unsigned long long)st.defer_overflows, (unsigned long long)st.procs_untracked,
		(unsigned long long)st.timer_rearm_failures,
		(unsigned long long)st.wq_start_failures,
		(unsigned long long)pr->lines_lost, (unsigned long long)pr->cgroups_cut,
		HK_FORMAT_CGROUP_MAX);
}

/* Windows without one after which a timer driver is taken for dead. */
#define HK_WATCHDOG_INTERVALS 3

/* Which driver walks, why, and what that costs this process per window. */
static void print_start(struct hk_loader *l, __u64 interval_ns)
{
	struct hk_walk_cost first;
	const char *why;
	enum hk_driver d = hk_loader__driver(l, &why);
	char cost[200];

	hk_loader__walk_cost(l, &first, NULL);
	if (d == HK_DRIVER_ITER)
		snprintf(cost, sizeof(cost),
			 "walked from here each window; the first walk took %u system calls, %llu us",
			 first.syscalls, (unsigned long long)(first.wall_ns / HK_NSEC_PER_USEC));
	else
		snprintf(cost, sizeof(cost),
			 "walked by the kernel's timer, %s; from here a watchdog, woken when "
			 "%d intervals pass without a window",
			 d == HK_DRIVER_WQ ? "in a kworker" : "in softirq", HK_WATCHDOG_INTERVALS);
	fprintf(stderr, "hotspot-k: diagnosing every %llu ms; driver %s (%s): %s%s; Ctrl-C to stop\n",
		(unsigned long long)(interval_ns / HK_NSEC_PER_MSEC), hk_driver__name(d), why, cost,
		hk_loader__bounded_loops(l) ? "; bounded loops (no bpf_loop before 5.17)" : "");
}

/* Everything the command line says. */
struct cli {
	struct hk_loader_opts opts;
	const char *config_path;
	const char *check_path;
	__u64 interval_ns;		/* --interval; 0: not given */
	__u64 duration_ns;		/* --duration; 0: until a signal */
	int generate;
	int json;
	int utc;
};

/* 0: go on; else the exit status (--help, --version, a usage error). */
static int parse_args(struct cli *c, int argc, char **argv)
{
	__u64 max_procs;
	int opt;

	while ((opt = getopt_long(argc, argv, "c:i:jvhV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			c->config_path = optarg;
			break;
		case 'i':
			if (hk_units__parse_duration_ns(optarg, &c->interval_ns) ||
			    !c->interval_ns) {
				usage_error("bad --interval '%s' (e.g. 5s, 500ms)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			c->json = 1;
			break;
		case OPT_UTC:
			c->utc = 1;
			break;
		case OPT_DURATION:
			if (hk_units__parse_duration_ns(optarg, &c->duration_ns) ||
			    c->duration_ns < HK_NSEC_PER_SEC) {
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
			c->opts.max_procs = (__u32)max_procs;
			break;
		case OPT_TIMER_WALK:
			c->opts.driver = HK_DRIVER_TIMER;
			break;
		case OPT_DRIVER:
			if (!strcmp(optarg, "wq"))
				c->opts.driver = HK_DRIVER_WQ;
			else if (!strcmp(optarg, "timer"))
				c->opts.driver = HK_DRIVER_TIMER;
			else if (!strcmp(optarg, "iter"))
				c->opts.driver = HK_DRIVER_ITER;
			else {
				usage_error("bad --driver '%s' (wq, timer or iter)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_NO_HOOK:
			c->opts.no_hook = 1;
			break;
		case OPT_GENERATE:
			c->generate = 1;
			break;
		case OPT_CHECK:
			c->check_path = optarg;
			break;
		case 'v':
			c->opts.verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		case 'V':
			printf("hotspot-k %s\n", HK_VERSION);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		default:
			fprintf(stderr, "Try 'hotspot-k --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		usage_error("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return -1;
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * HK_NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

/*
 * A timer driver's windows come from the kernel: if none ends for
 * HK_WATCHDOG_INTERVALS intervals, its timer died (a failed re-arm, a work
 * item that never ran). Checked when that much time has passed since the
 * last walk ended, so that an idle machine costs one wake-up and one map
 * read per 2 to 3 windows.
 */
struct watchdog {
	__u64 due_ns;			/* CLOCK_MONOTONIC, like bpf_ktime_get_ns() */
	__u64 interval_ns;
};

static int watchdog_timeout_ms(const struct watchdog *w, __u64 now_ns)
{
	if (now_ns >= w->due_ns)
		return 0;
	return (int)((w->due_ns - now_ns + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

/* Take the walk over from a timer that stopped; say so, once. */
static void watchdog_check(struct watchdog *w, struct hk_loader *l)
{
	__u64 now_ns = mono_ns(), limit_ns = HK_WATCHDOG_INTERVALS * w->interval_ns;
	struct hk_stats st;
	char iv[32];

	if (hk_loader__driver(l, NULL) == HK_DRIVER_ITER || now_ns < w->due_ns ||
	    hk_loader__stats(l, &st))
		return;
	if (st.last_walk_end_ns + limit_ns > now_ns) {
		w->due_ns = st.last_walk_end_ns + limit_ns;
		return;
	}
	hk_units__print(iv, sizeof(iv), HK_UNIT_DURATION_NS, w->interval_ns);
	fprintf(stderr, "hotspot-k: no window for %d intervals of %s: the kernel's timer "
		"stopped (%llu re-arm failures, %llu wq start failures); from now on "
		"driver iter, walked from here\n", HK_WATCHDOG_INTERVALS, iv,
		(unsigned long long)st.timer_rearm_failures,
		(unsigned long long)st.wq_start_failures);
	hk_loader__take_over(l);
}

/*
 * SIGINT, SIGTERM and SIGALRM (--duration) arrive on a signalfd in the
 * same epoll as the ring buffer: blocked first, so that one landing at
 * any moment, even during the load, is seen at the next wait.
 */
static int signals_fd(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGALRM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -1;
	return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

enum { EP_RING = 0, EP_SIGNAL = 1 };

static int epoll_for(struct hk_loader *l, int sig_fd)
{
	struct epoll_event ring = { .events = EPOLLIN, .data.u32 = EP_RING };
	struct epoll_event sig = { .events = EPOLLIN, .data.u32 = EP_SIGNAL };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return -1;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, hk_loader__ring_fd(l), &ring) ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, sig_fd, &sig)) {
		close(ep);
		return -1;
	}
	return ep;
}

/* A write error: EPIPE (the reader left, `| head`) is not one to tell. */
static int output_failed(const struct hk_printer *pr)
{
	if (pr->write_errno != EPIPE)
		fprintf(stderr, "hotspot-k: writing output: %s\n", strerror(pr->write_errno));
	return EXIT_RUNTIME;
}

/* Events until a signal or a failure; the exit status. */
static int event_loop(struct hk_loader *l, struct hk_printer *pr, int sig_fd,
		      __u64 interval_ns)
{
	struct watchdog wd = {
		.due_ns = mono_ns() + HK_WATCHDOG_INTERVALS * interval_ns,
		.interval_ns = interval_ns,
	};
	struct epoll_event evs[2];
	int ep, n, i, stop = 0, timeout;
	struct hk_handover ho;

	ep = epoll_for(l, sig_fd);
	if (ep < 0) {
		fprintf(stderr, "hotspot-k: epoll: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	while (!stop) {
		/* the next walk under the iter driver; else the watchdog: a
		 * timer driver has no other periodic wake-up */
		timeout = hk_loader__timeout_ms(l);
		if (timeout < 0)
			timeout = watchdog_timeout_ms(&wd, mono_ns());
		n = epoll_wait(ep, evs, 2, timeout);
		/* a signal that is not ours to stop on (SIGCONT after Ctrl-Z,
		 * a debugger attaching) interrupts the wait too */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "hotspot-k: epoll_wait: %s\n", strerror(errno));
			stop = EXIT_RUNTIME;
			break;
		}
		for (i = 0; i < n; i++) {
			struct signalfd_siginfo si;

			if (evs[i].data.u32 == EP_SIGNAL &&
			    read(sig_fd, &si, sizeof(si)) == sizeof(si))
				stop = -1;
		}
		/* the records already in the ring come out before any exit */
		n = hk_loader__consume(l);
		if (pr->write_errno) {
			close(ep);
			return output_failed(pr);
		}
		if (n < 0) {
			fprintf(stderr, "hotspot-k: reading the ring buffer: %s\n", strerror(-n));
			stop = EXIT_RUNTIME;
			break;
		}
		if (stop)
			break;
		if (hk_loader__handover(l, &ho))
			fprintf(stderr, "hotspot-k: a walk by driver %s held a CPU %llu us (over 2 "
				"chunks of %llu us): from now on driver iter, walked from here in "
				"chunks\n", hk_driver__name(ho.from),
				(unsigned long long)(ho.walk_ns / HK_NSEC_PER_USEC),
				(unsigned long long)(HK_CHUNK_NS / HK_NSEC_PER_USEC));
		watchdog_check(&wd, l);
		n = hk_loader__walk_if_due(l);
		if (n < 0) {
			fprintf(stderr, "hotspot-k: walking: reading the task iterator: %s\n",
				strerror(-n));
			stop = EXIT_RUNTIME;
		}
	}
	close(ep);
	return stop < 0 ? EXIT_OK : stop;
}

int main(int argc, char **argv)
{
	struct cli c = {};
	struct hk_printer pr;
	char err[HK_ERR_LEN + 512];
	struct hk_loader *l = NULL;
	int ret, sig_fd;

	/* a closed stdout is an EPIPE to report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	ret = parse_args(&c, argc, argv);
	if (ret >= 0)
		return ret;
	if (c.generate) {
		hk_config__defaults(&c.opts.cfg);
		if (!hk_config__generate(&c.opts.cfg, stdout))
			return EXIT_OK;
		/* a reader that went away (| head) is not an error to tell */
		if (errno != EPIPE)
			fprintf(stderr, "hotspot-k: writing output: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (hk_config__load(&c.opts.cfg, c.check_path ? c.check_path : c.config_path,
			    c.interval_ns, err, sizeof(err))) {
		fprintf(stderr, "hotspot-k: %s\n", err);
		return EXIT_USAGE;
	}
	if (c.check_path) {
		printf("%s: ok\n", c.check_path);
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}

	if (hk_sys__fill_env(&c.opts.cfg)) {
		fprintf(stderr, "hotspot-k: cannot read system facts: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	/* hk_procs is preallocated: size it for the machine, not the worst
	 * case (32768 entries are 17 MiB of kernel memory) */
	if (!c.opts.max_procs)
		c.opts.max_procs = hk_sys__default_max_procs();
	if (hk_printer__init(&pr, stdout, c.json, c.utc,
			     !c.json && hk_format__use_color(isatty(STDOUT_FILENO),
							     getenv("NO_COLOR"), getenv("TERM")))) {
		fprintf(stderr, "hotspot-k: out of memory\n");
		return EXIT_RUNTIME;
	}
	c.opts.on_event = hk_printer__event;
	c.opts.ctx = &pr;

	sig_fd = signals_fd();
	if (sig_fd < 0) {
		fprintf(stderr, "hotspot-k: signalfd: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (hk_loader__start(&l, &c.opts, err, sizeof(err))) {
		fprintf(stderr, "hotspot-k: %s\n", err);
		return EXIT_RUNTIME;
	}
	/* on stderr in --json mode too: which driver runs is worth a line */
	print_start(l, c.opts.cfg.interval_ns);
	if (c.duration_ns) {
		/* not alarm(): its 32-bit seconds cut 4294967297 s to 1 s */
		struct itimerval stop_at = {
			.it_value.tv_sec = (time_t)(c.duration_ns / HK_NSEC_PER_SEC),
			.it_value.tv_usec = (suseconds_t)(c.duration_ns % HK_NSEC_PER_SEC /
							  HK_NSEC_PER_USEC),
		};

		setitimer(ITIMER_REAL, &stop_at, NULL);
	}
	ret = event_loop(l, &pr, sig_fd, c.opts.cfg.interval_ns);
	print_summary(l, &pr);
	hk_loader__destroy(l);
	hk_printer__free(&pr);
	close(sig_fd);
	return ret;
}
