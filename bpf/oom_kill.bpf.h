/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * oom_kill.bpf.h - the kernel's OOM killer picks a victim (oom:mark_victim):
 * record when, and which memory cgroup's limit was hit, so that the
 * victim's last transition says oom_killed rather than exited, and whether
 * hotspot-k had flagged it (shared/oom_kill.h). A tracked victim's kill
 * waits in hk_oom for the walk, which sends its last transition with its
 * evidence (window.bpf.h's hk_last_word); an untracked one (filtered out,
 * born since the last walk, hk_procs full) gets its line here, at once.
 * A mark that killed nothing (a task dying already: hk_oom_no_kill) gets
 * no line, and is counted apart.
 *
 * Two programs, one loaded (the loader reads btf_trace_mark_victim):
 * since 6.8 the tracepoint passes the victim's task (and its uid),
 * before it passed the victim's PID alone. The version says little:
 * 72ba14deb40a, the change, went into 6.1.y in March 2025 (a dependency
 * of "memcg: fix soft lockup in the OOM process"), so a current 6.1 has
 * the task too. Every read of a task is a
 * probe read, so that either program passes the verifier on either
 * kernel (bpf-prog-test loads both). Nothing here runs but at an OOM kill.
 */
#ifndef HK_BPF_OOM_KILL_H
#define HK_BPF_OOM_KILL_H

#include <bpf/bpf_core_read.h>
#include "shared/oom_kill.h"
#include "maps.bpf.h"
#include "window.bpf.h"

/* One memory.events counter of memcg into k, when this kernel has it. */
#define HK_OOM_EVENT(k, memcg, n, kname, slot)					\
	do {									\
		__u32 ev_;							\
										\
		if (!bpf_core_enum_value_exists(enum memcg_memory_event, kname))	\
			break;							\
		ev_ = bpf_core_enum_value(enum memcg_memory_event, kname);	\
		if (ev_ < (n) && ev_ < 16 &&					\
		    !bpf_core_read(&(k)->events[slot], sizeof(__u64),		\
				   &(memcg)->memory_events[ev_ & 0xf]))		\
			(k)->events_known |= 1U << (slot);			\
	} while (0)

/* A page counter's limit in bytes: HK_OOM_UNSET_BYTES when it sets none. */
static __always_inline __u64 hk_oom_limit_bytes(__u64 pages, __u64 unset, __u64 page_size)
{
	return pages >= unset ? HK_OOM_UNSET_BYTES : pages * page_size;
}

/*
 * What the post-mortem keeps of the memory cgroup at its limit, read now:
 * the container's cgroup is often removed within milliseconds of the kill.
 * memory.high (in the page counter since 5.8: 0 before), the swap
 * counter's max (the memsw union on cgroup v1, CONFIG_MEMCG_SWAP on 5.15)
 * and memory.events, hierarchical as the file shows them (the kill was
 * counted before mark_victim).
 */
static __always_inline void hk_oom_memcg_more(struct mem_cgroup *memcg, __u64 unset,
					      __u64 page_size, struct hk_oom_kill *k)
{
	__u32 n;

	if (bpf_core_field_exists(struct page_counter, high)) {
		k->high_bytes = hk_oom_limit_bytes(BPF_CORE_READ(memcg, memory.high), unset,
						   page_size);
		k->limits_known |= HK_OOM_HIGH_KNOWN;
	}
	if (bpf_core_field_exists(struct mem_cgroup, swap)) {
		k->swap_max_bytes = hk_oom_limit_bytes(BPF_CORE_READ(memcg, swap.max), unset,
						       page_size);
		k->limits_known |= HK_OOM_SWAP_KNOWN;
	}
	if (!bpf_core_field_exists(struct mem_cgroup, memory_events))
		return;
	n = bpf_core_field_size(memcg->memory_events) / sizeof(long);
	HK_OOM_EVENT(k, memcg, n, MEMCG_LOW, HK_OOM_EV_LOW);
	HK_OOM_EVENT(k, memcg, n, MEMCG_HIGH, HK_OOM_EV_HIGH);
	HK_OOM_EVENT(k, memcg, n, MEMCG_MAX, HK_OOM_EV_MAX);
	HK_OOM_EVENT(k, memcg, n, MEMCG_OOM, HK_OOM_EV_OOM);
	HK_OOM_EVENT(k, memcg, n, MEMCG_OOM_KILL, HK_OOM_EV_OOM_KILL);
	HK_OOM_EVENT(k, memcg, n, MEMCG_OOM_GROUP_KILL, HK_OOM_EV_OOM_GROUP_KILL);
}

/*
 * The memory cgroup whose limit was hit: the first, up from task's own,
 * whose usage is at its max (hk_oom_at_limit), into k; none (a host OOM)
 * leaves k's memcg fields 0. The OOM killer's own memcg is an ancestor of
 * the victim's (it picks victims inside it), and the charge that failed
 * left it at its limit. Cgroup v1 and v2 alike: the memory page counter.
 * The rest of what is kept of it is read after the loop, once.
 */
static __always_inline void hk_oom_memcg(struct task_struct *task, __u64 page_size,
					 struct hk_oom_kill *k)
{
	struct cgroup_subsys_state *css;
	struct mem_cgroup *memcg, *found = NULL;
	__u64 usage, max, unset;
	const char *name;
	int id, i;

	if (!task || !page_size ||
	    !bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return;
	id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (id < 0 || id >= 16)
		return;
	css = BPF_CORE_READ(task, cgroups, subsys[id & 0xf]);
	unset = 0x7fffffffffffffffULL / page_size;
	for (i = 0; i < HK_OOM_MEMCG_LEVELS && css; i++) {
		/* css is the first member of struct mem_cgroup */
		memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);
		max = BPF_CORE_READ(memcg, memory.max);
		usage = BPF_CORE_READ(memcg, memory.usage.counter);
		if (hk_oom_at_limit(usage, max, unset)) {
			k->memcg_id = BPF_CORE_READ(css, cgroup, kn, id);
			k->limit_bytes = max * page_size;
			k->usage_bytes = usage * page_size;
			name = BPF_CORE_READ(css, cgroup, kn, name);
			if (name)
				bpf_probe_read_kernel_str(k->memcg_name, sizeof(k->memcg_name),
							  name);
			found = memcg;
			break;
		}
		css = BPF_CORE_READ(css, parent);
	}
	if (found)
		hk_oom_memcg_more(found, unset, page_size, k);
}

/*
 * 1 when this mark of victim killed nothing (hk_oom_killed): the count of
 * OOM kills of its mm's owner's memory cgroup (where the kernel counts the
 * kill) has not moved since the last mark in that cgroup. 0 when it has,
 * or when that cannot be told: no victim task (a PID alone), no memory
 * cgroups, or the root one (every task's when memcg is disabled: its count
 * never moves then), whose marks all count as kills.
 */
static __always_inline int hk_oom_no_kill(struct task_struct *victim)
{
	struct cgroup_subsys_state *css;
	struct mem_cgroup *memcg;
	__u64 id, now = 0, last = 0, *seen;
	__u32 n, ev;
	int ssid;

	if (!victim || !bpf_core_field_exists(struct mm_struct, owner) ||
	    !bpf_core_field_exists(struct mem_cgroup, memory_events_local) ||
	    !bpf_core_enum_value_exists(enum memcg_memory_event, MEMCG_OOM_KILL) ||
	    !bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return 0;
	ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (ssid < 0 || ssid >= 16)
		return 0;
	css = BPF_CORE_READ(victim, mm, owner, cgroups, subsys[ssid & 0xf]);
	if (!css || !BPF_CORE_READ(css, parent))
		return 0;
	/* css is the first member of struct mem_cgroup */
	memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);
	ev = bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM_KILL);
	n = bpf_core_field_size(memcg->memory_events_local) / sizeof(long);
	if (ev >= n || ev >= 16 ||
	    bpf_core_read(&now, sizeof(now), &memcg->memory_events_local[ev & 0xf]))
		return 0;
	id = BPF_CORE_READ(css, cgroup, kn, id);
	seen = bpf_map_lookup_elem(&hk_oom_counts, &id);
	if (seen)
		last = *seen;
	bpf_map_update_elem(&hk_oom_counts, &id, &now, BPF_ANY);
	return !hk_oom_killed(now, last);
}

/* An untracked victim's line, sent now: nothing was said of it before. */
static __always_inline void hk_oom_say_untracked(struct task_struct *task, __u32 tgid,
						 const struct hk_oom_kill *k,
						 struct hk_stats *st)
{
	struct hk_event *e;

	e = bpf_ringbuf_reserve(&hk_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&st->events_dropped, 1);
		__sync_fetch_and_add(&st->oom_kills_lost, 1);
		__sync_fetch_and_add(&st->oom_kills_missed, 1);
		return;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = HK_EV_TRANSITION;
	e->tgid = tgid;
	e->from = HK_OK;
	e->to = HK_OOM_KILLED;
	e->time_ns = k->time_ns;
	e->ev.eta_s = HK_ETA_NONE;
	e->ev.window_ns = k->window_ns;
	if (task) {
		e->start_time_ns = k->start_time_ns;
		e->start_boottime_ns = BPF_CORE_READ(task, group_leader, start_boottime);
		BPF_CORE_READ_STR_INTO(&e->comm, task, group_leader, comm);
	}
	__builtin_memcpy(&e->oom, k, sizeof(e->oom));
	bpf_ringbuf_submit(e, 0);
	__sync_fetch_and_add(&st->events_emitted, 1);
	__sync_fetch_and_add(&st->oom_kills_missed, 1);
}

/*
 * A mark: task is the victim (NULL before 6.8: tgid is then the PID the
 * tracepoint gave, the group leader's but when it had exited already),
 * memcg_task the task whose memory cgroups are walked (the victim, or
 * before 6.8 the task whose charge failed, in the same memcg subtree),
 * victim the victim's task when known (before 6.8: the current task when
 * the PID is its own), whose memory cgroup tells a kill from a mark alone.
 */
static __always_inline int hk_oom_on_kill(struct task_struct *task, __u32 tgid,
					  struct task_struct *memcg_task,
					  struct task_struct *victim)
{
	struct hk_config *c = hk_cfg();
	struct hk_stats *st = hk_st();
	struct hk_oom_kill k = {};
	struct hk_proc *p;

	if (!c || !st || !tgid)
		return 0;
	if (hk_oom_no_kill(victim)) {
		__sync_fetch_and_add(&st->oom_marks_not_kills, 1);
		return 0;
	}
	k.time_ns = bpf_ktime_get_ns();
	k.window_ns = c->interval_ns;
	if (task)
		k.start_time_ns = BPF_CORE_READ(task, group_leader, start_time);
	hk_oom_memcg(memcg_task, c->page_size_bytes, &k);
	p = bpf_map_lookup_elem(&hk_procs, &tgid);
	if (p && (!k.start_time_ns || p->start_time_ns == k.start_time_ns)) {
		/* the walk says it, with its evidence, once it has exited */
		if (!bpf_map_update_elem(&hk_oom, &tgid, &k, BPF_ANY))
			return 0;
		__sync_fetch_and_add(&st->oom_kills_lost, 1);
	}
	hk_oom_say_untracked(task, tgid, &k, st);
	return 0;
}

/* Linux >= 6.8: mark_victim(struct task_struct *task, uid_t uid). The uid
 * is not read: a kernel whose tracepoint has one argument verifies it too. */
SEC("tp_btf/mark_victim")
int BPF_PROG(hk_oom_kill, struct task_struct *task)
{
	return hk_oom_on_kill(task, BPF_CORE_READ(task, tgid), task, task);
}

/*
 * Before 6.8 (and 6.1.y before March 2025): mark_victim(int pid). Loaded
 * instead of hk_oom_kill there.
 * The PID is taken with a probe read of the context, not as a typed
 * argument: on a kernel whose first argument is the task, a 32-bit copy
 * of that pointer is refused, and bpf-prog-test loads both programs.
 */
SEC("tp_btf/mark_victim")
int hk_oom_kill_pid(__u64 *ctx)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u64 arg0 = 0;

	/* the whole slot, then its low 32 bits: the int on any byte order */
	bpf_probe_read_kernel(&arg0, sizeof(arg0), ctx);
	/* the victim is current when the PID is its own (out_of_memory()
	 * marking a dying allocating task, or killing the allocating task) */
	return hk_oom_on_kill(NULL, (__u32)arg0, cur,
			      BPF_CORE_READ(cur, pid) == (int)arg0 ? cur : NULL);
}

#endif /* HK_BPF_OOM_KILL_H */
