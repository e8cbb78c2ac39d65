/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_decide.h - decide: whether a process's cgroup may be frozen, rule
 * by rule, each refusal a sentence (freeze_decide.c). The rules that read
 * files of their own are freeze_owners.h's (the uid rule) and
 * freeze_blame.h's (the host's headroom); what is remembered between
 * events, freeze_memory.h's.
 */
#ifndef HK_USER_FREEZE_DECIDE_H
#define HK_USER_FREEZE_DECIDE_H

#include "config/config.h"
#include "freezer.h"
#include "shared/hotspot.h"

/*
 * Whether target (a cgroup path as /proc/PID/cgroup writes it) may be
 * frozen by a hotspot-k whose own cgroup, in the same hierarchy, is self
 * (NULL: unknown), with never the --never-freeze list. A listed cgroup is
 * never frozen, nor is one of its children (part of it), nor one of its
 * ancestors (freezing it would freeze the listed one). 0: it may; else -1
 * and why says which rule forbids it. Pure: reads no file.
 */
int hk_freeze__decide(const char *target, const char *self, const struct hk_path_list *never,
		      char *why, size_t why_len);


/*
 * Decide about e's process for f (freeze.c saw it is due: the ETA under
 * the setting, the host's headroom its own doing), and have it done
 * (freeze_do.c) when every rule allows: r says what came of it.
 */
void hk_freeze_decide__act(struct hk_freezer *f, const struct hk_event *e,
			   struct hk_freeze_result *r);

#endif /* HK_USER_FREEZE_DECIDE_H */
