# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Profiles: where the time of a process goes, as a flame graph.

- `hotspot-k profile PID` on profload (tests/e2e/profload.c: its main thread
  spins 30 ms of CPU in spin_here() then sleeps 20 ms in sleep_here(); a
  second thread fsyncs in fsync_here()): the folded file and the SVG name
  the three functions under main, spin_here on-CPU and the two others
  off-CPU with kernel frames below them, in the proportion 30:20 (+-33 %);
  the SVG is well-formed XML with spin_here warm and sleep_here blue; the
  profiler's programs are gone once it is written;
- a process killed 2 s into a 30 s profile: written at once with what was
  collected, marked exited;
- `--profile 3s`: a busy loop that turns CPU-bound is profiled from its
  transition on; the start line and the written line name the files, the
  folded file names the loop's function, and nothing of the profiler stays
  loaded afterwards.
"""

import json
import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET

from hk_e2e.bpf import bpftool
from hk_e2e.checks import expect_enter
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import TestFailure, mono, read_line
from hk_e2e.tool import Tool

PROF_PROGS = ("hk_prof_sample", "hk_prof_switch")
SVG_NS = "{http://www.w3.org/2000/svg}"


def profload(ctx):
    exe = os.path.join(os.path.dirname(ctx.hkload), "profload")
    if not os.access(exe, os.X_OK):
        raise TestFailure("no profload beside hkload (make build/profload)")
    return exe


def loaded_profiler_progs():
    return [p.get("name") for p in bpftool("prog", "show", "-j") or []
            if p.get("name") in PROF_PROGS]


def read_folded(path):
    """[(frames, count_us, off_cpu)] of a folded file."""
    out = []
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            out.append((frames, int(count), frames[-1] == "[off-cpu]"))
    if not out:
        raise TestFailure("%s is empty" % path)
    return out


def weight(stacks, name, off=None):
    """us of the stacks that hold a frame called name (on, off or both)."""
    return sum(c for fr, c, o in stacks if name in fr and (off is None or o == off))


def fill_of(svg_path, name):
    """The fill of the first frame whose title starts with name, as (r, g, b)."""
    root = ET.parse(svg_path).getroot()          # raises on malformed XML
    for g in root.iter(SVG_NS + "g"):
        title = g.find(SVG_NS + "title")
        rect = g.find(SVG_NS + "rect")
        if title is None or rect is None or not (title.text or "").startswith(name + " "):
            continue
        m = re.match(r"rgb\((\d+),(\d+),(\d+)\)", rect.get("fill", ""))
        if m:
            return tuple(int(x) for x in m.groups()), title.text
    raise TestFailure("%s: no frame titled %s" % (svg_path, name))


def wait_gone(what, timeout_s=3.0):
    deadline = mono() + timeout_s
    while loaded_profiler_progs():
        if mono() > deadline:
            raise TestFailure("%s: the profiler's programs %s are still loaded" %
                              (what, loaded_profiler_progs()))
        time.sleep(0.1)


def profile_profload(ctx, tag, duration):
    """profload under `hotspot-k profile PID --json` for duration: its pid, the
    JSON lines and the finished process (its data file removed again)."""
    exe = profload(ctx)
    data = os.path.join("/var/tmp", "hk-e2e-%s.%d" % (tag, os.getpid()))
    try:
        w = ctx.workload("profload", [exe, data], stdout=subprocess.PIPE)
        if read_line(w, 10) != "ready":
            raise TestFailure("profload did not start")
        # the run's spelling; the others keep profile's older --dir
        r = subprocess.run([ctx.tool, "profile", str(w.pid), "--duration", duration,
                            "--profile-dir", ctx.workdir, "--json"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=40)
    finally:
        try:
            os.unlink(data)
        except FileNotFoundError:
            pass
    return w.pid, [json.loads(x) for x in r.stdout.decode().splitlines()], r


def t_profile_manual(suite, ctx):
    pid, lines, r = profile_profload(ctx, "profload", "5s")
    if r.returncode != 0 or len(lines) != 2:
        raise TestFailure("profile exited %d with %d lines, want 0 and 2:\n%s\n%s" %
                          (r.returncode, len(lines), r.stdout.decode(), r.stderr.decode()))
    start, done = lines
    if start.get("state") != "started" or done.get("state") != "written" or \
       done.get("pid") != pid or done.get("svg") != start.get("svg"):
        raise TestFailure("unexpected lines: %s" % lines)
    stacks = read_folded(done["folded"])
    spin = weight(stacks, "spin_here", off=False)
    slp = weight(stacks, "sleep_here", off=True)
    fsy = weight(stacks, "fsync_here", off=True)
    wrong = weight(stacks, "spin_here", off=True) + weight(stacks, "sleep_here", off=False)
    ratio = spin / slp if slp else 0
    if not spin or not slp or not fsy:
        raise TestFailure("missing: spin_here on-CPU %d us, sleep_here off-CPU %d us, "
                          "fsync_here off-CPU %d us" % (spin, slp, fsy))
    # 30 ms of CPU per 20 ms asleep; a wake-up's latency counts as asleep
    if not 1.0 <= ratio <= 2.0:
        raise TestFailure("spin_here : sleep_here = %.2f (%d : %d us), want 1.5 +-33 %%" %
                          (ratio, spin, slp))
    if wrong > (spin + slp) / 20:
        raise TestFailure("%d us of spin_here off-CPU or sleep_here on-CPU" % wrong)
    if not any("main" in fr and fr.index("main") < fr.index("spin_here")
               for fr, _, _ in stacks if "spin_here" in fr):
        raise TestFailure("spin_here is never under main: the user stack is cut")
    if not any(f.endswith("_[k]") for fr, _, o in stacks if o and "sleep_here" in fr
               for f in fr):
        raise TestFailure("sleep_here's off-CPU stacks have no kernel frame")
    rgb, title = fill_of(done["svg"], "spin_here")
    if not rgb[0] > rgb[2]:
        raise TestFailure("spin_here (%s) is not warm: %s" % (title, rgb))
    rgb, title = fill_of(done["svg"], "sleep_here")
    if not rgb[2] > rgb[0]:
        raise TestFailure("sleep_here (%s) is not blue: %s" % (title, rgb))
    wait_gone("after profile")
    ctx.record("profile_manual", True, "spin_here %.2f s on-CPU, sleep_here %.2f s and "
               "fsync_here %.2f s off-CPU (ratio %.2f); %d stacks, svg %d bytes" %
               (spin / 1e6, slp / 1e6, fsy / 1e6, ratio, len(stacks),
                os.path.getsize(done["svg"])))


def t_profile_exit(suite, ctx):
    """A process that exits mid-profile: written with what there was, at once."""
    exe = profload(ctx)
    data = os.path.join("/var/tmp", "hk-e2e-profexit.%d" % os.getpid())
    try:
        w = ctx.workload("profload", [exe, data], stdout=subprocess.PIPE)
        if read_line(w, 10) != "ready":
            raise TestFailure("profload did not start")
        prof = subprocess.Popen([ctx.tool, "profile", str(w.pid), "--duration", "30s",
                                 "--dir", ctx.workdir, "--json"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            time.sleep(2)
            t_kill = mono()
            w.kill()
            out, err = prof.communicate(timeout=10)
            took = mono() - t_kill
        finally:
            if prof.poll() is None:
                prof.kill()
                prof.wait()
        lines = [json.loads(x) for x in out.decode().splitlines()]
        done = lines[-1] if lines else {}
        if prof.returncode != 0 or done.get("state") != "written" or \
           done.get("exited") is not True:
            raise TestFailure("profile of a process killed after 2 s: exit %s, lines %s, "
                              "stderr %s" % (prof.returncode, lines, err.decode()))
        stacks = read_folded(done["folded"])
        if not weight(stacks, "spin_here"):
            raise TestFailure("the 2 s before the exit are not in the profile")
        if took > 1.5:
            raise TestFailure("written %.2f s after the exit, want within 1.5 s" % took)
        ET.parse(done["svg"])
        wait_gone("after a profile whose process exited")
        ctx.record("profile_exit", True, "written %.2f s after the kill, %d stacks" %
                   (took, len(stacks)))
    finally:
        try:
            os.unlink(data)
        except FileNotFoundError:
            pass


def t_profile_on_transition(suite, ctx):
    tool = Tool(ctx, "profile_on", extra=("--profile", "3s", "--profile-dir", ctx.workdir))
    tool.wait_ready()
    if loaded_profiler_progs():
        raise TestFailure("the profiler is loaded with nothing flagged: %s" %
                          loaded_profiler_progs())
    w0 = tool.windows()
    hog = ctx.workload("hog", [ctx.hkload, "spin"])
    expect_enter(suite, tool, "profile_on", hog, "cpu_bound", ENTER_WINDOWS, w0)
    got = tool.wait_event(lambda o: o.get("event") == "profile" and o.get("pid") == hog.pid
                          and o.get("state") == "written", 8, w0)
    if not got:
        raise TestFailure("no profile written for the CPU-bound hog (pid %d); lines:\n%s" %
                          (hog.pid, [o for _, o in tool.events() if "event" in o]))
    starts = [o for _, o in tool.events() if o.get("event") == "profile" and
              o.get("state") == "started" and o.get("pid") == hog.pid]
    done = got[1]
    if len(starts) != 1 or starts[0].get("label") != "cpu_bound" or \
       starts[0].get("svg") != done.get("svg"):
        raise TestFailure("want one start line for cpu_bound naming the same files: %s" %
                          starts)
    stacks = read_folded(done["folded"])
    on_us = sum(c for _, c, o in stacks if not o)
    # hkload spin's loop; its main thread's call may be inlined into cmd_spin
    loop_us = weight(stacks, "spin_loop") + weight(stacks, "cmd_spin")
    if not loop_us or on_us < 1.5e6:
        raise TestFailure("the hog's profile: spin_loop/cmd_spin %d us, on-CPU %d us of 3 s"
                          % (loop_us, on_us))
    ET.parse(done["svg"])
    wait_gone("after the profile on transition")
    rc = tool.stop()
    if rc != 0:
        raise TestFailure("the tool exited %s" % rc)
    ctx.record("profile_on_transition", True, "%.2f s on-CPU in 3 s, %d stacks" %
               (on_us / 1e6, len(stacks)))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("profile_manual", t_profile_manual, 60, True),
    ("profile_exit", t_profile_exit, 40, True),
    ("profile_on_transition", t_profile_on_transition, 60, True),
]
