/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * http_req.h - the one request --metrics-listen answers, judged from the
 * bytes received so far: the request line of HTTP/1.0 or 1.1, then the
 * headers up to the empty line, at most HK_HTTP_REQ_MAX bytes in all.
 * Headers are not interpreted: every answer closes the connection.
 */
#ifndef HK_USER_HTTP_REQ_H
#define HK_USER_HTTP_REQ_H

#include <stddef.h>

enum {
	HK_HTTP_REQ_MAX = 4096,		/* a scraper's request is ~200 bytes */
};

enum hk_http_verdict {
	HK_HTTP_MORE = 0,		/* not whole yet: read on */
	HK_HTTP_OK = 200,		/* GET /metrics (a query string ignored) */
	HK_HTTP_BAD = 400,		/* not an HTTP/1.x request line, a NUL */
	HK_HTTP_NOT_FOUND = 404,	/* another path */
	HK_HTTP_METHOD = 405,		/* /metrics, but not GET */
	HK_HTTP_TOO_BIG = 431,		/* HK_HTTP_REQ_MAX bytes and no end */
};

/*
 * What to answer to the len bytes of buf: HK_HTTP_MORE until the empty
 * line that ends the headers ("\r\n\r\n", or "\n\n" from a lax client),
 * except that a request line already known bad is HK_HTTP_BAD at once.
 */
enum hk_http_verdict hk_http_req__parse(const char *buf, size_t len);

#endif /* HK_USER_HTTP_REQ_H */
