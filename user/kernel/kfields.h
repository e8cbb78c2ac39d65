/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * kfields.h - kernel struct fields the BPF side reads directly, checked in
 * the kernel's BTF before load: a kernel built without them gets one line
 * saying which, not a CO-RE relocation failure in the verifier's log.
 * Header-only: its users link libbpf (the tool, prog-test); the unit tests
 * and fuzzers do not.
 */
#ifndef HK_USER_KFIELDS_H
#define HK_USER_KFIELDS_H

#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

/* Does enum ename have a value vname? */
static inline int hk_kfields__has_enum_value(const struct btf *btf, const char *ename,
					     const char *vname)
{
	const struct btf_enum *e;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, ename, BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return 0;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(btf, e->name_off);

		if (n && !strcmp(n, vname))
			return 1;
	}
	return 0;
}

/* The type of member mname of the struct or union t, its anonymous
 * members searched too (mm_struct keeps its fields in one), typedefs and
 * qualifiers skipped; NULL when there is none. */
static inline const struct btf_type *hk_kfields__find_member(const struct btf *btf,
							      const struct btf_type *t,
							      const char *mname, int depth)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *mt;
	int i, id;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		id = btf__resolve_type(btf, m->type);
		mt = id > 0 ? btf__type_by_id(btf, id) : NULL;
		if (n && !strcmp(n, mname))
			return mt;
		if ((!n || !*n) && mt && btf_is_composite(mt) && depth < 4) {
			mt = hk_kfields__find_member(btf, mt, mname, depth + 1);
			if (mt)
				return mt;
		}
	}
	return NULL;
}

static inline const struct btf_type *hk_kfields__member_type(const struct btf *btf,
							      const char *sname,
							      const char *mname)
{
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	return t ? hk_kfields__find_member(btf, t, mname, 0) : NULL;
}

/* Does struct sname have a member mname (in an anonymous member too)? */
static inline int hk_kfields__has_member(const struct btf *btf, const char *sname,
					 const char *mname)
{
	return hk_kfields__member_type(btf, sname, mname) != NULL;
}

/* 0 when every field is there; else -1 and a one-line reason in err. */
static inline int hk_kfields__check(const struct btf *vmlinux, char *err, size_t err_len)
{
	/*
	 * Run-queue wait and the quiet test (bpf/walk.bpf.h): struct
	 * sched_info is empty without CONFIG_SCHED_INFO (minimal and embedded
	 * kernels), which CONFIG_SCHEDSTATS and CONFIG_TASK_DELAY_ACCT select.
	 */
	static const char *const sched_info[] = { "run_delay", "last_arrival", "last_queued" };
	size_t i;

	for (i = 0; i < sizeof(sched_info) / sizeof(sched_info[0]); i++) {
		if (hk_kfields__has_member(vmlinux, "sched_info", sched_info[i]))
			continue;
		snprintf(err, err_len, "missing run-queue statistics: the kernel's struct "
			 "sched_info has no %s (built without CONFIG_SCHED_INFO, which "
			 "CONFIG_SCHEDSTATS or CONFIG_TASK_DELAY_ACCT selects)", sched_info[i]);
		return -1;
	}
	return 0;
}

/* mm->rss_stat as one of the two layouts bpf/core_fixes.bpf.h reads:
 * percpu_counter[] (6.2+) or struct mm_rss_stat (before). */
static inline int hk_kfields__rss_known(const struct btf *btf)
{
	const struct btf_type *t = hk_kfields__member_type(btf, "mm_struct", "rss_stat");
	const char *n;
	int id;

	if (t && btf_is_array(t)) {
		id = btf__resolve_type(btf, btf_array(t)->type);
		t = id > 0 ? btf__type_by_id(btf, id) : NULL;
		n = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		return n && !strcmp(n, "percpu_counter");
	}
	n = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	return n && !strcmp(n, "mm_rss_stat");
}

/* Append one thing unseen to line: "; " after the first. */
static inline void hk_kfields__unseen(char *line, size_t len, const char *what,
				      const char *why)
{
	size_t n = strlen(line);

	if (n + 1 < len)
		snprintf(line + n, len - n, "%s%s (%s)", n ? "; " : "not seen on this kernel: ",
			 what, why);
}

/*
 * What the walk cannot see on this kernel, by what it was built without:
 * one line into line (empty when it sees everything). Each read it names
 * is guarded in the BPF side and degrades to 0 (review kernel-2,
 * finding 3); this is the one place it is said.
 */
static inline void hk_kfields__blind(const struct btf *vmlinux, char *line, size_t len)
{
	line[0] = 0;
	if (!hk_kfields__has_member(vmlinux, "mem_cgroup", "nodeinfo") ||
	    !hk_kfields__has_enum_value(vmlinux, "cgroup_subsys_id", "memory_cgrp_id"))
		hk_kfields__unseen(line, len, "memory cgroups, so no memory limits, and OOM "
				   "risk's headroom is RAM less the process's own anon",
				   "built without CONFIG_MEMCG");
	/* CGROUP_SCHED=n takes FAIR_GROUP_SCHED (the run queue of a task's
	 * entity, the groups' shares and quotas) with it */
	if (!hk_kfields__has_member(vmlinux, "sched_entity", "cfs_rq"))
		hk_kfields__unseen(line, len, "CPU quotas, group weights, CPU time lost to "
				   "steal and IRQs",
				   hk_kfields__has_member(vmlinux, "task_struct",
							  "sched_task_group") ?
				   "built without CONFIG_FAIR_GROUP_SCHED" :
				   "built without CONFIG_CGROUP_SCHED");
	if (!hk_kfields__rss_known(vmlinux))
		hk_kfields__unseen(line, len, "memory use, so no RSS and no OOM risk",
				   "mm_struct's rss_stat in a layout this build does not read");
}

#endif
