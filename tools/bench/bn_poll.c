// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-poll - the /proc side of the comparison.
 *
 *   bn-poll read [-n REPS]   a minimal poller: per refresh, every
 *                            /proc/PID/stat and /proc/PID/schedstat is read
 *                            and parsed (CPU time, faults, RSS, run delay,
 *                            timeslices); prints the CPU time (getrusage
 *                            user+sys) and wall time of each refresh
 *   bn-poll run [-q] -- CMD ...
 *                            run CMD (-q: its stdout to /dev/null), print
 *                            the CPU time it and its waited-for children
 *                            used, and their switches, on stderr
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

struct sample {
	unsigned long long utime, stime, minflt, majflt, rss, run_ns, wait_ns, slices;
};

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* one process: stat fields 10 minflt, 12 majflt, 14 utime, 15 stime, 24 rss */
static int sample_pid(const char *pid, struct sample *s)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')');	/* comm may hold spaces */
	if (!p)
		return -1;
	/* field 3 (state) is a letter, the rest up to 24 are numbers */
	for (field = 3, p += 2; p && field <= 24; field++) {
		unsigned long long v = strtoull(p, NULL, 10);

		switch (field) {
		case 10: s->minflt = v; break;
		case 12: s->majflt = v; break;
		case 14: s->utime = v; break;
		case 15: s->stime = v; break;
		case 24: s->rss = v; break;
		}
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	snprintf(path, sizeof(path), "/proc/%s/schedstat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "%llu %llu %llu", &s->run_ns, &s->wait_ns, &s->slices) != 3)
		return -1;
	return 0;
}

static int cmd_read(int reps)
{
	unsigned long long check = 0;
	int r;

	for (r = 0; r < reps; r++) {
		double c0 = cpu_s(RUSAGE_SELF), t0 = now_s();
		struct dirent *de;
		long procs = 0;
		DIR *d = opendir("/proc");

		if (!d) {
			perror("bn-poll: /proc");
			return 1;
		}
		while ((de = readdir(d))) {
			struct sample s = {};

			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			if (!sample_pid(de->d_name, &s)) {
				procs++;
				check += s.utime + s.wait_ns + s.rss;
			}
		}
		closedir(d);
		printf("refresh procs=%ld cpu_s=%.6f wall_s=%.6f\n", procs,
		       cpu_s(RUSAGE_SELF) - c0, now_s() - t0);
		fflush(stdout);
	}
	return check == 1;	/* keep the parsing from being optimised out */
}

static int cmd_run(char **argv, int quiet)
{
	double t0 = now_s();
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, 1);
		}
		execvp(argv[0], argv);
		perror("bn-poll: exec");
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	getrusage(RUSAGE_CHILDREN, &ru);
	fprintf(stderr, "run cpu_s=%.6f wall_s=%.6f nvcsw=%ld nivcsw=%ld status=%d\n",
		cpu_s(RUSAGE_CHILDREN), now_s() - t0, ru.ru_nvcsw, ru.ru_nivcsw,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "read")) {
		int reps = 1;

		if (argc == 4 && !strcmp(argv[2], "-n"))
			reps = atoi(argv[3]);
		return cmd_read(reps);
	}
	if (argc >= 4 && !strcmp(argv[1], "run") && !strcmp(argv[2], "--"))
		return cmd_run(argv + 3, 0);
	if (argc >= 5 && !strcmp(argv[1], "run") && !strcmp(argv[2], "-q") &&
	    !strcmp(argv[3], "--"))
		return cmd_run(argv + 4, 1);
	fprintf(stderr, "usage: bn-poll read [-n REPS] | bn-poll run [-q] -- CMD [ARG...]\n");
	return 2;
}
