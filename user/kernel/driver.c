// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * driver.c - what the running kernel has, read from its BTF (functions,
 * helpers, the sched_switch tracepoint's arguments), and the driver that
 * walks the tasks chosen from it: wq, table, timer or iter (driver.h).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "driver.h"
#include "kernel/preflight.h"
#include "kfields.h"
#include "lib/sysinfo.h"

static int kernel_has_func(const struct btf *vmlinux, const char *name)
{
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

/* A BPF helper by its enum bpf_func_id name, e.g. BPF_FUNC_loop: what the
 * kernel has, backports included, rather than what its version suggests. */
static int kernel_has_helper(const struct btf *vmlinux, const char *name)
{
	return hk_kfields__has_enum_value(vmlinux, "bpf_func_id", name);
}

/*
 * Arguments of a tracepoint, the context included, from its btf_trace_NAME
 * typedef: a pointer to the tracepoint's function prototype. -1: none.
 */
static int tp_args(const struct btf *vmlinux, const char *typedef_name)
{
	const struct btf_type *t;
	int id;

	id = btf__find_by_name_kind(vmlinux, typedef_name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(vmlinux, id);
	t = t ? btf__type_by_id(vmlinux, t->type) : NULL;
	if (!t || !btf_is_ptr(t))
		return -1;
	t = btf__type_by_id(vmlinux, t->type);
	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

/* sched_switch: 5 since 5.18 (prev_state), 4 before. */
int hk_driver__sched_switch_args(const struct btf *vmlinux)
{
	return tp_args(vmlinux, "btf_trace_sched_switch");
}

/* mark_victim: 3 since 6.8 and in 6.1.y since March 2025 (the task, its
 * uid; 72ba14deb40a backported), 2 before (the PID). */
int hk_driver__mark_victim_args(const struct btf *vmlinux)
{
	return tp_args(vmlinux, "btf_trace_mark_victim");
}

/*
 * The driver for this kernel and this machine, or the one asked for if the
 * kernel has what it needs. Above HK_ITER_ABOVE_THREADS threads a walk in
 * one stretch on a CPU (wq, timer) holds it too long: there the table
 * driver, whose walk is cut in chunks of 1 ms (>= 6.10; under --pin
 * always, whose walk nobody would take over), else the iter driver (the
 * kernel offers the CPU between its threads). The table keeps a reference
 * to each process's leader, so it costs less than iter whatever the
 * threads a process (make bench figure 3, 10000 x 1: ~500 vs ~750 ns a
 * thread). Below, wq: its one-stretch walk is short there and costs less
 * per process (1000 x 1: ~400 vs ~600 ns a thread; 100 x 10: ~290 vs
 * ~360), and no fork hook runs on every fork.
 */
int hk_driver__choose(const struct btf *vmlinux, enum hk_driver asked, int pin, int as_old,
		      enum hk_driver *driver, const char **why, char *err, size_t err_len)
{
	/* as 5.15 (HOTSPOT_K_AS_5_15): no open-coded iterator, so no timer
	 * driver either, as on that kernel */
	int open_coded = !as_old && kernel_has_func(vmlinux, "bpf_iter_task_new");
	int wq = open_coded && kernel_has_func(vmlinux, "bpf_wq_start");
	/* PREEMPT_RT: the verifier refuses bpf_timer ("bpf_timer cannot be
	 * used for PREEMPT_RT", process_timer_func), which arms both timer
	 * drivers' windows: Debian's 6.12.117-rt loaded nothing by default */
	int rt = hk_preflight__preempt_rt(NULL);
	__u32 threads = hk_sysinfo__nr_threads();

	/* the table driver: bpf_wq, references to tasks kept in a map (their
	 * release, the map's destructor), and a leader by its PID where a
	 * slot is another's */
	int table = wq && kernel_has_func(vmlinux, "bpf_task_acquire") &&
		    kernel_has_func(vmlinux, "bpf_task_release") &&
		    kernel_has_func(vmlinux, "bpf_task_from_pid");

	switch (asked) {
	case HK_DRIVER_WQ:
	case HK_DRIVER_TIMER:
	case HK_DRIVER_TABLE:
		if (rt && open_coded) {
			snprintf(err, err_len, "--driver %s: the kernel has no BPF timers under "
				 "PREEMPT_RT (its verifier refuses bpf_timer): --driver iter",
				 asked == HK_DRIVER_WQ ? "wq" :
				 asked == HK_DRIVER_TABLE ? "table" : "timer");
			return -1;
		}
		break;
	default:
		break;
	}
	switch (asked) {
	case HK_DRIVER_WQ:
		if (!wq) {
			snprintf(err, err_len, "--driver wq: the kernel has no bpf_wq (Linux >= 6.10)");
			return -1;
		}
		*why = "asked for";
		break;
	case HK_DRIVER_TABLE:
		if (!table) {
			snprintf(err, err_len, "--driver table: the kernel has no bpf_wq (Linux "
				 ">= 6.10) or no task kfuncs (bpf_task_acquire, bpf_task_from_pid)");
			return -1;
		}
		*why = "asked for";
		break;
	case HK_DRIVER_TIMER:
		if (!open_coded) {
			snprintf(err, err_len,
				 "--driver timer: the kernel has no open-coded task iterator (Linux >= 6.7)");
			return -1;
		}
		*why = "asked for";
		break;
	case HK_DRIVER_ITER:
		*why = "asked for";
		break;
	default:
		if (!open_coded) {
			*driver = HK_DRIVER_ITER;
			*why = "no open-coded task iterator before Linux 6.7";
		} else if (rt) {
			*driver = HK_DRIVER_ITER;
			*why = "PREEMPT_RT: no BPF timers";
		} else if (table && (pin || threads > HK_ITER_ABOVE_THREADS)) {
			*driver = HK_DRIVER_TABLE;
			*why = pin ? "--pin on Linux >= 6.10: a walk in 1 ms chunks" :
				     "many threads on Linux >= 6.10: a walk in 1 ms chunks";
		} else if (threads > HK_ITER_ABOVE_THREADS && !pin) {
			*driver = HK_DRIVER_ITER;
			*why = "many threads: a walk that offers the CPU between threads";
		} else if (wq) {
			*driver = HK_DRIVER_WQ;
			*why = "Linux >= 6.10";
		} else {
			*driver = HK_DRIVER_TIMER;
			*why = "no bpf_wq before Linux 6.10";
		}
		return 0;
	}
	*driver = asked;
	return 0;
}

int hk_driver__has_loop(const struct btf *vmlinux)
{
	return kernel_has_helper(vmlinux, "BPF_FUNC_loop");
}

/*
 * What every driver needs, by what the kernel has rather than its version:
 * RHEL 9's 5.14 carries them backported (review kernel-2, finding 11).
 * The newest of them upstream: bpf_for_each_map_elem, 5.13; what only
 * some drivers or kernels have (bpf_loop, the open-coded iterator,
 * bpf_wq, the 5-argument sched_switch) is chosen around, not required.
 */
int hk_driver__check_features(const struct btf *vmlinux, const char *release, char *err,
			      size_t err_len)
{
	static const struct {
		int kind;		/* BTF_KIND_ENUM: a helper's bpf_func_id */
		const char *name;
		const char *what;
		const char *since;
	} needs[] = {
		{ BTF_KIND_TYPEDEF, "btf_trace_sched_switch", "BTF tracepoints (tp_btf)", "5.5" },
		{ BTF_KIND_ENUM, "BPF_FUNC_probe_read_kernel", "bpf_probe_read_kernel", "5.5" },
		{ BTF_KIND_STRUCT, "bpf_iter__task", "the task iterator (iter/task)", "5.8" },
		{ BTF_KIND_ENUM, "BPF_FUNC_ringbuf_reserve", "the BPF ring buffer", "5.8" },
		{ BTF_KIND_ENUM, "BPF_FUNC_task_storage_get", "task storage", "5.11" },
		{ BTF_KIND_ENUM, "BPF_FUNC_get_current_task_btf", "bpf_get_current_task_btf",
		  "5.11" },
		{ BTF_KIND_ENUM, "BPF_FUNC_for_each_map_elem", "bpf_for_each_map_elem", "5.13" },
	};
	size_t i;
	int has;

	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		has = needs[i].kind == BTF_KIND_ENUM ?
		      kernel_has_helper(vmlinux, needs[i].name) :
		      btf__find_by_name_kind(vmlinux, needs[i].name, needs[i].kind) > 0;
		if (has)
			continue;
		snprintf(err, err_len, "kernel %s lacks %s: no %s in its BTF (Linux >= %s, or a "
			 "vendor kernel with it backported)", release, needs[i].what,
			 needs[i].name, needs[i].since);
		return -1;
	}
	return 0;
}
