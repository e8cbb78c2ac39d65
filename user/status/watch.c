// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * watch.c - `hotspot-k status --watch`: the status redrawn in place
 * on a terminal, as top does, until q, SIGINT or SIGTERM.
 *
 * Each frame is made in memory first and written whole after "home, clear
 * screen": the table never shows half old, half new. The keyboard is read
 * one key at a time without echo (canonical mode off, signals kept: Ctrl-C
 * still stops it), and the terminal's modes and cursor are put back on
 * every way out.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "lib/clock.h"
#include "status.h"

#define CLEAR_HOME	"\033[H\033[2J"
#define CURSOR_HIDE	"\033[?25l"
#define CURSOR_SHOW	"\033[?25h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/* Wait up to ms for q on the keyboard (fd -1: none) or a stop signal. */
static void wait_key(int *fd, __u64 ms)
{
	__u64 end = mono_ns() + ms * HK_NSEC_PER_MSEC, now;
	struct pollfd p;
	char c;
	int r;

	while (!stop && (now = mono_ns()) < end) {
		p = (struct pollfd){ .fd = *fd, .events = POLLIN };
		r = poll(&p, *fd >= 0, (int)((end - now + HK_NSEC_PER_MSEC - 1) /
					     HK_NSEC_PER_MSEC));
		if (r <= 0)
			continue;	/* the time is up, or a signal (EINTR) */
		r = (int)read(*fd, &c, 1);
		if (r == 1 && (c == 'q' || c == 'Q'))
			stop = 1;
		else if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
			*fd = -1;	/* the keyboard is gone: signals only */
	}
}

/* One frame: a title line, then frame's text; -1 when stdout fails. */
static int draw(const struct hk_status_opts *o,
		void (*frame)(FILE *f, const struct hk_status_opts *o))
{
	char *buf = NULL, when[16] = "";
	size_t len = 0;
	struct tm tm;
	time_t t = time(NULL);
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(m, "hotspot-k status, every %us (q: quit)  %s\n\n", o->watch_s, when);
	frame(m, o);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	fputs(CLEAR_HOME, stdout);
	fwrite(buf, 1, len, stdout);
	free(buf);
	return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

int hk_status__watch(const struct hk_status_opts *o,
		     void (*frame)(FILE *f, const struct hk_status_opts *o))
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	struct termios saved, keys;
	int kbd = -1, err = 0;
	bool modes = false;

	if (!isatty(STDOUT_FILENO)) {
		fprintf(stderr, "hotspot-k status: --watch redraws a terminal, and stdout is "
			"not one: leave out --watch for one status (a loop of them: while "
			"sleep 2; do hotspot-k status; done)\n");
		return -2;
	}
	/* no SA_RESTART: the wait in poll() ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved)) {
		keys = saved;
		keys.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		keys.c_cc[VMIN] = 1;
		keys.c_cc[VTIME] = 0;
		modes = true;
		if (!tcsetattr(STDIN_FILENO, TCSANOW, &keys))
			kbd = STDIN_FILENO;
	}
	fputs(CURSOR_HIDE, stdout);
	while (!stop) {
		if (draw(o, frame)) {
			err = errno ? errno : EIO;
			break;
		}
		wait_key(&kbd, (__u64)o->watch_s * 1000);
	}
	fputs(CURSOR_SHOW, stdout);
	fflush(stdout);
	if (modes)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (err && err != EPIPE)
		fprintf(stderr, "hotspot-k status: writing output: %s\n", strerror(err));
	return err ? -1 : 0;
}
