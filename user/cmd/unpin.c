// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * unpin.c - `hotspot-k unpin`: the instance --pin left in the kernel
 * stopped (its pins under HK_PIN_DIR removed: its programs and maps go
 * with the last reference), and kernel.task_delayacct put back if it
 * held that duty (kernel/delayacct.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "kernel/bpffs.h"
#include "kernel/delayacct.h"

int hk_cmd_unpin(int argc, char **argv)
{
	int n, duty;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			puts("Usage: hotspot-k unpin\n\nStop the instance started with --pin: "
			     "remove " HK_PIN_DIR "; its programs and maps go with the last "
			     "reference.");
			return 0;
		}
		fprintf(stderr, "hotspot-k unpin: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	duty = hk_delayacct__pinned_duty();
	n = hk_bpffs__unpin(HK_PIN_DIR);
	if (n == -ENOENT) {
		fprintf(stderr, "hotspot-k unpin: nothing pinned (%s)\n", HK_PIN_DIR);
		return 1;
	}
	if (n < 0) {
		fprintf(stderr, "hotspot-k unpin: %s: %s\n", HK_PIN_DIR, strerror(-n));
		return 1;
	}
	printf("hotspot-k: %d pins removed from %s: the pinned instance is stopped\n", n,
	       HK_PIN_DIR);
	hk_delayacct__unpin(duty);
	return 0;
}
