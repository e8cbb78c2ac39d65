// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_preflight_jit.c - the BPF JIT switched off is said in one line, the
 * cause and the fix, before the load (a stand-in net.core.bpf_jit_enable)
 * and from the verifier's own words when the switch could not be read; a
 * PREEMPT_RT kernel (no BPF timers there) told by its version string; a
 * seccomp filter (a container runtime's profile, which refuses bpf() with
 * EPERM) seen in /proc/self/status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "kernel/preflight.h"
#include "suites.h"

#define WANT "the kernel's BPF JIT is off (net.core.bpf_jit_enable=0) and hotspot-k's " \
	     "programs need it: turn it on with sysctl net.core.bpf_jit_enable=1"

/* the switch at a stand-in path, holding text (NULL: no such file) */
static int check_switch(const char *text, char *err, size_t err_len)
{
	char path[] = "/tmp/hk-unit-jit.XXXXXX";
	int fd, r;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	if (text)
		CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	if (!text)
		unlink(path);
	err[0] = '\0';
	r = hk_preflight__check_jit(path, err, err_len);
	unlink(path);
	return r;
}

static void test_switch(void)
{
	char err[256];

	CU_ASSERT_EQUAL(check_switch("0\n", err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, WANT);
	CU_ASSERT_EQUAL(check_switch("0", err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, WANT);
	/* on, on with the images logged: nothing said */
	CU_ASSERT_EQUAL(check_switch("1\n", err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	CU_ASSERT_EQUAL(check_switch("2\n", err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	/* unreadable, empty or not a 0: the load decides */
	CU_ASSERT_EQUAL(check_switch(NULL, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(check_switch("", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(check_switch("01\n", err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	/* a short buffer: cut, still terminated */
	CU_ASSERT_EQUAL(check_switch("0\n", err, 16), -1);
	CU_ASSERT_EQUAL(strlen(err), 15);
}

static void test_refusal(void)
{
	/* the last lines of the logs Debian's 6.1 and 6.12 gave with the JIT off */
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"0: R1=ctx() R10=fp0\n; int hk_iter(struct bpf_iter__task *ctx)\n"
		"JIT is required for calling kernel function\n"
		"processed 0 insns (limit 1000000)\n"), 1);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"callbacks are not allowed in non-JITed programs\n"), 1);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"calling kernel functions are not allowed in non-JITed programs\n"), 1);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"tail_calls are not allowed in non-JITed programs with bpf-to-bpf calls\n"), 1);
	/* other refusals keep their own words */
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"combined stack size of 3 calls is 544. Too large\n"), 0);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(
		"JIT doesn't support bpf-to-bpf calls\n"), 0);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(""), 0);
	CU_ASSERT_EQUAL(hk_preflight__jit_refusal(NULL), 0);
}

static void test_preempt_rt(void)
{
	/* uname -v of Debian's 6.12 and 6.1 RT builds, of their cloud builds */
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt(
		"#1 SMP PREEMPT_RT Debian 6.12.117-1~deb12u1 (2026-10-30)"), 1);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt(
		"#1 SMP PREEMPT_RT Debian 6.1.192-2 (2026-10-12)"), 1);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt("#1 SMP PREEMPT RT Thu Jan 1"), 1);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt("#1 SMP PREEMPT_RT"), 1);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt(
		"#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-10-30)"), 0);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt("#1 SMP Debian 6.1.192-2 (2026-10-12)"), 0);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt("#1 SMP PREEMPT_RTX"), 0);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt("#1 SMP PREEMPT"), 0);
	CU_ASSERT_EQUAL(hk_preflight__preempt_rt(""), 0);
	/* this host's: whatever it is, an answer */
	CU_ASSERT(hk_preflight__preempt_rt(NULL) == 0 || hk_preflight__preempt_rt(NULL) == 1);
}

/* In a child under an allow-all filter: what it reports, as its exit status. */
static void test_seccomp(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	int status = -1;
	pid_t pid;

	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
			_exit(99);
		_exit(hk_preflight__seccomp_filtered());
	}
	CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFEXITED(status));
	/* 99: no filter could be set (qemu-user emulates no seccomp) */
	if (WEXITSTATUS(status) != 99)
		CU_ASSERT_EQUAL(WEXITSTATUS(status), 1);
	/* this process's: whatever runs it, an answer */
	CU_ASSERT(hk_preflight__seccomp_filtered() == 0 || hk_preflight__seccomp_filtered() == 1);
}

int hk_add_preflight_jit_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "net.core.bpf_jit_enable read before the load", test_switch },
		{ "the verifier's words for it", test_refusal },
		{ "PREEMPT_RT from the version string", test_preempt_rt },
		{ "a seccomp filter from /proc/self/status", test_seccomp },
	};

	return HK_ADD_SUITE("preflight_jit", tests);
}
