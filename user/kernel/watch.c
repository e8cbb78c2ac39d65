// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * watch.c - the --cgroup filter's cgroup followed when it is made anew,
 * and hk_procs full said while it lasts (watch.h).
 */
#include <stdio.h>
#include <string.h>
#include "lib/log.h"
#include "lib/sysinfo.h"
#include "watch.h"

int hk_watch__cgroup(struct hk_cgroup_watch *w, const struct hk_config *running,
		     __u64 now_ns, struct hk_config *next, char *line, size_t len, int *prio)
{
	char err[HK_ERR_LEN + 512];
	int was_gone = w->gone;

	line[0] = '\0';
	if (!running->filter_cgroup[0] || now_ns < w->next_ns)
		return 0;
	w->next_ns = now_ns + running->interval_ns;
	*next = *running;
	if (hk_sysinfo__resolve_cgroup(next, err, sizeof(err))) {
		if (!w->gone) {
			*prio = HK_LOG_WARNING;
			snprintf(line, len, "%s: the filter matches nothing until the cgroup is "
				 "there again (a unit stopped or restarted?): looked up every "
				 "window\n", err);
		}
		w->gone = 1;
		return 0;
	}
	w->gone = 0;
	if (next->filter_cgroup_id == running->filter_cgroup_id &&
	    next->filter_cgroup_hier == running->filter_cgroup_hier) {
		if (was_gone) {
			*prio = HK_LOG_NOTICE;
			snprintf(line, len, "cgroup filter %.*s: there again, the same cgroup "
				 "(id %llu)\n", HK_FILTER_PATH_LEN, running->filter_cgroup,
				 (unsigned long long)next->filter_cgroup_id);
		}
		return 0;
	}
	*prio = HK_LOG_NOTICE;
	snprintf(line, len, "cgroup filter %.*s: %s (id %llu, was %llu): the filter follows "
		 "it\n", HK_FILTER_PATH_LEN, running->filter_cgroup,
		 was_gone ? "there again, made anew" : "made anew (a unit restarted?)",
		 (unsigned long long)next->filter_cgroup_id,
		 (unsigned long long)running->filter_cgroup_id);
	return 1;
}

int hk_watch__procs(struct hk_procs_watch *w, const struct hk_stats *st, __u32 max_procs,
		    __u64 now_ns, char *line, size_t len)
{
	__u64 n;

	line[0] = '\0';
	/* once a window: a window with none untracked is one with room */
	if (st->windows == w->windows)
		return 0;
	n = st->procs_untracked - w->untracked;
	w->windows = st->windows;
	w->untracked = st->procs_untracked;
	switch (hk_ratelimit__step(&w->said, n > 0, n, now_ns)) {
	case HK_RATELIMIT_START:
		snprintf(line, len, "hk_procs is full (%u processes, --max-procs): processes "
			 "that start now are not tracked, so not diagnosed, until others exit "
			 "(%llu process-windows untracked)\n", max_procs,
			 (unsigned long long)w->said.told);
		return HK_LOG_WARNING;
	case HK_RATELIMIT_STILL:
		snprintf(line, len, "hk_procs is still full (%u processes): %llu more "
			 "process-windows untracked\n", max_procs,
			 (unsigned long long)w->said.told);
		return HK_LOG_WARNING;
	case HK_RATELIMIT_END:
		snprintf(line, len, "hk_procs has room again: every process is tracked (%llu "
			 "more process-windows were untracked)\n",
			 (unsigned long long)w->said.told);
		return HK_LOG_NOTICE;
	case HK_RATELIMIT_QUIET:
		break;
	}
	return 0;
}
