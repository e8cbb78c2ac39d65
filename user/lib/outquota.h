/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * outquota.h - a byte quota on the files the tool writes into a directory
 * (profiles): the oldest of its own removed first, so that processes that
 * keep being profiled cannot fill the directory's filesystem.
 */
#ifndef HK_USER_OUTQUOTA_H
#define HK_USER_OUTQUOTA_H

#include <stddef.h>
#include <linux/types.h>
#include "lib/safefile.h"

/* Files looked at, at most, in one trim: the directory may hold anything. */
#define HK_OUTQUOTA_MAX_FILES	65536

struct hk_outquota {
	const char *prefix;		/* names start so ("hotspot-k.") */
	const char *const *suffixes;	/* and end with one of these */
	size_t nsuffixes;
	__u64 max_bytes;		/* what they may sum to */
	const char *const *keep;	/* never removed (those just written) */
	size_t nkeep;
};

/*
 * Remove the oldest (by mtime) of q's files in d until the rest sum to at
 * most q->max_bytes. Only ours: regular files of this euid with one link,
 * looked at and removed by name relative to d, never through a symlink.
 * The number removed, their bytes in *removed_bytes (NULL: not wanted);
 * -errno when d cannot be read.
 */
long hk_outquota__trim(const struct hk_safedir *d, const struct hk_outquota *q,
		       __u64 *removed_bytes);

#endif /* HK_USER_OUTQUOTA_H */
