/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hook_gate.bpf.h - whether the sched_switch hook should exist, decided by
 * the walk. The hook only matters while a thread is watched (the walk saw
 * it wait most of a window for a CPU); on a healthy host none is, and no
 * program of the tool should run on a context switch. Each walk counts the
 * threads it watches; the first that watches one asks the tool to attach
 * the hook (HK_EV_HOOK), the one after HK_HOOK_IDLE_WINDOWS walks that
 * watched none asks it to detach. The tool attaches within a few ms of the
 * walk that set the watch bits, so the window those bits cover is recorded
 * as when the hook was always there.
 */
#ifndef HK_BPF_HOOK_GATE_H
#define HK_BPF_HOOK_GATE_H

#include "maps.bpf.h"

/*
 * 1 once the tool was asked to attach (and not since to detach). Not
 * static: the tool clears it when an attach failed, so that the next walk
 * that watches asks again (and clang would keep a 0/1 static in one byte,
 * which the kernel's BTF check of .bss rejects).
 */
__u32 hk_hook_wanted;
/* walks in a row that watched no thread */
static __u32 hk_hook_idle_walks;
/* threads this walk watches */
static __u64 hk_cur_watched;

/* Ask the tool: 0, or -1 when the ring buffer is full (asked next walk). */
static __noinline int hk_hook_ask(__u32 want, __u64 watched)
{
	struct hk_event *e;

	e = bpf_ringbuf_reserve(&hk_events, sizeof(*e), 0);
	if (!e)
		return -1;
	__builtin_memset(e, 0, sizeof(*e));
	e->type = HK_EV_HOOK;
	e->from = want;
	e->to = watched > 0xffffffffULL ? 0xffffffffU : (__u32)watched;
	e->time_ns = bpf_ktime_get_ns();
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* At the end of a walk: the hook wanted or not from now on. */
static __always_inline void hk_hook_gate(const struct hk_config *c)
{
	if (c->hook != HK_HOOK_ON_DEMAND)
		return;
	if (hk_cur_watched) {
		hk_hook_idle_walks = 0;
		if (!hk_hook_wanted && !hk_hook_ask(1, hk_cur_watched))
			hk_hook_wanted = 1;
		return;
	}
	if (hk_hook_idle_walks < HK_HOOK_IDLE_WINDOWS)
		hk_hook_idle_walks++;
	if (hk_hook_wanted && hk_hook_idle_walks >= HK_HOOK_IDLE_WINDOWS &&
	    !hk_hook_ask(0, 0))
		hk_hook_wanted = 0;
}

#endif /* HK_BPF_HOOK_GATE_H */
