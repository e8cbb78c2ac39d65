// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prog_test - the real BPF object in the running kernel, on synthetic
 * windows.
 *
 * Opens and loads the skeleton without arming the timer or attaching
 * anything (the walk never runs), writes the vectors' config into
 * hk_config, and feeds every window of tests/vectors/window_vectors.h to
 * the hk_test_win raw_tp program with BPF_PROG_TEST_RUN. After each
 * window: the labels and matches the program writes back into hk_test_io,
 * the transitions in the ring buffer (each exactly once, none while a
 * label holds), hk_procs entries against the same window step run in
 * userspace from include/shared/classify.h, and the hand-computed
 * evidence of the vectors. One line per check group; the last line is
 * "N passed, N failed"; the exit status is 1 on any failure.
 *
 *   sudo build/prog-test [-v] [-b]	(-v: libbpf's debug output; -b: bounded
 *					 loops instead of bpf_loop, as on 5.15)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include "shared/classify.h"
#include "config/config.h"
#include "kernel/kfields.h"
#include "hotspot.skel.h"
#include "vectors/window_vectors.h"

#define MAX_EVENTS	64	/* per window */
#define MAX_DETAILS	8	/* failure lines printed per group */
#define SHADOW_PROCS	16

static int verbose;
static int bounded_loops;
static int nr_passed, nr_failed;

/* --- check groups ------------------------------------------------------- */

struct group {
	char name[128];
	int checks;
	int fails;
};

static void group_begin(struct group *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void group_begin(struct group *g, const char *fmt, ...)
{
	va_list ap;

	memset(g, 0, sizeof(*g));
	va_start(ap, fmt);
	vsnprintf(g->name, sizeof(g->name), fmt, ap);
	va_end(ap);
}

/* Count a check; a failure prints what was got and what was wanted. */
static int check(struct group *g, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int check(struct group *g, int ok, const char *fmt, ...)
{
	va_list ap;

	g->checks++;
	if (ok)
		return 1;
	if (g->fails++ < MAX_DETAILS) {
		printf("    ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	return 0;
}

static void group_end(struct group *g)
{
	if (g->fails) {
		printf("FAIL %s: %d of %d checks failed\n", g->name, g->fails, g->checks);
		nr_failed++;
	} else {
		printf("PASS %s (%d checks)\n", g->name, g->checks);
		nr_passed++;
	}
	fflush(stdout);
}

/* --- ring buffer ---------------------------------------------------------- */

struct window_events {
	struct hk_event ev[MAX_EVENTS];
	int n;
	int overflow;
	int bad_size;
	__u64 total;
};

static int on_event(void *ctx, void *data, size_t len)
{
	struct window_events *we = ctx;

	we->total++;
	if (len != sizeof(struct hk_event)) {
		we->bad_size++;
		return 0;
	}
	if (we->n >= MAX_EVENTS) {
		we->overflow++;
		return 0;
	}
	memcpy(&we->ev[we->n++], data, sizeof(struct hk_event));
	return 0;
}

/* --- userspace shadow: the window step from classify.h alone -------------- */

struct shadow {
	int used;
	__u32 tgid;
	struct hk_proc p;
};

static struct shadow shadows[SHADOW_PROCS];

static struct shadow *shadow_find(__u32 tgid)
{
	int i;

	for (i = 0; i < SHADOW_PROCS; i++)
		if (shadows[i].used && shadows[i].tgid == tgid)
			return &shadows[i];
	return NULL;
}

static struct shadow *shadow_get(__u32 tgid, __u64 start_time_ns)
{
	struct shadow *sh = shadow_find(tgid);
	int i;

	if (sh && sh->p.start_time_ns == start_time_ns)
		return sh;
	if (!sh) {
		for (i = 0; i < SHADOW_PROCS && shadows[i].used; i++)
			;
		if (i == SHADOW_PROCS)
			return NULL;
		sh = &shadows[i];
	}
	memset(sh, 0, sizeof(*sh));
	sh->used = 1;
	sh->tgid = tgid;
	sh->p.start_time_ns = start_time_ns;
	return sh;
}

/* --- the kernel side ------------------------------------------------------ */

struct env {
	struct hotspot_bpf *skel;
	struct ring_buffer *rb;
	struct window_events we;
	struct hk_config cfg;
	int prog_fd, procs_fd, exits_fd, stats_fd, config_fd;
};

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Back to nothing: no entries, no queued exits, no pending events. */
static int reset_state(struct env *env, struct group *g)
{
	__u32 key, next, keys[4096];
	__u64 x[8];	/* a struct hk_exit (BPF side only); size checked at load */
	int n = 0, i, err;

	err = bpf_map_get_next_key(env->procs_fd, NULL, &next);
	while (!err && n < (int)(sizeof(keys) / sizeof(keys[0]))) {
		keys[n++] = next;
		key = next;
		err = bpf_map_get_next_key(env->procs_fd, &key, &next);
	}
	for (i = 0; i < n; i++)
		check(g, !bpf_map_delete_elem(env->procs_fd, &keys[i]),
		      "reset: delete hk_procs[%u]: %s", keys[i], strerror(errno));
	while (!bpf_map_lookup_and_delete_elem(env->exits_fd, NULL, x))
		;
	ring_buffer__consume(env->rb);
	env->we.n = 0;
	err = bpf_map_get_next_key(env->procs_fd, NULL, &next);
	return check(g, err && errno == ENOENT, "reset: hk_procs still has entries");
}

static int run_window(struct env *env, struct hk_test_window *tw, struct group *g,
		      const char *vec, __u32 w)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	/* in and out through the program's .bss (a raw_tp has no ctx out) */
	memcpy(&env->skel->bss->hk_test_io, tw, sizeof(*tw));
	err = bpf_prog_test_run_opts(env->prog_fd, &opts);
	if (err)
		err = -errno;
	memcpy(tw, &env->skel->bss->hk_test_io, sizeof(*tw));
	if (!check(g, !err, "%s window %u: BPF_PROG_TEST_RUN: %s (err %d, expected 0)",
		   vec, w, strerror(-err), err))
		return -1;
	check(g, opts.retval == 0, "%s window %u: retval %u, expected 0", vec, w,
	      opts.retval);
	check(g, tw->err == 0, "%s window %u: ctx->err %d, expected 0", vec, w, tw->err);
	return 0;
}

/* The process of the vector sampled in window w under this TGID, if any. */
static const struct hkv_proc *active_proc(const struct hkv_vector *v, __u32 tgid, __u32 w)
{
	int i;

	for (i = 0; i < HKV_MAX_PROCS; i++)
		if (v->procs[i].tgid == tgid && hkv_active(&v->procs[i], w))
			return &v->procs[i];
	return NULL;
}

static int comm_is(const char *comm, const char *want)
{
	char buf[HK_COMM_LEN + 1];

	memcpy(buf, comm, HK_COMM_LEN);
	buf[HK_COMM_LEN] = '\0';
	return !strncmp(buf, want, HK_COMM_LEN - 1);
}

/* This window's events against the vector's: each once, nothing else. */
static void check_events(const struct hkv_vector *v, __u32 w,
			 const struct window_events *we, struct group *g)
{
	int used[MAX_EVENTS] = { 0 };
	int i, k, want = 0;

	check(g, !we->overflow && !we->bad_size,
	      "%s window %u: %d events over capacity, %d of a wrong size", v->name, w,
	      we->overflow, we->bad_size);
	for (i = 0; i < HKV_MAX_EVENTS && v->events[i].window; i++) {
		const struct hkv_event *x = &v->events[i];
		int found = -1;

		if (x->window != w)
			continue;
		want++;
		for (k = 0; k < we->n && found < 0; k++)
			if (!used[k] && we->ev[k].tgid == x->tgid &&
			    we->ev[k].from == x->from && we->ev[k].to == x->to)
				found = k;
		if (!check(g, found >= 0, "%s window %u tgid %u: event %s -> %s missing",
			   v->name, w, x->tgid, hkv_label_name(x->from),
			   hkv_label_name(x->to)))
			continue;
		used[found] = 1;
	}
	for (k = 0; k < we->n; k++) {
		const struct hk_event *e = &we->ev[k];
		const struct hkv_proc *p, *peer;

		check(g, used[k], "%s window %u tgid %u: unexpected event %s -> %s",
		      v->name, w, e->tgid, hkv_label_name(e->from), hkv_label_name(e->to));
		check(g, e->type == HK_EV_TRANSITION, "%s window %u tgid %u: type %u, expected %u",
		      v->name, w, e->tgid, e->type, HK_EV_TRANSITION);
		/* the process it speaks of, recycled PIDs included */
		p = hkv_find(v, e->tgid, e->start_time_ns);
		if (!check(g, p != NULL,
			   "%s window %u tgid %u: start_time_ns %llu is no process of the vector",
			   v->name, w, e->tgid, (unsigned long long)e->start_time_ns))
			continue;
		check(g, comm_is(e->comm, p->comm),
		      "%s window %u tgid %u: comm \"%.16s\", expected \"%s\"",
		      v->name, w, e->tgid, e->comm, p->comm);
		check(g, e->ns_pid == e->tgid, "%s window %u tgid %u: ns_pid %u, expected %u",
		      v->name, w, e->tgid, e->ns_pid, e->tgid);
		if (e->to == HK_STARVED) {
			peer = active_proc(v, e->ev.aggressor_tgid, w);
			check(g, !peer || comm_is(e->aggressor_comm, peer->comm),
			      "%s window %u tgid %u: aggressor_comm \"%.16s\", expected \"%s\"",
			      v->name, w, e->tgid, e->aggressor_comm, peer ? peer->comm : "");
		}
		if (e->to == HK_NOISY_NEIGHBOR) {
			peer = active_proc(v, e->ev.victim_tgid, w);
			check(g, peer && comm_is(e->victim_comm, peer->comm),
			      "%s window %u tgid %u: victim %u comm \"%.16s\", expected \"%s\"",
			      v->name, w, e->tgid, e->ev.victim_tgid, e->victim_comm,
			      peer ? peer->comm : "(a sampled victim)");
		}
	}
	check(g, we->n == want, "%s window %u: %d events, expected %d", v->name, w, we->n, want);
}

#define SAME(field) \
	check(g, kp.field == sh->p.field, "%s window %u tgid %u: %s %lld, classify.h says %lld", \
	      v->name, w, tgid, #field, (long long)kp.field, (long long)sh->p.field)

/* hk_procs[tgid] against the userspace window step on the same samples. */
static void check_entry(struct env *env, const struct hkv_vector *v, __u32 w,
			__u32 tgid, struct group *g)
{
	struct shadow *sh = shadow_find(tgid);
	struct hk_proc kp;
	__u32 k;

	if (!check(g, sh != NULL, "%s window %u tgid %u: no userspace shadow", v->name, w, tgid))
		return;
	if (!check(g, !bpf_map_lookup_elem(env->procs_fd, &tgid, &kp),
		   "%s window %u tgid %u: hk_procs lookup: %s", v->name, w, tgid,
		   strerror(errno)))
		return;
	SAME(start_time_ns);
	SAME(windows);
	SAME(sample_ns);
	SAME(runtime_ns);
	SAME(rss_pages);
	SAME(owned_pages);
	SAME(throttled_ns);
	SAME(trend_nr);
	SAME(trend_head);
	SAME(ev.window_ns);
	SAME(ev.cpu_pct_x100);
	SAME(ev.thread_cpu_pct_x100);
	SAME(ev.thread_queued_pct_x100);
	SAME(ev.wait_pct_x100);
	SAME(ev.thread_wait_pct_x100);
	SAME(ev.throttled_pct_x100);
	SAME(ev.minor_faults_per_s);
	SAME(ev.major_faults_per_s);
	SAME(ev.unexplained_faults_per_s);
	SAME(ev.vcsw_per_s);
	SAME(ev.ivcsw_per_s);
	SAME(ev.rss_bytes);
	SAME(ev.rss_anon_bytes);
	SAME(ev.rss_trend_ms);
	SAME(ev.rss_growth_bytes_per_s);
	SAME(ev.rss_slope_bytes_per_s);
	SAME(ev.rss_net_growth_bytes);
	SAME(ev.trend_samples);
	SAME(ev.trend_grow_pct_x100);
	SAME(ev.limit_kind);
	SAME(ev.limit_bytes);
	SAME(ev.headroom_bytes);
	SAME(ev.eta_s);
	SAME(ev.swap_bytes);
	SAME(ev.mem_stall_pct_x100);
	SAME(ev.mem_stall_tid);
	SAME(ev.thrash_stalled);
	SAME(ev.aggressor_tgid);
	/* the stall ledger: the kernel's split is classify_stall.h's */
	for (k = 0; k < HK_STALL_NR; k++)
		SAME(ev.stall_ns.ns[k]);
	check(g, comm_is(kp.comm, (const char *)sh->p.comm),
	      "%s window %u tgid %u: comm \"%.16s\", expected \"%.16s\"", v->name, w, tgid,
	      kp.comm, sh->p.comm);
}

static void run_vector(struct env *env, const struct hkv_vector *v)
{
	struct group labels, events, entries, evidence, exits, setup;
	struct hk_test_window tw;
	int idx[HK_TEST_PROCS];
	__u32 w, i, match;
	struct shadow *sh;
	int n, k;

	group_begin(&setup, "%s: reset and run", v->name);
	group_begin(&labels, "%s: labels and matches (ctx)", v->name);
	group_begin(&events, "%s: ring buffer events", v->name);
	group_begin(&entries, "%s: hk_procs vs classify.h in userspace", v->name);
	group_begin(&evidence, "%s: hand-computed evidence", v->name);
	group_begin(&exits, "%s: exits", v->name);

	memset(shadows, 0, sizeof(shadows));
	if (!reset_state(env, &setup))
		goto out;
	/* its config, to the program and to the userspace side alike */
	hkv_vector_config(v, &env->cfg);
	if (!check(&setup, !bpf_map_update_elem(env->config_fd, &(__u32){ 0 }, &env->cfg,
					       BPF_ANY),
		   "%s: write hk_config: %s", v->name, strerror(errno)))
		goto out;

	for (w = 1; w <= v->nr_windows; w++) {
		__u64 exit_start = 0;
		__u32 exit_tgid = 0;

		n = hkv_window(v, w, &tw, idx);
		if (!check(&setup, n >= 0, "%s window %u: more than %d processes", v->name,
			   w, HK_TEST_PROCS))
			goto out;

		/* the userspace side of the same window */
		if (tw.exit_tgid && (sh = shadow_find(tw.exit_tgid))) {
			exit_tgid = sh->tgid;
			exit_start = sh->p.start_time_ns;
		}
		for (i = 0; i < tw.nr_procs; i++) {
			sh = shadow_get(tw.tgid[i], tw.sample[i].start_time_ns);
			if (!check(&setup, sh != NULL, "%s window %u: shadow table full",
				   v->name, w))
				goto out;
			memcpy(sh->p.comm, tw.sample[i].comm, HK_COMM_LEN);
			if (hk_window_step(&env->cfg, &sh->p, &tw.sample[i], &match))
				hk_stall_window(&env->cfg, &sh->p.ev, &tw.sample[i].stall, 0);
		}
		if (exit_tgid && (sh = shadow_find(exit_tgid)) &&
		    sh->p.start_time_ns == exit_start)
			sh->used = 0;

		env->we.n = 0;
		if (run_window(env, &tw, &setup, v->name, w))
			goto out;
		n = ring_buffer__consume(env->rb);
		check(&events, n >= 0, "%s window %u: ring_buffer__consume: %d", v->name, w, n);

		for (i = 0; i < tw.nr_procs; i++) {
			const struct hkv_proc *p = &v->procs[idx[i]];
			const struct hkv_expect *x = hkv_expect_at(p, w);

			if (!check(&labels, x != NULL,
				   "%s window %u tgid %u: vector has no expectation",
				   v->name, w, p->tgid))
				continue;
			check(&labels, tw.label[i] == x->label,
			      "%s window %u tgid %u (%s): label %s, expected %s", v->name, w,
			      p->tgid, p->comm, hkv_label_name(tw.label[i]),
			      hkv_label_name(x->label));
			check(&labels, tw.match[i] == x->match,
			      "%s window %u tgid %u (%s): match %s, expected %s", v->name, w,
			      p->tgid, p->comm, hkv_label_name(tw.match[i]),
			      hkv_label_name(x->match));
			check_entry(env, v, w, p->tgid, &entries);
		}
		check_events(v, w, &env->we, &events);

		for (k = 0; k < HKV_MAX_EXITS && v->exits[k].window; k++) {
			__u32 tgid = v->exits[k].tgid;
			struct hk_proc kp;
			int err;

			if (v->exits[k].window != w)
				continue;
			err = bpf_map_lookup_elem(env->procs_fd, &tgid, &kp) ? -errno : 0;
			if (hkv_gone_after(v, w, tgid))
				check(&exits, err == -ENOENT,
				      "%s window %u tgid %u: after its exit: %s, expected ENOENT",
				      v->name, w, tgid, err ? strerror(-err) : "entry found");
			else	/* recycled in this window: the new process stays */
				check(&exits, !err &&
				      kp.start_time_ns == active_proc(v, tgid, w)->start_time_ns,
				      "%s window %u tgid %u: new process's entry missing after a recycled exit",
				      v->name, w, tgid);
		}
		for (k = 0; k < HKV_MAX_CHECKS && v->checks[k].window; k++) {
			const struct hkv_check *c = &v->checks[k];
			struct hk_proc kp;
			__s64 got;

			if (c->window != w)
				continue;
			if (!check(&evidence, !bpf_map_lookup_elem(env->procs_fd, &c->tgid, &kp),
				   "%s window %u tgid %u: hk_procs lookup: %s", v->name, w,
				   c->tgid, strerror(errno)))
				continue;
			got = hkv_field_get(&kp.ev, c->field);
			check(&evidence, got == c->value,
			      "%s window %u tgid %u: %s %lld, expected %lld",
			      v->name, w, c->tgid, hkv_field_name(c->field), (long long)got,
			      (long long)c->value);
		}
	}
out:
	group_end(&setup);
	group_end(&labels);
	group_end(&events);
	group_end(&entries);
	if (evidence.checks)
		group_end(&evidence);
	if (exits.checks)
		group_end(&exits);
}

/* One synthetic process for the lost-exit test: idle or a busy loop. */
static void lost_sample(struct hk_test_window *tw, __u32 i, __u32 tgid, __u32 w, int busy)
{
	struct hk_sample *s = &tw->sample[i];

	tw->tgid[i] = tgid;
	s->now_ns = HKV_T0_NS + (__u64)(w - 1) * HK_NSEC_PER_SEC;
	s->start_time_ns = tgid * HK_NSEC_PER_SEC;
	s->runtime_ns = busy ? (w - 1) * 990 * HK_NSEC_PER_MSEC : (w - 1) * HK_NSEC_PER_MSEC;
	s->thread_run_delta_ns = busy ? 990 * HK_NSEC_PER_MSEC : HK_NSEC_PER_MSEC;
	s->thread_tid = tgid;
	s->nr_threads = 1;
	snprintf(s->comm, sizeof(s->comm), "lost%u", tgid);
}

/*
 * Exits the queue could not take: hk_exits holds one exit here, and two
 * processes exit in the same window. The one lost stays in hk_procs until
 * the next window sweeps every entry that window did not meet, its
 * `exited` included (it was CPU-bound). Sweeping at the end of the window
 * that lost it would keep it: it was met in the window before.
 */
static void run_lost_exits(struct env *env)
{
	struct hk_test_window tw;
	struct hk_stats st0, st;
	struct hk_proc kp;
	struct group g;
	__u32 zero = 0, w, tgid;
	int i, found;

	group_begin(&g, "lost exits: swept in the next window");
	if (!reset_state(env, &g) ||
	    !check(&g, !bpf_map_lookup_elem(env->stats_fd, &zero, &st0), "hk_stats: %s",
		   strerror(errno)))
		goto out;
	/* 41 idle, 42 idle, 43 a busy loop: CPU-bound from window 3 */
	for (w = 1; w <= 3; w++) {
		memset(&tw, 0, sizeof(tw));
		lost_sample(&tw, 0, 41, w, 0);
		lost_sample(&tw, 1, 42, w, 0);
		lost_sample(&tw, 2, 43, w, 1);
		tw.nr_procs = 3;
		if (run_window(env, &tw, &g, "lost_exits", w))
			goto out;
	}
	check(&g, tw.label[2] == HK_CPU_BOUND, "tgid 43 after window 3: %s, expected CPU-bound",
	      hkv_label_name(tw.label[2]));
	ring_buffer__consume(env->rb);
	/* window 4: 42 and 43 exit, the queue takes one */
	memset(&tw, 0, sizeof(tw));
	lost_sample(&tw, 0, 41, 4, 0);
	tw.nr_procs = 1;
	tw.exit_tgid = 42;
	tw.exit_tgid2 = 43;
	env->we.n = 0;
	if (run_window(env, &tw, &g, "lost_exits", 4))
		goto out;
	ring_buffer__consume(env->rb);
	check(&g, !bpf_map_lookup_elem(env->stats_fd, &zero, &st) &&
	      st.exits_lost == st0.exits_lost + 1, "exits_lost %llu, expected %llu",
	      (unsigned long long)st.exits_lost, (unsigned long long)st0.exits_lost + 1);
	tgid = 42;
	check(&g, bpf_map_lookup_elem(env->procs_fd, &tgid, &kp) && errno == ENOENT,
	      "tgid 42 (exit queued) still in hk_procs after window 4");
	tgid = 43;
	check(&g, !bpf_map_lookup_elem(env->procs_fd, &tgid, &kp),
	      "tgid 43 (exit lost) already gone after window 4: nothing left to test");
	/* window 5: the sweep */
	memset(&tw, 0, sizeof(tw));
	lost_sample(&tw, 0, 41, 5, 0);
	tw.nr_procs = 1;
	env->we.n = 0;
	if (run_window(env, &tw, &g, "lost_exits", 5))
		goto out;
	ring_buffer__consume(env->rb);
	check(&g, bpf_map_lookup_elem(env->procs_fd, &tgid, &kp) && errno == ENOENT,
	      "tgid 43 (exit lost) still in hk_procs after the sweep window 5");
	tgid = 41;
	check(&g, !bpf_map_lookup_elem(env->procs_fd, &tgid, &kp),
	      "tgid 41 (alive, met in window 5) swept away");
	for (i = 0, found = 0; i < env->we.n; i++)
		found += env->we.ev[i].tgid == 43 && env->we.ev[i].from == HK_CPU_BOUND &&
			 env->we.ev[i].to == HK_EXITED;
	check(&g, found == 1 && env->we.n == 1,
	      "window 5: %d events, %d of them 43 CPU-bound -> exited; expected exactly that one",
	      env->we.n, found);
out:
	group_end(&g);
}

/*
 * A crowd: 40 busy loops in one window, more than a bounded loop's
 * HK_LOOP_TURNS_PAIRS (32) turns. Each may still turn out a Noisy
 * neighbor, so it waits for the aggressor pass; each must be CPU-bound
 * after the windows it takes, with bounded loops (-b) too. Run after the
 * hk_stats checks, which count the vectors' windows only.
 */
static void run_crowd(struct env *env)
{
	struct hk_test_window tw;
	struct hk_stats st0, st;
	struct hk_proc kp;
	struct group g;
	__u32 zero = 0, w, k, tgid, nr_busy = 0, first = 0;

	group_begin(&g, "a crowd: 40 busy processes, each CPU-bound");
	if (!reset_state(env, &g) ||
	    !check(&g, !bpf_map_lookup_elem(env->stats_fd, &zero, &st0), "hk_stats: %s",
		   strerror(errno)))
		goto out;
	for (w = 1; w <= 5; w++) {
		memset(&tw, 0, sizeof(tw));
		lost_sample(&tw, 0, 1000, w, 1);
		tw.nr_procs = 1;
		tw.copies = 40;
		if (run_window(env, &tw, &g, "crowd", w))
			goto out;
		ring_buffer__consume(env->rb);
	}
	for (k = 0; k < 40; k++) {
		tgid = 1000 + k;
		if (!bpf_map_lookup_elem(env->procs_fd, &tgid, &kp) &&
		    kp.hyst.label == HK_CPU_BOUND)
			nr_busy++;
		else if (!first)
			first = tgid;
	}
	check(&g, nr_busy == 40, "%u of 40 busy processes CPU-bound after 5 windows "
	      "(the first not: %u, %s loops)", nr_busy, first,
	      bounded_loops ? "bounded" : "bpf_loop");
	/* past the cap, labelled at once: counted as over it */
	if (bounded_loops &&
	    check(&g, !bpf_map_lookup_elem(env->stats_fd, &zero, &st), "hk_stats: %s",
		  strerror(errno)))
		check(&g, st.defer_overflows - st0.defer_overflows == 4 * 8,
		      "defer_overflows +%llu, expected +32 (8 a window after the first)",
		      (unsigned long long)(st.defer_overflows - st0.defer_overflows));
	reset_state(env, &g);
out:
	group_end(&g);
}

#include "room.inc"

/* struct sched_info with the members named in fields (NULL-terminated):
 * a stand-in kernel BTF */
static struct btf *fake_vmlinux(const char *const *fields)
{
	struct btf *btf = btf__new_empty();
	int u64, n = 0, i;

	if (!btf)
		return NULL;
	u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	while (fields[n])
		n++;
	if (btf__add_struct(btf, "sched_info", 8 * n) < 0)
		goto fail;
	for (i = 0; i < n; i++)
		if (btf__add_field(btf, fields[i], u64, 64 * i, 0))
			goto fail;
	return btf;
fail:
	btf__free(btf);
	return NULL;
}

/*
 * The fields checked before load (user/kernel/kfields.h): this kernel's BTF has
 * them; a CONFIG_SCHED_INFO=n kernel's empty struct sched_info, or one
 * without last_queued, gets the one-line "missing" reason.
 */
static void run_kfields(void)
{
	static const char *const all[] = { "pcount", "run_delay", "last_arrival",
					   "last_queued", NULL };
	static const char *const empty[] = { NULL };
	static const char *const no_queued[] = { "pcount", "run_delay", "last_arrival", NULL };
	static const struct {
		const char *const *fields;
		int rc;
		const char *text;
	} rows[] = {
		{ all, 0, "" },
		{ empty, -1, "missing run-queue statistics: the kernel's struct sched_info "
			     "has no run_delay (built without CONFIG_SCHED_INFO" },
		{ no_queued, -1, "has no last_queued" },
	};
	struct btf *btf = btf__load_vmlinux_btf();
	struct group g;
	char err[256];
	size_t i;
	int rc;

	group_begin(&g, "kernel fields checked before load (CONFIG_SCHED_INFO)");
	err[0] = 0;
	check(&g, btf && !hk_kfields__check(btf, err, sizeof(err)),
	      "this kernel's BTF: %s", btf ? err : "cannot load it");
	btf__free(btf);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		btf = fake_vmlinux(rows[i].fields);
		if (!check(&g, btf != NULL, "building a stand-in BTF: %s", strerror(errno)))
			break;
		err[0] = 0;
		rc = hk_kfields__check(btf, err, sizeof(err));
		check(&g, rc == rows[i].rc && strstr(err, rows[i].text) && !strchr(err, '\n'),
		      "row %zu: rc %d, \"%s\"; expected %d, \"%s\"", i, rc, err, rows[i].rc,
		      rows[i].text);
		btf__free(btf);
	}
	group_end(&g);
}

int main(int argc, char **argv)
{
	struct env env = {};
	struct group g;
	struct hk_stats st;
	__u32 zero = 0;
	size_t i;
	int err;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "-b")) {
			bounded_loops = 1;
		} else {
			fprintf(stderr, "usage: prog-test [-v] [-b]\n");
			return 2;
		}
	}
	libbpf_set_print(libbpf_print);
	setvbuf(stdout, NULL, _IOLBF, 0);
	hkv_config(&env.cfg);

	group_begin(&g, "open, load, configure (no timer, nothing attached)");
	if (!check(&g, geteuid() == 0, "needs root (BPF_PROG_TEST_RUN), euid is %u",
		   geteuid()))
		goto setup_done;
	env.skel = hotspot_bpf__open();
	if (!check(&g, env.skel != NULL, "hotspot_bpf__open: %s", strerror(errno)))
		goto setup_done;
	/* -b: the bounded loops of kernels without bpf_loop (5.15, 5.16) */
	env.skel->rodata->hk_bounded_loops = bounded_loops;
	/* the walk must not run: neither arming program is even loaded */
	bpf_program__set_autoload(env.skel->progs.hk_arm, false);
	bpf_program__set_autoload(env.skel->progs.hk_arm_nowq, false);
	/* nor the table driver's (its seed walks with the open-coded iterator:
	 * 6.7+; its arm is hk_arm's; its hooks keep task kptrs: 6.10+, and a
	 * tag the tool's loader gives the BTF) */
	bpf_program__set_autoload(env.skel->progs.hk_arm_table, false);
	bpf_program__set_autoload(env.skel->progs.hk_table_seed, false);
	bpf_program__set_autoload(env.skel->progs.hk_fork, false);
	bpf_program__set_autoload(env.skel->progs.hk_exit_table, false);
	bpf_map__set_max_entries(env.skel->maps.hk_leaders, 1);
	/* one queued exit at a time: the vectors queue one per window, the
	 * lost-exit test two */
	bpf_map__set_max_entries(env.skel->maps.hk_exits, 1);
	err = hotspot_bpf__load(env.skel);
	if (!check(&g, !err, "hotspot_bpf__load: %s (rerun with -v for the verifier log)",
		   strerror(-err)))
		goto setup_done;
	env.prog_fd = bpf_program__fd(env.skel->progs.hk_test_win);
	env.procs_fd = bpf_map__fd(env.skel->maps.hk_procs);
	env.exits_fd = bpf_map__fd(env.skel->maps.hk_exits);
	env.stats_fd = bpf_map__fd(env.skel->maps.hk_stats);
	env.config_fd = bpf_map__fd(env.skel->maps.hk_config);
	check(&g, bpf_map__value_size(env.skel->maps.hk_procs) == sizeof(struct hk_proc),
	      "hk_procs value size %u, expected sizeof(struct hk_proc) %zu",
	      bpf_map__value_size(env.skel->maps.hk_procs), sizeof(struct hk_proc));
	check(&g, bpf_map__value_size(env.skel->maps.hk_exits) <= 8 * sizeof(__u64),
	      "hk_exits value size %u, more than the %zu bytes drained into",
	      bpf_map__value_size(env.skel->maps.hk_exits), 8 * sizeof(__u64));
	err = bpf_map_update_elem(env.config_fd, &zero, &env.cfg, BPF_ANY);
	if (!check(&g, !err, "write hk_config: %s", strerror(errno)))
		goto setup_done;
	env.rb = ring_buffer__new(bpf_map__fd(env.skel->maps.hk_events), on_event, &env.we,
				  NULL);
	check(&g, env.rb != NULL, "ring_buffer__new: %s", strerror(errno));
setup_done:
	group_end(&g);
	if (g.fails)
		goto cleanup;

	run_kfields();
	for (i = 0; i < HKV_NR_VECTORS; i++)
		run_vector(&env, &hkv_vectors[i]);
	/* the tests below run under the vectors' common config */
	hkv_config(&env.cfg);
	bpf_map_update_elem(env.config_fd, &zero, &env.cfg, BPF_ANY);
	run_lost_exits(&env);

	group_begin(&g, "hk_stats");
	err = bpf_map_lookup_elem(env.stats_fd, &zero, &st);
	if (check(&g, !err, "hk_stats lookup: %s", strerror(errno))) {
		check(&g, st.events_emitted == env.we.total,
		      "events_emitted %llu, events received %llu",
		      (unsigned long long)st.events_emitted, (unsigned long long)env.we.total);
		check(&g, st.events_dropped == 0, "events_dropped %llu, expected 0",
		      (unsigned long long)st.events_dropped);
		check(&g, st.procs_untracked == 0, "procs_untracked %llu, expected 0",
		      (unsigned long long)st.procs_untracked);
		check(&g, st.defer_overflows == 0, "defer_overflows %llu, expected 0",
		      (unsigned long long)st.defer_overflows);
		/* the walk never ran */
		check(&g, st.windows == 0 && st.threads_walked == 0,
		      "windows %llu, threads_walked %llu: the walk ran",
		      (unsigned long long)st.windows, (unsigned long long)st.threads_walked);
	}
	group_end(&g);
	run_crowd(&env);
	run_room(&env);

cleanup:
	ring_buffer__free(env.rb);
	hotspot_bpf__destroy(env.skel);
	printf("%d passed, %d failed\n", nr_passed, nr_failed);
	return nr_failed ? 1 : 0;
}
