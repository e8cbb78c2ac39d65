/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * pidref.h - the process an event is about, not whatever holds its PID by
 * the time userspace acts.
 *
 * An event is read from the ring buffer some time after the kernel decided
 * it: the process may have exited and its PID gone to another (a root
 * service, an sshd child). Every act on a PID (a freeze, a profile, the
 * cgroup printed with a line) goes through a pidfd that is checked to be
 * the process that started at the event's start_boottime_ns, and reads
 * from /proc are trusted only if the pidfd still holds the PID after them.
 */
#ifndef HK_USER_PIDREF_H
#define HK_USER_PIDREF_H

#include <stddef.h>
#include <linux/types.h>

struct hk_pidref {
	int pidfd;		/* -1: not open */
	__u32 pid;
};

/*
 * Open pid if it is still the process that started at start_boottime_ns
 * (CLOCK_BOOTTIME, as the kernel keeps it; /proc/PID/stat's field 22 is
 * it in clock ticks). 0; -ESRCH the process is gone; -ESTALE another
 * process holds the PID now; another -errno when it cannot be told (no
 * pidfd_open before 5.3, /proc unreadable): the caller must not act.
 */
int hk_pidref__open(struct hk_pidref *r, __u32 pid, __u64 start_boottime_ns);

/*
 * Whether the PID is still this process's (alive, or a zombie not yet
 * reaped: its PID is not free either). What was read from /proc/PID
 * between open() and a true answer here was this process's.
 */
int hk_pidref__held(const struct hk_pidref *r);

void hk_pidref__close(struct hk_pidref *r);

/* A process's start on CLOCK_BOOTTIME, in clock ticks (/proc/PID/stat
 * field 22); 0 with errno when unreadable. */
unsigned long long hk_pidref__start_ticks(__u32 pid);

/* Why an open failed, for a message: "it exited", "its PID was reused". */
const char *hk_pidref__strerror(int err);

#endif /* HK_USER_PIDREF_H */
