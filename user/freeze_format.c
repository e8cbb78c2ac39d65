// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_format.c - the line that says what a freeze did:
 *
 *   hotspot-k: froze cgroup /hk/leak (pid 1234 leak, oom_risk in 7s); thaw
 *     with: hotspot-k thaw /hk/leak      (one line)
 *   hotspot-k: pid 1234 leak (oom_risk in 7s) not frozen: /system.slice is in --never-freeze
 *
 * or a JSON object {"event":"freeze",...}, in the transitions' style. The
 * cgroup and the reason may quote any bytes a cgroup's name holds: both
 * are escaped as the comm is.
 */
#include <string.h>
#include "escape.h"
#include "freeze.h"
#include "humanize.h"
#include "json_out.h"

static const char *const results[] = {
	[HK_FREEZE_FROZEN] = "frozen",
	[HK_FREEZE_PENDING] = "pending",
	[HK_FREEZE_REFUSED] = "refused",
	[HK_FREEZE_FAILED] = "failed",
};

int hk_freeze__priority(enum hk_freeze_outcome outcome)
{
	/* a stopped cgroup must be seen (`journalctl -p warning`); a refusal
	 * leaves the process to the OOM killer: news, not an alarm; a failure
	 * is hotspot-k's own trouble */
	switch (outcome) {
	case HK_FREEZE_FROZEN:
	case HK_FREEZE_PENDING:
		return 4;
	case HK_FREEZE_REFUSED:
		return 5;
	default:
		return 3;
	}
}

/* Whether a shell takes s as one word as it is. */
static bool shell_plain(const char *s)
{
	return s[0] && s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				"0123456789/._-+:@=%,")] == '\0';
}

/* The path as one shell word: 'it as is', each ' as '\'' */
static void out_shell_word(struct hk_out *o, const char *s)
{
	const char *q;

	if (shell_plain(s)) {
		hk_out__term_text(o, s, strlen(s));
		return;
	}
	hk_out__mem(o, "'", 1);
	while ((q = strchr(s, '\'')) != NULL) {
		hk_out__term_text(o, s, (size_t)(q - s));
		hk_out__str(o, "'\\''");
		s = q + 1;
	}
	hk_out__term_text(o, s, strlen(s));
	hk_out__mem(o, "'", 1);
}

/* "pid 1234 leak" */
static void out_pid(struct hk_out *o, const struct hk_event *e)
{
	hk_out__printf(o, "pid %u", e->tgid);
	if (hk_comm__len(e->comm)) {
		hk_out__mem(o, " ", 1);
		hk_out__term_text(o, e->comm, hk_comm__len(e->comm));
	}
}

static void human(struct hk_out *o, const struct hk_event *e, const struct hk_freeze_result *r)
{
	char eta[32];
	bool asked = r->outcome == HK_FREEZE_FROZEN || r->outcome == HK_FREEZE_PENDING;

	if (hk_format__duration(eta, sizeof(eta), e->ev.eta_s) < 0)
		o->full = true;
	hk_out__str(o, "hotspot-k: ");
	if (asked) {
		hk_out__str(o, r->outcome == HK_FREEZE_FROZEN ? "froze" : "freezing");
		hk_out__str(o, " cgroup ");
		hk_out__term_text(o, r->cgroup, strlen(r->cgroup));
		hk_out__str(o, " (");
		out_pid(o, e);
		hk_out__printf(o, ", oom_risk in %s)", eta);
		if (r->outcome == HK_FREEZE_PENDING) {
			hk_out__str(o, ": ");
			hk_out__term_text(o, r->why, strlen(r->why));
		}
		hk_out__str(o, "; thaw with: hotspot-k thaw ");
		out_shell_word(o, r->cgroup);
	} else {
		out_pid(o, e);
		hk_out__printf(o, " (oom_risk in %s) not frozen: ", eta);
		hk_out__term_text(o, r->why, strlen(r->why));
	}
	hk_out__str(o, "\n");
}

static void json_str_or_null(struct hk_out *o, const char *key, const char *s)
{
	hk_out__printf(o, ",\"%s\":", key);
	if (s && *s)
		hk_out__json_str(o, s, strlen(s));
	else
		hk_out__str(o, "null");
}

static void json(struct hk_out *o, const struct hk_event *e, const struct hk_freeze_result *r,
		 __u64 eta_s, const struct hk_format_ctx *ctx)
{
	hk_out__str(o, "{\"event\":\"freeze\",\"time\":\"");
	hk_out__rfc3339(o, e, ctx);
	hk_out__printf(o, "\",\"pid\":%u,\"comm\":", e->tgid);
	hk_out__json_str(o, e->comm, hk_comm__len(e->comm));
	json_str_or_null(o, "cgroup", r->cgroup);
	json_str_or_null(o, "freezer", r->hier == HK_FREEZE_HIER_V1 ? "v1" :
			 r->hier == HK_FREEZE_HIER_V2 ? "v2" : NULL);
	hk_out__printf(o, ",\"result\":\"%s\"", results[r->outcome]);
	json_str_or_null(o, "reason", r->outcome == HK_FREEZE_FROZEN ? NULL : r->why);
	if (r->outcome == HK_FREEZE_FROZEN)
		hk_json__u64(o, "settle_ms", r->settle_ms);
	else
		hk_out__str(o, ",\"settle_ms\":null");
	hk_json__u64(o, "eta_s", e->ev.eta_s);
	hk_json__u64(o, "freeze_eta_s", eta_s);
	hk_json__u64(o, "rss_anon_bytes", e->ev.rss_anon_bytes);
	hk_json__u64(o, "limit_bytes", e->ev.limit_bytes);
	hk_json__u64(o, "memcg_id", e->ev.memcg_id);
	hk_out__str(o, "}\n");
}

int hk_freeze__format(char *buf, size_t len, const struct hk_event *e,
		      const struct hk_freeze_result *r, __u64 eta_s, int as_json,
		      const struct hk_format_ctx *ctx)
{
	struct hk_out o;

	hk_out__init(&o, buf, len);
	if (r->outcome > HK_FREEZE_FAILED)
		return -1;
	if (as_json)
		json(&o, e, r, eta_s, ctx);
	else
		human(&o, e, r);
	return hk_out__finish(&o);
}
