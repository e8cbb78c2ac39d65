// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_target.c - the profiled process's end, read through its
 * pidref (see profile_target.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/pidref.h"
#include "profile_target.h"

int hk_profile_target__gone(const struct hk_pidref *ref)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd, zombie;

	if (!hk_pidref__held(ref))
		return 1;
	snprintf(path, sizeof(path), "/proc/%u/stat", ref->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "PID (COMM) S ...": the comm may hold ')' */
	paren = strrchr(buf, ')');
	zombie = paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
	/* what was read was the process's only if it still holds the PID */
	return zombie || !hk_pidref__held(ref);
}
