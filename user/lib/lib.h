/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * lib/ - what every step uses and that knows nothing of BPF or of the
 * diagnoses: bounded text (outbuf.c, escape.c, json_out.c, msg.c), the
 * tool's messages (log.c), values with units (units.c; the kernel half's
 * are include/shared/units.h), the clock (clock.h), growing arrays
 * (grow.h), files root writes where others may (safefile.c, rundir.c), the
 * directories outputs go in (outdir.c), a
 * non-blocking writer (outfd.c), rate limits (ratelimit.c), a process held
 * by its pidfd (pidref.c), who a process is (workload.c, cgroup_id.c),
 * the host's facts (sysinfo.c; the checks before a load are
 * kernel/preflight.c), and the signals that stop the tool
 * (stopguard.c). Include the header you use; this one only says so.
 */
#ifndef HK_USER_LIB_FACE_H
#define HK_USER_LIB_FACE_H

#endif /* HK_USER_LIB_FACE_H */
