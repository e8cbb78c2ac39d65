/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * json_out.h - one member of a JSON object, ,"KEY":VALUE, appended to a
 * struct hk_out: numbers with their unit in the key. Shared by a
 * transition's line (output/json.c) and `hotspot-k status --json`
 * (status/json.c), so that the same key has the same form in both.
 */
#ifndef HK_USER_JSON_OUT_H
#define HK_USER_JSON_OUT_H

#include <stdbool.h>
#include "outbuf.h"
#include "shared/hotspot.h"

void hk_json__u64(struct hk_out *o, const char *key, __u64 v);
void hk_json__s64(struct hk_out *o, const char *key, __s64 v);
void hk_json__bool(struct hk_out *o, const char *key, bool v);
/* Hundredths of a percent as a JSON number: 9712 -> 97.12. */
void hk_json__pct(struct hk_out *o, const char *key, __u32 pct_x100);
/* Thousandths as a JSON number with three decimals: 12345 -> 12.345. */
void hk_json__milli(struct hk_out *o, const char *key, __u64 v);
/*
 * "NAME_pid":N,"NAME_comm":"..." (comm an HK_COMM_LEN array; NULL: a null
 * comm), or both null when pid is 0.
 */
void hk_json__peer(struct hk_out *o, const char *name, __u32 pid, const char *comm);

#endif /* HK_USER_JSON_OUT_H */
