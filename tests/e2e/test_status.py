# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""`hotspot-k status` from another terminal: the running instance's flagged
processes as a table, as JSON and in the top lists (-a), the newest of two
instances, an instance --pin left in the kernel, and exit 3 once none runs
(with --json, the freezes recorded still); its usage errors. And --npd,
node-problem-detector's checks: up and oom-risk OK beside a CPU-bound hog,
up 1 and oom-risk 3 once none runs, up 1 while a tool is stopped, oom-risk
1 naming a leak."""

import json
import os
import re
import signal
import subprocess
import sys
import time

from hk_e2e import cgroups
from hk_e2e.checks import expect_enter, run_cli
from hk_e2e.common import ENTER_WINDOWS, INTERVAL, INTERVAL_S, LEAK_MAX_S, TEARDOWN_GRACE_S
from hk_e2e.procs import TestFailure, indent, kill_group, mono
from hk_e2e.tool import Tool

PIN_DIR = "/sys/fs/bpf/hotspot-k"
NONE_MSG = ("hotspot-k status: no running hotspot-k (no BPF map hk_procs): "
            "start one with sudo hotspot-k")
# --npd up's line, a running instance's (INTERVAL is 1s)
NPD_UP = re.compile(r"^hotspot-k up: \d+ windows every 1s \(driver (wq|table|timer|iter)\), "
                    r"\d+ flagged$")


def _status(suite, *args):
    """`hotspot-k status ARGS`: (exit status, stdout, stderr)."""
    rc, out, err, _ = run_cli(suite, [suite.tool, "status", *args], timeout=20)
    return rc, out, err


def _fail(what, rc, out, err):
    raise TestFailure("%s: exit %s\n  stdout:\n%s\n  stderr:\n%s" %
                      (what, rc, indent(out), indent(err)))


def _npd(suite, check, want_rc, want):
    """`status --npd CHECK`: want_rc, and one line on stdout that matches
    want (a string: equal; else a compiled pattern), nothing on stderr
    (NPD shows stdout)."""
    rc, out, err = _status(suite, "--npd", check)
    line = out[:-1] if out.endswith("\n") and out.count("\n") == 1 else None
    ok = line == want if isinstance(want, str) else bool(line and want.match(line))
    if rc != want_rc or not ok or err:
        _fail("status --npd %s: want exit %d, nothing on stderr and one line %s" %
              (check, want_rc, want if isinstance(want, str) else want.pattern),
              rc, out, err)
    return line


def _row(out, pid):
    """The table rows (not the header) whose PID column is pid."""
    return [l for l in out.splitlines() if re.match(r"^\s*%d\s" % pid, l)]


def _top_section(out, title):
    """The lines of one -a list, from its title to the blank line after."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if l.startswith(title):
            end = i + 1
            while end < len(lines) and lines[end]:
                end += 1
            return lines[i:end]
    return []


def t_status_flagged(suite, ctx):
    """A `yes` hog flagged CPU-bound by a running hotspot-k: `status` lists it
    on a row saying CPU-bound, --json lists it in "flagged", -a puts it in the
    top by CPU; with the tool stopped, status exits 1 and says none runs."""
    tool = Tool(ctx, "status")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
    expect_enter(suite, tool, "status", p, "cpu_bound", ENTER_WINDOWS, w0)

    rc, out, err = _status(suite)
    rows = _row(out, p.pid)
    if rc != 0 or len(rows) != 1 or "CPU-bound" not in rows[0]:
        _fail("status: want exit 0 and one row for the hog (pid %d) saying CPU-bound" %
              p.pid, rc, out, err)
    table_row = rows[0]

    rc, out, err = _status(suite, "--json")
    if rc != 0 or out.count("\n") != 1 or not out.endswith("\n"):
        _fail("status --json: want exit 0 and one line", rc, out, err)
    try:
        o = json.loads(out)
    except ValueError as e:
        _fail("status --json: invalid JSON (%s)" % e, rc, out, err)
    inst = o.get("instance") or {}
    mine = [f for f in o.get("flagged") or [] if f.get("pid") == p.pid]
    if (len(mine) != 1 or mine[0].get("label") != "cpu_bound" or
            inst.get("interval_s") != INTERVAL_S or
            inst.get("driver") not in ("wq", "table", "timer", "iter") or
            not isinstance(inst.get("windows"), int) or inst["windows"] < 1 or
            o.get("top_cpu") is not None):
        _fail("status --json: want the hog in \"flagged\" as cpu_bound, the instance's "
              "1 s interval, driver and windows, and no top lists without -a",
              rc, out, err)

    rc, out, err = _status(suite, "-a", "-n", "5")
    top = _top_section(out, "top 5 by CPU:")
    if rc != 0 or not any(re.match(r"^\s*%d\s" % p.pid, l) for l in top[2:7]):
        _fail("status -a -n 5: want the hog (pid %d) among the top 5 by CPU" % p.pid,
              rc, out, err)
    for title in ("top 5 by run delay (wait):", "top 5 by RSS growth:"):
        if not _top_section(out, title):
            _fail("status -a -n 5: no list \"%s\"" % title, rc, out, err)
    # node-problem-detector's checks: up, and no OOM risk beside a hog
    _npd(suite, "up", 0, NPD_UP)
    _npd(suite, "oom-risk", 0, re.compile(r"^no process in OOM risk \(\d+ tracked\)$"))

    kill_group(p)
    stop_rc = tool.stop()
    if stop_rc != 0:
        raise TestFailure("the tool exited %s on SIGINT" % stop_rc)
    rc, out, err, took = _status_until_gone(suite)
    if rc != 3 or NONE_MSG not in err.splitlines() or out:
        _fail("status with no hotspot-k running (%.1f s after it exited): want exit 3, "
              "nothing on stdout and %r" % (took, NONE_MSG), rc, out, err)
    # --npd: not running is up's problem (1: NPD's condition True); the
    # others cannot tell (3: Unknown)
    _npd(suite, "up", 1, "hotspot-k not running")
    _npd(suite, "oom-risk", 3, "hotspot-k not running: OOM risk unknown")
    # --json as well: what a crashed tool left frozen matters most then
    rc, out, err = _status(suite, "--json")
    try:
        o = json.loads(out, object_pairs_hook=lambda kv: kv)
    except ValueError:
        o = None
    if rc != 3 or NONE_MSG not in err.splitlines() or not o or \
            [k for k, _ in o] != ["instance", "frozen"] or o[0][1] is not None or \
            not isinstance(o[1][1], list):
        _fail('status --json with no hotspot-k running: want exit 3, %r and '
              '{"instance":null,"frozen":[...]} on stdout' % NONE_MSG, rc, out, err)
    ctx.record("status_flagged", True, "row: %s" % table_row.strip())


def _status_until_gone(suite):
    """`status` until it no longer finds an instance, for as long as the
    kernel may take to free an exited one's programs and maps."""
    t0 = mono()
    while True:
        rc, out, err = _status(suite)
        if rc != 0 or mono() - t0 > TEARDOWN_GRACE_S:
            return rc, out, err, mono() - t0
        time.sleep(0.1)


def t_status_two_instances(suite, ctx):
    """Two instances running: status shows the newest, says so on stderr, and
    takes its hk_config and hk_stats, not the other's (their intervals
    differ)."""
    old = Tool(ctx, "status_old", extra=("-i", "2s"))
    old.wait_ready()
    new = Tool(ctx, "status_new")
    new.wait_ready()
    rc, out, err = _status(suite, "--json")
    want = "showing the newest (hk_procs map id %d," % new.procs_id
    if rc != 0 or "2 hotspot-k instances are running" not in err or want not in err:
        _fail("two instances: want exit 0 and a note naming the newest's hk_procs "
              "(map id %d, the other's %d)" % (new.procs_id, old.procs_id), rc, out, err)
    try:
        inst = json.loads(out)["instance"]
    except (ValueError, KeyError, TypeError) as e:
        _fail("two instances: invalid JSON (%s)" % e, rc, out, err)
    if inst.get("interval_s") != INTERVAL_S:
        _fail("two instances: interval_s %r, want the newest's %r (the older runs at "
              "2 s)" % (inst.get("interval_s"), INTERVAL_S), rc, out, err)
    ctx.record("status_two_instances", True, err.strip().splitlines()[0])


def t_status_usage(suite, ctx):
    """--help on stdout, exit 0; bad flags, values and arguments exit 2."""
    rc, out, err = _status(suite, "--help")
    if rc != 0 or not out.startswith("Usage: hotspot-k status "):
        _fail("status --help: want exit 0 and the usage on stdout", rc, out, err)
    for args in (["-n", "0"], ["-n", "1001"], ["-n", "x"], ["-n"], ["--bogus"],
                 ["extra"]):
        rc, out, err = _status(suite, *args)
        if rc != 2 or out or "Try 'hotspot-k status --help'" not in err:
            _fail("status %s: want exit 2 with a hint on stderr only" % " ".join(args),
                  rc, out, err)
    # --npd: an unknown check is NPD's config's error: one line on stdout,
    # where NPD shows it, naming the valid ones
    rc, out, err = _status(suite, "--npd", "bogus")
    if rc != 2 or err or out != ("hotspot-k status: unknown --npd check 'bogus' "
                                 "(up, oom-risk, noisy-neighbor, cpu-contention)\n"):
        _fail("status --npd bogus: want exit 2 and one line on stdout naming the valid "
              "checks", rc, out, err)
    rc, out, err = _status(suite, "--npd", "up", "--json")
    if rc != 2 or out or "hotspot-k status: --npd answers one check: not with --json" \
            not in err.splitlines():
        _fail("status --npd up --json: want exit 2 with a usage error", rc, out, err)
    ctx.record("status_usage", True, "8 usage errors exit 2")


def _unpin(suite):
    rc, out, err, _ = run_cli(suite, [suite.tool, "unpin"], timeout=20)
    return rc, out, err


def _pin(suite, ctx, name, args):
    """An instance --pin'd with args, unpinned at cleanup; False (recorded
    as not run) where --pin cannot run: under the iter driver."""
    if "iter" in suite.tool_args or os.environ.get("HOTSPOT_K_AS_5_15"):
        ctx.record(name, True, "not run: --pin needs driver table, wq or timer")
        return False
    if os.path.exists(PIN_DIR):
        raise TestFailure("%s exists before the test: another pinned instance runs "
                          "(hotspot-k unpin stops it)" % PIN_DIR)
    rc, out, err, _ = run_cli(suite, [suite.tool, "--pin", *args], timeout=30)
    ctx.undo.append(lambda: _unpin(suite) if os.path.exists(PIN_DIR) else None)
    if rc != 0:
        _fail("hotspot-k --pin %s" % " ".join(args), rc, out, err)
    return True


def t_status_pinned(suite, ctx):
    """An instance --pin left in the kernel (no process of its own): status
    reads it from its pins, says it is pinned and lists a `yes` hog as
    CPU-bound; after unpin, exit 3."""
    if not _pin(suite, ctx, "status_pinned", ["-i", INTERVAL]):
        return
    p = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
    deadline = mono() + ENTER_WINDOWS * INTERVAL_S * 2 + 10
    while True:
        rc, out, err = _status(suite, "--json")
        try:
            o = json.loads(out) if rc == 0 else {}
        except ValueError as e:
            _fail("status --json of the pinned instance: invalid JSON (%s)" % e,
                  rc, out, err)
        if rc != 0 or not (o.get("instance") or {}).get("pinned"):
            _fail("status --json of the pinned instance: want exit 0 and "
                  "\"pinned\":true", rc, out, err)
        if any(f.get("pid") == p.pid and f.get("label") == "cpu_bound"
               for f in o.get("flagged") or []):
            break
        if mono() > deadline:
            _fail("status --json: the hog (pid %d) never flagged cpu_bound" % p.pid,
                  rc, out, err)
        time.sleep(0.5)
    rc, out, err = _status(suite)
    rows = _row(out, p.pid)
    if rc != 0 or "pinned" not in out.splitlines()[0] or len(rows) != 1 or \
            "CPU-bound" not in rows[0]:
        _fail("status of the pinned instance: want its first line to say pinned, and "
              "the hog's row CPU-bound", rc, out, err)
    shown = "%s / %s" % (out.splitlines()[0], rows[0].strip())
    kill_group(p)
    urc, uout, uerr = _unpin(suite)
    if urc != 0:
        _fail("hotspot-k unpin", urc, uout, uerr)
    rc, out, err, took = _status_until_gone(suite)
    if rc != 3 or NONE_MSG not in err.splitlines():
        _fail("status after unpin (%.1f s): want exit 3 and %r" % (took, NONE_MSG),
              rc, out, err)
    ctx.record("status_pinned", True, shown)


def _watch_pty(suite, stop):
    """`status --watch 1` on a pseudo-terminal until stop(pid, master_fd):
    (exit status, what it drew, the terminal's lflag after)."""
    import pty
    import select
    import termios
    from hk_e2e.procs import spawn
    master, slave = pty.openpty()
    p = spawn([suite.tool, "status", "--watch", "1"], stdin=slave, stdout=slave,
              stderr=slave)
    drawn = b""
    t0 = mono()
    try:
        # two frames: a second after the first
        while drawn.count(b"\033[H\033[2J") < 2 and mono() - t0 < 8:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                drawn += os.read(master, 65536)
        stop(p, master)
        while p.poll() is None and mono() - t0 < 12:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    drawn += os.read(master, 65536)
                except OSError:
                    break
        rc = p.wait(timeout=5)
        # what it wrote last may still wait in the pty
        while select.select([master], [], [], 0.3)[0]:
            try:
                drawn += os.read(master, 65536)
            except OSError:
                break
        lflag = termios.tcgetattr(slave)[3]
    finally:
        kill_group(p)
        os.close(master)
        os.close(slave)
    return rc, drawn.decode(errors="replace"), lflag


def t_status_watch(suite, ctx):
    """--watch on a terminal: redrawn in place every second (home + clear),
    q or SIGTERM ends it with exit 0, the terminal's modes put back; with
    stdout not a terminal, one line and exit 2."""
    import signal
    import termios
    title = "hotspot-k status, every 1s (q: quit)"
    for how, stop in (("q", lambda p, m: os.write(m, b"q")),
                      ("SIGTERM", lambda p, m: os.kill(p.pid, signal.SIGTERM))):
        rc, drawn, lflag = _watch_pty(suite, stop)
        frames = drawn.count("\033[H\033[2J")
        if rc != 0 or frames < 2 or title not in drawn:
            raise TestFailure("--watch ended by %s: exit %s, %d frames, title %s:\n%s" %
                              (how, rc, frames, title in drawn, indent(drawn[-600:])))
        if not (lflag & termios.ICANON) or not (lflag & termios.ECHO):
            raise TestFailure("--watch ended by %s left the terminal without ICANON/ECHO" %
                              how)
        if not drawn.endswith("\033[?25h"):
            raise TestFailure("--watch ended by %s left the cursor hidden:\n%r" %
                              (how, drawn[-80:]))
    rc, out, err = _status(suite, "--watch")
    want = ("hotspot-k status: --watch redraws a terminal, and stdout is not one: leave "
            "out --watch for one status (a loop of them: while sleep 2; do hotspot-k "
            "status; done)\n")
    if rc != 2 or err != want or out:
        _fail("--watch to a pipe", rc, out, err)
    ctx.record("status_watch", True, "q and SIGTERM: exit 0, modes back; a pipe: exit 2")


def t_npd_oom_risk(suite, ctx):
    """node-problem-detector's oom-risk check: a leak in a memory cgroup ~50 s
    from its limit, watched by an instance --pin left (status takes the
    pinned one, whatever else runs) filtered to that cgroup: exit 1 and the
    leak named, pid comm ETA, in the line's first 80 bytes; noisy-neighbor
    0, up 0."""
    from test_memory import LEAK_LIMIT, memcg
    from test_seed import LEAK_PY
    if "iter" in suite.tool_args or os.environ.get("HOTSPOT_K_AS_5_15"):
        ctx.record("npd_oom_risk", True, "not run: --pin needs driver table, wq or timer")
        return
    if os.path.exists(PIN_DIR):
        raise TestFailure("%s exists before the test: another pinned instance runs "
                          "(hotspot-k unpin stops it)" % PIN_DIR)
    cg = memcg(ctx, LEAK_LIMIT)
    rc, out, err, _ = run_cli(suite, [suite.tool, "--pin", "-i", INTERVAL, "--cgroup",
                                      cgroups.path_of(cg)], timeout=30)
    ctx.undo.append(lambda: _unpin(suite) if os.path.exists(PIN_DIR) else None)
    if rc != 0:
        _fail("hotspot-k --pin --cgroup", rc, out, err)
    p = ctx.workload("leak", cgroups.run_in(cg, [sys.executable, "-c", LEAK_PY]))
    want = re.compile(r"^OOM risk: pid %d python3 ETA (\d+[hms])+"
                      r"( unit \S+| container [0-9a-f]{12})?$" % p.pid)
    deadline = p.hk_started + LEAK_MAX_S + 3
    while True:
        rc, out, err = _status(suite, "--npd", "oom-risk")
        if rc != 0 or mono() > deadline:
            break
        time.sleep(0.5)
    took = mono() - p.hk_started
    line = _npd(suite, "oom-risk", 1, want)
    if len(line[:line.index(" ETA ") + 6]) > 80:
        _fail("status --npd oom-risk: its ETA past NPD's 80 bytes", rc, out, err)
    _npd(suite, "noisy-neighbor", 0, re.compile(r"^no Noisy neighbor \(\d+ tracked\)$"))
    _npd(suite, "up", 0, re.compile(r"^hotspot-k up: \d+ windows every 1s \(driver "
                                    r"(wq|table|timer)\), 1 flagged$"))
    kill_group(p)
    urc, uout, uerr = _unpin(suite)
    if urc != 0:
        _fail("hotspot-k unpin", urc, uout, uerr)
    ctx.record("npd_oom_risk", True, "exit 1 %.1f s into the leak: %s" % (took, line))


def t_npd_up_stalled(suite, ctx):
    """--npd up over a tool whose own process walks (driver iter) at -i 200ms:
    0 while it runs; stopped (SIGSTOP) 2 s, 10 intervals with no window, past
    the 6 up allows: 1, stalled; continued: 0 again within a second."""
    tool = Tool(ctx, "stalled", extra=("-i", "200ms", "--driver", "iter"))
    tool.wait_ready()
    running = re.compile(r"^hotspot-k up: \d+ windows every 200ms \(driver iter\), "
                         r"\d+ flagged$")
    _npd(suite, "up", 0, running)
    os.kill(tool.proc.pid, signal.SIGSTOP)
    try:
        time.sleep(2.0)
        line = _npd(suite, "up", 1, re.compile(r"^hotspot-k stalled: no window for [23]s "
                                               r"\(every 200ms, driver iter\)$"))
    finally:
        os.kill(tool.proc.pid, signal.SIGCONT)
    deadline = mono() + 1.0
    while True:
        rc, out, err = _status(suite, "--npd", "up")
        if rc == 0 or mono() > deadline:
            break
        time.sleep(0.1)
    _npd(suite, "up", 0, running)
    if tool.stop() != 0:
        raise TestFailure("the tool exited non-zero on SIGINT")
    ctx.record("npd_up_stalled", True, line)


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("status_usage", t_status_usage, 30),
    ("status_flagged", t_status_flagged, 90, True),
    ("status_two_instances", t_status_two_instances, 60),
    ("status_pinned", t_status_pinned, 60),
    ("status_watch", t_status_watch, 40),
    ("npd_oom_risk", t_npd_oom_risk, 60, True),
    ("npd_up_stalled", t_npd_up_stalled, 30, True),
]
