// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * delayacct.c - turn delay accounting on for io_blocked, and back off.
 *
 * The kernel keeps each thread's time blocked in I/O wait (blkio_delay)
 * only with kernel.task_delayacct = 1 (off by default since 5.14: it costs
 * two clock reads and a lock per I/O sleep). It is a global switch: a
 * tool that turns it on must turn it off again, and must not turn off
 * what the administrator turned on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "delayacct.h"
#include "status_bpf.h"
#include "status_find.h"

static const char *sysctl_path(const struct hk_delayacct *d)
{
	return d->path ? d->path : HK_DELAYACCT_SYSCTL;
}

/* The switch's value: 0 or 1, or -1 with errno. */
static int read_switch(const char *path)
{
	char buf[8] = "";
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || (buf[0] != '0' && buf[0] != '1')) {
		errno = n < 0 ? errno : EINVAL;
		return -1;
	}
	return buf[0] - '0';
}

static int write_switch(const char *path, char v)
{
	int fd, ok;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, &v, 1) == 1;
	if (close(fd) && ok)
		return -1;
	return ok ? 0 : -1;
}

int hk_delayacct__enable(struct hk_delayacct *d, char *why, size_t why_len)
{
	const char *path = sysctl_path(d);
	int v;

	if (d->turned_on)
		return 0;
	v = read_switch(path);
	if (v < 0) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (v == 1)
		return 0;
	if (write_switch(path, '1')) {
		snprintf(why, why_len, "cannot turn delay accounting on (%s): %s", path,
			 strerror(errno));
		return -1;
	}
	d->turned_on = 1;
	return 0;
}

int hk_delayacct__restore(struct hk_delayacct *d)
{
	if (!d->turned_on)
		return 0;
	d->turned_on = 0;
	return write_switch(sysctl_path(d), '0');
}

void hk_delayacct__others(unsigned int *nr, int *duty)
{
	struct hk_status_maps m;
	struct hk_config cfg;
	char err[256];
	__u32 zero = 0;

	*nr = 0;
	*duty = 0;
	/* none, or none that can be seen (no CAP_SYS_ADMIN): alone */
	if (hk_status__find(&m, err, sizeof(err)))
		return;
	*nr = m.nr_instances ? m.nr_instances : 1;
	if (!hk_status_bpf__lookup(m.config_fd, &zero, &cfg))
		*duty = cfg.delayacct_duty != 0;
	hk_status__close(&m);
}
