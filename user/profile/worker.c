// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * worker.c - a job in a forked child, capped and timed (see worker.h).
 *
 * Why a process and not a thread: a cap on memory (RLIMIT_AS) and a kill
 * at the deadline are per process, and a child that fails (out of memory,
 * a crash in libelf on a hostile file) takes nothing of the parent with
 * it. The child is a copy of the parent, so it first lets go of what is
 * not its own: the BPF links and perf events it inherited would keep the
 * profiler's programs attached until it ends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "lib/clock.h"
#include "sandbox.h"
#include "worker.h"
#include "shared/units.h"

enum { KILLED_NOT = 0, KILLED_DEADLINE = 1, KILLED_STOP = 2 };

static int kept(const struct hk_worker_limits *l, int fd)
{
	size_t i;

	for (i = 0; i < l->nkeep; i++)
		if (l->keep_fds[i] == fd)
			return 1;
	return 0;
}

/*
 * Close the inherited kernel objects that are not files: BPF maps,
 * programs and links, perf events, epoll, signalfd, other pidfds
 * ("anon_inode:..."). Files and directories stay: the job may write into
 * a directory opened before the fork.
 */
static void drop_anon_fds(const struct hk_worker_limits *l, int out_fd)
{
	char path[64], link[64];
	struct dirent *d;
	int fds[1024], n = 0, i, fd;
	ssize_t len;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (!dir)
		return;
	while ((d = readdir(dir)) && n < (int)(sizeof(fds) / sizeof(fds[0]))) {
		fd = atoi(d->d_name);
		if (fd <= 2 || fd == out_fd || fd == dirfd(dir) || kept(l, fd))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (!strncmp(link, "anon_inode:", 11))
			fds[n++] = fd;
	}
	closedir(dir);
	for (i = 0; i < n; i++)
		close(fds[i]);
}

static void child_limits(const struct hk_worker_limits *l)
{
	struct rlimit rl;
	__u64 secs;

	/* relative to what the copy of the parent already spans (a sanitizer's
	 * shadow is terabytes of reserved address space) */
	if (l->as_bytes) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)(hk_sandbox__vm_size() + l->as_bytes);
		setrlimit(RLIMIT_AS, &rl);
	}
	/* the deadline's belt: CPU time past it is SIGKILL even if the parent
	 * could not look */
	secs = (l->budget_ns + HK_NSEC_PER_SEC - 1) / HK_NSEC_PER_SEC + 1;
	rl.rlim_cur = rl.rlim_max = (rlim_t)secs;
	setrlimit(RLIMIT_CPU, &rl);
	/* no core file of a root process holding others' data */
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	/* out of memory (the unit's MemoryMax=), the job goes, not the tool */
	hk_sandbox__oom_first();
	if (l->nice)
		setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + l->nice);
}

static __attribute__((noreturn)) void child(const struct hk_worker_limits *l, pid_t parent,
					    int out_fd, hk_worker_fn fn, void *arg,
					    size_t msg_len)
{
	unsigned char msg[HK_WORKER_MSG_MAX];
	int ret;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* the parent may have died before the line above: then nobody waits */
	if (getppid() != parent)
		_exit(127);
	if (l->name)
		prctl(PR_SET_NAME, l->name);
	drop_anon_fds(l, out_fd);
	child_limits(l);
	memset(msg, 0, sizeof(msg));
	ret = fn(arg, msg, msg_len);
	if (!ret && write(out_fd, msg, msg_len) != (ssize_t)msg_len)
		ret = 126;
	_exit(ret & 0xff);
}

int hk_worker__start(struct hk_worker *w, const struct hk_worker_limits *l,
		     hk_worker_fn fn, void *arg, size_t msg_len, char *err, size_t err_len)
{
	pid_t parent = getpid(), pid;
	int fds[2];

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	if (msg_len > HK_WORKER_MSG_MAX) {
		snprintf(err, err_len, "a worker's result is at most %d bytes", HK_WORKER_MSG_MAX);
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, err_len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, err_len, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		child(l, parent, fds[1], fn, arg, msg_len);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	w->pid = pid;
	w->fd = fds[0];
	w->budget_ns = l->budget_ns;
	w->deadline_ns = mono_ns() + l->budget_ns;
	w->msg_len = msg_len;
	return 0;
}

static void drain(struct hk_worker *w)
{
	ssize_t n;

	while (w->got < w->msg_len) {
		n = read(w->fd, w->msg + w->got, w->msg_len - w->got);
		if (n <= 0)
			break;
		w->got += (size_t)n;
	}
}

int hk_worker__poll(struct hk_worker *w, void *msg, size_t msg_len, char *err,
		    size_t err_len)
{
	struct rusage ru;
	int status, ret = -1;
	pid_t r;

	if (!w->pid) {
		snprintf(err, err_len, "no worker runs");
		return -1;
	}
	drain(w);
	r = wait4(w->pid, &status, WNOHANG, &ru);
	if (r == 0) {
		if (!w->killed && mono_ns() >= w->deadline_ns) {
			/* ours and not reaped: the PID cannot be another's */
			kill(w->pid, SIGKILL);
			w->killed = KILLED_DEADLINE;
		}
		return 0;
	}
	if (r < 0) {
		snprintf(err, err_len, "waiting for the worker: %s", strerror(errno));
	} else {
		drain(w);
		w->maxrss_kib = (__u64)ru.ru_maxrss;
		if (w->killed == KILLED_DEADLINE)
			snprintf(err, err_len, "took over %.1f s: killed",
				 (double)w->budget_ns / HK_NSEC_PER_SEC);
		else if (w->killed == KILLED_STOP)
			snprintf(err, err_len, "stopped");
		else if (WIFSIGNALED(status))
			snprintf(err, err_len, "killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status) && WEXITSTATUS(status))
			snprintf(err, err_len, "exited %d without a result", WEXITSTATUS(status));
		else if (w->got != w->msg_len || msg_len != w->msg_len)
			snprintf(err, err_len, "ended without a result");
		else
			ret = 1;
		if (ret == 1)
			memcpy(msg, w->msg, msg_len);
	}
	close(w->fd);
	w->fd = -1;
	w->pid = 0;
	return ret;
}

int hk_worker__wait(struct hk_worker *w, void *msg, size_t msg_len, char *err,
		    size_t err_len)
{
	struct timespec nap = { .tv_nsec = 10 * 1000000L };
	int r;

	while (!(r = hk_worker__poll(w, msg, msg_len, err, err_len)))
		nanosleep(&nap, NULL);
	return r;
}

int hk_worker__timeout_ms(const struct hk_worker *w)
{
	__u64 now = mono_ns();

	if (!w->pid)
		return -1;
	if (w->deadline_ns <= now)
		return 0;
	return (int)((w->deadline_ns - now + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

void hk_worker__kill(struct hk_worker *w)
{
	if (!w->pid || w->killed)
		return;
	kill(w->pid, SIGKILL);
	w->killed = KILLED_STOP;
}
