// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_metrics_listen.c - --metrics-listen's two pure parsers: ADDR into a
 * socket address (every accepted form, each refusal with its reason) and
 * the HTTP request judged byte by byte (the verdict for each prefix).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include "output/http_req.h"
#include "output/metrics_addr.h"
#include "output/prometheus.h"
#include "suites.h"

static void want_tcp(const char *s, int family, const char *ip, unsigned int port,
		     bool wildcard, bool dual)
{
	struct hk_metrics_addr a;
	char err[256] = "", got[INET6_ADDRSTRLEN] = "", msg[512];
	const struct sockaddr_in *in = (const void *)&a.sa;
	const struct sockaddr_in6 *in6 = (const void *)&a.sa;
	unsigned int p = 0;
	int r;

	r = hk_metrics_addr__parse(&a, s, err, sizeof(err));
	snprintf(msg, sizeof(msg), "%s: parse returned %d (%s)", s, r, err);
	CU_ASSERT_EQUAL_FATAL(r, 0);
	if (r)
		return;
	if (a.sa.ss_family == AF_INET) {
		inet_ntop(AF_INET, &in->sin_addr, got, sizeof(got));
		p = ntohs(in->sin_port);
		CU_ASSERT_EQUAL(a.sa_len, sizeof(*in));
	} else if (a.sa.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &in6->sin6_addr, got, sizeof(got));
		p = ntohs(in6->sin6_port);
		CU_ASSERT_EQUAL(a.sa_len, sizeof(*in6));
	}
	snprintf(msg, sizeof(msg), "%s: family %d ip %s port %u wildcard %d dual %d", s,
		 a.sa.ss_family, got, p, a.wildcard, a.dual);
	CU_assertImplementation(a.sa.ss_family == family && !strcmp(got, ip) && p == port &&
				a.wildcard == wildcard && a.dual == dual, __LINE__, msg,
				__FILE__, "", CU_FALSE);
	CU_ASSERT_PTR_NULL(hk_metrics_addr__path(&a));
}

static void want_bad(const char *s, const char *why)
{
	struct hk_metrics_addr a;
	char err[256] = "", msg[512];
	int r = hk_metrics_addr__parse(&a, s, err, sizeof(err));

	snprintf(msg, sizeof(msg), "'%s': returned %d, err '%s', want -1 and '%s'", s, r, err,
		 why);
	CU_assertImplementation(r == -1 && !strcmp(err, why), __LINE__, msg, __FILE__, "",
				CU_FALSE);
}

static void test_addr_tcp(void)
{
	want_tcp("127.0.0.1:9101", AF_INET, "127.0.0.1", 9101, false, false);
	want_tcp("localhost:9101", AF_INET, "127.0.0.1", 9101, false, false);
	want_tcp("[::1]:9101", AF_INET6, "::1", 9101, false, false);
	want_tcp("10.1.2.3:1", AF_INET, "10.1.2.3", 1, false, false);
	want_tcp("127.0.0.1:65535", AF_INET, "127.0.0.1", 65535, false, false);
	want_tcp("0.0.0.0:9101", AF_INET, "0.0.0.0", 9101, true, false);
	want_tcp("[::]:9101", AF_INET6, "::", 9101, true, false);
	want_tcp(":9101", AF_INET6, "::", 9101, true, true);
}

static void test_addr_unix(void)
{
	struct hk_metrics_addr a;
	const struct sockaddr_un *un = (const void *)&a.sa;
	char err[256], path[200];

	CU_ASSERT_EQUAL_FATAL(hk_metrics_addr__parse(&a, "unix:/run/hk.sock", err,
						     sizeof(err)), 0);
	CU_ASSERT_EQUAL(a.sa.ss_family, AF_UNIX);
	CU_ASSERT_STRING_EQUAL(un->sun_path, "/run/hk.sock");
	CU_ASSERT_STRING_EQUAL(hk_metrics_addr__path(&a), "/run/hk.sock");
	CU_ASSERT_FALSE(a.wildcard);
	/* 107 bytes and its NUL fill sun_path exactly */
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	memcpy(path + 107, "", 1);
	snprintf(err, sizeof(err), "unix:%s", path);
	CU_ASSERT_EQUAL(hk_metrics_addr__parse(&a, err, err, sizeof(err)), 0);
}

static void test_addr_bad(void)
{
	char longp[160];

	want_bad("", "no address: HOST:PORT, [IPV6]:PORT or unix:/PATH");
	want_bad("127.0.0.1", "no :PORT");
	want_bad("127.0.0.1:", "port '' is not a number in 1..65535");
	want_bad("127.0.0.1:0", "port '0' is not a number in 1..65535");
	want_bad("127.0.0.1:65536", "port '65536' is not a number in 1..65535");
	want_bad("127.0.0.1:91x", "port '91x' is not a number in 1..65535");
	want_bad("127.0.0.1:+91", "port '+91' is not a number in 1..65535");
	want_bad("example.com:9101", "host 'example.com': a numeric address or localhost "
		 "(no name is looked up)");
	want_bad("::1:9101", "host '::1': an IPv6 address goes in brackets, [::1]:PORT");
	want_bad("[::1:9101", "no ']' after '[::1:9101'");
	want_bad("[::1]9101", "no :PORT");
	want_bad("[127.0.0.1]:9101", "host '[127.0.0.1]': not an IPv6 address");
	want_bad("256.0.0.1:9101", "host '256.0.0.1': a numeric address or localhost "
		 "(no name is looked up)");
	want_bad("unix:", "unix:PATH: the path must be absolute");
	want_bad("unix:run/hk.sock", "unix:PATH: the path must be absolute");
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	memcpy(longp + 108, "", 1);
	want_bad(longp, "no :PORT");
	{
		char s[200];

		snprintf(s, sizeof(s), "unix:%s", longp);
		want_bad(s, "unix:PATH: 108 bytes, at most 107 fit a socket address");
	}
}

#define REQ_METRICS "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9101\r\n" \
	"User-Agent: Prometheus/2.45\r\nAccept: text/plain\r\n\r\n"

/* Every proper prefix of req says MORE, the whole of it says want. */
static void want_req(const char *req, enum hk_http_verdict want)
{
	size_t n = strlen(req), i;
	char msg[512];
	int got;

	for (i = 0; i < n; i++) {
		got = hk_http_req__parse(req, i);
		if (got == HK_HTTP_MORE)
			continue;
		/* a bad request line may be told as soon as it is whole */
		if (got == HK_HTTP_BAD && want == HK_HTTP_BAD)
			return;
		snprintf(msg, sizeof(msg), "%.60s: %zu of %zu bytes gave %d, want %d (MORE) ",
			 req, i, n, got, HK_HTTP_MORE);
		CU_assertImplementation(0, __LINE__, msg, __FILE__, "", CU_FALSE);
		return;
	}
	got = hk_http_req__parse(req, n);
	snprintf(msg, sizeof(msg), "%.60s: gave %d, want %d", req, got, want);
	CU_assertImplementation(got == (int)want, __LINE__, msg, __FILE__, "", CU_FALSE);
}

static void test_req(void)
{
	want_req(REQ_METRICS, HK_HTTP_OK);
	want_req("GET /metrics HTTP/1.0\r\n\r\n", HK_HTTP_OK);
	want_req("GET /metrics?x=1 HTTP/1.1\r\n\r\n", HK_HTTP_OK);
	want_req("GET /metrics HTTP/1.0\n\n", HK_HTTP_OK);
	want_req("GET / HTTP/1.1\r\nHost: x\r\n\r\n", HK_HTTP_NOT_FOUND);
	want_req("GET /metricsx HTTP/1.1\r\n\r\n", HK_HTTP_NOT_FOUND);
	want_req("GET /metrics/ HTTP/1.1\r\n\r\n", HK_HTTP_NOT_FOUND);
	want_req("POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", HK_HTTP_METHOD);
	want_req("HEAD /metrics HTTP/1.1\r\n\r\n", HK_HTTP_METHOD);
	want_req("POST /other HTTP/1.1\r\n\r\n", HK_HTTP_NOT_FOUND);
	want_req("GET /metrics HTTP/2.0\r\n\r\n", HK_HTTP_BAD);
	want_req("GET /metrics\r\n\r\n", HK_HTTP_BAD);
	want_req("GET  /metrics HTTP/1.1\r\n\r\n", HK_HTTP_BAD);
	want_req("GET metrics HTTP/1.1\r\n\r\n", HK_HTTP_BAD);
	want_req("get /metrics HTTP/1.1\r\n\r\n", HK_HTTP_BAD);
	want_req("GET /metrics HTTP/1.1 \r\n\r\n", HK_HTTP_BAD);
	want_req("\r\n\r\n", HK_HTTP_BAD);
	want_req("GET /met\x01rics HTTP/1.1\r\n\r\n", HK_HTTP_BAD);
}

static void test_req_limits(void)
{
	static char buf[HK_HTTP_REQ_MAX + 16];
	size_t n;

	/* a NUL anywhere: bad, whatever came before */
	CU_ASSERT_EQUAL(hk_http_req__parse("GET /metrics HTTP/1.1\r\nA: \0\r\n\r\n", 31),
			HK_HTTP_BAD);
	/* a bad request line is told before the headers end */
	CU_ASSERT_EQUAL(hk_http_req__parse("BREW /pot HTCPCP/1.0\r\n", 22), HK_HTTP_BAD);
	/* headers that never end: more until the limit, then too big */
	n = (size_t)snprintf(buf, sizeof(buf), "GET /metrics HTTP/1.1\r\n");
	memset(buf + n, 'a', sizeof(buf) - n);
	CU_ASSERT_EQUAL(hk_http_req__parse(buf, HK_HTTP_REQ_MAX - 1), HK_HTTP_MORE);
	CU_ASSERT_EQUAL(hk_http_req__parse(buf, HK_HTTP_REQ_MAX), HK_HTTP_TOO_BIG);
	/* a request line alone that long: too big too */
	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "GET /", 5);
	CU_ASSERT_EQUAL(hk_http_req__parse(buf, HK_HTTP_REQ_MAX), HK_HTTP_TOO_BIG);
	/* exactly at the limit, whole: answered */
	n = (size_t)snprintf(buf, sizeof(buf), "GET /metrics HTTP/1.1\r\nX: ");
	memset(buf + n, 'b', HK_HTTP_REQ_MAX - n - 4);
	memcpy(buf + HK_HTTP_REQ_MAX - 4, "\r\n\r\n", 4);
	CU_ASSERT_EQUAL(hk_http_req__parse(buf, HK_HTTP_REQ_MAX), HK_HTTP_OK);
}

/* The text of p, as a scrape would get it. */
static char *text_of(const struct hk_prom *p, const struct hk_stats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(hk_prom__format(p, st, "iter", f), 0);
	fclose(f);
	return buf;
}

/* The set without a file: what --metrics-listen serves alone. */
static void test_set_alone(void)
{
	struct hk_event e = { .type = HK_EV_TRANSITION, .tgid = 4242, .from = HK_OK,
			      .to = HK_CPU_BOUND, .comm = "spin" };
	struct hk_prom_http h = { .scrapes = 12, .refused = 13, .dropped = 1 };
	struct hk_stats st = { .windows = 7 };
	struct hk_prom *p = hk_prom__new_set();
	unsigned long g;
	char err[128], *t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	t = text_of(p, &st);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nhotspot_k_up 1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nhotspot_k_windows_total 7\n"));
	/* no listener told: not its families */
	CU_ASSERT_PTR_NULL(strstr(t, "hotspot_k_metrics_"));
	free(t);
	g = hk_prom__generation(p);
	hk_prom__event(p, &e, "/a.slice", NULL);
	CU_ASSERT_NOT_EQUAL(hk_prom__generation(p), g);
	hk_prom__http(p, &h);
	t = text_of(p, &st);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nhotspot_k_process_flagged{pid=\"4242\",comm="
				      "\"spin\",label=\"cpu_bound\"} 1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "# TYPE hotspot_k_metrics_scrapes_total counter\n"
				      "hotspot_k_metrics_scrapes_total 12\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nhotspot_k_metrics_clients_refused_total 13\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nhotspot_k_metrics_clients_dropped_total 1\n"));
	free(t);
	/* no file to write */
	CU_ASSERT_EQUAL(hk_prom__write(p, &st, "iter", err, sizeof(err)), -EINVAL);
	g = hk_prom__generation(p);
	hk_prom__down(p);
	CU_ASSERT_NOT_EQUAL(hk_prom__generation(p), g);
	hk_prom__free(p);
}

int hk_add_metrics_listen_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "ADDR: TCP forms", test_addr_tcp },
		{ "ADDR: unix:PATH", test_addr_unix },
		{ "ADDR: refusals", test_addr_bad },
		{ "request: verdicts", test_req },
		{ "request: NUL and size", test_req_limits },
		{ "the set alone, its counters", test_set_alone },
	};

	return HK_ADD_SUITE("metrics_listen", tests);
}
