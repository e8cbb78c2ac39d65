/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * owner.h - whose a process is, for fair shares of what the tool gives out
 * (profile slots, the Prometheus file's series): its real uid, or, in a
 * user namespace, the uid that made the outermost one below ours. A user
 * with /etc/subuid ranges runs processes under many host uids
 * (unshare --map-auto); they are all that user's (security review 2, L3).
 */
#ifndef HK_USER_OWNER_H
#define HK_USER_OWNER_H

#include <linux/types.h>

/*
 * The owner of process pid into *owner: 0, or -errno (-ESRCH: gone). The
 * caller checks that pid is still its process (pidref.h) after the call.
 */
int hk_owner__of(__u32 pid, __u32 *owner);

#endif /* HK_USER_OWNER_H */
