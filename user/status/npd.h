/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * npd.h - `hotspot-k status --npd CHECK`: one node-problem-detector
 * check over a snapshot's view, as NPD's custom plugins answer: an exit
 * status (0 OK, 1 a problem, 2 and above Unknown) and one line on stdout,
 * of which NPD keeps the first max_output_length bytes (80 by default), so
 * the line says who and how bad in its first 80. Pure: the clocks come in,
 * so that the unit tests decide on made-up snapshots.
 */
#ifndef HK_USER_STATUS_NPD_H
#define HK_USER_STATUS_NPD_H

#include <stdbool.h>
#include <stddef.h>
#include "view.h"

enum hk_npd_check {
	HK_NPD_UP,		/* the tool runs and its windows come */
	HK_NPD_OOM_RISK,	/* a process in OOM risk: the soonest named */
	HK_NPD_NOISY_NEIGHBOR,	/* a process starves another: it is named */
	HK_NPD_CPU_CONTENTION,	/* the node's CPU wait is caused by other
				 * workloads: the victim and aggressor named */
	HK_NPD_NR_CHECKS,
};

/* The exit statuses of --npd, NPD's: 3 (no instance) and 2 read Unknown. */
enum hk_npd_status {
	HK_NPD_OK = 0,
	HK_NPD_PROBLEM = 1,
	HK_NPD_CANNOT = 2,	/* could not look: usage, not root, maps */
	HK_NPD_NO_TOOL = 3,	/* no hotspot-k runs: the check cannot tell */
};

/*
 * `up` takes the windows for stalled after this many intervals without
 * one: twice what the run's watchdog waits (cmd/run_loop.h's
 * HK_WATCHDOG_INTERVALS, 3) before it walks in place of a stopped timer,
 * so that a take-over in progress is not a stall.
 */
#define HK_NPD_STALL_INTERVALS 6

/*
 * cpu-contention's problem: in the latest window, the CPU wait the stall
 * ledgers put on other processes (neighbor) is at least half of all the
 * node's CPU wait (neighbor, self, quota, steal_irq, weight) and at least
 * this share of one CPU over the interval (a quarter: threads waiting
 * 250 ms of each second on others).
 */
#define HK_NPD_CONTENTION_CPU_PCT 25

/* The longest line a check writes, its newline not counted. */
#define HK_NPD_MSG_LEN 160

/* What a check looks at. */
struct hk_npd_in {
	const struct hk_status_view *v;	/* NULL: no hotspot-k runs */
	bool stale_pin;			/* ... and one left its pins */
	__u64 now_mono_ns;		/* CLOCK_MONOTONIC, as the walk's stamps */
	__u64 since_load_ns;		/* since its newest program's load;
					 * 0: unknown */
	/* who the process named is (container, unit): read for that one
	 * only, not for every flagged row; NULL: nobody */
	void (*who)(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns);
};

/* "oom-risk" -> HK_NPD_OOM_RISK; HK_NPD_NR_CHECKS for none. */
enum hk_npd_check hk_npd__parse(const char *name);
const char *hk_npd__name(enum hk_npd_check c);
/* "up, oom-risk, noisy-neighbor": for a usage error and --help */
const char *hk_npd__names(void);

/*
 * Check c over in: the exit status (enum hk_npd_status), and its line in
 * msg (no newline; at most HK_NPD_MSG_LEN bytes, printable ASCII only:
 * NPD cuts by bytes, and a comm's other bytes become '?').
 */
int hk_npd__check(enum hk_npd_check c, const struct hk_npd_in *in, char *msg, size_t len);

#endif /* HK_USER_STATUS_NPD_H */
