/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * config/ - the first step of the flow: what the user asks (the config
 * file, the defaults) -> struct hk_config. No BPF.
 *
 * config.h - the threshold file: parse, validate, generate. The pieces:
 * keys.c (the table of keys), parse.c, check.c and
 * gen.c; values with units are units.h's.
 *
 * Format: `key = value` lines in [sections] named after the diagnoses
 * ([general], [oom_risk], [mem_thrashing], [throttled], [starved],
 * [noisy_neighbor], [cpu_bound]), then [filter] and [freeze]; `#` starts a
 * comment; values carry units (5s, 500ms,
 * 500MiB, 10%). Keys not set keep their defaults.
 */
#ifndef HK_USER_CONFIG_H
#define HK_USER_CONFIG_H

#include <stddef.h>
#include <stdio.h>
#include "shared/hotspot.h"

#define HK_ERR_LEN 256

/* The largest [freeze] on_oom_eta and --freeze-on-oom: the ETA horizon's. */
#define HK_FREEZE_ETA_MAX_S	(30 * 86400)
/* [freeze] max and --freeze-max: by default, and at most. */
#define HK_FREEZE_MAX_DEFAULT_S	600
#define HK_FREEZE_MAX_MAX_S	86400
/* [freeze] never by default: what a host and whoever must look at it need
 * (the log, the bus, logins, ssh on Debian and on Red Hat), 7 of 16:
 * --never-freeze adds to them (cli.c) */
#define HK_FREEZE_NEVER_DEFAULT							\
	"/init.scope, /system.slice/systemd-journald.service, "			\
	"/system.slice/dbus.service, /system.slice/dbus-broker.service, "	\
	"/system.slice/systemd-logind.service, /system.slice/ssh.service, "	\
	"/system.slice/sshd.service"

/* [postmortem] records and record_max: by default, and their bounds. */
#define HK_PM_RECORDS_DEFAULT	32
#define HK_PM_RECORDS_MAX	1024
#define HK_PM_BYTES_DEFAULT	(64 * 1024)
#define HK_PM_BYTES_MIN		(16 * 1024)
#define HK_PM_BYTES_MAX		(1024 * 1024)

/* Keys the table may hold (one line number each in an origin). */
#define HK_CONFIG_MAX_KEYS 64

/*
 * Where each value came from, for messages that point there: the line of
 * the file that set a key (0: it did not), and --interval.
 */
struct hk_config_origin {
	const char *name;			/* the file; NULL: none */
	unsigned int line[HK_CONFIG_MAX_KEYS];	/* by the key's place in the table */
	__u64 interval_flag_ns;			/* --interval; 0: not given */
};

/* Fill every threshold with its default; environment fields are zeroed. */
void hk_config__defaults(struct hk_config *c);

/*
 * Parse config text on top of *c (start from hk_config__defaults). On error
 * returns -1, leaves *c untouched and writes "NAME:LINE: message" to err.
 * name is what the message calls the input (the file path).
 */
int hk_config__parse_string(struct hk_config *c, const char *text,
			    const char *name, char *err, size_t err_len);

/* Same, reading a file ("PATH: cannot open: reason" when it cannot). */
int hk_config__parse_file(struct hk_config *c, const char *path,
			  char *err, size_t err_len);

/* Same, also noting in o the line that set each key. */
int hk_config__parse_file_origin(struct hk_config *c, const char *path,
				 struct hk_config_origin *o, char *err, size_t err_len);

/*
 * The config the tool runs with: the defaults, the file at path (NULL:
 * none) and --interval (0: not given) on top, in that order; the defaults
 * that depend on the interval (oom_risk.trend_span, min_trend) follow the
 * interval unless the file sets them; then validated and derived. An error
 * names where the value came from: "FILE:LINE: ...", "--interval 2h: ...".
 */
int hk_config__load(struct hk_config *c, const char *path, __u64 interval_ns,
		    char *err, size_t err_len);

/*
 * Filters from the command line (--pid, --comm, --exclude-comm, --cgroup):
 * 0, or -1 with what is wrong in why. A list takes at most HK_FILTER_PIDS
 * PIDs or HK_FILTER_COMMS names; a cgroup path is resolved to an id later
 * (hk_sysinfo__resolve_cgroup).
 */
int hk_filter__add_pid(struct hk_config *c, const char *s, char *why, size_t why_len);
int hk_filter__add_comm(struct hk_comm_list *l, const char *s, char *why, size_t why_len);
int hk_filter__set_cgroup(struct hk_config *c, const char *s, char *why, size_t why_len);

/*
 * A cgroup path (--never-freeze, [freeze] never) into l, written as
 * /proc/PID/cgroup writes paths: "init.scope" and "/init.scope/" are
 * "/init.scope". 0 (also when already listed), or -1 with why: a '.' or
 * '..' component, a control character, ',' or '#', too long, a full list.
 */
int hk_filter__add_path(struct hk_path_list *l, const char *s, char *why, size_t why_len);

/*
 * What changes from a to b, key by key ("general.interval 5s -> 1s, ..."),
 * into buf; returns how many keys differ.
 */
int hk_config__diff(const struct hk_config *a, const struct hk_config *b, char *buf,
		    size_t len);
/* Whether the filters differ (the walk must then sweep hk_procs). */
int hk_config__filters_differ(const struct hk_config *a, const struct hk_config *b);

/* Cross-field checks after parsing and command-line overrides. */
int hk_config__validate(const struct hk_config *c, char *err, size_t err_len);

/* Values derived from others (the trend stride), after every override. */
void hk_config__derive(struct hk_config *c);

/* Print c as a fully commented config file that parses back to c. */
int hk_config__generate(const struct hk_config *c, FILE *out);

#endif /* HK_USER_CONFIG_H */
