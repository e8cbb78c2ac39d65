/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * run_loop.h - the run's event loop (run_loop.c), which run.c (flags and
 * config -> load -> loop -> summary) enters once all is loaded.
 */
#ifndef HK_USER_RUN_LOOP_H
#define HK_USER_RUN_LOOP_H

#include "cli.h"
#include "kernel/loader.h"
#include "output/metrics_http.h"
#include "output/printer.h"

/* Windows without one after which a timer driver is taken for dead. */
#define HK_WATCHDOG_INTERVALS 3

/*
 * The profile directory, opened and checked (profile_write.h) when profiles
 * are on: at start, and when a reload turns them on, so that a bad one is
 * said now, not when a process is flagged at 3 am and its profile ends.
 * 0, or -1 said in one line ("reload: ... the running config stays").
 */
int hk_run__profile_dir_open(const struct hk_cli *c, int reloading);

/* Events until a signal or a failure; the exit status. SIGHUP reloads
 * the config (c->config_path) in place. http: --metrics-listen's server
 * (NULL: none), served from pr->prom's set. */
int hk_run__loop(const struct hk_cli *c, struct hk_loader *l, struct hk_printer *pr,
		 int sig_fd, struct hk_metrics_http *http);

#endif /* HK_USER_RUN_LOOP_H */
