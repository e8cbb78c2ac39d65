/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * metrics_http.h - --metrics-listen: the textfile's families served over
 * HTTP from the run's own event loop, with bounded work: the text made at
 * most once per staleness (the loop says when: a window, a change of the
 * set) into a buffer every scrape reuses, at most HK_HTTP_CLIENTS at once,
 * each with HK_HTTP_IDLE_MS to send its request and to take each part of
 * the answer and HK_HTTP_TOTAL_MS for the whole, and no call that blocks.
 */
#ifndef HK_USER_METRICS_HTTP_H
#define HK_USER_METRICS_HTTP_H

#include <stdio.h>
#include "metrics_addr.h"
#include "prom_stats.h"

enum {
	HK_HTTP_CLIENTS = 8,		/* Prometheus pairs scrape one at a time */
	HK_HTTP_IDLE_MS = 2000,		/* a whole request, or progress writing */
	/* a whole exchange, accept to last byte: Prometheus's default
	 * scrape_timeout; a reader that takes a little often enough never
	 * to be idle is cut here rather than held for its answer's length */
	HK_HTTP_TOTAL_MS = 10000,
};

struct hk_metrics_http;

/* The text of a scrape into out: 0, or -errno (the scrape gets a 500). */
typedef int (*hk_metrics_render_fn)(void *ctx, FILE *out);

/* Listen on a (metrics_listen.h): NULL with one line in err. */
struct hk_metrics_http *hk_metrics_http__new(const struct hk_metrics_addr *a, char *err,
					     size_t err_len);

/* Close every connection and the socket (its file removed); NULL-safe. */
void hk_metrics_http__free(struct hk_metrics_http *h);

/* An epoll fd, readable when a connection or a client needs us. */
int hk_metrics_http__fd(const struct hk_metrics_http *h);

/* ms until a client's deadline (then hk_metrics_http__poll()); -1: none. */
int hk_metrics_http__timeout_ms(const struct hk_metrics_http *h);

/* The text served so far is out of date: the next scrape makes it anew. */
void hk_metrics_http__stale(struct hk_metrics_http *h);

/* Accept, read, answer, write and drop what is due, without blocking;
 * render makes the text when a scrape finds it stale. */
void hk_metrics_http__poll(struct hk_metrics_http *h, hk_metrics_render_fn render, void *ctx);

/* Other deadlines than HK_HTTP_IDLE_MS and HK_HTTP_TOTAL_MS, for clients
 * accepted from now on (the unit tests'). */
void hk_metrics_http__set_limits(struct hk_metrics_http *h, unsigned int idle_ms,
				 unsigned int total_ms);

/* Its counters (hotspot_k_metrics_*). */
const struct hk_prom_http *hk_metrics_http__counts(const struct hk_metrics_http *h);

#endif /* HK_USER_METRICS_HTTP_H */
