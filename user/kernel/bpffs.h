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

#define HK_BPFFS_DIR "/sys/fs/bpf"
/* Where --pin leaves the running diagnosis, and where follow, unpin and
 * status look for it. */
#define HK_PIN_DIR HK_BPFFS_DIR "/hotspot-k"

/*
 * Make sure dir is a BPF filesystem: 0 when it was (*mounted 0) or has
 * just been mounted there (*mounted 1, mode 0700); -1 with one line in err
 * saying what is wrong and what to do (no CAP_SYS_ADMIN, no such
 * directory, another filesystem mounted there).
 */
int hk_bpffs__ensure(const char *dir, int *mounted, char *err, size_t err_len);

/* 1 when dir is a BPF filesystem, 0 when not, -1 with errno. */
int hk_bpffs__is_bpffs(const char *dir);

/* Remove dir's pins and dir: the objects go when nothing else holds them.
 * The number of pins removed, or -errno. */
int hk_bpffs__unpin(const char *dir);

#endif /* HK_USER_BPFFS_H */
