// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_report.c - report: the lines that say what a freeze did:
 *
 *   hotspot-k: froze cgroup /hk/leak (pid 1234 leak, oom_risk in 7s) for 10m
 *     at most; thaw with: hotspot-k thaw /hk/leak      (one line)
 *   hotspot-k: pid 1234 leak (oom_risk in 7s) not frozen: /system.slice is in --never-freeze
 *   hotspot-k: thawed cgroup /hk/leak: its 10m (--freeze-max) are up (frozen
 *     for pid 1234 leak, uid 1000)
 *
 * or a JSON object {"event":"freeze",...}, in the transitions' style. The
 * cgroup and the reason may quote any bytes a cgroup's name holds: both
 * are escaped as the comm is; the thaw command is one shell word that
 * names the cgroup exactly, whatever its bytes.
 */
#include <string.h>
#include <time.h>
#include "freeze_record.h"
#include "freeze_report.h"
#include "lib/clock.h"
#include "lib/escape.h"
#include "lib/json_out.h"
#include "lib/units.h"
#include "output/humanize.h"

static const char *const results[] = {
	[HK_FREEZE_FROZEN] = "frozen",
	[HK_FREEZE_PENDING] = "pending",
	[HK_FREEZE_REFUSED] = "refused",
	[HK_FREEZE_FAILED] = "failed",
	[HK_FREEZE_ALREADY] = "already",
};

int hk_freeze__priority(enum hk_freeze_outcome outcome)
{
	/* a stopped cgroup must be seen (`journalctl -p warning`); a refusal
	 * leaves the process to the OOM killer: news, not an alarm; a failure
	 * is hotspot-k's own trouble; frozen already was said already */
	switch (outcome) {
	case HK_FREEZE_FROZEN:
	case HK_FREEZE_PENDING:
		return 4;
	case HK_FREEZE_REFUSED:
		return 5;
	case HK_FREEZE_ALREADY:
		return 6;
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

/*
 * The path as one shell word: as it is; 'in quotes', each ' as '\'' (a
 * '\' is itself there); or, when a byte is not printable ASCII, $'...'
 * with \\, \' and \xHH (two digits, so that a hex digit after it is not
 * read into it): what the terminal shows is what the shell gets.
 */
static void out_shell_word(struct hk_out *o, const char *s)
{
	const unsigned char *p;
	bool ascii = true;

	if (shell_plain(s)) {
		hk_out__str(o, s);
		return;
	}
	for (p = (const unsigned char *)s; *p; p++)
		ascii &= *p >= 0x20 && *p < 0x7f;
	if (ascii) {
		hk_out__mem(o, "'", 1);
		for (; *s; s++)
			if (*s == '\'')
				hk_out__str(o, "'\\''");
			else
				hk_out__mem(o, s, 1);
		hk_out__mem(o, "'", 1);
		return;
	}
	hk_out__str(o, "$'");
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\'')
			hk_out__printf(o, "\\%c", *p);
		else if (*p >= 0x20 && *p < 0x7f)
			hk_out__mem(o, p, 1);
		else
			hk_out__printf(o, "\\x%02x", *p);
	}
	hk_out__mem(o, "'", 1);
}

int hk_freeze__shell_word(char *buf, size_t len, const char *s)
{
	struct hk_out o;

	hk_out__init(&o, buf, len);
	out_shell_word(&o, s);
	return hk_out__finish(&o);
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
	char eta[32], max[32];
	bool asked = r->outcome == HK_FREEZE_FROZEN || r->outcome == HK_FREEZE_PENDING;

	if (hk_format__duration(eta, sizeof(eta), e->ev.eta_s) < 0)
		o->full = true;
	hk_out__str(o, "hotspot-k: ");
	if (asked) {
		hk_units__print(max, sizeof(max), HK_UNIT_DURATION_S, r->max_s);
		hk_out__str(o, r->outcome == HK_FREEZE_FROZEN ? "froze" : "freezing");
		hk_out__str(o, " cgroup ");
		hk_out__term_text(o, r->cgroup, strlen(r->cgroup));
		hk_out__str(o, " (");
		out_pid(o, e);
		hk_out__printf(o, ", oom_risk in %s) for %s at most", eta, max);
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
	if (r->outcome == HK_FREEZE_FROZEN || r->outcome == HK_FREEZE_PENDING)
		hk_json__u64(o, "freeze_max_s", r->max_s);
	else
		hk_out__str(o, ",\"freeze_max_s\":null");
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
	if (r->outcome > HK_FREEZE_ALREADY)
		return -1;
	if (as_json)
		json(&o, e, r, eta_s, ctx);
	else
		human(&o, e, r);
	return hk_out__finish(&o);
}

void hk_freeze__now(struct hk_freeze_now *now)
{
	now->mono_ns = mono_ns();
	now->boot_ms = hk_freeze__boot_ms();
}

int hk_freeze__end_priority(enum hk_freeze_end end)
{
	/* thawed: the leak runs again, and may meet the OOM killer now;
	 * taken over: a cgroup stays stopped; both are to be seen */
	return end == HK_FREEZE_END_FAILED ? 3 : end == HK_FREEZE_END_HAND ? 5 : 4;
}

static const char *const ends[] = {
	[HK_FREEZE_END_MAX] = "max",
	[HK_FREEZE_END_LEFT] = "left",
	[HK_FREEZE_END_TAKEN] = "taken",
	[HK_FREEZE_END_EXIT] = "exit",
	[HK_FREEZE_END_FAILED] = "failed",
	[HK_FREEZE_END_HAND] = "hand",
};

/* "(frozen for pid 1234 leak, uid 1000)" */
static void out_whose(struct hk_out *o, const struct hk_freeze_rec *rec)
{
	hk_out__printf(o, "(frozen for pid %u", rec->pid);
	if (rec->comm[0]) {
		hk_out__mem(o, " ", 1);
		hk_out__term_text(o, rec->comm, strlen(rec->comm));
	}
	hk_out__printf(o, ", uid %u)", rec->uid);
}

/* s as a duration ("7m50s"); "?" when it does not fit (it always does). */
static void out_secs(struct hk_out *o, __u64 s)
{
	char buf[32];

	hk_out__str(o, hk_format__duration(buf, sizeof(buf), s) < 0 ? "?" : buf);
}

static void human_end(struct hk_out *o, const struct hk_freeze_rec *rec,
		      enum hk_freeze_end end, const char *why, const struct hk_freeze_now *now)
{
	__u64 max_s = (rec->until_boot_ms - rec->since_boot_ms) / 1000;
	__u64 left_ms = rec->until_boot_ms > now->boot_ms ? rec->until_boot_ms - now->boot_ms : 0;
	__u64 past_ms = now->boot_ms > rec->until_boot_ms ? now->boot_ms - rec->until_boot_ms : 0;
	__u64 held_ms = now->boot_ms > rec->since_boot_ms ? now->boot_ms - rec->since_boot_ms : 0;
	char max[32];

	hk_units__print(max, sizeof(max), HK_UNIT_DURATION_S, max_s);
	hk_out__str(o, "hotspot-k: ");
	if (end == HK_FREEZE_END_HAND) {
		/* someone thawed it: their call, for the rest of this episode */
		hk_out__term_text(o, rec->cgroup, strlen(rec->cgroup));
		hk_out__printf(o, " was thawed by hand: not freezing it again while pid %u "
			       "stays at OOM risk ", rec->pid);
		out_whose(o, rec);
		hk_out__str(o, "\n");
		return;
	}
	if (end == HK_FREEZE_END_FAILED || end == HK_FREEZE_END_TAKEN) {
		hk_out__str(o, "cgroup ");
		hk_out__term_text(o, rec->cgroup, strlen(rec->cgroup));
	} else {
		hk_out__str(o, "thawed cgroup ");
		hk_out__term_text(o, rec->cgroup, strlen(rec->cgroup));
	}
	switch (end) {
	case HK_FREEZE_END_MAX:
		hk_out__printf(o, ": its %s (--freeze-max) are up ", max);
		break;
	case HK_FREEZE_END_LEFT:
		hk_out__printf(o, ", left frozen by a hotspot-k that is gone (pid %u): its %s "
			       "were up ", rec->by_pid, max);
		out_secs(o, past_ms / 1000);
		hk_out__str(o, " ago ");
		break;
	case HK_FREEZE_END_TAKEN:
		hk_out__str(o, " stays frozen ");
		out_secs(o, (left_ms + 999) / 1000);
		hk_out__printf(o, " more, then thawed: left by a hotspot-k that is gone (pid "
			       "%u) ", rec->by_pid);
		break;
	case HK_FREEZE_END_EXIT:
		hk_out__str(o, ": hotspot-k exits, after ");
		out_secs(o, held_ms / 1000);
		hk_out__str(o, " frozen ");
		break;
	default:
		hk_out__str(o, " not thawed: ");
		hk_out__term_text(o, why ? why : "", why ? strlen(why) : 0);
		hk_out__mem(o, " ", 1);
		break;
	}
	out_whose(o, rec);
	if (end == HK_FREEZE_END_TAKEN || end == HK_FREEZE_END_FAILED) {
		hk_out__str(o, end == HK_FREEZE_END_TAKEN ? "; thaw now with: hotspot-k thaw " :
			    "; thaw with: hotspot-k thaw ");
		out_shell_word(o, rec->cgroup);
	}
	hk_out__str(o, "\n");
}

static void json_end(struct hk_out *o, const struct hk_freeze_rec *rec, enum hk_freeze_end end,
		     const char *why, const struct hk_freeze_now *now,
		     const struct hk_format_ctx *ctx)
{
	struct hk_event at = { .time_ns = now->mono_ns };
	__u64 held_ms = now->boot_ms > rec->since_boot_ms ? now->boot_ms - rec->since_boot_ms : 0;
	__u64 left_ms = rec->until_boot_ms > now->boot_ms ? rec->until_boot_ms - now->boot_ms : 0;

	hk_out__str(o, "{\"event\":\"freeze\",\"time\":\"");
	hk_out__rfc3339(o, &at, ctx);
	hk_out__printf(o, "\",\"pid\":%u,\"comm\":", rec->pid);
	hk_out__json_str(o, rec->comm, strlen(rec->comm));
	hk_json__u64(o, "uid", rec->uid);
	json_str_or_null(o, "cgroup", rec->cgroup);
	json_str_or_null(o, "freezer", rec->hier == HK_FREEZE_HIER_V1 ? "v1" : "v2");
	hk_out__printf(o, ",\"result\":\"%s\",\"end\":\"%s\"",
		       end == HK_FREEZE_END_FAILED ? "failed" :
		       end == HK_FREEZE_END_TAKEN ? "held" : "thawed", ends[end]);
	json_str_or_null(o, "reason", end == HK_FREEZE_END_FAILED ? why : NULL);
	hk_json__u64(o, "frozen_s", held_ms / 1000);
	hk_json__u64(o, "freeze_max_s", (rec->until_boot_ms - rec->since_boot_ms) / 1000);
	hk_json__u64(o, "left_s", (left_ms + 999) / 1000);
	hk_json__u64(o, "by_pid", rec->by_pid);
	hk_out__str(o, "}\n");
}

int hk_freeze__format_end(char *buf, size_t len, const struct hk_freeze_rec *rec,
			  enum hk_freeze_end end, const char *why,
			  const struct hk_freeze_now *now, int as_json,
			  const struct hk_format_ctx *ctx)
{
	struct hk_out o;

	hk_out__init(&o, buf, len);
	if (end > HK_FREEZE_END_HAND)
		return -1;
	if (as_json)
		json_end(&o, rec, end, why, now, ctx);
	else
		human_end(&o, rec, end, why, now);
	return hk_out__finish(&o);
}
