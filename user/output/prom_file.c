// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prom_file.c - the --prometheus textfile (prometheus.h): its directory
 * opened and checked once, at start, and the text of the set written
 * whole under a new name and renamed over FILE when it has news. The set
 * it writes is prometheus.c's, which --metrics-listen serves without a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/msg.h"
#include "lib/outdir.h"
#include "prom_state.h"
#include "prometheus.h"

bool hk_prom__dirty(const struct hk_prom *p, const struct hk_stats *st)
{
	static const struct hk_stats zero;

	return p->changed || memcmp(st ? st : &zero, &p->written, sizeof(p->written));
}

struct prom_text {
	const struct hk_prom *p;
	const struct hk_stats *st;
	const char *driver;
};

static int prom_text_write(void *ctx, FILE *f)
{
	const struct prom_text *t = ctx;

	return hk_prom__format(t->p, t->st, t->driver, f);
}

int hk_prom__write(struct hk_prom *p, const struct hk_stats *st, const char *driver,
		   char *err, size_t err_len)
{
	struct prom_text t = { .p = p, .st = st, .driver = driver };
	int e;

	if (!p->path)
		return hk_msg__fail(err, err_len, "no file named"), -EINVAL;

	/* 0644: node_exporter, another user, reads it */
	e = hk_outdir__write(&p->dir, p->name, 0644, prom_text_write, &t);
	if (e) {
		hk_outdir__why(&p->dir, e, err, err_len);
		return e;
	}
	p->changed = false;
	if (st)
		p->written = *st;
	else
		memset(&p->written, 0, sizeof(p->written));
	return 0;
}

struct hk_prom *hk_prom__new(const char *path, char *warn, size_t warn_len, char *err,
			     size_t err_len)
{
	char q[HK_QUOTE_BUF], *slash;
	struct hk_prom *p;
	struct stat sb;

	if (warn_len)
		warn[0] = '\0';
	if (!path || !*path) {
		hk_msg__fail(err, err_len, "no file named");
		return NULL;
	}
	p = hk_prom__new_set();
	if (!p || !(p->path = strdup(path))) {
		hk_msg__fail(err, err_len, "out of memory");
		goto fail;
	}
	/* the directory, opened and checked once; the name in it */
	slash = strrchr(p->path, '/');
	p->name = slash ? slash + 1 : p->path;
	if (!*p->name) {
		hk_msg__fail(err, err_len, "%s is a directory: name a file in it",
			     hk_msg__quote(q, sizeof(q), path));
		goto fail;
	}
	if (slash)
		*slash = '\0';
	if (hk_outdir__open(&p->dir, !slash ? "." : slash == p->path ? "/" : p->path, p->name,
			    warn, warn_len, err, err_len))
		goto fail;
	if (slash)
		*slash = '/';
	if (!fstatat(p->dir.fd, p->name, &sb, AT_SYMLINK_NOFOLLOW) && S_ISDIR(sb.st_mode)) {
		hk_msg__fail(err, err_len, "%s is a directory: name a file in it",
			     hk_msg__quote(q, sizeof(q), path));
		goto fail;
	}
	return p;
fail:
	hk_prom__free(p);
	return NULL;
}
