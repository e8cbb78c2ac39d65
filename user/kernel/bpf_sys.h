/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bpf_sys.h - the few bpf(2) commands `hotspot-k status` issues, each
 * returning -errno on failure. Issued directly, not through libbpf: only
 * the files the Makefile lists in SKEL_USERS (the skeletons' users: the
 * loader, the profiler, the commands that hold them) link libbpf; every
 * other user/ file, this one and status's included, is linked into the
 * unit tests and the fuzz targets, which do not.
 */
#ifndef HK_USER_STATUS_BPF_H
#define HK_USER_STATUS_BPF_H

#include <linux/bpf.h>

/* The id after id of a map (BPF_MAP_GET_NEXT_ID) or a program
 * (BPF_PROG_GET_NEXT_ID); -ENOENT after the last. */
int hk_bpf_sys__next_id(int cmd, __u32 id, __u32 *next);
/* A read-only fd of a map; -ENOENT when it went meanwhile. */
int hk_bpf_sys__map_fd(__u32 id);
int hk_bpf_sys__prog_fd(__u32 id);
/* An fd of a pinned map, opened with flags (BPF_F_RDONLY: read-only). */
int hk_bpf_sys__obj_get(const char *path, __u32 flags);
/* BPF_OBJ_GET_INFO_BY_FD into info (len bytes, zeroed by the caller). */
int hk_bpf_sys__info(int fd, void *info, __u32 len);
int hk_bpf_sys__lookup(int fd, const void *key, void *value);
/* The key after key (NULL: the first) into next; -ENOENT after the last. */
int hk_bpf_sys__next_key(int fd, const void *key, void *next);
/*
 * BPF_MAP_LOOKUP_BATCH: up to *count entries from the position in_batch
 * (NULL: the start) into keys and values; *count gets how many were copied
 * (also with -ENOENT, which says that was the end) and out_batch where to
 * go on.
 */
int hk_bpf_sys__lookup_batch(int fd, const void *in_batch, void *out_batch,
			     void *keys, void *values, __u32 *count);

#endif /* HK_USER_STATUS_BPF_H */
