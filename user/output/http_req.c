// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * http_req.c - the request line of one HTTP/1.x request, judged from the
 * bytes so far (http_req.h). Strict where it costs nothing (one space
 * between the parts, upper-case methods, an origin-form path): what a
 * scraper sends always passes, and anything else is answered early.
 */
#include <stdbool.h>
#include <string.h>
#include "http_req.h"

/* A visible byte of a request target: no blank, no control, no DEL. */
static bool target_byte(char c)
{
	return (unsigned char)c > ' ' && (unsigned char)c != 0x7f;
}

/* The request line, without its line end: a verdict, never MORE. */
static enum hk_http_verdict request_line(const char *s, size_t n)
{
	size_t m = 0, t, tlen, plen;

	while (m < n && s[m] >= 'A' && s[m] <= 'Z')
		m++;
	if (!m || m > 16 || m >= n || s[m] != ' ')
		return HK_HTTP_BAD;
	t = m + 1;
	if (t >= n || s[t] != '/')
		return HK_HTTP_BAD;
	for (tlen = 0; t + tlen < n && target_byte(s[t + tlen]); tlen++)
		;
	/* then exactly " HTTP/1.0" or " HTTP/1.1" */
	if (t + tlen + 9 != n || s[t + tlen] != ' ' ||
	    (memcmp(s + t + tlen + 1, "HTTP/1.0", 8) && memcmp(s + t + tlen + 1, "HTTP/1.1", 8)))
		return HK_HTTP_BAD;
	/* the path, without a query string */
	for (plen = 0; plen < tlen && s[t + plen] != '?'; plen++)
		;
	if (plen != 8 || memcmp(s + t, "/metrics", 8))
		return HK_HTTP_NOT_FOUND;
	if (m != 3 || memcmp(s, "GET", 3))
		return HK_HTTP_METHOD;
	return HK_HTTP_OK;
}

enum hk_http_verdict hk_http_req__parse(const char *buf, size_t len)
{
	const char *nl, *end = NULL;
	enum hk_http_verdict v;
	size_t line;

	if (memchr(buf, '\0', len))
		return HK_HTTP_BAD;
	nl = memchr(buf, '\n', len);
	if (!nl)
		return len >= HK_HTTP_REQ_MAX ? HK_HTTP_TOO_BIG : HK_HTTP_MORE;
	line = (size_t)(nl - buf);
	if (line && buf[line - 1] == '\r')
		line--;
	v = request_line(buf, line);
	if (v == HK_HTTP_BAD)
		return v;
	/* the headers' end: an empty line, "\r\n" or a lax "\n" */
	for (nl = buf; (nl = memchr(nl, '\n', len - (size_t)(nl - buf))); nl++) {
		if ((size_t)(nl + 1 - buf) < len && nl[1] == '\n') {
			end = nl + 2;
			break;
		}
		if ((size_t)(nl + 2 - buf) < len && nl[1] == '\r' && nl[2] == '\n') {
			end = nl + 3;
			break;
		}
	}
	if (!end)
		return len >= HK_HTTP_REQ_MAX ? HK_HTTP_TOO_BIG : HK_HTTP_MORE;
	return v;
}
