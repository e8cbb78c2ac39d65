// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cli.c - the command line: options, --help, and what they ask for. The
 * filters' flags replace the config keys of the same name; --never-freeze
 * adds to [freeze] never (none: drops it).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "usage.h"

enum {
	OPT_GENERATE = 256,
	OPT_CHECK,
	OPT_MAX_PROCS,
	OPT_TIMER_WALK,
	OPT_DRIVER,
	OPT_DURATION,
	OPT_UTC,
	OPT_NO_HOOK,
	OPT_BPF_STATS,
	OPT_NO_BPF_STATS,
	OPT_CGROUP,
	OPT_COMM,
	OPT_EXCLUDE_COMM,
	OPT_PROMETHEUS,
	OPT_METRICS_LISTEN,
	OPT_JOURNAL,
	OPT_NO_JOURNAL,
	OPT_JOURNAL_SOCKET,
	OPT_PIN,
	OPT_PROFILE,
	OPT_PROFILE_DIR,
	OPT_POSTMORTEM_DIR,
	OPT_FREEZE_ON_OOM,
	OPT_FREEZE_MAX,
	OPT_NEVER_FREEZE,
};

static const char usage_text[] =
"Usage: hotspot-k [--config FILE] [--interval DUR] [--json] [OPTION...]\n"
"       hotspot-k status [-a] [-n N] [--json | --watch [DUR]]\n"
"       hotspot-k follow [--json] [--utc] | hotspot-k unpin\n"
"       hotspot-k profile PID [--memory] [--duration DUR] [--profile-dir DIR]\n"
"                             [--json]\n"
"       hotspot-k thaw CGROUP | --all\n"
"\n"
"Diagnose every process in the kernel and print each change of diagnosis:\n"
"OOM risk, Mem-throttled, Mem-thrashing, Throttled, Starved, Noisy neighbor,\n"
"I/O-blocked, CPU-bound, OK, exited, OOM killed. Runs until SIGINT/SIGTERM,\n"
"then detaches everything and exits 0; SIGHUP reads --config again and\n"
"applies it in place.\n"
"\n"
"  -c, --config FILE        thresholds and filters (see --generate-config);\n"
"                           unset keys keep their defaults\n"
"  -i, --interval DUR       window length, e.g. 1s, 500ms (default 5s;\n"
"                           overrides [general] interval)\n"
"  -j, --json               one JSON object per line instead of text\n"
"      --utc                times in UTC instead of local time\n"
"      --duration DUR       stop by itself after DUR (e.g. 60s; at least 1s)\n"
"  -p, --pid PID            only this process (repeatable, at most 16)\n"
"      --comm NAME          only processes named NAME (repeatable, at most 8)\n"
"      --exclude-comm NAME  never processes named NAME (repeatable, at most 8)\n"
"      --cgroup PATH        only processes in this cgroup or below (the memory\n"
"                           controller's hierarchy on a hybrid v1/v2 host;\n"
"                           at most 255 bytes)\n"
"      --prometheus FILE    keep FILE as a node_exporter textfile (0644):\n"
"                           flagged processes, counts per label, the tool's\n"
"                           counters; hotspot_k_up 0 alone once it stops\n"
"      --metrics-listen ADDR\n"
"                           serve the same metrics over HTTP (GET /metrics):\n"
"                           127.0.0.1:9101, [::1]:9101, localhost:9101 or\n"
"                           unix:/run/hotspot-k/metrics.sock (0660); every\n"
"                           interface only as written (0.0.0.0:P, [::]:P, :P)\n"
"      --journal            send each line to the journal's native socket too,\n"
"                           with fields (HOTSPOT_K_LABEL=, MESSAGE_ID=, ...),\n"
"                           wherever stdout goes; by default only when stdout\n"
"                           is the journal (under the unit), in place of its\n"
"                           stream line\n"
"      --no-journal         never: stream lines alone, as with no journald\n"
"      --journal-socket PATH\n"
"                           the journal's native socket (default\n"
"                           /run/systemd/journal/socket)\n"
"      --profile DUR        profile each process that enters an alarm label for\n"
"                           DUR (e.g. 10s): on-CPU and off-CPU stacks (oom_risk:\n"
"                           the stacks that grow its memory, in bytes), written\n"
"                           as hotspot-k.PID.LABEL.TIME.{folded,svg}; at most\n"
"                           4 at once, 2 per user (overrides [profile]\n"
"                           duration)\n"
"      --profile-dir DIR    where profiles are written, 0640 (default: .);\n"
"                           refused when its group or others can write it\n"
"                           and it is not sticky\n"
"      --postmortem-dir DIR the state directory whose oom/ gets a post-mortem\n"
"                           of each OOM kill ([postmortem]; default\n"
"                           /run/hotspot-k): root's, 0700, made when absent\n"
"      --freeze-on-oom ETA  freeze the cgroup of a process in OOM risk whose ETA\n"
"                           is, or falls, below ETA (whole seconds up to 30d,\n"
"                           e.g. 60s; 0s: never, the default), and say so;\n"
"                           hotspot-k thaw undoes it.\n"
"                           Never a cgroup holding another user's process,\n"
"                           the root cgroup or hotspot-k's own\n"
"      --freeze-max DUR     thaw a frozen cgroup after DUR (default 10m, at\n"
"                           most 1d), and when hotspot-k exits\n"
"      --never-freeze PATH  never freeze this cgroup, its children or its\n"
"                           ancestors (repeatable); added to [freeze] never,\n"
"                           default /init.scope, journald, dbus, logind, ssh;\n"
"                           none: not those, only the paths after it\n"
"      --pin                load, pin under /sys/fs/bpf/hotspot-k and exit: the\n"
"                           diagnosis runs on in the kernel (driver table, wq or\n"
"                           timer);\n"
"                           bpffs is mounted on /sys/fs/bpf if nothing is\n"
"      --max-procs N        processes tracked at once, 64..4194304 (default:\n"
"                           4 x the processes running at start, 4096..65536;\n"
"                           outside the host's PID namespace 4 x\n"
"                           /proc/loadavg's tasks)\n"
"      --driver NAME        how the walk over all threads runs: wq (a kworker,\n"
"                           Linux >= 6.10), timer (the timer's softirq, >= 6.7),\n"
"                           iter (read here each window, the CPU offered\n"
"                           between threads, >= 5.15), table (a kworker in\n"
"                           1 ms chunks over a table of processes, >= 6.10);\n"
"                           default: by kernel; above 2000 threads table\n"
"                           (>= 6.10, 2+ threads a process on average; and\n"
"                           under --pin), else iter\n"
"      --timer-walk         deprecated: --driver timer\n"
"      --no-hook            nothing on the scheduler's hot path (no sched_switch\n"
"                           program): Starved still works, but nobody is named\n"
"                           as its aggressor and nobody is a Noisy neighbor\n"
"      --bpf-stats          hold BPF_ENABLE_STATS while running, so that the\n"
"                           kernel times the tool's programs: its own cost is\n"
"                           measured, not estimated. It times every BPF\n"
"                           program of the host too: each run of anyone's\n"
"                           (a datapath's: per packet) pays two clock reads\n"
"      --no-bpf-stats       the default: own cost estimated from runs counted\n"
"                           x ns per run in make bench, the walks timed here\n"
"      --generate-config    print the default config, fully commented, and exit\n"
"      --check-config FILE  validate FILE, load nothing; exit 0 or 2\n"
"  -v, --verbose            libbpf debug output (full verifier log on failure)\n"
"  -h, --help               this help\n"
"  -V, --version            version, commit, libbpf, arch, static or dynamic\n"
"\n"
"Commands:\n"
"  status                   the running instance's processes that are not OK\n"
"                           (-a: also the busiest; --json); see status --help\n"
"  follow [--json]          print the pinned instance's transitions\n"
"  unpin                    stop the pinned instance\n"
"  profile PID              profile one process now (--duration 10s) into a\n"
"                           flame graph; see profile --help\n"
"  thaw CGROUP | --all      thaw a cgroup --freeze-on-oom froze, or every one\n"
"                           recorded in /run/hotspot-k\n"
"  help [COMMAND]           this help, or the command's\n"
"  version                  what was built, as --version\n"
"\n"
"Examples:\n"
"  sudo hotspot-k                             # defaults, 5 s windows\n"
"  hotspot-k --generate-config > t.conf       # edit, then:\n"
"  hotspot-k --check-config t.conf && sudo hotspot-k --config t.conf\n"
"  sudo hotspot-k --cgroup /system.slice/nginx.service --exclude-comm sshd\n"
"  sudo hotspot-k -i 1s --json >> /var/log/hotspot-k.jsonl\n"
"  sudo hotspot-k --prometheus /var/lib/prometheus/node-exporter/hotspot-k.prom\n"
"  sudo hotspot-k --metrics-listen 127.0.0.1:9101  # scrape :9101/metrics\n"
"  sudo hotspot-k --pin && sudo hotspot-k follow   # no process between reads\n"
"  sudo hotspot-k --freeze-on-oom 60s         # undo: sudo hotspot-k thaw CGROUP\n"
"  sudo systemctl reload hotspot-k            # the service re-reads its config\n"
"  sudo hotspot-k status -a                   # from another terminal\n"
"  sudo hotspot-k --profile 10s --profile-dir /var/tmp   # flame graph per alarm\n"
"  sudo hotspot-k profile 4242 --duration 30s # where does 4242's time go?\n"
"  sudo bpftool map dump name hk_procs        # current state per process\n"
"\n"
"Exit status: 0 normal, 1 runtime failure, 2 usage or config error; 3 no\n"
"instance running (status) or pinned (follow, unpin).\n";

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "interval", required_argument, NULL, 'i' },
	{ "json", no_argument, NULL, 'j' },
	{ "utc", no_argument, NULL, OPT_UTC },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "max-procs", required_argument, NULL, OPT_MAX_PROCS },
	{ "timer-walk", no_argument, NULL, OPT_TIMER_WALK },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "no-hook", no_argument, NULL, OPT_NO_HOOK },
	{ "bpf-stats", no_argument, NULL, OPT_BPF_STATS },
	{ "no-bpf-stats", no_argument, NULL, OPT_NO_BPF_STATS },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "exclude-comm", required_argument, NULL, OPT_EXCLUDE_COMM },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "metrics-listen", required_argument, NULL, OPT_METRICS_LISTEN },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ "no-journal", no_argument, NULL, OPT_NO_JOURNAL },
	{ "journal-socket", required_argument, NULL, OPT_JOURNAL_SOCKET },
	{ "pin", no_argument, NULL, OPT_PIN },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "profile-dir", required_argument, NULL, OPT_PROFILE_DIR },
	{ "postmortem-dir", required_argument, NULL, OPT_POSTMORTEM_DIR },
	{ "freeze-on-oom", required_argument, NULL, OPT_FREEZE_ON_OOM },
	{ "freeze-max", required_argument, NULL, OPT_FREEZE_MAX },
	{ "never-freeze", required_argument, NULL, OPT_NEVER_FREEZE },
	{ "generate-config", no_argument, NULL, OPT_GENERATE },
	{ "check-config", required_argument, NULL, OPT_CHECK },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

#define usage_error(fmt, arg) hk_usage__error(NULL, fmt, arg)

int hk_cli__apply_flags(const struct hk_cli *c, struct hk_config *cfg, char *err,
			size_t err_len)
{
	char why[HK_ERR_LEN];
	__u32 i;

	if (c->profile_set)
		cfg->profile_ns = c->profile_ns;
	if (c->filters_set & FILTER_PIDS)
		cfg->filter_pids = c->filters.filter_pids;
	if (c->filters_set & FILTER_COMMS)
		cfg->filter_comms = c->filters.filter_comms;
	if (c->filters_set & FILTER_EXCLUDE)
		cfg->exclude_comms = c->filters.exclude_comms;
	if (c->filters_set & FILTER_CGROUP)
		memcpy(cfg->filter_cgroup, c->filters.filter_cgroup, sizeof(cfg->filter_cgroup));
	if (c->filters_set & FREEZE_ETA)
		cfg->freeze_eta_s = c->filters.freeze_eta_s;
	if (c->filters_set & FREEZE_MAX)
		cfg->freeze_max_s = c->filters.freeze_max_s;
	/* --never-freeze adds to the list in force (the defaults, or the
	 * file's): a flag that replaced it dropped the ssh and journald
	 * protections without a word; "none" drops them, said so at start */
	if (c->filters_set & FREEZE_NEVER_NONE)
		memset(&cfg->freeze_never, 0, sizeof(cfg->freeze_never));
	for (i = 0; i < c->filters.freeze_never.n; i++)
		if (hk_filter__add_path(&cfg->freeze_never, c->filters.freeze_never.path[i], why,
					sizeof(why)))
			return hk_msg__fail(err, err_len, "--never-freeze %s: %s (with the list "
					    "in force; --never-freeze none drops it)",
					    c->filters.freeze_never.path[i], why);
	return 0;
}

int hk_cli__parse(struct hk_cli *c, int argc, char **argv)
{
	__u64 max_procs, v;
	int opt;

	const char *flag = NULL;
	char why[HK_ERR_LEN], qbuf[HK_QUOTE_BUF];

	opterr = 0;	/* its messages say argv[0]: usage.h says them */
	while ((opt = getopt_long(argc, argv, ":c:i:jp:vhV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			flag = "--pid";
			c->filters_set |= FILTER_PIDS;
			if (hk_filter__add_pid(&c->filters, optarg, why, sizeof(why)))
				goto bad_filter;
			break;
		case OPT_COMM:
			flag = "--comm";
			c->filters_set |= FILTER_COMMS;
			if (hk_filter__add_comm(&c->filters.filter_comms, optarg, why, sizeof(why)))
				goto bad_filter;
			break;
		case OPT_EXCLUDE_COMM:
			flag = "--exclude-comm";
			c->filters_set |= FILTER_EXCLUDE;
			if (hk_filter__add_comm(&c->filters.exclude_comms, optarg, why, sizeof(why)))
				goto bad_filter;
			break;
		case OPT_CGROUP:
			flag = "--cgroup";
			c->filters_set |= FILTER_CGROUP;
			if (hk_filter__set_cgroup(&c->filters, optarg, why, sizeof(why)))
				goto bad_filter;
			break;
		case OPT_NEVER_FREEZE:
			flag = "--never-freeze";
			c->filters_set |= FREEZE_NEVER;
			/* none (or '', as before): not even the defaults, nor what
			 * came before it */
			if (!*optarg || !strcmp(optarg, "none")) {
				c->filters_set |= FREEZE_NEVER_NONE;
				c->filters.freeze_never.n = 0;
				break;
			}
			if (hk_filter__add_path(&c->filters.freeze_never, optarg, why, sizeof(why)))
				goto bad_filter;
			break;
		case OPT_FREEZE_ON_OOM:
			if (hk_units__parse(optarg, HK_UNIT_DURATION_S,
					    &c->filters.freeze_eta_s, NULL, 0) ||
			    c->filters.freeze_eta_s > HK_FREEZE_ETA_MAX_S) {
				usage_error("bad --freeze-on-oom '%s' (whole seconds up to 30d, "
					    "e.g. 60s; 0s: never)", optarg);
				return EXIT_USAGE;
			}
			c->filters_set |= FREEZE_ETA;
			break;
		case OPT_FREEZE_MAX:
			if (hk_units__parse(optarg, HK_UNIT_DURATION_S, &v, NULL, 0) || !v ||
			    v > HK_FREEZE_MAX_MAX_S) {
				usage_error("bad --freeze-max '%s' (whole seconds, 1s..1d, e.g. "
					    "10m)", optarg);
				return EXIT_USAGE;
			}
			c->filters.freeze_max_s = (__u32)v;
			c->filters_set |= FREEZE_MAX;
			break;
		case 'c':
			c->config_path = optarg;
			break;
		case OPT_PROMETHEUS:
			c->prom_path = optarg;
			break;
		case OPT_METRICS_LISTEN:
			if (hk_metrics_addr__parse(&c->listen, optarg, why, sizeof(why))) {
				flag = hk_msg__quote(qbuf, sizeof(qbuf), optarg);
				return hk_usage__error(NULL, "bad --metrics-listen '%s': %s", flag,
						       why);
			}
			c->listen_set = 1;
			break;
		case OPT_JOURNAL:
			c->journal_mode = HK_JOURNAL_ON;
			break;
		case OPT_NO_JOURNAL:
			c->journal_mode = HK_JOURNAL_OFF;
			break;
		case OPT_JOURNAL_SOCKET:
			/* a sockaddr_un's sun_path, its NUL included */
			if (!optarg[0] || strlen(optarg) >= sizeof(((struct hk_journal *)0)->path)) {
				flag = hk_msg__quote(qbuf, sizeof(qbuf), optarg);
				return hk_usage__error(NULL, "bad --journal-socket '%s': a socket's "
						       "path, 1 to 107 bytes", flag);
			}
			c->journal_socket = optarg;
			break;
		case OPT_PIN:
			c->pin = 1;
			break;
		case OPT_PROFILE:
			if (hk_units__parse_duration_ns(optarg, &c->profile_ns) ||
			    c->profile_ns > HK_NSEC_PER_HOUR ||
			    (c->profile_ns && c->profile_ns < HK_NSEC_PER_SEC)) {
				usage_error("bad --profile '%s' (1s..1h, e.g. 10s; 0s: off)", optarg);
				return EXIT_USAGE;
			}
			c->profile_set = 1;
			break;
		case OPT_PROFILE_DIR:
			c->profile_dir = optarg;
			break;
		case OPT_POSTMORTEM_DIR:
			c->postmortem_dir = optarg;
			break;
		case 'i':
			if (hk_units__parse_duration_ns(optarg, &c->interval_ns) ||
			    !c->interval_ns) {
				usage_error("bad --interval '%s' (e.g. 5s, 500ms)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			c->json = 1;
			break;
		case OPT_UTC:
			c->utc = 1;
			break;
		case OPT_DURATION:
			if (hk_units__parse_duration_ns(optarg, &c->duration_ns) ||
			    c->duration_ns < HK_NSEC_PER_SEC) {
				usage_error("bad --duration '%s' (at least 1s, e.g. 60s)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_MAX_PROCS:
			if (hk_units__parse_count(optarg, &max_procs) || max_procs < 64 ||
			    max_procs > 4194304) {
				usage_error("bad --max-procs '%s' (64..4194304)", optarg);
				return EXIT_USAGE;
			}
			c->opts.max_procs = (__u32)max_procs;
			break;
		case OPT_TIMER_WALK:
			c->opts.driver = HK_DRIVER_TIMER;
			break;
		case OPT_DRIVER:
			if (!strcmp(optarg, "wq"))
				c->opts.driver = HK_DRIVER_WQ;
			else if (!strcmp(optarg, "timer"))
				c->opts.driver = HK_DRIVER_TIMER;
			else if (!strcmp(optarg, "iter"))
				c->opts.driver = HK_DRIVER_ITER;
			else if (!strcmp(optarg, "table"))
				c->opts.driver = HK_DRIVER_TABLE;
			else {
				usage_error("bad --driver '%s' (wq, table, timer or iter)", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_BPF_STATS:
			c->opts.bpf_stats = 1;
			break;
		case OPT_NO_BPF_STATS:	/* the default since issue #29 */
			c->opts.bpf_stats = 0;
			break;
		case OPT_NO_HOOK:
			c->opts.no_hook = 1;
			break;
		case OPT_GENERATE:
			c->generate = 1;
			break;
		case OPT_CHECK:
			c->check_path = optarg;
			break;
		case 'v':
			c->opts.verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
		case 'V':
			c->version = 1;
			break;
		default:
			return hk_usage__getopt(NULL, opt, argv, long_opts);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", hk_msg__quote(why, sizeof(why),
									     argv[optind]));
	/* one of them would be dropped without a word (docs review 5.1) */
	if (c->generate && (c->check_path || c->config_path))
		return usage_error("--generate-config prints the defaults: not with %s",
				   c->check_path ? "--check-config" : "--config");
	if (c->check_path && c->config_path)
		return hk_usage__error(NULL, "--config and --check-config: one file at a time "
				       "(--check-config FILE checks FILE)");
	return -1;
bad_filter:
	return hk_usage__error(NULL, "bad %s: %s", flag, why);
}

/* Where profiles go: "." unless --profile-dir says. */
const char *hk_cli__profile_dir(const struct hk_cli *c)
{
	return c->profile_dir ? c->profile_dir : ".";
}
