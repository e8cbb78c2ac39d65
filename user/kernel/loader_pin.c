// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader_pin.c - --pin: the maps and the hook links pinned under a bpffs
 * directory, so that the diagnosis goes on after the tool exits. Apart
 * because only --pin uses it, once, after the start.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader_pin.h"
#include "loader_state.h"

int hk_loader__pin(struct hk_loader *l, const char *dir, char *err, size_t err_len)
{
	/* the OOM kill's too: pinned, it keeps noting kills for `follow` */
	struct bpf_link *links[] = {
		l->hook_link,
		l->skel->links.hk_exit ? l->skel->links.hk_exit : l->skel->links.hk_exit_table,
		l->skel->links.hk_oom_kill, l->skel->links.hk_oom_kill_pid,
		l->skel->links.hk_fork,
	};
	/* the table driver's fork hook: without it, no process born after
	 * the tool exits would be walked; either exit hook as link_hk_exit */
	const char *names[] = { l->hook_prog == l->skel->progs.hk_switch_noarg ?
				"link_hk_switch_noarg" : "link_hk_switch", "link_hk_exit",
				"link_hk_oom_kill", "link_hk_oom_kill_pid", "link_hk_fork" };
	struct hk_config cfg = l->cfg;
	char path[256];
	__u32 zero = 0, i;
	int e;

	if (l->driver == HK_DRIVER_ITER) {
		snprintf(err, err_len, "--pin: driver iter is walked from userspace, which "
			 "--pin leaves: it needs driver table, wq or timer (Linux >= 6.7, "
			 "not PREEMPT_RT)");
		return -1;
	}
	/* nobody reads the ring buffer to take a hand-over: the timer walks
	 * for good, however long it takes */
	cfg.chunk_ns = 0;
	/* nobody updates the tool's own cost either: `status` says none
	 * rather than this process's, frozen at its exit */
	if (l->stats)
		memset((void *)&l->stats->cost, 0, sizeof(l->stats->cost));
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "--pin: cannot write hk_config: %s", strerror(errno));
		return -1;
	}
	l->cfg = cfg;
	e = bpf_object__pin_maps(l->skel->obj, dir);
	if (e) {
		snprintf(err, err_len, "--pin: pinning the maps: %s", strerror(-e));
		return -1;
	}
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (!links[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		e = bpf_link__pin(links[i], path);
		if (e) {
			snprintf(err, err_len, "--pin: pinning %s: %s", names[i], strerror(-e));
			return -1;
		}
	}
	return 0;
}
