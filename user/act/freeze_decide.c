// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_decide.c - decide: whether the cgroup of a process that entered
 * OOM risk may be frozen, rule by rule, each refusal a sentence; when
 * every rule allows it, freeze_do.c carries it out.
 *
 * A frozen cgroup stops every process in it, not only the leaking one, for
 * up to --freeze-max: so the rules err on the side of not freezing. The
 * root cgroup would stop the machine; hotspot-k's own cgroup (or an
 * ancestor) would stop hotspot-k, and nobody would be told; the
 * --never-freeze list names the cgroups a host cannot live without, each
 * with the cgroups below it (a service's processes may sit there). These
 * path rules (hk_freeze__decide) read no file; whose processes a cgroup
 * holds is the uid rule's (freeze_owners.c), which does.
 *
 * The event is read some time after the kernel decided it: the process
 * may be gone, and its PID another's. So the process is opened as a
 * pidfd checked against the event's start time before its cgroup and its
 * uid are read from /proc, and the pidfd must still hold the PID after:
 * what was read is then that process's, not a recycled PID's.
 *
 * Then, in order, each step refusing or failing on its own:
 *   the path rules (the root, our own cgroup, --never-freeze);
 *   the cgroup opened (freeze_cgroup.c: confined to the cgroup mount);
 *   thawed by hand while this tool held it, in its process's OOM-risk
 *     episode (freeze_memory.c): a thaw by hand wins;
 *   frozen already? (another process of it entered OOM risk, or someone
 *     else froze it): said, not frozen again, not counted again;
 *   room: HK_FREEZE_HELD_MAX freezes at once, HK_FREEZE_HELD_UID_MAX
 *     for one uid's processes;
 *   every process below it of the leaking uid (freeze_owners.c), a
 *     refusal remembered a short while (freeze_memory.c);
 * and then freeze_do.c: the record written (freeze_record.c), frozen, the
 * uid rule read again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "freeze_cgroup.h"
#include "freeze_decide.h"
#include "freeze_do.h"
#include "freeze_memory.h"
#include "freeze_owners.h"
#include "freeze_record.h"
#include "lib/escape.h"
#include "lib/msg.h"
#include "lib/pidref.h"
#include "output/format.h"

/* Whether a is b or one of b's ancestors: "/a" holds "/a/b", not "/ab". */
static bool holds(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '/' || b[n] == '\0');
}

/* Whether path climbs above its root: "/../x" (another cgroup namespace). */
static bool climbs(const char *path)
{
	const char *p = path;

	while ((p = strstr(p, "..")) != NULL) {
		if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
			return true;
		p += 2;
	}
	return false;
}

int hk_freeze__decide(const char *target, const char *self, const struct hk_path_list *never,
		      char *why, size_t why_len)
{
	const char *n;
	__u32 i;

	if (!target[0] || !strcmp(target, "/"))
		return hk_msg__fail(why, why_len, "/ is the root cgroup");
	/* a path from another cgroup namespace: not under our mount */
	if (target[0] != '/' || climbs(target))
		return hk_msg__fail(why, why_len, "%s is outside hotspot-k's cgroup namespace",
				    target);
	if (!self)
		return hk_msg__fail(why, why_len, "hotspot-k's own cgroup is unknown: %s might "
				    "hold it", target);
	if (!strcmp(target, self))
		return hk_msg__fail(why, why_len, "%s is hotspot-k's own cgroup", target);
	if (holds(target, self))
		return hk_msg__fail(why, why_len, "%s holds hotspot-k's own cgroup %s", target,
				    self);
	/* a listed cgroup is never stopped: not itself, not a part of it (a
	 * service's processes may sit in cgroups below it), not through an
	 * ancestor (freezing one freezes everything below) */
	for (i = 0; i < never->n && i < HK_FREEZE_NEVER; i++) {
		n = never->path[i];
		if (!strncmp(n, target, HK_FILTER_PATH_LEN))
			return hk_msg__fail(why, why_len, "%s is in --never-freeze", target);
		if (!strcmp(n, "/") || holds(n, target))
			return hk_msg__fail(why, why_len, "%s is part of %.*s, in --never-freeze",
					    target, HK_FILTER_PATH_LEN, n);
		if (holds(target, n))
			return hk_msg__fail(why, why_len, "%s holds %.*s, in --never-freeze",
					    target, HK_FILTER_PATH_LEN, n);
	}
	return 0;
}

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
			hk_freeze_record__drop(&f->dir, rec.hier, rec.id);
		hk_freeze_hand__saw(f, &rec, e);
		return hk_freeze_hand__refuses(f, cg, r);
	}
	/* held, its record dropped (`thaw --all` failed half-way): not ours */
	if (held && (f->dir.fd < 0 ||
		     hk_freeze_record__get(&f->dir, cg->hier, cg->id, &rec, why, sizeof(why)))) {
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

void hk_freeze_decide__act(struct hk_freezer *f, const struct hk_event *e,
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
	hk_freeze_do__freeze(f, e, &cg, uid, r);
out:
	hk_freeze__close(&cg);
	free(self);
	free(target);
}
