/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * instance.h - the maps of a running hotspot-k, found from another
 * process (its pins, or the kernel's list of programs and maps), opened
 * read-only, and read into a snapshot: the snapshot's type is here, below
 * the status command and its view, which only read it.
 */
#ifndef HK_USER_STATUS_FIND_H
#define HK_USER_STATUS_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/workload.h"
#include "shared/hotspot.h"

/* The largest hk_procs a hotspot-k makes (the top of --max-procs, cmd/cli.c):
 * a reader allocates for as many entries, and refuses a map with more. */
#define HK_STATUS_MAX_PROCS 4194304U

/* What one running instance's maps held, read at one moment. */
struct hk_status_snap {
	const __u32 *pids;		/* hk_procs keys: TGIDs, in any order */
	const struct hk_proc *procs;	/* ... and their values */
	size_t n;
	struct hk_config cfg;
	struct hk_stats stats;
	__u32 max_procs;		/* hk_procs capacity; 0: unknown */
	bool pinned;			/* an instance --pin left in the kernel */
	/* who a process shown is (unit, container, pod): read for the rows
	 * shown only; NULL: nobody ("") */
	void (*who)(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns);
};

/* One instance's three maps. */
struct hk_instance {
	int procs_fd;
	int config_fd;
	int stats_fd;
	__u32 procs_id;
	__u32 max_procs;		/* hk_procs capacity */
	bool pinned;			/* found at HK_PIN_DIR */
	bool alive_unknown;		/* pinned, and programs could not be
					 * listed to see it is in use */
	bool stale_pin;			/* a pinned hk_procs no program uses:
					 * left by a hotspot-k that is gone */
	unsigned int nr_instances;	/* running instances seen; the newest
					 * (or the pinned one) was taken */
	__u64 load_time_ns;		/* its newest program, CLOCK_BOOTTIME;
					 * 0: unknown */
};

/*
 * Find the running instance and open its maps: only those of programs a
 * hotspot-k loads (its names and types, loaded by root), never maps that
 * only have its maps' names. 0; -ENOENT when none runs;
 * another -errno with err saying what failed (no permission; a different
 * version's maps). m says more either way (stale_pin).
 */
int hk_instance__find(struct hk_instance *m, char *err, size_t err_len);

/*
 * Read hk_config, hk_stats and every entry of hk_procs into s; *pids and
 * *procs are allocated (free them). 0, or -errno with err saying what.
 */
int hk_snapshot__read(const struct hk_instance *m, struct hk_status_snap *s,
		      __u32 **pids, struct hk_proc **procs, char *err, size_t err_len);

void hk_instance__close(struct hk_instance *m);

#endif /* HK_USER_STATUS_FIND_H */
