/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pindir.h - the directory --pin leaves its instance in (HK_PIN_DIR),
 * reached by fd only.
 *
 * /sys/fs/bpf is often writable by every user: 1777 is the kernel's mode
 * for a plain `mount -t bpf bpf /sys/fs/bpf` (OpenRC's, a container's, a
 * VM's). A name there proves nothing: anyone may plant hotspot-k as a
 * symlink to /etc, or as a directory of maps of their own. So the
 * directory is opened once without following a symlink and checked (a
 * directory of root's that nobody else can write, on bpffs), and every
 * pin in it is reached through that fd and checked too: a regular bpffs
 * object of root's with one of the names --pin gives, and a map of the
 * type and sizes the reader reads.
 */
#ifndef HK_USER_PINDIR_H
#define HK_USER_PINDIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <linux/bpf.h>

struct hk_pindir {
	int parent_fd;		/* HK_BPFFS_DIR */
	int fd;			/* HK_PIN_DIR, checked */
	/* fd as a path, "/proc/self/fd/N", for bpf(2) and libbpf, which take
	 * paths (BPF_F_PATH_FD needs Linux 6.5): the walk goes through the
	 * directory fd names, never through /sys/fs/bpf again */
	char path[32];
};

/* What a reader reads from a pinned map; max_entries 0: any. */
struct hk_pindir_map {
	__u32 type;
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;
};

/*
 * Open HK_PIN_DIR and check it; make it first (mode 0700) when make is
 * set. 0 with pd open; -ENOENT when there is none (or no bpffs); -EEXIST
 * (make) when a checked pin directory is there already: another
 * instance's; -EPERM when what is there fails the checks (err names its
 * owner and mode, and what root should do); else -errno. err has one
 * line for each failure.
 */
int hk_pindir__open(struct hk_pindir *pd, int make, char *err, size_t len);

/* NULL-safe; pd closed twice is fine. */
void hk_pindir__close(struct hk_pindir *pd);

/* An fd of the pin name, opened with BPF_OBJ_GET's flags: -EPROTO when it
 * is not one --pin makes (a symlink, someone else's), else -errno. */
int hk_pindir__get(const struct hk_pindir *pd, const char *name, __u32 flags);

/*
 * An fd of the pinned map name, opened with BPF_OBJ_GET's flags and
 * checked against want: the fd; -ENOENT when not pinned; -EPROTO (err
 * says what it is) when name is not a regular pin of root's or not such a
 * map; else -errno.
 */
int hk_pindir__map(const struct hk_pindir *pd, const char *name,
		   const struct hk_pindir_map *want, __u32 flags, char *err, size_t len);

/*
 * Remove the pins --pin makes (hk_pindir__ours(), each a regular pin of
 * root's), then the directory. The number removed; -errno with err saying
 * what was left (names --pin does not make are never removed).
 */
int hk_pindir__unpin(struct hk_pindir *pd, char *err, size_t len);

/* --- pure: the checks, for the unit tests ------------------------------ */

/*
 * What is at HK_PIN_DIR (lstat, and its filesystem's magic) is a pin
 * directory of root's or of me: 0; else -1 with one line in err saying
 * who made it, and what root should check.
 */
int hk_pindir__judge(const struct stat *st, unsigned long fs_type, uid_t me,
		     char *err, size_t len);

/* 1 when --pin gives name to a pin: hk_* (its maps), hotspot__* (libbpf's
 * names for the object's .bss and .rodata), link_hk_* (its links). */
int hk_pindir__ours(const char *name);

/* info is what want says: 0, or -EPROTO with one line in err. */
int hk_pindir__check_map(const struct bpf_map_info *info, const char *name,
			 const struct hk_pindir_map *want, char *err, size_t len);

#endif /* HK_USER_PINDIR_H */
