/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * oom_memcg.h - the memory cgroup an OOM kill names (by kernfs id and
 * directory name, hk_oom_kill) as a path, or "host" for a global OOM.
 */
#ifndef HK_USER_OOM_MEMCG_H
#define HK_USER_OOM_MEMCG_H

#include <stddef.h>
#include "shared/hotspot.h"

/* The most directory levels searched below the memory hierarchy's mount. */
#define HK_OOM_MEMCG_SEARCH_DEPTH 16

/*
 * The path of k's memory cgroup under mount (the memory hierarchy's mount
 * point), found by its directory's inode (the kernfs id) among those named
 * k->memcg_name: malloc'd ("/" for the root), or NULL when it is gone (the
 * victim's cgroup removed since) or k names none.
 */
char *hk_oom_memcg__find(const char *mount, const struct hk_oom_kill *k);

/*
 * What an OOM kill's line says of its memory cgroup, into buf: "host" (no
 * cgroup at its limit), path when found, else ".../NAME" (the directory
 * name the kernel gave: its place is gone). Always NUL-terminated.
 */
void hk_oom_memcg__name(char *buf, size_t len, const struct hk_oom_kill *k,
			const char *path);

/*
 * k's memory cgroup as hk_oom_memcg__name() words it, looked up in the
 * running system's memory hierarchy (mountinfo): malloc'd, or NULL (no
 * memory).
 */
char *hk_oom_memcg__describe(const struct hk_oom_kill *k);

#endif /* HK_USER_OOM_MEMCG_H */
