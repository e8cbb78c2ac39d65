// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_act.c - the act on a process that entered OOM risk: its cgroup
 * frozen, or a sentence that says why not.
 *
 * The event is read some time after the kernel decided it: the process
 * may be gone, and its PID another's. So the process is opened as a
 * pidfd checked against the event's start time before its cgroup and its
 * uid are read from /proc, and the pidfd must still hold the PID after:
 * what was read is then that process's, not a recycled PID's.
 *
 * Then, in order, each step refusing or failing on its own:
 *   the path rules (freeze.c: the root, our own cgroup, --never-freeze);
 *   the cgroup opened (freeze_cgroup.c: confined to the cgroup mount);
 *   thawed by hand while this tool held it, in its process's OOM-risk
 *     episode (freeze_hand.c): a thaw by hand wins;
 *   frozen already? (another process of it entered OOM risk, or someone
 *     else froze it): said, not frozen again, not counted again;
 *   room: HK_FREEZE_HELD_MAX freezes at once, HK_FREEZE_HELD_UID_MAX
 *     for one uid's processes;
 *   every process below it of the leaking uid (freeze_owners.c), a
 *     refusal remembered a short while (freeze_recent.c);
 *   the record written (freeze_state.c): a freeze that a crash could
 *     leave with nobody to end it is not made;
 *   frozen, then the uid rule read again: a process of another user that
 *     joined in between gets the cgroup thawed at once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "freeze.h"
#include "lib/escape.h"
#include "lib/msg.h"
#include "lib/pidref.h"

/* The leak's cgroup and uid, read while its pidfd holds the PID. */
static int leaker(const struct hk_freeze_fs *fs, const struct hk_freezer *f,
		  const struct hk_event *e, char **target, __u32 *uid,
		  struct hk_freeze_result *r)
{
	struct hk_pidref ref;
	__u32 uids[4];
	int err, cg_errno;

	*target = NULL;
	err = hk_pidref__open(&ref, e->tgid, e->start_boottime_ns);
	if (err) {
		r->outcome = HK_FREEZE_FAILED;
		if (err == -ESRCH || err == -ESTALE)
			snprintf(r->why, sizeof(r->why), "%s", hk_pidref__strerror(err));
		else
			snprintf(r->why, sizeof(r->why), "cannot tell whether pid %u is still the "
				 "process (%s): not frozen", e->tgid, hk_pidref__strerror(err));
		return -1;
	}
	*target = hk_freeze__cgroup_of(fs, e->tgid);
	cg_errno = errno;
	err = hk_freeze_owners__uids(f->proc, e->tgid, uids);
	if (!hk_pidref__held(&ref)) {
		hk_pidref__close(&ref);
		r->outcome = HK_FREEZE_FAILED;
		snprintf(r->why, sizeof(r->why), "it exited while its cgroup was read");
		return -1;
	}
	hk_pidref__close(&ref);
	if (!*target && cg_errno == ENAMETOOLONG) {
		r->outcome = HK_FREEZE_FAILED;
		snprintf(r->why, sizeof(r->why), "its cgroup path is too long to name (4095 bytes "
			 "or more): not frozen");
		return -1;
	}
	if (!*target || err) {
		r->outcome = HK_FREEZE_FAILED;
		snprintf(r->why, sizeof(r->why), "cannot read its %s: %s",
			 *target ? "uid" : "cgroup", strerror(*target ? -err : cg_errno));
		return -1;
	}
	*uid = uids[0];
	return 0;
}

/* cg is frozen already: by this tool (another process of it entered OOM
 * risk), or by someone else. 1 yes, or thawed by hand since this tool
 * froze it (r says so), 0 no, -1 r failed. */
static int frozen_already(struct hk_freezer *f, const struct hk_event *e,
			  const struct hk_freeze_cg *cg, struct hk_freeze_result *r)
{
	struct hk_freeze_rec *held = hk_freeze_held__find(f, cg->hier, cg->id);
	struct hk_freeze_rec rec;
	char why[256], left[32];
	__u64 now = hk_freeze__boot_ms();
	int frozen = hk_freeze__is_frozen(cg, r->why, sizeof(r->why));

	if (frozen < 0) {
		r->outcome = HK_FREEZE_FAILED;
		return -1;
	}
	/* held, but thawed since, before a tick saw it: by hand, it wins */
	if (held && !frozen) {
		rec = *held;
		hk_freeze_held__forget(f, held);
		if (f->dir.fd >= 0)
			hk_freeze_state__drop(&f->dir, rec.hier, rec.id);
		hk_freeze_hand__saw(f, &rec, e);
		return hk_freeze_hand__refuses(f, cg, r);
	}
	/* held, its record dropped (`thaw --all` failed half-way): not ours */
	if (held && (f->dir.fd < 0 ||
		     hk_freeze_state__get(&f->dir, cg->hier, cg->id, &rec, why, sizeof(why)))) {
		hk_freeze_held__forget(f, held);
		held = NULL;
	}
	if (!frozen)
		return 0;
	r->outcome = HK_FREEZE_ALREADY;
	if (!held) {
		snprintf(r->why, sizeof(r->why), "%s is frozen already, not by this hotspot-k: "
			 "left as it is", cg->rel);
		return 1;
	}
	if (hk_format__duration(left, sizeof(left), held->until_boot_ms > now ?
				(held->until_boot_ms - now + 999) / 1000 : 0) < 0)
		snprintf(left, sizeof(left), "?");
	snprintf(r->why, sizeof(r->why), "%s is frozen already, for pid %u; thawed in %s",
		 cg->rel, held->pid, left);
	return 1;
}

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

/* Freezes held for uid's processes. */
static unsigned int held_for(const struct hk_freezer *f, __u32 uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->nr_held; i++)
		n += f->held[i].uid == uid;
	return n;
}

/* Room for one more freeze for uid: 0, or -1 (r refused, why says so).
 * Before the uid rule's walk: a uid at its limit costs no walk. */
static int room(const struct hk_freezer *f, __u32 uid, struct hk_freeze_result *r)
{
	if (f->nr_held == HK_FREEZE_HELD_MAX) {
		r->outcome = HK_FREEZE_REFUSED;
		snprintf(r->why, sizeof(r->why), "%d cgroups are frozen already: no more at once",
			 HK_FREEZE_HELD_MAX);
		return -1;
	}
	/* one user's leaks cannot take every slot from the others' */
	if (held_for(f, uid) >= HK_FREEZE_HELD_UID_MAX) {
		r->outcome = HK_FREEZE_REFUSED;
		snprintf(r->why, sizeof(r->why), "%d cgroups are frozen already for uid %u's "
			 "processes: no more for it at once", HK_FREEZE_HELD_UID_MAX, uid);
		return -1;
	}
	return 0;
}

/* Freeze cg for e's process of uid (room() said yes): r says what came
 * of it. */
static void freeze(struct hk_freezer *f, const struct hk_event *e, struct hk_freeze_cg *cg,
		   __u32 uid, struct hk_freeze_result *r)
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
	put = hk_freeze_state__put(&f->dir, &rec);
	if (put) {
		snprintf(r->why, sizeof(r->why), "cannot record it, to thaw it after a crash "
			 "(%s): %s", f->rundir, strerror(-put));
		return;
	}
	done = hk_freeze__set(cg, true, HK_FREEZE_LOOP_WAIT_MS, &r->settle_ms, r->why,
			      sizeof(r->why));
	if (done < 0) {
		hk_freeze_state__drop(&f->dir, rec.hier, rec.id);
		return;
	}
	/* someone of another user moved in while we looked: not ours */
	if (hk_freeze_owners__check(cg->fd, cg->rel, f->proc, uid, why, sizeof(why))) {
		r->outcome = HK_FREEZE_REFUSED;
		hk_freeze_recent__put(f, cg, uid, why);
		if (hk_freeze__set(cg, false, HK_FREEZE_LOOP_WAIT_MS, &ms, err, sizeof(err)) > 0) {
			snprintf(r->why, sizeof(r->why), "%.*s (thawed again at once)",
				 (int)sizeof(r->why) - 32, why);
			hk_freeze_state__drop(&f->dir, rec.hier, rec.id);
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

void hk_freeze_act__run(struct hk_freezer *f, const struct hk_event *e,
			struct hk_freeze_result *r)
{
	struct hk_freeze_fs fs;
	struct hk_freeze_cg cg = { .fd = -1 };
	char *target, *self;
	__u32 uid;

	hk_freeze__find_fs(&fs);
	r->hier = fs.hier;
	if (fs.hier == HK_FREEZE_HIER_NONE) {
		r->outcome = HK_FREEZE_FAILED;
		snprintf(r->why, sizeof(r->why), "this host has no cgroup freezer (no cgroup2 "
			 "under /sys/fs/cgroup, no v1 freezer at /sys/fs/cgroup/freezer)");
		return;
	}
	if (leaker(&fs, f, e, &target, &uid, r)) {
		free(target);
		return;
	}
	snprintf(r->cgroup, sizeof(r->cgroup), "%s", target);
	self = hk_freeze__cgroup_of(&fs, (__u32)getpid());
	if (hk_freeze__decide(target, self, &f->never, r->why, sizeof(r->why))) {
		r->outcome = HK_FREEZE_REFUSED;
		/* the usual case on a hybrid host: nobody made freezer cgroups */
		if (fs.hier == HK_FREEZE_HIER_V1 && !strcmp(target, "/"))
			snprintf(r->why, sizeof(r->why), "it is in the root of the v1 freezer "
				 "hierarchy (%s), which cannot be frozen: put it in a freezer "
				 "cgroup of its own", fs.root);
		goto out;
	}
	if (hk_freeze__open(&fs, target, false, &cg, r->why, sizeof(r->why))) {
		r->outcome = HK_FREEZE_FAILED;
		goto out;
	}
	r->hier = cg.hier;
	if (hk_freeze_hand__refuses(f, &cg, r) || frozen_already(f, e, &cg, r))
		goto out;
	/* no room, or refused a moment ago: not walked for every event */
	if (room(f, uid, r) || hk_freeze_recent__get(f, &cg, uid, r))
		goto out;
	if (hk_freeze_owners__check(cg.fd, cg.rel, f->proc, uid, r->why, sizeof(r->why))) {
		r->outcome = HK_FREEZE_REFUSED;
		hk_freeze_recent__put(f, &cg, uid, r->why);
		goto out;
	}
	freeze(f, e, &cg, uid, r);
out:
	hk_freeze__close(&cg);
	free(self);
	free(target);
}
