// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bpffs.c - the BPF filesystem --pin needs, mounted when it is not (bpffs.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
				    "bpffs: unmount it, or mount bpffs there (%s)", dir,
				    (unsigned long)st.f_type, HK_BPFFS_PRIVATE_MOUNT);
	/* as bpftool does when it pins: private to root, like the pin dir */
	if (mount("bpf", dir, "bpf", 0, "mode=0700")) {
		int e = errno;

		return hk_msg__fail(err, err_len, "no bpffs on %s, and mounting it failed: %s%s",
				    dir, strerror(e), e == EPERM ?
				    " (needs CAP_SYS_ADMIN): mount it first, as root on the host: "
				    HK_BPFFS_PRIVATE_MOUNT : "");
	}
	*mounted = 1;
	return 0;
}

int hk_bpffs__mode_shared(mode_t mode, const char *dir, char *note, size_t len)
{
	if (!(mode & (S_IWGRP | S_IWOTH)))
		return 0;
	snprintf(note, len, "%s is writable by every user (mode %04o, the kernel's default for "
		 "a plain mount): anyone may plant names there; --pin checks its own directory, "
		 "but mount bpffs private: " HK_BPFFS_PRIVATE_MOUNT, dir,
		 (unsigned int)(mode & 07777));
	return 1;
}

int hk_bpffs__shared(const char *dir, char *note, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return 0;
	return hk_bpffs__mode_shared(st.st_mode, dir, note, len);
}
