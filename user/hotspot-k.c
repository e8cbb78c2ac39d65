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
 * run.c and its event loop run_loop.c. `help [COMMAND]` is that
 * command's --help; a word that names no command is refused here.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "cmd/usage.h"
#include "lib/log.h"
#include "lib/msg.h"
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
	{ "version",	hk_cmd_version,	false },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))
/* as an unknown command is told them (the completions check theirs) */
#define COMMAND_LIST "status, follow, unpin, thaw, profile, help, version"

/* Edits from a to b (Levenshtein), up to 15 bytes each; more: 99. */
static unsigned int edits(const char *a, const char *b)
{
	unsigned int d[16][16], i, j, la = (unsigned int)strlen(a),
		     lb = (unsigned int)strlen(b), sub;

	if (la > 15 || lb > 15)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			d[i][j] = d[i - 1][j] + 1 < d[i][j - 1] + 1 ? d[i - 1][j] + 1 :
								       d[i][j - 1] + 1;
			if (sub < d[i][j])
				d[i][j] = sub;
		}
	return d[la][lb];
}

/* A first word that names no command (it was "unexpected argument"):
 * the list, and the nearest name when one is 2 edits away at most. */
static int unknown_command(const char *word)
{
	char q[HK_QUOTE_BUF], hint[64] = "";
	unsigned int i, e, best = 3;
	const char *name;

	for (i = 0; i <= NR_COMMANDS; i++) {
		name = i < NR_COMMANDS ? commands[i].name : "help";
		e = edits(word, name);
		if (e < best) {
			best = e;
			snprintf(hint, sizeof(hint), "; did you mean '%s'?", name);
		}
	}
	return hk_usage__error(NULL, "unknown command '%s' (commands: " COMMAND_LIST ")%s",
			       hk_msg__quote(q, sizeof(q), word), hint);
}

/* hotspot-k help [COMMAND]: that command's --help, or the run's. */
static int help(int argc, char **argv)
{
	char *run_help[] = { "hotspot-k", "--help", NULL };
	char *cmd_help[] = { NULL, "--help", NULL };
	size_t i;

	if (argc > 2)
		return hk_usage__error(NULL, "help: one command at a time; unexpected '%s'",
				       argv[2]);
	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "--help"))
		return hk_cmd_run(2, run_help);
	for (i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		cmd_help[0] = argv[1];
		return commands[i].fn(2, cmd_help);
	}
	return unknown_command(argv[1]);
}

/* a closed stdout is an EPIPE to report, not a silent death */
static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	hk_log__init(hk_printer__is_journal(STDERR_FILENO, getenv("JOURNAL_STREAM")));
}

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < NR_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (commands[i].setup)
			setup();
		return commands[i].fn(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	/* a word first is a command or nothing: the run takes options only */
	if (argc > 1 && argv[1][0] != '-')
		return unknown_command(argv[1]);
	setup();
	return hk_cmd_run(argc, argv);
}
