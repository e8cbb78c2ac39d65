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
#include "lib/workload.h"
#include "prom_share.h"
#include "prom_stats.h"
#include "prom_value.h"
#include "shared/hotspot.h"

struct hk_prom;

/*
 * The set and the counters alone, with no file: what --metrics-listen
 * serves when no --prometheus FILE is given. NULL: no memory.
 */
struct hk_prom *hk_prom__new_set(void);

/*
 * The state for the textfile path, which is not written yet (dirty: the
 * first hk_prom__write() creates it). path's directory is opened, checked
 * and tried now (outdir.h), and kept: every file goes there. NULL with one
 * line in err: path is empty or a directory; its directory is missing,
 * writable by its group or others without the sticky bit, or takes no new
 * file (read-only, no permission). warn[0] set when it is accepted with a
 * warning (another user owns it, as the exporter's user often does).
 */
struct hk_prom *hk_prom__new(const char *path, char *warn, size_t warn_len, char *err,
			     size_t err_len);
void hk_prom__free(struct hk_prom *p);

/*
 * One event from the ring buffer (anything but a transition is ignored):
 * the process joins the set, changes label in it, or leaves it for ok or
 * exited. cgroup is the path to show (NULL: ""), cut at
 * HK_FORMAT_CGROUP_MAX bytes like the JSON line's, then as a label value
 * at HK_PROM_VALUE_MAX; wl who it is (NULL: unit, container_id, pod_uid
 * "" on its info series). Never fails: what does not fit (HK_PROM_PROCS_MAX,
 * HK_PROM_SERIES_BYTES_MAX, or no memory) is counted as unlisted.
 */
void hk_prom__event(struct hk_prom *p, const struct hk_event *e, const char *cgroup,
		    const struct hk_workload *wl);

/*
 * Whether the file says something other than the set and st now: the set
 * changed, or st moved since the last successful write (windows_total moves
 * every window, so a live tool rewrites once a window and a stopped walk
 * leaves the file's mtime behind).
 */
bool hk_prom__dirty(const struct hk_prom *p, const struct hk_stats *st);

/* A number that moves whenever the set does (an event, the stop): a
 * text made at another number is stale. */
unsigned long hk_prom__generation(const struct hk_prom *p);

/* --metrics-listen's own counters, written with the others from now on
 * (in the textfile too, so that both say the same families). */
void hk_prom__http(struct hk_prom *p, const struct hk_prom_http *h);

/*
 * The whole text into out. st NULL: every counter 0; driver NULL: "none".
 * 0, or -errno (the stream failed).
 */
int hk_prom__format(const struct hk_prom *p, const struct hk_stats *st,
		    const char *driver, FILE *out);

/*
 * The tool stops: the set is no longer followed. The next write says
 * hotspot_k_up 0 and nothing else, so that every other series goes away
 * as a stopped target's do, rather than saying the last state for good.
 */
void hk_prom__down(struct hk_prom *p);

/* Once a window (windows: hk_stats's): the listed processes' stall
 * ledgers from hk_procs (procs_fd), so that their counters move. */
void hk_prom__ledgers(struct hk_prom *p, int procs_fd, __u64 windows);

/*
 * Write the file under a temporary name beside PATH (".NAME.RANDOM.tmp":
 * not "*.prom", the collector skips it), mode 0644 whatever the umask (the
 * exporter's user reads it), fsync it and rename it over PATH: a reader
 * sees the old file or the new one, whole, and nothing planted under a
 * name is followed or blocked on. 0, which clears dirty; or -errno with
 * one line in err, and dirty stays set to retry (-EINVAL: made by
 * hk_prom__new_set(), there is no file).
 */
int hk_prom__write(struct hk_prom *p, const struct hk_stats *st, const char *driver,
		   char *err, size_t err_len);

#endif /* HK_USER_PROMETHEUS_H */
