// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze.c - freeze before the OOM killer: the freezer's settings and its
 * life, and the entry point when a process enters OOM risk with a short
 * ETA: the host's headroom judged (freeze_blame.c), then the rules
 * (freeze_decide.c), then the line (freeze_report.c). freeze.h lists the
 * parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "freeze.h"
#include "lib/pidref.h"
#include "lib/units.h"

void hk_freeze__configure(struct hk_freezer *f, const struct hk_config *c)
{
	f->eta_s = c->freeze_eta_s;
	f->max_s = c->freeze_max_s ? c->freeze_max_s : HK_FREEZE_MAX_DEFAULT_S;
	f->never = c->freeze_never;
	if (f->blame)
		hk_blame__configure(f->blame, c->oom_trend_span_ns);
	/* a thaw by hand: the frozen stretch is out of the trend by then */
	f->settle_ms = (c->oom_trend_span_ns + (__u64)c->exit_windows * c->interval_ns) /
		       1000000;
}

int hk_freeze__init(struct hk_freezer *f, const struct hk_config *c)
{
	memset(f, 0, sizeof(*f));
	f->dir.fd = -1;
	f->rundir = HK_RUNDIR;
	f->proc = "/proc";
	f->self_pid = (__u32)getpid();
	f->self_start = hk_pidref__start_ticks(f->self_pid);
	/* once, here: a freeze is no moment to run out of memory */
	f->r = malloc(sizeof(*f->r));
	f->line = malloc(HK_FREEZE_LINE_MAX);
	f->held = calloc(HK_FREEZE_HELD_MAX, sizeof(*f->held));
	f->hand = calloc(HK_FREEZE_HAND_MAX, sizeof(*f->hand));
	f->recent = calloc(HK_FREEZE_RECENT_MAX, sizeof(*f->recent));
	f->blame = malloc(sizeof(*f->blame));
	if (f->blame)
		hk_blame__init(f->blame, c->oom_trend_span_ns);
	hk_freeze__configure(f, c);
	if (f->r && f->line && f->held && f->hand && f->recent && f->blame) {
		hk_freeze__sample(f);	/* the first point of the host's history */
		return 0;
	}
	hk_freeze__free(f);
	return -1;
}

void hk_freeze__free(struct hk_freezer *f)
{
	if (f->held)
		hk_freeze_held__release(f);
	hk_safefile__dir_close(&f->dir);
	free(f->r);
	free(f->line);
	free(f->held);
	free(f->blame);
	f->blame = NULL;
	free(f->hand);
	free(f->recent);
	f->recent = NULL;
	f->r = NULL;
	f->line = NULL;
	f->held = NULL;
	f->hand = NULL;
}

int hk_freeze__describe(struct hk_freezer *f, char *buf, size_t len)
{
	char eta[32], max[32], *self, why[HK_FREEZE_WHY_MAX];
	struct hk_freeze_fs fs;
	size_t off;
	__u32 i;

	hk_freeze__find_fs(&fs);
	if (fs.hier == HK_FREEZE_HIER_NONE) {
		snprintf(buf, len, "--freeze-on-oom: this host has no cgroup freezer (no "
			 "cgroup2 under /sys/fs/cgroup, no v1 freezer at /sys/fs/cgroup/freezer): "
			 "each process will be reported, not frozen");
		return 4;
	}
	/* made now, not at the first OOM risk: a container with no /run of
	 * its own (or a read-only one) is told at start, as no freeze is
	 * made without its record */
	if (hk_freeze_held__dir(f, why, sizeof(why))) {
		snprintf(buf, len, "--freeze-on-oom: %s: no freeze can be recorded, to be undone "
			 "after a crash: each process will be reported, not frozen (in a "
			 "container: a host directory of root's mounted on /run, "
			 "docs/kubernetes.md)", why);
		return 4;
	}
	hk_units__print(eta, sizeof(eta), HK_UNIT_DURATION_S, f->eta_s);
	hk_units__print(max, sizeof(max), HK_UNIT_DURATION_S, f->max_s);
	self = hk_freeze__cgroup_of(&fs, (__u32)getpid());
	off = (size_t)snprintf(buf, len, "freezing the cgroup of a process that enters OOM "
			       "risk with an ETA below %s (%s at %s), for %s at most (then "
			       "thawed; records in %s); never a cgroup holding another user's "
			       "process, the root cgroup, hotspot-k's own cgroup (%s) and its "
			       "ancestors", eta,
			       fs.hier == HK_FREEZE_HIER_V1 ? "v1 freezer" : "cgroup.freeze",
			       fs.root, max, f->rundir, self ? self : "(unknown)");
	for (i = 0; i < f->never.n && i < HK_FREEZE_NEVER && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%.*s", i ? ", " : ", nor ",
					HK_FILTER_PATH_LEN, f->never.path[i]);
	if (f->never.n && off < len)
		off += (size_t)snprintf(buf + off, len - off, " (each with its children)");
	if (off < len)
		snprintf(buf + off, len - off, "; against the host's headroom, only a process "
			 "whose own growth is %d %% of its fall at least", HK_BLAME_SHARE_PCT);
	free(self);
	return 6;
}

int hk_freeze__event(struct hk_freezer *f, const struct hk_event *e, int json,
		     const struct hk_format_ctx *ctx, int *prio)
{
	struct hk_freeze_result *r = f->r;
	int n, blame;

	/* first: a thaw by hand lasts until its episode ends */
	if (f->hand)
		hk_freeze_hand__event(f, e);
	/* out of OOM risk, or gone: a refusal of its next episode is said */
	if (f->blame && e->type == HK_EV_TRANSITION && e->from == HK_OOM_RISK &&
	    e->to != HK_OOM_RISK)
		hk_blame__forget(f->blame, e);
	/* at the entry, and when a held OOM risk's ETA falls under the
	 * setting (HK_EV_ETA, sent by the kernel once per crossing) */
	if (!f->eta_s || !r || e->to != HK_OOM_RISK ||
	    !((e->type == HK_EV_TRANSITION && e->from != HK_OOM_RISK) ||
	      e->type == HK_EV_ETA) ||
	    e->ev.eta_s == (__u64)HK_ETA_NONE || e->ev.eta_s >= f->eta_s)
		return 0;
	memset(r, 0, sizeof(*r));
	/* against the host's headroom, whose memory took it comes first:
	 * anyone can lower it (tmpfs, a block held flat) */
	blame = hk_freeze__blame(f, e, r);
	if (blame == 2)
		return 0;
	if (!blame)
		hk_freeze_decide__act(f, e, r);
	/* a cgroup frozen already is not frozen again: counted once */
	if (r->outcome == HK_FREEZE_FROZEN || r->outcome == HK_FREEZE_PENDING)
		f->frozen++;
	else if (r->outcome == HK_FREEZE_REFUSED)
		f->refused++;
	else if (r->outcome == HK_FREEZE_FAILED)
		f->failed++;
	*prio = hk_freeze__priority(r->outcome);
	n = hk_freeze__format(f->line, HK_FREEZE_LINE_MAX, e, r, f->eta_s, json, ctx);
	/* cannot happen (HK_FREEZE_LINE_MAX): say so rather than nothing */
	if (n < 0)
		n = snprintf(f->line, HK_FREEZE_LINE_MAX, json ?
			     "{\"event\":\"freeze\",\"pid\":%u,\"reason\":\"line too long\"}\n" :
			     "hotspot-k: pid %u: the line about its freeze is too long\n",
			     e->tgid);
	return n;
}
