// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * owner.c - a process's owner for fair shares (see owner.h): the real uid
 * of /proc/PID/status where the process shares our user namespace; else
 * up its namespaces' parents (NS_GET_PARENT) to the one right below ours,
 * whose creator's uid (NS_GET_OWNER_UID, in our terms) owns it all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/nsfs.h>
#include "owner.h"

/* the kernel nests user namespaces 32 deep at the most */
#define USERNS_DEPTH_MAX 33

static int real_uid(__u32 pid, __u32 *uid)
{
	char path[64], line[256];
	unsigned int u;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "Uid: %u", &u) == 1;
	fclose(f);
	if (!found)
		return -EIO;
	*uid = u;
	return 0;
}

static int same_ns(int fd, const struct stat *ours)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_ino == ours->st_ino && st.st_dev == ours->st_dev;
}

int hk_owner__of(__u32 pid, __u32 *owner)
{
	char path[64];
	struct stat ours;
	int fd, parent, depth, err;
	uid_t uid;

	err = real_uid(pid, owner);
	if (err)
		return err;
	snprintf(path, sizeof(path), "/proc/%u/ns/user", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	if (stat("/proc/self/ns/user", &ours)) {
		err = -errno;
		goto out;
	}
	for (depth = 0; depth < USERNS_DEPTH_MAX && !same_ns(fd, &ours); depth++) {
		parent = ioctl(fd, NS_GET_PARENT);
		/* EPERM: not below ours (the tool in a namespace of its
		 * own): its real uid as we see it is all we know */
		if (parent < 0) {
			err = errno == EPERM ? 0 : -errno;
			goto out;
		}
		if (same_ns(parent, &ours)) {
			close(parent);
			if (ioctl(fd, NS_GET_OWNER_UID, &uid)) {
				err = -errno;
				goto out;
			}
			*owner = uid;
			goto out;
		}
		close(fd);
		fd = parent;
	}
out:
	close(fd);
	return err;
}
