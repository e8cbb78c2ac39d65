/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * act/ - the fifth step of the flow: a transition -> what it sets off:
 * a profile (profile/), a freeze before the OOM killer (freeze*.c), and
 * the lines that say so.
 *
 * act.h - what the tool does about a transition once it is written:
 * profile the process (--profile), and its line when the profile starts
 * and when its files are written.
 */
#ifndef HK_USER_ACT_H
#define HK_USER_ACT_H

#include "freeze.h"
#include "postmortem.h"
#include "output/printer.h"
#include "profile/profiler.h"

struct hk_act {
	struct hk_printer *pr;		/* where the lines go */
	struct hk_freezer *freeze;	/* --freeze-on-oom: acts on entries
					 * into oom_risk; NULL: never */
	struct hk_profiler *prof;	/* NULL: nothing is profiled */
	struct hk_postmortem *pm;	/* OOM post-mortems; NULL: none */
	__u64 profile_ns;		/* 0: no profile on transition */
	const char *profile_dir;
	__u64 profiles_written;
	__u64 profiles_failed;
	__u64 profiles_skipped;		/* the cap was reached */
};

/* printer's on_transition: freeze a cgroup, start a profile, end one whose
 * process exited. */
void hk_act__transition(void *act, const struct hk_event *e);

/* The event loop's tick: freezes whose time is up thawed (and, the first
 * time, those a crashed tool left), each said in a line. */
void hk_act__freeze_tick(struct hk_act *a);

/* The profiler's done(): the line that says where the files are. */
void hk_act__profile_done(void *act, const struct hk_profile_result *r);

/* The line that says a profile started (also for `hotspot-k profile`);
 * kind: enum hk_prof_kind. */
void hk_act__profile_started(struct hk_act *a, __u32 pid, const char *comm,
			     const char *label, __u32 kind, const char *prefix);

#endif /* HK_USER_ACT_H */
