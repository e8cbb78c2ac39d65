// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_status.c - report, for `hotspot-k status`: what is frozen, the
 * records in /run/hotspot-k, read without a running instance (after a
 * crash is when they matter most), one line each:
 *
 *   frozen: /hk/leak until 2026-11-22 05:31:36 (7m50s left), since 05:21:36,
 *     pid 1234 leak, uid 1000, by hotspot-k 999 (running)
 *
 * or ,"frozen":[{...}] in status's JSON object.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "freeze_record.h"
#include "freeze_status.h"
#include "lib/escape.h"
#include "lib/json_out.h"
#include "lib/outbuf.h"
#include "output/humanize.h"

/* A record's line: a path escaped (4 bytes a byte at worst) and the rest. */
#define STATUS_LINE_MAX	(4 * HK_FREEZE_PATH_MAX + 512)

/* "2026-11-22 05:31:36" (with the date) or "05:31:36". */
static void out_time(struct hk_out *o, __s64 t, bool utc, bool date)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!(utc ? gmtime_r(&tt, &tm) : localtime_r(&tt, &tm)))
		memset(&tm, 0, sizeof(tm));
	if (date)
		hk_out__printf(o, "%04d-%02d-%02d ", tm.tm_year + 1900, tm.tm_mon + 1,
			       tm.tm_mday);
	hk_out__printf(o, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void out_secs(struct hk_out *o, __u64 s)
{
	char buf[32];

	hk_out__str(o, hk_format__duration(buf, sizeof(buf), s) < 0 ? "?" : buf);
}

static void text_line(struct hk_out *o, const struct hk_freeze_rec *r, __s64 now, bool utc)
{
	hk_out__str(o, "frozen: ");
	hk_out__term_text(o, r->cgroup, strlen(r->cgroup));
	hk_out__str(o, " until ");
	out_time(o, r->until_unix_s, utc, true);
	hk_out__str(o, " (");
	if (r->until_unix_s >= now) {
		out_secs(o, (__u64)(r->until_unix_s - now));
		hk_out__str(o, " left");
	} else {
		hk_out__str(o, "due ");
		out_secs(o, (__u64)(now - r->until_unix_s));
		hk_out__str(o, " ago");
	}
	hk_out__str(o, "), since ");
	out_time(o, r->since_unix_s, utc, false);
	hk_out__printf(o, ", pid %u", r->pid);
	if (r->comm[0]) {
		hk_out__mem(o, " ", 1);
		hk_out__term_text(o, r->comm, strlen(r->comm));
	}
	hk_out__printf(o, ", uid %u, by hotspot-k %u ", r->uid, r->by_pid);
	hk_out__str(o, hk_freeze_record__holder_runs(r) ? "(running)\n" :
		    "(gone: the next hotspot-k thaws it when due; now: hotspot-k thaw --all)\n");
}

/* ,"KEY":"2026-11-22T05:31:36Z" */
static void json_time(struct hk_out *o, const char *key, __s64 t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm))
		memset(&tm, 0, sizeof(tm));
	hk_out__printf(o, ",\"%s\":\"%04d-%02d-%02dT%02d:%02d:%02dZ\"", key, tm.tm_year + 1900,
		       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void json_obj(struct hk_out *o, const struct hk_freeze_rec *r)
{
	hk_out__str(o, "{\"cgroup\":");
	hk_out__json_str(o, r->cgroup, strlen(r->cgroup));
	hk_out__printf(o, ",\"freezer\":\"%s\"", r->hier == HK_FREEZE_HIER_V1 ? "v1" : "v2");
	hk_json__u64(o, "id", r->id);
	hk_json__u64(o, "pid", r->pid);
	hk_out__str(o, ",\"comm\":");
	hk_out__json_str(o, r->comm, strlen(r->comm));
	hk_json__u64(o, "uid", r->uid);
	json_time(o, "since", r->since_unix_s);
	json_time(o, "until", r->until_unix_s);
	hk_json__u64(o, "by_pid", r->by_pid);
	hk_json__bool(o, "by_running", hk_freeze_record__holder_runs(r));
	hk_out__str(o, "}");
}

/* Each record's line (or JSON object) to f. */
static int each(FILE *f, const char *path, bool json, __s64 now, bool utc, char *why,
		size_t why_len)
{
	struct hk_freeze_rec *recs;
	unsigned int i, n, bad;
	struct hk_safedir d;
	char bad_name[64], *buf;
	struct hk_out o;
	int e = 0;

	if (hk_freeze_record__list(path, &d, &recs, &n, &bad, bad_name, sizeof(bad_name), why,
				   why_len))
		return -1;
	hk_safefile__dir_close(&d);
	buf = malloc(STATUS_LINE_MAX);
	if (!buf) {
		free(recs);
		errno = ENOMEM;
		return -1;
	}
	if (json)
		fputs(",\"frozen\":[", f);
	for (i = 0; i < n; i++) {
		hk_out__init(&o, buf, STATUS_LINE_MAX);
		if (json) {
			if (i)
				hk_out__mem(&o, ",", 1);
			json_obj(&o, &recs[i]);
		} else {
			text_line(&o, &recs[i], now, utc);
		}
		if (hk_out__finish(&o) < 0) {
			e = -1;
			break;
		}
		fputs(buf, f);
	}
	if (json)
		fputs("]", f);
	free(buf);
	free(recs);
	return e;
}

int hk_freeze_status__text(FILE *f, const char *path, __s64 now_unix_s, bool utc, char *why,
			   size_t why_len)
{
	return each(f, path, false, now_unix_s, utc, why, why_len);
}

int hk_freeze_status__json(FILE *f, const char *path, char *why, size_t why_len)
{
	return each(f, path, true, 0, true, why, why_len);
}
