// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * journal_send.c - entries to the journal's native socket, never waiting
 * (journal.h). Each goes by sendto() to the socket's path rather than on
 * a connected socket, as sd_journal_send(3) does: a journald restarted
 * (a new socket at the same path) takes the next entry.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "format.h"
#include "journal.h"
#include "lib/clock.h"
#include "lib/log.h"

void hk_journal__init(struct hk_journal *j)
{
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

static void address(const struct hk_journal *j, struct sockaddr_un *sa, socklen_t *len)
{
	size_t n = strlen(j->path);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, j->path, n);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

int hk_journal__open(struct hk_journal *j, const char *path)
{
	struct sockaddr_un sa;
	socklen_t len;
	int probe, e;

	hk_journal__init(j);
	if (strlen(path) >= sizeof(j->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(j->path, path, strlen(path) + 1);
	address(j, &sa, &len);
	/* whether a journald listens there, and lets us in: a connect()
	 * answers at once (ENOENT, ECONNREFUSED, EACCES) and sends nothing */
	probe = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (probe < 0)
		goto fail;
	e = connect(probe, (struct sockaddr *)&sa, len) ? errno : 0;
	close(probe);
	if (e) {
		errno = e;
		goto fail;
	}
	j->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (j->fd < 0)
		goto fail;
	j->entry = malloc(HK_JOURNAL_ENTRY_MAX);
	j->msg = malloc(HK_FORMAT_LINE_MAX);
	if (!j->entry || !j->msg) {
		errno = ENOMEM;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	hk_journal__close(j);
	errno = e;
	return -1;
}

void hk_journal__close(struct hk_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->entry);
	free(j->msg);
	j->entry = j->msg = NULL;
}

/* Unsent entries: said when it starts, once a minute while it lasts,
 * and when it ends (ratelimit.h), as a stdout nobody reads is. */
static void say_unsent(struct hk_journal *j, int unsent)
{
	switch (hk_ratelimit__step(&j->unsent, unsent, unsent, mono_ns())) {
	case HK_RATELIMIT_START:
		hk_log__print(HK_LOG_WARNING, "the journal's socket %s takes no entries (%s): "
			      "lines go to stdout without their fields, and are counted "
			      "(%llu so far)\n", j->path, strerror(j->last_errno),
			      (unsigned long long)j->unsent.told);
		break;
	case HK_RATELIMIT_STILL:
		hk_log__print(HK_LOG_WARNING, "the journal's socket still takes no entries "
			      "(%s): %llu more\n", strerror(j->last_errno),
			      (unsigned long long)j->unsent.told);
		break;
	case HK_RATELIMIT_END:
		hk_log__print(HK_LOG_NOTICE, "the journal's socket takes entries again (%llu "
			      "more not sent; %llu in all)\n", (unsigned long long)j->unsent.told,
			      (unsigned long long)(j->full + j->failed));
		break;
	case HK_RATELIMIT_QUIET:
		break;
	}
}

int hk_journal__send(struct hk_journal *j, const char *entry, size_t n)
{
	struct sockaddr_un sa;
	socklen_t len;
	ssize_t r;

	if (j->fd < 0)
		return -1;
	address(j, &sa, &len);
	/* MSG_DONTWAIT as well as the socket's O_NONBLOCK: never a wait */
	r = sendto(j->fd, entry, n, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	if (r == (ssize_t)n) {
		j->sent++;
		say_unsent(j, 0);
		return 0;
	}
	j->last_errno = r < 0 ? errno : EMSGSIZE;
	if (j->last_errno == EAGAIN || j->last_errno == EWOULDBLOCK)
		j->full++;
	else
		j->failed++;
	say_unsent(j, 1);
	return -1;
}
