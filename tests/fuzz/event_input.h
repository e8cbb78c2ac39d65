/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * event_input.h - the fuzzer's bytes as what a formatter is given: an
 * event (every field, raw), a cgroup path and a format context. The seed
 * generator writes the same struct, so the layout is said once.
 */
#ifndef HK_TESTS_FUZZ_EVENT_INPUT_H
#define HK_TESTS_FUZZ_EVENT_INPUT_H

#include <stddef.h>
#include "output/format.h"

enum fz_event_flags {
	FZ_EV_UTC = 1 << 0,
	FZ_EV_COLOR = 1 << 1,
	FZ_EV_NO_CGROUP = 1 << 2,	/* cgroup NULL */
	/* from and to taken modulo HK_NR_LABELS + 1: random bytes are
	 * almost never a label, and one past the last still tests "unknown" */
	FZ_EV_LABELS = 1 << 3,
	FZ_EV_NO_ETA = 1 << 4,		/* eta_s = HK_ETA_NONE */
	FZ_EV_TZ_SHIFT = 5,		/* bits 5..7: which TZ local times use */
};

/* The input's head, as is; the cgroup path's bytes follow, to the end. */
struct fz_event_in {
	__u8 flags;
	__u8 cgroup_repeat;	/* the path is those bytes this many times + 1 */
	__u8 sweep_seed;	/* which buffer lengths a long line is tried with */
	__u8 pad[5];
	__s64 wall_offset_ns;
	struct hk_event e;
};

/* At most this long a path, repeats included: past HK_FORMAT_CGROUP_MAX. */
#define FZ_CGROUP_CAP (2 * HK_FORMAT_CGROUP_MAX + 7)

struct fz_event {
	struct hk_event e;
	struct hk_format_ctx ctx;
	char *cgroup;		/* NULL, or its own allocation */
	size_t cgroup_len;
	__u8 sweep_seed;
};

/* A short input leaves the rest zero; a NUL ends the path early. */
void fz_event__decode(struct fz_event *fe, const __u8 *data, size_t size);
void fz_event__free(struct fz_event *fe);

#endif /* HK_TESTS_FUZZ_EVENT_INPUT_H */
