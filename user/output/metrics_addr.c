// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * metrics_addr.c - --metrics-listen ADDR into a socket address
 * (metrics_addr.h). Only numbers and "localhost" are taken as hosts: a
 * static binary has no resolver to trust, and a scrape endpoint named by a
 * host name would listen wherever DNS says at start.
 */
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>
#include "lib/msg.h"
#include "metrics_addr.h"

/* "1".."65535", digits only: no sign, no blank, no hex. */
static int port_parse(const char *s, unsigned int *port)
{
	unsigned long v = 0;
	const char *c;

	if (!*s || strlen(s) > 5)
		return -1;
	for (c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (unsigned long)(*c - '0');
	}
	if (!v || v > 65535)
		return -1;
	*port = (unsigned int)v;
	return 0;
}

static int parse_unix(struct hk_metrics_addr *a, const char *path, char *err,
		      size_t err_len)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&a->sa;
	size_t n = strlen(path);

	/* relative: it would land in whatever the service's cwd is */
	if (path[0] != '/')
		return hk_msg__fail(err, err_len, "unix:PATH: the path must be absolute");
	if (n >= sizeof(un->sun_path))
		return hk_msg__fail(err, err_len, "unix:PATH: %zu bytes, at most %zu fit a "
				    "socket address", n, sizeof(un->sun_path) - 1);
	un->sun_family = AF_UNIX;
	memcpy(un->sun_path, path, n + 1);
	a->sa_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	return 0;
}

int hk_metrics_addr__parse(struct hk_metrics_addr *a, const char *s, char *err,
			   size_t err_len)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->sa;
	struct sockaddr_in *in = (struct sockaddr_in *)&a->sa;
	char host[64];
	const char *colon, *port_s;
	unsigned int port;
	size_t hlen;

	memset(a, 0, sizeof(*a));
	snprintf(a->text, sizeof(a->text), "%s", s);
	if (!*s)
		return hk_msg__fail(err, err_len, "no address: HOST:PORT, [IPV6]:PORT or "
				    "unix:/PATH");
	if (!strncmp(s, "unix:", 5))
		return parse_unix(a, s + 5, err, err_len);
	if (s[0] == '[') {
		colon = strchr(s, ']');
		if (!colon)
			return hk_msg__fail(err, err_len, "no ']' after '%s'", s);
		colon++;
		if (*colon != ':')
			return hk_msg__fail(err, err_len, "no :PORT");
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return hk_msg__fail(err, err_len, "no :PORT");
	}
	port_s = colon + 1;
	hlen = (size_t)(colon - s);
	if (hlen >= sizeof(host))
		hlen = sizeof(host) - 1;
	memcpy(host, s, hlen);
	host[hlen] = '\0';
	if (port_parse(port_s, &port))
		return hk_msg__fail(err, err_len, "port '%s' is not a number in 1..65535",
				    port_s);
	if (host[0] == '[') {
		host[hlen - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) != 1) {
			host[hlen - 1] = ']';
			return hk_msg__fail(err, err_len, "host '%s': not an IPv6 address", host);
		}
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((unsigned short)port);
		a->sa_len = sizeof(*in6);
		a->wildcard = IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr);
		return 0;
	}
	if (!host[0]) {
		/* ":P", as Go's servers take it: every address of both families */
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons((unsigned short)port);
		a->sa_len = sizeof(*in6);
		a->wildcard = a->dual = true;
		return 0;
	}
	if (strchr(host, ':'))
		return hk_msg__fail(err, err_len, "host '%s': an IPv6 address goes in brackets, "
				    "[%s]:PORT", host, host);
	if (!strcmp(host, "localhost"))
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
		return hk_msg__fail(err, err_len, "host '%s': a numeric address or localhost "
				    "(no name is looked up)", host);
	in->sin_family = AF_INET;
	in->sin_port = htons((unsigned short)port);
	a->sa_len = sizeof(*in);
	a->wildcard = in->sin_addr.s_addr == htonl(INADDR_ANY);
	return 0;
}

const char *hk_metrics_addr__path(const struct hk_metrics_addr *a)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)&a->sa;

	return a->sa.ss_family == AF_UNIX ? un->sun_path : NULL;
}
