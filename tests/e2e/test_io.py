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
  and back to what it was once it exits.
"""

import os

from hk_e2e.checks import check_history, dflt, evidence, expect_enter
from hk_e2e.common import ENTER_WINDOWS, HOLD_WINDOWS
from hk_e2e.procs import TestFailure, workload_alive
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
        write_switch(found)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def t_io_off(suite, ctx):
    """min_blocked = 0 %: no diagnosis, and delay accounting left alone."""
    found = read_switch()
    write_switch("0")
    conf = os.path.join(ctx.workdir, "io_off.conf")
    with open(conf, "w") as f:
        f.write("[io_blocked]\nmin_blocked = 0%\n")
    try:
        tool = Tool(ctx, "io_off", extra=("--config", conf))
        tool.wait_ready()
        if read_switch() != "0":
            raise TestFailure("io_blocked off, yet delay accounting was turned on")
        rc = tool.stop()
        if rc != 0:
            raise TestFailure("the tool exited %s, want 0" % rc)
        ctx.record("io_off", True, "delay accounting stayed 0")
    finally:
        write_switch(found)


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("io_blocked", t_io_blocked, 60, True),
    ("io_off", t_io_off, 30),
]
