// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_metrics_http.c - --metrics-listen's server on a unix socket in a
 * private directory, driven by hand as the run's loop drives it: the exact
 * answers, the text made once and shared until it goes stale, the ninth
 * client refused and counted, the socket file 0660 and removed at the end,
 * a file that is not a socket refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "lib/clock.h"
#include "output/metrics_http.h"
#include "suites.h"

struct fixture {
	char dir[64];
	char path[96];
	struct hk_metrics_addr addr;
	struct hk_metrics_http *h;
	int renders;
};

static int render(void *ctx, FILE *out)
{
	struct fixture *f = ctx;

	f->renders++;
	fprintf(out, "hotspot_k_up 1\nhotspot_k_renders %d\n", f->renders);
	return 0;
}

static int fixture_up(struct fixture *f)
{
	char spec[128], err[256];

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/hk-unit-http.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/m.sock", f->dir);
	snprintf(spec, sizeof(spec), "unix:%s", f->path);
	if (hk_metrics_addr__parse(&f->addr, spec, err, sizeof(err)))
		return -1;
	f->h = hk_metrics_http__new(&f->addr, err, sizeof(err));
	if (!f->h)
		fprintf(stderr, "\n    hk_metrics_http__new: %s", err);
	return f->h ? 0 : -1;
}

static int client(const struct fixture *f)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(un.sun_path, sizeof(un.sun_path), "%s", f->path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&un, sizeof(un))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole answer to req, the server polled as the loop would. */
static void exchange(struct fixture *f, const char *req, char *buf, size_t len)
{
	struct pollfd pfd;
	size_t got = 0;
	ssize_t n;
	int fd = client(f), i;

	buf[0] = '\0';
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	for (i = 0; i < 200; i++) {
		hk_metrics_http__poll(f->h, render, f);
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, 5) <= 0)
			continue;
		n = read(fd, buf + got, len - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fd);
}

#define OK_HEAD "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; " \
	"charset=utf-8\r\nContent-Length: 35\r\nConnection: close\r\n\r\n"

static void test_answers(void)
{
	struct fixture f;
	struct stat sb;
	char buf[1024];

	CU_ASSERT_EQUAL_FATAL(fixture_up(&f), 0);
	CU_ASSERT_EQUAL(lstat(f.path, &sb), 0);
	CU_ASSERT_TRUE(S_ISSOCK(sb.st_mode));
	CU_ASSERT_EQUAL(sb.st_mode & 07777, 0660);
	exchange(&f, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, OK_HEAD "hotspot_k_up 1\nhotspot_k_renders 1\n");
	/* reused: the same text, not made again */
	exchange(&f, "GET /metrics?a=b HTTP/1.0\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, OK_HEAD "hotspot_k_up 1\nhotspot_k_renders 1\n");
	CU_ASSERT_EQUAL(f.renders, 1);
	/* stale: made once more, then shared again */
	hk_metrics_http__stale(f.h);
	exchange(&f, "GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	exchange(&f, "GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, OK_HEAD "hotspot_k_up 1\nhotspot_k_renders 2\n");
	CU_ASSERT_EQUAL(f.renders, 2);
	exchange(&f, "GET / HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; "
			       "charset=utf-8\r\nContent-Length: 10\r\nConnection: close\r\n"
			       "\r\nNot Found\n");
	exchange(&f, "DELETE /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 405 Method Not Allowed\r\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\nAllow: GET\r\n"));
	exchange(&f, "GET /metrics HTTP/3\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 400 Bad Request\r\n"));
	CU_ASSERT_EQUAL(hk_metrics_http__counts(f.h)->scrapes, 4);
	CU_ASSERT_EQUAL(f.renders, 2);
	hk_metrics_http__free(f.h);
	CU_ASSERT_EQUAL(lstat(f.path, &sb), -1);
	rmdir(f.dir);
}

static void test_limit(void)
{
	int fds[HK_HTTP_CLIENTS + 1], i;
	struct fixture f;
	char buf[1024];

	CU_ASSERT_EQUAL_FATAL(fixture_up(&f), 0);
	for (i = 0; i <= HK_HTTP_CLIENTS; i++) {
		fds[i] = client(&f);
		CU_ASSERT(fds[i] >= 0);
	}
	hk_metrics_http__poll(f.h, render, &f);
	CU_ASSERT_EQUAL(hk_metrics_http__counts(f.h)->refused, 1);
	/* each held one has its deadline; the loop is told when */
	i = hk_metrics_http__timeout_ms(f.h);
	CU_ASSERT(i > 0 && i <= HK_HTTP_IDLE_MS);
	/* the refused one was closed at once: EOF */
	CU_ASSERT_EQUAL(read(fds[HK_HTTP_CLIENTS], buf, sizeof(buf)), 0);
	for (i = 0; i <= HK_HTTP_CLIENTS; i++)
		close(fds[i]);
	/* their slots come back as they go */
	exchange(&f, "GET /metrics HTTP/1.1\r\n\r\n", buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "HTTP/1.1 200 OK\r\n"));
	CU_ASSERT_EQUAL(hk_metrics_http__timeout_ms(f.h), -1);
	hk_metrics_http__free(f.h);
	rmdir(f.dir);
}

#define REQ "GET /metrics HTTP/1.1\r\n\r\n"

/* 2 MiB of text: more than a socket buffer takes at once. */
static int render_big(void *ctx, FILE *out)
{
	struct fixture *f = ctx;
	int i;

	f->renders++;
	for (i = 0; i < 65536; i++)
		fprintf(out, "hotspot_k_big{i=\"%010d\"} 1\n", i);
	return 0;
}

/* A reader slower than the text: written in parts as it takes them, the
 * server never waiting on it, and another client served meanwhile. */
static void test_progress(void)
{
	size_t got = 0, want = 65536 * 32;
	char buf[65536], other[1024];
	struct fixture f;
	ssize_t n;
	int fd, i, polls = 0;

	CU_ASSERT_EQUAL_FATAL(fixture_up(&f), 0);
	fd = client(&f);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, REQ, sizeof(REQ) - 1) == (ssize_t)sizeof(REQ) - 1);
	for (i = 0; i < 20000; i++) {
		hk_metrics_http__poll(f.h, render_big, &f);
		polls++;
		n = recv(fd, buf, 4096, MSG_DONTWAIT);
		if (n == 0)
			break;
		if (n > 0)
			got += (size_t)n;
		if (i == 3) {
			/* the slow one is mid-answer: another scrape is not held */
			exchange(&f, "GET / HTTP/1.1\r\n\r\n", other, sizeof(other));
			CU_ASSERT_PTR_NOT_NULL(strstr(other, "HTTP/1.1 404"));
		}
	}
	close(fd);
	/* the body and its head, to the end the server closed */
	CU_ASSERT_EQUAL(got, want + strlen("HTTP/1.1 200 OK\r\nContent-Type: text/plain; "
					   "version=0.0.4; charset=utf-8\r\nContent-Length: "
					   "2097152\r\nConnection: close\r\n\r\n"));
	CU_ASSERT(polls > 10);		/* in parts */
	CU_ASSERT_EQUAL(f.renders, 1);
	hk_metrics_http__free(f.h);
	rmdir(f.dir);
}

/*
 * A reader that takes a little often enough never to be idle: dropped at
 * its whole exchange's deadline, not held for as long as its answer
 * lasts (2 MiB at 4 KiB a step here; 330 KB at 4 KiB/s on a network).
 */
static void test_total_deadline(void)
{
	size_t got = 0, want = 65536 * 32;
	struct fixture f;
	char buf[4096];
	__u64 t0 = mono_ns(), cut_ns = 0;
	ssize_t n;
	int fd, i;

	CU_ASSERT_EQUAL_FATAL(fixture_up(&f), 0);
	hk_metrics_http__set_limits(f.h, 2000, 300);
	fd = client(&f);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, REQ, sizeof(REQ) - 1) == (ssize_t)sizeof(REQ) - 1);
	for (i = 0; i < 200; i++) {
		hk_metrics_http__poll(f.h, render_big, &f);
		/* the deadline the loop is told never passes the exchange's */
		CU_ASSERT(hk_metrics_http__timeout_ms(f.h) <= 300);
		if (hk_metrics_http__counts(f.h)->dropped) {
			cut_ns = mono_ns() - t0;
			break;
		}
		n = recv(fd, buf, 16, MSG_DONTWAIT);
		if (n > 0)
			got += (size_t)n;
		usleep(10000);
	}
	close(fd);
	CU_ASSERT(got < want);
	CU_ASSERT_EQUAL(hk_metrics_http__counts(f.h)->dropped, 1);
	CU_ASSERT_EQUAL(hk_metrics_http__counts(f.h)->scrapes, 0);
	/* cut at 300 ms, within the polls' 10 ms steps (and a loaded host);
	 * it took 16 bytes every 10 ms: never 2 s idle */
	CU_ASSERT(cut_ns >= 300 * 1000000ULL && cut_ns < 1500 * 1000000ULL);
	hk_metrics_http__free(f.h);
	rmdir(f.dir);
}

static void test_refusals(void)
{
	struct hk_metrics_addr a;
	char dir[] = "/tmp/hk-unit-http.XXXXXX", spec[128], path[96], err[256];
	struct hk_metrics_http *h;
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	snprintf(spec, sizeof(spec), "unix:%s", path);
	CU_ASSERT_EQUAL_FATAL(hk_metrics_addr__parse(&a, spec, err, sizeof(err)), 0);
	h = hk_metrics_http__new(&a, err, sizeof(err));
	CU_ASSERT_PTR_NULL(h);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "exists and is not a socket"));
	unlink(path);
	/* a directory others may write, not sticky */
	chmod(dir, 0777);
	h = hk_metrics_http__new(&a, err, sizeof(err));
	CU_ASSERT_PTR_NULL(h);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not sticky"));
	hk_metrics_http__free(h);
	rmdir(dir);
}

int hk_add_metrics_http_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "answers; the text made once until stale", test_answers },
		{ "the ninth client refused", test_limit },
		{ "a slow reader: written in parts", test_progress },
		{ "a dripping reader: cut at the exchange's deadline", test_total_deadline },
		{ "a file, an open directory: refused", test_refusals },
	};

	return HK_ADD_SUITE("metrics_http", tests);
}
