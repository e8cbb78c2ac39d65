/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * view.h - a snapshot put in order for `hotspot-k status`: which
 * processes are flagged, the top lists, each one's rates as of the latest
 * window (view.c), and the words for its label (evidence.c).
 * Shared by the table (text.c) and the JSON (json.c).
 */
#ifndef HK_USER_STATUS_VIEW_H
#define HK_USER_STATUS_VIEW_H

#include "lib/outbuf.h"
#include "status.h"

enum hk_status_top {
	HK_TOP_CPU,
	HK_TOP_WAIT,
	HK_TOP_RSS_GROWTH,
	HK_NR_TOPS,
};

/* One process as the latest completed window left it. */
struct hk_status_row {
	__u32 pid;
	const struct hk_proc *p;
	/*
	 * Not sampled by the latest walk: none of its threads ran or waited
	 * (the walk skips such a process and leaves its entry as it was), so
	 * its rates below are 0 rather than those of an older window.
	 */
	bool quiet;
	__u32 cpu_pct_x100;
	__u32 wait_pct_x100;
	__s64 rss_growth_bytes_per_s;
	/* who it is: filled for the rows shown (flagged, top lists), else
	 * all "" */
	const struct hk_workload *wl;
	struct hk_workload *wl_own;	/* what wl points to when filled */
};

struct hk_status_view {
	const struct hk_status_snap *snap;
	struct hk_status_row *rows;		/* every entry, by PID */
	size_t n;
	/* rows not OK: the most severe label first, then by PID */
	const struct hk_status_row **flagged;
	size_t nr_flagged;
	/* rows above 0, highest first, ties by PID; none without -a */
	const struct hk_status_row **top[HK_NR_TOPS];
	size_t nr_top[HK_NR_TOPS];
};

/* 0, or -1 (ENOMEM). top_n 0: no top lists. */
int hk_status_view__build(struct hk_status_view *v, const struct hk_status_snap *s,
			  unsigned int top_n);
void hk_status_view__free(struct hk_status_view *v);

/* The comm (an HK_COMM_LEN array) of a PID, or NULL when hk_procs has no
 * such entry: how a peer (an aggressor, a victim) is named. */
const char *hk_status_view__comm(const struct hk_status_view *v, __u32 pid);

/* What a top list ranks by: "CPU" and its JSON key "top_cpu". */
const char *hk_status_top__title(enum hk_status_top t);
const char *hk_status_top__key(enum hk_status_top t);

/*
 * Seconds its committed label has matched without a break (the windows it
 * took to enter included): true, or false when the latest window did not
 * match it (the label is on its way out) or it is OK.
 */
bool hk_status_row__label_for_s(const struct hk_status_row *r,
				const struct hk_config *c, __u64 *s);

/*
 * The evidence for a flagged row's label: the human line's, short
 * (HK_EVIDENCE_SHORT), after "leaving: N of M windows without it · " when
 * the latest window missed the label; peers (an aggressor, a victim) named
 * with their comm when hk_procs has them. Their comms terminal-safe, or raw
 * (for a caller that escapes the whole text, as JSON does).
 */
void hk_status__evidence(struct hk_out *o, const struct hk_status_view *v,
			 const struct hk_status_row *r, bool raw);

/* The two outputs hk_status__write (write.c) chooses between:
 * text.c, json.c. */
int hk_status__write_text(FILE *f, const struct hk_status_view *v,
			  const struct hk_status_opts *o);
int hk_status__write_json(FILE *f, const struct hk_status_view *v,
			  const struct hk_status_opts *o);

#endif /* HK_USER_STATUS_VIEW_H */
