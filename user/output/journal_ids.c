// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * journal_ids.c - one MESSAGE_ID per event kind, fixed for good: a
 * pipeline and journalctl MESSAGE_ID=... select on them, and
 * dist/hotspot-k.catalog explains each (tests/journal/catalog.sh checks
 * the two name the same ids). Made once with a random UUID each, as
 * sd-id128(3) says; never reuse or change one.
 */
#include "format.h"
#include "journal.h"

static const struct {
	const char *id;
	const char *name;	/* NULL: a label's id (labels.c) */
} kinds[HK_NR_JMSG] = {
	[HK_OK]				= { "a202c4c610434e76a4baa2a6d0db9826", NULL },
	[HK_OOM_RISK]			= { "315cec938e5e4354bd6678ab2a605391", NULL },
	[HK_MEM_THRASHING]		= { "8201e04fcdfc40d89100f356b43a62b9", NULL },
	[HK_THROTTLED]			= { "aa11b7ea5f134bd7aba10a787857b01d", NULL },
	[HK_STARVED]			= { "5b3adfa0be4c44a1a18d31c73d3173fb", NULL },
	[HK_NOISY_NEIGHBOR]		= { "e6439dcf82254405aeb817ecd58cd5ac", NULL },
	[HK_IO_BLOCKED]			= { "e298acf4c8ed4a72974b5137b4e686a4", NULL },
	[HK_CPU_BOUND]			= { "626d420b28de459ca8ea54db9dd63143", NULL },
	[HK_MEM_THROTTLED]		= { "15fc3c3d989b4512aa4da5f98bfef64f", NULL },
	[HK_EXITED]			= { "b98b7c48795b41d8953539023db148b7", NULL },
	/* HK_OOM_KILLED: none of its own, a kill is one of the next two */
	[HK_JMSG_OOM_KILL_FLAGGED]	= { "3fdac6b0b7a34b999e7ec07c5293a04f", "oom_kill_flagged" },
	[HK_JMSG_OOM_KILL_MISSED]	= { "5cc30ce36547463fbb146db917b2cda3", "oom_kill_missed" },
	[HK_JMSG_FREEZE]		= { "b566fd39d7fe464aa70864fa9451cda4", "freeze" },
	[HK_JMSG_THAW]			= { "7505a9450a1d488bbbc6fa5a1a9aa0eb", "thaw" },
	[HK_JMSG_PROFILE]		= { "c0825d4de3f04433b5386d4d105792d0", "profile" },
	[HK_JMSG_LINES_HELD]		= { "39f60e6faec5470e80ee6966f007f027", "lines_held" },
	[HK_JMSG_START]			= { "a545b50cabb844edb0fe90a54dbcea53", "start" },
	[HK_JMSG_SUMMARY]		= { "b6d2326cc2014289b98957b619967511", "summary" },
};

const char *hk_jmsg__id(unsigned int kind)
{
	return kind < HK_NR_JMSG ? kinds[kind].id : NULL;
}

const char *hk_jmsg__name(unsigned int kind)
{
	if (kind >= HK_NR_JMSG || !kinds[kind].id)
		return NULL;
	return kinds[kind].name ? kinds[kind].name : hk_label__id(kind);
}

enum hk_jmsg hk_jmsg__of_event(const struct hk_event *e)
{
	if (e->to == HK_OOM_KILLED)
		return e->oom.flagged ? HK_JMSG_OOM_KILL_FLAGGED : HK_JMSG_OOM_KILL_MISSED;
	/* past the labels this build knows: no MESSAGE_ID (hk_jmsg__id NULL) */
	return e->to < HK_NR_LABELS ? (enum hk_jmsg)e->to : HK_NR_JMSG;
}
