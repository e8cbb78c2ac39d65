/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_share.h - who may take a profile slot (security review 2, L3):
 * at most HK_PROF_PER_UID of them per owner (owner.h: a uid, or a user
 * namespace's owner, so that a user's subordinate uids are that user's),
 * and the last HK_PROF_RESERVED free ones only for root's processes,
 * system services and OOM risk, which other users can otherwise crowd
 * out by making their own, or anyone's, processes Starved.
 */
#ifndef HK_USER_PROFILE_SHARE_H
#define HK_USER_PROFILE_SHARE_H

#include <stdbool.h>
#include <linux/types.h>
#include "shared/profile.h"

/*
 * Profiles of one owner at once, sampled or being written: its real uid
 * (which a process cannot shed the way it can make /proc/PID root's), or
 * its user namespace's owner (owner.h: a user's subordinate uids are
 * that user's). Half the slots, so that one user's processes always leave
 * the other half; the last free one is root's, a system service's or an
 * OOM risk's (below).
 */
#define HK_PROF_PER_UID (HK_PROF_TARGETS / 2)

#define HK_PROF_RESERVED 1

/* a slot, as the rule sees it */
struct hk_prof_holder {
	bool used;
	__u32 owner;
};

enum hk_prof_share {
	HK_PROF_SHARE_OK = 0,
	HK_PROF_SHARE_FULL,	/* every slot is taken */
	HK_PROF_SHARE_OWNER,	/* its owner has HK_PROF_PER_UID */
	HK_PROF_SHARE_RESERVE,	/* only the reserved slots are free */
};

/* May a profile of owner (reserved: root's, a system service's, an OOM
 * risk's) take one of the n slots h? */
enum hk_prof_share hk_prof_share__admit(const struct hk_prof_holder *h, int n, __u32 owner,
					bool reserved);

#endif /* HK_USER_PROFILE_SHARE_H */
