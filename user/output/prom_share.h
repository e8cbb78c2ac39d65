/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prom_share.h - which flagged processes get series of their own in the
 * Prometheus file, when not all fit (security review 2, L3). First come,
 * first served let about 190 of one user's busy loops, with 256-byte
 * names, take every byte and hide every later process. Now:
 *   - an owner (owner.h: a uid, or a user namespace's owner) holds at most
 *     a quarter of the processes and of the bytes; past that its own
 *     oldest member makes room for its newcomer;
 *   - the last HK_PROM_RESERVED_PROCS processes and HK_PROM_RESERVED_BYTES
 *     bytes are only for root's processes, system services' and OOM risks;
 *   - when the rest is full, the owner with the most bytes (in members not
 *     reserved) gives up its oldest one: to a reserved newcomer, or to
 *     another owner's that then still has less. Otherwise the newcomer is
 *     counted, not listed (reserved ones too, once all are reserved).
 * The caps are HK_PROM_PROCS_MAX and HK_PROM_SERIES_BYTES_MAX (below).
 */
#ifndef HK_USER_PROM_SHARE_H
#define HK_USER_PROM_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "lib/workload.h"

/*
 * Flagged processes that get their own series (14 each). Past this the
 * set is full: a process still counts in hotspot_k_processes and in
 * hotspot_k_processes_unlisted, but has no series of its own, so that a
 * storm of flagged processes cannot explode the scrape's cardinality.
 */
#define HK_PROM_PROCS_MAX	256

/*
 * The most bytes the members' series take together (the rest of the file
 * is about 7 KiB): a process whose series would pass it is not listed,
 * like one past HK_PROM_PROCS_MAX.
 */
#define HK_PROM_SERIES_BYTES_MAX	(512 * 1024)

#define HK_PROM_OWNER_PROCS_MAX		(HK_PROM_PROCS_MAX / 4)
#define HK_PROM_OWNER_BYTES_MAX		(HK_PROM_SERIES_BYTES_MAX / 4)
#define HK_PROM_RESERVED_PROCS		(HK_PROM_PROCS_MAX / 8)
#define HK_PROM_RESERVED_BYTES		(HK_PROM_SERIES_BYTES_MAX / 8)

/* the owner of a process whose owner could not be read: all such share */
#define HK_PROM_OWNER_UNKNOWN		((__u32)-1)

/* a process with series, or one that wants them, as the rule sees it */
struct hk_prom_member {
	__u32 owner;
	bool reserved;			/* root's, a system service's, OOM risk */
	size_t bytes;			/* its lines in the file */
	__u64 seq;			/* when it joined: the oldest goes first */
};

/* m for a process flagged label, of bytes, the seq-th to join: its owner
 * and whether it is reserved, from wl (NULL: not known, not reserved) */
void hk_prom_share__member(struct hk_prom_member *m, const struct hk_workload *wl,
			   __u32 label, size_t bytes, __u64 seq);

/* what a newcomer needs among the nr members m */
#define HK_PROM_SHARE_FITS	(-1L)	/* room now: insert it */
#define HK_PROM_SHARE_REFUSE	(-2L)	/* no room that is fair to make */

/*
 * HK_PROM_SHARE_FITS, HK_PROM_SHARE_REFUSE, or the index in m of the member
 * to take out first (then ask again): one only when the newcomer fits
 * once all those the rule would take out are gone, so that a refusal takes
 * nobody out.
 */
long hk_prom_share__victim(const struct hk_prom_member *m, size_t nr,
			   const struct hk_prom_member *newcomer);

#endif /* HK_USER_PROM_SHARE_H */
