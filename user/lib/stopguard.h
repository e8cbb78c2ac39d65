/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stopguard.h - the signals that stop the tool, and a stop that happens
 * even when the event loop is stuck.
 *
 * Every signal whose default would end the process (SIGINT, SIGTERM,
 * SIGQUIT, SIGUSR1/2, SIGXCPU...) and SIGHUP are blocked in every thread
 * and taken by one thread of their own with sigwaitinfo(), which passes
 * them on to the event loop through a pipe in its epoll (SIGHUP: reload;
 * the others: a clean stop). That thread also keeps time: if the loop has
 * not finished its cleanup HK_STOPGUARD_GRACE_MS after a stop signal (a
 * write that blocks, a file that never opens, a stalled symbolization),
 * or if a second stop signal comes, it runs the caller's `stuck` (put
 * back what must not outlive the tool, say what is lost) and ends the
 * process. A stuck loop never turns a SIGTERM into systemd's SIGKILL.
 * A crash or a SIGKILL remain: the state files under /run cover them.
 */
#ifndef HK_USER_STOPGUARD_H
#define HK_USER_STOPGUARD_H

/* From a stop signal to the end of the cleanup, at most. */
#define HK_STOPGUARD_GRACE_MS 5000

/*
 * Called from the guard's thread when the loop is stuck: signo, the first
 * stop signal; phase, what the loop was doing (hk_stopguard__phase). It
 * returns the exit status; the process then ends with _exit().
 */
typedef int (*hk_stopguard_stuck_fn)(int signo, const char *phase);

/*
 * Block the signals (before any other thread starts, so that all inherit
 * the mask) and start the guard. The fd to poll (readable when a signal
 * came), or -1 with errno.
 */
int hk_stopguard__start(hk_stopguard_stuck_fn stuck);

/*
 * Hold a SIGHUP that comes before hk_stopguard__start: blocked, it waits
 * for the guard (and is a reload once the loop runs) instead of ending the
 * process. First thing the run does: `systemctl reload` of a Type=simple
 * unit may come while the tool still reads its config.
 */
void hk_stopguard__hold_reload(void);

/* The next signal passed on: its number; 0 when none is waiting. */
int hk_stopguard__next(int fd);

/* Whether signo asks for a reload (SIGHUP), rather than a stop. */
int hk_stopguard__is_reload(int signo);

/* What the loop does now, for the line `stuck` says ("writing the
 * textfile"): a string that lives as long as the process. */
void hk_stopguard__phase(const char *what);

/* The cleanup is done: the guard will not step in. If it has already, this
 * waits for it to end the process. */
void hk_stopguard__done(void);

/* For a cleanup that the loop and the guard may both reach: 1 the first
 * time it is asked for *flag, 0 after (atomic). */
int hk_stopguard__once(int *flag);

/* "SIGTERM" and the like, for messages. */
const char *hk_stopguard__name(int signo);

#endif /* HK_USER_STOPGUARD_H */
