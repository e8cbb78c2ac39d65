// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * driver.c - what the running kernel has, read from its BTF (functions,
 * helpers, the sched_switch tracepoint's arguments), and the driver that
 * walks the tasks chosen from it: wq, timer or iter (driver.h).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "driver.h"
#include "lib/sysinfo.h"

static int kernel_has_func(const struct btf *vmlinux, const char *name)
{
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

/* A BPF helper by its enum bpf_func_id name, e.g. BPF_FUNC_loop: what the
 * kernel has, backports included, rather than what its version suggests. */
static int kernel_has_helper(const struct btf *vmlinux, const char *name)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, i;

	id = btf__find_by_name_kind(vmlinux, "bpf_func_id", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(vmlinux, id) : NULL;
	if (!t)
		return 0;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(vmlinux, e->name_off);

		if (n && !strcmp(n, name))
			return 1;
	}
	return 0;
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

/* mark_victim: 3 since 6.8 (the task, its uid), 2 before (the PID). */
int hk_driver__mark_victim_args(const struct btf *vmlinux)
{
	return tp_args(vmlinux, "btf_trace_mark_victim");
}

/*
 * The driver for this kernel and this machine, or the one asked for if the
 * kernel has what it needs. Above HK_ITER_ABOVE_THREADS threads the iter
 * driver (the kernel offers the CPU between its threads) is chosen even where a timer driver would work: a timer
 * driver's walk is one stretch on a CPU, which grows with the threads.
 */
int hk_driver__choose(const struct btf *vmlinux, enum hk_driver asked, int pin, int as_old,
		      enum hk_driver *driver, const char **why, char *err, size_t err_len)
{
	/* as 5.15 (HOTSPOT_K_AS_5_15): no open-coded iterator, so no timer
	 * driver either, as on that kernel */
	int open_coded = !as_old && kernel_has_func(vmlinux, "bpf_iter_task_new");
	int wq = open_coded && kernel_has_func(vmlinux, "bpf_wq_start");
	__u32 threads = hk_sysinfo__nr_threads();

	switch (asked) {
	case HK_DRIVER_WQ:
		if (!wq) {
			snprintf(err, err_len, "--driver wq: the kernel has no bpf_wq (Linux >= 6.10)");
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
