// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * stopguard.c - the stop signals, read by a thread of their own, and a
 * stop that ends the process when the loop is stuck (stopguard.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "stopguard.h"

enum { RUNNING, DONE, STUCK };

static int state = RUNNING;
static const char *phase = "starting";
static hk_stopguard_stuck_fn on_stuck;
static int pipe_w = -1;

/* Every signal whose default action ends the process (signal(7)) and that
 * is not a fault of this process's own (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT, SIGTRAP, SIGSYS: a crash, covered by the state files), SIGPIPE
 * aside (ignored: a reader gone is an EPIPE to report). */
static void stop_set(sigset_t *set)
{
	static const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
		SIGXFSZ, SIGVTALRM, SIGPROF, SIGPWR, SIGIO, SIGSTKFLT,
	};
	size_t i;
	int s;

	sigemptyset(set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	/* the real-time ones glibc leaves to programs */
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
}

int hk_stopguard__is_reload(int signo)
{
	return signo == SIGHUP;
}

const char *hk_stopguard__name(int signo)
{
	static __thread char buf[24];
	const char *abbrev = sigabbrev_np(signo);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", signo);
	return buf;
}

static void pass_on(int signo)
{
	unsigned char b = (unsigned char)signo;

	/* full (the loop reads nothing): the loop is stuck, the guard acts */
	if (write(pipe_w, &b, 1) < 0 && errno != EAGAIN)
		return;
}

/* The loop is stuck: the caller's cleanup, then the end. */
static void take_over(int signo)
{
	int expect = RUNNING, status;

	if (!__atomic_compare_exchange_n(&state, &expect, STUCK, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return;		/* done meanwhile: the process ends by itself */
	status = on_stuck(signo, __atomic_load_n(&phase, __ATOMIC_ACQUIRE));
	_exit(status);
}

static void *guard(void *unused)
{
	long long deadline = 0, left;
	struct timespec ts;
	siginfo_t si;
	sigset_t set;
	int first = 0, sig;

	stop_set(&set);
	for (;;) {
		if (!first) {
			sig = sigwaitinfo(&set, &si);
		} else {
			left = deadline - mono_ms();
			if (left <= 0) {
				take_over(first);
				return NULL;
			}
			ts.tv_sec = left / 1000;
			ts.tv_nsec = (left % 1000) * 1000000;
			sig = sigtimedwait(&set, &si, &ts);
		}
		if (sig < 0)
			continue;	/* EAGAIN: the deadline, checked above */
		pass_on(sig);
		if (hk_stopguard__is_reload(sig))
			continue;
		if (!first) {
			first = sig;
			deadline = mono_ms() + HK_STOPGUARD_GRACE_MS;
		} else {
			/* a second one: now (Ctrl-C twice) */
			deadline = mono_ms();
		}
	}
	return NULL;
}

void hk_stopguard__hold_reload(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	/* fails only on a bad argument */
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int hk_stopguard__start(hk_stopguard_stuck_fn stuck)
{
	pthread_attr_t attr;
	pthread_t t;
	sigset_t set;
	int p[2], e;

	stop_set(&set);
	e = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (e) {
		errno = e;
		return -1;
	}
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return -1;
	on_stuck = stuck;
	pipe_w = p[1];
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	e = pthread_create(&t, &attr, guard, NULL);
	pthread_attr_destroy(&attr);
	if (e) {
		close(p[0]);
		close(p[1]);
		errno = e;
		return -1;
	}
	return p[0];
}

int hk_stopguard__next(int fd)
{
	unsigned char b;

	return read(fd, &b, 1) == 1 ? b : 0;
}

void hk_stopguard__phase(const char *what)
{
	__atomic_store_n(&phase, what, __ATOMIC_RELEASE);
}

void hk_stopguard__done(void)
{
	int expect = RUNNING;

	if (__atomic_compare_exchange_n(&state, &expect, DONE, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST) || expect == DONE)
		return;
	/* the guard is ending the process */
	for (;;)
		pause();
}

int hk_stopguard__once(int *flag)
{
	return !__atomic_exchange_n(flag, 1, __ATOMIC_SEQ_CST);
}
