/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bpffs.h - the BPF filesystem --pin leaves the diagnosis on.
 *
 * systemd mounts it on /sys/fs/bpf at boot; a container, a minimal VM or
 * a CI runner often has nothing there. Like bpftool when it pins, --pin
 * mounts it then, and says so.
 */
#ifndef HK_USER_BPFFS_H
#define HK_USER_BPFFS_H

#include <stddef.h>
#include <sys/types.h>

#define HK_BPFFS_DIR "/sys/fs/bpf"
/* Where --pin leaves the running diagnosis, and where follow, unpin and
 * status look for it: by fd only (pindir.h). */
/* How to mount it so that only root can write it (systemd mounts it so). */
#define HK_BPFFS_PRIVATE_MOUNT "mount -t bpf -o mode=0700 bpf " HK_BPFFS_DIR
#define HK_PIN_NAME "hotspot-k"
#define HK_PIN_DIR HK_BPFFS_DIR "/" HK_PIN_NAME

/*
 * Make sure dir is a BPF filesystem: 0 when it was (*mounted 0) or has
 * just been mounted there (*mounted 1, mode 0700); -1 with one line in err
 * saying what is wrong and what to do (no CAP_SYS_ADMIN, no such
 * directory, another filesystem mounted there).
 */
int hk_bpffs__ensure(const char *dir, int *mounted, char *err, size_t err_len);

/*
 * 1 with one line in note when dir (a bpffs) is writable by others, as a
 * plain mount makes it (1777): anyone may plant names there; 0 when not,
 * or when it cannot be read.
 */
int hk_bpffs__shared(const char *dir, char *note, size_t len);

/* The same, from dir's mode. */
int hk_bpffs__mode_shared(mode_t mode, const char *dir, char *note, size_t len);

#endif /* HK_USER_BPFFS_H */
