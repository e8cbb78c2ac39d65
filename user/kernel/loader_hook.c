// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader_hook.c - the sched_switch hook, attached while the walk watches
 * a thread (HK_EV_HOOK) or for good under --pin, and what attaching it
 * cost. Apart from the lifecycle because it comes and goes while the
 * tool runs, at the walk's ask.
 */
#include <errno.h>
#include <bpf/libbpf.h>
#include "lib/clock.h"
#include "lib/sysinfo.h"
#include "loader_hook.h"
#include "loader_state.h"

/* The hook attached now (at the walk's ask, or for good under --pin). */
int hk_loader_hook__attach(struct hk_loader *l, __u64 asked_ns)
{
	__u64 now_ns;

	if (l->hook_link)
		return 0;
	l->hook_link = bpf_program__attach(l->hook_prog);
	if (!l->hook_link) {
		l->hook.failures++;
		l->hook.last_errno = errno;
		return -errno;
	}
	now_ns = mono_ns();
	l->hook.attaches++;
	l->hook.since_ns = now_ns;
	l->hook.ctxt_at_attach = hk_sysinfo__proc_stat("ctxt");
	if (asked_ns && now_ns > asked_ns && now_ns - asked_ns > l->hook.attach_ns_max)
		l->hook.attach_ns_max = now_ns - asked_ns;
	return 0;
}

static void hook_detach(struct hk_loader *l)
{
	__u64 ctxt;

	if (!l->hook_link)
		return;
	bpf_link__destroy(l->hook_link);
	l->hook_link = NULL;
	l->hook.detaches++;
	l->hook.attached_ns += mono_ns() - l->hook.since_ns;
	ctxt = hk_sysinfo__proc_stat("ctxt");
	if (ctxt > l->hook.ctxt_at_attach)
		l->hook.switches_attached += ctxt - l->hook.ctxt_at_attach;
}

/*
 * The walk asks for the hook (HK_EV_HOOK): attached or detached at once.
 * An attach that fails is said by the loop (hk_loader__hook_use) and
 * asked again by the next walk that watches a thread.
 */
void hk_loader_hook__event(struct hk_loader *l, const struct hk_event *e)
{
	if (!l->hook_prog || l->cfg.hook != HK_HOOK_ON_DEMAND)
		return;
	if (!e->from) {
		hook_detach(l);
		return;
	}
	/* held: the walk's ask stands (hk_hook_wanted), answered at release */
	if (l->hook_held)
		return;
	if (hk_loader_hook__attach(l, e->time_ns))
		l->skel->bss->hk_hook_wanted = 0;
}

/*
 * [budget]'s last step: the hook detached and kept so, whatever the walk
 * asks; released, it is attached at once if the walk still wants it. Only
 * the on-demand hook: --pin's is the user's explicit ask.
 */
void hk_loader__hook_hold(struct hk_loader *l, int hold)
{
	if (!l->hook_prog || l->cfg.hook != HK_HOOK_ON_DEMAND || l->hook_held == !!hold)
		return;
	l->hook_held = !!hold;
	if (hold) {
		hook_detach(l);
		return;
	}
	if (l->skel->bss->hk_hook_wanted && hk_loader_hook__attach(l, 0))
		l->skel->bss->hk_hook_wanted = 0;
}

int hk_loader__hook_use(const struct hk_loader *l, struct hk_hook_use *out)
{
	*out = l->hook;
	return l->hook_link != NULL;
}

int hk_loader__hook_prog(const struct hk_loader *l)
{
	return l->hook_prog != NULL;
}
