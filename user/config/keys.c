// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * keys.c - every config key: section, unit, field, default, range
 * and help text; the defaults come from here.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "keys.h"

const struct hk_section hk_sections[] = {
	{ "general",
	  "Sampling and hysteresis, common to every diagnosis." },
	{ "oom_risk",
	  "OOM risk: its anonymous memory, resident or swapped out (memory the\n"
	  "kernel cannot drop; file pages and shmem are not counted), grew in\n"
	  "this window, and steadily over a trend that covers at least\n"
	  "min_trend (growth in at least `steady` of its time, net growth of at\n"
	  "least min_growth), and at its current slope it reaches its limit\n"
	  "within eta_horizon, and the growth has lasted eta_share of that ETA\n"
	  "beyond eta_floor. The limit is the tighter of the tightest memory\n"
	  "cgroup limit on the process's path (less its usage, reclaimable page\n"
	  "cache counted as free) and the host's headroom (MemAvailable);\n"
	  "without a memory controller, total RAM." },
	{ "mem_throttled",
	  "Mem-throttled: held at memory.high (cgroup v2; systemd MemoryHigh=,\n"
	  "Kubernetes MemoryQoS). Above it the kernel reclaims the cgroup and\n"
	  "makes each allocation wait (up to 2 s per return to user space),\n"
	  "long before memory.max. The tightest memory.high on the process's\n"
	  "path (the smallest high - usage) binds; its cgroup must be at it\n"
	  "(min_usage), hold mostly more than page cache (min_non_cache: cache\n"
	  "is reclaimed without a wait), and the kernel must have counted it\n"
	  "over high (memory.events \"high\") at least high_events_per_s while\n"
	  "the process allocated (faults_per_s, or any anon growth), or its\n"
	  "newest thread must be stalled on memory when sampled (the penalty\n"
	  "sleep spans whole windows): one asleep in that cgroup is not the\n"
	  "one held." },
	{ "mem_thrashing",
	  "Mem-thrashing: one of its threads stalled on memory for at least\n"
	  "`stall` of the window, busy or not; or many major faults, or a storm\n"
	  "of minor faults that RSS growth does not explain, while the process\n"
	  "is not busy on a CPU (see cpu_bound.thread_cpu and total_cpu)." },
	{ "throttled",
	  "Throttled: the CPU quota of its own cgroup (cgroup v1\n"
	  "cpu.cfs_quota_us, v2 cpu.max) held it back: its cgroups were\n"
	  "throttled and one of its threads waited for a CPU, each at least\n"
	  "min_throttled of the window. Not Starved: nobody else is to blame." },
	{ "starved",
	  "Starved: waiting for a CPU most of the window, and waiting more than\n"
	  "running. Voluntary sleep is not waiting." },
	{ "noisy_neighbor",
	  "Noisy neighbor: the process that most often took the CPU from a\n"
	  "Starved process, when it uses a significant share of a CPU." },
	{ "io_blocked",
	  "I/O-blocked: its threads slept in I/O wait (on a disk, a network file\n"
	  "system: uninterruptible sleep in io_schedule) for at least\n"
	  "min_blocked of the window, summed over threads. Read from delay\n"
	  "accounting: hotspot-k sets kernel.task_delayacct = 1 while it runs\n"
	  "and puts back the value it found when it exits. A sleep in\n"
	  "nanosleep, poll or a lock is not I/O. 0 % turns the diagnosis off\n"
	  "(and delay accounting is left as it is)." },
	{ "cpu_bound",
	  "CPU-bound: one thread wants a whole CPU (on one or waiting for one\n"
	  "most of the window) or the process wants a large share of all CPUs,\n"
	  "with few page faults. Its wait for a CPU is in the evidence: on a\n"
	  "saturated host every busy loop is CPU-bound." },
	{ "profile",
	  "Profile on transition: a process that enters an alarm label is\n"
	  "profiled for `duration` (on-CPU stacks sampled at 99 Hz, off-CPU time\n"
	  "with the stacks it slept in), then written as folded stacks and an\n"
	  "SVG flame graph in --profile-dir (the current directory by default):\n"
	  "hotspot-k.PID.LABEL.TIME.{folded,svg}. At most 4 at once. Nothing of\n"
	  "the profiler runs while no process is profiled." },
	{ "filter",
	  "Which processes to diagnose: every one by default. A process must\n"
	  "pass every filter set; the walk skips the others in the kernel,\n"
	  "before any per-process work. Kernel threads are never diagnosed.\n"
	  "The flags --pid, --comm, --exclude-comm and --cgroup replace the\n"
	  "key of the same name. On SIGHUP, processes the new filters leave out\n"
	  "get an `exited` transition." },
	{ "freeze",
	  "Freeze before the OOM killer (off by default): when a process enters\n"
	  "OOM risk with an ETA below on_oom_eta, or holds it while its ETA\n"
	  "falls below, its cgroup is frozen (the v1 freezer where the host\n"
	  "mounts one, else cgroup v2's cgroup.freeze) and a line says so;\n"
	  "nothing in it runs, allocates or is killed until\n"
	  "`hotspot-k thaw CGROUP`, or until `max` has passed and hotspot-k\n"
	  "thaws it (also when it exits). Each freeze is recorded in\n"
	  "/run/hotspot-k, so that a tool started after a crash thaws it on\n"
	  "time. Never a cgroup that holds a process of another user than the\n"
	  "leaking one's, the root cgroup, hotspot-k's own cgroup or one of its\n"
	  "ancestors, or a cgroup of `never`.\n"
	  "--freeze-on-oom replaces on_oom_eta, --freeze-max max;\n"
	  "--never-freeze adds to never (--never-freeze none: empties it)." },
	{ "postmortem",
	  "The OOM post-mortem: at each OOM kill, one JSON file in\n"
	  "/run/hotspot-k/oom/ (--postmortem-dir DIR: DIR/oom/),\n"
	  "KILL_UNIX_S-PID.json, 0600, with the victim's\n"
	  "last transitions, its RSS, growth and ETA window by window, its\n"
	  "memory cgroup's limits and memory.events as the kernel had them at\n"
	  "the kill (kept when the cgroup is removed at once), and its growth\n"
	  "profile's files when one was taken. `hotspot-k status` lists the\n"
	  "newest." },
	{ "budget",
	  "What the tool itself may cost: its CPU (walks, hooks and userspace,\n"
	  "as the summary's own cost counts it) as a share of one CPU over\n"
	  "`span`, and its RSS. Over either for 2 windows in a row, it gives up\n"
	  "one thing more, in this order, each said in one line and counted:\n"
	  "profiles; records read once a window, not as they come (an OOM-kill\n"
	  "storm: lines up to a window late, a killed process's unit and owner\n"
	  "unknown); windows twice as long; four times as long (at most 60s);\n"
	  "the sched_switch hook (nobody named as an aggressor). A step that\n"
	  "would save nothing (no profiles asked for) is passed over. Under half the\n"
	  "CPU budget for 6 windows in a row, it takes one step back. A reload\n"
	  "that changes this section starts again from full service." },
};

const size_t hk_nr_sections = ARRAY_SIZE(hk_sections);

#define KEY(sec, key, kind, field, def, min, max, help)			\
	{ sec, key, kind, offsetof(struct hk_config, field),		\
	  sizeof(((struct hk_config *)0)->field), def, min, max, help, NULL }

/* A key whose value is text, with its default as the file writes it. */
#define KEY_TEXT(sec, key, kind, field, def_text, help)			\
	{ sec, key, kind, offsetof(struct hk_config, field),		\
	  sizeof(((struct hk_config *)0)->field), 0, 0, 0, help, def_text }

const struct hk_key hk_keys[] = {
	KEY("general", "interval", HK_UNIT_DURATION_NS, interval_ns,
	    5 * HK_NSEC_PER_SEC, 100 * HK_NSEC_PER_MSEC, HK_NSEC_PER_HOUR,
	    "How often every process is sampled; each sample closes a window.\n"
	    "Shorter reacts faster and costs more CPU. The thresholds are rates\n"
	    "and shares, so they do not depend on it."),
	KEY("general", "enter_windows", HK_UNIT_INT, enter_windows,
	    2, 1, 100,
	    "Windows in a row a diagnosis must match before a process gets it."),
	KEY("general", "exit_windows", HK_UNIT_INT, exit_windows,
	    3, 1, 100,
	    "Windows in a row without a match before a process loses its\n"
	    "diagnosis."),

	KEY("oom_risk", "trend_span", HK_UNIT_DURATION_NS, oom_trend_span_ns,
	    30 * HK_NSEC_PER_SEC, HK_NSEC_PER_SEC, HK_NSEC_PER_HOUR,
	    "RSS history the growth trend is fitted over (least squares). It\n"
	    "must cover at least 2 intervals (3 samples); when it covers many,\n"
	    "the trend's samples are spread out over it. Unset, it follows the\n"
	    "interval: 6 intervals, 30s at least."),
	KEY("oom_risk", "min_trend", HK_UNIT_DURATION_NS, oom_min_trend_ns,
	    10 * HK_NSEC_PER_SEC, HK_NSEC_PER_SEC, HK_NSEC_PER_HOUR,
	    "Time the trend must already cover (less a quarter of an interval,\n"
	    "for the walk's jitter) before it can say anything: a warm-up (a JVM\n"
	    "sizing its heap, a cache filling) that levels off sooner is never a\n"
	    "risk. At most trend_span. Unset, it follows the interval: 2\n"
	    "intervals, 10s at least."),
	KEY("oom_risk", "min_growth", HK_UNIT_BYTES, oom_min_growth_bytes,
	    64 * HK_MIB, 1, HK_TIB,
	    "Net growth over the trend below which a process is not considered\n"
	    "growing."),
	KEY("oom_risk", "steady", HK_UNIT_PCT_X100, oom_steady_pct_x100,
	    7500, 100, 10000,
	    "Share of the trend's time in which RSS must have grown: steady\n"
	    "growth, not one jump."),
	KEY("oom_risk", "eta_horizon", HK_UNIT_DURATION_S, oom_eta_horizon_s,
	    900, 1, 30 * 86400,
	    "A steadily growing process is at risk when, at its current slope,\n"
	    "it reaches its limit within this time. Size alone is not a risk."),
	KEY("oom_risk", "eta_share", HK_UNIT_PCT_X100, oom_eta_share_pct_x100,
	    2500, 0, 10000,
	    "Evidence in proportion to the time left: the growth must have\n"
	    "lasted this share of its ETA beyond eta_floor (window after window;\n"
	    "a pause holds it, a flat trend starts it over) before it is a\n"
	    "risk. A buffer, a cache or a heap warming up\n"
	    "levels off first; a steady leak enters with 1 / (1 + eta_share) of\n"
	    "that ETA still ahead (four fifths at 25 %). 0 %: off."),
	KEY("oom_risk", "eta_floor", HK_UNIT_DURATION_S, oom_eta_floor_s,
	    120, 0, 30 * 86400,
	    "An ETA within this is flagged on min_trend alone, as early as the\n"
	    "trend allows: a memory cgroup filling in seconds has no time to\n"
	    "wait for more evidence."),

	KEY("mem_throttled", "min_usage", HK_UNIT_PCT_X100, mem_high_usage_pct_x100,
	    9000, 100, 10000,
	    "Usage of the cgroup whose memory.high binds, page cache included\n"
	    "(what the kernel compares with high), as a share of memory.high."),
	KEY("mem_throttled", "min_non_cache", HK_UNIT_PCT_X100,
	    mem_high_non_cache_pct_x100, 5000, 0, 10000,
	    "That usage less the cgroup's page cache, as a share of\n"
	    "memory.high: a cgroup a reader filled with cache is reclaimed\n"
	    "over high as often, but without holding anyone."),
	KEY("mem_throttled", "high_events_per_s", HK_UNIT_COUNT, mem_high_events_per_s,
	    5, 0, UINT64_MAX,
	    "Times per second the kernel reclaimed that cgroup for being over\n"
	    "memory.high (its memory.events \"high\"). 0: off."),
	KEY("mem_throttled", "faults_per_s", HK_UNIT_COUNT, mem_high_faults_per_s,
	    10, 0, UINT64_MAX,
	    "Page faults per second (minor + major) of the process itself\n"
	    "from which it allocates (any anon growth counts too), and so is\n"
	    "the one held."),

	KEY("mem_thrashing", "major_faults_per_s", HK_UNIT_COUNT,
	    thrash_major_faults_per_s, 100, 1, UINT64_MAX,
	    "Major page faults per second (pages read back from disk or swap)\n"
	    "from which a process is thrashing."),
	KEY("mem_thrashing", "minor_faults_per_s", HK_UNIT_COUNT,
	    thrash_minor_faults_per_s, 10000, 1, UINT64_MAX,
	    "Minor page faults per second, beyond those RSS growth explains,\n"
	    "from which a process is thrashing (a leak faults its new pages in:\n"
	    "that is growth, not thrashing)."),
	KEY("mem_thrashing", "stall", HK_UNIT_PCT_X100, thrash_stall_pct_x100,
	    1000, 0, 10000,
	    "Share of the window one thread spent stalled on memory (delay\n"
	    "accounting: refaults of its working set, swap-in, direct reclaim,\n"
	    "compaction) from which a process is thrashing, even when busy on\n"
	    "the CPU (zram and zswap decompress in the faulting thread). Below\n"
	    "it, a fault storm is a notice, not a warning. 0 %: off."),

	KEY("throttled", "min_throttled", HK_UNIT_PCT_X100, throttled_pct_x100,
	    2500, 100, 10000,
	    "Share of the window its cgroups' CPU quota kept them throttled\n"
	    "(summed over CPUs), and that one of its threads waited for a CPU,\n"
	    "from which a process is throttled."),

	KEY("starved", "min_wait", HK_UNIT_PCT_X100, starved_wait_pct_x100,
	    7000, 100, 10000,
	    "Run-queue wait of one thread, as a share of the window, from which\n"
	    "a process is starved (it must also wait more than it runs). Equal\n"
	    "busy loops sharing a CPU wait 50 % (two), 67 % (three), 75 %\n"
	    "(four) each: the default sits between three and four, clear of\n"
	    "both, so that a fair share is never decided by noise."),

	KEY("noisy_neighbor", "min_cpu", HK_UNIT_PCT_X100, noisy_cpu_pct_x100,
	    5000, 100, 10000,
	    "CPU use, as a share of one CPU, from which the aggressor of a\n"
	    "Starved process is a noisy neighbor."),

	KEY("io_blocked", "min_blocked", HK_UNIT_PCT_X100, io_blocked_pct_x100,
	    5000, 0, 10000,
	    "Time its threads were blocked on I/O, summed, as a share of the\n"
	    "window, from which a process is I/O-blocked: 50 % is one thread\n"
	    "blocked half the time, or two a quarter each. 0 %: off."),

	KEY("cpu_bound", "thread_cpu", HK_UNIT_PCT_X100, cpu_thread_pct_x100,
	    9000, 100, 10000,
	    "Share of the window the busiest thread was on a CPU or waiting for\n"
	    "one, from which it wants a whole CPU."),
	KEY("cpu_bound", "total_cpu", HK_UNIT_PCT_X100, cpu_total_pct_x100,
	    5000, 100, 10000,
	    "CPU the whole process used or waited for, as a share of all CPUs,\n"
	    "from which it is CPU-bound even with no such thread."),
	KEY("cpu_bound", "max_faults_per_s", HK_UNIT_COUNT, cpu_max_faults_per_s,
	    1000, 1, UINT64_MAX,
	    "Page faults per second that the process's RSS growth does not\n"
	    "explain (minor faults beyond its growth, plus major faults) must\n"
	    "stay below this: a compiler that keeps what it computes faults its\n"
	    "new pages in, and that is its work. The human line shows all minor\n"
	    "+ major faults, so it may read more than this."),
	KEY("profile", "duration", HK_UNIT_DURATION_NS, profile_ns, 0, 0, HK_NSEC_PER_HOUR,
	    "How long to profile a process that enters an alarm label; 0s: never."),
	KEY("filter", "pids", HK_UNIT_PID_LIST, filter_pids, 0, 0, 0,
	    "Only these processes (TGIDs as the host sees them), comma-separated."),
	KEY("filter", "comms", HK_UNIT_COMM_LIST, filter_comms, 0, 0, 0,
	    "Only processes with one of these names (the main thread's, as ps\n"
	    "shows it: at most 15 bytes), comma-separated."),
	KEY("filter", "exclude_comms", HK_UNIT_COMM_LIST, exclude_comms, 0, 0, 0,
	    "Never processes with one of these names."),
	KEY("filter", "cgroup", HK_UNIT_PATH, filter_cgroup, 0, 0, 0,
	    "Only processes in this cgroup or below it: a path in the unified\n"
	    "(v2) hierarchy, or on a host whose memory controller is on v1, in\n"
	    "the memory hierarchy (e.g. /system.slice/nginx.service)."),

	KEY("freeze", "on_oom_eta", HK_UNIT_DURATION_S, freeze_eta_s,
	    0, 0, HK_FREEZE_ETA_MAX_S,
	    "Freeze the cgroup of a process in OOM risk whose ETA is below\n"
	    "this: decided when it enters, and again each window its ETA\n"
	    "falls under this while it stays at risk. 0s: never freeze."),
	KEY("freeze", "max", HK_UNIT_DURATION_S, freeze_max_s,
	    HK_FREEZE_MAX_DEFAULT_S, 1, HK_FREEZE_MAX_MAX_S,
	    "How long a cgroup stays frozen at most: then hotspot-k thaws it,\n"
	    "and says so. Long enough to be paged and look (a core, smaps,\n"
	    "kill it); short enough that what was stopped by mistake resumes.\n"
	    "A reload leaves the freezes made before it with their time."),
	KEY_TEXT("freeze", "never", HK_UNIT_PATH_LIST, freeze_never,
		 HK_FREEZE_NEVER_DEFAULT,
	    "Cgroups never frozen: paths in the freezer's hierarchy, each with\n"
	    "the cgroups below it (a service's processes may sit there) and\n"
	    "above it (freezing one freezes it): the log, the bus, logins and\n"
	    "ssh by default, a way in for whoever must look. A slice listed\n"
	    "protects every unit in it. An empty value lists none; the root\n"
	    "cgroup and hotspot-k's own (and its ancestors) are never frozen\n"
	    "whatever it says."),

	KEY("postmortem", "records", HK_UNIT_COUNT, pm_records,
	    HK_PM_RECORDS_DEFAULT, 0, HK_PM_RECORDS_MAX,
	    "Post-mortem files kept: past this many, the oldest is removed.\n"
	    "0: none written."),
	KEY("postmortem", "record_max", HK_UNIT_BYTES, pm_record_bytes,
	    HK_PM_BYTES_DEFAULT, HK_PM_BYTES_MIN, HK_PM_BYTES_MAX,
	    "A post-mortem file's size at most: past it the oldest windows,\n"
	    "then the oldest transitions, then the profile's paths are left\n"
	    "out (the record counts them in left_out)."),
	KEY("budget", "cpu", HK_UNIT_PCT_X100, budget_cpu_pct_x100, 500, 0, 10000,
	    "Own CPU, as a share of one CPU over `span`, above which the tool\n"
	    "gives up a step. make bench (figure 16, 5s windows, unbudgeted):\n"
	    "0.07 % under a fork storm, 1.4 % walking 100k threads, 8.5 %\n"
	    "under an OOM-kill storm; idle, ~0. The default holds the storm,\n"
	    "not a large host's walk at 1s windows or a slow VM's; 1 % is the\n"
	    "fleet's alert. 0 %: no CPU budget."),
	KEY("budget", "rss", HK_UNIT_BYTES, budget_rss_bytes, 0, 0, HK_TIB,
	    "Resident memory above which the tool gives up a step. 0 (the\n"
	    "default): no memory budget. The steps save CPU, not memory: at\n"
	    "16MiB a 6.12 guest's start (libbpf's copy of the kernel's BTF)\n"
	    "shed the hook for good. The RSS is in hotspot_k_own_rss_bytes."),
	KEY("budget", "span", HK_UNIT_DURATION_NS, budget_span_ns, 30 * HK_NSEC_PER_SEC,
	    HK_NSEC_PER_SEC, HK_NSEC_PER_HOUR,
	    "Time over which own CPU is measured (each step starts it anew)."),
};

const size_t hk_nr_keys = ARRAY_SIZE(hk_keys);
_Static_assert(ARRAY_SIZE(hk_keys) <= HK_CONFIG_MAX_KEYS, "raise HK_CONFIG_MAX_KEYS");

/* Keys of earlier versions: a file that sets one is told what replaced it. */
const struct hk_removed_key hk_removed_keys[] = {
	{ "oom_risk", "min_rss", "size alone is no longer a risk: the ETA "
	  "decides (eta_horizon)" },
	{ "oom_risk", "min_rss_of_limit", "size alone is no longer a risk: "
	  "the ETA decides (eta_horizon)" },
	{ "cpu_bound", "max_wait", "waiting for a CPU now counts as wanting "
	  "one (thread_cpu)" },
};

const size_t hk_nr_removed_keys = ARRAY_SIZE(hk_removed_keys);

__u64 hk_key__get(const struct hk_key *k, const struct hk_config *c)
{
	const char *p = (const char *)c + k->off;
	__u32 v32;
	__u64 v64;

	if (k->size == sizeof(v32)) {
		memcpy(&v32, p, sizeof(v32));
		return v32;
	}
	memcpy(&v64, p, sizeof(v64));
	return v64;
}

void hk_key__set(const struct hk_key *k, struct hk_config *c, __u64 v)
{
	char *p = (char *)c + k->off;
	__u32 v32 = (__u32)v;

	if (k->size == sizeof(v32))
		memcpy(p, &v32, sizeof(v32));
	else
		memcpy(p, &v, sizeof(v));
}

void hk_key__print_range(const struct hk_key *k, char *buf, size_t len)
{
	char lo[32], hi[32];

	hk_units__print(lo, sizeof(lo), k->kind, k->min);
	if (k->max == UINT64_MAX) {
		snprintf(buf, len, "at least %s", lo);
		return;
	}
	hk_units__print(hi, sizeof(hi), k->kind, k->max);
	snprintf(buf, len, "%s..%s", lo, hi);
}

const struct hk_key *hk_key__find(const char *section, const char *name)
{
	size_t i;

	for (i = 0; i < hk_nr_keys; i++)
		if (!strcmp(hk_keys[i].section, section) && !strcmp(hk_keys[i].name, name))
			return &hk_keys[i];
	return NULL;
}
