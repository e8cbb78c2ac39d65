// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * pidref.c - a PID checked to be the process an event is about (pidref.h).
 *
 * The order matters: the pidfd is opened first, then the start time read.
 * If the time matches, the process that held the PID when the pidfd was
 * opened is that one (a PID is never held by two live processes), and
 * while the pidfd's process holds the PID nobody else can take it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "pidref.h"
#include "shared/units.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

unsigned long long hk_pidref__start_ticks(__u32 pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		errno = n < 0 ? errno : EIO;
		return 0;
	}
	buf[n] = '\0';
	/* the name may hold spaces and ')': fields start after the last ')' */
	p = strrchr(buf, ')');
	if (!p) {
		errno = EIO;
		return 0;
	}
	/* p + 2 is field 3 (state); field 22 is 19 fields further */
	p += 2;
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu", &ticks) != 1) {
		errno = EIO;
		return 0;
	}
	return ticks;
}

int hk_pidref__open(struct hk_pidref *r, __u32 pid, __u64 start_boottime_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long ticks;
	int fd;

	r->pidfd = -1;
	r->pid = pid;
	if (!pid || hz <= 0)
		return -EINVAL;
	fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (fd < 0)
		return -errno;
	ticks = hk_pidref__start_ticks(pid);
	if (!ticks && errno) {
		int e = errno == ENOENT ? ESRCH : errno;

		close(fd);
		return -e;
	}
	/* the kernel's own rounding (nsec_to_clock_t: a floor division) */
	if (ticks != start_boottime_ns / (HK_NSEC_PER_SEC / (__u64)hz)) {
		close(fd);
		return -ESTALE;
	}
	r->pidfd = fd;
	return 0;
}

int hk_pidref__held(const struct hk_pidref *r)
{
	if (r->pidfd < 0)
		return 0;
	/* signal 0 checks only; ESRCH once the process is reaped */
	return syscall(SYS_pidfd_send_signal, r->pidfd, 0, NULL, 0) == 0 || errno == EPERM;
}

void hk_pidref__close(struct hk_pidref *r)
{
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
}

const char *hk_pidref__strerror(int err)
{
	switch (err) {
	case -ESRCH:
		return "it exited";
	case -ESTALE:
		return "it exited, and its PID now belongs to another process";
	default:
		return strerror(-err);
	}
}
