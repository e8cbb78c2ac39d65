# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""I/O: blocked on a disk, and sleeps that are not I/O.

- a reader of 1 MiB O_DIRECT blocks, back to back, on a real disk sleeps in
  I/O wait most of the time (87 % measured here, CPU 12 %): I/O-blocked,
  with that share and its thread named;
- beside it, a process napping 1 ms at a time in nanosleep and ppoll
  (interruptible sleep) and a vfork parent waiting for its child
  (uninterruptible sleep, not on I/O) are never flagged, and show no I/O
  wait at all;
- delay accounting, which the signal comes from, is on while the tool runs
  and back to what it was once it exits. Switched on at run time it reaches
  only processes started after it: this reader starts after the tool;
  test_preexisting.py starts its workloads first (sampled instead).
"""

import os

from hk_e2e.checks import check_history, dflt, evidence, expect_enter, run_cli
from hk_e2e.common import ENTER_WINDOWS, HOLD_WINDOWS
from hk_e2e.procs import Disturbed, TestFailure, workload_alive
from hk_e2e.tool import Tool

DELAYACCT = "/proc/sys/kernel/task_delayacct"
# a disk, not a tmpfs: O_DIRECT needs one (and /tmp may be a tmpfs)
DIO_DIR = "/var/tmp"


def read_switch():
    with open(DELAYACCT) as f:
        return f.read().strip()


def write_switch(v):
    with open(DELAYACCT, "w") as f:
        f.write(v)


def put_back(found, path):
    """What an I/O test changed: the delay-accounting switch, its data file."""
    write_switch(found)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def t_io_blocked(suite, ctx):
    if not os.path.exists(DELAYACCT):
        raise TestFailure("%s missing: this kernel has no delay accounting switch" % DELAYACCT)
    found = read_switch()
    # the case that matters: the tool finds it off, and must put it back off
    write_switch("0")
    path = os.path.join(DIO_DIR, "hk-e2e-dio.%d.bin" % os.getpid())
    try:
        tool = Tool(ctx, "io_blocked")
        tool.wait_ready()
        if read_switch() != "1":
            raise TestFailure("delay accounting is %s while the tool runs, want 1" %
                              read_switch())
        w0 = tool.windows()
        dio = ctx.workload("dio", [ctx.hkload, "dio", "--file", path])
        nap = ctx.workload("nap", [ctx.hkload, "nap"])
        vfw = ctx.workload("vforkwait", [ctx.hkload, "vforkwait"])
        need = dflt("io_blocked.min_blocked")
        t, o = expect_enter(suite, tool, "io_blocked", dio, "io_blocked",
                            ENTER_WINDOWS + 3, w0,
                            extra=lambda o: evidence(
                                o.get("io_blocked_pct", 0) >= need and
                                o.get("io_blocked_tid") == dio.pid and
                                o.get("thread_io_blocked_pct", 0) >= need,
                                "want io_blocked_pct and thread_io_blocked_pct >= %g, "
                                "io_blocked_tid %d" % (need, dio.pid)))
        wd = tool.windows() - w0
        tool.wait_windows(HOLD_WINDOWS)
        for p in (dio, nap, vfw):
            workload_alive(ctx, p)
        check_history(tool, dio.pid, "O_DIRECT reader", {("ok", "io_blocked")})
        for p, who in ((nap, "nanosleep/ppoll napper"), (vfw, "vfork parent")):
            check_history(tool, p.pid, who, set())
            e = tool.proc_entry(p.pid)
            if not e:
                raise TestFailure("%s (pid %d) is not in hk_procs" % (who, p.pid))
            io = e["ev"]["io_pct_x100"]
            if io != 0:
                raise TestFailure("%s (pid %d) shows %d.%02d %% I/O wait, want 0: a sleep "
                                  "that is not I/O was counted" % (who, p.pid, io // 100,
                                                                   io % 100))
        rc = tool.stop()
        if rc != 0:
            raise TestFailure("the tool exited %s, want 0" % rc)
        if read_switch() != "0":
            raise TestFailure("delay accounting is %s after the tool exited, want 0 "
                              "(as it found it)" % read_switch())
        ctx.detected("io_blocked", t - dio.hk_started, wd)
        ctx.note("O_DIRECT reader: io_blocked_pct %.2f, cpu_pct %.2f at entry" %
                 (o.get("io_blocked_pct", 0), o.get("cpu_pct", 0)))
    finally:
        put_back(found, path)


def t_io_pool(suite, ctx):
    """100 threads that each read O_DIRECT 1 ms in 100 ms: blocked most of a
    thread's time in sum (74 % measured, above the 50 % threshold), each 1 %
    of its own. A healthy pool: never I/O-blocked (review finding 11b).

    SCHED_FIFO threads: on 6.12+ a fair thread that EEVDF dequeues late
    (DELAY_DEQUEUE) has its I/O wait started by __block_task() through
    delayacct_blkio_start(), which stamps current, not that thread: its
    blkio_start stays stale and the kernel credits up to 70 times the time
    it waited (the same pool as SCHED_OTHER: 4400 % summed, one thread at
    70 %, from /proc/PID/task/*/stat alone). RT threads are never dequeued
    late, so their delay accounting is what they waited."""
    found = read_switch()
    path = os.path.join(DIO_DIR, "hk-e2e-pool.%d.bin" % os.getpid())
    try:
        tool = Tool(ctx, "io_pool")
        tool.wait_ready()
        pool = ctx.workload("diopool", [ctx.hkload, "diopool", "--file", path,
                                        "--threads", "100", "--fifo"])
        need = int(dflt("io_blocked.min_blocked") * 100)
        top_sum = top_thread = 0
        for _ in range(ENTER_WINDOWS // 2):
            tool.wait_windows(1)
            e = tool.proc_entry(pool.pid)
            if e and e["ev"]["nr_threads"] > 100:
                top_sum = max(top_sum, e["ev"]["io_pct_x100"])
                top_thread = max(top_thread, e["ev"]["thread_io_pct_x100"])
        workload_alive(ctx, pool)
        check_history(tool, pool.pid, "pool of 100 threads at 1 % I/O", set())
        if top_sum < need:
            raise Disturbed("the pool's I/O wait summed to %d.%02d %% at most, below "
                            "the %d %% it must pass to test anything" %
                            (top_sum // 100, top_sum % 100, need // 100))
        rc = tool.stop()
        if rc != 0:
            raise TestFailure("the tool exited %s, want 0" % rc)
        ctx.record("io_pool", True, "never io_blocked: summed up to %d.%02d %%, its "
                   "longest-blocked thread at most %d.%02d %%" %
                   (top_sum // 100, top_sum % 100, top_thread // 100, top_thread % 100))
    finally:
        put_back(found, path)


def t_io_uring_idle(suite, ctx):
    """An idle io_uring server: a recv armed on a socketpair nobody writes
    to, and io_uring_enter waiting for it (tests/e2e/uringidle.c). Since 6.5
    that wait is in_iowait: delay accounting counts the whole window as I/O
    wait. It moved no bytes and sleeps interruptibly: never I/O-blocked
    (review finding 11a)."""
    exe = os.path.join(os.path.dirname(ctx.hkload), "uringidle")
    if not os.access(exe, os.X_OK):
        raise TestFailure("no uringidle beside hkload (make build/uringidle)")
    found = read_switch()
    try:
        tool = Tool(ctx, "io_uring_idle")
        tool.wait_ready()
        srv = ctx.workload("uringidle", [exe])
        need = int(dflt("io_blocked.min_blocked") * 100)
        top = None
        for _ in range(ENTER_WINDOWS // 2):
            tool.wait_windows(1)
            e = tool.proc_entry(srv.pid)
            if e and (top is None or e["ev"]["io_pct_x100"] > top["io_pct_x100"]):
                top = e["ev"]
        workload_alive(ctx, srv)
        check_history(tool, srv.pid, "idle io_uring server", set())
        if top is None or top["io_pct_x100"] < need:
            raise TestFailure("the idle io_uring server showed %s I/O wait: this kernel "
                              "does not count its wait as iowait (< 6.5?), nothing tested" %
                              ("no" if top is None else "%d.%02d %%" %
                               (top["io_pct_x100"] // 100, top["io_pct_x100"] % 100)))
        rc = tool.stop()
        if rc != 0:
            raise TestFailure("the tool exited %s, want 0" % rc)
        ctx.record("io_uring_idle", True, "never io_blocked: I/O wait %d.%02d %%, %d bytes/s "
                   "moved, %d threads stuck" %
                   (top["io_pct_x100"] // 100, top["io_pct_x100"] % 100,
                    top.get("io_bytes_per_s", -1), top.get("io_stuck_threads", -1)))
    finally:
        write_switch(found)


def t_io_off(suite, ctx):
    """Delay accounting is on while something reads it: io_blocked
    (min_blocked) or Mem-thrashing's stall rule (stall, #19). Both at 0 %:
    left alone; either alone: turned on."""
    found = read_switch()
    try:
        for io, stall, want in (("0%", "0%", "0"), ("0%", "10%", "1"), ("50%", "0%", "1")):
            write_switch("0")
            conf = os.path.join(ctx.workdir, "io_off.conf")
            with open(conf, "w") as f:
                f.write("[io_blocked]\nmin_blocked = %s\n[mem_thrashing]\nstall = %s\n"
                        % (io, stall))
            tool = Tool(ctx, "io_off_%s_%s" % (io[:-1], stall[:-1]), extra=("--config", conf))
            tool.wait_ready()
            got = read_switch()
            rc = tool.stop()
            if got != want:
                raise TestFailure("min_blocked %s, stall %s: delay accounting %s, want %s"
                                  % (io, stall, got, want))
            if rc != 0:
                raise TestFailure("the tool exited %s, want 0" % rc)
            if read_switch() != "0":
                raise TestFailure("min_blocked %s, stall %s: delay accounting left at %s after "
                                  "the tool exited" % (io, stall, read_switch()))
        ctx.record("io_off", True, "delay accounting 0 with both off, 1 with either on, "
                   "0 again after each")
    finally:
        write_switch(found)


def t_io_instances(suite, ctx):
    """Two at once, either exiting first, and a pinned one: delay accounting
    goes back to 0 when the last one that needs it is gone, not before."""
    found = read_switch()
    write_switch("0")
    try:
        for first in ("a", "b"):
            tools = {"a": Tool(ctx, "io_inst_a_%s" % first)}
            tools["a"].wait_ready()
            tools["b"] = Tool(ctx, "io_inst_b_%s" % first)
            tools["b"].wait_ready()
            if read_switch() != "1":
                raise TestFailure("two instances running: delay accounting %s" % read_switch())
            second = "b" if first == "a" else "a"
            for who, want in ((first, "1"), (second, "0")):
                rc = tools[who].stop()
                if rc != 0:
                    raise TestFailure("instance %s exited %s" % (who, rc))
                if read_switch() != want:
                    raise TestFailure("%s stopped (of a, b; %s first): delay accounting %s, "
                                      "want %s" % (who, first, read_switch(), want))
        rc, out, err, took = run_cli(suite, [suite.tool, "--pin", "-i", "1s"], timeout=30)
        try:
            if rc != 0 or read_switch() != "1":
                raise TestFailure("--pin: exit %d, delay accounting %s, want 0 and 1: %s" %
                                  (rc, read_switch(), err))
        finally:
            rc, out, err, took = run_cli(suite, [suite.tool, "unpin"], timeout=30)
        if rc != 0 or read_switch() != "0":
            raise TestFailure("unpin: exit %d, delay accounting %s, want 0 and 0: %s" %
                              (rc, read_switch(), out + err))
        ctx.record("io_instances", True, "1 while any instance runs, 0 after the last "
                   "(either order), and after unpin")
    finally:
        write_switch(found)


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("io_blocked", t_io_blocked, 60, True),
    ("io_pool", t_io_pool, 60, True),
    ("io_uring_idle", t_io_uring_idle, 60, True),
    ("io_off", t_io_off, 30),
    ("io_instances", t_io_instances, 90),
]
