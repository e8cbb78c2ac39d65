// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * metrics_http.c - the --metrics-listen server (metrics_http.h).
 *
 * Its own epoll set (the listening socket and up to HK_HTTP_CLIENTS
 * connections) is one fd in the run's loop, which calls
 * hk_metrics_http__poll() when it is readable or a deadline is due: a
 * scrape costs the loop a few non-blocking calls, never a wait. Every
 * answer closes its connection (no keep-alive: a scrape every 15 s or
 * more gains nothing from it), so a client's whole life is: its request,
 * read within HK_HTTP_IDLE_MS; its answer, written as fast as it reads
 * (each step given HK_HTTP_IDLE_MS again), all within HK_HTTP_TOTAL_MS of
 * its connect. The text is made only when a
 * scrape finds it stale, into a buffer shared by reference: a client still
 * writing an older text keeps it until done.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include "http_req.h"
#include "lib/clock.h"
#include "metrics_http.h"
#include "metrics_listen.h"

enum {
	ACCEPTS_PER_POLL = 32,		/* then the loop's other work, then more */
	EP_LISTEN = HK_HTTP_CLIENTS,	/* epoll data: a client's index, or this */
};

/* One text, shared by the clients writing it. */
struct http_body {
	unsigned int refs;
	size_t len;
	char *data;
};

struct http_client {
	int fd;				/* -1: a free slot */
	__u64 due_ns;			/* dropped when this passes */
	__u64 end_ns;			/* the whole exchange's deadline */
	size_t got;			/* bytes of req */
	size_t sent;			/* of head, then of body */
	size_t head_len;
	bool writing;
	bool ok;			/* a 200: counted when written whole */
	struct http_body *body;		/* NULL: the answer is head alone */
	char head[256];
	char req[HK_HTTP_REQ_MAX];
};

struct hk_metrics_http {
	struct hk_metrics_addr addr;	/* the socket's path lives here */
	struct hk_metrics_sock sock;
	int ep;
	bool stale;
	unsigned int idle_ms, total_ms;
	struct http_body *body;		/* the current text; NULL: none yet */
	struct hk_prom_http counts;
	struct http_client cl[HK_HTTP_CLIENTS];
};

static void body_put(struct http_body *b)
{
	if (b && !--b->refs) {
		free(b->data);
		free(b);
	}
}

static void client_close(struct hk_metrics_http *h, struct http_client *c)
{
	epoll_ctl(h->ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	body_put(c->body);
	c->body = NULL;
	c->fd = -1;
}

/* The current text, made anew when stale; NULL when it cannot be made. */
static struct http_body *body_get(struct hk_metrics_http *h, hk_metrics_render_fn render,
				  void *ctx)
{
	struct http_body *b;
	FILE *f;
	int e;

	if (h->body && !h->stale)
		goto done;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	f = open_memstream(&b->data, &b->len);
	if (!f) {
		free(b);
		return NULL;
	}
	e = render(ctx, f);
	if (fclose(f) || e) {
		free(b->data);
		free(b);
		return NULL;
	}
	b->refs = 1;
	body_put(h->body);
	h->body = b;
	h->stale = false;
done:
	h->body->refs++;
	return h->body;
}

static const char *reason(int code)
{
	switch (code) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 431: return "Request Header Fields Too Large";
	default: return "Internal Server Error";
	}
}

/* The answer to code, into c's head (and body). */
static void answer(struct hk_metrics_http *h, struct http_client *c, int code,
		   hk_metrics_render_fn render, void *ctx)
{
	const char *text;
	int n;

	if (code == HK_HTTP_OK) {
		c->body = body_get(h, render, ctx);
		if (!c->body)
			code = 500;
	}
	if (c->body) {
		c->ok = true;
		n = snprintf(c->head, sizeof(c->head), "HTTP/1.1 200 OK\r\nContent-Type: "
			     "text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: "
			     "%zu\r\nConnection: close\r\n\r\n", c->body->len);
	} else {
		text = reason(code);
		n = snprintf(c->head, sizeof(c->head), "HTTP/1.1 %d %s\r\nContent-Type: "
			     "text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
			     "Connection: close\r\n%s\r\n%s\n", code, text, strlen(text) + 1,
			     code == HK_HTTP_METHOD ? "Allow: GET\r\n" : "", text);
	}
	c->head_len = (size_t)n < sizeof(c->head) ? (size_t)n : sizeof(c->head) - 1;
	c->writing = true;
	c->sent = 0;
}

/* Progress: HK_HTTP_IDLE_MS more, never past the exchange's deadline. */
static void client_due(const struct hk_metrics_http *h, struct http_client *c)
{
	__u64 due = mono_ns() + h->idle_ms * 1000000ULL;

	c->due_ns = due < c->end_ns ? due : c->end_ns;
}

/* As much as the socket takes now; true when the client is done with. */
static bool client_write(struct hk_metrics_http *h, struct http_client *c)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.u32 = (__u32)(c - h->cl) };
	size_t total = c->head_len + (c->body ? c->body->len : 0);
	struct iovec iov[2];
	struct msghdr msg = { .msg_iov = iov };
	ssize_t n;

	while (c->sent < total) {
		msg.msg_iovlen = 0;
		if (c->sent < c->head_len) {
			iov[0].iov_base = c->head + c->sent;
			iov[0].iov_len = c->head_len - c->sent;
			msg.msg_iovlen = 1;
		}
		if (c->body) {
			size_t off = c->sent > c->head_len ? c->sent - c->head_len : 0;

			iov[msg.msg_iovlen].iov_base = c->body->data + off;
			iov[msg.msg_iovlen].iov_len = c->body->len - off;
			msg.msg_iovlen++;
		}
		n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			/* a reader that takes nothing for this long is dropped */
			epoll_ctl(h->ep, EPOLL_CTL_MOD, c->fd, &ev);
			return false;
		}
		if (n <= 0)
			return true;	/* it went away: nothing to count */
		c->sent += (size_t)n;
		client_due(h, c);
	}
	if (c->ok)
		h->counts.scrapes++;
	shutdown(c->fd, SHUT_WR);
	return true;
}

/* What has come; true when the client is done with. */
static bool client_read(struct hk_metrics_http *h, struct http_client *c,
			hk_metrics_render_fn render, void *ctx)
{
	enum hk_http_verdict v = HK_HTTP_MORE;
	ssize_t n;

	while (v == HK_HTTP_MORE && c->got < sizeof(c->req)) {
		n = recv(c->fd, c->req + c->got, sizeof(c->req) - c->got, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return false;
		if (n <= 0)
			return true;	/* closed before a request: a probe */
		c->got += (size_t)n;
		v = hk_http_req__parse(c->req, c->got);
	}
	if (v == HK_HTTP_TOO_BIG)
		h->counts.dropped++;
	answer(h, c, v, render, ctx);
	return client_write(h, c);
}

static void accept_all(struct hk_metrics_http *h)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct http_client *c;
	int fd, i, k;

	for (k = 0; k < ACCEPTS_PER_POLL; k++) {
		fd = accept4(h->sock.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;		/* EAGAIN, or a connection gone: next time */
		for (i = 0; i < HK_HTTP_CLIENTS && h->cl[i].fd >= 0; i++)
			;
		if (i == HK_HTTP_CLIENTS) {
			close(fd);
			h->counts.refused++;
			continue;
		}
		c = &h->cl[i];
		ev.data.u32 = (__u32)i;
		if (epoll_ctl(h->ep, EPOLL_CTL_ADD, fd, &ev)) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->got = 0;
		c->ok = c->writing = false;
		c->end_ns = mono_ns() + h->total_ms * 1000000ULL;
		client_due(h, c);
	}
}

void hk_metrics_http__poll(struct hk_metrics_http *h, hk_metrics_render_fn render, void *ctx)
{
	struct epoll_event evs[HK_HTTP_CLIENTS + 1];
	struct http_client *c;
	bool done, listen_ready = false;
	__u64 now;
	int n, i;

	n = epoll_wait(h->ep, evs, HK_HTTP_CLIENTS + 1, 0);
	for (i = 0; i < n; i++) {
		/* after the clients: the slots of those done are free again */
		if (evs[i].data.u32 == EP_LISTEN) {
			listen_ready = true;
			continue;
		}
		c = &h->cl[evs[i].data.u32];
		if (c->fd < 0)
			continue;
		done = c->writing ? client_write(h, c) : client_read(h, c, render, ctx);
		if (done)
			client_close(h, c);
	}
	now = mono_ns();
	for (i = 0; i < HK_HTTP_CLIENTS; i++) {
		c = &h->cl[i];
		if (c->fd >= 0 && now >= c->due_ns) {
			h->counts.dropped++;
			client_close(h, c);
		}
	}
	if (listen_ready)
		accept_all(h);
}

int hk_metrics_http__timeout_ms(const struct hk_metrics_http *h)
{
	__u64 now = mono_ns(), due = 0;
	int i;

	for (i = 0; i < HK_HTTP_CLIENTS; i++)
		if (h->cl[i].fd >= 0 && (!due || h->cl[i].due_ns < due))
			due = h->cl[i].due_ns;
	if (!due)
		return -1;
	return due <= now ? 0 : (int)((due - now + 999999) / 1000000);
}

void hk_metrics_http__set_limits(struct hk_metrics_http *h, unsigned int idle_ms,
				 unsigned int total_ms)
{
	h->idle_ms = idle_ms;
	h->total_ms = total_ms;
}

void hk_metrics_http__stale(struct hk_metrics_http *h)
{
	h->stale = true;
}

int hk_metrics_http__fd(const struct hk_metrics_http *h)
{
	return h->ep;
}

const struct hk_prom_http *hk_metrics_http__counts(const struct hk_metrics_http *h)
{
	return &h->counts;
}

struct hk_metrics_http *hk_metrics_http__new(const struct hk_metrics_addr *a, char *err,
					     size_t err_len)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = EP_LISTEN };
	struct hk_metrics_http *h = calloc(1, sizeof(*h));
	int i;

	if (!h) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	h->addr = *a;
	h->stale = true;
	h->idle_ms = HK_HTTP_IDLE_MS;
	h->total_ms = HK_HTTP_TOTAL_MS;
	for (i = 0; i < HK_HTTP_CLIENTS; i++)
		h->cl[i].fd = -1;
	h->ep = epoll_create1(EPOLL_CLOEXEC);
	if (h->ep < 0) {
		snprintf(err, err_len, "epoll: %s", strerror(errno));
		free(h);
		return NULL;
	}
	if (hk_metrics_listen__open(&h->sock, &h->addr, err, err_len)) {
		close(h->ep);
		free(h);
		return NULL;
	}
	if (epoll_ctl(h->ep, EPOLL_CTL_ADD, h->sock.fd, &ev)) {
		snprintf(err, err_len, "epoll: %s", strerror(errno));
		hk_metrics_http__free(h);
		return NULL;
	}
	return h;
}

void hk_metrics_http__free(struct hk_metrics_http *h)
{
	int i;

	if (!h)
		return;
	for (i = 0; i < HK_HTTP_CLIENTS; i++)
		if (h->cl[i].fd >= 0)
			client_close(h, &h->cl[i]);
	hk_metrics_listen__close(&h->sock);
	close(h->ep);
	body_put(h->body);
	free(h);
}
