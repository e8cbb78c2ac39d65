/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze.h - freeze before the OOM killer (opt-in, --freeze-on-oom): the
 * cgroup of a process that enters OOM risk with a short ETA is frozen, so
 * that nothing in it runs, allocates or is killed until someone looks, or
 * until --freeze-max has passed and hotspot-k thaws it itself.
 *
 * The freezer (freeze.c, this header) is the face the rest of the tool
 * uses; its parts, each with its header, by job:
 *
 *   freeze.c          the freezer: its settings, its life, an event in and
 *                     the line about it out
 *   freezer.h         its state, which every part reads (types only)
 * decide
 *   freeze_decide.c   the rules in order, each refusal a sentence: the
 *                     path rules (root, own cgroup, --never-freeze), room,
 *                     frozen already; then freeze_do.c carries it out
 *   freeze_owners.c   the uid rule: whose processes a subtree holds
 *   freeze_blame.c    against the host's headroom: only a process whose
 *                     own growth explains its fall
 * carry out
 *   freeze_do.c       a freeze made (recorded, written, the uid rule read
 *                     again); the freezes held ended on time, let go when
 *                     thawed by hand, thawed at exit; a gone tool's taken
 *   freeze_cgroup.c   the kernel's side: which freezer, its files, its
 *                     state (the bottom: no record, no setting)
 * remember
 *   freeze_memory.c   in the tool: the freezes held, the cgroups thawed by
 *                     hand, the uid rule's refusals of a moment ago
 *   freeze_record.c   across a crash: one file per freeze in /run/hotspot-k
 * report
 *   freeze_report.c   the lines that say what was done, human or JSON
 *   freeze_status.c   the records, for `hotspot-k status`
 *
 *   cmd/thaw.c        `hotspot-k thaw CGROUP`, `hotspot-k thaw --all`
 *
 * Each part uses only those further down this chain, never one above it:
 *   freeze.c -> freeze_decide.c -> freeze_do.c -> freeze_memory.c,
 *   freeze_report.c, freeze_owners.c -> freezer.h -> freeze_record.c ->
 *   freeze_cgroup.c,
 * freeze_blame.c on freezer.h, freeze_status.c on freeze_record.c; none
 * includes freeze.h (tools/check_includes.py, in make test).
 */
#ifndef HK_USER_FREEZE_H
#define HK_USER_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "config/config.h"
#include "freeze_blame.h"
#include "freeze_cgroup.h"
#include "freeze_decide.h"
#include "freeze_do.h"
#include "freeze_memory.h"
#include "freeze_owners.h"
#include "freeze_record.h"
#include "freeze_report.h"
#include "freeze_status.h"
#include "freezer.h"
#include "output/format.h"
#include "shared/hotspot.h"

/* Set up f with the [freeze] keys of c: 0, or -1 (out of memory). */
int hk_freeze__init(struct hk_freezer *f, const struct hk_config *c);
/* The [freeze] keys of c again (a reload): the counts and the freezes
 * held stay, each with the time it was given. */
void hk_freeze__configure(struct hk_freezer *f, const struct hk_config *c);
/*
 * Free f. The freezes it still holds are thawed first, each said on
 * stderr: a freeze does not outlive the tool that would end it.
 */
void hk_freeze__free(struct hk_freezer *f);

/*
 * What f will do, in a line for the start (no newline) into buf; returns
 * its syslog priority: 6, or 4 when this host has no freezer at all or
 * the records' directory (f->rundir, made now) cannot be made or opened.
 */
int hk_freeze__describe(struct hk_freezer *f, char *buf, size_t len);

/*
 * A transition e: when it enters oom_risk with an ETA below f->eta_s,
 * freeze its process's cgroup or say why not, and write the line that
 * tells into f->line (human or JSON). Returns the line's length, 0 when
 * there is nothing to do or say; *prio gets the line's syslog priority.
 */
int hk_freeze__event(struct hk_freezer *f, const struct hk_event *e, int json,
		     const struct hk_format_ctx *ctx, int *prio);

#endif /* HK_USER_FREEZE_H */
