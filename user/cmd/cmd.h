/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cmd/ - one file per command of hotspot-k, each the whole path from its
 * argv to its exit status, over the other folders: run.c (the default;
 * its flags cli.c, its event loop run_loop.c, --pin's steps pin.c),
 * status.c, follow.c, unpin.c, profile.c, thaw.c, version.c; usage.c says
 * their usage errors. main() (hotspot-k.c) only chooses, from its table
 * of commands (and says an unknown one).
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
	/* status, follow, unpin: no instance running (pinned) to look at or
	 * stop, told apart from a failure; 3 as systemctl is-active's
	 * inactive */
	EXIT_NOT_RUNNING = 3,
};

/*
 * The commands: each gets argv from its name on (argv[0] "status", ...;
 * the run, the default, gets main's), and returns the exit status.
 */
int hk_cmd_run(int argc, char **argv);		/* hotspot-k [OPTION...]: run.c */
int hk_cmd_status(int argc, char **argv);	/* hotspot-k status: status.c */
int hk_cmd_follow(int argc, char **argv);	/* hotspot-k follow: follow.c */
int hk_cmd_unpin(int argc, char **argv);	/* hotspot-k unpin: unpin.c */
int hk_cmd_profile(int argc, char **argv);	/* hotspot-k profile PID: profile.c */
int hk_cmd_thaw(int argc, char **argv);		/* hotspot-k thaw CGROUP: thaw.c */
int hk_cmd_version(int argc, char **argv);	/* hotspot-k version, --version: version.c */

#endif /* HK_USER_CMD_H */
