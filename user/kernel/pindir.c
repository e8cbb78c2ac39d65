// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * pindir.c - the pin directory, opened once, checked, used by fd
 * (pindir.h says why).
 *
 * Once the directory fd is checked, names in it are safe to use by path
 * through /proc/self/fd/N: it is root's and nobody else can write it, and
 * bpffs's root has the sticky bit (bpf_fill_super() always sets S_ISVTX),
 * so nobody else can rename or remove it either.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "bpf_sys.h"
#include "bpffs.h"
#include "pindir.h"
#include "lib/msg.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

static const char *kind_of(mode_t mode)
{
	return S_ISLNK(mode) ? "symlink" : S_ISDIR(mode) ? "directory" :
	       S_ISREG(mode) ? "pinned object" : "special file";
}

int hk_pindir__judge(const struct stat *st, unsigned long fs_type, uid_t me,
		     char *err, size_t len)
{
	const char *why;

	if (!S_ISDIR(st->st_mode) || (st->st_uid != 0 && st->st_uid != me))
		why = "made by someone else";
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		why = "writable by others";
	else if (fs_type != BPF_FS_MAGIC)
		why = "not on bpffs";
	else
		return 0;
	/* never "run unpin": unpin is what would act on it */
	return hk_msg__fail(err, len, "%s is a %s of uid %u (mode %04o), %s, not the "
			    "directory --pin makes (root's, 0700, on bpffs): left alone; root "
			    "should see who made it (ls -la %s), remove it by hand, and mount "
			    "bpffs private (" HK_BPFFS_PRIVATE_MOUNT ")", HK_PIN_DIR,
			    kind_of(st->st_mode), (unsigned int)st->st_uid,
			    (unsigned int)(st->st_mode & 07777), why, HK_BPFFS_DIR);
}

static int prefixed(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *c;

	if (strncmp(name, prefix, n) || !name[n])
		return 0;
	for (c = name + n; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return 0;
	/* BPF_OBJ_NAME_LEN, and link_ before the longest program name */
	return c - name <= 5 + BPF_OBJ_NAME_LEN;
}

int hk_pindir__ours(const char *name)
{
	/* bpf_object__pin_maps() pins every map by its name, the object's
	 * own (hotspot_.bss) with '.' made '_'; loader_pin.c names the links */
	return prefixed(name, "hk_") || prefixed(name, "hotspot__") ||
	       prefixed(name, "link_hk_");
}

static const char *map_type(__u32 type)
{
	return type == BPF_MAP_TYPE_ARRAY ? "an array" : type == BPF_MAP_TYPE_HASH ? "a hash" :
	       type == BPF_MAP_TYPE_RINGBUF ? "a ring buffer" : "another map";
}

int hk_pindir__check_map(const struct bpf_map_info *info, const char *name,
			 const struct hk_pindir_map *want, char *err, size_t len)
{
	if (info->type == want->type && info->key_size == want->key_size &&
	    info->value_size == want->value_size &&
	    (!want->max_entries || info->max_entries == want->max_entries))
		return 0;
	hk_msg__fail(err, len, "%s (map id %u) is %s (type %u) of %u-byte keys, %u-byte "
		     "values, %u entries; this hotspot-k reads %s of %u, %u, %u: not read",
		     name, info->id, map_type(info->type), info->type, info->key_size,
		     info->value_size, info->max_entries, map_type(want->type),
		     want->key_size, want->value_size, want->max_entries);
	return -EPROTO;
}

/* -e, with "HK_PIN_DIR: what e says" in err */
static int sys_fail(int e, char *err, size_t len)
{
	hk_msg__fail(err, len, "%s: %s", HK_PIN_DIR, strerror(e));
	return -e;
}

void hk_pindir__close(struct hk_pindir *pd)
{
	if (!pd)
		return;
	if (pd->fd >= 0)
		close(pd->fd);
	if (pd->parent_fd >= 0)
		close(pd->parent_fd);
	pd->fd = pd->parent_fd = -1;
}

/* What is at the name, not opened as a directory of ours: judged. */
static int judge_name(struct hk_pindir *pd, int e, char *err, size_t len)
{
	struct stat st;

	if (e != ELOOP && e != ENOTDIR && e != EACCES)
		return sys_fail(e, err, len);
	if (fstatat(pd->parent_fd, HK_PIN_NAME, &st, AT_SYMLINK_NOFOLLOW))
		return sys_fail(errno, err, len);
	/* the filesystem is the parent's: it is no mount point */
	if (hk_pindir__judge(&st, BPF_FS_MAGIC, geteuid(), err, len))
		return -EPERM;
	return sys_fail(e, err, len);
}

int hk_pindir__open(struct hk_pindir *pd, int make, char *err, size_t len)
{
	int existed = 0, e;
	struct statfs sfs;
	struct stat st;

	pd->fd = -1;
	pd->parent_fd = open(HK_BPFFS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pd->parent_fd < 0 || fstatfs(pd->parent_fd, &sfs) || sfs.f_type != BPF_FS_MAGIC) {
		e = pd->parent_fd < 0 ? errno : ENOENT;
		hk_msg__fail(err, len, "no bpffs on %s%s%s", HK_BPFFS_DIR, e == ENOENT ? "" : ": ",
			     e == ENOENT ? "" : strerror(e));
		hk_pindir__close(pd);
		return -e;
	}
	if (make && mkdirat(pd->parent_fd, HK_PIN_NAME, 0700)) {
		e = errno;
		if (e != EEXIST) {
			hk_msg__fail(err, len, "%s: %s%s", HK_PIN_DIR, strerror(e), e == EROFS ?
				     " (a service needs ReadWritePaths=/sys/fs/bpf)" : "");
			hk_pindir__close(pd);
			return -e;
		}
		existed = 1;
	}
	pd->fd = openat(pd->parent_fd, HK_PIN_NAME,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pd->fd < 0) {
		e = errno;
		if (e == ENOENT)
			hk_msg__fail(err, len, "nothing pinned (%s)", HK_PIN_DIR);
		e = e == ENOENT ? -ENOENT : judge_name(pd, e, err, len);
		hk_pindir__close(pd);
		return e;
	}
	if (fstat(pd->fd, &st) || fstatfs(pd->fd, &sfs)) {
		e = sys_fail(errno, err, len);
		hk_pindir__close(pd);
		return e;
	}
	e = hk_pindir__judge(&st, sfs.f_type, geteuid(), err, len) ? -EPERM : 0;
	if (!e && existed) {
		hk_msg__fail(err, len, "%s exists: another hotspot-k pinned there first "
			     "(hotspot-k status shows it, hotspot-k unpin stops it)", HK_PIN_DIR);
		e = -EEXIST;
	}
	if (e) {
		hk_pindir__close(pd);
		return e;
	}
	snprintf(pd->path, sizeof(pd->path), "/proc/self/fd/%d", pd->fd);
	return 0;
}

/* name is a pin --pin makes, root's (or mine), not a symlink: 0, or -errno. */
static int pin_ok(const struct hk_pindir *pd, const char *name)
{
	struct stat st;

	if (fstatat(pd->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!hk_pindir__ours(name) || !S_ISREG(st.st_mode) ||
	    (st.st_uid != 0 && st.st_uid != geteuid()))
		return -EPROTO;
	return 0;
}

int hk_pindir__get(const struct hk_pindir *pd, const char *name, __u32 flags)
{
	char path[sizeof(pd->path) + 1 + 64];
	int e;

	e = pin_ok(pd, name);
	if (e)
		return e;
	snprintf(path, sizeof(path), "%s/%s", pd->path, name);
	return hk_bpf_sys__obj_get(path, flags);
}

int hk_pindir__map(const struct hk_pindir *pd, const char *name,
		   const struct hk_pindir_map *want, __u32 flags, char *err, size_t len)
{
	struct bpf_map_info info = {};
	int fd, e;

	fd = hk_pindir__get(pd, name, flags);
	if (fd == -EPROTO)
		hk_msg__fail(err, len, "%s/%s is not a pin of root's (a symlink, or someone "
			     "else's): not read", HK_PIN_DIR, name);
	else if (fd < 0)
		hk_msg__fail(err, len, "%s/%s: %s", HK_PIN_DIR, name, strerror(-fd));
	if (fd < 0)
		return fd;
	e = hk_bpf_sys__info(fd, &info, sizeof(info));
	if (e)
		hk_msg__fail(err, len, "%s/%s: %s", HK_PIN_DIR, name, strerror(-e));
	else
		e = hk_pindir__check_map(&info, name, want, err, len);
	if (e) {
		close(fd);
		return e;
	}
	return fd;
}

int hk_pindir__unpin(struct hk_pindir *pd, char *err, size_t len)
{
	char left[HK_QUOTE_BUF] = "";
	int n = 0, others = 0, dfd, e;
	struct dirent *d;
	struct stat st, now;
	DIR *dh;

	if (fstat(pd->fd, &st) || (dfd = dup(pd->fd)) < 0)
		return sys_fail(errno, err, len);
	dh = fdopendir(dfd);
	if (!dh) {
		e = errno;
		close(dfd);
		return sys_fail(e, err, len);
	}
	while ((d = readdir(dh))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (pin_ok(pd, d->d_name)) {
			if (!others++)
				hk_msg__quote(left, sizeof(left), d->d_name);
			continue;
		}
		if (!unlinkat(pd->fd, d->d_name, 0))
			n++;
	}
	closedir(dh);
	/* the name is still the directory checked (the parent is sticky:
	 * nobody else can move it), and it is empty unless others were left */
	if (fstatat(pd->parent_fd, HK_PIN_NAME, &now, AT_SYMLINK_NOFOLLOW) ||
	    now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
		hk_msg__fail(err, len, "%s was replaced while its pins were removed: left alone",
			     HK_PIN_DIR);
		return -ESTALE;
	}
	if (others) {
		hk_msg__fail(err, len, "%d pins removed; %d entries of %s are not what --pin "
			     "makes (one is '%s'): left there, and the directory with them", n,
			     others, HK_PIN_DIR, left);
		return -ENOTEMPTY;
	}
	if (unlinkat(pd->parent_fd, HK_PIN_NAME, AT_REMOVEDIR))
		return sys_fail(errno, err, len);
	return n;
}
