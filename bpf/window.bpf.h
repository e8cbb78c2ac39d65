/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * window.bpf.h - what happens to one process in one window, after its
 * counters are summed: the pure window step (include/shared/classify.h),
 * then the aggressor pass, hysteresis, the ring-buffer event, and the
 * exits. Shared by the walk and by the hk_test_win test entry.
 */
#ifndef HK_BPF_WINDOW_H
#define HK_BPF_WINDOW_H

#include "shared/classify.h"
#include "shared/oom_kill.h"
#include "maps.bpf.h"
#include "loop.bpf.h"
#include "procs_room.bpf.h"
#include "stall.bpf.h"

#ifndef EEXIST
#define EEXIST 17
#endif
#ifndef E2BIG
#define E2BIG 7
#endif

struct hk_pair {
	__u32 victim;
	__u32 aggressor;
	__u32 votes;
	__u32 starved;		/* the victim holds the Starved label now */
	__u32 deprio;		/* ... and asked for less: hk_deprio() */
};

/*
 * Per-window scratch. One window runs at a time: a work item is never run
 * concurrently with itself, and the test entry lives in its own object.
 */
static __u64 hk_walk_no;
static __u32 hk_nr_defer;
static __u32 hk_nr_victims;
static __u32 hk_defer[HK_DEFER_SLOTS];
static struct hk_pair hk_victims[HK_VICTIM_SLOTS];
__u32 hk_sweep_needed;	/* exits were lost: the next walk sweeps hk_procs */
/* never written: the template of a new hk_procs entry */
static struct hk_proc hk_zero_proc;

static __always_inline struct hk_config *hk_cfg(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hk_config, &zero);
}

static __always_inline struct hk_stats *hk_st(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hk_stats, &zero);
}

/* For the next walk: close this process even if none of its threads run. */
static __always_inline void hk_attn_set(__u32 tgid)
{
	__u32 next = (hk_walk_no & 1) ^ 1;

	hk_attn[next][(tgid / 64) & (HK_ATTN_WORDS - 1)] |= 1ULL << (tgid & 63);
}

static __always_inline int hk_attn_test(__u32 tgid)
{
	__u32 cur = hk_walk_no & 1;

	return !!(hk_attn[cur][(tgid / 64) & (HK_ATTN_WORDS - 1)] & (1ULL << (tgid & 63)));
}

static __always_inline void hk_peer_comm(char *dst, __u32 tgid)
{
	struct hk_proc *peer;

	if (!tgid)
		return;
	peer = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (peer)
		__builtin_memcpy(dst, peer->comm, HK_COMM_LEN);
}

/*
 * The OOM kill the next hk_emit carries (hk_last_word fills it and clears
 * it again; zero: none). Only the walk emits transitions, one window at a
 * time. A global rather than an argument: hk_emit stays one path for the
 * verifier (an argument NULL at one call and a map value at another, and
 * hk_emit's branches on it, took hk_test_win past 1M instructions).
 */
static struct hk_oom_kill hk_oom_cur;

/* Send one transition; -1 when the ring buffer is full (counted). The
 * one event sent within a label (from == to) is an OOM risk's ETA that fell
 * under freeze_eta_s (HK_EV_ETA, hk_eta_crossed). Inlined into hk_last_word
 * (hk_emit for the others): as a call there it was the 8th of the 8 call
 * frames the verifier allows (hk_tick_walk -> ... -> hk_last_word). */
static __always_inline int hk_emit_inline(struct hk_proc *p, __u32 tgid, __u32 from, __u32 to)
{
	struct hk_stats *st = hk_st();
	struct hk_event *e;
	__u64 now_ns;

	if (!p || !st)
		return -1;
	e = bpf_ringbuf_reserve(&hk_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&st->events_dropped, 1);
		return -1;
	}
	now_ns = bpf_ktime_get_ns();
	e->type = from == to ? HK_EV_ETA : HK_EV_TRANSITION;
	e->tgid = tgid;
	e->ns_pid = p->ns_pid;
	e->ns_ino = p->ns_ino;
	e->from = from;
	e->to = to;
	e->windows = p->windows;
	e->time_ns = now_ns;
	e->start_time_ns = p->start_time_ns;
	e->start_boottime_ns = p->start_boottime_ns;
	__builtin_memcpy(e->comm, p->comm, HK_COMM_LEN);
	__builtin_memset(e->aggressor_comm, 0, HK_COMM_LEN);
	__builtin_memset(e->victim_comm, 0, HK_COMM_LEN);
	hk_peer_comm(e->aggressor_comm, p->ev.aggressor_tgid);
	hk_peer_comm(e->victim_comm, p->ev.victim_tgid);
	__builtin_memcpy(&e->ev, &p->ev, sizeof(e->ev));
	__builtin_memcpy(&e->oom, &hk_oom_cur, sizeof(e->oom));
	bpf_ringbuf_submit(e, 0);
	__sync_fetch_and_add(&st->events_emitted, 1);
	/* its latest OOM risk, which an OOM kill is judged against (an
	 * ETA's event, within the label, neither enters nor leaves it) */
	if (to == HK_OOM_RISK && from != HK_OOM_RISK) {
		p->oom_risk_since_ns = now_ns;
		p->oom_risk_until_ns = 0;
	} else if (from == HK_OOM_RISK && to != HK_OOM_RISK) {
		p->oom_risk_until_ns = now_ns;
	}
	return 0;
}

/* hk_emit_inline as a call, for hk_commit and hk_proc_window: inlined into
 * them too it cost the verifier 7-15 % more instructions */
static __noinline int hk_emit(struct hk_proc *p, __u32 tgid, __u32 from, __u32 to)
{
	return hk_emit_inline(p, tgid, from, to);
}

/*
 * The last word of a tracked process that is gone: oom_killed when the
 * kernel's OOM killer took it (always said, whatever its label; judged
 * against its latest OOM risk, counted flagged or missed), else exited
 * (said only when it was flagged). 0: said, or nothing to say; -1: the
 * ring buffer is full (say it again later). A global function: verified
 * once, on its own; inlined into each exit path (hk_proc_get in the test
 * entry's loop above all) it took hk_test_win past 1M instructions.
 */
__noinline int hk_last_word(struct hk_proc *p, __u32 tgid)
{
	struct hk_oom_kill *k, *cur = &hk_oom_cur;
	struct hk_stats *st = hk_st();
	__u32 to = HK_EXITED;
	int err;

	if (!p || !st)
		return 0;
	k = bpf_map_lookup_elem(&hk_oom, &tgid);
	/* a kill of an earlier process under a recycled PID is not its */
	if (k && (!k->start_time_ns || k->start_time_ns == p->start_time_ns)) {
		__builtin_memcpy(cur, k, sizeof(*cur));
		cur->oom_risk_since_ns = p->oom_risk_since_ns;
		cur->oom_risk_until_ns = p->oom_risk_until_ns;
		cur->flagged = hk_oom_flagged(cur->time_ns, cur->oom_risk_since_ns,
					      cur->oom_risk_until_ns, cur->window_ns);
		cur->tracked = 1;
		to = HK_OOM_KILLED;
	} else if (p->hyst.label == HK_OK) {
		return 0;
	}
	err = hk_emit_inline(p, tgid, p->hyst.label, to);
	if (!err && to == HK_OOM_KILLED)
		__sync_fetch_and_add(cur->flagged ? &st->oom_kills_flagged :
				     &st->oom_kills_missed, 1);
	__builtin_memset(cur, 0, sizeof(*cur));
	if (err)
		return -1;
	/* said (or a recycled PID's, stale) */
	bpf_map_delete_elem(&hk_oom, &tgid);
	return 0;
}

/* Hysteresis, and the event when the label moves. */
static __noinline int hk_commit(struct hk_proc *p, __u32 tgid, __u32 match)
{
	struct hk_config *c = hk_cfg();
	__u32 to;

	if (!p || !c)
		return 0;
	to = hk_hyst_next(&p->hyst, match, hk_enter_windows(c, match, &p->ev),
			  c->exit_windows);
	if (to == p->hyst.label)
		return 0;
	/* not committed when lost: decided again, and sent, next window */
	if (hk_emit(p, tgid, p->hyst.label, to))
		return -1;
	hk_hyst_commit(&p->hyst, to);
	return 1;
}

/*
 * The entry of a process, created on first sight (*created then set). A
 * different start time under the same TGID is a recycled PID: the old
 * process exited (its `exited` goes out first) and the new one starts
 * from nothing.
 */
static __always_inline struct hk_proc *hk_proc_get(__u32 tgid, __u64 start_time_ns,
						   __u32 *created)
{
	struct hk_proc *p = bpf_map_lookup_elem(&hk_procs, &tgid);
	struct hk_stats *st;
	long err;

	if (p) {
		if (p->start_time_ns == start_time_ns)
			return p;
		if (hk_last_word(p, tgid))
			return NULL;
		__builtin_memset(p, 0, sizeof(*p));
		p->start_time_ns = start_time_ns;
		return p;
	}
	err = -E2BIG;
	if (hk_procs_admit()) {
		err = bpf_map_update_elem(&hk_procs, &tgid, &hk_zero_proc, BPF_NOEXIST);
		if (err != -EEXIST)
			hk_procs_made(err);
	}
	if (err && err != -EEXIST) {
		st = hk_st();
		if (st)
			__sync_fetch_and_add(&st->procs_untracked, 1);
		return NULL;
	}
	*created = !err;
	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (p)
		p->start_time_ns = start_time_ns;
	return p;
}

/*
 * The window step in a frame of its own. Inlined into hk_proc_window, its
 * ~200 bytes of locals lay under hk_commit's and hk_emit's frames too, and
 * the call chain from hk_iter needed 544 bytes of stack: 6.1's verifier
 * stops at 512 (tools/vmtest). 80 bytes since the trend fit's sums live in
 * .bss (hk_trend_fit); inlined, it still costs 64 (stack_chain.py).
 */
static __noinline int hk_window_step_frame(const struct hk_config *c, struct hk_proc *p,
					   const struct hk_sample *s, __u32 *match)
{
	if (!c || !p || !s)
		return 0;
	return hk_window_step(c, p, s, match);
}

/*
 * One window of one process. A process that could still turn out to be a
 * Noisy neighbor waits for hk_window_end, when every Starved victim of the
 * window is known: both sides of a pair are labelled from the same facts.
 */
static __noinline int hk_proc_window(struct hk_proc *p, __u32 tgid,
				     struct hk_sample *s)
{
	struct hk_config *c = hk_cfg();
	struct hk_stats *st = hk_st();
	__u32 match = HK_OK, i;
	__u64 eta_before_s;
	int ret = 0;

	if (!p || !c || !st)
		return 0;
	eta_before_s = p->ev.eta_s;
	__builtin_memcpy(p->comm, s->comm, HK_COMM_LEN);
	p->seen_walk = hk_walk_no;
	if (!hk_window_step_frame(c, p, s, &match))
		goto out;
	p->hyst.match = match;
	hk_stall_cur = s->stall;
	hk_stall_group_id = s->cpu_group_id;
	hk_stall_walk_no = hk_walk_no;
	hk_stall_frame(p);

	if (hk_may_be_noisy(c, &p->ev, match)) {
		i = hk_nr_defer;
		/* no more than the aggressor pass will settle (bounded
		 * loops: 32 turns): past it, labelled now, without its
		 * victims, and counted */
		if (i < HK_DEFER_SLOTS &&
		    (hk_has_bpf_loop() || i < HK_LOOP_TURNS_PAIRS)) {
			hk_defer[i & (HK_DEFER_SLOTS - 1)] = tgid;
			hk_nr_defer = i + 1;
			goto out;
		}
		__sync_fetch_and_add(&st->defer_overflows, 1);
	}
	ret = hk_commit(p, tgid, match);
	if (!ret && hk_eta_crossed(c, p->hyst.label, eta_before_s, p->ev.eta_s))
		hk_emit(p, tgid, HK_OOM_RISK, HK_OOM_RISK);
	/* after the commit: its aggressor may follow it into its label */
	if (match == HK_STARVED && s->aggressor_tgid && s->aggressor_tgid != tgid) {
		i = hk_nr_victims;
		if (i < HK_VICTIM_SLOTS) {
			hk_victims[i & (HK_VICTIM_SLOTS - 1)].victim = tgid;
			hk_victims[i & (HK_VICTIM_SLOTS - 1)].aggressor = s->aggressor_tgid;
			hk_victims[i & (HK_VICTIM_SLOTS - 1)].votes = s->aggressor_switches;
			hk_victims[i & (HK_VICTIM_SLOTS - 1)].starved =
				p->hyst.label == HK_STARVED;
			hk_victims[i & (HK_VICTIM_SLOTS - 1)].deprio = hk_deprio(&p->ev);
			hk_nr_victims = i + 1;
		} else {
			__sync_fetch_and_add(&st->defer_overflows, 1);
		}
	}
out:
	if (hk_needs_attention(p))
		hk_attn_set(tgid);
	return ret;
}

static long hk_victim_cb(__u64 i, void *ctx)
{
	struct hk_config *c = hk_cfg();
	struct hk_pair *v;
	struct hk_proc *a;
	__u32 aggressor;

	if (!c || i >= HK_VICTIM_SLOTS)
		return 1;
	v = &hk_victims[i & (HK_VICTIM_SLOTS - 1)];
	aggressor = v->aggressor;
	a = bpf_map_lookup_elem(&hk_procs, &aggressor);
	if (!a || a->seen_walk != hk_walk_no ||
	    !hk_may_be_noisy(c, &a->ev, a->hyst.match))
		return 0;
	/* name the victim it took the CPU from most often */
	if (!a->ev.victim_tgid || v->votes > a->ev.victim_switches) {
		a->ev.victim_tgid = v->victim;
		a->ev.victim_switches = v->votes;
		a->ev.victim_deprioritised = v->deprio;
	}
	a->ev.victim_starved |= v->starved;
	return 0;
}

static long hk_defer_cb(__u64 i, void *ctx)
{
	struct hk_config *c = hk_cfg();
	struct hk_proc *p;
	__u32 tgid;

	if (!c || i >= HK_DEFER_SLOTS)
		return 1;
	tgid = hk_defer[i & (HK_DEFER_SLOTS - 1)];
	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (!p || p->seen_walk != hk_walk_no)
		return 0;
	hk_commit(p, tgid, hk_classify(c, &p->ev));
	if (hk_needs_attention(p))
		hk_attn_set(tgid);
	return 0;
}

/*
 * Queue the exit of a tracked process for the walk (only the walk deletes).
 * A full queue is counted and makes the walk sweep hk_procs instead.
 */
static __always_inline void hk_queue_exit(__u32 tgid)
{
	struct hk_exit x = {};
	struct hk_stats *st;
	struct hk_proc *p;

	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (!p)
		return;
	x.tgid = tgid;
	x.start_time_ns = p->start_time_ns;
	if (bpf_map_push_elem(&hk_exits, &x, 0)) {
		st = hk_st();
		if (st)
			__sync_fetch_and_add(&st->exits_lost, 1);
		hk_sweep_needed = 1;
	}
}

/*
 * A queued exit: the last word of a flagged process, then its entry goes.
 * Returns 1 when the queue is empty or the ring buffer full. A global
 * function: verified once, so that a bounded loop (5.15, 5.16) can afford
 * HK_LOOP_TURNS_EXITS turns of it. during_walk: drained while the walk
 * goes on (hk_exits_more); a process closed in this walk waits for the
 * walk's end, where its deferred label comes first (returns 1 then too).
 */
__noinline int hk_exit_one(__u32 during_walk)
{
	struct hk_exit x;
	struct hk_proc *p;
	__u32 tgid;

	if (bpf_map_pop_elem(&hk_exits, &x))
		return 1;
	tgid = x.tgid;
	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (!p || p->start_time_ns != x.start_time_ns)
		return 0;	/* already gone, or the PID was recycled */
	if ((during_walk && p->seen_walk == hk_walk_no) || hk_last_word(p, tgid)) {
		/* ring buffer full: keep it for the next window; if the
		 * hooks filled the queue since, the sweep finds it */
		if (bpf_map_push_elem(&hk_exits, &x, 0))
			hk_sweep_needed = 1;
		return 1;
	}
	hk_procs_delete(tgid);
	return 0;
}

static long hk_exit_cb(__u64 i, void *ctx)
{
	/* a callback returns 0 or 1, which the verifier cannot see through a
	 * global function */
	return hk_exit_one(0) ? 1 : 0;
}

/*
 * The iter driver drains the exit queue during its walk, one exit per
 * thread met, so that the walk's end (one stretch on a CPU: it cannot
 * yield) has few left: 10 000 processes exiting at once cost its end
 * 4.4 ms here. Set when a walk begins, cleared when the queue is empty.
 */
__u32 hk_exits_more;	/* not static: clang keeps a 0/1 static in one
			 * byte, which the kernel's BTF check rejects */

/* Exits the iter driver's walk end handles, at most (~0.45 us each); the
 * rest wait in the queue for the next walk, as past a bounded loop's cap. */
#define HK_ITER_END_EXITS 1024

/* After a walk that closed every process (exits were lost): drop the
 * entries whose process it did not meet. */
static long hk_sweep_cb(struct bpf_map *map, __u32 *key, struct hk_proc *p,
			void *ctx)
{
	__u32 tgid = *key;

	if (p->seen_walk == hk_walk_no)
		return 0;
	/* ring buffer full: the next walk sweeps again (its `exited` is
	 * owed, and the rest of hk_procs is not swept yet) */
	if (hk_last_word(p, tgid)) {
		hk_sweep_needed = 1;
		return 1;
	}
	hk_procs_delete(tgid);
	return 0;
}

static __always_inline void hk_window_begin(void)
{
	hk_walk_no++;
	hk_nr_defer = 0;
	hk_nr_victims = 0;
}

static __noinline int hk_window_end(__u32 sweep, __u32 max_exits)
{
	struct hk_stats *st = hk_st();
	__u32 left;

	left = hk_loop(hk_nr_victims, HK_LOOP_TURNS_PAIRS, hk_victim_cb, NULL);
	left += hk_loop(hk_nr_defer, HK_LOOP_TURNS_PAIRS, hk_defer_cb, NULL);
	if (left && st)
		__sync_fetch_and_add(&st->defer_overflows, left);
	/* without bpf_loop, exits past the cap wait in the queue */
	hk_loop(max_exits, HK_LOOP_TURNS_EXITS, hk_exit_cb, NULL);
	if (sweep)
		bpf_for_each_map_elem(&hk_procs, hk_sweep_cb, NULL, 0);
	hk_procs_make_room(hk_walk_no, st);
	return 0;
}

#endif /* HK_BPF_WINDOW_H */
