// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hotspot-k - tells, the moment it happens, which process became OOM risk,
 * Mem-throttled, Mem-thrashing, Throttled, Starved, a Noisy neighbor,
 * I/O-blocked or CPU-bound, and why. The diagnosis runs in the kernel; this
 * program configures it and prints the transitions it sends. It sleeps on
 * the ring buffer, woken otherwise by a watchdog (wq, timer) or to read
 * each walk (iter).
 *
 * main() only chooses the command (cmd.h); the run, the default, is
 * run.c and its event loop run_loop.c.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "lib/log.h"
#include "output/printer.h"

/*
 * The commands, as perf's commands[] and bpftool's cmds[]: the first word
 * names one, anything else (an option, nothing) is the run.
 */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	/* status writes to a terminal or a pipe and logs nothing: it keeps
	 * SIGPIPE's default and has no need of the log's set-up */
	bool setup;
} commands[] = {
	{ "status",	hk_cmd_status,	false },
	{ "follow",	hk_cmd_follow,	true },
	{ "unpin",	hk_cmd_unpin,	true },
	{ "profile",	hk_cmd_profile,	true },
	{ "thaw",	hk_cmd_thaw,	true },
};

/* a closed stdout is an EPIPE to report, not a silent death */
static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	hk_log__init(hk_printer__is_journal(STDERR_FILENO, getenv("JOURNAL_STREAM")));
}

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (commands[i].setup)
			setup();
		return commands[i].fn(argc - 1, argv + 1);
	}
	setup();
	return hk_cmd_run(argc, argv);
}
