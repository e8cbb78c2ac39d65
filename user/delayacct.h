/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * delayacct.h - kernel.task_delayacct, which io_blocked reads from: on
 * while the tool runs, the value found put back when it exits.
 */
#ifndef HK_USER_DELAYACCT_H
#define HK_USER_DELAYACCT_H

#include <stddef.h>

#define HK_DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"

struct hk_delayacct {
	const char *path;	/* HK_DELAYACCT_SYSCTL; a test may point elsewhere */
	int turned_on;		/* it was 0 and we wrote 1: restore() writes 0 */
};

/*
 * Make sure delay accounting is on: 0 when it is (turned on by us, or
 * already), -1 with why when it cannot be (no such sysctl: a kernel
 * without CONFIG_TASK_DELAY_ACCT or before 5.14, where it is on unless
 * booted with nodelayacct; or the write failed).
 */
int hk_delayacct__enable(struct hk_delayacct *d, char *why, size_t why_len);

/* Put back 0 if enable() turned it on; 0, or -1 with errno. */
int hk_delayacct__restore(struct hk_delayacct *d);

/*
 * The switch is global and instances come and go: the one that turned it
 * on has the duty to turn it off, an instance that starts while a holder
 * of the duty runs takes it too (hk_config.delayacct_duty), and whoever
 * holds it and exits last puts 0 back. *nr: other hotspot-k instances
 * running now, pinned included (the caller's own counts if it is loaded);
 * *duty: the newest one (or the pinned one) holds the duty.
 */
void hk_delayacct__others(unsigned int *nr, int *duty);

#endif /* HK_USER_DELAYACCT_H */
