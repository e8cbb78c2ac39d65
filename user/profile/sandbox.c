// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sandbox.c - confine a forked child before it parses hostile input (see
 * sandbox.h).
 *
 * The seccomp filter is a classic BPF program written out here: a dozen
 * calls, two of them with an argument checked, do not need libseccomp.
 * Whatever the uid, the filter is what holds: a child that kept uid 0
 * (the unit gives no CAP_SETUID) can still open nothing, map nothing
 * executable, and write only into its result pipe.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "sandbox.h"

#if defined(__x86_64__)
#define HK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define HK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "no seccomp arch for this target: add its AUDIT_ARCH_*"
#endif

/* the low 32 bits of argument i */
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ARG_LO(i) (offsetof(struct seccomp_data, args[i]))
#else
#define ARG_LO(i) (offsetof(struct seccomp_data, args[i]) + 4)
#endif

#define KEEP_MAX 8
#define FILTER_MAX 64

/* What parsing needs, found by running it under strace -f: libelf reads
 * with pread64, sizes the file with fstat (after fcntl F_GETFD); malloc takes brk, mmap,
 * mremap, munmap and madvise; glibc 2.36's qsort asks sysinfo how much
 * memory there is before it allocates. The rest below. */
static const int plain_calls[] = {
	__NR_read,
	__NR_pread64,
	__NR_brk,
	__NR_munmap,
	__NR_mremap,
	__NR_madvise,
#ifdef __NR_fstat
	__NR_fstat,
#endif
	__NR_newfstatat,
	__NR_lseek,
	__NR_close,
	__NR_sysinfo,
	__NR_exit,
	__NR_exit_group,
	__NR_rt_sigreturn,
	/* the sanitizers' runtime looks at its signal stack on the way out */
	__NR_sigaltstack,
};

struct filter {
	struct sock_filter insn[FILTER_MAX];
	unsigned short n;
};

static void emit(struct filter *f, struct sock_filter insn)
{
	if (f->n < FILTER_MAX)
		f->insn[f->n++] = insn;
}

/* nr allowed only when the low word of argument arg, and'ed with mask,
 * equals want; A holds the call's nr before and, when it was another, after */
static void emit_arg_check(struct filter *f, int nr, int arg, __u32 mask, __u32 want)
{
	emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)nr, 0, 5));
	emit(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(arg)));
	emit(f, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, mask));
	emit(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, want, 0, 1));
	emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	emit(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
}

static int install_filter(int out_fd)
{
	struct filter f = { .n = 0 };
	struct sock_fprog prog;
	size_t i;

	emit(&f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch)));
	emit(&f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, HK_AUDIT_ARCH, 1, 0));
	emit(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	emit(&f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr)));
	for (i = 0; i < sizeof(plain_calls) / sizeof(plain_calls[0]); i++) {
		emit(&f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (__u32)plain_calls[i], 0, 1));
		emit(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	}
	/* write: the result pipe only; memory: never executable */
	emit_arg_check(&f, __NR_write, 0, 0xffffffffU, (__u32)out_fd);
	emit_arg_check(&f, __NR_mmap, 2, PROT_EXEC, 0);
	emit_arg_check(&f, __NR_mprotect, 2, PROT_EXEC, 0);
	/* libelf checks the fd is open */
	emit_arg_check(&f, __NR_fcntl, 1, 0xffffffffU, F_GETFD);
	emit(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	if (f.n == FILTER_MAX)
		return -E2BIG;
	prog.len = f.n;
	prog.filter = f.insn;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -errno;
	return 0;
}

static int close_range_or_loop(unsigned int lo, unsigned int hi)
{
	unsigned int fd;
	struct rlimit rl;

	if (!syscall(__NR_close_range, lo, hi, 0))
		return 0;
	/* before Linux 5.9, or a filter without it (systemd before 247) */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur > (1U << 20))
		return -EMFILE;
	for (fd = lo; fd <= hi && fd < rl.rlim_cur; fd++)
		close((int)fd);
	return 0;
}

/* Every fd but keep[], 0-2 included. */
static int close_others(const int *keep, size_t n)
{
	int sorted[KEEP_MAX], t;
	unsigned int lo = 0;
	size_t i, j;
	int err;

	if (n > KEEP_MAX)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		sorted[i] = keep[i];
		for (j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	}
	for (i = 0; i < n; i++) {
		if (sorted[i] < 0 || (unsigned int)sorted[i] < lo)
			continue;
		if ((unsigned int)sorted[i] > lo) {
			err = close_range_or_loop(lo, (unsigned int)sorted[i] - 1);
			if (err)
				return err;
		}
		lo = (unsigned int)sorted[i] + 1;
	}
	return close_range_or_loop(lo, ~0U);
}

__u64 hk_sandbox__vm_size(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return pages * (__u64)sysconf(_SC_PAGESIZE);
}

void hk_sandbox__oom_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	/* raising it needs no privilege; a failure leaves the tool's value */
	n = write(fd, "1000", 4);
	(void)n;
	close(fd);
}

/* Nobody's uid and gid, and no capability, where the process may take
 * them; under the unit (no CAP_SETUID, setuid calls filtered to EPERM)
 * it stays uid 0 and the filter is what confines it. */
static void drop_ids(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	gid_t gid = HK_SANDBOX_UID;
	uid_t uid = HK_SANDBOX_UID;

	if (setgroups(0, NULL) && errno != EPERM)
		return;
	if (!setresgid(gid, gid, gid))
		setresuid(uid, uid, uid);
	if (geteuid() != uid) {
		memset(data, 0, sizeof(data));
		syscall(__NR_capset, &hdr, data);
	}
}

int hk_sandbox__enter(const struct hk_sandbox *b, pid_t parent)
{
	struct rlimit rl;
	int err;

	if (b->as_bytes) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)(hk_sandbox__vm_size() + b->as_bytes);
		setrlimit(RLIMIT_AS, &rl);
	}
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	hk_sandbox__oom_first();
	err = close_others(b->keep_fds, b->nkeep);
	if (err)
		return err;
	drop_ids();
	/* no ptrace nor /proc/PID/mem by nobody's other processes */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* a change of uid cleared the parent-death signal: set it after */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		return -ESRCH;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return install_filter(b->out_fd);
}
