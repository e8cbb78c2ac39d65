// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_sandbox.c - the child that parses others' ELF files
 * (user/profile/sandbox.c), seen from its parent while it waits: nobody,
 * no capability, no new privileges, a seccomp filter, only its two fds,
 * oom_score_adj 1000; then what it may still do (read, write its answer,
 * allocate) and what kills it (open, a write elsewhere, executable memory).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "format_fixtures.h"
#include "suites.h"
#include "profile/sandbox.h"

enum { DO_ANSWER, DO_OPEN, DO_WRITE_ELSEWHERE, DO_MMAP_EXEC, DO_MALLOC };

/* In the child: confined, wait for the go, then do one thing. */
static __attribute__((noreturn)) void boxed(int go, int out, int what, pid_t parent)
{
	const int keep[] = { go, out };
	const struct hk_sandbox box = {
		.keep_fds = keep, .nkeep = 2, .out_fd = out, .as_bytes = 64ULL << 20,
	};
	char c;
	void *p;

	if (hk_sandbox__enter(&box, parent))
		_exit(2);
	if (read(go, &c, 1) != 1)
		_exit(3);
	switch (what) {
	case DO_OPEN:
		open("/etc/shadow", O_RDONLY);
		break;
	case DO_WRITE_ELSEWHERE:
		if (write(go, "x", 1) < 0)
			_exit(4);
		break;
	case DO_MMAP_EXEC:
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		(void)p;
		break;
	case DO_MALLOC:
		p = malloc(8 << 20);
		if (!p)
			_exit(5);
		memset(p, 1, 8 << 20);
		free(p);
		break;
	}
	if (write(out, "ok", 2) != 2)
		_exit(6);
	_exit(0);
}

static void status_field(pid_t pid, const char *field, char *val, size_t len)
{
	char path[64], line[256];
	size_t n = strlen(field);
	FILE *f;

	val[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			snprintf(val, len, "%s", line + n + 1 + strspn(line + n + 1, " \t"));
			val[strcspn(val, "\n")] = 0;
			break;
		}
	fclose(f);
}

static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

/* Run one child; its wait status, its answer in got (3 bytes). When
 * inspect, its confinement is checked while it waits for the go. */
static int run(int what, int inspect, char *got)
{
	int go[2], out[2], status = 0, i;
	char val[128], path[64];
	pid_t pid;
	FILE *f;

	CU_ASSERT_FATAL(!pipe(go) && !pipe(out));
	/* an fd the child must not keep */
	i = open("/dev/null", O_RDONLY);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid)
		boxed(go[0], out[1], what, getppid());
	close(i);
	close(go[0]);
	close(out[1]);
	if (inspect) {
		/* confined once the filter is in: wait for it (up to 2 s) */
		for (i = 0; i < 200; i++) {
			status_field(pid, "Seccomp", val, sizeof(val));
			if (!strcmp(val, "2"))
				break;
			usleep(10000);
		}
		ASSERT_STR(val, "2");
		status_field(pid, "Uid", val, sizeof(val));
		ASSERT_STR(val, "65534\t65534\t65534\t65534");
		status_field(pid, "Groups", val, sizeof(val));
		ASSERT_STR(val, "");
		status_field(pid, "CapEff", val, sizeof(val));
		ASSERT_STR(val, "0000000000000000");
		status_field(pid, "CapPrm", val, sizeof(val));
		ASSERT_STR(val, "0000000000000000");
		status_field(pid, "NoNewPrivs", val, sizeof(val));
		ASSERT_STR(val, "1");
		CU_ASSERT_EQUAL(count_fds(pid), 2);
		snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
		f = fopen(path, "re");
		CU_ASSERT_FATAL(f != NULL);
		CU_ASSERT(fgets(val, sizeof(val), f) != NULL);
		fclose(f);
		ASSERT_STR(val, "1000\n");
	}
	CU_ASSERT_EQUAL(write(go[1], "g", 1), 1);
	memset(got, 0, 3);
	if (read(out[0], got, 2) < 0)
		got[0] = 0;
	waitpid(pid, &status, 0);
	close(go[1]);
	close(out[0]);
	return status;
}

static void test_confined(void)
{
	char got[3];
	int st;

	st = run(DO_ANSWER, 1, got);
	CU_ASSERT(WIFEXITED(st) && !WEXITSTATUS(st));
	ASSERT_STR(got, "ok");
	st = run(DO_MALLOC, 0, got);
	CU_ASSERT(WIFEXITED(st) && !WEXITSTATUS(st));
	ASSERT_STR(got, "ok");
}

static void test_killed(void)
{
	char got[3];
	int st, what;

	for (what = DO_OPEN; what <= DO_MMAP_EXEC; what++) {
		st = run(what, 0, got);
		CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
		ASSERT_STR(got, "");
	}
}

int hk_add_sandbox_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "nobody, no caps, seccomp, 2 fds; it answers", test_confined },
		{ "open, a write elsewhere, exec memory: SIGSYS", test_killed },
	};

	return HK_ADD_SUITE("sandbox", tests);
}
