// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * usym_load.c - where a process's symbols come from: its mapped ELF files,
 * its vdso image, and the perf map a JIT (node --perf-basic-prof, the JVM
 * with perf-map-agent, LuaJIT) writes for code that no file holds.
 *
 * A file is opened through /proc/PID/map_files/START-END first: that is
 * the very file mapped, even when deleted, replaced on disk since, or in
 * another mount namespace (it needs CAP_SYS_ADMIN: we are root). Then
 * /proc/PID/root/PATH and PATH, accepted only with the mapped inode, as a
 * file upgraded since the process started has other symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "usyms.h"

/* the vdso is two pages; anything far bigger is not one */
#define VDSO_MAX_BYTES	(1 << 20)

/*
 * Open path for reading if it is a regular file (with inode, when not 0).
 * O_PATH first: a mapped device file's driver never sees an open.
 */
static int open_regular(const char *path, __u64 inode)
{
	char fd_path[64];
	struct stat st;
	int pfd, fd = -1;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (!fstat(pfd, &st) && S_ISREG(st.st_mode) && (!inode || st.st_ino == inode)) {
		snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", pfd);
		fd = open(fd_path, O_RDONLY | O_CLOEXEC);
	}
	close(pfd);
	return fd;
}

static int open_module(const struct hk_usyms *s, const struct hk_umod *mod,
		       const struct hk_umap *m)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", s->pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	fd = open_regular(path, 0);
	if (fd >= 0)
		return fd;
	if (snprintf(path, sizeof(path), "/proc/%d/root%s", s->pid, mod->path) <
	    (int)sizeof(path)) {
		fd = open_regular(path, mod->inode);
		if (fd >= 0)
			return fd;
	}
	return open_regular(mod->path, mod->inode);
}

/* The vdso's symbols live in its image only: read it from the process. */
static int read_vdso(const struct hk_usyms *s, struct hk_umod *mod,
		     const struct hk_umap *m)
{
	size_t size = m->end - m->start;
	char path[64];
	void *image;
	int fd, err = -EIO;

	if (size > VDSO_MAX_BYTES)
		return -E2BIG;
	image = malloc(size);
	if (!image)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d/mem", s->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (pread(fd, image, size, (off_t)m->start) == (ssize_t)size)
			err = hk_elf_syms__read_mem(&mod->elf, image, size);
		close(fd);
	}
	free(image);
	return err;
}

void hk_umod__load(const struct hk_usyms *s, struct hk_umod *mod,
		   const struct hk_umap *m)
{
	int fd, err;

	mod->state = HK_LOAD_FAILED;
	if (mod->kind == HK_UMOD_VDSO) {
		err = read_vdso(s, mod, m);
	} else {
		fd = open_module(s, mod, m);
		if (fd < 0)
			return;
		err = hk_elf_syms__read_fd(&mod->elf, fd);
		close(fd);
	}
	if (!err)
		mod->state = HK_LOAD_DONE;
}

/* The pid the process sees itself as: the JIT names its map with that. */
static int ns_pid(int pid)
{
	char path[64], *line = NULL, *p;
	size_t cap = 0;
	int nspid = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return pid;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "NSpid:", 6))
			continue;
		/* "NSpid:\t4242\t7": the last is the innermost namespace's */
		p = strrchr(line, '\t');
		if (p)
			nspid = atoi(p + 1);
		break;
	}
	free(line);
	fclose(f);
	return nspid > 0 ? nspid : pid;
}

/* "START SIZE NAME" in hex, NAME to the end of the line; later lines win. */
static int read_perfmap(struct hk_symtab *t, FILE *f)
{
	unsigned long long start, size;
	char *line = NULL, *p, *end;
	size_t cap = 0, n;
	__u32 line_no = 0;
	int err = 0;

	while (!err && getline(&line, &cap, f) > 0) {
		line_no++;
		start = strtoull(line, &end, 16);
		if (end == line)
			continue;
		size = strtoull(end, &p, 16);
		if (p == end || (*p != ' ' && *p != '\t'))
			continue;
		p += strspn(p, " \t");
		n = strcspn(p, "\n");
		if (n)
			/* code freed and reused is named again below: rank by line */
			err = hk_symtab__add(t, start, size, p, n, line_no);
	}
	free(line);
	return err;
}

void hk_usyms__load_perfmap(struct hk_usyms *s)
{
	struct stat owner, st;
	char path[96];
	FILE *f;
	int fd;

	s->perfmap_state = HK_LOAD_FAILED;
	snprintf(path, sizeof(path), "/proc/%d", s->pid);
	if (stat(path, &owner))
		return;
	snprintf(path, sizeof(path), "/proc/%d/root/tmp/perf-%d.map", s->pid,
		 ns_pid(s->pid));
	/* /tmp is anyone's: only a regular file of the process's owner or root */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_uid != owner.st_uid && st.st_uid != 0)) {
		close(fd);
		return;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	if (!read_perfmap(&s->perfmap, f)) {
		hk_symtab__sort(&s->perfmap);
		s->perfmap_state = HK_LOAD_DONE;
	}
	fclose(f);
}
