/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * metrics_listen.h - --metrics-listen's listening socket: bound at start,
 * before anything is loaded, so that a port in use or a path refused
 * stops the start with nothing done; a unix socket's file removed at the
 * end, if it is still the one made here.
 */
#ifndef HK_USER_METRICS_LISTEN_H
#define HK_USER_METRICS_LISTEN_H

#include <stddef.h>
#include <sys/types.h>
#include "metrics_addr.h"

struct hk_metrics_sock {
	int fd;				/* non-blocking, close-on-exec; -1: none */
	const char *path;		/* unix: the file made, in addr */
	dev_t dev;			/* ... and which one it is */
	ino_t ino;
};

/*
 * Listen on a: 0, or -1 with one line in err (in use, no permission, no
 * such address here). unix:PATH: refused when PATH is there and is not a
 * socket, when a server answers on it, or when its directory can be
 * written by group or others without the sticky bit (they could swap the
 * file under us); a socket nobody answers on is a stale one and replaced.
 * The file is mode 0660, the user's and group's who runs us.
 */
int hk_metrics_listen__open(struct hk_metrics_sock *s, const struct hk_metrics_addr *a,
			    char *err, size_t err_len);

/* Close it; a unix socket's file is removed when it is still ours. */
void hk_metrics_listen__close(struct hk_metrics_sock *s);

#endif /* HK_USER_METRICS_LISTEN_H */
