// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * json_out.c - the members of a JSON object (see json_out.h).
 */
#include "escape.h"
#include "json_out.h"

void hk_json__u64(struct hk_out *o, const char *key, __u64 v)
{
	hk_out__printf(o, ",\"%s\":%llu", key, (unsigned long long)v);
}

void hk_json__s64(struct hk_out *o, const char *key, __s64 v)
{
	hk_out__printf(o, ",\"%s\":%lld", key, (long long)v);
}

void hk_json__bool(struct hk_out *o, const char *key, bool v)
{
	hk_out__printf(o, ",\"%s\":%s", key, v ? "true" : "false");
}

void hk_json__pct(struct hk_out *o, const char *key, __u32 pct_x100)
{
	hk_out__printf(o, ",\"%s\":%u.%02u", key, pct_x100 / 100, pct_x100 % 100);
}

void hk_json__milli(struct hk_out *o, const char *key, __u64 v)
{
	hk_out__printf(o, ",\"%s\":%llu.%03llu", key, (unsigned long long)v / 1000,
		       (unsigned long long)v % 1000);
}

void hk_json__peer(struct hk_out *o, const char *name, __u32 pid, const char *comm)
{
	if (!pid) {
		hk_out__printf(o, ",\"%s_pid\":null,\"%s_comm\":null", name, name);
		return;
	}
	hk_out__printf(o, ",\"%s_pid\":%u,\"%s_comm\":", name, pid, name);
	if (comm)
		hk_out__json_str(o, comm, hk_comm__len(comm));
	else
		hk_out__str(o, "null");
}
