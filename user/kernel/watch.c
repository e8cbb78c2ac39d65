// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * watch.c - the --cgroup filter's cgroup followed when it is made anew,
 * and hk_procs full said while it lasts (watch.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/log.h"
#include "lib/sysinfo.h"
#include "bpf_sys.h"
#include "watch.h"

/* Distinct uids told apart by hk_watch__uid_top. */
#define HK_WATCH_UIDS 256

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

int hk_watch__uid_top(const __u32 *pids, __u32 n, const char *proc_root,
		      struct hk_uid_top *out)
{
	struct hk_uid_top t[HK_WATCH_UIDS];
	__u32 i, k, nr = 0, best = 0;
	char name[16];
	struct stat sb;
	int dfd;

	memset(out, 0, sizeof(*out));
	dfd = open(proc_root ? proc_root : "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%u", pids[i]);
		/* gone since, or not in our PID namespace */
		if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW))
			continue;
		out->known++;
		for (k = 0; k < nr && t[k].uid != sb.st_uid; k++)
			;
		if (k == nr) {
			if (nr == HK_WATCH_UIDS)
				continue;
			t[nr].uid = sb.st_uid;
			t[nr++].entries = 0;
		}
		if (++t[k].entries > t[best].entries)
			best = k;
	}
	close(dfd);
	if (!nr)
		return -1;
	out->uid = t[best].uid;
	out->entries = t[best].entries;
	return 0;
}

/* "; most entries: uid U (N of M)" into buf, or "" when not known. */
static void uid_top_said(const struct hk_procs_watch *w, __u32 max_procs, char *buf,
			 size_t len)
{
	struct hk_uid_top top;
	__u32 *pids, n = 0;
	int e;

	buf[0] = '\0';
	if (w->procs_fd <= 0 || !max_procs)
		return;
	pids = calloc(max_procs, sizeof(*pids));
	if (!pids)
		return;
	for (e = hk_bpf_sys__next_key(w->procs_fd, NULL, &pids[0]); !e && ++n < max_procs;)
		e = hk_bpf_sys__next_key(w->procs_fd, &pids[n - 1], &pids[n]);
	if (!hk_watch__uid_top(pids, n, w->proc_root, &top))
		snprintf(buf, len, "; most entries: uid %u (%u of %u)", top.uid, top.entries,
			 top.known);
	free(pids);
}

int hk_watch__procs(struct hk_procs_watch *w, const struct hk_stats *st, __u32 max_procs,
		    __u64 now_ns, char *line, size_t len)
{
	char top[80];
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
		uid_top_said(w, max_procs, top, sizeof(top));
		snprintf(line, len, "hk_procs is full (%u processes, --max-procs): processes "
			 "that start now are not tracked, so not diagnosed, until entries of "
			 "processes quiet for %u windows are given up (%llu so far) or "
			 "others exit (%llu process-windows untracked)%s\n", max_procs,
			 HK_QUIET_WALKS,
			 (unsigned long long)st->procs_evicted,
			 (unsigned long long)w->said.told, top);
		return HK_LOG_WARNING;
	case HK_RATELIMIT_STILL:
		uid_top_said(w, max_procs, top, sizeof(top));
		snprintf(line, len, "hk_procs is still full (%u processes): %llu more "
			 "process-windows untracked, %llu quiet entries given up so far%s\n",
			 max_procs, (unsigned long long)w->said.told,
			 (unsigned long long)st->procs_evicted, top);
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
