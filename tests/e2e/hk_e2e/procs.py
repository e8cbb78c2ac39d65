# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Process bookkeeping: everything we start is killed, pass or fail.

Also the small helpers every module uses: TestFailure, mono, indent,
fmt_events.
"""

import atexit
import contextlib
import json
import os
import selectors
import signal
import subprocess
import threading
import time

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


class Disturbed(TestFailure):
    """The machine could not run the scenario as designed (a workload could
    not keep the pace the test set): no verdict on the tool. The suite
    reruns such a test like one that ran beside others' load."""


def mono():
    return time.monotonic()


def indent(text, pre="    "):
    return "\n".join(pre + l for l in text.rstrip("\n").splitlines()) if text else pre + "(empty)"


def fmt_events(evs, limit=30):
    lines = [json.dumps(o, separators=(",", ":")) for o in evs[-limit:]]
    return indent("\n".join(lines)) if lines else "    (no JSON lines)"


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


def workload_alive(ctx, p):
    if p.poll() is not None:
        try:
            with open(p.hk_stderr, "rb") as f:
                txt = f.read().decode(errors="replace")
        except OSError:
            txt = ""
        raise TestFailure("workload %s (pid %d) died on its own (rc=%s):\n%s" %
                          (p.hk_name, p.pid, p.returncode, indent(txt)))


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


def read_pids(ctx, p, n, name, timeout_s):
    """The n PIDs hkload's interleaved prints, then its "ready", each within
    timeout_s; a TestFailure naming name otherwise."""
    pids = []
    for _ in range(n):
        line = read_line(p, timeout_s)
        if not line or not line.isdigit():
            workload_alive(ctx, p)
            raise TestFailure("%s: no PID from hkload (got %r)" % (name, line))
        pids.append(int(line))
    if read_line(p, timeout_s) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("%s: hkload never said ready" % name)
    return pids


def pin_harness(cpus):
    """Set the CPU affinity of every thread of this harness; the old one back."""
    old = os.sched_getaffinity(0)
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass
    return old


@contextlib.contextmanager
def harness_off_cpu0():
    """This harness's threads off CPU 0 (where a Starved pair is pinned)
    while the block runs, where the machine has another CPU."""
    others = os.sched_getaffinity(0) - {0}
    saved = pin_harness(others) if others else None
    try:
        yield
    finally:
        if saved:
            pin_harness(saved)
