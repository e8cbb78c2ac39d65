# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The suite: runs each test, reruns a disturbed scenario, publishes results.

The machine is a shared, noisy 2-CPU VM. Before each scenario the suite
waits (boundedly) for other users' bursts to pass; a scenario that fails
while other work used >= 25 % of a CPU is rerun once, loudly (RETRY lines
and a note at the end; at most 3 reruns a suite). Assertions are never
relaxed: a failure on a quiet machine is a FAIL at once.
"""

import os
import subprocess
import tempfile
import threading
import time
import traceback

from .common import (CALM_BUDGET_S, CALM_TRUST_S, DISTURBED_PCT, MAX_RETRIES, RETRY_MARGIN_S,
                     SUITE_TIMEOUT_S)
from .procs import (Disturbed, Member, TestFailure, indent, kill_group, mono, read_line,
                    spawn, workload_alive)


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


class Ctx:
    """What one test owns: its processes are killed when it ends, pass or fail."""

    def __init__(self, suite, name):
        self.suite = suite
        self.name = name
        self.tool = suite.tool
        self.tool_args = suite.tool_args
        self.hkload = suite.hkload
        self.workdir = suite.workdir
        self.tools = []
        self.workloads = []
        self.undo = []              # run last at cleanup (cgroups to remove)
        self.before_kill = []       # run first at cleanup (cgroups to thaw)
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

    def skip(self, name, reason):
        """The machine cannot run this scenario (no swap, too little RAM):
        neither passed nor failed, said with its reason."""
        self.pending.append(("skip", name, reason, None))

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

    def workload_pair(self, name, script, members, args):
        """Several workloads in ONE new session (see test_seed.PAIR_SH); Member per PID.

        `bash -c script name args...`: the script prints one PID per member.
        """
        p = self.workload(name, ["bash", "-c", script, name, *args],
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
        # a frozen process cannot die: thawed first, or the kill waits in vain
        for fn in self.before_kill:
            try:
                fn()
            except OSError as e:
                print("note: %s: cleanup: %s" % (self.name, e), flush=True)
        for p in self.workloads:
            kill_group(p)
        for t in self.tools:
            t.kill()
        for fn in reversed(self.undo):
            try:
                fn()
            except OSError as e:
                print("note: %s: cleanup: %s" % (self.name, e), flush=True)


class Suite:
    def __init__(self, tool, only, keep, tool_args=(), timeout_s=SUITE_TIMEOUT_S):
        self.tool = tool
        self.timeout_s = timeout_s  # the watchdog's: a rerun must end well before it
        self.tool_args = list(tool_args)   # before each test's own flags
        self.hkload = None          # the workload generator (tests/e2e/hkload.c)
        self.only = only
        self.keep = keep
        self.workdir = tempfile.mkdtemp(prefix="hk-e2e.")
        self.results = []           # (name, ok, text)
        self.latencies = []         # (name, seconds, windows)
        self.lock = threading.Lock()
        self.retries = []           # (test, foreign load %, first failure line)
        self.noise = []             # (test, attempt, foreign load %)
        self.calm_waited = 0.0      # seconds spent waiting for a calm machine
        self.durations = []         # (seconds, test): every attempt's wall time
        self.calm_until = 0.0       # the last test ended on a calm machine: no
                                    # second of sampling before the next one
        self.notes = []             # (test, text): worth a look, not failures
        self.skipped = []           # (test, reason): could not run here
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
    def selected(self, name):
        return not self.only or any(o in name for o in self.only)

    def run_test(self, name, fn, timeout_s, retry=False, calm=True):
        if not self.selected(name):
            return
        attempts = 2 if retry else 1
        for attempt in range(1, attempts + 1):
            if retry and (calm or attempt > 1):
                self.wait_for_calm(name, force=attempt > 1)
            t0 = mono()
            ctx, fail, foreign = self._attempt(name, fn, timeout_s)
            with self.lock:
                self.durations.append((mono() - t0, name))
                if calm and foreign < DISTURBED_PCT:
                    self.calm_until = mono() + CALM_TRUST_S
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
                    mono() - self.t0 + timeout_s <= self.timeout_s - RETRY_MARGIN_S):
                # not this tool's doing: rerun once, and say so loudly
                print("RETRY %s: attempt %d ran on a disturbed machine, rerunning; it "
                      "failed with: %s%s" % (name, attempt, fail, note), flush=True)
                with self.lock:
                    self.retries.append((name, foreign, fail.splitlines()[0]))
                continue
            self._publish(ctx)
            self.record(name, False, fail + note)
            return

    def run_together(self, tests):
        """Scenarios that may share the machine (run.TOGETHER), each in a
        thread of its own after one wait for calm: they take as long as the
        longest. Each keeps its hard timeout, its cleanup and its rerun (the
        others' processes count as other work)."""
        tests = [t for t in tests if self.selected(t[0])]
        if not tests:
            return
        self.wait_for_calm(tests[0][0])
        threads = [threading.Thread(target=self.run_test, name="group-%s" % name,
                                    args=(name, fn, timeout_s),
                                    kwargs={"retry": bool(retry and retry[0]), "calm": False})
                   for name, fn, timeout_s, *retry in tests]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    def wait_for_calm(self, name, force=False):
        """Before a scenario: let other users' bursts pass (bounded per suite).

        Other engineers run benchmarks and the same scenarios on this machine
        (a second pair of busy loops pinned to CPU 0 makes our aggressor the
        noisy neighbor of *their* victim). Waiting a little for the machine to
        calm down is cheaper than a rerun. A test that has just ended on a
        calm machine measured it over its whole run: the next one starts at
        once (a second per test, ~90 s a `make test`). A rerun samples again.
        """
        if not force and mono() < self.calm_until:
            return
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
            except Disturbed as e:
                box["fail"] = str(e)
                box["disturbed"] = True
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
        if box.get("disturbed"):
            foreign = max(foreign, DISTURBED_PCT)
        return ctx, fail, foreign

    def _publish(self, ctx):
        for kind, name, a, b in list(ctx.pending):
            if kind == "record":
                self.record(name, a, b)
            elif kind == "skip":
                print("SKIP %s: %s" % (name, a), flush=True)
                with self.lock:
                    self.skipped.append((name, a))
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

