/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * outdir.h - the directories the tool writes its outputs into (profiles,
 * the Prometheus textfile), and whole files written there.
 *
 * A directory is opened and checked once (safefile.h) and kept open: every
 * file goes in relative to that fd, under a temporary name nobody can
 * guess, and is renamed over its name only once written and fsync'd. What
 * someone plants under a name the tool uses (a symlink, a FIFO, a hard
 * link) is replaced, never followed, opened or blocked on. A directory
 * removed afterwards is not looked up again by its path: whoever can
 * replace it could point root anywhere.
 */
#ifndef HK_USER_OUTDIR_H
#define HK_USER_OUTDIR_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>
#include "lib/safefile.h"

/*
 * A temporary file unmodified this long is a dead writer's: past the
 * profile writer's budget (30 s) with a margin. Older ones of ours are
 * removed when the directory is opened (hk_safefile__sweep).
 */
#define HK_OUTDIR_STALE_S	120

/*
 * Open path for files like name (name: a typical one, as long as the
 * longest), walked a component at a time (pathwalk.h: a symlink of
 * another user on it is refused, a directory of another user on it said
 * in warn), and try it: a file is created there and removed, so that a
 * read-only mount, a missing permission or a name too long is found now,
 * not when the first file is due; stale temporary files of ours for names
 * like name are removed (HK_OUTDIR_STALE_S). 0, or -1 with one line in err; warn as
 * hk_safefile__dir_open's (a directory another user owns).
 */
int hk_outdir__open(struct hk_safedir *d, const char *path, const char *name, char *warn,
		    size_t warn_len, char *err, size_t err_len);

/* Writes the file's text into f: 0, or -errno. */
typedef int (*hk_outdir_write_fn)(void *ctx, FILE *f);

/* A file written under its temporary name, not yet named. */
struct hk_outfile {
	int fd;			/* -1: none */
	char tmp[NAME_MAX + HK_SAFEFILE_TMP_EXTRA + 1];
};

/*
 * A new file for name in d, with exactly mode (not the umask's: a reader
 * the mode names must be able to read it), written by fn(ctx, f) under a
 * temporary name. 0 with it in out, for hk_outdir__commit or __abort; or
 * -errno with nothing left behind.
 */
int hk_outdir__prepare(const struct hk_safedir *d, const char *name, mode_t mode,
		       hk_outdir_write_fn fn, void *ctx, struct hk_outfile *out);

/* fsync it and rename it over name: 0, or -errno with nothing left behind. */
int hk_outdir__commit(const struct hk_safedir *d, struct hk_outfile *out, const char *name);

/* Give it up: closed, its temporary name removed. */
void hk_outdir__abort(const struct hk_safedir *d, struct hk_outfile *out);

/* A file of a set: its name in the directory and what writes it. */
struct hk_outdir_file {
	const char *name;
	hk_outdir_write_fn fn;
	void *ctx;
};

/* The most files hk_outdir__write_set() writes together. */
#define HK_OUTDIR_SET_MAX	4

/*
 * files[0..n) in d, mode as for prepare, all or none: each written under
 * its temporary name first, then named in turn; a failure removes the
 * names already made. 0, or -errno of the first failure (-E2BIG: n past
 * HK_OUTDIR_SET_MAX) with nothing left behind.
 */
int hk_outdir__write_set(const struct hk_safedir *d, const struct hk_outdir_file *files,
			 size_t n, mode_t mode);

/* One file: a set of one. */
int hk_outdir__write(const struct hk_safedir *d, const char *name, mode_t mode,
		     hk_outdir_write_fn fn, void *ctx);

/*
 * Why a write into d failed with -e, one line into buf: strerror, or, when
 * d itself was removed since it was opened, that it was and what to do.
 */
void hk_outdir__why(const struct hk_safedir *d, int e, char *buf, size_t len);

#endif /* HK_USER_OUTDIR_H */
