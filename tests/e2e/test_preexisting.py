# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Processes older than the tool (kernel review 2, finding 2), started as
users have them: the workload FIRST, then the tool.

kernel.task_delayacct = 1 at run time gives task->delays only to tasks
forked afterwards, so a service that was running before the tool has no
delay accounting, ever. Each test sets the switch to 0 (a host booted
without `delayacct`: Debian's, Ubuntu's, RHEL's default), starts its
workload, then runs the tool twice against it:

- "ro": /proc/sys read-only for the tool (its own mount namespace, as
  under the shipped unit's ProtectKernelTunables=): the switch stays 0;
- "flip": the tool turns the switch on, as `sudo hotspot-k` does; the
  workload still has no delay accounting.

- pre_io_blocked: an O_DIRECT reader (hkload dio, blocked ~87 % of the
  time) is I/O-blocked, io_source "sampled", its thread named;
- pre_thrash: a page-cache thrash (hkload mmapread of 256 MiB, flat out)
  in a 32 MiB memory cgroup is
  Mem-thrashing with memory_stall_pct >= mem_thrashing.stall,
  stall_source "sampled", by the stall rule alone (the fault rule's
  thresholds out of reach).

One test, preexisting, starts both and runs each mode's tool once against
the two (a tool start and stop a mode, not two), both modes' tools at the
same time (11-17 s here, was 39 s one mode after the other). Both check
the start line: how many running processes delay accounting does not
cover, and how to cover them.
"""

import os
import re
import time

from hk_e2e.bpf import bpf_ids_loaded
from hk_e2e.checks import dflt, evidence, expect_enter
from hk_e2e.common import ENTER_WINDOWS, TEARDOWN_GRACE_S
from hk_e2e.procs import TestFailure, mono, workload_alive
from hk_e2e.tool import Tool
from test_io import DIO_DIR, put_back, read_switch, write_switch
from test_memory import memcg
from test_memtruth import MIB, start
from hk_e2e import cgroups

COVER_RE = re.compile(r"delay accounting does not cover (\d+) running processes .*"
                      r"sampled at each walk instead.*boot with delayacct on the kernel "
                      r"command line.*sysctl\.d")
# A thread's stall sampled once a walk (8 walks, 3 hits before it counts).
# In a 64 MiB memcg this thrash's sampled share sat at the gate (37.5 %,
# 3 of 8): 12-22 windows to enter alone, never within 35 once in fresh-ci
# under the suite's load (io_blocked instead). In 32 MiB it is 50 % (4 of
# 8): 5-7 windows, also beside a busy loop and a direct-I/O writer.
# 20 windows more than ENTER_WINDOWS all the same
THRASH_WINDOWS = ENTER_WINDOWS + 20
THRASH_MAJOR_PER_S = 10


def thrashing(p):
    """Wait (10 s at most) until p takes >= THRASH_MAJOR_PER_S major faults
    a second: past its file's fill, thrashing, as a service running for a
    while would be."""
    def majflt():
        with open("/proc/%d/stat" % p.pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[9])
    deadline = time.monotonic() + 10
    last = majflt()
    while time.monotonic() < deadline:
        time.sleep(1)
        now = majflt()
        if now - last >= THRASH_MAJOR_PER_S:
            return
        last = now
    raise TestFailure("pcthrash (pid %d): under %d major faults/s after 10 s: it does not "
                      "thrash, the test does not test what it means to" %
                      (p.pid, THRASH_MAJOR_PER_S))


OFF_RE = re.compile(r"delay accounting off: .*Read-only file system.*sampled")


def ro_wrapper(ctx):
    """The tool in a mount namespace of its own where /proc/sys is read-only:
    it finds the switch at 0 and cannot write it."""
    path = os.path.join(ctx.workdir, "hk-ro-sysctl.sh")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                "exec unshare -m --propagation private sh -c 'mount --bind /proc/sys "
                "/proc/sys && mount -o remount,bind,ro /proc/sys && exec \"$@\"' sh %s \"$@\"\n"
                % ctx.tool)
    os.chmod(path, 0o755)
    return path


def tool_for(ctx, name, mode, extra=()):
    """A tool in mode "ro" or "flip" (see the module's text), ready, and the
    switch checked while it runs."""
    saved = ctx.tool
    if mode == "ro":
        ctx.tool = ro_wrapper(ctx)
    try:
        tool = Tool(ctx, "%s_%s" % (name, mode), extra=extra)
    finally:
        ctx.tool = saved
    tool.wait_ready()
    want = "0" if mode == "ro" else "1"
    if read_switch() != want:
        raise TestFailure("%s: delay accounting %s while the tool runs, want %s" %
                          (mode, read_switch(), want))
    return tool


def check_lines(tool, mode):
    """The start line (and, read-only, the switch's line) on stderr: the count
    of processes not covered, 1 at least (the workload)."""
    text = tool.stderr_text()
    m = COVER_RE.search(text)
    if not m or int(m.group(1)) < 1:
        raise TestFailure("%s: no start line saying how many processes delay accounting "
                          "does not cover and how to cover them; stderr:\n%s" % (mode, text))
    if mode == "ro" and not OFF_RE.search(text):
        raise TestFailure("ro: no line saying delay accounting is off and sampled instead; "
                          "stderr:\n%s" % text)
    return int(m.group(1))


def each_mode(suite, ctx, name, cases, extra=()):
    """The tool (extra: its flags) in each mode against cases, a list of
    (case name, p, label, want, note, windows) whose p started before it: p
    -> label within windows, want(o) None on its evidence, the start line
    said, exit 0. note(o) describes the entry; the notes joined are
    returned. The cases share each mode's tool: one start and one stop of it
    a mode, whatever the number of workloads.

    Both modes' tools run at the same time (the time of one mode, not two):
    "ro" starts first and is seen to leave the switch at 0, then "flip"
    turns it on. The workloads started before either, so neither's turning
    gives them delay accounting: each tool samples them all the same. "ro"
    stops first and its programs are gone before "flip" stops, so that flip
    exits as the last instance and puts 0 back (the last one out does)."""
    tools, w0 = {}, {}
    for mode in ("ro", "flip"):
        tools[mode] = tool_for(ctx, name, mode, extra)
        w0[mode] = tools[mode].windows()
    notes = []
    for mode in ("ro", "flip"):
        tool = tools[mode]
        entries = []
        for case, p, label, want, note, windows in cases:
            t, o = expect_enter(suite, tool, case, p, label, windows, w0[mode], extra=want)
            entries.append("%s %s within %d windows, %s" %
                           (case, label, tool.windows() - w0[mode], note(o)))
        n = check_lines(tool, mode)
        notes.append("%s: %s, %d processes not covered" % (mode, ", ".join(entries), n))
    for mode in ("ro", "flip"):
        tool = tools[mode]
        progs = set(tool.prog_ids)
        rc = tool.stop()
        if rc != 0:
            raise TestFailure("%s: the tool exited %s, want 0" % (mode, rc))
        deadline = mono() + TEARDOWN_GRACE_S
        while progs & bpf_ids_loaded()[0] and mono() < deadline:
            time.sleep(0.1)
    for case in cases:
        workload_alive(ctx, case[1])
    if read_switch() != "0":
        raise TestFailure("delay accounting %s after the tools exited, want 0" %
                          read_switch())
    return "; ".join(notes)


def io_case(ctx, path):
    """pre_io_blocked: an O_DIRECT reader, I/O-blocked by the sampled share."""
    dio, _ = start(ctx, "dio", [ctx.hkload, "dio", "--file", path])
    need = dflt("io_blocked.min_blocked")
    return ("pre_io_blocked", dio, "io_blocked",
            lambda o: evidence(o.get("io_source") == "sampled" and
                               o.get("io_blocked_tid") == dio.pid and
                               o.get("io_blocked_pct", 0) >= need,
                               "want io_source \"sampled\", io_blocked_tid %d, "
                               "io_blocked_pct >= %g" % (dio.pid, need)),
            lambda o: "%.2f %% sampled" % o.get("io_blocked_pct", 0), ENTER_WINDOWS)


def thrash_case(ctx, path):
    """pre_thrash: a page-cache thrash in a small memory cgroup,
    Mem-thrashing by the sampled stall alone."""
    cg = memcg(ctx, 32 * MIB)
    p, _ = start(ctx, "pcthrash", cgroups.run_in(cg, [ctx.hkload, "mmapread", "--file",
                                                      path, "--size", "256M", "--rate",
                                                      "2G"]), ready_s=20)
    thrashing(p)
    floor = dflt("mem_thrashing.stall")
    return ("pre_thrash", p, "mem_thrashing",
            lambda o: evidence(o.get("stall_source") == "sampled" and
                               (o.get("memory_stall_pct") or 0) >= floor,
                               "want stall_source \"sampled\", memory_stall_pct >= %g" %
                               floor),
            lambda o: "memory_stall_pct %s sampled, %s major faults/s" %
            (o.get("memory_stall_pct"), o.get("major_faults_per_s")), THRASH_WINDOWS)


def t_preexisting(suite, ctx):
    """Both workloads, started before the tool, judged by one tool a mode
    (they read and fault on one disk: the reader blocks more beside the
    thrash, the thrash stalls more beside the reader, neither less)."""
    found = read_switch()
    dio_path = os.path.join(DIO_DIR, "hk-e2e-predio.%d.bin" % os.getpid())
    thrash_path = os.path.join(DIO_DIR, "hk-e2e-prethrash.%d.bin" % os.getpid())
    write_switch("0")
    try:
        cases = [io_case(ctx, dio_path), thrash_case(ctx, thrash_path)]
        # the stall rule alone: the thrash's ~11 k minor faults/s would make
        # it Mem-thrashing by the fault rule first, a notice with whatever
        # stall the first windows' samples show
        conf = os.path.join(ctx.workdir, "preexisting.conf")
        with open(conf, "w") as f:
            f.write("[mem_thrashing]\nmajor_faults_per_s = 1000000\n"
                    "minor_faults_per_s = 1000000\n")
        ctx.record("preexisting", True, each_mode(suite, ctx, "preexisting", cases,
                                                  extra=("--config", conf)))
    finally:
        put_back(found, thrash_path)
        put_back(found, dio_path)


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("preexisting", t_preexisting, 150, True),
]
