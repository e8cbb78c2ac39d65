// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader_kptr.c - a map value's task pointer made a kptr again before the
 * load. clang 14 (Debian 12's) drops the btf_type_tag of a pointer to a
 * struct (clang 15 keeps it): hk_leader.task then reaches the kernel as a
 * plain pointer, and bpf_kptr_xchg() on it is refused ("R1 has no valid
 * kptr"). The member is given a new pointer type, to a "kptr"-tagged
 * task_struct: the untagged pointer type may serve other members.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader_kptr.h"

int hk_loader__kptr_tag(struct bpf_object *obj, const char *st_name, const char *member)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *st, *pt;
	__s32 sid, tag, ptr;
	int i, n;

	sid = btf ? btf__find_by_name_kind(btf, st_name, BTF_KIND_STRUCT) : -ENOENT;
	if (sid < 0)
		return sid;
	st = btf__type_by_id(btf, sid);
	n = btf_vlen(st);
	for (i = 0, m = btf_members(st); i < n; i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			break;
	pt = i < n ? btf__type_by_id(btf, m->type) : NULL;
	if (!pt || !btf_is_ptr(pt))
		return -EINVAL;
	if (btf_is_type_tag(btf__type_by_id(btf, pt->type)))
		return 0;	/* a newer clang kept it */
	tag = btf__add_type_tag(btf, "kptr", pt->type);
	ptr = tag < 0 ? tag : btf__add_ptr(btf, tag);
	if (ptr < 0)
		return ptr;
	/* adding types may have moved them: the member found again */
	st = btf__type_by_id(btf, sid);
	((struct btf_member *)btf_members(st))[i].type = ptr;
	return 0;
}
