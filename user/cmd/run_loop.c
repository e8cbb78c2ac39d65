// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * run_loop.c - the run's event loop: it sleeps on the ring buffer and the
 * signal thread's fd (stopguard.h), and wakes for nothing else but what is
 * due: the iter driver's next walk, a timer driver's watchdog, the
 * --prometheus textfile's pace, a profile's end, a freeze's --freeze-max,
 * and --metrics-listen's clients (their own epoll set, one fd here).
 * SIGHUP reloads the config in place. Once a window [budget] is judged
 * (run_budget.c): its steps change the interval, profiles, the hook.
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
#include "act/act.h"
#include "kernel/delayacct.h"
#include "kernel/loader.h"
#include "kernel/watch.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "lib/stopguard.h"
#include "lib/sysinfo.h"
#include "lib/units.h"
#include "output/printer.h"
#include "output/metrics_http.h"
#include "output/prometheus.h"
#include "profile/profile_write.h"
#include "run_budget.h"
#include "run_loop.h"

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

enum { EP_RING = 0, EP_SIGNAL = 1, EP_HTTP = 2 };

static int epoll_for(struct hk_loader *l, int sig_fd, struct hk_metrics_http *http)
{
	struct epoll_event ring = { .events = EPOLLIN, .data.u32 = EP_RING };
	struct epoll_event sig = { .events = EPOLLIN, .data.u32 = EP_SIGNAL };
	struct epoll_event web = { .events = EPOLLIN, .data.u32 = EP_HTTP };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return -1;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, hk_loader__ring_fd(l), &ring) ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, sig_fd, &sig) ||
	    (http && epoll_ctl(ep, EPOLL_CTL_ADD, hk_metrics_http__fd(http), &web))) {
		close(ep);
		return -1;
	}
	return ep;
}

/*
 * [budget]'s last step: the ring buffer's fd out of the epoll set, so that
 * records wait for the window's wake-up (ring_timeout_ms); back in when
 * the step is undone. 0, or -1 with errno.
 */
static int ring_follow(int ep, struct hk_loader *l, int lazy, int *polled)
{
	struct epoll_event ring = { .events = EPOLLIN, .data.u32 = EP_RING };

	if (*polled == !lazy)
		return 0;
	if (epoll_ctl(ep, lazy ? EPOLL_CTL_DEL : EPOLL_CTL_ADD, hk_loader__ring_fd(l), &ring))
		return -1;
	*polled = !lazy;
	return 0;
}

/* A write error: EPIPE (the reader left, `| head`) is not one to tell. */
static int output_failed(const struct hk_printer *pr)
{
	if (pr->write_errno != EPIPE)
		hk_log__print(HK_LOG_ERR, "writing output: %s\n", strerror(pr->write_errno));
	return EXIT_RUNTIME;
}

int hk_run__profile_dir_open(const struct hk_cli *c, int reloading)
{
	char err[512], warn[512];

	if (hk_profile__dir_open(hk_cli__profile_dir(c), warn, sizeof(warn), err, sizeof(err))) {
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
 * once the config that asks for it is in place. The diff is against the
 * config as asked, not as [budget] stepped it. 1 when applied.
 */
static int reload(const struct hk_cli *c, struct hk_loader *l, struct hk_freezer *fz,
		  const struct hk_run_budget *b)
{
	struct hk_config cfg, old;
	char err[HK_ERR_LEN + 512], diff[1024];
	int n;

	if (!c->config_path) {
		hk_log__print(HK_LOG_WARNING, "SIGHUP: no --config to read again; nothing changed\n");
		return 0;
	}
	if (hk_config__load(&cfg, c->config_path, c->interval_ns, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return 0;
	}
	if (hk_cli__apply_flags(c, &cfg, err, sizeof(err)) ||
	    hk_sysinfo__resolve_cgroup(&cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return 0;
	}
	hk_run_budget__asked(b, l, &old);
	/* the cgroup filter's id too: the same path may name a cgroup made anew */
	n = hk_config__diff(&old, &cfg, diff, sizeof(diff));
	if (!n) {
		hk_log__print(HK_LOG_INFO, "reload: %s: nothing changed\n", c->config_path);
		return 0;
	}
	if (cfg.profile_ns && !old.profile_ns && hk_run__profile_dir_open(c, 1))
		return 0;
	/* a reload keeps the duty, whatever it asks for now */
	cfg.delayacct_duty = hk_delayacct__duty();
	if (hk_loader__reconfigure(l, &cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "reload: %s; the running config stays\n", err);
		return 0;
	}
	/* io_blocked or the stall rule turned on: delay accounting too, and
	 * the duty shown */
	if (hk_delayacct__wanted(&cfg) && !hk_delayacct__wanted(&old)) {
		hk_delayacct__for(&cfg);
		hk_delayacct__say();
		if (cfg.delayacct_duty != old.delayacct_duty)
			hk_loader__reconfigure(l, &cfg, err, sizeof(err));
	}
	if (fz)
		hk_freeze__configure(fz, &cfg);
	hk_log__print(HK_LOG_NOTICE, "reload: %s: %s\n", c->config_path, diff);
	return 1;
}

/* The loop looks around when it is awake anyway (watch.h). */
struct watches {
	struct hk_cgroup_watch cgroup;
	struct hk_procs_watch procs;
	__u32 max_procs;
	__u64 cost_windows;		/* hk_stats.windows when the cost was written */
	int hook_failures_said;		/* a failed hook attach was said */
	int coverage_said;		/* delay accounting's coverage: said once */
};

static void watches_check(struct watches *w, struct hk_loader *l)
{
	char line[HK_ERR_LEN + 1024], err[HK_ERR_LEN + 512];
	struct hk_config cfg, next;
	struct hk_stats st;
	struct hk_cost cost;
	struct hk_hook_use hu;
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
	/* the tool's own cost, for `status`: once a window */
	if (st.windows != w->cost_windows) {
		w->cost_windows = st.windows;
		hk_loader__cost(l, &cost);
	}
	/* an attach the walk asked for failed: said once, counted in the
	 * summary; the next walk that watches a thread asks again */
	hk_loader__hook_use(l, &hu);
	if (hu.failures && !w->hook_failures_said) {
		w->hook_failures_said = 1;
		hk_log__print(HK_LOG_WARNING, "the sched_switch hook could not be attached: %s: "
			      "Starved still works, but nobody is named as its aggressor until "
			      "it can be (tried again each window that needs it)\n",
			      strerror(hu.last_errno));
	}
	prio = hk_watch__procs(&w->procs, &st, w->max_procs, mono_ns(), line, sizeof(line));
	if (prio)
		hk_log__print(prio, "%s", line);
	prio = hk_delayacct__coverage(&st, hk_delayacct__wanted(&cfg), &w->coverage_said, line,
				      sizeof(line));
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

	if (!pp->path || !pr->prom_changed)
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

	if (!pp->path || (pp->last_ns && now_ns < pp->last_ns + pp->interval_ns) ||
	    hk_loader__stats(l, &st) || !hk_prom__dirty(pr->prom, &st))
		return;
	pp->last_ns = now_ns;
	hk_prom__ledgers(pr->prom, hk_loader__procs_fd(l), st.windows);
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

/* --metrics-listen: what a scrape's text is made from. */
struct scrape {
	struct hk_prom *prom;
	struct hk_loader *l;
	unsigned long gen;		/* the set's, when the text was made */
	__u64 windows;			/* ... and hk_stats.windows */
};

static int scrape_render(void *ctx, FILE *out)
{
	const struct scrape *s = ctx;
	struct hk_stats st;

	if (hk_loader__stats(s->l, &st))
		return -EIO;
	return hk_prom__format(s->prom, &st, hk_driver__name(hk_loader__driver(s->l, NULL)),
			       out);
}

/* The text goes stale once a window and when the set changes; made anew
 * only when a scrape comes to find it so (metrics_http.h). */
static void scrape_tick(struct hk_metrics_http *h, struct scrape *s)
{
	struct hk_stats st;

	if (!h)
		return;
	hk_prom__http(s->prom, hk_metrics_http__counts(h));
	if (!hk_loader__stats(s->l, &st) &&
	    (st.windows != s->windows || hk_prom__generation(s->prom) != s->gen)) {
		s->windows = st.windows;
		s->gen = hk_prom__generation(s->prom);
		hk_prom__ledgers(s->prom, hk_loader__procs_fd(s->l), st.windows);
		hk_metrics_http__stale(h);
	}
	hk_metrics_http__poll(h, scrape_render, s);
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

int hk_run__loop(const struct hk_cli *c, struct hk_loader *l, struct hk_printer *pr,
		 int sig_fd, struct hk_metrics_http *http)
{
	struct watchdog wd = {
		.due_ns = mono_ns() + HK_WATCHDOG_INTERVALS * c->opts.cfg.interval_ns,
		.interval_ns = c->opts.cfg.interval_ns,
	};
	struct prom_pace pp = { .path = c->prom_path, .interval_ns = c->opts.cfg.interval_ns };
	struct watches watch = { .max_procs = c->opts.max_procs,
				 .procs.procs_fd = hk_loader__procs_fd(l) };
	struct scrape scrape = { .prom = pr->prom, .l = l };
	struct hk_act *a = pr->act;
	struct hk_run_budget budget;
	struct hk_config cfg;
	struct epoll_event evs[3];
	int ep, n, i, sig, stop = 0, timeout, ring_polled = 1;
	struct hk_handover ho;

	hk_run_budget__init(&budget, l);
	ep = epoll_for(l, sig_fd, http);
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
		if (http)
			timeout = min_timeout(timeout, hk_metrics_http__timeout_ms(http));
		if (a && a->prof)
			timeout = min_timeout(timeout, hk_profiler__timeout_ms(a->prof));
		/* a freeze's --freeze-max: thawed from here */
		if (a && a->freeze)
			timeout = min_timeout(timeout, hk_freeze__timeout_ms(a->freeze));
		/* ... and the host's headroom sampled (act/freeze_blame.c) */
		if (a && a->freeze)
			timeout = min_timeout(timeout, hk_freeze__sample_timeout_ms(a->freeze));
		/* records not polled ([budget]): read once a window */
		if (!ring_polled)
			timeout = min_timeout(timeout, (int)(hk_loader__interval_ns(l) /
							     HK_NSEC_PER_MSEC));
		hk_stopguard__phase("waiting");
		n = epoll_wait(ep, evs, 3, timeout);
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
				if (reload(c, l, a ? a->freeze : NULL, &budget)) {
					hk_loader__config(l, &cfg);
					if (a) {
						a->profile_ns = cfg.profile_ns;
						hk_postmortem__configure(a->pm, &cfg);
					}
					hk_run_budget__reloaded(&budget, l, a);
				}
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
				"x %llu us): from now on driver iter, walked from here, the CPU "
				"offered between threads\n", hk_driver__name(ho.from),
				(unsigned long long)(ho.walk_ns / HK_NSEC_PER_USEC),
				(unsigned long long)(HK_CHUNK_NS / HK_NSEC_PER_USEC));
		watchdog_check(&wd, l);
		watches_check(&watch, l);
		hk_stopguard__phase("judging the budget");
		if (hk_run_budget__tick(&budget, l, a)) {
			wd.interval_ns = hk_loader__interval_ns(l);
			pp.interval_ns = wd.interval_ns;
		}
		if (ring_follow(ep, l, hk_run_budget__ring_lazy(&budget), &ring_polled))
			hk_log__print(HK_LOG_ERR, "budget: epoll_ctl: %s\n", strerror(errno));
		hk_stopguard__phase("walking");
		n = hk_loader__walk_if_due(l);
		hk_stopguard__phase("writing the --prometheus textfile");
		prom_tick(pr, &pp, l);
		hk_stopguard__phase("serving --metrics-listen");
		scrape_tick(http, &scrape);
		hk_stopguard__phase("profiling");
		if (a && a->prof)
			hk_profiler__poll(a->prof);
		if (a)
			hk_act__freeze_tick(a);
		/* the windows of processes an OOM post-mortem may need */
		if (a)
			hk_postmortem__poll(a->pm, hk_loader__procs_fd(l), mono_ns());
		if (n < 0) {
			hk_log__print(HK_LOG_ERR, "walking: reading the task iterator: %s\n",
				strerror(-n));
			stop = EXIT_RUNTIME;
		}
	}
	close(ep);
	return stop < 0 ? EXIT_OK : stop;
}
