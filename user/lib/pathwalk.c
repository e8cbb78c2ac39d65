// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * pathwalk.c - a directory opened one component at a time (pathwalk.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "msg.h"
#include "pathwalk.h"

struct walk {
	char todo[PATH_MAX];	/* the components still to walk */
	char done[PATH_MAX];	/* those walked, for messages */
	int fd;			/* the directory they lead to */
	int links;
};

static int owned_safely(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* The symlink comp in w->fd: followed when root or we own it. */
static int follow(struct walk *w, const char *path, const char *comp, const struct stat *st,
		  char *err, size_t err_len)
{
	char q[HK_QUOTE_BUF], target[PATH_MAX], rest[PATH_MAX];
	ssize_t n;

	n = readlinkat(w->fd, comp, target, sizeof(target) - 1);
	if (n < 0)
		return hk_msg__fail(err, err_len, "%s: %s/%s: %s", hk_msg__quote(q, sizeof(q), path),
				    w->done, comp, strerror(errno));
	target[n] = '\0';
	if (!owned_safely(st->st_uid))
		return hk_msg__fail(err, err_len, "%s: %s/%s is a symlink of uid %u, who can point "
				    "it anywhere (now %s): give the directory itself",
				    hk_msg__quote(q, sizeof(q), path), w->done, comp,
				    (unsigned int)st->st_uid, target);
	if (++w->links > HK_PATHWALK_MAX_LINKS)
		return hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
				    strerror(ELOOP));
	snprintf(rest, sizeof(rest), "%s", w->todo);
	if ((size_t)snprintf(w->todo, sizeof(w->todo), "%s/%s", target, rest) >= sizeof(w->todo))
		return hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
				    strerror(ENAMETOOLONG));
	if (target[0] == '/') {
		close(w->fd);
		w->fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		w->done[0] = '\0';
		if (w->fd < 0)
			return hk_msg__fail(err, err_len, "/: %s", strerror(errno));
	}
	return 0;
}

/* The next component of w->todo into comp ("" when none is left). */
static void next(struct walk *w, char *comp, size_t len)
{
	char *p = w->todo, *slash;

	while (*p == '/')
		p++;
	slash = strchr(p, '/');
	snprintf(comp, len, "%.*s", slash ? (int)(slash - p) : (int)strlen(p), p);
	memmove(w->todo, p + strlen(comp), strlen(p + strlen(comp)) + 1);
}

int hk_pathwalk__open_dir(const char *path, char *warn, size_t warn_len, char *err,
			  size_t err_len)
{
	char q[HK_QUOTE_BUF], comp[NAME_MAX + 2];
	struct walk w = { .links = 0 };
	struct stat st;
	int fd;

	if (warn_len)
		warn[0] = '\0';
	if (!path[0] || (size_t)snprintf(w.todo, sizeof(w.todo), "%s", path) >= sizeof(w.todo)) {
		hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
			     strerror(path[0] ? ENAMETOOLONG : ENOENT));
		return -1;
	}
	snprintf(w.done, sizeof(w.done), "%s", path[0] == '/' ? "" : ".");
	w.fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.fd < 0) {
		hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
			     strerror(errno));
		return -1;
	}
	for (next(&w, comp, sizeof(comp)); comp[0]; next(&w, comp, sizeof(comp))) {
		if (!strcmp(comp, "."))
			continue;
		if (strlen(comp) > NAME_MAX) {
			errno = ENAMETOOLONG;
			goto fail_errno;
		}
		if (fstatat(w.fd, comp, &st, AT_SYMLINK_NOFOLLOW))
			goto fail_errno;
		if (S_ISLNK(st.st_mode)) {
			if (follow(&w, path, comp, &st, err, err_len))
				goto fail;
			continue;
		}
		/* O_NOFOLLOW: a symlink put there since fstatat is not followed */
		fd = openat(w.fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			goto fail_errno;
		close(w.fd);
		w.fd = fd;
		if (strlen(w.done) + 1 + strlen(comp) < sizeof(w.done))
			snprintf(w.done + strlen(w.done), sizeof(w.done) - strlen(w.done), "/%s",
				 comp);
		if (fstat(w.fd, &st))
			goto fail_errno;
		/* the last one is the caller's to judge (hk_safefile__dir_adopt) */
		if (!owned_safely(st.st_uid) && warn_len && !warn[0] && w.todo[strspn(w.todo, "/")])
			snprintf(warn, warn_len, "%s: %s belongs to uid %u, who can replace what is "
				 "below it", hk_msg__quote(q, sizeof(q), path), w.done,
				 (unsigned int)st.st_uid);
	}
	return w.fd;

fail_errno:
	hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
		     strerror(errno));
fail:
	close(w.fd);
	return -1;
}
