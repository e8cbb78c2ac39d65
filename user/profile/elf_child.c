// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * elf_child.c - one ELF file's symbols read by libelf in a confined child
 * (sandbox.h), sent back through a pipe (see elf_syms.h).
 *
 * The files are the profiled process's: anyone can shape them to hit a
 * bug in libelf's parsing. The caller (root) opens the file; a child
 * forked per file keeps only that fd and the pipe, turns into nobody
 * where it may, and runs under a seccomp filter that lets it read, pread,
 * allocate and write its answer, nothing else, in 256 MiB more than the
 * copy of its parent. What comes back is plain arrays, checked here
 * before use: every name inside the names, ending in a NUL, sizes within
 * the caller's budget. One fork per file: ~1 ms, a few hundred for a
 * process of many libraries, against the symbols' own milliseconds each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "lib/safefile.h"
#include "elf_syms.h"
#include "sandbox.h"

/* the child's address space past its parent's copy: the largest symbol
 * table and strings read (64 MiB each at the default cap) and the table
 * built of them, twice over for its growth */
#define PARSE_AS_BYTES (256ULL << 20)

struct reply {
	__s32 err;
	__u32 nloads;
	__u64 nsyms;
	__u64 names_len;
};

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static __attribute__((noreturn)) void parse(int fd, void *image, size_t size, size_t max,
					    size_t budget, int out, pid_t parent)
{
	const int keep[] = { out, fd };
	const struct hk_sandbox box = {
		.keep_fds = keep,
		.nkeep = fd >= 0 ? 2 : 1,
		.out_fd = out,
		.as_bytes = PARSE_AS_BYTES,
	};
	struct hk_elf_syms e;
	struct reply r;

	memset(&e, 0, sizeof(e));
	memset(&r, 0, sizeof(r));
	prctl(PR_SET_NAME, "hk-elf-parse");
	r.err = hk_sandbox__enter(&box, parent);
	if (r.err) {
		/* not confined: parse nothing */
		hk_safefile__write_all(out, &r, sizeof(r));
		_exit(1);
	}
	r.err = fd >= 0 ? hk_elf_syms__read_fd(&e, fd, max, budget) :
			  hk_elf_syms__read_mem(&e, image, size, max, budget);
	if (!r.err) {
		r.nsyms = e.tab.n;
		r.names_len = e.tab.names_len;
		r.nloads = (__u32)e.nloads;
	}
	if (hk_safefile__write_all(out, &r, sizeof(r)) ||
	    hk_safefile__write_all(out, e.tab.syms, r.nsyms * sizeof(*e.tab.syms)) ||
	    hk_safefile__write_all(out, e.tab.names, r.names_len) ||
	    hk_safefile__write_all(out, e.loads, r.nloads * sizeof(*e.loads)))
		_exit(1);
	_exit(0);
}

/* The child's answer, checked: 0 or -errno (-EIO: not a sound answer). */
static int receive(struct hk_elf_syms *e, int fd, size_t budget)
{
	struct reply r;
	size_t i;
	int err;

	if (read_all(fd, &r, sizeof(r)))
		return -EIO;
	if (r.err)
		return r.err < 0 && r.err > -4096 ? r.err : -EIO;
	if (r.nloads > HK_ELF_LOADS_MAX || r.nsyms > budget / sizeof(*e->tab.syms) ||
	    r.names_len > budget ||
	    r.nsyms * sizeof(*e->tab.syms) + r.names_len + r.nloads * sizeof(*e->loads) > budget)
		return -ENOSPC;
	if (r.nsyms && !r.names_len)
		return -EIO;
	e->tab.syms = malloc(r.nsyms ? r.nsyms * sizeof(*e->tab.syms) : 1);
	e->tab.names = malloc(r.names_len ? r.names_len : 1);
	e->loads = malloc(r.nloads ? r.nloads * sizeof(*e->loads) : 1);
	if (!e->tab.syms || !e->tab.names || !e->loads) {
		err = -ENOMEM;
		goto fail;
	}
	err = -EIO;
	if (read_all(fd, e->tab.syms, r.nsyms * sizeof(*e->tab.syms)) ||
	    read_all(fd, e->tab.names, r.names_len) ||
	    read_all(fd, e->loads, r.nloads * sizeof(*e->loads)))
		goto fail;
	if (r.names_len && e->tab.names[r.names_len - 1])
		goto fail;
	for (i = 0; i < r.nsyms; i++)
		if (e->tab.syms[i].name_off >= r.names_len)
			goto fail;
	e->tab.n = e->tab.cap = r.nsyms;
	e->tab.names_len = e->tab.names_cap = r.names_len;
	e->nloads = r.nloads;
	return 0;
fail:
	free(e->tab.syms);
	free(e->tab.names);
	free(e->loads);
	memset(e, 0, sizeof(*e));
	return err;
}

int hk_elf_syms__read_confined(struct hk_elf_syms *e, int fd, void *image, size_t size,
			       size_t max, size_t budget)
{
	pid_t parent = getpid(), pid;
	int p[2], status = 0, err;

	memset(e, 0, sizeof(*e));
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid)
		parse(fd, image, size, max, budget, p[1], parent);
	close(p[1]);
	err = receive(e, p[0], budget);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		hk_elf_syms__free(e);
		err = -EIO;
	}
	return err;
}
