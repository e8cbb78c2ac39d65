/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * metrics_addr.h - --metrics-listen ADDR, parsed into a socket address
 * with no lookup and no socket: 127.0.0.1:9101, [::1]:9101, localhost:9101
 * (127.0.0.1: no resolver in a static binary), unix:/ABSOLUTE/PATH, and
 * the wildcards 0.0.0.0:P, [::]:P and :P (both families), which are
 * accepted because they are written out, and flagged so that the start
 * says so.
 */
#ifndef HK_USER_METRICS_ADDR_H
#define HK_USER_METRICS_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct hk_metrics_addr {
	struct sockaddr_storage sa;	/* AF_INET, AF_INET6 or AF_UNIX */
	socklen_t sa_len;
	bool wildcard;			/* every interface: said at start */
	bool dual;			/* ":P": [::] taking IPv4 too */
	char text[128];			/* as given, cut, for messages */
};

/*
 * s into *a: 0, or -1 with one line in err saying what is wrong (no
 * port, a port outside 1..65535, a name other than localhost, a relative
 * or too long socket path).
 */
int hk_metrics_addr__parse(struct hk_metrics_addr *a, const char *s, char *err,
			   size_t err_len);

/* The socket path of a unix: address; NULL for TCP. */
const char *hk_metrics_addr__path(const struct hk_metrics_addr *a);

#endif /* HK_USER_METRICS_ADDR_H */
