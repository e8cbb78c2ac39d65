// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * outdir.c - the directories the tool writes its outputs into, and whole
 * files written there (outdir.h). The checks and the safe creation are
 * safefile.c's; this adds what profiles and the textfile share: the trial
 * at start, the exact mode, a stdio writer, and the message for a
 * directory removed under the tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "msg.h"
#include "outdir.h"
#include "pathwalk.h"

int hk_outdir__open(struct hk_safedir *d, const char *path, const char *name, char *warn,
		    size_t warn_len, char *err, size_t err_len)
{
	char tmp[NAME_MAX + HK_SAFEFILE_TMP_EXTRA + 1], q[HK_QUOTE_BUF], on_way[512];
	int fd;

	d->fd = -1;
	fd = hk_pathwalk__open_dir(path, on_way, sizeof(on_way), err, err_len);
	if (fd < 0)
		return -1;
	if (hk_safefile__dir_adopt(d, fd, path, warn, warn_len, err, err_len))
		return -1;
	/* one warning: the directory's own owner first, else one on the way */
	if (warn_len && !warn[0])
		snprintf(warn, warn_len, "%s", on_way);
	fd = hk_safefile__create(d, name, 0600, tmp, sizeof(tmp));
	if (fd < 0) {
		hk_msg__fail(err, err_len, "%s: cannot create a file there: %s",
			     hk_msg__quote(q, sizeof(q), path), strerror(-fd));
		hk_safefile__dir_close(d);
		return -1;
	}
	hk_safefile__abort(d, fd, tmp);
	hk_safefile__sweep(d, name, HK_OUTDIR_STALE_S);
	return 0;
}

int hk_outdir__prepare(const struct hk_safedir *d, const char *name, mode_t mode,
		       hk_outdir_write_fn fn, void *ctx, struct hk_outfile *out)
{
	int fd, dup_fd, e;
	FILE *f;

	out->fd = -1;
	fd = hk_safefile__create(d, name, mode, out->tmp, sizeof(out->tmp));
	if (fd < 0)
		return fd;
	/* the umask may have taken a bit the reader needs */
	if (fchmod(fd, mode))
		goto fail_errno;
	/* a stream on a copy: its fclose() flushes, the fd stays for commit */
	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0)
		goto fail_errno;
	f = fdopen(dup_fd, "w");
	if (!f) {
		e = -errno;
		close(dup_fd);
		goto fail;
	}
	errno = 0;
	e = fn(ctx, f);
	if (fclose(f) && !e)
		e = errno ? -errno : -EIO;
	if (e)
		goto fail;
	out->fd = fd;
	return 0;

fail_errno:
	e = -errno;
fail:
	hk_safefile__abort(d, fd, out->tmp);
	return e;
}

int hk_outdir__commit(const struct hk_safedir *d, struct hk_outfile *out, const char *name)
{
	int e = hk_safefile__commit(d, out->fd, out->tmp, name);

	out->fd = -1;
	return e;
}

void hk_outdir__abort(const struct hk_safedir *d, struct hk_outfile *out)
{
	if (out->fd < 0)
		return;
	hk_safefile__abort(d, out->fd, out->tmp);
	out->fd = -1;
}

int hk_outdir__write_set(const struct hk_safedir *d, const struct hk_outdir_file *files,
			 size_t n, mode_t mode)
{
	struct hk_outfile out[HK_OUTDIR_SET_MAX];
	size_t i, named = 0;
	int e = 0;

	if (n > HK_OUTDIR_SET_MAX)
		return -E2BIG;
	for (i = 0; i < n; i++)
		out[i].fd = -1;
	for (i = 0; i < n && !e; i++)
		e = hk_outdir__prepare(d, files[i].name, mode, files[i].fn, files[i].ctx, &out[i]);
	for (i = 0; i < n && !e; i++) {
		e = hk_outdir__commit(d, &out[i], files[i].name);
		named += !e;
	}
	/* not written is not written: none stays without the others */
	while (e && named--)
		unlinkat(d->fd, files[named].name, 0);
	for (i = 0; i < n; i++)
		hk_outdir__abort(d, &out[i]);
	return e;
}

int hk_outdir__write(const struct hk_safedir *d, const char *name, mode_t mode,
		     hk_outdir_write_fn fn, void *ctx)
{
	struct hk_outdir_file f = { .name = name, .fn = fn, .ctx = ctx };

	return hk_outdir__write_set(d, &f, 1, mode);
}

void hk_outdir__why(const struct hk_safedir *d, int e, char *buf, size_t len)
{
	char q[HK_QUOTE_BUF];
	struct stat st;

	/* a removed directory keeps its inode while we hold it, with no link */
	if (e == -ENOENT && d->fd >= 0 && !fstat(d->fd, &st) && !st.st_nlink) {
		hk_msg__fail(buf, len, "the directory %s was removed since it was checked; "
			     "hotspot-k does not follow its path again (restart it to write "
			     "into a new one)", hk_msg__quote(q, sizeof(q), d->path));
		return;
	}
	hk_msg__fail(buf, len, "%s", strerror(-e));
}
