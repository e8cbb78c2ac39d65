/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_kptr.h - a map value's pointer member tagged "kptr" again before
 * the load (clang 14 drops the tag): loader_kptr.c.
 */
#ifndef HK_USER_LOADER_KPTR_H
#define HK_USER_LOADER_KPTR_H

struct bpf_object;

/* st_name's member, a pointer to a struct, made a kptr in obj's BTF: 0, or
 * -errno (no such struct or member, or not a pointer; out of memory). */
int hk_loader__kptr_tag(struct bpf_object *obj, const char *st_name, const char *member);

#endif /* HK_USER_LOADER_KPTR_H */
