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

/* Does struct sname have a member mname (at its top level)? */
static inline int hk_kfields__has_member(const struct btf *btf, const char *sname,
					 const char *mname)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return 0;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (n && !strcmp(n, mname))
			return 1;
	}
	return 0;
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

#endif
