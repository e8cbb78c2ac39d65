/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_io.h - the rule that calls a window IO-blocked: its threads
 * slept in I/O wait, and bytes moved or a thread stuck corroborate it.
 * Those shares are taken with the CPU's, from the same per-thread sums, in
 * hk_cpu_shares (classify_cpu.h): a function of their own here changed the
 * BPF object's code.
 */
#ifndef HK_SHARED_CLASSIFY_IO_H
#define HK_SHARED_CLASSIFY_IO_H

#include "hotspot.h"
#include "classify_math.h"	/* HK_INLINE */

/*
 * Blocked on I/O: its threads slept in I/O wait (a disk, a network file
 * system: what the kernel calls iowait) for that share of a thread's
 * window, summed, and the thread blocked longest for a quarter of it
 * (12.5 % at the default 50 %) at least. The sum alone calls a pool of
 * 100 threads each blocked 1 % of the time (a Kafka or Cassandra pool
 * doing healthy synchronous I/O) blocked; scaling the threshold with the
 * thread count instead would miss one thread stuck on a dead disk in a
 * JVM of 60 idle ones, and "blocked longer than it ran" would miss a
 * process with a spinning thread beside a blocked one. The floor lets a
 * handful of threads share the blocking (four waiting 15 % each on one
 * slow disk), never a crowd that each waits a little.
 *
 * And the wait is I/O: its threads moved bytes to or from storage in the
 * window, or one is asleep uninterruptibly in I/O wait now (a device that
 * does not answer: its bytes were counted at submission, windows ago).
 * Since 6.5 an io_uring task waiting for completions with any request in
 * flight (an armed network recv, an accept) sleeps in_iowait, so an idle
 * io_uring network server "waits on I/O" all window: it moved no bytes,
 * and its wait is interruptible. A kernel without task I/O accounting
 * says neither: the wait alone decides there.
 */
HK_INLINE int hk_io_blocked(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	return c->io_blocked_pct_x100 &&
	       ev->io_pct_x100 >= c->io_blocked_pct_x100 &&
	       ev->thread_io_pct_x100 >= c->io_blocked_pct_x100 / 4 &&
	       (!ev->io_bytes_known || ev->io_bytes_per_s || ev->io_stuck_threads);
}

#endif /* HK_SHARED_CLASSIFY_IO_H */
