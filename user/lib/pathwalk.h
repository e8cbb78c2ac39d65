/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pathwalk.h - a directory the tool writes into, opened one component at
 * a time, so that what each component is, and whose, is seen.
 *
 * open() follows every symlink on a path silently: with --profile-dir
 * /home/alice/prof, alice replaces prof with a symlink to /etc/cron.d and
 * root writes there, into a directory that passes every check (root's,
 * 0755). Walked here from "/" (or the working directory) with O_NOFOLLOW,
 * a symlink is followed only when root or we own it (its owner decides
 * where it points); a directory on the way that another user owns can
 * replace what is below it, and is said.
 */
#ifndef HK_USER_PATHWALK_H
#define HK_USER_PATHWALK_H

#include <stddef.h>

/* Symlinks followed on one path, at most (the kernel's MAXSYMLINKS). */
#define HK_PATHWALK_MAX_LINKS	40

/*
 * The directory path, open (O_RDONLY | O_DIRECTORY): its fd, or -1 with
 * one line in err (a component that is a symlink of another user, or
 * missing, or not a directory). warn (warn_len 0: not wanted) gets one
 * line when a directory on the way, not the last, belongs to another
 * user than root and us; else "".
 */
int hk_pathwalk__open_dir(const char *path, char *warn, size_t warn_len, char *err,
			  size_t err_len);

#endif /* HK_USER_PATHWALK_H */
