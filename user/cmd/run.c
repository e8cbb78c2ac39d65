// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * run.c - `hotspot-k [OPTION...]`, the default command: the flags and the
 * config, checked; the BPF object loaded and configured (loader.h); the
 * event loop (run_loop.c) until a signal, --duration or a failure; the
 * summary. --pin leaves the diagnosis in the kernel and returns at once.
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
#include "act/freeze.h"
#include "lib/rundir.h"
#include "config/config.h"
#include "kernel/bpffs.h"
#include "kernel/delayacct.h"
#include "kernel/loader.h"
#include "kernel/preflight.h"
#include "lib/log.h"
#include "lib/stopguard.h"
#include "lib/sysinfo.h"
#include "output/printer.h"
#include "output/metrics_http.h"
#include "output/prometheus.h"
#include "pin.h"
#include "run_loop.h"
#include "run_report.h"

/* Exiting: kernel.task_delayacct put back (delayacct.h). Once: from the
 * loop's cleanup, or from a stuck one's (stopguard.h). */
static void delayacct_put_back(void)
{
	static int done;

	if (hk_stopguard__once(&done))
		hk_delayacct__put_back();
}

/* For a stuck loop's cleanup, from the guard's thread (stopguard.h). */
static struct hk_loader *running;
static struct hk_printer *printing;
static struct hk_freezer *freezing;

/* The loop did not finish its cleanup in time after a stop signal. */
static int stuck(int signo, const char *phase)
{
	hk_log__print(HK_LOG_ERR, "%s came %d s ago, and the event loop is still busy %s: "
		      "exiting without it (profiles in progress and the last --prometheus "
		      "write are lost)\n", hk_stopguard__name(signo),
		      HK_STOPGUARD_GRACE_MS / 1000, phase);
	delayacct_put_back();
	/* a freeze does not outlive the tool that would end it: by its
	 * records, as the loop may be inside the freezer right now */
	if (freezing)
		hk_freeze__release_recorded(freezing);
	if (running && printing)
		hk_run__print_summary(running, printing);
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
	e = hk_preflight__check_profile(why, sizeof(why));
	if (e)
		hk_log__print(HK_LOG_WARNING, "--profile %s: %s (hotspot-k(8), SERVICE)\n",
			      e < 0 ? "will fail" : "works in part", why);
	if (hk_sysinfo__private_tmp(a->profile_dir, NULL, why, sizeof(why)))
		hk_log__print(HK_LOG_WARNING, "--profile-dir %s is in this service's own %s "
			      "(PrivateTmp=yes): nobody else sees the profiles, and they are "
			      "removed when the service stops; StateDirectory=hotspot-k and "
			      "--profile-dir /var/lib/hotspot-k keep them\n", a->profile_dir, why);
}

/*
 * --check-config FILE: the file, and the flags given with it, as a start
 * would take them: the --prometheus and --profile-dir directories are
 * opened and checked too (nothing is written), else "ok" would pass a
 * run that refuses to start (docs review, silent precedence).
 */
static int check_config_ok(const struct hk_cli *c)
{
	char err[512], warn[512];
	struct hk_prom *prom;

	if (c->prom_path) {
		prom = hk_prom__new(c->prom_path, warn, sizeof(warn), err, sizeof(err));
		if (!prom) {
			hk_log__print(HK_LOG_ERR, "--prometheus %s\n", err);
			return EXIT_USAGE;
		}
		hk_prom__free(prom);
		if (warn[0])
			hk_log__print(HK_LOG_WARNING, "--prometheus %s\n", warn);
	}
	if ((c->profile_dir || c->opts.cfg.profile_ns) && hk_run__profile_dir_open(c, 0))
		return EXIT_USAGE;
	printf("%s: ok\n", c->check_path);
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}

int hk_cmd_run(int argc, char **argv)
{
	struct hk_cli c = {};
	struct hk_freezer fz;
	struct hk_printer pr;
	char err[HK_ERR_LEN + 512];
	struct hk_loader *l = NULL;
	struct hk_metrics_http *http = NULL;
	struct hk_act act = {};
	int ret, sig_fd;

	hk_stopguard__hold_reload();
	ret = hk_cli__parse(&c, argc, argv);
	if (ret >= 0)
		return ret;
	if (c.version)
		return hk_cmd_version(0, NULL);
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
	if (hk_cli__apply_flags(&c, &c.opts.cfg, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s\n", err);
		return EXIT_USAGE;
	}
	if (hk_sysinfo__resolve_cgroup(&c.opts.cfg, err, sizeof(err))) {
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
	if (c.pin && c.listen_set) {
		hk_log__print(HK_LOG_ERR, "--pin leaves no process to serve metrics from: not "
			      "with --metrics-listen\n");
		return EXIT_USAGE;
	}
	if (c.check_path)
		return check_config_ok(&c);

	if (hk_sysinfo__fill_env(&c.opts.cfg)) {
		hk_log__print(HK_LOG_ERR, "cannot read system facts: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	/* hk_procs is preallocated: size it for the machine, not the worst
	 * case (32768 entries are 17 MiB of kernel memory) */
	if (!c.opts.max_procs)
		c.opts.max_procs = hk_sysinfo__default_max_procs(c.opts.cfg.pidns_ino);
	/* the task iterator walks the PID namespace of its reader: a
	 * container's tool diagnoses that container only (review finding 12) */
	if (hk_sysinfo__pidns_is_init(c.opts.cfg.pidns_ino) == 0)
		hk_log__print(HK_LOG_WARNING, "not in the host's PID namespace: the task "
			      "iterator sees this namespace's processes only; run hotspot-k in "
			      "the host's (docker run --pid=host, Kubernetes hostPID: true)\n");
	if (hk_printer__init_stdout(&pr, c.json, c.utc)) {
		hk_log__print(HK_LOG_ERR, "out of memory\n");
		return EXIT_RUNTIME;
	}
	if (hk_printer__journal(&pr, c.journal_mode, c.journal_socket)) {
		hk_log__print(HK_LOG_ERR, "--journal: the journal's socket %s: %s\n",
			      c.journal_socket ? c.journal_socket : HK_JOURNAL_SOCKET,
			      strerror(errno));
		hk_printer__free(&pr);
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
		if (hk_run__pin_before())
			return EXIT_RUNTIME;
		c.opts.pin = 1;
	}
	c.opts.on_event = hk_printer__event;
	c.opts.ctx = &pr;
	act.pr = &pr;
	act.profile_ns = c.opts.cfg.profile_ns;
	act.profile_dir = hk_cli__profile_dir(&c);
	if (!c.pin) {
		if (c.opts.cfg.profile_ns && hk_run__profile_dir_open(&c, 0))
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

	/* bound now, after the last check that can refuse the start and
	 * before anything is loaded: a port in use stops it with nothing done,
	 * and no refusal leaves a socket file behind */
	if (c.listen_set) {
		if (!pr.prom)
			pr.prom = hk_prom__new_set();
		if (!pr.prom) {
			hk_log__print(HK_LOG_ERR, "out of memory\n");
			return EXIT_RUNTIME;
		}
		http = hk_metrics_http__new(&c.listen, err, sizeof(err));
		if (!http) {
			hk_log__print(HK_LOG_ERR, "--metrics-listen %s\n", err);
			return EXIT_RUNTIME;
		}
		hk_prom__http(pr.prom, hk_metrics_http__counts(http));
		if (c.listen.wildcard)
			hk_log__print(HK_LOG_WARNING, "--metrics-listen %s listens on every "
				      "interface: whoever reaches this host's port reads the "
				      "flagged processes' names and cgroups\n", c.listen.text);
	}
	/* from here on a stop signal, at any moment, is a clean stop */
	sig_fd = hk_stopguard__start(stuck);
	if (sig_fd < 0) {
		hk_log__print(HK_LOG_ERR, "cannot start the signal thread: %s\n", strerror(errno));
		hk_metrics_http__free(http);
		return EXIT_RUNTIME;
	}
	printing = &pr;
	freezing = act.freeze;
	hk_delayacct__for(&c.opts.cfg);
	if (hk_loader__start(&l, &c.opts, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "%s\n", err);
		hk_metrics_http__free(http);
		delayacct_put_back();
		hk_stopguard__done();
		hk_profiler__free(act.prof);
		hk_postmortem__free(act.pm);
		hk_printer__free(&pr);
		hk_freeze__free(&fz);
		return EXIT_RUNTIME;
	}
	hk_delayacct__loaded();
	running = l;
	pr.blame.procs_fd = hk_loader__procs_fd(l);
	hk_delayacct__say();
	if (c.pin) {
		ret = hk_run__pin(l, err, sizeof(err));
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
	hk_run__print_start(l, c.opts.cfg.interval_ns);
	say_environment(&act);
	/* once loaded: a state directory that cannot be used is said after
	 * the start line, and a start refused says its one line alone */
	if (!c.pin)
		act.pm = hk_postmortem__new(&c.opts.cfg, c.postmortem_dir ? c.postmortem_dir :
					    HK_RUNDIR);
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
	ret = hk_run__loop(&c, l, &pr, sig_fd, http);
	/* scrapes from here find the port closed, or the socket gone */
	hk_metrics_http__free(http);
	/* profiles still running are written with what they have */
	hk_stopguard__phase("writing the profiles in progress");
	hk_profiler__free(act.prof);
	act.prof = NULL;
	hk_postmortem__free(act.pm);
	act.pm = NULL;
	/* the textfile says we stopped: hotspot_k_up 0, no stale flagged set */
	if (c.prom_path) {
		hk_stopguard__phase("writing the --prometheus textfile at exit");
		hk_prom__down(pr.prom);
		if (hk_prom__write(pr.prom, NULL, NULL, err, sizeof(err)))
			hk_log__print(HK_LOG_ERR, "--prometheus %s: %s\n", c.prom_path, err);
	}
	hk_prom__free(pr.prom);
	hk_stopguard__phase("printing the summary");
	hk_run__print_summary(l, &pr);
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
