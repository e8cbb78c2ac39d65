// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * labels.c - the names of the diagnoses, of the memory limits and of the
 * walk drivers, for people and for machines.
 */
#include "format.h"
#include "shared/classify.h"

struct label_desc {
	const char *id;
	const char *name;
	const char *sgr;
	int priority;		/* syslog(3)'s, of a transition into it */
};

/*
 * Priorities: every alarm is a warning, so that `journalctl -p warning`
 * shows exactly those; CPU-bound is a notice (a batch job is CPU-bound by
 * design); leaving a label is news, not trouble.
 */
static const struct label_desc labels[HK_NR_LABELS] = {
	[HK_OK]			= { "ok", "OK", "\033[32m", 6 },
	[HK_OOM_RISK]		= { "oom_risk", "OOM risk", "\033[1;31m", 4 },
	[HK_MEM_THRASHING]	= { "mem_thrashing", "Mem-thrashing", "\033[35m", 4 },
	[HK_THROTTLED]		= { "throttled", "Throttled", "\033[34m", 4 },
	[HK_STARVED]		= { "starved", "Starved", "\033[33m", 4 },
	[HK_NOISY_NEIGHBOR]	= { "noisy_neighbor", "Noisy neighbor", "\033[36m", 4 },
	[HK_IO_BLOCKED]		= { "io_blocked", "I/O-blocked", "\033[94m", 4 },
	[HK_CPU_BOUND]		= { "cpu_bound", "CPU-bound", "\033[31m", 5 },
	[HK_MEM_THROTTLED]	= { "mem_throttled", "Mem-throttled", "\033[95m", 4 },
	[HK_EXITED]		= { "exited", "exited", "\033[2m", 6 },
	[HK_OOM_KILLED]		= { "oom_killed", "OOM killed", "\033[1;31m", 3 },
};

const char *hk_label__id(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].id : "unknown";
}

const char *hk_label__name(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].name : "unknown";
}

const char *hk_label__sgr(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].sgr : "";
}

int hk_label__priority(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].priority : 4;
}

/*
 * A Starved process whose waiting thread asked for less (nice 19,
 * SCHED_IDLE, cpu.idle, a low cpu.weight) gets what it asked for, and so
 * does its Noisy neighbor: news, not trouble (review finding 3).
 */
int hk_event__priority(const struct hk_event *e)
{
	if ((e->to == HK_STARVED && hk_deprio(&e->ev)) ||
	    (e->to == HK_NOISY_NEIGHBOR && e->ev.victim_deprioritised))
		return 5;
	/* a fault storm with no memory stall (copy-on-write after a fork,
	 * NUMA hinting, allocator churn): worth knowing, not a page (#19) */
	if (e->to == HK_MEM_THRASHING && !e->ev.thrash_stalled)
		return 5;
	/* the kill was announced: the error was the missed one */
	if (e->to == HK_OOM_KILLED && e->oom.flagged)
		return 4;
	return hk_label__priority(e->to);
}

const char *hk_policy__name(__u32 policy)
{
	switch (policy) {
	case HK_SCHED_NORMAL:
		return "normal";
	case HK_SCHED_FIFO:
		return "fifo";
	case HK_SCHED_RR:
		return "rr";
	case HK_SCHED_BATCH:
		return "batch";
	case HK_SCHED_IDLE:
		return "idle";
	case HK_SCHED_DEADLINE:
		return "deadline";
	case HK_SCHED_EXT:
		return "ext";
	default:
		return NULL;
	}
}

const char *hk_limit__name(__u32 kind, bool human)
{
	if (kind == HK_LIMIT_RAM)
		return human ? "RAM" : "ram";
	if (kind == HK_LIMIT_MEMCG)
		return "memcg";
	if (kind == HK_LIMIT_HOST)
		return "host";
	return "unknown";
}

const char *hk_source__name(__u32 sampled, __u32 bit)
{
	return sampled & bit ? "sampled" : "delayacct";
}

const char *hk_driver__name(enum hk_driver d)
{
	switch (d) {
	case HK_DRIVER_WQ:
		return "wq";
	case HK_DRIVER_TIMER:
		return "timer";
	case HK_DRIVER_ITER:
		return "iter";
	case HK_DRIVER_TABLE:
		return "table";
	default:
		return "none";
	}
}

/* The stall ledger's causes (enum hk_stall_cause) and their resources. */
static const char *const stall_causes[HK_STALL_NR] = {
	[HK_STALL_NEIGHBOR] = "neighbor",
	[HK_STALL_SELF] = "self",
	[HK_STALL_QUOTA] = "quota",
	[HK_STALL_STEAL_IRQ] = "steal_irq",
	[HK_STALL_WEIGHT] = "weight",
	[HK_STALL_RECLAIM] = "reclaim",
	[HK_STALL_SWAPIN] = "swapin",
	[HK_STALL_REFAULT] = "refault",
	[HK_STALL_IO] = "io",
};

const char *hk_stall__cause(__u32 cause)
{
	return cause < HK_STALL_NR ? stall_causes[cause] : "unknown";
}

const char *hk_stall__resource(__u32 cause)
{
	if (cause < HK_STALL_CPU_NR)
		return "cpu";
	return cause == HK_STALL_IO ? "io" : cause < HK_STALL_NR ? "memory" : "unknown";
}
