// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * unpin.c - `hotspot-k unpin`: the instance --pin left in the kernel
 * stopped (its pins under HK_PIN_DIR removed: its programs and maps go
 * with the last reference), and kernel.task_delayacct put back if it
 * held that duty (kernel/delayacct.h). Only the directory --pin makes is
 * touched, through its fd, and only the pins --pin makes in it
 * (kernel/pindir.h): a name planted there by someone else is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "kernel/bpffs.h"
#include "kernel/delayacct.h"
#include "kernel/pindir.h"
#include "kernel/preflight.h"
#include "usage.h"

int hk_cmd_unpin(int argc, char **argv)
{
	struct hk_pindir pd;
	char err[768], note[512];
	int n, duty;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			puts("Usage: hotspot-k unpin\n\nStop the instance started with --pin: "
			     "remove " HK_PIN_DIR ";\nits programs and maps go with the last "
			     "reference.\n\nExit status: 0 unpinned, 1 a failure, 2 usage "
			     "error, 3 nothing pinned.");
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		}
		return hk_usage__error("unpin", "%s '%s'", argv[1][0] == '-' ?
				       "unknown option" : "unexpected argument", argv[1]);
	}
	if (hk_preflight__need_root("unpin", "it removes the pinned programs and maps", err,
				    sizeof(err))) {
		fprintf(stderr, "hotspot-k unpin: %s\n", err);
		return EXIT_RUNTIME;
	}
	n = hk_pindir__open(&pd, 0, err, sizeof(err));
	if (n) {
		fprintf(stderr, "hotspot-k unpin: %s\n", err);
		return n == -ENOENT ? EXIT_NOT_RUNNING : EXIT_RUNTIME;
	}
	duty = hk_delayacct__pinned_duty(&pd, note, sizeof(note));
	if (note[0])
		fprintf(stderr, "hotspot-k unpin: %s: delay accounting as recorded\n", note);
	n = hk_pindir__unpin(&pd, err, sizeof(err));
	hk_pindir__close(&pd);
	if (n < 0) {
		fprintf(stderr, "hotspot-k unpin: %s\n", err);
		return 1;
	}
	printf("hotspot-k: %d pins removed from %s: the pinned instance is stopped\n", n,
	       HK_PIN_DIR);
	hk_delayacct__unpin(duty);
	return 0;
}
