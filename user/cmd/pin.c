// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * pin.c - --pin's two steps around the load (run.c): the pin directory
 * looked at before loading (taken, or planted by someone else: refused
 * then, nothing loaded), and after it made, checked and filled through
 * its fd (kernel/pindir.h).
 *
 * On a bpffs every user can write (1777, a plain mount's mode) --pin still
 * pins, and says so: its directory is made here, root's, mode 0700, and
 * checked by fd; bpffs's root is sticky, so nobody else can rename or
 * remove it, nor write in it. Refusing would only leave such hosts
 * (OpenRC, containers, VMs) without --pin, and the risk is the name being
 * taken first, which is refused in one line naming who took it.
 */
#include <errno.h>
#include <stdio.h>
#include "kernel/bpffs.h"
#include "kernel/pindir.h"
#include "lib/log.h"
#include "pin.h"

int hk_run__pin_before(void)
{
	struct hk_pindir pd;
	char err[768];
	int mounted, e;

	/* a host without systemd (a container, a minimal VM, CI) may have
	 * nothing on /sys/fs/bpf: mounted now, and said */
	if (hk_bpffs__ensure(HK_BPFFS_DIR, &mounted, err, sizeof(err))) {
		hk_log__print(HK_LOG_ERR, "--pin: %s\n", err);
		return -1;
	}
	e = hk_pindir__open(&pd, 0, err, sizeof(err));
	if (!e) {
		hk_pindir__close(&pd);
		hk_log__print(HK_LOG_ERR, "--pin: %s exists: an instance is pinned already "
			      "(hotspot-k status shows it, hotspot-k unpin stops it)\n", HK_PIN_DIR);
		return -1;
	}
	if (e != -ENOENT) {
		hk_log__print(HK_LOG_ERR, "--pin: %s\n", err);
		return -1;
	}
	if (mounted)
		hk_log__print(HK_LOG_NOTICE, "--pin: nothing was mounted on %s: mounted "
			      "bpffs there (mode 0700)\n", HK_BPFFS_DIR);
	else if (hk_bpffs__shared(HK_BPFFS_DIR, err, sizeof(err)))
		hk_log__print(HK_LOG_WARNING, "--pin: %s\n", err);
	return 0;
}

int hk_run__pin(struct hk_loader *l, char *err, size_t err_len)
{
	struct hk_pindir pd;
	char why[768];
	int ret;

	/* made here, never found: the directory is this run's lock, so that
	 * a failure below removes this run's pins and no other instance's */
	if (hk_pindir__open(&pd, 1, why, sizeof(why))) {
		snprintf(err, err_len, "--pin: %s", why);
		return -1;
	}
	ret = hk_loader__pin(l, pd.path, err, err_len);
	if (ret)
		hk_pindir__unpin(&pd, why, sizeof(why));
	hk_pindir__close(&pd);
	return ret;
}
