/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * table_run.bpf.h - the table driver's work item (>= 6.10): one chunk of
 * the walk (walk_table.bpf.h) a run, queued again until the walk's end.
 * hk_arm_table (hotspot.bpf.c) arms the timer whose tick queues it.
 */
#ifndef HK_BPF_TABLE_RUN_H
#define HK_BPF_TABLE_RUN_H

#include "maps.bpf.h"
#include "walk.bpf.h"
#include "walk_table.bpf.h"

/*
 * The table driver's work item: one chunk of the walk (walk_table.bpf.h);
 * the first begins the walk, the last ends it, every other queues the
 * next. The timer's tick may queue it while a walk is open: that run is
 * the next chunk (one work item: never two at once).
 */

/* Set when the next run is the walk's end alone (not static: see
 * hk_table_open). */
__u32 hk_table_ending;

/* This run's chunk ends here, the next run queued (ending: the walk's end
 * alone). A call: it keeps its lookups off the chunk's stack. */
static __noinline int hk_table_next(__u32 ending)
{
	struct hk_timer_val *v;
	struct hk_stats *st;
	__u32 zero = 0;

	hk_stretch_end(bpf_ktime_get_ns() - hk_tb_start_ns);
	st = hk_st();
	v = bpf_map_lookup_elem(&hk_timer, &zero);
	if (st)
		st->chunks++;
	hk_table_ending = ending;
	if (v && !bpf_wq_start(&v->wq, 0))
		return 0;
	/* no next run: the walk is given up (the next one's begin flushes
	 * what it held), else hk_timer_walking would stay set and keep the
	 * tool's own walk out if its watchdog takes over */
	if (st)
		__sync_fetch_and_add(&st->wq_start_failures, 1);
	hk_table_open = 0;
	hk_table_ending = 0;
	hk_timer_walking = 0;
	return 0;
}

static int hk_table_work(void *map, int *key, void *value)
{
	struct hk_config *c = hk_cfg();

	if (!c)
		return 0;
	hk_tb_start_ns = bpf_ktime_get_ns();
	/* --pin sets chunk_ns 0 (no hand-over to take): 1 ms all the same;
	 * 7/8 of it, the rest for the threads walked between two looks at
	 * the clock (64): no stretch over it */
	hk_tb_budget_ns = c->chunk_ns ? c->chunk_ns : HK_NSEC_PER_MSEC;
	hk_tb_budget_ns -= hk_tb_budget_ns / 8;
	if (hk_table_open && hk_timer_off) {
		/* the tool took over (its watchdog): the walk is its now */
		hk_table_open = 0;
		hk_table_ending = 0;
		hk_timer_walking = 0;
		return 0;
	}
	if (!hk_table_open) {
		/* xchg: a full barrier before hk_timer_off is read */
		__sync_lock_test_and_set(&hk_timer_walking, 1);
		if (hk_timer_off || hk_walk_begin(1)) {
			hk_timer_walking = 0;
			return 0;
		}
		hk_table_open = 1;
		hk_table_ending = 0;
		hk_table_pid = 0;
		hk_table_checked = 0;
		hk_tb_cut_tgid = 0;
		hk_table_audit();
	}
	if (!hk_table_ending && !hk_table_chunk())
		return hk_table_next(0);
	/* the table's end: the walk's end (exits, window, hook gate) in this
	 * run if half the budget is left for it, else in a run of its own */
	if (!hk_table_ending &&
	    bpf_ktime_get_ns() - hk_tb_start_ns > hk_tb_budget_ns / 2)
		return hk_table_next(1);
	hk_table_open = 0;
	hk_table_ending = 0;
	hk_walk_end(HK_DRIVER_TABLE);
	hk_timer_walking = 0;
	hk_stretch_end(bpf_ktime_get_ns() - hk_tb_start_ns);
	return 0;
}

#endif /* HK_BPF_TABLE_RUN_H */
