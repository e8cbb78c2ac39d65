// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bpffs.c - the BPF filesystem --pin needs, mounted when it is not (bpffs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "bpffs.h"
#include "lib/msg.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif
#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

int hk_bpffs__is_bpffs(const char *dir)
{
	struct statfs st;

	if (statfs(dir, &st))
		return -1;
	return st.f_type == BPF_FS_MAGIC;
}

int hk_bpffs__ensure(const char *dir, int *mounted, char *err, size_t err_len)
{
	struct statfs st;

	*mounted = 0;
	if (statfs(dir, &st))
		return hk_msg__fail(err, err_len, "%s: %s%s", dir, strerror(errno),
				    errno == ENOENT ? " (no sysfs on /sys, or a kernel without "
				    "CONFIG_BPF_SYSCALL)" : "");
	if (st.f_type == BPF_FS_MAGIC)
		return 0;
	/* something else is mounted there (a tmpfs a container runtime put
	 * over it): mounting over it would hide what it holds */
	if (st.f_type != SYSFS_MAGIC)
		return hk_msg__fail(err, err_len, "%s is another filesystem (type 0x%lx), not "
				    "bpffs: unmount it, or mount bpffs there (mount -t bpf bpf %s)",
				    dir, (unsigned long)st.f_type, dir);
	/* as bpftool does when it pins: private to root, like the pin dir */
	if (mount("bpf", dir, "bpf", 0, "mode=0700")) {
		int e = errno;

		return hk_msg__fail(err, err_len, "no bpffs on %s, and mounting it failed: %s%s",
				    dir, strerror(e), e == EPERM ?
				    " (needs CAP_SYS_ADMIN): mount it first, as root on the host: "
				    "mount -t bpf bpf /sys/fs/bpf" : "");
	}
	*mounted = 1;
	return 0;
}

int hk_bpffs__unpin(const char *dir)
{
	struct dirent *d;
	char path[512];
	int n = 0;
	DIR *dh;

	dh = opendir(dir);
	if (!dh)
		return -errno;
	/* only BPF objects live on bpffs: every file is one of ours */
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!unlink(path))
			n++;
	}
	closedir(dh);
	if (rmdir(dir))
		return -errno;
	return n;
}
