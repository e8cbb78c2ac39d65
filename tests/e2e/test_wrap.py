# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The iter driver after the PID counter wrapped (review finding 8).

A process adds a thread after its busy one, with kernel.ns_last_pid set
below its TGID first: its newest thread (the end of its thread list) then
has the lowest TID, and the iter/task walk, which goes by TID, meets it
first. The process must still be summed whole, the busy thread's own
evidence and the votes for its aggressor included:

- alone: CPU-bound, with thread_cpu_pct >= the per-thread threshold and
  thread_tid the busy thread (on 2 CPUs the ">= 50 % of all CPUs" rule would
  call it CPU-bound on its total alone: the evidence is what shows);
- at nice 19 beside a loop on one CPU: Starved with its aggressor named,
  and the loop a Noisy neighbor;
and no sample skipped window after window (hk_stats samples_skipped).

Also (review finding 16): the tool takes the walk over from a timer driver
whose walk is still running (a wq walk preempted past the watchdog's 3
intervals): no iter walk may begin until it ends, or two walks share one
cursor.
"""

import os
import signal
import time

from hk_e2e.bpf import bss_set_u32

from hk_e2e.checks import check_history, dflt, evidence, expect_enter
from hk_e2e.common import ENTER_WINDOWS, HOLD_WINDOWS
from hk_e2e.procs import TestFailure, harness_off_cpu0, workload_alive
from hk_e2e.tool import Tool

NS_LAST_PID = "/proc/sys/kernel/ns_last_pid"

# one session for both (see test_seed.PAIR_SH: autogroup); hkload's "ready"
# goes nowhere, so that only the PIDs come on the pipe
PAIR_SH = """\
taskset -c 0 "$1" spin >/dev/null &
echo $!
taskset -c 0 nice -n 19 "$1" latethread >/dev/null &
echo $!
wait
"""


def tids_of(pid):
    try:
        return sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))
    except OSError:
        return []


def wait_threads(ctx, p, n, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while len(tids_of(p.pid)) < n:
        workload_alive(ctx, p)
        if time.monotonic() > deadline:
            raise TestFailure("pid %d never had %d threads (has %s)" %
                              (p.pid, n, tids_of(p.pid)))
        time.sleep(0.05)
    return tids_of(p.pid)


def add_low_thread(ctx, p):
    """The busy thread exists; a new thread gets a TID below the TGID.
    Returns (busy TID, late TID)."""
    before = wait_threads(ctx, p, 2)
    busy = max(before)
    # not below 300: the kernel's cyclic allocation never hands those out
    # again; the counter goes on from there, nothing else is changed
    with open(NS_LAST_PID, "w") as f:
        f.write("%d" % max(300, p.pid - 200))
    os.kill(p.pid, signal.SIGUSR1)
    after = wait_threads(ctx, p, 3)
    late = [t for t in after if t not in before][0]
    if late >= p.pid:
        raise TestFailure("the new thread's TID %d is not below the TGID %d "
                          "(ns_last_pid did not take)" % (late, p.pid))
    return busy, late


def skipped_over(tool, windows):
    """samples_skipped's rise over the next `windows` windows."""
    s0 = int(tool.stats().get("samples_skipped", 0))
    tool.wait_windows(windows)
    return int(tool.stats().get("samples_skipped", 0)) - s0


def t_wrap_cpu_bound(suite, ctx):
    p = ctx.workload("late", [ctx.hkload, "latethread"])
    busy, late = add_low_thread(ctx, p)
    tool = Tool(ctx, "wrap_cpu_bound", extra=["--driver", "iter"])
    tool.wait_ready()
    w0 = tool.windows()
    want = dflt("cpu_bound.thread_cpu")
    expect_enter(suite, tool, "wrap_cpu_bound", p, "cpu_bound", ENTER_WINDOWS, w0,
                 extra=lambda o: evidence(
                     o.get("thread_cpu_pct", 0) >= want and o.get("thread_tid") == busy,
                     "want thread_cpu_pct >= %g and thread_tid %d (the busy thread; "
                     "TIDs: leader %d, busy %d, late %d)" % (want, busy, p.pid, busy, late)))
    skipped = skipped_over(tool, HOLD_WINDOWS + 1)
    workload_alive(ctx, p)
    check_history(tool, p.pid, "late", {("ok", "cpu_bound")})
    if skipped > 1:
        raise TestFailure("samples_skipped rose by %d in %d windows: the process is not "
                          "closed whole" % (skipped, HOLD_WINDOWS + 1))
    ctx.record("wrap_cpu_bound", True, "TIDs late %d < leader %d < busy %d: CPU-bound on "
               "the busy thread, %d samples skipped in %d windows" %
               (late, p.pid, busy, skipped, HOLD_WINDOWS + 1))


def t_wrap_starved(suite, ctx):
    # the pair is on CPU 0: keep this harness off it (as test_seed does)
    with harness_off_cpu0():
        wrap_starved(suite, ctx)


def wrap_starved(suite, ctx):
    aggr, vict = ctx.workload_pair("wrap", PAIR_SH, ["aggressor", "victim"], [ctx.hkload])
    busy, late = add_low_thread(ctx, vict)
    tool = Tool(ctx, "wrap_starved", extra=["--driver", "iter"])
    tool.wait_ready()
    w0 = tool.windows()
    expect_enter(suite, tool, "wrap_starved", vict, "starved", ENTER_WINDOWS, w0,
                 extra=lambda o: evidence(
                     o.get("aggressor_pid") == aggr.pid,
                     "want aggressor_pid %d (TIDs: leader %d, busy %d, late %d)" %
                     (aggr.pid, vict.pid, busy, late)))
    expect_enter(suite, tool, "wrap_noisy", aggr, "noisy_neighbor", ENTER_WINDOWS, w0,
                 extra=lambda o: evidence(o.get("victim_pid") == vict.pid,
                                          "want victim_pid %d" % vict.pid))
    skipped = skipped_over(tool, HOLD_WINDOWS + 1)
    workload_alive(ctx, vict)
    workload_alive(ctx, aggr)
    if skipped > 1:
        raise TestFailure("samples_skipped rose by %d in %d windows: the process is not "
                          "closed whole" % (skipped, HOLD_WINDOWS + 1))
    ctx.record("wrap_starved", True, "TIDs late %d < leader %d < busy %d: Starved by %d, "
               "which is its Noisy neighbor; %d samples skipped in %d windows" %
               (late, vict.pid, busy, aggr.pid, skipped, HOLD_WINDOWS + 1))


def t_walk_in_progress(suite, ctx):
    tool = Tool(ctx, "walk_in_progress")
    tool.wait_ready()
    if "driver iter" in tool.stderr_text():
        ctx.note("walk_in_progress: the tool chose the iter driver at start: no timer "
                 "walk to overlap")
        return
    # a timer walk that began and has not ended, and a timer that stopped
    bss_set_u32(tool.map_ids, "hk_timer_walking", 1)
    bss_set_u32(tool.map_ids, "hk_timer_off", 1)
    t0 = time.monotonic()
    while "no window for 3 intervals" not in tool.stderr_text():
        if time.monotonic() - t0 > 8:
            raise TestFailure("no take-over 8 s after the timer stopped; stderr:\n%s" %
                              tool.stderr_text())
        tool.check_alive()
        time.sleep(0.2)
    w0 = tool.windows()
    time.sleep(3)
    w1 = tool.windows()
    if w1 != w0:
        raise TestFailure("the tool walked (windows %d -> %d in 3 s) while a timer walk "
                          "was still in progress" % (w0, w1))
    bss_set_u32(tool.map_ids, "hk_timer_walking", 0)
    tool.wait_windows(2, since=w1)
    ctx.record("walk_in_progress", True, "taken over: no window in 3 s while the timer "
               "walk ran, then %d" % (tool.windows() - w1))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("wrap_cpu_bound", t_wrap_cpu_bound, 60, True),
    ("wrap_starved", t_wrap_starved, 60, True),
    ("walk_in_progress", t_walk_in_progress, 40),
]
