// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * event_input.c - the fuzzer's bytes as an event, a path and a context.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "event_input.h"
#include "fuzz.h"

/*
 * POSIX TZ strings, so that no tzdata is needed: whole-hour, half-hour and
 * 45-minute offsets, summer time, offsets of +-14 h, and an offset in
 * seconds (LMT), which RFC 3339 cannot write.
 */
static const char *const zones[8] = {
	"UTC0", "CET-1CEST,M3.5.0,M10.5.0/3", "IST-5:30", "LMT-0:19:32",
	"NST3:30NDT,M3.2.0,M11.1.0", "XXX-14", "YYY+14", "NPT-5:45",
};

static void use_zone(unsigned int i)
{
	static int current = -1;

	if ((int)i == current)
		return;
	setenv("TZ", zones[i], 1);
	tzset();
	current = (int)i;
}

void fz_event__decode(struct fz_event *fe, const __u8 *data, size_t size)
{
	struct fz_event_in in;
	size_t tail = 0, n, i;
	const char *path = "";

	memset(&in, 0, sizeof(in));
	memcpy(&in, data, size < sizeof(in) ? size : sizeof(in));
	memset(fe, 0, sizeof(*fe));
	fe->e = in.e;
	fe->ctx.wall_offset_ns = in.wall_offset_ns;
	fe->ctx.utc = !!(in.flags & FZ_EV_UTC);
	fe->ctx.color = !!(in.flags & FZ_EV_COLOR);
	fe->sweep_seed = in.sweep_seed;
	if (in.flags & FZ_EV_LABELS) {
		fe->e.from %= HK_NR_LABELS + 1;
		fe->e.to %= HK_NR_LABELS + 1;
	}
	if (in.flags & FZ_EV_NO_ETA)
		fe->e.ev.eta_s = (__u64)HK_ETA_NONE;
	use_zone(in.flags >> FZ_EV_TZ_SHIFT);

	if (in.flags & FZ_EV_NO_CGROUP)
		return;
	if (size > sizeof(in)) {
		path = (const char *)data + sizeof(in);
		tail = strnlen(path, size - sizeof(in));
	}
	n = tail * (in.cgroup_repeat + 1U);
	if (n > FZ_CGROUP_CAP)
		n = FZ_CGROUP_CAP;
	fe->cgroup = malloc(n + 1);
	FZ_CHECK(fe->cgroup, "out of memory");
	for (i = 0; i < n; i++)
		fe->cgroup[i] = path[i % tail];
	fe->cgroup[n] = '\0';
	fe->cgroup_len = n;
}

void fz_event__free(struct fz_event *fe)
{
	free(fe->cgroup);
	fe->cgroup = NULL;
}
