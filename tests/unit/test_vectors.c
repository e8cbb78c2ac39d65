// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The window vectors (tests/vectors/) through a reference pipeline built
 * here from the functions of include/shared/classify.h, strung together
 * the way window.bpf.h does it; every label, match, event, exit and
 * hand-computed evidence value is checked. The in-kernel prog-test feeds
 * the same vectors to the BPF object.
 */
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/classify.h"
#include "config/config.h"
#include "check.h"

static struct hk_config cfg;

#define REF_PROCS	16
#define REF_EVENTS	32

struct ref_entry {
	int used;
	__u32 tgid;
	__u32 seen_walk;
	struct hk_proc p;
};

struct ref_event {
	__u32 tgid;
	__u32 from;
	__u32 to;
	__u64 start_time_ns;
};

struct ref_pair {
	__u32 victim;
	__u32 aggressor;
	__u32 votes;
	__u32 starved;		/* the victim holds Starved after the window */
	__u32 deprio;		/* ... and asked for less: hk_deprio() */
};

/* What the BPF side keeps across windows, and what one window emitted. */
struct ref {
	const struct hk_config *c;
	__u32 walk;
	struct ref_entry e[REF_PROCS];
	struct ref_pair victims[REF_PROCS];
	int nr_victims;
	__u32 defer[REF_PROCS];
	int nr_defer;
	struct ref_event ev[REF_EVENTS];
	int nr_ev;
	int overflow;
};

static struct ref_entry *ref_lookup(struct ref *r, __u32 tgid)
{
	int i;

	for (i = 0; i < REF_PROCS; i++)
		if (r->e[i].used && r->e[i].tgid == tgid)
			return &r->e[i];
	return NULL;
}

static void ref_emit(struct ref *r, struct ref_entry *e, __u32 from, __u32 to)
{
	if (r->nr_ev >= REF_EVENTS) {
		r->overflow = 1;
		return;
	}
	r->ev[r->nr_ev].tgid = e->tgid;
	r->ev[r->nr_ev].from = from;
	r->ev[r->nr_ev].to = to;
	r->ev[r->nr_ev].start_time_ns = e->p.start_time_ns;
	r->nr_ev++;
}

/* Create, or start over when the TGID now is another process. */
static struct ref_entry *ref_get(struct ref *r, __u32 tgid, __u64 start_time_ns)
{
	struct ref_entry *e = ref_lookup(r, tgid);
	int i;

	if (e) {
		if (e->p.start_time_ns == start_time_ns)
			return e;
		if (e->p.hyst.label != HK_OK)
			ref_emit(r, e, e->p.hyst.label, HK_EXITED);
		memset(&e->p, 0, sizeof(e->p));
		e->p.start_time_ns = start_time_ns;
		return e;
	}
	for (i = 0; i < REF_PROCS; i++) {
		if (r->e[i].used)
			continue;
		memset(&r->e[i], 0, sizeof(r->e[i]));
		r->e[i].used = 1;
		r->e[i].tgid = tgid;
		r->e[i].p.start_time_ns = start_time_ns;
		return &r->e[i];
	}
	r->overflow = 1;
	return NULL;
}

static void ref_commit(struct ref *r, struct ref_entry *e, __u32 match)
{
	struct hk_hyst *h = &e->p.hyst;
	__u32 to = hk_hyst_next(h, match, hk_enter_windows(r->c, match, &e->p.ev),
				r->c->exit_windows);

	if (to == h->label)
		return;
	ref_emit(r, e, h->label, to);
	hk_hyst_commit(h, to);
}

/*
 * One window, in the order window.bpf.h runs it: each process's window
 * step (possible aggressors held back, the others committed, Starved
 * victims noted with the label they hold after it), then the aggressors
 * learn their victims, the held-back are classified again and committed,
 * and the queued exit is handled last. Writes back label/match per
 * process like hk_test_win does.
 */
static void ref_window(struct ref *r, struct hk_test_window *tw)
{
	struct ref_entry *e, *a;
	__u32 exit_tgid = 0, i, match;
	__u64 exit_start = 0;
	int k;

	r->walk++;
	r->nr_victims = 0;
	r->nr_defer = 0;
	r->nr_ev = 0;
	if (tw->exit_tgid) {
		e = ref_lookup(r, tw->exit_tgid);
		if (e) {
			exit_tgid = e->tgid;
			exit_start = e->p.start_time_ns;
		}
	}
	for (i = 0; i < tw->nr_procs; i++) {
		const struct hk_sample *s = &tw->sample[i];

		e = ref_get(r, tw->tgid[i], s->start_time_ns);
		if (!e)
			continue;
		memcpy(e->p.comm, s->comm, HK_COMM_LEN);
		e->seen_walk = r->walk;
		if (!hk_window_step(r->c, &e->p, s, &match))
			continue;
		e->p.hyst.match = match;
		if (hk_may_be_noisy(r->c, &e->p.ev, match) && r->nr_defer < REF_PROCS) {
			r->defer[r->nr_defer++] = e->tgid;
			continue;
		}
		ref_commit(r, e, match);
		if (match == HK_STARVED && s->aggressor_tgid &&
		    s->aggressor_tgid != e->tgid && r->nr_victims < REF_PROCS) {
			r->victims[r->nr_victims].victim = e->tgid;
			r->victims[r->nr_victims].aggressor = s->aggressor_tgid;
			r->victims[r->nr_victims].votes = s->aggressor_switches;
			r->victims[r->nr_victims].starved = e->p.hyst.label == HK_STARVED;
			r->victims[r->nr_victims].deprio = hk_deprio(&e->p.ev);
			r->nr_victims++;
		}
	}
	for (k = 0; k < r->nr_victims; k++) {
		a = ref_lookup(r, r->victims[k].aggressor);
		if (!a || a->seen_walk != r->walk ||
		    !hk_may_be_noisy(r->c, &a->p.ev, a->p.hyst.match))
			continue;
		if (!a->p.ev.victim_tgid ||
		    r->victims[k].votes > a->p.ev.victim_switches) {
			a->p.ev.victim_tgid = r->victims[k].victim;
			a->p.ev.victim_switches = r->victims[k].votes;
			a->p.ev.victim_deprioritised = r->victims[k].deprio;
		}
		a->p.ev.victim_starved |= r->victims[k].starved;
	}
	for (k = 0; k < r->nr_defer; k++) {
		e = ref_lookup(r, r->defer[k]);
		if (e && e->seen_walk == r->walk)
			ref_commit(r, e, hk_classify(r->c, &e->p.ev));
	}
	if (exit_tgid) {
		e = ref_lookup(r, exit_tgid);
		if (e && e->p.start_time_ns == exit_start) {
			if (e->p.hyst.label != HK_OK)
				ref_emit(r, e, e->p.hyst.label, HK_EXITED);
			e->used = 0;
		}
	}
	for (i = 0; i < tw->nr_procs; i++) {
		e = ref_lookup(r, tw->tgid[i]);
		tw->label[i] = e ? e->p.hyst.label : HK_EXITED;
		tw->match[i] = e ? e->p.hyst.match : HK_EXITED;
	}
}

/* Every event expected in window w was emitted once, and nothing else. */
static void check_events(const struct hkv_vector *v, __u32 w, const struct ref *r)
{
	int used[REF_EVENTS] = { 0 };
	int i, k, want = 0;

	for (i = 0; i < HKV_MAX_EVENTS && v->events[i].window; i++) {
		const struct hkv_event *x = &v->events[i];
		int found = 0;

		if (x->window != w)
			continue;
		want++;
		for (k = 0; k < r->nr_ev && !found; k++) {
			if (used[k] || r->ev[k].tgid != x->tgid ||
			    r->ev[k].from != x->from || r->ev[k].to != x->to)
				continue;
			used[k] = 1;
			found = 1;
		}
		check_true(found, __LINE__,
			   "vector %s window %u tgid %u: event %s -> %s not emitted",
			   v->name, w, x->tgid, hkv_label_name(x->from),
			   hkv_label_name(x->to));
	}
	for (k = 0; k < r->nr_ev; k++)
		check_true(used[k], __LINE__,
			   "vector %s window %u tgid %u: unexpected event %s -> %s",
			   v->name, w, r->ev[k].tgid, hkv_label_name(r->ev[k].from),
			   hkv_label_name(r->ev[k].to));
	check_s64(r->nr_ev, want, __LINE__, "vector %s window %u: events", v->name, w);
	check_true(!r->overflow, __LINE__, "vector %s window %u: reference tables full",
		   v->name, w);
}

static void run_vector(const struct hkv_vector *v)
{
	static struct ref r;
	struct hk_test_window tw;
	int idx[HK_TEST_PROCS];
	struct ref_entry *e;
	__u32 w, i;
	int n, k;

	memset(&r, 0, sizeof(r));
	hkv_vector_config(v, &cfg);
	r.c = &cfg;
	for (w = 1; w <= v->nr_windows; w++) {
		n = hkv_window(v, w, &tw, idx);
		check_true(n >= 0, __LINE__, "vector %s window %u: too many processes",
			   v->name, w);
		if (n < 0)
			return;
		ref_window(&r, &tw);

		for (i = 0; i < tw.nr_procs; i++) {
			const struct hkv_proc *p = &v->procs[idx[i]];
			const struct hkv_expect *x = hkv_expect_at(p, w);

			check_true(x != NULL, __LINE__,
				   "vector %s window %u tgid %u: no expectation",
				   v->name, w, p->tgid);
			if (!x)
				continue;
			check_label(tw.label[i], x->label, __LINE__,
				    "vector %s window %u tgid %u (%s): label",
				    v->name, w, p->tgid, p->comm);
			check_label(tw.match[i], x->match, __LINE__,
				    "vector %s window %u tgid %u (%s): match",
				    v->name, w, p->tgid, p->comm);
		}
		check_events(v, w, &r);
		for (k = 0; k < HKV_MAX_EXITS && v->exits[k].window; k++) {
			__u32 tgid = v->exits[k].tgid;

			if (v->exits[k].window != w)
				continue;
			if (hkv_gone_after(v, w, tgid))
				check_true(ref_lookup(&r, tgid) == NULL, __LINE__,
					   "vector %s window %u tgid %u: entry left after exit",
					   v->name, w, tgid);
			else	/* recycled in the same window: the new one stays */
				check_true(ref_lookup(&r, tgid) != NULL, __LINE__,
					   "vector %s window %u tgid %u: new process lost",
					   v->name, w, tgid);
		}
		for (k = 0; k < HKV_MAX_CHECKS && v->checks[k].window; k++) {
			const struct hkv_check *c = &v->checks[k];

			if (c->window != w)
				continue;
			e = ref_lookup(&r, c->tgid);
			check_true(e != NULL, __LINE__,
				   "vector %s window %u tgid %u: no entry for %s",
				   v->name, w, c->tgid, hkv_field_name(c->field));
			if (e)
				check_s64(hkv_field_get(&e->p.ev, c->field), c->value,
					  __LINE__, "vector %s window %u tgid %u: %s",
					  v->name, w, c->tgid, hkv_field_name(c->field));
		}
	}
}

void hk_test_vectors(void)
{
	size_t i;

	hkv_config(&cfg);
	for (i = 0; i < HKV_NR_VECTORS; i++)
		run_vector(&hkv_vectors[i]);
}

/*
 * The vectors agree with themselves: every process has an expectation in
 * each of its windows and starts OK; every expected label change has its
 * event and every event a label change, an exit or a recycled PID behind it.
 */
static __u32 label_at(const struct hkv_proc *p, __u32 w)
{
	const struct hkv_expect *x = hkv_expect_at(p, w);

	return x ? x->label : 0xffff;
}

static int has_event(const struct hkv_vector *v, __u32 w, __u32 tgid, __u32 from, __u32 to)
{
	int i;

	for (i = 0; i < HKV_MAX_EVENTS && v->events[i].window; i++)
		if (v->events[i].window == w && v->events[i].tgid == tgid &&
		    v->events[i].from == from && v->events[i].to == to)
			return 1;
	return 0;
}

void hk_test_vectors_consistent(void)
{
	size_t vi;
	int i, k;
	__u32 w;

	for (vi = 0; vi < HKV_NR_VECTORS; vi++) {
		const struct hkv_vector *v = &hkv_vectors[vi];

		for (i = 0; i < HKV_MAX_PROCS; i++) {
			const struct hkv_proc *p = &v->procs[i];

			if (!p->tgid)
				continue;
			check_true(p->last <= v->nr_windows, __LINE__,
				   "vector %s tgid %u: sampled past the end", v->name, p->tgid);
			check_s64(label_at(p, p->first), HK_OK, __LINE__,
				  "vector %s tgid %u: label on its first window",
				  v->name, p->tgid);
			for (w = p->first; w <= p->last; w++) {
				if (!hkv_active(p, w))
					continue;
				check_true(hkv_expect_at(p, w) != NULL, __LINE__,
					   "vector %s window %u tgid %u: no expectation",
					   v->name, w, p->tgid);
				if (w > p->first && hkv_active(p, w - 1) &&
				    label_at(p, w) != label_at(p, w - 1))
					check_true(has_event(v, w, p->tgid, label_at(p, w - 1),
							     label_at(p, w)),
						   __LINE__,
						   "vector %s window %u tgid %u: no event for its label change",
						   v->name, w, p->tgid);
			}
		}
		for (k = 0; k < HKV_MAX_EVENTS && v->events[k].window; k++) {
			const struct hkv_event *x = &v->events[k];
			int ok = 0;

			for (i = 0; i < HKV_MAX_PROCS && !ok; i++) {
				const struct hkv_proc *p = &v->procs[i];

				if (p->tgid != x->tgid)
					continue;
				if (x->to != HK_EXITED)
					ok = x->window > p->first && x->window <= p->last &&
					     label_at(p, x->window - 1) == x->from &&
					     label_at(p, x->window) == x->to;
				else
					ok = x->window == p->last + 1 &&
					     label_at(p, p->last) == x->from;
			}
			check_true(ok, __LINE__,
				   "vector %s window %u tgid %u: event %s -> %s has no cause",
				   v->name, x->window, x->tgid, hkv_label_name(x->from),
				   hkv_label_name(x->to));
		}
	}
}

