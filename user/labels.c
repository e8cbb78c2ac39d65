// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * labels.c - the names of the diagnoses and of the memory limits, for
 * people and for machines.
 */
#include "format.h"

struct label_desc {
	const char *id;
	const char *name;
	const char *sgr;
};

static const struct label_desc labels[HK_NR_LABELS] = {
	[HK_OK]			= { "ok", "OK", "\033[32m" },
	[HK_OOM_RISK]		= { "oom_risk", "OOM risk", "\033[1;31m" },
	[HK_MEM_THRASHING]	= { "mem_thrashing", "Mem-thrashing", "\033[35m" },
	[HK_THROTTLED]		= { "throttled", "Throttled", "\033[34m" },
	[HK_STARVED]		= { "starved", "Starved", "\033[33m" },
	[HK_NOISY_NEIGHBOR]	= { "noisy_neighbor", "Noisy neighbor", "\033[36m" },
	[HK_CPU_BOUND]		= { "cpu_bound", "CPU-bound", "\033[31m" },
	[HK_EXITED]		= { "exited", "exited", "\033[2m" },
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

const char *hk_limit__name(__u32 kind, bool human)
{
	if (kind == HK_LIMIT_RAM)
		return human ? "RAM" : "ram";
	if (kind == HK_LIMIT_MEMCG)
		return "memcg";
	return "unknown";
}
