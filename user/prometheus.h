/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prometheus.h - --prometheus FILE: the processes flagged now and the
 * tool's own counters, kept as a node_exporter textfile (Prometheus text
 * format 0.0.4) and replaced whole, so that a scrape never reads half of it.
 */
#ifndef HK_USER_PROMETHEUS_H
#define HK_USER_PROMETHEUS_H

#include <stdbool.h>
#include <stdio.h>
#include "shared/hotspot.h"

/*
 * Flagged processes that get their own series (about ten each). Past this
 * the set is full: a process still counts in hotspot_k_processes and in
 * hotspot_k_processes_unlisted, but has no series of its own, so that a
 * storm of flagged processes cannot explode the scrape's cardinality.
 */
#define HK_PROM_PROCS_MAX	1024

struct hk_prom;

/*
 * The state for the textfile path, which is not written yet (dirty: the
 * first hk_prom__write() creates it). NULL with errno when path's
 * directory cannot take it: ENOENT, ENOTDIR, EACCES, EROFS; EISDIR when
 * path is a directory; EINVAL when it is empty; ENOMEM.
 */
struct hk_prom *hk_prom__new(const char *path);
void hk_prom__free(struct hk_prom *p);

/*
 * One event from the ring buffer (anything but a transition is ignored):
 * the process joins the set, changes label in it, or leaves it for ok or
 * exited. cgroup is the path to show (NULL: ""), cut at
 * HK_FORMAT_CGROUP_MAX bytes like the JSON line's. Never fails: what does
 * not fit (HK_PROM_PROCS_MAX, or no memory) is counted as unlisted.
 */
void hk_prom__event(struct hk_prom *p, const struct hk_event *e, const char *cgroup);

/*
 * Whether the file says something other than the set and st now: the set
 * changed, or st moved since the last successful write (windows_total moves
 * every window, so a live tool rewrites once a window and a stopped walk
 * leaves the file's mtime behind).
 */
bool hk_prom__dirty(const struct hk_prom *p, const struct hk_stats *st);

/*
 * The whole text into out. st NULL: every counter 0; driver NULL: "none".
 * 0, or -errno (the stream failed).
 */
int hk_prom__format(const struct hk_prom *p, const struct hk_stats *st,
		    const char *driver, FILE *out);

/*
 * Write PATH.tmp beside PATH (not "*.prom": the collector skips it), fsync
 * it and rename it over PATH: a reader sees the old file or the new one,
 * whole. 0, which clears dirty; or -errno, and dirty stays set to retry.
 */
int hk_prom__write(struct hk_prom *p, const struct hk_stats *st, const char *driver);

#endif /* HK_USER_PROMETHEUS_H */
