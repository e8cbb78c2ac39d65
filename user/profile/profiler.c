// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profiler.c - the profiles running, and the BPF object they share.
 *
 * The object (bpf/profile.bpf.c) is loaded and attached with the first
 * profile and destroyed with the last one: with nothing profiled, no
 * program of it runs and no perf event ticks.
 *
 * A slot's life: sampling (its TGID in the object's hk_prof_tgid), then
 * its counts and stacks are taken out of the maps (profile_stacks.c) and
 * a child names and writes them (profile_write.c, worker.c) while the
 * slot is held, then the slot is free. Holding it while writing bounds
 * the children to HK_PROF_TARGETS, and the per-uid cap covers them too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/clock.h"
#include "lib/pidref.h"
#include "lib/workload.h"
#include "profile_object.h"
#include "profile_share.h"
#include "profile_stacks.h"
#include "profile_target.h"
#include "profile_write.h"
#include "profiler.h"
#include "worker.h"
#include "shared/units.h"

/* a child writing is looked at this often */
#define WRITER_POLL_MS 50
/* the shared maps' owners are counted at most this often, while they lose */
#define FLOOD_CHECK_NS (1 * HK_NSEC_PER_SEC)

enum slot_state {
	SLOT_FREE = 0,
	SLOT_SAMPLING,
	SLOT_WRITING,
};

struct profile {
	int state;			/* enum slot_state */
	__u32 pid, uid;			/* uid: its owner (owner.h) */
	const char *label;
	__u64 start_ns, end_ns;		/* CLOCK_MONOTONIC */
	__u64 lost0;			/* the object's losses at its start */
	__u64 mem_events0, mem_bytes0;	/* and its memory events */
	struct hk_pidref ref;		/* the process, as of the event */
	struct hk_profile_syms *syms;	/* its address space, as of the start */
	struct hk_profile_stacks stacks;	/* taken at its end, for the child */
	struct hk_worker writer;
	struct hk_profile_result r;
};

struct hk_profiler {
	struct hk_profile_object obj;
	__u64 losses_seen, flood_checked_ns;
	struct profile slot[HK_PROF_TARGETS];
	hk_profile_done_fn done;
	void *ctx;
};

struct hk_profiler *hk_profiler__new(hk_profile_done_fn done, void *ctx)
{
	struct hk_profiler *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		p->slot[i].ref.pidfd = -1;
	p->done = done;
	p->ctx = ctx;
	return p;
}

static int sampling(const struct hk_profiler *p)
{
	int i, n = 0;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		n += p->slot[i].state == SLOT_SAMPLING;
	return n;
}

static int sampling_memory(const struct hk_profiler *p)
{
	int i, n = 0;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		n += p->slot[i].state == SLOT_SAMPLING && p->slot[i].r.kind == HK_PROF_MEMORY;
	return n;
}

int hk_profiler__count(const struct hk_profiler *p)
{
	int i, n = 0;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		n += p->slot[i].state != SLOT_FREE;
	return n;
}

const char *hk_profiler__comm(const struct hk_profiler *p, __u32 pid)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (pid && p->slot[i].state != SLOT_FREE && p->slot[i].pid == pid)
			return p->slot[i].r.comm;
	return NULL;
}

int hk_profiler__active(const struct hk_profiler *p, __u32 pid)
{
	const struct profile *s;
	int i;

	for (i = 0; pid && i < HK_PROF_TARGETS; i++) {
		s = &p->slot[i];
		if (s->state != SLOT_FREE && s->pid == pid)
			return 1;
		/* its own child, busy naming frames, may look CPU-bound */
		if (s->state == SLOT_WRITING && s->writer.pid == (pid_t)pid)
			return 1;
	}
	return 0;
}

/* May a profile of pid's owner take a slot (profile_share.h)? 0, or -1
 * with why in err. */
static int share(const struct hk_profiler *p, __u32 pid, __u64 start_boottime_ns,
		 __u32 kind, __u32 *owner, char *err, size_t err_len)
{
	struct hk_prof_holder h[HK_PROF_TARGETS];
	struct hk_workload w;
	int i;

	hk_workload__of_pid(&w, pid, start_boottime_ns);
	if (!w.owner_known) {
		snprintf(err, err_len, "pid %u: its owner cannot be read (gone?)", pid);
		return -1;
	}
	*owner = w.owner_uid;
	for (i = 0; i < HK_PROF_TARGETS; i++) {
		h[i].used = p->slot[i].state != SLOT_FREE;
		h[i].owner = p->slot[i].uid;
	}
	switch (hk_prof_share__admit(h, HK_PROF_TARGETS, *owner,
				     !*owner || w.system || kind == HK_PROF_MEMORY)) {
	case HK_PROF_SHARE_OK:
		return 0;
	case HK_PROF_SHARE_FULL:
		snprintf(err, err_len, "%d profiles run already (the most at once)",
			 HK_PROF_TARGETS);
		break;
	case HK_PROF_SHARE_OWNER:
		snprintf(err, err_len, "uid %u has %d profiles already (at most %d of the %d "
			 "at once per uid, the owner's for a user namespace's)", *owner,
			 HK_PROF_PER_UID, HK_PROF_PER_UID, HK_PROF_TARGETS);
		break;
	case HK_PROF_SHARE_RESERVE:
		snprintf(err, err_len, "the last %d of the %d slots are kept for uid 0, system "
			 "services and OOM risk", HK_PROF_RESERVED, HK_PROF_TARGETS);
		break;
	}
	return -1;
}

static void slot_free(struct profile *s)
{
	hk_profile_syms__close(s->syms);
	hk_profile_stacks__free(&s->stacks);
	hk_pidref__close(&s->ref);
	memset(s, 0, sizeof(*s));
	s->ref.pidfd = -1;
}

int hk_profiler__start(struct hk_profiler *p, __u32 pid, __u64 start_boottime_ns,
		       const char *label, __u32 kind, __u64 duration_ns, const char *dir,
		       char *prefix, size_t prefix_len, char *err, size_t err_len)
{
	struct profile *s = NULL;
	int i, n;

	if (kind != HK_PROF_ON_CPU && kind != HK_PROF_MEMORY) {
		snprintf(err, err_len, "no such profile kind %u", kind);
		return -1;
	}
	if (hk_profiler__active(p, pid)) {
		snprintf(err, err_len, "pid %u is being profiled already", pid);
		return -1;
	}
	for (i = 0; i < HK_PROF_TARGETS && !s; i++)
		if (p->slot[i].state == SLOT_FREE)
			s = &p->slot[i];
	if (!s) {
		snprintf(err, err_len, "%d profiles run already (the most at once)",
			 HK_PROF_TARGETS);
		return -1;
	}
	n = hk_pidref__open(&s->ref, pid, start_boottime_ns);
	if (n) {
		snprintf(err, err_len, "pid %u: %s", pid, hk_pidref__strerror(n));
		goto fail;
	}
	if (share(p, pid, start_boottime_ns, kind, &s->uid, err, err_len))
		goto fail;
	n = hk_profile__prefix(s->r.prefix, sizeof(s->r.prefix), dir, pid, label, time(NULL));
	if (n < 0 || (size_t)n >= sizeof(s->r.prefix)) {
		snprintf(err, err_len, "--profile-dir %s: path too long", dir);
		goto fail;
	}
	s->syms = hk_profile_syms__open(pid, &s->ref, err, err_len);
	if (!s->syms)
		goto fail;
	if (!p->obj.skel && hk_profile_object__up(&p->obj, err, err_len))
		goto fail;
	if (kind == HK_PROF_MEMORY && hk_profile_object__memory(&p->obj, 1, err, err_len)) {
		if (!sampling(p))
			hk_profile_object__down(&p->obj);
		goto fail;
	}
	s->state = SLOT_SAMPLING;
	s->r.kind = kind;
	s->pid = pid;
	s->label = label;
	s->r.pid = pid;
	s->r.label = label;
	snprintf(s->r.comm, sizeof(s->r.comm), "%s", hk_profile_syms__comm(s->syms));
	s->start_ns = mono_ns();
	s->end_ns = s->start_ns + duration_ns;
	s->lost0 = hk_profile_object__losses(&p->obj);
	hk_profile_object__mem_stats(&p->obj, &s->mem_events0, &s->mem_bytes0);
	hk_profile_object__target(&p->obj, (int)(s - p->slot), pid, kind);
	snprintf(prefix, prefix_len, "%s", s->r.prefix);
	return 0;
fail:
	slot_free(s);
	return -1;
}

int hk_profiler__timeout_ms(const struct hk_profiler *p)
{
	__u64 now = mono_ns(), next = 0, ms;
	int i, writing = 0;

	for (i = 0; i < HK_PROF_TARGETS; i++) {
		if (p->slot[i].state == SLOT_WRITING)
			writing = 1;
		else if (p->slot[i].state == SLOT_SAMPLING &&
			 (!next || p->slot[i].end_ns < next))
			next = p->slot[i].end_ns;
	}
	if (!next)
		return writing ? WRITER_POLL_MS : -1;
	if (next <= now)
		return 0;
	/* its process may exit before: look again every 200 ms */
	ms = (next - now + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC;
	if (ms > 200)
		ms = 200;
	if (writing && ms > WRITER_POLL_MS)
		ms = WRITER_POLL_MS;
	return (int)ms;
}

/* In the child: name the frames, write the files, say how it went. */
static int write_job(void *arg, void *msg, size_t msg_len)
{
	struct profile *s = arg;

	hk_profile__render(&s->stacks, s->syms, &s->r, msg);
	return 0;
}

static void report(struct hk_profiler *p, struct profile *s)
{
	struct hk_profile_result r = s->r;

	slot_free(s);
	if (p->done)
		p->done(p->ctx, &r);
}

/* "a; b" of two clauses, either maybe empty */
static void add_cut(char *cut, size_t len, const char *more)
{
	size_t at = strlen(cut);

	if (more[0])
		snprintf(cut + at, len - at, "%s%s", at ? "; " : "", more);
}

/* Sampling ends: the stacks out of the maps, the object down with the
 * last sampler, and a child to name and write them. */
static void end_sampling(struct hk_profiler *p, struct profile *s, int exited)
{
	const int keep[] = { s->ref.pidfd };
	const struct hk_worker_limits lim = {
		.name = "hk-symbolize",
		.as_bytes = HK_PROF_WRITER_AS_BYTES,
		.budget_ns = HK_PROF_WRITER_BUDGET_S * HK_NSEC_PER_SEC,
		.nice = 10,
		.keep_fds = keep,
		.nkeep = 1,
	};
	__u64 events, bytes;
	char err[200];
	int ret;

	hk_profile_object__target(&p->obj, (int)(s - p->slot), 0, HK_PROF_ON_CPU);
	s->r.exited = exited;
	s->r.duration_ns = mono_ns() - s->start_ns;
	s->r.lost = hk_profile_object__losses(&p->obj) - s->lost0;
	/* every memory profile's events since its start: exact with one */
	hk_profile_object__mem_stats(&p->obj, &events, &bytes);
	s->r.mem_events = events - s->mem_events0;
	ret = hk_profile_stacks__take(&s->stacks, hk_profile_object__counts_fd(&p->obj),
				      hk_profile_object__stacks_fd(&p->obj),
				      hk_profile_object__tops_fd(&p->obj), s->pid);
	s->state = SLOT_WRITING;
	if (!sampling_memory(p))
		hk_profile_object__memory(&p->obj, 0, err, sizeof(err));
	if (!sampling(p))
		hk_profile_object__down(&p->obj);
	if (ret) {
		snprintf(s->r.err, sizeof(s->r.err), "out of memory");
		report(p, s);
		return;
	}
	hk_profile__tally(&s->stacks, &s->r);
	if (hk_worker__start(&s->writer, &lim, write_job, s, sizeof(struct hk_profile_outcome),
			     err, sizeof(err))) {
		snprintf(s->r.err, sizeof(s->r.err), "cannot start the child that writes it: %s",
			 err);
		report(p, s);
		return;
	}
	/* the child has its copy */
	hk_profile_stacks__free(&s->stacks);
	hk_profile_syms__close(s->syms);
	s->syms = NULL;
}

/* A child that ended: its outcome into the result, reported. */
static void writer_poll(struct hk_profiler *p, struct profile *s, int wait)
{
	struct hk_profile_outcome out;
	char err[200];
	int r;

	memset(&out, 0, sizeof(out));
	r = wait ? hk_worker__wait(&s->writer, &out, sizeof(out), err, sizeof(err)) :
		   hk_worker__poll(&s->writer, &out, sizeof(out), err, sizeof(err));
	if (!r)
		return;
	if (r > 0) {
		s->r.written = out.written;
		out.err[sizeof(out.err) - 1] = out.cut[sizeof(out.cut) - 1] = '\0';
		snprintf(s->r.err, sizeof(s->r.err), "%s", out.err);
		add_cut(s->r.cut, sizeof(s->r.cut), out.cut);
	} else {
		snprintf(s->r.err, sizeof(s->r.err), "naming its frames and writing: %s", err);
	}
	report(p, s);
}

/*
 * One target must not starve the others of the maps they share: when the
 * maps lose samples or stacks while several profiles sample, the one that
 * holds more than its share of the keys ends now, written with what it
 * has; its stacks are freed for the others.
 */
static void flood_check(struct hk_profiler *p, __u64 now)
{
	__u32 tgids[HK_PROF_TARGETS];
	__u64 keys[HK_PROF_TARGETS], losses = hk_profile_object__losses(&p->obj);
	int i, worst = -1;

	if (losses == p->losses_seen || now - p->flood_checked_ns < FLOOD_CHECK_NS ||
	    sampling(p) < 2)
		return;
	p->losses_seen = losses;
	p->flood_checked_ns = now;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		tgids[i] = p->slot[i].state == SLOT_SAMPLING ? p->slot[i].pid : 0;
	if (hk_profile_stacks__keys_per_tgid(hk_profile_object__counts_fd(&p->obj), tgids,
					     HK_PROF_TARGETS, keys))
		return;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (tgids[i] && keys[i] > HK_PROF_KEYS / HK_PROF_TARGETS &&
		    (worst < 0 || keys[i] > keys[worst]))
			worst = i;
	if (worst < 0)
		return;
	snprintf(p->slot[worst].r.cut, sizeof(p->slot[worst].r.cut),
		 "ended early: its %llu stacks filled the maps %d profiles share",
		 (unsigned long long)keys[worst], HK_PROF_TARGETS);
	end_sampling(p, &p->slot[worst], 0);
}

void hk_profiler__poll(struct hk_profiler *p)
{
	__u64 now = mono_ns();
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++) {
		struct profile *s = &p->slot[i];

		if (s->state == SLOT_WRITING)
			writer_poll(p, s, 0);
		else if (s->state == SLOT_SAMPLING && hk_profile_target__gone(&s->ref))
			end_sampling(p, s, 1);
		else if (s->state == SLOT_SAMPLING && now >= s->end_ns)
			end_sampling(p, s, 0);
	}
	if (p->obj.skel)
		flood_check(p, now);
}

void hk_profiler__stop(struct hk_profiler *p, __u32 pid)
{
	int i;

	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (pid && p->slot[i].state == SLOT_SAMPLING && p->slot[i].pid == pid)
			end_sampling(p, &p->slot[i], 1);
}

void hk_profiler__stop_all(struct hk_profiler *p)
{
	int i, any = sampling(p);

	for (i = 0; i < HK_PROF_TARGETS; i++) {
		if (p->slot[i].state == SLOT_SAMPLING)
			end_sampling(p, &p->slot[i], 0);
		else if (!any && p->slot[i].state == SLOT_WRITING)
			hk_worker__kill(&p->slot[i].writer);
	}
}

void hk_profiler__free(struct hk_profiler *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (p->slot[i].state == SLOT_SAMPLING)
			end_sampling(p, &p->slot[i], 0);
	/* each child within its budget */
	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (p->slot[i].state == SLOT_WRITING)
			writer_poll(p, &p->slot[i], 1);
	hk_profile_object__down(&p->obj);
	free(p);
}
