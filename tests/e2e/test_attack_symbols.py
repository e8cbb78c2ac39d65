# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Adversarial: a process that makes its own profile costly to name
(security review, findings 3 and 4).

The attacker is nobody's busy loop that spins in an anonymous executable
page (so that its frames are looked up in its JIT perf map), with:

- a 64 GiB sparse /tmp/perf-PID.map: `hotspot-k profile PID --duration 2s`
  (root) ends within 20 s, the process that names the frames (the tool or
  its child) peaks under 256 MiB of RSS, and the written line says the
  perf map was cut. The old tool reads gigabytes of NULs into one line:
  it is killed by PID once its RSS passes 1 GiB, or at the deadline;
- 60 000 distinct memfd mappings (vm.max_map_count is 65530 by default; at
  the brief's 20 000 the old quadratic lookup costs ~0.5 s, lost in the
  noise of a shared machine): the profile, start to written, takes under
  SYMBOLIZE_MAX_S more than its duration;
- the daemon (`--profile 2s --profile-dir DIR`) goes on printing while the
  hostile profile is named and written: an unrelated busy loop started
  once that profile ended gets its cpu_bound line within the usual
  windows. The old tool stalls reading the perf map (and is killed by PID
  once its RSS passes 1 GiB);
- profile slots (finding 7): nobody's 4 busy loops, pinned to CPU 1, all
  flagged, take at most 2 of the 4 slots (the rest said on stderr), and
  root's busy loop flagged after them is profiled. The old tool gave
  nobody all 4 and said "not profiling" of root's loop.
"""

import json
import os
import platform
import signal
import subprocess
import threading
import time

from hk_e2e.attack import arena, spawn_as_nobody
from hk_e2e.checks import expect_enter
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import TestFailure, mono, read_line, spawn
from hk_e2e.tool import Tool

# nobody cannot read root's pyenv shims: the system's interpreter
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3"
RSS_GUARD_KIB = 1 << 20         # the machine is shared: nothing we start passes 1 GiB
PEAK_MAX_KIB = 256 << 10        # what naming a capped profile may take
PROFILE_DEADLINE_S = 20.0
MAPPINGS = 60000
SYMBOLIZE_MAX_S = 2.0           # measured: 0.3 s here, the old tool 4.0 s

# The attacker: a perf map, memfd mappings, then a spin in an anonymous
# RWX page (jmp . / b .), entered through ctypes.
HOSTILE = r'''
import ctypes, os, sys
mode, n = sys.argv[1], int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
FAILED = ctypes.c_void_p(-1).value
made = 0
if mode == "perfmap":
    fd = os.open("/tmp/perf-%d.map" % os.getpid(),
                 os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    os.ftruncate(fd, n << 30)
    os.close(fd)
else:
    for i in range(n):
        fd = os.memfd_create("hk%d" % i)
        os.ftruncate(fd, 4096)
        p = libc.mmap(None, 4096, 1, 1, fd, 0)          # PROT_READ, MAP_SHARED
        os.close(fd)
        if p in (None, FAILED):
            break
        made += 1
code = libc.mmap(None, 4096, 7, 0x22, -1, 0)            # RWX, MAP_PRIVATE|MAP_ANONYMOUS
if code in (None, FAILED):
    sys.exit("no executable anonymous page: errno %d" % ctypes.get_errno())
spin = b"\xeb\xfe" if sys.argv[3] == "x86_64" else b"\x00\x00\x00\x14"
ctypes.memmove(code, spin, len(spin))
print("ready %d" % made, flush=True)
ctypes.CFUNCTYPE(None)(code)()
'''


def hostile(ctx, mode, n):
    """nobody's spinner; (process, what it made). Its perf map goes with the test."""
    p = spawn_as_nobody(ctx, "hostile_" + mode, [PYTHON, "-c", HOSTILE, mode, str(n),
                                                  platform.machine()],
                        stdout=subprocess.PIPE)
    ctx.undo.append(lambda: os.path.exists("/tmp/perf-%d.map" % p.pid) and
                    os.unlink("/tmp/perf-%d.map" % p.pid))
    line = read_line(p, 30)
    if not line or not line.startswith("ready "):
        raise TestFailure("the hostile process did not start (%r); stderr in %s" %
                          (line, p.hk_stderr))
    return p, int(line.split()[1])


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for tid in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, tid)) as f:
                    todo.extend(int(x) for x in f.read().split())
        except OSError:
            pass
    return out


def status_kib(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class Guard:
    """The tool and its children, sampled every 20 ms: their peak RSS
    (VmHWM); the tool's process group killed (by PID: it is our child, not
    reaped while the guard runs) when one of them passes RSS_GUARD_KIB, or
    at the deadline. Never reaps: its owner does."""

    def __init__(self, proc, deadline_s):
        self.pid = proc.pid
        self.deadline = mono() + deadline_s
        self.peak_kib = 0
        self.peak_who = ""
        self.why = None
        self.stop = threading.Event()
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _run(self):
        while not self.stop.is_set() and os.path.exists("/proc/%d" % self.pid):
            for pid in descendants(self.pid):
                hwm = status_kib(pid, "VmHWM")
                if hwm > self.peak_kib:
                    self.peak_kib = hwm
                    try:
                        with open("/proc/%d/comm" % pid) as f:
                            self.peak_who = "%s %d" % (f.read().strip(), pid)
                    except OSError:
                        pass
                if self.why is None and status_kib(pid, "VmRSS") > RSS_GUARD_KIB:
                    self.why = ("%s's RSS passed %d MiB: killed" %
                                (self.peak_who or pid, RSS_GUARD_KIB >> 10))
            if self.why is None and mono() > self.deadline:
                self.why = "still running at its deadline: killed"
            if self.why:
                if not self.stop.is_set():
                    try:
                        os.killpg(self.pid, signal.SIGKILL)
                    except OSError:
                        pass
                return
            time.sleep(0.02)

    def done(self):
        self.stop.set()
        self.th.join(2)


def profile_once(ctx, pid, duration, out_dir):
    """`hotspot-k profile PID` under a Guard: (JSON lines, rc, seconds, peak KiB, guard)."""
    t0 = mono()
    p = spawn([ctx.tool, "profile", str(pid), "--duration", duration, "--dir", out_dir,
               "--json"], stdout=subprocess.PIPE,
              stderr=open(os.path.join(ctx.workdir, "%s.profile.stderr" % ctx.name), "wb"))
    guard = Guard(p, PROFILE_DEADLINE_S)
    lines = []

    def reader():
        for raw in p.stdout:
            lines.append((mono(), raw.decode(errors="replace")))

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    # reaped here, with its rusage: ru_maxrss covers the children it reaped
    _, status, ru = os.wait4(p.pid, 0)
    took = mono() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    guard.done()
    th.join(2)
    objs = []
    for t, text in lines:
        try:
            objs.append((t - t0, json.loads(text)))
        except ValueError:
            raise TestFailure("not a JSON line: %r" % text)
    return objs, p.returncode, took, max(guard.peak_kib, ru.ru_maxrss), guard


def stderr_of(ctx):
    try:
        with open(os.path.join(ctx.workdir, "%s.profile.stderr" % ctx.name)) as f:
            return f.read().strip()
    except OSError:
        return ""


def t_perfmap_64g(suite, ctx):
    out = arena(ctx, "out", mode=0o755, owner=0)
    p, _ = hostile(ctx, "perfmap", 64)
    lines, rc, took, peak, guard = profile_once(ctx, p.pid, "2s", out)
    if guard.why:
        raise TestFailure("profile of a process with a 64 GiB perf map: %s after %.1f s "
                          "(peak RSS %d MiB, %s); lines: %s" %
                          (guard.why, took, peak >> 10, guard.peak_who, lines))
    done = [o for _, o in lines if o.get("state") in ("written", "failed")]
    if rc != 0 or not done or done[-1].get("state") != "written":
        raise TestFailure("exit %s, lines %s; stderr: %s" % (rc, lines, stderr_of(ctx)))
    cut = done[-1].get("cut") or ""
    if "perf map cut at 64 MiB of 64 GiB" not in cut:
        raise TestFailure("the written line does not say the perf map was cut: %s" % done[-1])
    if peak > PEAK_MAX_KIB:
        raise TestFailure("peak RSS %d MiB (%s), over %d MiB" %
                          (peak >> 10, guard.peak_who, PEAK_MAX_KIB >> 10))
    ctx.record("attack_symbols_perfmap_64g", True, "written in %.1f s (2 s of it sampling), "
               "peak RSS %d MiB (%s), cut: %s" % (took, peak >> 10, guard.peak_who, cut))


def t_many_maps(suite, ctx):
    out = arena(ctx, "out", mode=0o755, owner=0)
    try:
        with open("/proc/sys/vm/max_map_count") as f:
            limit = int(f.read())
    except (OSError, ValueError):
        limit = 65530
    want = min(MAPPINGS, limit - 2000)
    p, made = hostile(ctx, "maps", want)
    if made < want:
        raise TestFailure("the hostile process made %d memfd mappings of %d" % (made, want))
    lines, rc, took, peak, guard = profile_once(ctx, p.pid, "1s", out)
    if guard.why:
        raise TestFailure("profile of a process with %d mappings: %s after %.1f s" %
                          (made, guard.why, took))
    done = [o for _, o in lines if o.get("state") in ("written", "failed")]
    if rc != 0 or not done or done[-1].get("state") != "written":
        raise TestFailure("exit %s, lines %s; stderr: %s" % (rc, lines, stderr_of(ctx)))
    extra = took - 1.0
    if extra > SYMBOLIZE_MAX_S:
        raise TestFailure("a profile of a process with %d memfd mappings took %.1f s over "
                          "its 1 s (want under %.1f s)" % (made, extra, SYMBOLIZE_MAX_S))
    ctx.record("attack_symbols_many_maps", True, "%d mappings: %.2f s over the 1 s profile "
               "(bound %.1f s), peak RSS %d MiB" % (made, extra, SYMBOLIZE_MAX_S, peak >> 10))


def t_event_loop(suite, ctx):
    out = arena(ctx, "out", mode=0o755, owner=0)
    tool = Tool(ctx, "evloop", extra=("--profile", "2s", "--profile-dir", out))
    guard = Guard(tool.proc, 170)
    try:
        tool.wait_ready()
        w0 = tool.windows()
        p, _ = hostile(ctx, "perfmap", 64)
        expect_enter(suite, tool, "hostile", p, "cpu_bound", ENTER_WINDOWS, w0)
        got = tool.wait_event(lambda o: o.get("event") == "profile" and
                              o.get("pid") == p.pid and o.get("state") == "started",
                              5, tool.windows())
        if not got:
            raise TestFailure("the hostile process was not profiled")
        # its 2 s are up: its frames are being named now
        while mono() < got[0] + 2.5:
            tool.check_alive()
            time.sleep(0.1)
        w1 = tool.windows()
        busy = ctx.workload("busy", [ctx.hkload, "spin"])
        t, _ = expect_enter(suite, tool, "busy", busy, "cpu_bound", ENTER_WINDOWS, w1)
        late = t - busy.hk_started
        written = tool.wait_event(lambda o: o.get("event") == "profile" and
                                  o.get("pid") == p.pid and
                                  o.get("state") in ("written", "failed"), 5, tool.windows())
        if not written or "perf map cut" not in (written[1].get("cut") or ""):
            raise TestFailure("the hostile profile's line: %s" % (written and written[1]))
        if guard.why:
            raise TestFailure("guard: %s" % guard.why)
    except TestFailure as e:
        raise TestFailure("%s%s" % (e, "\n  guard: %s" % guard.why if guard.why else ""))
    finally:
        guard.done()
    ctx.record("attack_symbols_event_loop", True, "the busy loop's cpu_bound line %.1f s "
               "after its start; the hostile profile: %s, cut: %s; the tool's peak RSS "
               "%d MiB" % (late, written[1].get("state"), written[1].get("cut"),
                           guard.peak_kib >> 10))


def t_slots(suite, ctx):
    out = arena(ctx, "out", mode=0o755, owner=0)
    tool = Tool(ctx, "slots", extra=("--profile", "60s", "--profile-dir", out))
    tool.wait_ready()
    w0 = tool.windows()
    hogs = [spawn_as_nobody(ctx, "hog%d" % i, ["taskset", "-c", "1", ctx.hkload, "spin"])
            for i in range(4)]
    pids = set(h.pid for h in hogs)

    def alarmed():
        return set(o.get("pid") for _, o in tool.events() if "event" not in o and
                   o.get("pid") in pids and o.get("to") not in ("ok", "exited"))

    while alarmed() != pids:
        if tool.windows() - w0 > ENTER_WINDOWS:
            raise TestFailure("only %d of nobody's 4 busy loops on one CPU were flagged "
                              "within %d windows" % (len(alarmed()), ENTER_WINDOWS))
        tool.check_alive()
        time.sleep(0.2)
    time.sleep(0.5)
    started = set(o.get("pid") for _, o in tool.events() if o.get("event") == "profile" and
                  o.get("state") == "started" and o.get("pid") in pids)
    w1 = tool.windows()
    busy = ctx.workload("busy", ["taskset", "-c", "0", ctx.hkload, "spin"])
    got = tool.wait_event(lambda o: o.get("event") == "profile" and
                          o.get("state") == "started" and o.get("pid") == busy.pid,
                          ENTER_WINDOWS, w1)
    if not got:
        raise TestFailure("root's busy loop was not profiled: nobody's loops hold %d of "
                          "the slots; stderr:\n%s" % (len(started), tool.stderr_text()))
    if len(started) > 2:
        raise TestFailure("nobody holds %d slots" % len(started))
    refused = tool.stderr_text().count("uid 65534 has 2 profiles already")
    if refused != 4 - len(started):
        raise TestFailure("%d of nobody's loops profiled, %d refusals said, want %d:\n%s" %
                          (len(started), refused, 4 - len(started), tool.stderr_text()))
    ctx.record("attack_symbols_slots", True, "nobody's 4 loops: %d profiled, %d refused "
               "(uid cap); root's loop profiled %.1f s after its start" %
               (len(started), refused, got[0] - busy.hk_started))


TESTS = [
    # name, function, hard timeout (s)
    ("attack_symbols_perfmap_64g", t_perfmap_64g, 60),
    ("attack_symbols_many_maps", t_many_maps, 90),
    ("attack_symbols_event_loop", t_event_loop, 180),
    ("attack_symbols_slots", t_slots, 120),
]
