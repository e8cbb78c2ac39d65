# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Never lose a line: every transition reaches the reader or the tool says
why not. A cgroup path of escaped bytes, an output that fails, a wall clock
stepped under the tool, a window timer that dies."""

import datetime
import json
import os
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.bpf import bss_set_u32
from hk_e2e.checks import expect_enter, history
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, INTERVAL
from hk_e2e.procs import TestFailure, fmt_events, indent, kill_group, mono
from hk_e2e.tool import Tool


PATH_MAX = 1024                 # HK_FORMAT_PATH_MAX: a path's bytes in a line


def fnv1a(data):
    """The hash a cut path ends with (user/lib/cut.c)."""
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def t_long_cgroup(suite, ctx):
    """A process in nested cgroups whose names are control bytes (what anyone
    with a delegated subtree can make): 3.8 KiB of path, 22 KiB once escaped
    for JSON. Its transition must come out (it was dropped: the line buffer
    was 8 KiB), its path cut at HK_FORMAT_PATH_MAX bytes as written, with
    the hash of the whole (a line past journald's LineMax is split)."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    # 19 levels of 200 bytes: under the kernel's 4096-byte /proc path limit
    name = "\x01\x1b[31m\u202e" + "\x02" * 192
    path, shown = cg.path, cgroups.path_of(cg)
    for _ in range(19):
        path = os.path.join(path, name)
        shown += "/" + name
        os.mkdir(path)
        ctx.undo.append(lambda p=path: cgroups.Cgroup(p, cg.version).remove())
    leaf = cgroups.Cgroup(path, cg.version)
    tool = Tool(ctx, "long_cgroup", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("hog", cgroups.run_in(leaf, ["yes"]), stdout=subprocess.DEVNULL)
    _, o = expect_enter(suite, tool, "long_cgroup", p, "cpu_bound", ENTER_WINDOWS, w0)
    bad = tool.bad_lines()
    if bad:
        raise TestFailure("invalid JSON lines: %r" % (bad[:2],))
    got = o.get("cgroup") or ""
    want_mark = "\u2026%08x" % fnv1a(shown.encode())
    kept = got[:-len(want_mark)]
    written = len(json.dumps(kept, ensure_ascii=False).encode()) - 2 + len(want_mark.encode())
    if (not got.endswith(want_mark) or not shown.startswith(kept) or len(kept) < 100 or
            written > PATH_MAX or o.get("cgroup_truncated") is not True):
        raise TestFailure("cgroup %r...%r (truncated %r, %d bytes as written), want the "
                          "%d-byte path %r... cut within %d bytes, ending %r" %
                          (got[:40], got[-12:], o.get("cgroup_truncated"), written,
                           len(shown.encode()), shown[:40], PATH_MAX, want_mark))
    kill_group(p)
    ctx.record("json_long_cgroup", True, "a %d-byte path of control bytes came out "
               "cut to %d bytes, with its hash" % (len(shown.encode()), written))


def t_output_full(suite, ctx):
    """--json into a full disk: the first transition's write fails, the tool
    says so and exits 1 (it ran on, printing nothing, and exited 0)."""
    err_path = os.path.join(ctx.workdir, "full.tool.stderr")
    with open("/dev/full", "w") as full, open(err_path, "wb") as err:
        tool = ctx.workload("tool", [suite.tool, "--json", "-i", FAST_INTERVAL,
                                     *suite.tool_args], stdout=full, stderr=err)
    hog = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
    deadline = mono() + ENTER_WINDOWS + 10
    while tool.poll() is None and mono() < deadline:
        time.sleep(0.2)
    kill_group(hog)
    with open(err_path, errors="replace") as f:
        err_text = f.read()
    if tool.poll() is None:
        raise TestFailure("> /dev/full: still running after %.0f s; stderr:\n%s" %
                          (ENTER_WINDOWS + 10, indent(err_text)))
    want = "hotspot-k: writing output: %s" % os.strerror(28)  # ENOSPC
    if tool.returncode != 1 or want not in err_text.splitlines():
        raise TestFailure("> /dev/full: exit %s; want 1 and %r; stderr:\n%s" %
                          (tool.returncode, want, indent(err_text)))
    if "1 lines not written" not in err_text:
        raise TestFailure("> /dev/full: the summary does not count the lost line:\n%s" %
                          indent(err_text))
    ctx.record("output_full", True, "exit 1 after %.1f s: %s" %
               (mono() - tool.hk_started, want))


def t_summary_losses(suite, ctx):
    """The exit summary names every counter of lost or late work, zeros
    included (exits_lost, defer_overflows, timer_rearm_failures and
    wq_start_failures were missing)."""
    tool = Tool(ctx, "summary_losses")
    tool.wait_ready()
    rc = tool.stop()
    err = tool.stderr_text()
    want = ["events dropped", "exits lost", "aggressor pairs over the cap",
            "process-windows untracked", "thread-visits without task storage",
            "timer re-arm failures",
            "wq start failures", "lines not written", "cgroup paths cut"]
    missing = [w for w in want if w not in err]
    if rc != 0 or missing:
        raise TestFailure("exit %s; the summary lacks %s:\n%s" % (rc, missing, indent(err)))
    ctx.record("summary_losses", True, "%d loss counters in the summary" % len(want))


def _set_clock(t):
    time.clock_settime(time.CLOCK_REALTIME, t)


def t_clock_step(suite, ctx):
    """The wall clock stepped back an hour under a running tool: event times
    follow it (they were monotonic + an offset taken at start, an hour off)."""
    tool = Tool(ctx, "clock_step")
    tool.wait_ready()
    step_s = -3600.0
    state = {"stepped": False}

    def restore():
        if state["stepped"]:
            state["stepped"] = False
            _set_clock(time.time() - step_s)
    ctx.undo.append(restore)
    _set_clock(time.time() + step_s)
    state["stepped"] = True
    try:
        w0 = tool.windows()
        p = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
        t_mono, o = expect_enter(suite, tool, "clock_step", p, "cpu_bound", ENTER_WINDOWS, w0)
        wall_at_arrival = time.time() - (mono() - t_mono)
    finally:
        restore()
    kill_group(p)
    ev = datetime.datetime.fromisoformat(o["time"].replace("Z", "+00:00")).timestamp()
    off = ev - wall_at_arrival
    if abs(off) > 5.0:
        raise TestFailure("after a %+.0f s clock step the event time %s is %+.1f s from "
                          "the wall clock\n%s" % (step_s, o["time"], off, fmt_events([o])))
    ctx.record("clock_step", True, "event time %+.2f s from the wall clock after a "
               "%+.0f s step" % (off, step_s))


def t_dead_timer(suite, ctx):
    """The kernel's window timer stops (here: switched off from outside, as a
    failed re-arm would): within 3 intervals the tool says so and walks
    itself (it went silent, for ever)."""
    tool = Tool(ctx, "dead_timer", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    bss_set_u32(tool.map_ids, "hk_timer_off", 1)
    t0 = mono()
    msg = "no window for 3 intervals"
    while msg not in tool.stderr_text():
        if mono() - t0 > 8:
            raise TestFailure("timer stopped %.0f s ago: nothing said; stderr:\n%s" %
                              (mono() - t0, indent(tool.stderr_text())))
        tool.check_alive()
        time.sleep(0.2)
    said = mono() - t0
    w0 = tool.windows()
    p = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
    expect_enter(suite, tool, "dead_timer", p, "cpu_bound", ENTER_WINDOWS, w0)
    kill_group(p)
    line = [l for l in tool.stderr_text().splitlines() if msg in l][0]
    ctx.record("dead_timer", True, "said after %.1f s, then diagnosed by the iter "
               "driver: %s" % (said, line))


TESTS = [
    ("json_long_cgroup", t_long_cgroup, 60),
    ("output_full", t_output_full, 45),
    ("summary_losses", t_summary_losses, 30),
    ("clock_step", t_clock_step, 60),
    ("dead_timer", t_dead_timer, 60),
]
