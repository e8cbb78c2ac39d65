/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile_write.h - a profile's counts out of the BPF maps, named, and
 * written as folded stacks and an SVG flame graph.
 */
#ifndef HK_USER_PROFILE_WRITE_H
#define HK_USER_PROFILE_WRITE_H

#include <stddef.h>
#include <time.h>
#include "profiler.h"

struct profile_bpf;

/* A process's names for its addresses, taken at the profile's start (a
 * process that exits takes its /proc/PID/maps with it). */
struct hk_profile_syms;

struct hk_profile_syms *hk_profile_syms__open(__u32 pid, char *err, size_t err_len);
void hk_profile_syms__close(struct hk_profile_syms *s);
/* Its name as of the start (/proc/PID/comm), the PID when unreadable. */
const char *hk_profile_syms__comm(const struct hk_profile_syms *s);

/*
 * The directory profiles are written into, path (the same the prefixes
 * start with): opened, checked and tried once (outdir.h), and kept open;
 * opening it again replaces it. 0, or -1 with one line in err (a
 * directory its group or others can write without the sticky bit, one
 * where no file can be created); warn[0] set when it is accepted with a
 * warning (another user owns it).
 */
int hk_profile__dir_open(const char *path, char *warn, size_t warn_len, char *err,
			 size_t err_len);

/* "DIR/hotspot-k.PID.LABEL.20261123T073400Z"; snprintf's return. */
int hk_profile__prefix(char *buf, size_t len, const char *dir, __u32 pid,
		       const char *label, time_t when);

/* Take r->pid's counts out of the maps (they are deleted) and write
 * r->prefix + ".folded" and ".svg" (mode 0640), both or neither, into the
 * directory hk_profile__dir_open() opened; fills the rest of r. */
void hk_profile__write(struct profile_bpf *skel, struct hk_profile_syms *syms,
		       struct hk_profile_result *r);

#endif /* HK_USER_PROFILE_WRITE_H */
