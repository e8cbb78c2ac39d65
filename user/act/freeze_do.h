/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_do.h - carry out: a freeze made (recorded, written, checked),
 * and every freeze the tool holds ended on time, let go when thawed by
 * hand, thawed at its exit; the records a tool that is gone left, seen
 * to (freeze_do.c). The writes themselves are freeze_cgroup.c's.
 */
#ifndef HK_USER_FREEZE_DO_H
#define HK_USER_FREEZE_DO_H

#include "freezer.h"
#include "output/format.h"
#include "shared/hotspot.h"

/*
 * Freeze cg for e's process of uid (freeze_decide.c found every rule
 * allows it, and room for it): recorded first, frozen, the uid rule read
 * again; r says what came of it (FROZEN, PENDING, or REFUSED and thawed
 * again at once, or FAILED).
 */
void hk_freeze_do__freeze(struct hk_freezer *f, const struct hk_event *e,
			  struct hk_freeze_cg *cg, __u32 uid, struct hk_freeze_result *r);


/*
 * ms until f must thaw something (the first freeze held whose time is
 * up), 0 when the records left at start are still to be seen to, -1:
 * nothing to do (the event loop waits on it).
 */
int hk_freeze__timeout_ms(const struct hk_freezer *f);

/*
 * What is due: at the first call, the records a crashed or killed tool
 * left (those whose time is up are thawed, the others taken over and
 * said); then every freeze held whose time is up is thawed; every
 * HK_FREEZE_CHECK_MS, a freeze held found thawed (by hand, or by its
 * owner) is let go: said, its record dropped, its cgroup remembered
 * (freeze_memory.c). Each line goes to say().
 */
void hk_freeze__tick(struct hk_freezer *f, int json, const struct hk_format_ctx *ctx,
		     hk_freeze_say_fn *say, void *arg);

/* Thaw every freeze f holds (its exit), each said on stderr. */
void hk_freeze_held__release(struct hk_freezer *f);
/*
 * The same from another thread, when the event loop is stuck (the stop
 * guard): every freeze recorded in f's run directory as this tool's is
 * thawed and its record dropped, each said on stderr. Reads only what
 * never changes in f (its run directory, this tool's pid and start).
 */
void hk_freeze__release_recorded(const struct hk_freezer *f);

#endif /* HK_USER_FREEZE_DO_H */
