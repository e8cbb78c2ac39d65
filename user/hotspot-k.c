// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hotspot-k - tells, the moment it happens, which process became OOM risk,
 * Mem-thrashing, Starved, a Noisy neighbor or CPU-bound, and why. The
 * diagnosis runs in the kernel; this program configures it and prints the
 * transitions it sends. It does nothing periodically: it sleeps on the
 * ring buffer.
 *
 * main() only chooses the command (cmd.h); the run, the default, is
 * run.c and its event loop run_loop.c.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "act/freeze.h"
#include "lib/log.h"
#include "cmd/pinned.h"
#include "output/printer.h"
#include "cmd/profile.h"
#include "status/status.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "status"))
		return hk_status__main(argc - 1, argv + 1);
	/* a closed stdout is an EPIPE to report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	hk_log__init(hk_printer__is_journal(STDERR_FILENO, getenv("JOURNAL_STREAM")));
	if (argc > 1 && !strcmp(argv[1], "follow"))
		return hk_pinned__follow(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "unpin"))
		return hk_pinned__unpin(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "profile"))
		return hk_profile_cmd__main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "thaw"))
		return hk_freeze__thaw_main(argc - 1, argv + 1);
	return hk_cmd_run(argc, argv);
}
