// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader_walk.c - the walks this process drives: the iter driver's, on
 * the interval's grid, and the take-over from a timer driver that died or
 * handed over. Apart from the lifecycle because it runs every window of
 * the iter driver, from the event loop.
 */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lib/clock.h"
#include "loader_walk.h"
#include "loader_state.h"

/*
 * One walk by the iter/task program: a new iterator, read to its end. The
 * program writes nothing, so one read() walks every thread (the kernel
 * offers the CPU between threads); over 1 M threads with nothing written
 * it returns EAGAIN and the next read() goes on.
 */
int hk_loader_walk__iter(struct hk_loader *l)
{
	__u64 start_ns = mono_ns(), cpu0_ns = l->stats ? l->stats->walk_cpu_ns_total : 0;
	unsigned int syscalls = 1;
	char buf[4096];
	ssize_t n;
	int fd, e = 0;

	fd = bpf_iter_create(bpf_link__fd(l->iter_link));
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, sizeof(buf));
		syscalls++;
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			e = -errno;
			break;
		}
	} while (n != 0);
	close(fd);
	/* the walk ran in this process's read(): its CPU time is counted
	 * there too, not to be added twice to the tool's cost */
	if (l->stats && l->stats->walk_cpu_ns_total > cpu0_ns)
		l->iter_walk_cpu_ns += l->stats->walk_cpu_ns_total - cpu0_ns;
	l->last.syscalls = syscalls + 1;
	l->last.wall_ns = mono_ns() - start_ns;
	return e;
}

int hk_loader__timeout_ms(const struct hk_loader *l)
{
	__u64 now_ns;

	if (l->driver != HK_DRIVER_ITER)
		return -1;	/* the kernel's timer walks: nothing to do here */
	now_ns = mono_ns();
	if (now_ns >= l->next_walk_ns)
		return 0;
	return (int)((l->next_walk_ns - now_ns + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

int hk_loader__walk_if_due(struct hk_loader *l)
{
	__u64 now_ns;
	int e;

	if (l->driver != HK_DRIVER_ITER)
		return 0;
	now_ns = mono_ns();
	if (now_ns < l->next_walk_ns)
		return 0;
	e = hk_loader_walk__iter(l);
	/*
	 * On the interval's grid; a late walk (the tool was stopped, or
	 * stalled in reclaim) does not make the next ones come in a burst,
	 * nor the next one on the grid close behind it: a window shorter
	 * than a tenth of the interval carries no rate (hk_window_step), and
	 * every process would lose that sample. Half an interval at least.
	 */
	l->next_walk_ns += l->interval_ns;
	if (l->next_walk_ns < now_ns + l->interval_ns / 2)
		l->next_walk_ns = now_ns + l->interval_ns;
	return e;
}

int hk_loader__take_over(struct hk_loader *l)
{
	if (l->driver == HK_DRIVER_ITER)
		return 0;
	/* the timer stays off even if it was only late, not dead: two
	 * drivers must never walk at once */
	l->skel->bss->hk_timer_off = 1;
	/* before any iter walk reads hk_timer_walking (see walk.bpf.h) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	l->driver = HK_DRIVER_ITER;
	l->why = "the kernel's timer stopped";
	l->next_walk_ns = mono_ns();
	return 1;
}

void hk_loader__walk_cost(const struct hk_loader *l, struct hk_walk_cost *first,
			  struct hk_walk_cost *last)
{
	if (first)
		*first = l->first;
	if (last)
		*last = l->last;
}

int hk_loader__handover(struct hk_loader *l, struct hk_handover *out)
{
	if (!l->handover.pending)
		return 0;
	l->handover.pending = 0;
	*out = l->handover;
	return 1;
}
