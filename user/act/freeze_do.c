// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_do.c - carry out: a freeze made, and the freezes a running tool
 * must end.
 *
 * A freeze is recorded first (freeze_record.c): one a crash could leave
 * with nobody to end it is not made. Then frozen (freeze_cgroup.c), then
 * the uid rule read again: a process of another user that joined in
 * between gets the cgroup thawed at once.
 *
 * A freeze lasts --freeze-max at most ([freeze] max, 10 minutes by
 * default), then the tool thaws it and says so: a cgroup stopped by
 * mistake resumes by itself, and one stopped for good reason has been
 * looked at. The tool has no periodic wake-up of its own: the event loop
 * waits on the first freeze's time (hk_freeze__timeout_ms), as it waits on
 * a profile's end.
 *
 * What a tool killed by SIGKILL, a crash or the OOM killer froze is in
 * its records (freeze_record.c). At its first tick, a new tool reads them:
 * a freeze whose time is up is thawed, one whose time is not is taken
 * over (its record now names this tool) and said in a line, so that it
 * is thawed on time too. A record of a tool that still runs is that
 * tool's. A clean exit thaws whatever is held.
 *
 * Before a thaw the cgroup is checked to be the one recorded (its id): a
 * cgroup removed and made again under the same name is somebody else's.
 *
 * Every HK_FREEZE_CHECK_MS while freezes are held, each is looked at: one
 * found thawed (`hotspot-k thaw`, an echo by root or by the cgroup's
 * owner) is let go at once, said in a line, its record dropped, so that a
 * cgroup its owner thaws holds no slot; its cgroup is not frozen again in
 * that OOM-risk episode (freeze_memory.c). One found gone is let go too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "freeze_cgroup.h"
#include "freeze_do.h"
#include "freeze_memory.h"
#include "freeze_owners.h"
#include "freeze_record.h"
#include "freeze_report.h"
#include "lib/escape.h"
#include "lib/log.h"
#include "lib/msg.h"

/* The record of the freeze about to be made. */
static void record(const struct hk_freezer *f, const struct hk_event *e,
		   const struct hk_freeze_cg *cg, __u32 uid, struct hk_freeze_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->hier = cg->hier;
	rec->id = cg->id;
	snprintf(rec->dir, sizeof(rec->dir), "%s", cg->dir);
	snprintf(rec->cgroup, sizeof(rec->cgroup), "%s", cg->rel);
	rec->pid = e->tgid;
	rec->start_ns = e->start_boottime_ns;
	rec->uid = uid;
	memcpy(rec->comm, e->comm, hk_comm__len(e->comm));
	rec->since_boot_ms = hk_freeze__boot_ms();
	rec->until_boot_ms = rec->since_boot_ms + f->max_s * 1000;
	rec->since_unix_s = hk_freeze__unix_s();
	rec->until_unix_s = rec->since_unix_s + (__s64)f->max_s;
	rec->by_pid = f->self_pid;
	rec->by_start = f->self_start;
}

void hk_freeze_do__freeze(struct hk_freezer *f, const struct hk_event *e,
			  struct hk_freeze_cg *cg, __u32 uid, struct hk_freeze_result *r)
{
	char why[HK_FREEZE_WHY_MAX], err[512];
	struct hk_freeze_rec rec;
	__u64 ms;
	int done, put;

	r->outcome = HK_FREEZE_FAILED;
	if (hk_freeze_held__dir(f, why, sizeof(why))) {
		snprintf(r->why, sizeof(r->why), "cannot record it, to thaw it after a crash: "
			 "%.*s", (int)sizeof(r->why) - 64, why);
		return;
	}
	record(f, e, cg, uid, &rec);
	put = hk_freeze_record__put(&f->dir, &rec);
	if (put) {
		snprintf(r->why, sizeof(r->why), "cannot record it, to thaw it after a crash "
			 "(%s): %s", f->rundir, strerror(-put));
		return;
	}
	done = hk_freeze__set(cg, true, HK_FREEZE_LOOP_WAIT_MS, &r->settle_ms, r->why,
			      sizeof(r->why));
	if (done < 0) {
		hk_freeze_record__drop(&f->dir, rec.hier, rec.id);
		return;
	}
	/* someone of another user moved in while we looked: not ours */
	if (hk_freeze_owners__check(cg->fd, cg->rel, f->proc, uid, why, sizeof(why))) {
		r->outcome = HK_FREEZE_REFUSED;
		hk_freeze_recent__put(f, cg, uid, why);
		if (hk_freeze__set(cg, false, HK_FREEZE_LOOP_WAIT_MS, &ms, err, sizeof(err)) > 0) {
			snprintf(r->why, sizeof(r->why), "%.*s (thawed again at once)",
				 (int)sizeof(r->why) - 32, why);
			hk_freeze_record__drop(&f->dir, rec.hier, rec.id);
		} else {
			/* still frozen, and recorded: held, to be thawed on time */
			r->outcome = HK_FREEZE_FAILED;
			snprintf(r->why, sizeof(r->why), "%.*s; thawing it again failed (%s): "
				 "thawed when its time is up", (int)sizeof(r->why) - 640, why, err);
			hk_freeze_held__add(f, &rec);
		}
		return;
	}
	hk_freeze_held__add(f, &rec);
	r->max_s = f->max_s;
	r->outcome = done > 0 ? HK_FREEZE_FROZEN : HK_FREEZE_PENDING;
}

int hk_freeze__timeout_ms(const struct hk_freezer *f)
{
	__u64 now, first = ~0ULL;
	unsigned int i;

	if (!f->looked)
		return 0;
	if (!f->nr_held)
		return -1;
	/* the next look at the freezes held: thawed by hand? */
	first = f->check_ms;
	for (i = 0; i < f->nr_held; i++)
		if (f->held[i].until_boot_ms < first)
			first = f->held[i].until_boot_ms;
	now = hk_freeze__boot_ms();
	if (first <= now)
		return 0;
	/* epoll's int: a day at most is far below INT_MAX ms */
	return (int)(first - now);
}

/* Say the line about rec's end. */
static void say_end(struct hk_freezer *f, const struct hk_freeze_rec *rec,
		    enum hk_freeze_end end, const char *why, int json,
		    const struct hk_format_ctx *ctx, hk_freeze_say_fn *say, void *arg)
{
	struct hk_freeze_now now;
	int n;

	hk_freeze__now(&now);
	n = hk_freeze__format_end(f->line, HK_FREEZE_LINE_MAX, rec, end, why, &now, json, ctx);

	if (n > 0)
		say(arg, hk_freeze__end_priority(end), f->line, (size_t)n);
}

/*
 * Thaw rec's cgroup and drop its record, waiting wait_ms at most: 1
 * thawed, 0 nothing to thaw (the cgroup is gone, or thawed already: by
 * hand), -1 failed (why; the record stays, for `thaw --all` and status).
 */
static int thaw_rec(struct hk_freezer *f, const struct hk_freeze_rec *rec, int wait_ms,
		    char *why, size_t why_len)
{
	struct hk_freeze_cg cg;
	__u64 settle_ms;
	int e, done = 0;

	e = hk_freeze__open_rec(rec, &cg, why, why_len);
	if (e == -ENOENT)
		goto drop;
	if (e)
		return -1;
	e = hk_freeze__is_frozen(&cg, why, why_len);
	if (e > 0)
		e = hk_freeze__set(&cg, false, wait_ms, &settle_ms, why, why_len);
	hk_freeze__close(&cg);
	if (e < 0 || (e == 0 && why[0]))
		return -1;
	done = e;
drop:
	if (f->dir.fd >= 0)
		hk_freeze_record__drop(&f->dir, rec->hier, rec->id);
	return done;
}

/* 1 rec's cgroup is still frozen, 0 it is thawed, -ENOENT gone, -1 why. */
static int still_frozen(const struct hk_freeze_rec *rec, char *why, size_t why_len)
{
	struct hk_freeze_cg cg;
	int e;

	e = hk_freeze__open_rec(rec, &cg, why, why_len);
	if (e == -ENOENT)
		return e;
	if (e)
		return -1;
	e = hk_freeze__is_frozen(&cg, why, why_len);
	hk_freeze__close(&cg);
	return e;
}

/* The records a tool that is gone left: thawed when due, else taken over. */
static void look_at_records(struct hk_freezer *f, int json, const struct hk_format_ctx *ctx,
			    hk_freeze_say_fn *say, void *arg)
{
	struct hk_freeze_rec *recs, *rec;
	char why[HK_FREEZE_WHY_MAX], bad_name[64];
	unsigned int i, n, bad;
	struct hk_safedir d;
	__u64 now = hk_freeze__boot_ms();
	int e;

	if (hk_freeze_record__list(f->rundir, &d, &recs, &n, &bad, bad_name, sizeof(bad_name),
				   why, sizeof(why))) {
		hk_log__print(HK_LOG_ERR, "cannot read the freezes recorded in %s: %s\n",
			      f->rundir, why);
		return;
	}
	if (bad)
		hk_log__print(HK_LOG_WARNING, "%s/%s%s: not a freeze record: left as it is\n",
			      f->rundir, bad_name, bad > 1 ? " (and others)" : "");
	/* records found: the directory is there, and kept for the drops */
	if (d.fd >= 0 && f->dir.fd < 0)
		f->dir = d;
	else
		hk_safefile__dir_close(&d);
	for (i = 0; i < n; i++) {
		rec = &recs[i];
		if (hk_freeze_record__holder_runs(rec) || hk_freeze_held__find(f, rec->hier, rec->id))
			continue;
		why[0] = '\0';
		if (rec->until_boot_ms <= now) {
			e = thaw_rec(f, rec, HK_FREEZE_LOOP_WAIT_MS, why, sizeof(why));
			if (e) {
				say_end(f, rec, e > 0 ? HK_FREEZE_END_LEFT : HK_FREEZE_END_FAILED,
					why, json, ctx, say, arg);
				f->thawed += e > 0;
			}
			continue;
		}
		/* not due: still frozen? then ours to end, on time */
		e = still_frozen(rec, why, sizeof(why));
		if (!e || e == -ENOENT) {
			/* gone, or thawed by hand: nothing left to end */
			hk_freeze_record__drop(&f->dir, rec->hier, rec->id);
			continue;
		}
		if (e > 0 && f->nr_held == HK_FREEZE_HELD_MAX)
			snprintf(why, sizeof(why), "%u freezes are held already", f->nr_held);
		if (e < 0 || f->nr_held == HK_FREEZE_HELD_MAX) {
			say_end(f, rec, HK_FREEZE_END_FAILED, why, json, ctx, say, arg);
			continue;
		}
		rec->by_pid = f->self_pid;
		rec->by_start = f->self_start;
		e = hk_freeze_record__put(&f->dir, rec);
		if (e) {
			snprintf(why, sizeof(why), "cannot take its record over (%s/freeze.*): %s",
				 f->rundir, strerror(-e));
			say_end(f, rec, HK_FREEZE_END_FAILED, why, json, ctx, say, arg);
			continue;
		}
		hk_freeze_held__add(f, rec);
		say_end(f, rec, HK_FREEZE_END_TAKEN, NULL, json, ctx, say, arg);
	}
	free(recs);
}

/*
 * End rec, a freeze just taken out of f->held, if it is still this tool's:
 * thawed, and said with end (or FAILED). `thaw` by hand dropped its record,
 * or `thaw --all` did: then it is nobody's to end any more.
 */
static void end_held(struct hk_freezer *f, const struct hk_freeze_rec *rec,
		     enum hk_freeze_end end, int wait_ms, int json, const struct hk_format_ctx *ctx,
		     hk_freeze_say_fn *say, void *arg)
{
	char why[HK_FREEZE_WHY_MAX];
	struct hk_freeze_rec now;
	int e;

	if (f->dir.fd < 0 || hk_freeze_record__get(&f->dir, rec->hier, rec->id, &now, why,
						   sizeof(why)) ||
	    now.by_pid != f->self_pid || now.by_start != f->self_start)
		return;
	why[0] = '\0';
	e = thaw_rec(f, rec, wait_ms, why, sizeof(why));
	if (!e)
		return;
	f->thawed += e > 0;
	say_end(f, rec, e > 0 ? end : HK_FREEZE_END_FAILED, why, json, ctx, say, arg);
}

/*
 * Every HK_FREEZE_CHECK_MS: a freeze held found thawed, not by this tool,
 * is let go (said, its record dropped, its cgroup remembered: a thaw by
 * hand wins); one whose cgroup is gone is let go quietly.
 */
static void check_held(struct hk_freezer *f, int json, const struct hk_format_ctx *ctx,
		       hk_freeze_say_fn *say, void *arg)
{
	char why[HK_FREEZE_WHY_MAX];
	struct hk_freeze_rec rec;
	unsigned int i;
	__u64 now = hk_freeze__boot_ms();
	int e;

	if (now < f->check_ms)
		return;
	f->check_ms = now + HK_FREEZE_CHECK_MS;
	for (i = 0; i < f->nr_held;) {
		e = still_frozen(&f->held[i], why, sizeof(why));
		/* frozen, or cannot tell: held on, thawed on time */
		if (e > 0 || e == -1) {
			i++;
			continue;
		}
		rec = f->held[i];
		hk_freeze_held__forget(f, &f->held[i]);
		if (f->dir.fd >= 0)
			hk_freeze_record__drop(&f->dir, rec.hier, rec.id);
		if (e == -ENOENT)
			continue;
		hk_freeze_hand__saw(f, &rec, NULL);
		say_end(f, &rec, HK_FREEZE_END_HAND, NULL, json, ctx, say, arg);
	}
}

void hk_freeze__tick(struct hk_freezer *f, int json, const struct hk_format_ctx *ctx,
		     hk_freeze_say_fn *say, void *arg)
{
	struct hk_freeze_rec rec;
	unsigned int i;
	__u64 now;

	if (!f->looked) {
		f->looked = true;
		look_at_records(f, json, ctx, say, arg);
	}
	now = hk_freeze__boot_ms();
	for (i = 0; i < f->nr_held;) {
		if (f->held[i].until_boot_ms > now) {
			i++;
			continue;
		}
		rec = f->held[i];
		hk_freeze_held__forget(f, &f->held[i]);
		end_held(f, &rec, HK_FREEZE_END_MAX, HK_FREEZE_LOOP_WAIT_MS, json, ctx, say, arg);
	}
	check_held(f, json, ctx, say, arg);
}

/* At exit there is no printer left: the lines go to stderr, as the
 * summary does. */
static void say_log(void *arg, int prio, const char *line, size_t n)
{
	(void)arg;
	/* the line starts "hotspot-k: ", as the log adds it */
	if (n > 11 && !strncmp(line, "hotspot-k: ", 11))
		hk_log__print((enum hk_log_prio)prio, "%.*s", (int)(n - 11), line + 11);
}

void hk_freeze_held__release(struct hk_freezer *f)
{
	struct hk_format_ctx ctx = {};
	struct hk_freeze_rec rec;

	while (f->nr_held) {
		rec = f->held[--f->nr_held];
		end_held(f, &rec, HK_FREEZE_END_EXIT, HK_FREEZE_WAIT_MS, 0, &ctx, say_log, NULL);
	}
}

void hk_freeze__release_recorded(const struct hk_freezer *f)
{
	char why[HK_FREEZE_WHY_MAX], bad_name[64], q[HK_QUOTE_BUF];
	struct hk_freeze_rec *recs;
	struct hk_freeze_cg cg;
	unsigned int i, n, bad;
	struct hk_safedir d;
	__u64 ms;
	int e;

	if (hk_freeze_record__list(f->rundir, &d, &recs, &n, &bad, bad_name, sizeof(bad_name),
				   why, sizeof(why)))
		return;
	for (i = 0; i < n; i++) {
		if (recs[i].by_pid != f->self_pid || recs[i].by_start != f->self_start)
			continue;
		e = hk_freeze__open_rec(&recs[i], &cg, why, sizeof(why));
		if (!e) {
			e = hk_freeze__set(&cg, false, HK_FREEZE_LOOP_WAIT_MS, &ms, why,
					   sizeof(why)) > 0 ? 0 : -1;
			hk_freeze__close(&cg);
		}
		if (e == -1) {
			hk_log__print(HK_LOG_ERR, "cgroup %s not thawed: %s (its record stays: "
				      "the next start thaws it)\n",
				      hk_msg__quote(q, sizeof(q), recs[i].cgroup), why);
			continue;
		}
		hk_freeze_record__drop(&d, recs[i].hier, recs[i].id);
		if (!e)
			hk_log__print(HK_LOG_WARNING, "thawed cgroup %s: hotspot-k exits\n",
				      hk_msg__quote(q, sizeof(q), recs[i].cgroup));
	}
	hk_safefile__dir_close(&d);
	free(recs);
}
