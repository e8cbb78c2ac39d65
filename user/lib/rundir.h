/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rundir.h - /run/hotspot-k: what the tool changed on the host and must
 * undo, kept where a restarted tool finds it after a crash or a SIGKILL.
 *
 * /run is a tmpfs: what is left there is cleared at boot, exactly when
 * what it records (a sysctl written, a cgroup frozen) is gone too. The
 * directory is root's, 0700; one found with another owner or open to
 * others, or a symlink, is refused rather than trusted.
 */
#ifndef HK_USER_RUNDIR_H
#define HK_USER_RUNDIR_H

#include <stddef.h>
#include "safefile.h"

#define HK_RUNDIR "/run/hotspot-k"

/*
 * Open path (HK_RUNDIR; a test gives another), made 0700 when absent, as
 * a safefile directory for the state files. 0, or -1 with one line in
 * err (not root's, open to others, a symlink, cannot be made).
 */
int hk_rundir__open(struct hk_safedir *d, const char *path, char *err, size_t err_len);

/*
 * Replace the state file name in d with len bytes of text, atomically
 * (a reader sees the old file or the new one, whole). 0, or -errno.
 */
int hk_rundir__put(const struct hk_safedir *d, const char *name, const char *text, size_t len);

/*
 * Read the state file name in d into buf (NUL-terminated, at most len - 1
 * bytes): its length; -ENOENT when there is none; another -errno.
 * Only a regular file owned by root is read.
 */
int hk_rundir__get(const struct hk_safedir *d, const char *name, char *buf, size_t len);

/* Remove the state file name: 0 (also when there was none), or -errno. */
int hk_rundir__drop(const struct hk_safedir *d, const char *name);

#endif /* HK_USER_RUNDIR_H */
