// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-pingpong - context-switch storms, two processes:
 *
 *   bn-pingpong pipe  -c CPU [-C CPU] -d SECONDS [-w SECONDS] [-n OPS]
 *          one byte back and forth over two pipes; an op is a round trip
 *   bn-pingpong yield -c CPU -d SECONDS [-w SECONDS]
 *          both loop on sched_yield(); an op is one yield
 *
 * Both processes run on the CPU given with -c, unless -C pins the child
 * elsewhere: a pipe ping-pong across two CPUs, where each side sleeps while
 * the other runs, so that nearly every switch is to or from the idle task.
 * With -w, the storm first runs that long unmeasured and prints "go" when
 * the measured part starts. Then prints "ops=N secs=S ops_per_s=X nvcsw=V
 * nivcsw=I", nvcsw/nivcsw being the voluntary/involuntary switches of both
 * processes in the measured part (/proc/PID/status), so that the storm's
 * mix is known. With -n, the measured part ends after OPS ops instead
 * (-d is then ignored): a storm of a known size, whatever the rate.
 * The child is killed by its PID at the end.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* voluntary and involuntary switches of a process so far */
static void switches(pid_t pid, long *vol, long *invol)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "voluntary_ctxt_switches: %ld", vol);
		sscanf(line, "nonvoluntary_ctxt_switches: %ld", invol);
	}
	fclose(f);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("bn-pingpong: sched_setaffinity");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int cpu = 0, kid_cpu = -1, opt, yield_mode, a[2], b[2];
	double secs = 2, warm = 0, t0, t1, tw;
	volatile unsigned long *shared;
	unsigned long ops = 0, kid_ops0 = 0, want_ops = 0;
	long v[4] = {}, nv[4] = {};
	pid_t parent = getpid(), pid;
	char c = 0;

	if (argc < 2 || (strcmp(argv[1], "pipe") && strcmp(argv[1], "yield"))) {
		fprintf(stderr, "usage: bn-pingpong pipe|yield [-c CPU] [-C CHILD_CPU] [-d SECONDS]"
			" [-w SECONDS] [-n OPS]\n");
		return 2;
	}
	yield_mode = !strcmp(argv[1], "yield");
	optind = 2;
	while ((opt = getopt(argc, argv, "c:C:d:w:n:")) != -1) {
		if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'C')
			kid_cpu = atoi(optarg);
		else if (opt == 'd')
			secs = atof(optarg);
		else if (opt == 'w')
			warm = atof(optarg);
		else if (opt == 'n')
			want_ops = strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || pipe(a) || pipe(b)) {
		perror("bn-pingpong");
		return 1;
	}
	pin(cpu);
	pid = fork();
	if (pid < 0) {
		perror("bn-pingpong: fork");
		return 1;
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		if (kid_cpu >= 0)
			pin(kid_cpu);
		if (yield_mode) {
			for (;;) {
				sched_yield();
				shared[8]++;
			}
		}
		while (read(a[0], &c, 1) == 1)
			if (write(b[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	/* the child's ends: a child that died is then an error, not a hang */
	close(a[0]);
	close(b[1]);
	signal(SIGPIPE, SIG_IGN);
	t0 = now_s();
	tw = warm > 0 ? t0 + warm : 0;
	t1 = t0;
	for (;;) {
		if (yield_mode) {
			sched_yield();
		} else if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1) {
			/* EOF (the child is gone) leaves errno alone */
			perror("bn-pingpong: pipe (or its child died)");
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return 1;
		}
		/* the clock every 64 ops: a round trip takes ~1 ms when 160
		 * hackbench processes share the CPU */
		if (++ops & 63)
			continue;
		t1 = now_s();
		if (tw && t1 >= tw) {
			/* the measured part starts here */
			tw = 0;
			ops = 0;
			kid_ops0 = shared[8];
			switches(getpid(), &v[0], &nv[0]);
			switches(pid, &v[1], &nv[1]);
			t0 = t1;
			printf("go\n");
			fflush(stdout);
		} else if (!tw && (want_ops ? ops >= want_ops : t1 - t0 >= secs)) {
			break;
		}
	}
	if (yield_mode)
		ops += shared[8] - kid_ops0;
	switches(getpid(), &v[2], &nv[2]);
	switches(pid, &v[3], &nv[3]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("ops=%lu secs=%.3f ops_per_s=%.0f nvcsw=%ld nivcsw=%ld\n", ops, t1 - t0,
	       ops / (t1 - t0), v[2] + v[3] - v[0] - v[1], nv[2] + nv[3] - nv[0] - nv[1]);
	return 0;
}
