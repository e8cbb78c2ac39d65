/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * procs_room.bpf.h - room in hk_procs for the processes that start. An
 * entry used to go only at its process's exit, so a user who forked more
 * sleepers than the map holds blinded the tool to every process started
 * after (review security-2, L2): each was counted untracked, never
 * diagnosed.
 *
 * The walk, the only writer of hk_procs, counts its entries. When the
 * count passes a high-water mark (7/8 of the map), or an entry could not
 * be made, the window's end gives up quiet entries until the count is
 * down to 3/4: those of processes the walk did not close for
 * HK_QUIET_WALKS walks (none of their threads ran) that hold nothing to
 * say (label and candidate OK, no OOM kill waiting for their exit). Such
 * a process loses only its baselines: when it runs again, it is met as a
 * new one (its first window a baseline, as any process's), and with room
 * to be met. Counted in hk_stats.procs_evicted.
 *
 * The last 1/16 of the map is kept for uid 0's processes (hk_procs_admit).
 *
 * Not an LRU map: its eviction is silent, takes a labelled entry as
 * readily as an idle one, and per-CPU free lists evict out of order.
 * Processes that run every window keep their entries (see docs/security.md,
 * the residual risks): the map is sized 4 x the processes at start.
 */
#ifndef HK_BPF_PROCS_ROOM_H
#define HK_BPF_PROCS_ROOM_H

#include "shared/classify_hyst.h"
#include "maps.bpf.h"

/* Entries given up in one window's end, at most: 1024 took the iter
 * driver's walk end 0.6 ms (5000 sleepers, a 4096-entry map). */
#define HK_EVICT_MAX 1024
/* Entries one look visits, at most: ~95 ns each (32768 entries of
 * processes that all ran: 3.0-3.2 ms a look; with this cap 1.0-1.8 ms,
 * prog-test's hk_test_win on this host). The map's first entries in
 * bucket order, where entries land by a hash of the TGID the kernel
 * seeds at random: a sample of it. */
#define HK_ROOM_VISITS 16384

/* Entries in hk_procs, as the walk made and deleted them. Not static:
 * clang keeps a 0/1 static in one byte, which the kernel's BTF check
 * rejects. */
__u32 hk_procs_fill;
/* An entry could not be made since the last look for quiet ones. */
__u32 hk_procs_refused;
/* No look before this walk: the last found too few quiet entries (a map
 * full of processes that run costs one look every HK_QUIET_WALKS walks,
 * not one a window). */
static __u64 hk_room_walk;

static __always_inline __u32 hk_procs_cap(void)
{
	/* userspace resizes the map before load */
	return ((struct bpf_map *)&hk_procs)->max_entries;
}

/* The real uid of the process the walk closes (hk_proc_close). */
static __u32 hk_acc_uid;

/*
 * May the process being closed have a new entry? The last 1/16 of the map
 * is uid 0's: processes that run every window are never quiet, and a
 * user's would otherwise take every entry from root's services.
 */
static __always_inline int hk_procs_admit(void)
{
	__u32 cap = hk_procs_cap();

	if (!hk_acc_uid || hk_procs_fill < cap - cap / 16)
		return 1;
	hk_procs_refused = 1;
	return 0;
}

/* An entry made (err 0) or refused (the map is full: the count says so). */
static __always_inline void hk_procs_made(long err)
{
	if (!err) {
		hk_procs_fill++;
		return;
	}
	hk_procs_fill = hk_procs_cap();
	hk_procs_refused = 1;
}

/* Delete tgid's entry, counted. */
static __always_inline void hk_procs_delete(__u32 tgid)
{
	if (!bpf_map_delete_elem(&hk_procs, &tgid) && hk_procs_fill)
		hk_procs_fill--;
}

struct hk_room {
	__u64 walk_no;		/* the walk ending */
	__u32 fill_low;		/* give up entries down to this count */
	__u32 evicted;
};

/* Entries the look visited: a global, not in struct hk_room, whose exact
 * count the verifier would follow turn by turn ("the sequence of 8193
 * jumps is too complex"). */
static __u32 hk_room_visits;

static long hk_room_cb(struct bpf_map *map, __u32 *key, struct hk_proc *p, struct hk_room *r)
{
	__u32 tgid = *key;

	if (hk_procs_fill <= r->fill_low || r->evicted >= HK_EVICT_MAX ||
	    ++hk_room_visits > HK_ROOM_VISITS)
		return 1;
	if (p->seen_walk + HK_QUIET_WALKS > r->walk_no || hk_needs_attention(p) ||
	    bpf_map_lookup_elem(&hk_oom, &tgid))
		return 0;
	if (bpf_map_delete_elem(&hk_procs, &tgid))
		return 0;
	hk_procs_fill--;
	r->evicted++;
	return 0;
}

/* At a window's end, after its exits: room again when the map is filling. */
static __always_inline void hk_procs_make_room(__u64 walk_no, struct hk_stats *st)
{
	struct hk_room r = { .walk_no = walk_no };
	__u32 cap = hk_procs_cap();

	if ((!hk_procs_refused && hk_procs_fill < cap - cap / 8) || walk_no < hk_room_walk)
		return;
	hk_procs_refused = 0;
	r.fill_low = cap - cap / 4;
	hk_room_visits = 0;
	bpf_for_each_map_elem(&hk_procs, hk_room_cb, &r, 0);
	if (r.evicted && st)
		__sync_fetch_and_add(&st->procs_evicted, r.evicted);
	/* short of the mark with none left to give up: more entries may be
	 * quiet when HK_QUIET_WALKS walks have passed */
	hk_room_walk = hk_procs_fill > r.fill_low && r.evicted < HK_EVICT_MAX ?
		       walk_no + HK_QUIET_WALKS : 0;
}

#endif /* HK_BPF_PROCS_ROOM_H */
