// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * usyms_load.c - where a process's symbols come from: its mapped ELF files,
 * its vdso image, and the perf map a JIT (node --perf-basic-prof, the JVM
 * with perf-map-agent, LuaJIT) writes for code that no file holds.
 *
 * A file is opened through /proc/PID/map_files/START-END first: that is
 * the very file mapped, even when deleted, replaced on disk since, or in
 * another mount namespace (it needs CAP_SYS_ADMIN, or
 * CAP_CHECKPOINT_RESTORE). Then PATH resolved inside the process's root
 * (openat2, RESOLVE_IN_ROOT), and PATH as the tool sees it only for a
 * process in the tool's mount namespace; either accepted only with the
 * mapped device and inode, as a file upgraded since the process started
 * has other symbols, and the path is the process's to swap.
 *
 * Everything here is the process's to shape, so anyone's: each read of
 * /proc/PID/... is kept only if the PID still held the process after it,
 * and each input has its cap (symbolize.h's hk_usyms_limits), noted in
 * s->cut when it bites.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/openat2.h>
#include "lib/pidref.h"
#include "usyms_load.h"

/* the vdso is two pages; anything far bigger is not one */
#define VDSO_MAX_BYTES	(1 << 20)

int hk_usyms__held(const struct hk_usyms *s)
{
	return !s->ref || hk_pidref__held(s->ref);
}

/*
 * The device maps shows for the file open on fd, when its st_dev is
 * another: maps gives the superblock's (a btrfs subvolume's files stat
 * with their subvolume's), which mountinfo, the kernel's text, gives for
 * the fd's mount. 0, or -1 when not found.
 */
static int mount_dev(const struct hk_usyms *s, int fd, __u64 *dev)
{
	unsigned int id = 0, mid, maj, min;
	char path[64], *line = NULL;
	size_t cap = 0;
	int ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "mnt_id: %u", &id) == 1)
			break;
	fclose(f);
	/* the tool's own once the process exited, when it is the same */
	if (s->same_mnt)
		snprintf(path, sizeof(path), "/proc/self/mountinfo");
	else
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", s->pid);
	f = id ? fopen(path, "re") : NULL;
	while (f && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%u %*u %u:%u", &mid, &maj, &min) == 3 && mid == id) {
			*dev = makedev(maj, min);
			ret = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	free(line);
	return ret;
}

/*
 * The file on pfd (O_PATH: a mapped device file's driver never sees an
 * open) for reading, if it is a regular file and, when inode is not 0,
 * the one maps names: its inode on its device. The inode alone is not
 * enough: a user's tmpfs numbers its inodes from 1, and a path swapped
 * for a symlink to root's file of that number would have root read it.
 * Closes pfd.
 */
static int reopen_checked(const struct hk_usyms *s, int pfd, __u64 dev, __u64 inode)
{
	char fd_path[64];
	struct stat st;
	__u64 mdev;
	int fd = -1;

	if (pfd < 0)
		return -1;
	if (fstat(pfd, &st) || !S_ISREG(st.st_mode))
		goto out;
	if (inode && (st.st_ino != inode ||
		      (st.st_dev != dev && (mount_dev(s, pfd, &mdev) || mdev != dev))))
		goto out;
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", pfd);
	fd = open(fd_path, O_RDONLY | O_CLOEXEC);
out:
	close(pfd);
	return fd;
}

/* Through /proc/PID/...: kept only if the PID was still the process's. */
static int held_or_close(const struct hk_usyms *s, int fd)
{
	if (fd >= 0 && !hk_usyms__held(s)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* path resolved inside the process's root: its absolute symlinks and
 * ".." stay in it, and no /proc magic link is followed */
static int open_in_root(const struct hk_usyms *s, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	char root[64];
	int rfd, fd;

	snprintf(root, sizeof(root), "/proc/%d/root", s->pid);
	rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, rfd, path, &how, sizeof(how));
	close(rfd);
	return held_or_close(s, fd);
}

int hk_usyms__same_mnt_ns(const struct hk_usyms *s)
{
	struct stat mine, its;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", s->pid);
	return !stat(path, &its) && !stat("/proc/self/ns/mnt", &mine) &&
	       its.st_ino == mine.st_ino && its.st_dev == mine.st_dev;
}

static int open_module(const struct hk_usyms *s, const struct hk_umod *mod,
		       const struct hk_umap *m)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", s->pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	fd = reopen_checked(s, held_or_close(s, open(path, O_PATH | O_CLOEXEC)), 0, 0);
	if (fd >= 0)
		return fd;
	fd = reopen_checked(s, open_in_root(s, mod->path), mod->dev, mod->inode);
	/* once it exited, only this way is left */
	if (fd >= 0 || !s->same_mnt)
		return fd;
	return reopen_checked(s, open(mod->path, O_PATH | O_CLOEXEC), mod->dev, mod->inode);
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
		if (pread(fd, image, size, (off_t)m->start) == (ssize_t)size &&
		    hk_usyms__held(s))
			err = hk_elf_syms__read_confined(&mod->elf, -1, image, size,
							 s->lim.section_bytes,
							 s->lim.sym_bytes - s->sym_bytes);
		close(fd);
	}
	free(image);
	return err;
}

/* What a file's symbols hold: counted against the budget of all files. */
static size_t held_bytes(const struct hk_elf_syms *e)
{
	return e->tab.cap * sizeof(*e->tab.syms) + e->tab.names_cap +
	       e->nloads * sizeof(*e->loads);
}

static void note_big_file(struct hk_usyms *s, const struct hk_umod *mod)
{
	const char *base = strrchr(mod->path, '/');

	if (!s->cut.big_files++)
		snprintf(s->cut.big_file, sizeof(s->cut.big_file), "%s",
			 base && base[1] ? base + 1 : mod->path);
}

void hk_umod__load(struct hk_usyms *s, struct hk_umod *mod, const struct hk_umap *m)
{
	int fd, err;

	mod->state = HK_LOAD_FAILED;
	if (s->sym_bytes >= s->lim.sym_bytes) {
		s->cut.unread_files++;
		return;
	}
	if (mod->kind == HK_UMOD_VDSO) {
		err = read_vdso(s, mod, m);
	} else {
		fd = open_module(s, mod, m);
		if (fd < 0)
			return;
		err = hk_elf_syms__read_confined(&mod->elf, fd, NULL, 0, s->lim.section_bytes,
						 s->lim.sym_bytes - s->sym_bytes);
		close(fd);
	}
	if (err == -EFBIG || err == -E2BIG)
		note_big_file(s, mod);
	/* the budget was spent inside this file */
	if (err == -ENOSPC)
		s->cut.unread_files++;
	if (err)
		return;
	mod->state = HK_LOAD_DONE;
	s->sym_bytes += held_bytes(&mod->elf);
}

const struct hk_umap *hk_usyms__find_map(const struct hk_usyms *s, __u64 addr)
{
	size_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= s->maps[lo - 1].end)
		return NULL;
	return &s->maps[lo - 1];
}

int hk_usyms__code(struct hk_usyms *s, __u64 addr, unsigned char *buf, size_t len)
{
	const struct hk_umap *m = hk_usyms__find_map(s, addr - 1);
	const struct hk_umod *mod;

	if (!m || !m->exec || m->mod < 0 || addr - len < m->start)
		return -1;
	mod = &s->mods[m->mod];
	if (mod->kind != HK_UMOD_FILE)
		return -1;
	/* one file open at a time: the candidates of a stack are mostly in
	 * the leaf's library and the program */
	if (s->code_mod != m->mod + 1) {
		if (s->code_mod)
			close(s->code_fd);
		s->code_fd = open_module(s, mod, m);
		s->code_mod = s->code_fd >= 0 ? m->mod + 1 : 0;
	}
	if (!s->code_mod ||
	    pread(s->code_fd, buf, len, (off_t)(addr - len - m->start + m->pgoff)) !=
		    (ssize_t)len)
		return -1;
	return 0;
}

/* The pid the process sees itself as: the JIT names its map with that. */
static int ns_pid(const struct hk_usyms *s)
{
	char path[64], *line = NULL, *p;
	size_t cap = 0;
	int nspid = s->pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", s->pid);
	f = fopen(path, "re");
	if (!f)
		return s->pid;
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
	return nspid > 0 ? nspid : s->pid;
}

/* One perf map line (no '\n'); 0 or -ENOMEM. */
static int perfmap_line(struct hk_symtab *t, char *line, size_t n, __u32 line_no)
{
	unsigned long long start, size;
	char *p, *end;

	line[n] = '\0';
	start = strtoull(line, &end, 16);
	if (end == line)
		return 0;
	size = strtoull(end, &p, 16);
	if (p == end || (*p != ' ' && *p != '\t'))
		return 0;
	p += strspn(p, " \t");
	n -= (size_t)(p - line);
	/* code freed and reused is named again below: rank by line */
	return n ? hk_symtab__add(t, start, size, p, n, line_no) : 0;
}

/*
 * Lines are assembled in a buffer of line_bytes + 1: a longer one is
 * skipped to its end, whatever its length (a sparse file of 64 GiB is one
 * line of NULs), and no more than perfmap_bytes are read in all.
 */
int hk_usyms__read_perfmap(struct hk_usyms *s, int fd, __u64 size)
{
	size_t max = s->lim.line_bytes, n = 0, i, total = 0, want, seg;
	char chunk[65536], *line, *nl;
	__u32 lines = 0;
	int err = 0, skipping = 0, more = 1;
	ssize_t got;

	line = malloc(max + 1);
	if (!line)
		return -ENOMEM;
	while (!err && more) {
		want = sizeof(chunk);
		if (want > s->lim.perfmap_bytes - total)
			want = s->lim.perfmap_bytes - total;
		if (!want) {
			/* at the cap: is there more? */
			if (read(fd, chunk, 1) > 0)
				s->cut.perfmap_size = size > total ? size : total + 1;
			break;
		}
		got = read(fd, chunk, want);
		if (got <= 0)
			break;
		total += (size_t)got;
		for (i = 0; i < (size_t)got && !err; i += seg + 1) {
			nl = memchr(chunk + i, '\n', (size_t)got - i);
			seg = nl ? (size_t)(nl - chunk) - i : (size_t)got - i;
			if (n + seg > max) {
				skipping = 1;
				n = max;
			} else {
				memcpy(line + n, chunk + i, seg);
				n += seg;
			}
			if (!nl)
				break;
			if (skipping) {
				s->cut.long_lines++;
			} else if (lines == s->lim.perfmap_lines) {
				s->cut.perfmap_lines = 1;
				more = 0;
				break;
			} else {
				err = perfmap_line(&s->perfmap, line, n, ++lines);
			}
			n = 0;
			skipping = 0;
		}
	}
	/* the last line may lack its '\n' (not one cut by the caps) */
	if (!err && more && !s->cut.perfmap_size && (n || skipping)) {
		if (skipping)
			s->cut.long_lines++;
		else if (lines == s->lim.perfmap_lines)
			s->cut.perfmap_lines = 1;
		else
			err = perfmap_line(&s->perfmap, line, n, ++lines);
	}
	free(line);
	return err;
}

void hk_usyms__load_perfmap(struct hk_usyms *s)
{
	struct stat owner, st;
	char path[96];
	int fd;

	s->perfmap_state = HK_LOAD_FAILED;
	snprintf(path, sizeof(path), "/proc/%d", s->pid);
	if (stat(path, &owner))
		return;
	snprintf(path, sizeof(path), "/proc/%d/root/tmp/perf-%d.map", s->pid, ns_pid(s));
	/* /tmp is anyone's: only a regular file of the process's owner or root */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	/* the owner, its pid in its namespace and its /tmp were the process's */
	if (!hk_usyms__held(s) || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_uid != owner.st_uid && st.st_uid != 0)) {
		close(fd);
		return;
	}
	if (!hk_usyms__read_perfmap(s, fd, (__u64)st.st_size)) {
		hk_symtab__sort(&s->perfmap);
		s->perfmap_state = HK_LOAD_DONE;
	}
	close(fd);
}
