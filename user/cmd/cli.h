/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cli.h - the command line: options, --help, and what they ask for.
 */
#ifndef HK_USER_CLI_H
#define HK_USER_CLI_H

#include "cmd.h"
#include "kernel/loader.h"
#include "output/metrics_addr.h"
#include "output/printer.h"

/* Everything the command line says. */
struct hk_cli {
	struct hk_loader_opts opts;
	const char *config_path;
	const char *check_path;
	__u64 interval_ns;		/* --interval; 0: not given */
	__u64 duration_ns;		/* --duration; 0: until a signal */
	int generate;
	int json;
	int utc;
	const char *prom_path;		/* --prometheus */
	struct hk_metrics_addr listen;	/* --metrics-listen */
	int listen_set;
	int journal_mode;		/* enum hk_journal_mode: --journal, --no-journal */
	const char *journal_socket;	/* --journal-socket; NULL: the default */
	int pin;			/* --pin */
	int version;			/* --version */
	__u64 profile_ns;		/* --profile */
	int profile_set;
	const char *profile_dir;	/* --profile-dir; NULL: "." */
	const char *postmortem_dir;	/* --postmortem-dir; NULL: HK_RUNDIR */
	/* --pid, --comm, --exclude-comm, --cgroup, --freeze-on-oom,
	 * --freeze-max: each replaces its key; --never-freeze adds to its */
	struct hk_config filters;
	unsigned int filters_set;	/* FILTER_*, FREEZE_* given */
};

enum {
	FILTER_PIDS = 1,
	FILTER_COMMS = 2,
	FILTER_EXCLUDE = 4,
	FILTER_CGROUP = 8,
	FREEZE_ETA = 16,
	FREEZE_NEVER = 32,
	FREEZE_MAX = 64,
	FREEZE_NEVER_NONE = 128,	/* --never-freeze none: the list emptied first */
};

/*
 * Parse argv into *c (zeroed by the caller): -1 to go on (c->version: say
 * it, run.c); else the exit status to leave with (--help: 0; a usage
 * error, said on stderr: 2).
 */
int hk_cli__parse(struct hk_cli *c, int argc, char **argv);

/* Put the command line's filters, freeze settings and --profile over the
 * config's (they replace its keys; --never-freeze adds to its list): 0, or
 * -1 with one line in err (the list full). */
int hk_cli__apply_flags(const struct hk_cli *c, struct hk_config *cfg, char *err,
			size_t err_len);

/* Where profiles go: "." unless --profile-dir says. */
const char *hk_cli__profile_dir(const struct hk_cli *c);

#endif /* HK_USER_CLI_H */
