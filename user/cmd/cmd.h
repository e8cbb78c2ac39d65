/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cmd/ - one file per command of hotspot-k, each the whole path from its
 * argv to its exit status, over the other folders: run.c (the default;
 * its flags cli.c, its event loop run_loop.c), status.c, pinned.c
 * (follow, unpin), profile.c, thaw.c. main() (hotspot-k.c) only chooses.
 *
 * cmd.h - what every command leaves with: the exit statuses, stated once
 * so that run, status, thaw, profile, follow and unpin agree (the man
 * page's EXIT STATUS).
 */
#ifndef HK_USER_CMD_H
#define HK_USER_CMD_H

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

/* `hotspot-k [OPTION...]`, the default command (run.c): argv as main got
 * it; the exit status. */
int hk_cmd_run(int argc, char **argv);

#endif /* HK_USER_CMD_H */
