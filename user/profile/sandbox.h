/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * sandbox.h - confine a forked child before it parses input others shaped
 * (an ELF file a user mapped): what it may still do is read what it was
 * given, allocate memory, write its answer and exit.
 */
#ifndef HK_USER_SANDBOX_H
#define HK_USER_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

/* The unprivileged uid and gid the child takes when it may (nobody). */
#define HK_SANDBOX_UID 65534

struct hk_sandbox {
	const int *keep_fds;	/* every other fd is closed, 0-2 too */
	size_t nkeep;
	int out_fd;		/* the only fd write(2) may name */
	__u64 as_bytes;		/* RLIMIT_AS: this much over the address space now */
};

/*
 * In the child, in this order: RLIMIT_AS, RLIMIT_CORE 0, oom_score_adj
 * 1000 (the first the kernel kills), every fd but the kept closed, the
 * groups dropped and uid/gid HK_SANDBOX_UID (skipped where the process
 * lacks CAP_SETUID, as under the unit: the filter below still holds),
 * not dumpable, SIGKILL with the parent, no new privileges, and a seccomp
 * filter that allows read, pread64, write to out_fd, memory without
 * PROT_EXEC, fstat, lseek, close and exit: any other call kills it
 * (SIGSYS). 0, or -errno of the first step that must not fail (the fds,
 * the seccomp filter): the caller then exits without parsing.
 */
int hk_sandbox__enter(const struct hk_sandbox *b, pid_t parent);

/* oom_score_adj 1000: of the tool and its children, the OOM killer takes
 * this process first. */
void hk_sandbox__oom_first(void);

/* The address space now (VmSize), in bytes; 0 when unreadable. */
__u64 hk_sandbox__vm_size(void);

#endif /* HK_USER_SANDBOX_H */
