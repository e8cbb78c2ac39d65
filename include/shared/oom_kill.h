/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * oom_kill.h - the pure rules of an OOM kill, shared by the BPF side
 * (bpf/oom_kill.bpf.h, window.bpf.h) and the unit tests: which memory
 * cgroup's limit was hit, and whether hotspot-k had flagged the victim in
 * time. Helper-free integer functions.
 */
#ifndef HK_SHARED_OOM_KILL_H
#define HK_SHARED_OOM_KILL_H

#include "hotspot.h"

/*
 * A memory cgroup at its limit, in pages: its usage within a 32nd of max
 * (at least 512 pages, a huge page) of it. The charge that failed was not
 * made, so usage can sit a little under max at the kill; a cgroup that
 * sets no limit (max at PAGE_COUNTER_MAX or above: unset) never is.
 */
static inline int hk_oom_at_limit(__u64 usage_pages, __u64 max_pages, __u64 unset_pages)
{
	__u64 slack = max_pages / 32;

	if (!max_pages || max_pages >= unset_pages)
		return 0;
	if (slack < 512)
		slack = 512;
	return usage_pages + slack >= max_pages;
}

/*
 * Whether the victim had been flagged in time: it held OOM risk at the
 * kill (entered it before, not left since), or had left it at most
 * HK_OOM_FLAG_WINDOWS windows before. since_ns and until_ns are its
 * latest entry into and exit from OOM risk (0: never, still held).
 */
static inline int hk_oom_flagged(__u64 kill_ns, __u64 since_ns, __u64 until_ns,
				 __u64 window_ns)
{
	if (!since_ns || since_ns > kill_ns)
		return 0;
	if (!until_ns || until_ns >= kill_ns)
		return 1;
	return kill_ns - until_ns <= HK_OOM_FLAG_WINDOWS * window_ns;
}

/*
 * Whether a mark_victim followed a kill, by the victim's memory cgroup's
 * own count of OOM kills: now, and at the previous mark of a task in that
 * cgroup (0 when none was seen: the count starts at 0 with the cgroup).
 * The kernel adds one to it right before it marks a victim it kills
 * (__oom_kill_process: the count, SIGKILL, then mark_oom_victim), all
 * under oom_lock, and nothing when it marks a task that is exiting or
 * SIGKILLed already (task_will_free_mem). Unchanged: nothing was killed.
 * A kill whose mark the kernel skips (the victim marked before) only moves
 * the count: the next mark in that cgroup is then taken for a kill, as
 * every mark was before (the safe side: a mark, never a kill, is missed).
 */
static inline int hk_oom_killed(__u64 kills_now, __u64 kills_at_last_mark)
{
	return kills_now != kills_at_last_mark;
}

/* How long before the kill it was flagged, in whole seconds (0 when not). */
static inline __u64 hk_oom_flagged_for_s(const struct hk_oom_kill *k)
{
	if (!k->flagged || k->oom_risk_since_ns > k->time_ns)
		return 0;
	return (k->time_ns - k->oom_risk_since_ns) / HK_NSEC_PER_SEC;
}

#endif /* HK_SHARED_OOM_KILL_H */
