#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""
End-to-end tests of hotspot-k: the real tool, loaded into the running
kernel, against real workloads.

  python3 tests/e2e/run.py --tool ./hotspot-k [--only NAME,...] [--keep]

Needs root (the tool loads BPF programs), bpftool, taskset, nice and setpriv
or runuser. Python 3 standard library only.

How the suite waits: the tool prints one JSON line per transition; a reader
thread collects them with their arrival time. Deadlines are counted in the
tool's own windows (hk_stats.windows of *this* instance: its map ids come
from /proc/<tool>/fdinfo, bpftool's BTF view locates the field once, then
bpf(2) reads it, so that polling spawns no process), never as fixed sleeps.
Every test also has a hard wall-clock timeout, every process started
(workloads in their own process group, the tool) is killed in a finally
block, and a global watchdog (and atexit and signal handlers) kill
everything if the suite overruns or is interrupted.

The machine is a shared, noisy 2-CPU VM. Before each scenario the suite
waits (boundedly) for other users' bursts to pass; a scenario that fails
while other work used >= 25 % of a CPU is rerun once, loudly (RETRY lines
and a note at the end; at most 3 reruns a suite). Assertions are never
relaxed: a failure on a quiet machine is a FAIL at once.

Output: one line per check, `PASS name (...)` or `FAIL name: reason` (with
the relevant JSON lines), detection latencies, then `N passed, N failed`.
The exit status is non-zero iff a check failed.
"""

import argparse
import atexit
import ctypes
import json
import os
import platform
import re
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

INTERVAL = "1s"
INTERVAL_S = 1.0
SUITE_TIMEOUT_S = 360          # global watchdog: 6 minutes
DISTURBED_PCT = 25.0           # other work above this share of a CPU: rerun once,
MAX_RETRIES = 3                # at most this many reruns per suite,
RETRY_BEFORE_S = 200           # and none this late: the watchdog must not fire
CALM_BUDGET_S = 45             # waiting for others' bursts to pass, per suite
TEARDOWN_GRACE_S = 1.5         # BPF objects must be gone within this after exit
LABELS = {"ok", "oom_risk", "mem_thrashing", "starved", "noisy_neighbor",
          "cpu_bound", "exited"}
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$")

# --- the workloads of hotspot-bpf's "Testing scenarios", verbatim ---------
THRASH_PY = """\
import mmap, time, random

size = 256 * 1024 * 1024
mm = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)

while True:
    mm.madvise(mmap.MADV_DONTNEED)
    for _ in range(5000):
        offset = random.randint(0, size - 4096) & ~4095
        mm[offset] = 65
    time.sleep(0.1)
"""

LEAK_PY = """\
import time
x = []
while True:
    x.append(' ' * 10_000_000)
    time.sleep(0.25)
"""

# --- negative controls ----------------------------------------------------
# thousands of short voluntary sleeps per second (~1.4 k switches/s)
VOLSLEEP_PY = """\
import time
while True:
    time.sleep(0.0005)
"""

# allocate and touch ~1.5 GiB once, then sit on it
BIGRSS_PY = """\
import sys, time
n = 1536 * 1024 * 1024
b = bytearray(n)
b[::4096] = b'\\x01' * (n // 4096)   # touch every page
print('ready', flush=True)
while True:
    time.sleep(3600)
"""

# a thread pool whose threads come and go, each doing a little work
THREADPOOL_PY = """\
import threading, time

def work():
    s = 0
    for i in range(20000):
        s += i

while True:
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    time.sleep(0.01)
"""

BUSY_SH = "while true; do :; done"

# The Starved pair as the seed runs it, from ONE shell: both loops must share
# a session. With CONFIG_SCHED_AUTOGROUP each session is its own scheduling
# group, and nice 19 only counts within a group: two loops started each with
# start_new_session=True split CPU 0 50/50 and nobody starves. So the
# launcher gets the new session (and process group) and starts both.
PAIR_SH = """\
taskset -c 0 bash -c "$1" &
echo $!
taskset -c 0 nice -n 19 bash -c "$1" &
echo $!
wait
"""
PAIR_ARGS = [BUSY_SH]


# ==========================================================================
# process bookkeeping: everything we start is killed, pass or fail
# ==========================================================================
_procs_lock = threading.Lock()
_procs = []                    # every Popen we started, workloads and tools


def _register(p):
    with _procs_lock:
        _procs.append(p)
    return p


def kill_group(p, sig=signal.SIGKILL, wait_s=5.0):
    """Kill a process started with start_new_session=True, and its group."""
    if isinstance(p, Member):
        p = p.launcher          # the whole session goes with its launcher
    if p is None or p.returncode is not None:
        return                  # already reaped: its PID may belong to another
    try:
        os.killpg(p.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        p.kill()
    except (ProcessLookupError, OSError):
        pass
    try:
        p.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        pass


def kill_all():
    with _procs_lock:
        procs = list(_procs)
    for p in procs:
        kill_group(p, wait_s=2.0)


atexit.register(kill_all)


def spawn(argv, **kw):
    """Start a process in its own session (so its process group can be killed)."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.DEVNULL)
    kw.setdefault("stderr", subprocess.DEVNULL)
    kw["start_new_session"] = True
    return _register(subprocess.Popen(argv, **kw))


class TestFailure(Exception):
    pass


def mono():
    return time.monotonic()


def bpftool(*args, timeout=10):
    r = subprocess.run([BPFTOOL, *args], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    if r.returncode != 0:
        raise TestFailure("bpftool %s: rc=%d %s" % (" ".join(args), r.returncode,
                                                    r.stderr.decode(errors="replace").strip()))
    return json.loads(r.stdout or b"null")


# bpf(2) through ctypes, only to read hk_stats.windows without spawning bpftool
NR_BPF = {"x86_64": 321, "aarch64": 280, "riscv64": 280, "s390x": 351,
          "ppc64le": 361}.get(platform.machine())
BPF_MAP_LOOKUP_ELEM = 1
BPF_MAP_GET_FD_BY_ID = 14
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def bpf_lookup_u64(map_id, value_size):
    """The first u64 of entry 0 of an array map, by map id; None on error.

    The fd is closed at once: holding it would keep the tool's map alive
    after the tool exits (and spoil the teardown checks).
    """
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("=III", attr, 0, map_id, 0, 0)
    fd = _libc.syscall(NR_BPF, BPF_MAP_GET_FD_BY_ID, attr, 128)
    if fd < 0:
        return None
    try:
        key = ctypes.create_string_buffer(4)
        val = ctypes.create_string_buffer(value_size)
        attr = ctypes.create_string_buffer(128)
        struct.pack_into("=I4xQQQ", attr, 0, fd, ctypes.addressof(key),
                         ctypes.addressof(val), 0)
        if _libc.syscall(NR_BPF, BPF_MAP_LOOKUP_ELEM, attr, 128) < 0:
            return None
        return struct.unpack_from("=Q", val, 0)[0]
    finally:
        os.close(fd)


def bpf_ids_loaded():
    """IDs of every BPF program and map loaded in the kernel right now."""
    progs = {p["id"] for p in bpftool("prog", "show", "-j") or []}
    maps = {m["id"] for m in bpftool("map", "show", "-j") or []}
    return progs, maps


# ==========================================================================
# one running instance of the tool
# ==========================================================================
class Tool:
    """hotspot-k --json -i 1s, its stdout read by a thread, its windows counted."""

    def __init__(self, ctx, name, extra=()):
        self.ctx = ctx
        self.name = name
        self.stderr_path = os.path.join(ctx.workdir, "%s.tool.stderr" % name)
        self.argv = [ctx.tool, "--json", "-i", INTERVAL, *extra]
        self.lines = []             # (arrival monotonic, raw text, obj or None, error)
        self.cond = threading.Condition()
        self.stats_id = None
        self.stats_size = 0
        self.direct = None          # read hk_stats with bpf(), see _direct_ok
        self.procs_id = None
        self.prog_ids = set()
        self.map_ids = set()
        self.t_start = mono()
        self.t_ready = None
        self._err = open(self.stderr_path, "wb")
        self.proc = spawn(self.argv, stdout=subprocess.PIPE, stderr=self._err)
        ctx.own(self)
        self.reader = threading.Thread(target=self._read, daemon=True,
                                       name="reader-%s" % name)
        self.reader.start()

    # -- output --------------------------------------------------------
    def _read(self):
        for raw in self.proc.stdout:
            t = mono()
            text, obj, err = None, None, None
            try:
                text = raw.decode("utf-8")
                obj = json.loads(text)
                if not isinstance(obj, dict):
                    err = "not a JSON object"
                    obj = None
            except (UnicodeDecodeError, ValueError) as e:
                err = "invalid JSON: %s" % e
                if text is None:
                    text = raw.decode("utf-8", errors="replace")
            with self.cond:
                self.lines.append((t, text.rstrip("\n"), obj, err))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def events(self):
        with self.cond:
            return [(t, o) for t, _, o, _ in self.lines if o is not None]

    def bad_lines(self):
        with self.cond:
            return [(txt, err) for _, txt, _, err in self.lines if err]

    def stderr_text(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def alive(self):
        return self.proc.poll() is None

    def check_alive(self):
        if not self.alive():
            raise TestFailure("the tool exited early (rc=%s); stderr:\n%s" %
                              (self.proc.returncode, indent(self.stderr_text())))

    # -- the tool's BPF objects, found from its file descriptors --------
    def _fd_ids(self):
        progs, maps = set(), set()
        fddir = "/proc/%d/fdinfo" % self.proc.pid
        try:
            fds = os.listdir(fddir)
        except OSError:
            return progs, maps
        for fd in fds:
            try:
                with open(os.path.join(fddir, fd)) as f:
                    info = f.read()
            except OSError:
                continue
            m = re.search(r"^map_id:\s*(\d+)", info, re.M)
            if m:
                maps.add(int(m.group(1)))
            m = re.search(r"^prog_id:\s*(\d+)", info, re.M)
            if m:
                progs.add(int(m.group(1)))
        return progs, maps

    def discover(self):
        """Record our prog/map ids (and those the progs reference); find hk_stats."""
        progs, maps = self._fd_ids()
        if not progs or not maps:
            return False
        for p in bpftool("prog", "show", "-j") or []:
            if p["id"] in progs:
                maps.update(p.get("map_ids", []))
        for m in bpftool("map", "show", "-j") or []:
            if m["id"] in maps:
                if m.get("name") == "hk_stats":
                    self.stats_id = m["id"]
                    self.stats_size = m.get("bytes_value", 0)
                elif m.get("name") == "hk_procs":
                    self.procs_id = m["id"]
        self.prog_ids, self.map_ids = progs, maps
        return self.stats_id is not None and self.procs_id is not None

    def stats(self):
        d = bpftool("map", "dump", "id", str(self.stats_id), "-j")
        return d[0]["formatted"]["value"]

    def _direct_ok(self):
        """Can windows be read with the bpf() syscall (no process spawned)?

        Polling by running bpftool starts a process every poll, and on a
        2-CPU machine such a process preempts the Starved victim now and
        then. So hk_stats is read directly, once bpftool's BTF view confirms
        that `windows` is its first u64.
        """
        if self.direct is None:
            self.direct = False
            if NR_BPF and self.stats_size >= 8:
                d = bpftool("map", "dump", "id", str(self.stats_id), "-j")[0]
                raw = bytes(int(b, 16) for b in d["value"][:8])
                first = next(iter(d["formatted"]["value"]))
                w = int.from_bytes(raw, sys.byteorder)
                self.direct = (first == "windows" and
                               bpf_lookup_u64(self.stats_id, self.stats_size) in (w, w + 1))
        return self.direct

    def windows(self):
        if self._direct_ok():
            w = bpf_lookup_u64(self.stats_id, self.stats_size)
            if w is not None:
                return w
        return int(self.stats()["windows"])

    def proc_entry(self, pid):
        """hk_procs value of a TGID, or None when not tracked."""
        key = [str(b) for b in int(pid).to_bytes(4, sys.byteorder)]
        r = subprocess.run([BPFTOOL, "map", "lookup", "id", str(self.procs_id),
                            "key", *key, "-j"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
        if r.returncode != 0:
            return None
        d = json.loads(r.stdout or b"null")
        if not d:
            return None
        return d["formatted"]["value"]

    def wait_ready(self, timeout_s=20.0):
        """Until the BPF side is loaded, armed, and has closed a first window."""
        deadline = mono() + timeout_s
        while mono() < deadline:
            self.check_alive()
            if self.stats_id is None:
                self.discover()
            if self.stats_id is not None and self.windows() >= 1:
                # ids again: everything is loaded by now
                self.discover()
                self.t_ready = mono()
                return
            time.sleep(0.1)
        raise TestFailure("the tool did not close its first window within %.0f s; "
                          "stderr:\n%s" % (timeout_s, indent(self.stderr_text())))

    # -- waiting, in windows --------------------------------------------
    def wait_windows(self, n, since=None):
        """Let n windows pass (counted from `since`, default now)."""
        w0 = self.windows() if since is None else since
        deadline = mono() + n * INTERVAL_S * 3 + 10
        while True:
            self.ctx.meter.sample()
            self.check_alive()
            w = self.windows()
            if w - w0 >= n:
                return w
            if mono() > deadline:
                raise TestFailure("hard timeout: %d windows did not pass in %.0f s "
                                  "(only %d)" % (n, n * INTERVAL_S * 3 + 10, w - w0))
            time.sleep(0.2)

    def wait_event(self, pred, max_windows, since):
        """The first event matching pred, within max_windows of `since`, or None."""
        hard = mono() + max_windows * INTERVAL_S * 3 + 10
        while True:
            for t, o in self.events():
                if pred(o):
                    return t, o
            self.ctx.meter.sample()
            self.check_alive()
            if self.windows() - since >= max_windows:
                # the window's events may still be on their way to us
                time.sleep(0.3)
                for t, o in self.events():
                    if pred(o):
                        return t, o
                return None
            if mono() > hard:
                raise TestFailure("hard timeout waiting for %d windows" % max_windows)
            with self.cond:
                self.cond.wait(0.2)

    # -- stopping -------------------------------------------------------
    def stop(self, sig=signal.SIGINT, timeout_s=5.0):
        """Signal the tool, return its exit code (None if it had to be killed)."""
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                kill_group(self.proc)
                self.reader.join(2)
                return None
        self.reader.join(2)
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.stop(timeout_s=3.0)
        kill_group(self.proc)
        self._err.close()


# ==========================================================================
# the suite
# ==========================================================================
def indent(text, pre="    "):
    return "\n".join(pre + l for l in text.rstrip("\n").splitlines()) if text else pre + "(empty)"


def fmt_events(evs, limit=30):
    lines = [json.dumps(o, separators=(",", ":")) for o in evs[-limit:]]
    return indent("\n".join(lines)) if lines else "    (no JSON lines)"


class LoadMeter:
    """CPU used by everything but this test (other users' work, steal).

    Busy time from /proc/stat minus the CPU time of the processes the test
    started (sampled while they live, as they may be killed before the end)
    and of this harness. Only used to tell a disturbed run from a failure.
    """

    HZ = os.sysconf("SC_CLK_TCK")

    def __init__(self):
        self.t0 = mono()
        self.busy0 = self._busy()
        self.self0 = self._ticks("self")
        self.last = {}

    @staticmethod
    def _busy():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal ...
        return sum(v[:8]) - v[3] - v[4]

    @staticmethod
    def _ticks(pid):
        try:
            with open("/proc/%s/stat" % pid, "rb") as f:   # a comm may not be UTF-8
                fields = f.read().rsplit(b")", 1)[1].split()
            return int(fields[11]) + int(fields[12])      # utime + stime
        except (OSError, IndexError, ValueError):
            return None

    def track(self, pid):
        self.last.setdefault(pid, 0)
        self.sample()

    def sample(self):
        for pid in list(self.last):
            t = self._ticks(pid)
            if t is not None and t > self.last[pid]:
                self.last[pid] = t

    def foreign_pct(self):
        self.sample()
        dt = mono() - self.t0
        if dt <= 0:
            return 0.0
        ours = sum(self.last.values()) + (self._ticks("self") or 0) - (self.self0 or 0)
        foreign = self._busy() - self.busy0 - ours
        return max(0.0, foreign * 100.0 / self.HZ / dt)


class Member:
    """A workload started by a launcher in our process group (not our child)."""

    def __init__(self, pid, name, launcher):
        self.pid = pid
        self.hk_name = name
        self.hk_stderr = launcher.hk_stderr
        self.hk_started = launcher.hk_started
        self.launcher = launcher
        self.returncode = None

    def poll(self):
        try:
            with open("/proc/%d/stat" % self.pid, "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0].decode()
        except (OSError, IndexError):
            state = "X"
        if state in ("Z", "X"):
            self.returncode = -1
            return -1
        return None


class Ctx:
    """What one test owns: its processes are killed when it ends, pass or fail."""

    def __init__(self, suite, name):
        self.suite = suite
        self.name = name
        self.tool = suite.tool
        self.workdir = suite.workdir
        self.tools = []
        self.workloads = []
        self.pending = []           # results, published when the attempt ends
        self.meter = LoadMeter()
        self.dead = False           # set when the test hit its hard timeout

    def own(self, tool):
        self.tools.append(tool)
        self.meter.track(tool.proc.pid)

    def record(self, name, ok, detail=""):
        self.pending.append(("record", name, ok, detail))

    def detected(self, name, seconds, windows):
        self.pending.append(("detected", name, seconds, windows))

    def note(self, text):
        self.pending.append(("note", self.name, text, None))

    def workload(self, name, argv, **kw):
        path = os.path.join(self.workdir, "%s.%s.stderr" % (self.name, name))
        err = open(path, "wb")
        kw.setdefault("stderr", err)
        p = spawn(argv, **kw)
        err.close()
        p.hk_name = name
        p.hk_stderr = path
        p.hk_started = mono()
        self.workloads.append(p)
        self.meter.track(p.pid)
        return p

    def workload_pair(self, name, script, members):
        """Several workloads in ONE new session (see PAIR_SH); Member per PID."""
        p = self.workload(name, ["bash", "-c", script, name, *PAIR_ARGS],
                          stdout=subprocess.PIPE)
        out = []
        for m in members:
            line = read_line(p, 10)
            if not line or not line.isdigit():
                workload_alive(self, p)
                raise TestFailure("%s: no PID for %s from its launcher (got %r)" %
                                  (name, m, line))
            out.append(Member(int(line), m, p))
            self.meter.track(int(line))
        return out

    def cleanup(self):
        for p in self.workloads:
            kill_group(p)
        for t in self.tools:
            t.kill()


class Suite:
    def __init__(self, tool, only, keep):
        self.tool = tool
        self.only = only
        self.keep = keep
        self.workdir = tempfile.mkdtemp(prefix="hk-e2e.")
        self.results = []           # (name, ok, text)
        self.latencies = []         # (name, seconds, windows)
        self.lock = threading.Lock()
        self.retries = []           # (test, foreign load %, first failure line)
        self.noise = []             # (test, attempt, foreign load %)
        self.calm_waited = 0.0      # seconds spent waiting for a calm machine
        self.notes = []             # (test, text): worth a look, not failures
        self.all_tools = []
        self.t0 = mono()

    # -- reporting ------------------------------------------------------
    def record(self, name, ok, detail=""):
        with self.lock:
            if ok:
                line = "PASS %s%s" % (name, " (%s)" % detail if detail else "")
            else:
                line = "FAIL %s: %s" % (name, detail)
            self.results.append((name, ok, line))
            print(line, flush=True)

    def detected(self, name, seconds, windows):
        with self.lock:
            self.latencies.append((name, seconds, windows))
        self.record(name, True, "detected after %.2f s / %d windows" % (seconds, windows))

    # -- running --------------------------------------------------------
    def run_test(self, name, fn, timeout_s, retry=False):
        if self.only and not any(o in name for o in self.only):
            return
        attempts = 2 if retry else 1
        for attempt in range(1, attempts + 1):
            if retry:
                self.wait_for_calm(name)
            ctx, fail, foreign = self._attempt(name, fn, timeout_s)
            self.all_tools.extend(ctx.tools)
            if retry:
                with self.lock:
                    self.noise.append((name, attempt, foreign))
            if fail is None:
                self._publish(ctx)
                return
            note = "\n  machine: other work used %.0f %% of a CPU on average during " \
                   "the test (steal included)" % foreign
            if (attempt < attempts and foreign >= DISTURBED_PCT and
                    len(self.retries) < MAX_RETRIES and
                    mono() - self.t0 < RETRY_BEFORE_S):
                # not this tool's doing: rerun once, and say so loudly
                print("RETRY %s: attempt %d ran on a disturbed machine, rerunning; it "
                      "failed with: %s%s" % (name, attempt, fail, note), flush=True)
                with self.lock:
                    self.retries.append((name, foreign, fail.splitlines()[0]))
                continue
            self._publish(ctx)
            self.record(name, False, fail + note)
            return

    def wait_for_calm(self, name):
        """Before a scenario: let other users' bursts pass (bounded per suite).

        Other engineers run benchmarks and the same scenarios on this machine
        (a second pair of busy loops pinned to CPU 0 makes our aggressor the
        noisy neighbor of *their* victim). Waiting a little for the machine to
        calm down is cheaper than a rerun.
        """
        first = True
        while True:
            m = LoadMeter()
            time.sleep(1.0)
            foreign = m.foreign_pct()
            if not first:
                self.calm_waited += 1.0
            first = False
            if foreign < DISTURBED_PCT:
                return
            if self.calm_waited >= CALM_BUDGET_S:
                print("note: %s starts on a busy machine (other work: %.0f %% of a CPU); "
                      "the budget for waiting (%d s) is spent" %
                      (name, foreign, CALM_BUDGET_S), flush=True)
                return

    def _attempt(self, name, fn, timeout_s):
        ctx = Ctx(self, name)
        box = {}

        def body():
            try:
                fn(self, ctx)
            except TestFailure as e:
                box["fail"] = str(e)
            except Exception:  # a bug in the test itself still fails it
                box["fail"] = "test error:\n" + indent(traceback.format_exc())

        th = threading.Thread(target=body, daemon=True, name="test-%s" % name)
        foreign = 0.0
        th.start()
        try:
            th.join(timeout_s)
            timed_out = th.is_alive()
            ctx.dead = timed_out
            foreign = ctx.meter.foreign_pct()
        finally:
            ctx.cleanup()           # pass or fail: nothing of this test survives
        if timed_out:
            th.join(5)
            box["fail"] = "hard timeout after %.0f s" % timeout_s
        fail = box.get("fail")
        if fail is not None:
            fail += self.tool_stderr_note(ctx)
        return ctx, fail, foreign

    def _publish(self, ctx):
        for kind, name, a, b in list(ctx.pending):
            if kind == "record":
                self.record(name, a, b)
            elif kind == "note":
                print("note: %s: %s" % (name, a), flush=True)
                with self.lock:
                    self.notes.append((name, a))
            else:
                self.detected(name, a, b)

    def tool_stderr_note(self, ctx):
        out = ""
        for t in ctx.tools:
            out += "\n  tool stderr (%s):\n%s" % (t.stderr_path, indent(t.stderr_text()))
        for p in ctx.workloads:
            try:
                with open(p.hk_stderr, "rb") as f:
                    txt = f.read().decode(errors="replace").strip()
            except OSError:
                txt = ""
            if txt:
                out += "\n  workload %s stderr:\n%s" % (p.hk_name, indent(txt))
        return out


# ==========================================================================
# helpers shared by the scenarios
# ==========================================================================
def history(tool, pid):
    """The transitions of one PID, up to and including its first `exited`."""
    out = []
    for _, o in tool.events():
        if o.get("pid") == pid:
            out.append(o)
            if o.get("to") == "exited":
                break
    return out


def check_history(tool, pid, who, allowed):
    """Every transition of pid chains from the previous one and is allowed."""
    evs = history(tool, pid)
    prev = "ok"
    for o in evs:
        pair = (o.get("from"), o.get("to"))
        if pair[0] != prev:
            raise TestFailure("%s (pid %d): transition %s -> %s does not follow the "
                              "previous label %s (a transition was lost)\n%s" %
                              (who, pid, pair[0], pair[1], prev, fmt_events(evs)))
        if pair not in allowed:
            raise TestFailure("%s (pid %d): false transition %s -> %s\n%s" %
                              (who, pid, pair[0], pair[1], fmt_events(evs)))
        prev = pair[1]
    return evs


def workload_alive(ctx, p):
    if p.poll() is not None:
        try:
            with open(p.hk_stderr, "rb") as f:
                txt = f.read().decode(errors="replace")
        except OSError:
            txt = ""
        raise TestFailure("workload %s (pid %d) died on its own (rc=%s):\n%s" %
                          (p.hk_name, p.pid, p.returncode, indent(txt)))


def describe_entry(tool, pid):
    """The tool's current view of a process, for failure messages."""
    try:
        e = tool.proc_entry(pid)
    except Exception as ex:  # diagnostics only
        return "(unreadable: %s)" % ex
    if not e:
        try:
            st = tool.stats()
            return ("(not tracked; hk_stats: procs_untracked %s, exits_lost %s: when the "
                    "map is full, the machine runs more processes than --max-procs)" %
                    (st.get("procs_untracked"), st.get("exits_lost")))
        except Exception as ex:  # diagnostics only
            return "(not tracked; hk_stats unreadable: %s)" % ex
    ev = e.get("ev", {})
    keep = ("cpu_pct_x100", "thread_cpu_pct_x100", "wait_pct_x100", "minor_faults_per_s",
            "major_faults_per_s", "unexplained_faults_per_s", "rss_bytes",
            "rss_slope_bytes_per_s", "rss_net_growth_bytes", "trend_samples",
            "trend_grow_pct_x100", "trend_latest_grew", "aggressor_tgid", "victim_tgid")
    return json.dumps({"windows": e.get("windows"), "hyst": e.get("hyst"),
                       "ev": {k: ev.get(k) for k in keep}}, separators=(",", ":"))


def expect_enter(suite, tool, name, p, label, max_windows, w0, extra=None):
    """Wait for pid -> label within max_windows of w0; record the latency."""
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("to") == label,
                            max_windows, w0)
    workload_alive(None, p)
    if not found:
        raise TestFailure("%s (pid %d) never became %s within %d windows; its "
                          "transitions:\n%s\n  its hk_procs entry now: %s" %
                          (p.hk_name, p.pid, label, max_windows,
                           fmt_events(history(tool, p.pid)), describe_entry(tool, p.pid)))
    t, o = found
    if extra:
        problem = extra(o)
        if problem:
            raise TestFailure("%s (pid %d) -> %s with wrong evidence: %s\n%s" %
                              (p.hk_name, p.pid, label, problem, fmt_events([o])))
    return t, o


def expect_exited(suite, tool, name, procs, max_windows=5):
    """Kill the workloads; each must get an `exited` transition."""
    w0 = tool.windows()
    tool.ctx.meter.sample()
    t_kill = mono()
    for p in procs:
        kill_group(p)
    worst = 0.0
    for p in procs:
        found = tool.wait_event(lambda o, pid=p.pid: o.get("pid") == pid and
                                o.get("to") == "exited", max_windows, w0)
        if not found:
            raise TestFailure("%s (pid %d) was killed but no `exited` transition came "
                              "within %d windows; its transitions:\n%s" %
                              (p.hk_name, p.pid, max_windows,
                               fmt_events(history(tool, p.pid))))
        worst = max(worst, found[0] - t_kill)
    return worst, tool.windows() - w0


DEFAULTS = {}                   # "section.key" -> number, from --generate-config


def load_defaults(tool):
    """The tool's own defaults, so that evidence checks follow them."""
    r = subprocess.run([tool, "--generate-config"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
    section = ""
    for line in r.stdout.decode(errors="replace").splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"^\[(\w+)\]$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"^(\w+)\s*=\s*([0-9.]+)\s*(%|k|M)?$", line)
        if m:
            v = float(m.group(2)) * {"k": 1e3, "M": 1e6}.get(m.group(3), 1)
            DEFAULTS["%s.%s" % (section, m.group(1))] = v


def dflt(key):
    if key not in DEFAULTS:
        raise TestFailure("--generate-config has no numeric `%s`" % key)
    return DEFAULTS[key]


def evidence(cond, msg):
    return None if cond else msg


# ==========================================================================
# CLI tests (fast, no workloads)
# ==========================================================================
def run_cli(suite, argv, timeout=10, **kw):
    """Run a short command in its own process group; the group dies with it."""
    t = mono()
    p = spawn(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TestFailure("%s did not exit within %d s" % (" ".join(argv), timeout))
    finally:
        kill_group(p)               # e.g. a tool still traced by a killed strace
    return (p.returncode, out.decode(errors="replace"),
            err.decode(errors="replace"), mono() - t)


def t_cli_help(suite, ctx):
    rc, out, err, _ = run_cli(suite, [suite.tool, "--help"])
    if rc != 0:
        raise TestFailure("--help: exit %d, want 0" % rc)
    if not re.search(r"^Usage: hotspot-k ", out, re.M):
        raise TestFailure("--help: no `Usage: hotspot-k ...` line on stdout:\n" + indent(out))
    ctx.record("cli_help", True)


def t_cli_version(suite, ctx):
    rc, out, err, _ = run_cli(suite, [suite.tool, "--version"])
    if rc != 0 or not re.match(r"^hotspot-k \d+\.\d+\.\d+\s*$", out):
        raise TestFailure("--version: exit %d, stdout %r (want `hotspot-k X.Y.Z`, 0)" %
                          (rc, out))
    ctx.record("cli_version", True)


def t_cli_config_roundtrip(suite, ctx):
    rc, out, err, _ = run_cli(suite, [suite.tool, "--generate-config"])
    if rc != 0 or "[general]" not in out:
        raise TestFailure("--generate-config: exit %d, stderr %r" % (rc, err))
    path = os.path.join(suite.workdir, "generated.conf")
    with open(path, "w") as f:
        f.write(out)
    rc, out2, err2, _ = run_cli(suite, [suite.tool, "--check-config", path])
    if rc != 0:
        raise TestFailure("--check-config of --generate-config's output: exit %d, "
                          "stderr:\n%s" % (rc, indent(err2)))
    ctx.record("cli_config_roundtrip", True)


BAD_CONFIGS = [
    # name, text, line of the error
    ("unknown_key", "# hotspot-k\n[general]\ninterval = 1s\nno_such_key = 3\n", 4),
    ("unknown_section", "[general]\n[no_such_section]\nx = 1\n", 2),
    ("bad_unit", "[starved]\n# wait share\nmin_wait = 50 parsecs\n", 3),
    ("missing_unit", "[oom_risk]\n\ntrend_span = 30\n", 3),
    ("out_of_range", "[general]\nexit_windows = 3\nenter_windows = 101\n", 3),
    ("out_of_range_pct", "[cpu_bound]\nthread_cpu = 150%\n", 2),
]


def t_cli_bad_config(suite, ctx):
    strace = shutil.which("strace")
    for name, text, line in BAD_CONFIGS:
        path = os.path.join(suite.workdir, "bad_%s.conf" % name)
        with open(path, "w") as f:
            f.write(text)
        want = re.compile(r"^(hotspot-k: )?%s:%d: \S.*$" % (re.escape(path), line))
        for mode in ("--check-config", "--config"):
            argv = [suite.tool, mode, path]
            if mode == "--config":
                argv += ["--json", "-i", INTERVAL]
            trace = None
            if mode == "--config" and strace:
                # nothing loaded: not a single bpf() syscall
                trace = os.path.join(suite.workdir, "bad_%s.strace" % name)
                argv = [strace, "-f", "-qq", "-e", "trace=bpf", "-o", trace] + argv
            rc, out, err, took = run_cli(suite, argv, timeout=10)
            lines = [l for l in err.splitlines() if l.strip()]
            if rc != 2:
                raise TestFailure("%s (%s): exit %d, want 2; stderr:\n%s" %
                                  (name, mode, rc, indent(err)))
            if len(lines) != 1 or not want.match(lines[0]):
                raise TestFailure("%s (%s): want exactly one line `%s:%d: message` on "
                                  "stderr, got:\n%s" % (name, mode, path, line, indent(err)))
            if mode == "--config" and out.strip():
                raise TestFailure("%s (--config): printed on stdout:\n%s" % (name, indent(out)))
            if trace:
                with open(trace) as f:
                    calls = [l for l in f if "bpf(" in l]
                if calls:
                    raise TestFailure("%s (--config): bad config but bpf() was called "
                                      "(something was loaded):\n%s" %
                                      (name, indent("".join(calls[:5]))))
            elif took > 2.0:
                raise TestFailure("%s (--config): took %.1f s to reject a bad config" %
                                  (name, took))
    ctx.record("cli_bad_config", True, "%d configs, each exit 2 + one `file:line: message`"
               "%s" % (len(BAD_CONFIGS), ", no bpf() call" if strace else ""))


def t_cli_usage_errors(suite, ctx):
    for argv in (["--no-such-flag"], ["-i", "5x"], ["--duration", "soon"], ["stray-arg"]):
        rc, out, err, took = run_cli(suite, [suite.tool, *argv])
        if rc != 2:
            raise TestFailure("hotspot-k %s: exit %d, want 2; stderr:\n%s" %
                              (" ".join(argv), rc, indent(err)))
        if not err.strip():
            raise TestFailure("hotspot-k %s: exit 2 but nothing on stderr" % " ".join(argv))
    ctx.record("cli_usage_errors", True)


def t_cli_not_root(suite, ctx):
    # the suite's snapshot of the tool sits in a directory every user can enter
    exe = suite.tool
    d = suite.workdir
    if shutil.which("setpriv"):
        pre = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    elif shutil.which("runuser"):
        pre = ["runuser", "-u", "nobody", "--"]
    else:
        raise TestFailure("neither setpriv nor runuser is installed")
    rc, out, err, took = run_cli(suite, pre + [exe, "--json", "-i", INTERVAL], timeout=10,
                                 cwd=d)
    if rc != 1:
        raise TestFailure("as nobody: exit %d, want 1; stderr:\n%s" % (rc, indent(err)))
    if not re.search(r"root|CAP_BPF", err):
        raise TestFailure("as nobody: the message does not mention root or CAP_BPF:\n%s" %
                          indent(err))
    ctx.record("cli_not_root", True, "exit 1: %s" % err.strip().splitlines()[0])


def stop_and_check_teardown(suite, ctx, name, sig):
    tool = Tool(ctx, name)
    tool.wait_ready()
    progs, maps = set(tool.prog_ids), set(tool.map_ids)
    if not progs or not maps or tool.stats_id not in maps:
        raise TestFailure("could not find the tool's own BPF objects (progs %s, maps %s)" %
                          (sorted(progs), sorted(maps)))
    rc = tool.stop(sig)
    if rc != 0:
        raise TestFailure("after %s: exit %s, want 0; stderr:\n%s" %
                          (signal.Signals(sig).name, rc, indent(tool.stderr_text())))
    took = check_summary_and_teardown(tool, progs, maps, signal.Signals(sig).name)
    return len(progs), len(maps), took


def check_summary_and_teardown(tool, progs, maps, why):
    err = tool.stderr_text()
    if not re.search(r"^hotspot-k: \d+ windows", err, re.M):
        raise TestFailure("after %s: no summary line on stderr:\n%s" % (why, indent(err)))
    t0 = mono()
    deadline = t0 + TEARDOWN_GRACE_S
    while True:
        lp, lm = bpf_ids_loaded()
        left_p, left_m = progs & lp, maps & lm
        if not left_p and not left_m:
            return mono() - t0
        if mono() > deadline:
            raise TestFailure("after %s and exit 0: %.0f s later the kernel still holds "
                              "its programs %s and maps %s" %
                              (why, TEARDOWN_GRACE_S, sorted(left_p), sorted(left_m)))
        time.sleep(0.1)


def t_cli_sigint(suite, ctx):
    np, nm, took = stop_and_check_teardown(suite, ctx, "sigint", signal.SIGINT)
    ctx.record("cli_sigint_teardown", True,
               "exit 0, its %d programs and %d maps gone %.2f s after the exit" %
               (np, nm, took))


def t_cli_sigterm(suite, ctx):
    np, nm, took = stop_and_check_teardown(suite, ctx, "sigterm", signal.SIGTERM)
    ctx.record("cli_sigterm_teardown", True,
               "exit 0, its %d programs and %d maps gone %.2f s after the exit" %
               (np, nm, took))


def t_cli_duration(suite, ctx):
    tool = Tool(ctx, "duration", extra=["--duration", "3s"])
    tool.wait_ready()
    progs, maps = set(tool.prog_ids), set(tool.map_ids)
    try:
        rc = tool.proc.wait(timeout=8)
    except subprocess.TimeoutExpired:
        raise TestFailure("--duration 3s: still running after %.0f s" %
                          (mono() - tool.t_start))
    took = mono() - tool.t_start
    if rc != 0:
        raise TestFailure("--duration 3s: exit %d, want 0; stderr:\n%s" %
                          (rc, indent(tool.stderr_text())))
    if took < 2.5:
        raise TestFailure("--duration 3s: stopped after only %.1f s" % took)
    check_summary_and_teardown(tool, progs, maps, "--duration")
    ctx.record("cli_duration", True, "stopped by itself after %.1f s" % took)


# ==========================================================================
# scenarios, default config with -i 1s
# ==========================================================================
ENTER_WINDOWS = 15              # deadline of enter-type scenarios
LEAK_WINDOWS = 40               # the OOM trend needs a span of samples
HOLD_WINDOWS = 3                # keep watching after detection: no flapping
EXIT_WINDOWS = 5


def t_cpu_bound(suite, ctx):
    tool = Tool(ctx, "cpu_bound")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("yes", ["yes"])
    t, o = expect_enter(suite, tool, "cpu_bound", p, "cpu_bound", ENTER_WINDOWS, w0,
                        extra=lambda o: evidence(
                            (o.get("thread_cpu_pct", 0) >= dflt("cpu_bound.thread_cpu") or
                             o.get("cpu_pct", 0) / os.cpu_count() >=
                             dflt("cpu_bound.total_cpu")) and
                            o.get("faults_per_s", 1e9) < dflt("cpu_bound.max_faults_per_s"),
                            "want thread_cpu_pct >= %g (or cpu_pct / CPUs >= %g), "
                            "faults_per_s < %g" % (dflt("cpu_bound.thread_cpu"),
                                                   dflt("cpu_bound.total_cpu"),
                                                   dflt("cpu_bound.max_faults_per_s"))))
    wd = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, p)
    allowed = {("ok", "cpu_bound"), ("cpu_bound", "exited")}
    check_history(tool, p.pid, "yes", allowed)
    ctx.detected("cpu_bound", t - p.hk_started, wd)
    lat, wx = expect_exited(suite, tool, "cpu_bound", [p])
    check_history(tool, p.pid, "yes", allowed)
    ctx.detected("cpu_bound_exited", lat, wx)


def pin_harness(cpus):
    """Set the CPU affinity of every thread of this harness; the old one back."""
    old = os.sched_getaffinity(0)
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass
    return old


def t_starved_noisy(suite, ctx):
    # The victim runs ~4 times a second, so each window's aggressor is decided
    # by a handful of switches: keep this harness (its polling, its threads,
    # the tool's printer) off CPU 0, where the pair is pinned. The tool's
    # diagnosis is not touched by this; only our own noise on CPU 0 is.
    others = os.sched_getaffinity(0) - {0}
    saved = pin_harness(others) if others else None
    try:
        starved_noisy(suite, ctx)
    finally:
        if saved:
            pin_harness(saved)


def starved_noisy(suite, ctx):
    tool = Tool(ctx, "starved")
    tool.wait_ready()
    w0 = tool.windows()
    aggr, vict = ctx.workload_pair("pair", PAIR_SH, ["aggressor", "victim"])
    tv, ov = expect_enter(suite, tool, "starved", vict, "starved", ENTER_WINDOWS, w0,
                          extra=lambda o: evidence(
                              o.get("aggressor_pid") == aggr.pid and
                              o.get("run_delay_pct", 0) >= dflt("starved.min_wait"),
                              "want aggressor_pid %d and run_delay_pct >= %g" %
                              (aggr.pid, dflt("starved.min_wait"))))
    wv = tool.windows() - w0
    ta, oa = expect_enter(suite, tool, "noisy_neighbor", aggr, "noisy_neighbor",
                          ENTER_WINDOWS, w0,
                          extra=lambda o: evidence(
                              o.get("victim_pid") == vict.pid and
                              o.get("cpu_pct", 0) >= dflt("noisy_neighbor.min_cpu"),
                              "want victim_pid %d and cpu_pct >= %g" %
                              (vict.pid, dflt("noisy_neighbor.min_cpu"))))
    wa = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, aggr)
    workload_alive(ctx, vict)
    v_allowed = {("ok", "starved"), ("starved", "exited")}
    a_allowed = {("ok", "noisy_neighbor"), ("noisy_neighbor", "exited")}
    check_history(tool, vict.pid, "victim", v_allowed)
    check_history(tool, aggr.pid, "aggressor", a_allowed)
    ctx.detected("starved", tv - vict.hk_started, wv)
    ctx.detected("noisy_neighbor", ta - aggr.hk_started, wa)
    if ov.get("windows") != oa.get("windows"):
        # DESIGN.md wants both sides labelled from the same window's facts;
        # reported, not failed: the brief asks for each side's transition only
        ctx.note("the pair was labelled in different windows: victim Starved at its "
                 "window %s, aggressor Noisy neighbor at its window %s (both started "
                 "together)" % (ov.get("windows"), oa.get("windows")))
    lat, wx = expect_exited(suite, tool, "starved", [vict, aggr])
    check_history(tool, vict.pid, "victim", v_allowed)
    check_history(tool, aggr.pid, "aggressor", a_allowed)
    ctx.detected("starved_noisy_exited", lat, wx)


def t_mem_thrashing(suite, ctx):
    tool = Tool(ctx, "thrash")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("thrash", [sys.executable, "-c", THRASH_PY])
    t, o = expect_enter(suite, tool, "mem_thrashing", p, "mem_thrashing", ENTER_WINDOWS, w0,
                        extra=lambda o: evidence(
                            o.get("unexplained_faults_per_s", o.get("faults_per_s", 0)) >=
                            dflt("mem_thrashing.minor_faults_per_s") or
                            o.get("major_faults_per_s", 0) >=
                            dflt("mem_thrashing.major_faults_per_s"),
                            "want faults not explained by RSS growth >= %g/s (or major "
                            "faults >= %g/s)" % (dflt("mem_thrashing.minor_faults_per_s"),
                                                 dflt("mem_thrashing.major_faults_per_s"))))
    wd = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, p)
    allowed = {("ok", "mem_thrashing"), ("mem_thrashing", "exited")}
    check_history(tool, p.pid, "thrash", allowed)
    ctx.detected("mem_thrashing", t - p.hk_started, wd)
    lat, wx = expect_exited(suite, tool, "mem_thrashing", [p])
    check_history(tool, p.pid, "thrash", allowed)
    ctx.detected("mem_thrashing_exited", lat, wx)


def t_oom_risk(suite, ctx):
    tool = Tool(ctx, "leak")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("leak", [sys.executable, "-c", LEAK_PY])
    t, o = expect_enter(suite, tool, "oom_risk", p, "oom_risk", LEAK_WINDOWS, w0,
                        extra=lambda o: evidence(
                            20e6 <= (o.get("rss_slope_bytes_per_s") or 0) <= 80e6 and
                            o.get("eta_s") is not None,
                            "want rss_slope_bytes_per_s in 20..80 MB/s (the leak is "
                            "40 MB/s) and an eta_s"))
    wd = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, p)
    # never mem_thrashing (nor anything else): the leak's faults are its growth
    allowed = {("ok", "oom_risk"), ("oom_risk", "exited")}
    check_history(tool, p.pid, "leak", allowed)
    ctx.detected("oom_risk", t - p.hk_started, wd)
    lat, wx = expect_exited(suite, tool, "oom_risk", [p])
    check_history(tool, p.pid, "leak", allowed)
    ctx.detected("oom_risk_exited", lat, wx)


def t_hostile_comm(suite, ctx):
    """A flagged process whose comm holds quotes, a backslash, a control byte
    and bytes that are not UTF-8: its lines must still be valid JSON."""
    name = b'y"\\\x01\xff\xc3(\xc3\xa9'          # y " \ ^A <ff> <c3>( é
    link = os.path.join(os.fsencode(suite.workdir), name)
    if not os.path.lexists(link):                       # a rerun finds it there
        os.symlink(os.fsencode(shutil.which("yes")), link)  # comm = the name exec'd
    tool = Tool(ctx, "hostile_comm")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("hostile", [link])
    expect_enter(suite, tool, "hostile_comm", p, "cpu_bound", ENTER_WINDOWS, w0)
    expect_exited(suite, tool, "hostile_comm", [p])
    bad = tool.bad_lines()
    if bad:
        raise TestFailure("invalid JSON for a hostile comm: %r" % (bad,))
    for o in history(tool, p.pid):
        c = o.get("comm")
        if not (isinstance(c, str) and c.startswith('y"\\\x01') and c.endswith("(\u00e9")):
            raise TestFailure("comm %r does not keep the valid parts of %r\n%s" %
                              (c, name, fmt_events([o])))
    ctx.record("json_hostile_comm", True, "comm %s" %
               json.dumps(history(tool, p.pid)[0]["comm"]))


# ==========================================================================
# negative controls: no transition at all, over at least 15 windows
# ==========================================================================
CONTROL_WINDOWS = 15


def read_line(p, timeout_s):
    """One line of a workload's stdout pipe within timeout_s, else None.

    Unbuffered reads into our own buffer: a buffered readline() could swallow
    the next line too, and select() would then wait for data already read.
    """
    buf = p.__dict__.setdefault("hk_buf", bytearray())
    deadline = mono() + timeout_s
    fd = p.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    try:
        while b"\n" not in buf:
            left = deadline - mono()
            if left <= 0 or not sel.select(left):
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            buf += chunk
        line, _, rest = bytes(buf).partition(b"\n")
        buf[:] = rest
        return line.decode(errors="replace").strip()
    finally:
        sel.close()


def t_controls(suite, ctx):
    tool = Tool(ctx, "controls")
    tool.wait_ready()
    w0 = tool.windows()
    ctl = [
        ctx.workload("idle_sleep", ["sleep", "3600"]),
        ctx.workload("voluntary_sleeper", [sys.executable, "-c", VOLSLEEP_PY]),
        ctx.workload("stable_rss", [sys.executable, "-c", BIGRSS_PY],
                     stdout=subprocess.PIPE),
        ctx.workload("thread_pool", [sys.executable, "-c", THREADPOOL_PY]),
    ]
    big = ctl[2]
    if read_line(big, 30) != "ready":
        workload_alive(ctx, big)
        raise TestFailure("stable_rss did not touch its 1.5 GiB within 30 s")
    # every control must have been diagnosed for CONTROL_WINDOWS windows:
    # let them pass (cheap to count), then ask the tool's own record of each
    tool.wait_windows(CONTROL_WINDOWS + 1, since=w0)
    hard = mono() + CONTROL_WINDOWS * INTERVAL_S * 2 + 20
    while True:
        ctx.meter.sample()
        tool.check_alive()
        for p in ctl:
            workload_alive(ctx, p)
        entries = {p.hk_name: tool.proc_entry(p.pid) or {} for p in ctl}
        seen = {n: e.get("windows", 0) for n, e in entries.items()}
        # the first sample of a process is its baseline, not a window
        if all(w - 1 >= CONTROL_WINDOWS for w in seen.values()):
            break
        if mono() > hard:
            raise TestFailure("hard timeout: windows diagnosed per control so far: %s%s" %
                              (seen, "" if all(seen.values()) else
                               "; " + describe_entry(tool, min(ctl, key=lambda p:
                                                               seen[p.hk_name]).pid)))
        time.sleep(1.0)
    pids = {p.pid: p.hk_name for p in ctl}
    # the controls must really do what makes them tempting false positives
    ev = {n: e.get("ev", {}) for n, e in entries.items()}
    vcsw = ev["voluntary_sleeper"].get("vcsw_per_s", 0)
    rss = ev["stable_rss"].get("rss_bytes", 0)
    pool_cpu = ev["thread_pool"].get("cpu_pct_x100", 0) / 100
    if vcsw < 500:
        raise TestFailure("voluntary_sleeper makes only %d voluntary switches/s" % vcsw)
    if rss < 1400 << 20:
        raise TestFailure("stable_rss holds only %d MiB" % (rss >> 20))
    # the end of a process is part of its life: an OK process leaves no `exited`
    w1 = tool.windows()
    ctx.meter.sample()
    for p in ctl:
        kill_group(p)
    tool.wait_windows(2, since=w1)
    bad = [o for _, o in tool.events() if o.get("pid") in pids]
    if bad:
        names = sorted({pids[o["pid"]] for o in bad})
        raise TestFailure("false transitions for %s:\n%s" % (", ".join(names),
                                                              fmt_events(bad)))
    ctx.record("negative_controls", True,
               "no transition for %s over %d..%d windows each; sleeper %d vcsw/s, "
               "stable RSS %d MiB, thread pool %.0f %% CPU" %
               (", ".join(pids.values()), min(seen.values()) - 1,
                  max(seen.values()) - 1, vcsw, rss >> 20, pool_cpu))


# ==========================================================================
# JSON lines of every run
# ==========================================================================
def t_json_valid(suite, ctx):
    n = 0
    for tool in suite.all_tools:
        for txt, err in tool.bad_lines():
            raise TestFailure("%s run: %s: %r" % (tool.name, err, txt))
        for _, o in tool.events():
            n += 1
            problems = []
            if not isinstance(o.get("time"), str) or not TIME_RE.match(o["time"]):
                problems.append("time is not RFC 3339 with ms")
            if not isinstance(o.get("pid"), int) or o["pid"] <= 0:
                problems.append("pid")
            if not isinstance(o.get("comm"), str):
                problems.append("comm")
            if o.get("from") not in LABELS or o.get("to") not in LABELS:
                problems.append("from/to not a known label")
            if "cgroup" not in o or not (o["cgroup"] is None or isinstance(o["cgroup"], str)):
                problems.append("cgroup")
            for k in ("windows", "cpu_pct", "thread_cpu_pct", "run_delay_pct",
                      "faults_per_s", "major_faults_per_s", "rss_bytes",
                      "rss_slope_bytes_per_s"):
                if not isinstance(o.get(k), (int, float)):
                    problems.append(k)
            for k in ("eta_s", "aggressor_pid", "victim_pid"):
                if k not in o:
                    problems.append(k + " missing")
            if problems:
                raise TestFailure("%s run: bad fields (%s) in:\n%s" %
                                  (tool.name, ", ".join(problems), fmt_events([o])))
    if n == 0:
        raise TestFailure("no JSON line at all was collected")
    ctx.record("json_lines_valid", True, "%d lines from %d runs" % (n, len(suite.all_tools)))


# ==========================================================================
TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("cli_help", t_cli_help, 15),
    ("cli_version", t_cli_version, 15),
    ("cli_config_roundtrip", t_cli_config_roundtrip, 15),
    ("cli_bad_config", t_cli_bad_config, 60),
    ("cli_usage_errors", t_cli_usage_errors, 30),
    ("cli_not_root", t_cli_not_root, 15),
    ("cli_sigint_teardown", t_cli_sigint, 30),
    ("cli_sigterm_teardown", t_cli_sigterm, 30),
    ("cli_duration", t_cli_duration, 30),
    ("cpu_bound", t_cpu_bound, 60, True),
    ("starved_noisy_neighbor", t_starved_noisy, 60, True),
    ("mem_thrashing", t_mem_thrashing, 60, True),
    ("oom_risk", t_oom_risk, 100, True),
    ("negative_controls", t_controls, 90, True),
    ("json_hostile_comm", t_hostile_comm, 40, True),
    ("json_lines_valid", t_json_valid, 15),
]


def main():
    global BPFTOOL
    ap = argparse.ArgumentParser(description="hotspot-k end-to-end tests")
    ap.add_argument("--tool", default="./hotspot-k", help="the hotspot-k binary")
    ap.add_argument("--only", default="", help="comma-separated substrings of test names")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--suite-timeout", type=float, default=SUITE_TIMEOUT_S,
                    help="global watchdog in seconds (default %(default)s)")
    args = ap.parse_args()

    tool = os.path.abspath(args.tool)
    if not os.access(tool, os.X_OK):
        print("FAIL setup: %s is not an executable" % tool)
        print("0 passed, 1 failed")
        return 1
    if os.geteuid() != 0:
        print("FAIL setup: the end-to-end tests load BPF programs: run them as root")
        print("0 passed, 1 failed")
        return 1
    BPFTOOL = shutil.which("bpftool") or "/usr/sbin/bpftool"
    missing = [c for c in ("taskset", "nice", "yes", "sleep", "bash")
               if not shutil.which(c)]
    if not os.access(BPFTOOL, os.X_OK):
        missing.append("bpftool")
    if missing:
        print("FAIL setup: missing commands: %s" % ", ".join(missing))
        print("0 passed, 1 failed")
        return 1

    suite = Suite(tool, [o for o in args.only.split(",") if o], args.keep)
    # a snapshot: others may rebuild ./hotspot-k while the suite runs
    os.chmod(suite.workdir, 0o755)
    snap = os.path.join(suite.workdir, "hotspot-k")
    shutil.copy2(tool, snap)
    os.chmod(snap, 0o755)
    suite.tool = snap
    load_defaults(snap)
    finished = threading.Event()

    def summary_and_exit(code):
        kill_all()
        passed = sum(1 for _, ok, _ in suite.results if ok)
        failed = sum(1 for _, ok, _ in suite.results if not ok)
        print("logs kept in %s" % suite.workdir)
        print("%d passed, %d failed" % (passed, failed), flush=True)
        os._exit(code)

    def watchdog():
        if finished.is_set():
            return
        suite.record("suite_watchdog", False,
                     "the suite exceeded %.0f s: killed everything" % args.suite_timeout)
        summary_and_exit(1)

    def on_signal(sig, frame):
        suite.record("suite_interrupted", False, "got %s: killed everything" %
                     signal.Signals(sig).name)
        summary_and_exit(1)

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    wd = threading.Timer(args.suite_timeout, watchdog)
    wd.daemon = True
    wd.start()

    print("hotspot-k e2e: %s (run from a copy), interval %s, work dir %s" %
          (tool, INTERVAL, suite.workdir), flush=True)
    try:
        for name, fn, timeout_s, *retry in TESTS:
            suite.run_test(name, fn, timeout_s, retry=bool(retry and retry[0]))
    finally:
        finished.set()
        wd.cancel()
        kill_all()

    if suite.latencies:
        print("detection latency (workload start, or kill for *_exited, to the "
              "transition line; -i %s):" % INTERVAL)
        for name, s, w in suite.latencies:
            print("  %-24s %6.2f s  %3d windows" % (name, s, w))
    if suite.noise:
        print("other work on the machine during each test (%% of a CPU, steal "
              "included; above %.0f %% a failed scenario is rerun once): %s" %
              (DISTURBED_PCT, ", ".join("%s%s %.0f" % (n, "#%d" % a if a > 1 else "", f)
                                        for n, a, f in suite.noise)))
    for name, text in suite.notes:
        print("note: %s: %s" % (name, text))
    for name, foreign, why in suite.retries:
        print("note: %s was rerun: other work used %.0f %% of a CPU during its first "
              "attempt, which failed: %s" % (name, foreign, why))
    print("suite took %.1f s (%.0f s of it waiting for other users' load to pass)" %
          (mono() - suite.t0, suite.calm_waited))
    passed = sum(1 for _, ok, _ in suite.results if ok)
    failed = sum(1 for _, ok, _ in suite.results if not ok)
    if not args.keep and failed == 0:
        shutil.rmtree(suite.workdir, ignore_errors=True)
    elif failed:
        print("logs kept in %s" % suite.workdir)
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


BPFTOOL = "bpftool"

if __name__ == "__main__":
    sys.exit(main())
