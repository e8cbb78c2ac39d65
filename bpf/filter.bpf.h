/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * filter.bpf.h - which processes the walk diagnoses: --pid, --comm,
 * --exclude-comm, --cgroup (hk_config's filter_*). Decided once per
 * process met, before any per-process work, so that a filter that keeps
 * few processes also saves the walk their cost.
 */
#ifndef HK_BPF_FILTER_H
#define HK_BPF_FILTER_H

#include "window.bpf.h"

/* comm (a task's, NUL-terminated) equals want (NUL-padded) */
static __always_inline int hk_comm_eq(const char *comm, const char *want)
{
	int i;

	for (i = 0; i < HK_COMM_LEN; i++) {
		if (comm[i] != want[i])
			return 0;
		if (!comm[i])
			return 1;
	}
	return 1;
}

static __always_inline int hk_comm_listed(const char *comm, const struct hk_comm_list *l)
{
	__u32 i, n = l->n;

	for (i = 0; i < HK_FILTER_COMMS && i < n; i++)
		if (hk_comm_eq(comm, l->comm[i]))
			return 1;
	return 0;
}

/* cgroup->ancestor_ids[], ids by level: Linux 5.15 to 5.19 (replaced by
 * ancestors[], pointers, in 6.0: commit 7f203bc89eb6) */
struct cgroup___ids {
	int level;
	__u64 ancestor_ids[];
} __attribute__((preserve_access_index));

/*
 * t's cgroup in the filter's hierarchy is the filter's or below it: its
 * ancestor at the filter's level is the filter, as the kernel's own
 * cgroup_is_descendant() decides, in one read whatever the depth (a
 * process nested deeper than a walk up would read cannot step out of
 * the filter).
 */
static __always_inline int hk_cgroup_under(struct task_struct *t, const struct hk_config *c)
{
	struct cgroup_subsys_state *css;
	struct cgroup___ids *old;
	struct cgroup *cg, *anc;
	__u32 lvl = c->filter_cgroup_level;
	int i, id;

	if (c->filter_cgroup_hier == HK_FILTER_HIER_V2) {
		cg = BPF_CORE_READ(t, cgroups, dfl_cgrp);
	} else {
		if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
			return 0;
		id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		if (id < 0 || id >= 16)
			return 0;
		css = BPF_CORE_READ(t, cgroups, subsys[id]);
		cg = css ? BPF_CORE_READ(css, cgroup) : NULL;
	}
	if (!cg)
		return 0;
	if (bpf_core_field_exists(cg->ancestors)) {
		if ((__u32)BPF_CORE_READ(cg, level) < lvl)
			return 0;
		anc = BPF_CORE_READ(cg, ancestors[lvl & 0xffff]);
		return anc && BPF_CORE_READ(anc, kn, id) == c->filter_cgroup_id;
	}
	old = (void *)cg;
	if (bpf_core_field_exists(old->ancestor_ids)) {
		if ((__u32)BPF_CORE_READ(old, level) < lvl)
			return 0;
		return BPF_CORE_READ(old, ancestor_ids[lvl & 0xffff]) == c->filter_cgroup_id;
	}
	for (i = 0; i < HK_FILTER_DEPTH && cg; i++) {
		if (BPF_CORE_READ(cg, kn, id) == c->filter_cgroup_id)
			return 1;
		/* self is a cgroup's first member: its parent css is the
		 * parent cgroup */
		cg = (struct cgroup *)BPF_CORE_READ(cg, self.parent);
	}
	return 0;
}

/*
 * Whether the process whose group leader is at leader_addr is one to
 * diagnose (it passes every filter set). Global, with a scalar argument
 * (the address as a probe read gives it, not a typed pointer): the verifier
 * checks it once, on its own. A static function is checked again at every
 * call, inside the walk's loop, where its own loops multiplied the states:
 * 6.12's verifier gave up on the wq walk after 1M instructions. Every read
 * is a probe read, which takes the address as it is.
 */
__noinline int hk_filter_pass(__u64 leader_addr)
{
	struct task_struct *t = (struct task_struct *)leader_addr;
	struct hk_config *c = hk_cfg();
	char comm[HK_COMM_LEN] = {};
	__u32 tgid, i, n;

	if (!c)
		return 1;
	n = c->filter_pids.n;
	if (n) {
		tgid = BPF_CORE_READ(t, tgid);
		for (i = 0; i < HK_FILTER_PIDS && i < n; i++)
			if (c->filter_pids.pid[i] == tgid)
				break;
		if (i >= n || i >= HK_FILTER_PIDS)
			return 0;
	}
	if (c->filter_comms.n || c->exclude_comms.n) {
		/* the process's name: its leader's, as ps shows it */
		BPF_CORE_READ_INTO(&comm, t, comm);
		if (c->filter_comms.n && !hk_comm_listed(comm, &c->filter_comms))
			return 0;
		if (hk_comm_listed(comm, &c->exclude_comms))
			return 0;
	}
	if (c->filter_cgroup_hier != HK_FILTER_HIER_NONE && !hk_cgroup_under(t, c))
		return 0;
	return 1;
}

/* Any filter set: the walk asks hk_filter_pass() once per process. */
static __always_inline int hk_filter_any(const struct hk_config *c)
{
	return c->filter_pids.n || c->filter_comms.n || c->exclude_comms.n ||
	       c->filter_cgroup_hier != HK_FILTER_HIER_NONE;
}

#endif /* HK_BPF_FILTER_H */
