/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prom_state.h - inside the --prometheus state (prometheus.h): the flagged
 * set, kept by prometheus.c, and the textfile it may be written to, kept by
 * prom_file.c. Used by those two files only.
 */
#ifndef HK_USER_PROM_STATE_H
#define HK_USER_PROM_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/outdir.h"
#include "prom_share.h"
#include "prom_stats.h"
#include "prom_value.h"
#include "shared/hotspot.h"

struct prom_proc {
	__u32 tgid;
	__u32 label;
	char *labels;			/* pid="..",comm="..",label="..": its gauges' */
	char *info;			/* pid, comm, cgroup, unit, container_id,
					 * pod_uid: its info series' */
	size_t bytes;			/* its lines in the file */
	struct hk_prom_member share;	/* its owner, reserve, join (prom_share.h) */
	struct hk_evidence ev;		/* from the transition that flagged it;
					 * its stall_ns read anew each window
					 * (prom_ledger.c) */
	__u64 start_time_ns;		/* tells its PID's next process */
};

struct hk_prom {
	char *path;			/* as given, for messages */
	const char *name;		/* its last part, a name in dir */
	struct hk_safedir dir;		/* opened and checked once */
	struct prom_proc *procs;	/* sorted by tgid */
	size_t nr, cap;
	size_t bytes;			/* the members' lines */
	__u64 joined;			/* members so far: the next one's seq */
	/* flagged, per label, but not in procs: a cap (or no memory) */
	__u64 unlisted[HK_NR_LABELS];
	bool changed;			/* the set, since the last write */
	bool down;			/* the tool stops: hotspot_k_up 0, nothing else */
	unsigned long gen;		/* the set's changes: a scrape's text is stale */
	bool http;			/* --metrics-listen: its counters too */
	struct hk_prom_http scrapes;	/* ... as of the last hk_prom__http() */
	struct hk_stats written;	/* the counters the last write gave */
	struct hk_prom_value value;	/* the room label values are made in */
	__u64 ledgers_windows;		/* hk_stats.windows at the last read */
};

#endif /* HK_USER_PROM_STATE_H */
