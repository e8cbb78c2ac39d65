// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hotspot-k - tells, the moment it happens, which process became OOM risk,
 * Mem-thrashing, Starved, a Noisy neighbor or CPU-bound, and why. The
 * diagnosis runs in the kernel; this program configures it and prints the
 * transitions it sends. It does nothing periodically: it sleeps on the
 * ring buffer.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include "act.h"
#include "bpffs.h"
#include "cli.h"
#include "clock.h"
#include "config.h"
#include "delayacct.h"
#include "format.h"
#include "freeze.h"
#include "loader.h"
#include "log.h"
#include "pinned.h"
#include "printer.h"
#include "profile_cmd.h"
#include "profile_write.h"
#include "prometheus.h"
#include "status.h"
#include "stopguard.h"
#include "sysinfo.h"
#include "units.h"
#include "watch.h"

static void print_summary(struct hk_loader *l, const struct hk_printer *pr)
{
	static int said;
	const struct hk_act *a = pr->act;
	struct hk_stats st = {};
	__u64 run_ns = 0, run_cnt = 0;
	char hook[64] = "hook cost unknown (sysctl kernel.bpf_stats_enabled=1)";
	int e;

	/* once: from the loop's cleanup, or from a stuck one's (stopguard.h) */
	if (!hk_stopguard__once(&said) || hk_loader__stats(l, &st))
		return;
	e = hk_loader__hook_cost(l, &run_ns, &run_cnt);
	if (e == -ENOENT)
		snprintf(hook, sizeof(hook), "no hook");
	else if (!e && run_cnt)
		snprintf(hook, sizeof(hook), "hook %llu ns/switch",
			 (unsigned long long)(run_ns / run_cnt));
	hk_log__print(HK_LOG_INFO,
		"%llu windows, %llu events (%llu dropped, retried), "
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
	hk_log__print(HK_LOG_INFO,
		"losses: %llu events dropped (ring buffer full, retried), "
		"%llu exits lost (swept), %llu aggressor pairs over the cap, "
		"%llu process-windows untracked (hk_procs full, see --max-procs), "
		"%llu thread-visits without task storage (ENOMEM), "
		"%llu timer re-arm failures, %llu wq start failures, "
		"%llu lines not written (%llu of them: the output was not read), "
		"%llu cgroup paths cut to %d bytes\n",
		(unsigned long long)st.events_dropped, (unsigned long long)st.exits_lost,
		(unsigned long long)st.defer_overflows, (unsigned long long)st.procs_untracked,
		(unsigned long long)st.threads_unstored,
		(unsigned long long)st.timer_rearm_failures,
		(unsigned long long)st.wq_start_failures,
		(unsigned long long)pr->lines_lost, (unsigned long long)pr->lines_stalled,
		(unsigned long long)pr->cgroups_cut,
		HK_FORMAT_CGROUP_MAX);
	if (a && a->freeze && (a->freeze->eta_s || a->freeze->frozen || a->freeze->refused ||
			       a->freeze->failed))
		hk_log__print(HK_LOG_INFO, "freeze: %llu cgroups frozen (or freezing), "
			"%llu refused, %llu failed\n", (unsigned long long)a->freeze->frozen,
			(unsigned long long)a->freeze->refused,
			(unsigned long long)a->freeze->failed);
	if (a && (a->profile_ns || a->profiles_written || a->profiles_failed))
		hk_log__print(HK_LOG_INFO, "profiles: %llu written, %llu failed, %llu not "
			"started (%d at once at most)\n", (unsigned long long)a->profiles_written,
			(unsigned long long)a->profiles_failed,
			(unsigned long long)a->profiles_skipped, HK_PROF_TARGETS);
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
	hk_log__print(HK_LOG_INFO, "diagnosing every %llu ms; driver %s (%s): %s%s; "
		      "Ctrl-C to stop\n", (unsigned long long)(interval_ns / HK_NSEC_PER_MSEC),
		      hk_driver__name(d), why, cost,
		      hk_loader__bounded_loops(l) ? "; bounded loops (no bpf_loop before 5.17)" : "");
}

/*
 * A timer driver's windows come from the kernel: if none ends for
 * HK_WATCHDOG_INTERVALS intervals, its timer died (a failed re-arm, a work
 * item that never ran). Checked when that much time has passed since the
 * last walk ended, so that an idle machine costs one wake-up (and a read
 * of the mapped hk_stats) about every 3 windows.
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
	hk_log__print(HK_LOG_WARNING, "no window for %d intervals of %s: the kernel's timer "
		"stopped (%llu re-arm failures, %llu wq start failures); from now on "
		"driver iter, walked from here\n", HK_WATCHDOG_INTERVALS, iv,
		(unsigned long long)st.timer_rearm_failures,
		(unsigned long long)st.wq_start_failures);
	hk_loader__take_over(l);
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
		hk_log__print(HK_LOG_ERR, "writing output: %s\n", strerror(pr->write_errno));
	return EXIT_RUNTIME;
}

/* Exiting: kernel.task_delayacct put back (delayacct.h). Once: from the
 * loop's cleanup, or from a stuck one's (stopguard.h). */
static void delayacct_put_back(void)
{
	static int done;

	if (hk_stopguard__once(&done))
		hk_delayacct__put_back();
}

/* Where profiles go: "." unless --profile-dir says. */
static const char *profile_dir(const struct hk_cli *c)
{
	return c->profile_dir ? c->profile_dir : ".";
}

/*
 * The profile directory, opened and checked (profile_write.h) when profiles
 * are on: at start, and when a reload turns them on, so that a bad one is
 * said now, not when a process is flagged at 3 am and its profile ends.
 * 0, or -1 said in one line ("reload: ... the running config stays").
 */
static int profile_dir_open(const struct hk_cli *c, int reloading)
{
	char err[512], warn[512];

	if (hk_profile__dir_open(profile_dir(c), warn, sizeof(warn), err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s--profile-dir %s%s\n", reloading ? "reload: " : "",
			      err, reloading ? "; the running config stays" : "");
		return -1;
	}
	if (warn[0])
		hk_log__print(HK_LOG_WARNING, "--profile-dir %s\n", warn);
	return 0;
}

/*
 * SIGHUP: the config file again, with the same flags on top, validated,
 * then written into hk_config in place. A bad file changes nothing, and
 * neither does one hk_config refuses: delay accounting is turned on only
 * once the config that asks for it is in place.
 */
static void reload(const struct hk_cli *c, struct hk_loader *l, struct hk_freezer *fz)
{
	struct hk_config cfg, old;
	char err[HK_ERR_LEN + 512], diff[1024];
	int n;

	if (!c->config_path) {
		hk_log__print(HK_LOG_WARNING, "SIGHUP: no --config to read again; nothing changed\n");
		return;
	}
	if (hk_config__load(&cfg, c->config_path, c->interval_ns, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return;
	}
	hk_cli__apply_flags(c, &cfg);
	if (hk_sys__resolve_cgroup(&cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return;
	}
	hk_loader__config(l, &old);
	/* the cgroup filter's id too: the same path may name a cgroup made anew */
	n = hk_config__diff(&old, &cfg, diff, sizeof(diff));
	if (!n) {
		hk_log__print(HK_LOG_INFO, "reload: %s: nothing changed\n", c->config_path);
		return;
	}
	if (cfg.profile_ns && !old.profile_ns && profile_dir_open(c, 1))
		return;
	/* a reload keeps the duty, whatever it asks for now */
	cfg.delayacct_duty = hk_delayacct__duty();
	if (hk_loader__reconfigure(l, &cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return;
	}
	/* io_blocked turned on: delay accounting too, and the duty shown */
	if (cfg.io_blocked_pct_x100 && !old.io_blocked_pct_x100) {
		hk_delayacct__for(&cfg);
		hk_delayacct__say();
		if (cfg.delayacct_duty != old.delayacct_duty)
			hk_loader__reconfigure(l, &cfg, err, sizeof(err));
	}
	if (fz)
		hk_freeze__configure(fz, &cfg);
	hk_log__print(HK_LOG_NOTICE, "reload: %s: %s\n", c->config_path, diff);
}

/* The loop looks around when it is awake anyway (watch.h). */
struct watches {
	struct hk_cgroup_watch cgroup;
	struct hk_procs_watch procs;
	__u32 max_procs;
};

static void watches_check(struct watches *w, struct hk_loader *l)
{
	char line[HK_ERR_LEN + 1024], err[HK_ERR_LEN + 512];
	struct hk_config cfg, next;
	struct hk_stats st;
	int prio;

	hk_loader__config(l, &cfg);
	if (hk_watch__cgroup(&w->cgroup, &cfg, mono_ns(), &next, line, sizeof(line), &prio) &&
	    hk_loader__reconfigure(l, &next, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "cgroup filter: %s\n", err);
		line[0] = '\0';
		w->cgroup.next_ns = 0;	/* again at the next wake-up */
	}
	if (line[0])
		hk_log__print(prio, "%s", line);
	if (hk_loader__stats(l, &st))
		return;
	prio = hk_watch__procs(&w->procs, &st, w->max_procs, mono_ns(), line, sizeof(line));
	if (prio)
		hk_log__print(prio, "%s", line);
}

/* --prometheus: the textfile rewritten when it has news, at most once a window. */
struct prom_pace {
	const char *path;
	__u64 last_ns;			/* last write attempt, CLOCK_MONOTONIC */
	__u64 interval_ns;
	int last_err;			/* said once, until it changes */
};

/* ms until a transition's news may be written; -1: nothing to write. */
static int prom_timeout_ms(const struct hk_printer *pr, const struct prom_pace *pp,
			   __u64 now_ns)
{
	__u64 due_ns = pp->last_ns + pp->interval_ns;

	if (!pr->prom || !pr->prom_changed)
		return -1;
	if (!pp->last_ns || now_ns >= due_ns)
		return 0;
	return (int)((due_ns - now_ns + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

/* Write now if there is news and a window has passed since the last write:
 * called whenever the loop is awake anyway, it adds no wake-up of its own
 * but the one a transition's news asks for. */
static void prom_tick(struct hk_printer *pr, struct prom_pace *pp, struct hk_loader *l)
{
	__u64 now_ns = mono_ns();
	struct hk_stats st;
	char err[512];
	int e;

	if (!pr->prom || (pp->last_ns && now_ns < pp->last_ns + pp->interval_ns) ||
	    hk_loader__stats(l, &st) || !hk_prom__dirty(pr->prom, &st))
		return;
	pp->last_ns = now_ns;
	e = hk_prom__write(pr->prom, &st, hk_driver__name(hk_loader__driver(l, NULL)), err,
			   sizeof(err));
	if (e) {
		if (e != pp->last_err)
			hk_log__print(HK_LOG_ERR, "--prometheus %s: %s; trying again next window\n",
				pp->path, err);
		pp->last_err = e;
		return;
	}
	if (pp->last_err)
		hk_log__print(HK_LOG_INFO, "--prometheus %s: written again\n", pp->path);
	pp->last_err = 0;
	pr->prom_changed = 0;
}

/* The smaller of two poll timeouts, -1 being infinite. */
static int min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* A stop signal: SIGINT, SIGTERM and --duration's SIGALRM need no word. */
static void say_stop(int signo)
{
	if (signo != SIGINT && signo != SIGTERM && signo != SIGALRM)
		hk_log__print(HK_LOG_NOTICE, "%s: stopping, as its default action would, but "
			      "cleanly\n", hk_stopguard__name(signo));
}

/* Events until a signal or a failure; the exit status. */
static int event_loop(const struct hk_cli *c, struct hk_loader *l, struct hk_printer *pr,
		      int sig_fd)
{
	struct watchdog wd = {
		.due_ns = mono_ns() + HK_WATCHDOG_INTERVALS * c->opts.cfg.interval_ns,
		.interval_ns = c->opts.cfg.interval_ns,
	};
	struct prom_pace pp = { .path = c->prom_path, .interval_ns = c->opts.cfg.interval_ns };
	struct watches watch = { .max_procs = c->opts.max_procs };
	struct hk_act *a = pr->act;
	struct hk_config cfg;
	struct epoll_event evs[2];
	int ep, n, i, sig, stop = 0, timeout;
	struct hk_handover ho;

	ep = epoll_for(l, sig_fd);
	if (ep < 0) {
		hk_log__print(HK_LOG_ERR, "epoll: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	while (!stop) {
		/* the next walk under the iter driver; else the watchdog: a
		 * timer driver has no other periodic wake-up */
		timeout = hk_loader__timeout_ms(l);
		if (timeout < 0)
			timeout = watchdog_timeout_ms(&wd, mono_ns());
		timeout = min_timeout(timeout, prom_timeout_ms(pr, &pp, mono_ns()));
		if (a && a->prof)
			timeout = min_timeout(timeout, hk_profiler__timeout_ms(a->prof));
		/* a freeze's --freeze-max: thawed from here */
		if (a && a->freeze)
			timeout = min_timeout(timeout, hk_freeze__timeout_ms(a->freeze));
		hk_stopguard__phase("waiting");
		n = epoll_wait(ep, evs, 2, timeout);
		/* a signal that is not ours to stop on (SIGCONT after Ctrl-Z,
		 * a debugger attaching) interrupts the wait too */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			hk_log__print(HK_LOG_ERR, "epoll_wait: %s\n", strerror(errno));
			stop = EXIT_RUNTIME;
			break;
		}
		for (i = 0; i < n; i++) {
			if (evs[i].data.u32 != EP_SIGNAL)
				continue;
			while ((sig = hk_stopguard__next(sig_fd)) > 0) {
				if (!hk_stopguard__is_reload(sig)) {
					if (!stop)
						say_stop(sig);
					stop = -1;
					continue;
				}
				hk_stopguard__phase("reloading the config");
				reload(c, l, a ? a->freeze : NULL);
				hk_loader__config(l, &cfg);
				if (a)
					a->profile_ns = cfg.profile_ns;
				wd.interval_ns = hk_loader__interval_ns(l);
				pp.interval_ns = wd.interval_ns;
			}
		}
		/* the records already in the ring come out before any exit */
		hk_stopguard__phase("printing transitions and acting on them");
		hk_printer__flush(pr);
		n = hk_loader__consume(l);
		if (pr->write_errno) {
			close(ep);
			return output_failed(pr);
		}
		if (n < 0) {
			hk_log__print(HK_LOG_ERR, "reading the ring buffer: %s\n", strerror(-n));
			stop = EXIT_RUNTIME;
			break;
		}
		if (stop)
			break;
		if (hk_loader__handover(l, &ho))
			hk_log__print(HK_LOG_WARNING, "a walk by driver %s held a CPU %llu us (over 2 "
				"chunks of %llu us): from now on driver iter, walked from here in "
				"chunks\n", hk_driver__name(ho.from),
				(unsigned long long)(ho.walk_ns / HK_NSEC_PER_USEC),
				(unsigned long long)(HK_CHUNK_NS / HK_NSEC_PER_USEC));
		watchdog_check(&wd, l);
		watches_check(&watch, l);
		hk_stopguard__phase("walking");
		n = hk_loader__walk_if_due(l);
		hk_stopguard__phase("writing the --prometheus textfile");
		prom_tick(pr, &pp, l);
		hk_stopguard__phase("profiling");
		if (a && a->prof)
			hk_profiler__poll(a->prof);
		if (a)
			hk_act__freeze_tick(a);
		if (n < 0) {
			hk_log__print(HK_LOG_ERR, "walking: reading the task iterator: %s\n",
				strerror(-n));
			stop = EXIT_RUNTIME;
		}
	}
	close(ep);
	return stop < 0 ? EXIT_OK : stop;
}

/* For a stuck loop's cleanup, from the guard's thread (stopguard.h). */
static struct hk_loader *running;
static struct hk_printer *printing;

/* The loop did not finish its cleanup in time after a stop signal. */
static int stuck(int signo, const char *phase)
{
	hk_log__print(HK_LOG_ERR, "%s came %d s ago, and the event loop is still busy %s: "
		      "exiting without it (profiles in progress and the last --prometheus "
		      "write are lost)\n", hk_stopguard__name(signo),
		      HK_STOPGUARD_GRACE_MS / 1000, phase);
	delayacct_put_back();
	if (running && printing)
		print_summary(running, printing);
	return EXIT_RUNTIME;
}

/* What the environment forbids, said once at start rather than by every
 * flagged process (the shipped unit's hardening: hotspot-k(8), SERVICE). */
static void say_environment(const struct hk_act *a)
{
	char why[PATH_MAX + 256];
	int e;

	if (!a->profile_ns)
		return;
	e = hk_sys__check_profile(why, sizeof(why));
	if (e)
		hk_log__print(HK_LOG_WARNING, "--profile %s: %s (hotspot-k(8), SERVICE)\n",
			      e < 0 ? "will fail" : "works in part", why);
	if (hk_sys__private_tmp(a->profile_dir, NULL, why, sizeof(why)))
		hk_log__print(HK_LOG_WARNING, "--profile-dir %s is in this service's own %s "
			      "(PrivateTmp=yes): nobody else sees the profiles, and they are "
			      "removed when the service stops; StateDirectory=hotspot-k and "
			      "--profile-dir /var/lib/hotspot-k keep them\n", a->profile_dir, why);
}

int main(int argc, char **argv)
{
	struct hk_cli c = {};
	struct hk_freezer fz;
	struct hk_printer pr;
	char err[HK_ERR_LEN + 512];
	struct hk_loader *l = NULL;
	struct hk_act act = {};
	int ret, sig_fd;

	if (argc > 1 && !strcmp(argv[1], "status"))
		return hk_status__main(argc - 1, argv + 1);
	/* a closed stdout is an EPIPE to report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	hk_log__init(hk_printer__is_journal(STDERR_FILENO, getenv("JOURNAL_STREAM")));
	if (argc > 1 && !strcmp(argv[1], "follow"))
		return hk_pinned__follow(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "unpin"))
		return hk_pinned__unpin(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "profile"))
		return hk_profile_cmd__main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "thaw"))
		return hk_freeze__thaw_main(argc - 1, argv + 1);
	ret = hk_cli__parse(&c, argc, argv);
	if (ret >= 0)
		return ret;
	if (c.generate) {
		hk_config__defaults(&c.opts.cfg);
		if (!hk_config__generate(&c.opts.cfg, stdout))
			return EXIT_OK;
		/* a reader that went away (| head) is not an error to tell */
		if (errno != EPIPE)
			hk_log__print(HK_LOG_ERR, "writing output: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	if (hk_config__load(&c.opts.cfg, c.check_path ? c.check_path : c.config_path,
			    c.interval_ns, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s\n", err);
		return EXIT_USAGE;
	}
	hk_cli__apply_flags(&c, &c.opts.cfg);
	if (hk_sys__resolve_cgroup(&c.opts.cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s\n", err);
		return EXIT_USAGE;
	}
	/* a freeze is done from here, as the line that says so is written */
	if (c.pin && c.opts.cfg.freeze_eta_s) {
		hk_log__print(HK_LOG_ERR, "--pin leaves no process to freeze from: not with "
			      "--freeze-on-oom or [freeze] on_oom_eta\n");
		return EXIT_USAGE;
	}
	/* ... and so is a profile */
	if (c.pin && c.opts.cfg.profile_ns) {
		hk_log__print(HK_LOG_ERR, "--pin leaves no process to profile from: not with "
			      "--profile or [profile] duration\n");
		return EXIT_USAGE;
	}
	if (c.check_path) {
		printf("%s: ok\n", c.check_path);
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}

	if (hk_sys__fill_env(&c.opts.cfg)) {
		hk_log__print(HK_LOG_ERR, "cannot read system facts: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	/* hk_procs is preallocated: size it for the machine, not the worst
	 * case (32768 entries are 17 MiB of kernel memory) */
	if (!c.opts.max_procs)
		c.opts.max_procs = hk_sys__default_max_procs(c.opts.cfg.pidns_ino);
	/* the task iterator walks the PID namespace of its reader: a
	 * container's tool diagnoses that container only (review finding 12) */
	if (hk_sys__pidns_is_init(c.opts.cfg.pidns_ino) == 0)
		hk_log__print(HK_LOG_WARNING, "not in the host's PID namespace: the task "
			      "iterator sees this namespace's processes only; run hotspot-k in "
			      "the host's (docker run --pid=host, Kubernetes hostPID: true)\n");
	if (hk_printer__init_stdout(&pr, c.json, c.utc)) {
		hk_log__print(HK_LOG_ERR, "out of memory\n");
		return EXIT_RUNTIME;
	}
	/* set up even when off: a reload may turn it on */
	if (hk_freeze__init(&fz, &c.opts.cfg)) {
		hk_log__print(HK_LOG_ERR, "out of memory\n");
		return EXIT_RUNTIME;
	}
	if (c.prom_path) {
		char warn[512];

		pr.prom = hk_prom__new(c.prom_path, warn, sizeof(warn), err, sizeof(err));
		if (!pr.prom) {
			hk_log__print(HK_LOG_ERR, "--prometheus %s\n", err);
			return EXIT_USAGE;
		}
		if (warn[0])
			hk_log__print(HK_LOG_WARNING, "--prometheus %s\n", warn);
	}
	if (c.pin) {
		int mounted;

		/* a host without systemd (a container, a minimal VM, CI) may
		 * have nothing on /sys/fs/bpf: mounted now, and said */
		if (hk_bpffs__ensure(HK_BPFFS_DIR, &mounted, err, sizeof(err))) {
			hk_log__print(HK_LOG_ERR, "--pin: %s\n", err);
			return EXIT_RUNTIME;
		}
		if (mounted)
			hk_log__print(HK_LOG_NOTICE, "--pin: nothing was mounted on %s: mounted "
				      "bpffs there (mode 0700)\n", HK_BPFFS_DIR);
		if (!access(HK_PIN_DIR, F_OK)) {
			hk_log__print(HK_LOG_ERR, "--pin: %s exists: an instance is pinned already "
				"(hotspot-k unpin stops it)\n", HK_PIN_DIR);
			return EXIT_RUNTIME;
		}
		c.opts.pin = 1;
	}
	c.opts.on_event = hk_printer__event;
	c.opts.ctx = &pr;
	act.pr = &pr;
	act.profile_ns = c.opts.cfg.profile_ns;
	act.profile_dir = profile_dir(&c);
	if (!c.pin) {
		if (c.opts.cfg.profile_ns && profile_dir_open(&c, 0))
			return EXIT_USAGE;
		act.freeze = &fz;
		act.prof = hk_profiler__new(hk_act__profile_done, &act);
		if (!act.prof) {
			hk_log__print(HK_LOG_ERR, "out of memory\n");
			return EXIT_RUNTIME;
		}
		pr.on_transition = hk_act__transition;
		pr.act = &act;
	}

	/* from here on a stop signal, at any moment, is a clean stop */
	sig_fd = hk_stopguard__start(stuck);
	if (sig_fd < 0) {
		hk_log__print(HK_LOG_ERR, "cannot start the signal thread: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	printing = &pr;
	hk_delayacct__for(&c.opts.cfg);
	if (hk_loader__start(&l, &c.opts, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s\n", err);
		delayacct_put_back();
		hk_stopguard__done();
		hk_profiler__free(act.prof);
		hk_printer__free(&pr);
		hk_freeze__free(&fz);
		return EXIT_RUNTIME;
	}
	hk_delayacct__loaded();
	running = l;
	hk_delayacct__say();
	if (c.pin) {
		ret = hk_loader__pin(l, HK_PIN_DIR, err, sizeof(err));
		/* pinned, the diagnosis outlives us: so does delay accounting,
		 * until unpin (the record in /run and its hk_config keep the
		 * duty); not pinned, it goes back now */
		if (ret)
			delayacct_put_back();
		hk_delayacct__leave_on();
		if (ret)
			hk_log__print(HK_LOG_ERR, "%s\n", err);
		else
			printf("hotspot-k: pinned under %s, driver %s, every %llu ms: the diagnosis "
			       "runs on in the kernel; hotspot-k follow prints its transitions, "
			       "hotspot-k status its state, hotspot-k unpin stops it\n", HK_PIN_DIR,
			       hk_driver__name(hk_loader__driver(l, NULL)),
			       (unsigned long long)(c.opts.cfg.interval_ns / HK_NSEC_PER_MSEC));
		/* closing our fds leaves the pinned objects be */
		hk_stopguard__done();
		running = NULL;
		hk_loader__destroy(l);
		hk_printer__free(&pr);
		return ret ? EXIT_RUNTIME : EXIT_OK;
	}
	/* on stderr in --json mode too: which driver runs is worth a line */
	print_start(l, c.opts.cfg.interval_ns);
	say_environment(&act);
	/* a reader that stops reading must not hold the loop (outfd.h) */
	if (hk_printer__unblock(&pr))
		hk_log__print(HK_LOG_WARNING, "stdout: %s: a reader that stops reading holds "
			      "the tool\n", strerror(errno));
	if (fz.eta_s) {
		ret = hk_freeze__describe(&fz, err, sizeof(err));
		hk_log__print(ret, "%s\n", err);
	}
	if (c.duration_ns) {
		/* not alarm(): its 32-bit seconds cut 4294967297 s to 1 s */
		struct itimerval stop_at = {
			.it_value.tv_sec = (time_t)(c.duration_ns / HK_NSEC_PER_SEC),
			.it_value.tv_usec = (suseconds_t)(c.duration_ns % HK_NSEC_PER_SEC /
							  HK_NSEC_PER_USEC),
		};

		setitimer(ITIMER_REAL, &stop_at, NULL);
	}
	ret = event_loop(&c, l, &pr, sig_fd);
	/* profiles still running are written with what they have */
	hk_stopguard__phase("writing the profiles in progress");
	hk_profiler__free(act.prof);
	act.prof = NULL;
	/* the textfile says we stopped: hotspot_k_up 0, no stale flagged set */
	if (pr.prom) {
		hk_stopguard__phase("writing the --prometheus textfile at exit");
		hk_prom__down(pr.prom);
		if (hk_prom__write(pr.prom, NULL, NULL, err, sizeof(err)))
			hk_log__print(HK_LOG_ERR, "--prometheus %s: %s\n", c.prom_path, err);
		hk_prom__free(pr.prom);
	}
	hk_stopguard__phase("printing the summary");
	print_summary(l, &pr);
	/* before unloading: while we are loaded, instances found beside us
	 * are others for sure (our programs linger a moment after) */
	delayacct_put_back();
	hk_stopguard__done();
	running = NULL;
	hk_loader__destroy(l);
	hk_printer__free(&pr);
	hk_freeze__free(&fz);
	close(sig_fd);
	return ret;
}
