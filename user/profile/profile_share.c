// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_share.c - the profile slots' fair shares (profile_share.h).
 */
#include "profile_share.h"

enum hk_prof_share hk_prof_share__admit(const struct hk_prof_holder *h, int n, __u32 owner,
					bool reserved)
{
	int i, used = 0, own = 0;

	for (i = 0; i < n; i++) {
		used += h[i].used;
		own += h[i].used && h[i].owner == owner;
	}
	if (used >= n)
		return HK_PROF_SHARE_FULL;
	if (own >= HK_PROF_PER_UID)
		return HK_PROF_SHARE_OWNER;
	if (!reserved && n - used <= HK_PROF_RESERVED)
		return HK_PROF_SHARE_RESERVE;
	return HK_PROF_SHARE_OK;
}
