// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bpf_sys.c - the bpf(2) commands of `hotspot-k status`, issued with
 * syscall(2): see bpf_sys.h for why not through libbpf.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "bpf_sys.h"

static __u64 ptr(const void *p)
{
	return (__u64)(unsigned long)p;
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : (int)ret;
}

int hk_bpf_sys__next_id(int cmd, __u32 id, __u32 *next)
{
	union bpf_attr a = { .start_id = id };
	int err = sys_bpf(cmd, &a);

	*next = a.next_id;
	return err;
}

int hk_bpf_sys__map_fd(__u32 id)
{
	union bpf_attr a = { .map_id = id, .open_flags = BPF_F_RDONLY };

	return sys_bpf(BPF_MAP_GET_FD_BY_ID, &a);
}

int hk_bpf_sys__prog_fd(__u32 id)
{
	union bpf_attr a = { .prog_id = id };

	return sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
}

int hk_bpf_sys__obj_get(const char *path, __u32 flags)
{
	union bpf_attr a = {};

	a.pathname = ptr(path);
	a.file_flags = flags;
	return sys_bpf(BPF_OBJ_GET, &a);
}

int hk_bpf_sys__info(int fd, void *info, __u32 len)
{
	union bpf_attr a = {};

	a.info.bpf_fd = fd;
	a.info.info_len = len;
	a.info.info = ptr(info);
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a);
}

int hk_bpf_sys__lookup(int fd, const void *key, void *value)
{
	union bpf_attr a = {};

	a.map_fd = fd;
	a.key = ptr(key);
	a.value = ptr(value);
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

int hk_bpf_sys__next_key(int fd, const void *key, void *next)
{
	union bpf_attr a = { .map_fd = (__u32)fd, .key = ptr(key), .next_key = ptr(next) };

	return sys_bpf(BPF_MAP_GET_NEXT_KEY, &a);
}

int hk_bpf_sys__lookup_batch(int fd, const void *in_batch, void *out_batch,
			     void *keys, void *values, __u32 *count)
{
	union bpf_attr a = {};
	int err;

	a.batch.map_fd = fd;
	a.batch.in_batch = ptr(in_batch);
	a.batch.out_batch = ptr(out_batch);
	a.batch.keys = ptr(keys);
	a.batch.values = ptr(values);
	a.batch.count = *count;
	err = sys_bpf(BPF_MAP_LOOKUP_BATCH, &a);
	/* the kernel says how many it copied at the end and with a bucket
	 * too big; other errors come before it writes anything */
	*count = !err || err == -ENOENT || err == -ENOSPC ? a.batch.count : 0;
	return err;
}
