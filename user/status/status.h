/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * status/ - `hotspot-k status`: a snapshot of another instance's maps
 * (kernel/instance.h) -> a view -> text or JSON. No BPF.
 *
 * status.h - `hotspot-k status`: what a running hotspot-k holds in its maps,
 * from another terminal. cmd/status.c is the command, kernel/instance.c finds and
 * reads the maps; the rest (write.c, view.c, evidence.c,
 * text.c, json.c) turns a snapshot into text or JSON and
 * touches no BPF, so that the unit tests feed it made-up entries.
 */
#ifndef HK_USER_STATUS_H
#define HK_USER_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "kernel/instance.h"

/* -n: how many processes each top list shows, by default and at most. */
#define HK_STATUS_TOP_DEFAULT	10
#define HK_STATUS_TOP_MAX	1000
/* --watch: seconds between two redraws, by default and at most. */
#define HK_STATUS_WATCH_DEFAULT_S	2
#define HK_STATUS_WATCH_MAX_S		3600

struct hk_status_opts {
	bool all;			/* -a: the top lists too */
	unsigned int top_n;		/* their length */
	bool json;			/* one JSON object on one line */
	unsigned int watch_s;		/* --watch: redraw every so many s; 0: once */
	const char *frozen_dir;		/* the freezes recorded there, as
					 * "frozen" in JSON; NULL: none */
	const char *postmortem_dir;	/* the OOM post-mortems there (its
					 * oom/), as "postmortems"; NULL: none */
	const char *npd;		/* --npd CHECK as given; NULL: none */
};

/*
 * The table of flagged processes (and with opts->all the top lists), or
 * the JSON object, to f. 0, or -1 with errno set (ENOMEM; a write error
 * is left for the caller's fflush/ferror to see).
 */
int hk_status__write(FILE *f, const struct hk_status_snap *s,
		     const struct hk_status_opts *o);

/*
 * --watch (watch.c): frame(f, o) drawn to the terminal every
 * o->watch_s seconds, in place, until q, SIGINT or SIGTERM; the terminal's
 * modes put back. 0; -2 with a line on stderr when stdout is not a
 * terminal; -1 when writing failed.
 */
int hk_status__watch(const struct hk_status_opts *o,
		     void (*frame)(FILE *f, const struct hk_status_opts *o));

#endif /* HK_USER_STATUS_H */
