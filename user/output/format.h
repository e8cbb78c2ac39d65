/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * format.h - one transition as a human line (human.c) or as a JSON
 * object (json.c); the names of the labels, the memory limits and
 * the walk drivers (labels.c).
 */
#ifndef HK_USER_FORMAT_H
#define HK_USER_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/outbuf.h"
#include "lib/workload.h"
#include "mem_blame.h"
#include "shared/hotspot.h"

/*
 * Prometheus gives at most this many bytes of a cgroup path (cut at a
 * UTF-8 boundary) before making it a label value (prom_value.h).
 */
#define HK_FORMAT_CGROUP_MAX	4096
/*
 * A path in a line (the cgroup, the quota's and memory.high's, an OOM
 * kill's memory cgroup) takes at most this many bytes as written, escapes
 * included, and is cut with a hash past it (cut.h): "cgroup_truncated" says
 * so of the cgroup. Nested cgroups with long names of control bytes would
 * otherwise make a line of ~73 KB.
 */
#define HK_FORMAT_PATH_MAX	1024
/*
 * A buffer of this size always holds the line, whatever the event: four
 * paths of HK_FORMAT_PATH_MAX and their quotes, the unit's 255 bytes and
 * six comms (the process, aggressor, victim, three growers) at 6 bytes a
 * byte ("\u0001"), and the rest in 8 KiB
 * (tests/unit/test_format_hostile.c formats the widest event). It stays
 * well under journald's LineMax (48 KiB, its default): a longer stream
 * line is split there, and the rest read as an entry of its own, at the
 * priority its first bytes name.
 */
#define HK_FORMAT_LINE_MAX	16384
_Static_assert(4 * (HK_FORMAT_PATH_MAX + 2) + 6 * 255 + 6 * 6 * HK_COMM_LEN + 8192 <=
	       HK_FORMAT_LINE_MAX, "a line's widest fields must fit HK_FORMAT_LINE_MAX");
_Static_assert(HK_FORMAT_LINE_MAX <= 16384, "lines stay far under journald's LineMax");

/* What the printer knows beyond the event itself. */
struct hk_format_ctx {
	__s64 wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int color;		/* ANSI colours (a TTY without NO_COLOR) */
	int utc;		/* times in UTC rather than local time */
	/* who the process is, for JSON (NULL: unit, container_id, pod_uid "") */
	const struct hk_workload *workload;
	/* the paths of the cgroups the evidence names by id (NULL: "") */
	const char *quota_cgroup;
	const char *mem_high_cgroup;
	/* an oom_killed's memory cgroup, as oom_memcg.h words it ("host",
	 * a path; NULL: from the event alone) */
	const char *oom_memcg;
	/* a stall transition's growers under its limit (mem_blame.h; NULL:
	 * not sought, the JSON says null) */
	const struct hk_mem_blame *blame;
	/* counted: paths cut to HK_FORMAT_PATH_MAX (NULL: not counted) */
	__u64 *paths_cut;
};

/* Stable machine id ("cpu_bound") and display name ("CPU-bound"). */
const char *hk_label__id(__u32 label);
/* The stall ledger's cause (enum hk_stall_cause) as an id ("neighbor"),
 * and its resource ("cpu", "memory", "io"). */
const char *hk_stall__cause(__u32 cause);
const char *hk_stall__resource(__u32 cause);
/* ,"KEY":{"neighbor_s":1.234,...}: a stall ledger (ns per enum
 * hk_stall_cause) in seconds, every cause, for a transition's line and
 * `status --json` alike. */
struct hk_out;
void hk_format__json_stall(struct hk_out *o, const char *key, const struct hk_ledger *l);
const char *hk_label__name(__u32 label);
/* The syslog priority of a transition into label: 3 OOM killed, 4 for an
 * alarm, 5 for CPU-bound, 6 back to OK or exited. */
int hk_label__priority(__u32 label);
/* The syslog priority of transition e: its label's, but 5 (a notice) into
 * Starved or Noisy neighbor when the waiting thread asked for less, and 4
 * (a warning) for an OOM kill flagged in time (3, an error, when missed). */
int hk_event__priority(const struct hk_event *e);
/* "normal", "batch", "idle", "fifo", "rr", "deadline", "ext"; NULL for a
 * policy this build does not know. */
const char *hk_policy__name(__u32 policy);
/* The ANSI colour of a label on the human line. */
const char *hk_label__sgr(__u32 label);
/* "ram"/"RAM" (human) or "memcg": what limits the memory. */
const char *hk_limit__name(__u32 kind, bool human);
/* "sampled" when the bit (enum hk_source) is in sampled, else "delayacct":
 * where an I/O wait or a memory stall figure came from. */
const char *hk_source__name(__u32 sampled, __u32 bit);
/* "wq", "timer", "iter", or "none" (before a walk, or not one of those). */
const char *hk_driver__name(enum hk_driver d);

/*
 * Format e into buf (always NUL-terminated, newline-terminated). cgroup is
 * the path that matters for the diagnosis, or NULL. Returns the length
 * written, or -1 when buf is too small (never with HK_FORMAT_LINE_MAX).
 */
int hk_format__human(char *buf, size_t len, const struct hk_event *e,
		      const char *cgroup, const struct hk_format_ctx *ctx);
int hk_format__json(char *buf, size_t len, const struct hk_event *e,
		      const char *cgroup, const struct hk_format_ctx *ctx);

/* How hk_out__evidence() words it. */
enum hk_evidence_flags {
	/*
	 * Leave out what a `hotspot-k status` row shows in its own columns
	 * (the process's CPU, run delay, RSS) and the trend's span and
	 * headroom: the words that fit beside a table row.
	 */
	HK_EVIDENCE_SHORT	= 1 << 0,
	/* Peers' comms as they are, for a caller that escapes the whole text
	 * (JSON); terminal-safe otherwise. */
	HK_EVIDENCE_RAW_COMMS	= 1 << 1,
};

/*
 * The evidence for label, in the human line's words, from e->ev and the
 * peers' comms in e (e->aggressor_comm, e->victim_comm; empty: the PID
 * alone). flags: enum hk_evidence_flags.
 */
void hk_out__evidence(struct hk_out *o, const struct hk_event *e, __u32 label,
		      unsigned int flags);
/* " · reclaim caused by pid 4242 (leak) 86 %, pid 300 (cron) 14 % of the
 * limit's growth"; nothing when b names nobody (or is NULL). */
void hk_out__growers(struct hk_out *o, const struct hk_mem_blame *b);

/*
 * Whether the human lines get colour: on a terminal, unless NO_COLOR is
 * set and not empty (no-color.org) or TERM is "dumb". no_color and term
 * are the variables' values, NULL when unset.
 */
int hk_format__use_color(int is_tty, const char *no_color, const char *term);

/* Human-readable sizes and durations used on the human line. */
int hk_format__bytes(char *buf, size_t len, __u64 bytes);	/* "1.21 GiB" */
int hk_format__duration(char *buf, size_t len, __u64 s);	/* "9m32s" */

#endif /* HK_USER_FORMAT_H */
