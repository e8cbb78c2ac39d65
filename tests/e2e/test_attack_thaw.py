# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""A thaw by hand wins, and the freeze's slots cannot be held for free
(issue #30: "the tool fights the operator's thaw"; security review 2, M5).

- attack_thaw_by_hand: two of nobody's leaks, each in a freezer cgroup of
  its own, are frozen; each leaves OOM risk while frozen (flat RSS). One is
  thawed by root with `hotspot-k thaw`, the other by nobody, who owns its
  freezer file (echo THAWED > freezer.state, or 0 > cgroup.freeze). Each
  leak grows again and re-enters OOM risk: the tool must not freeze it
  again (a line says it was thawed by hand), and must have said, within
  two windows of the thaw, that it saw the thaw and let the freeze go
  (its record gone: a self-thawed cgroup holds no slot). Both stay thawed
  at OOM risk; then one leak pauses (SIGSTOP: out of OOM risk, its
  episode over) and grows again: that later episode is frozen.

- attack_freeze_slots: nobody runs 9 leaks, each in a cgroup of its own,
  all entering OOM risk within a window or two: 8 are frozen, the 9th is
  refused ("8 cgroups are frozen already for uid 65534's processes"). One
  user's leaks, self-thawed or not, hold 8 of the tool's 64 slots at most;
- attack_freeze_walk: nobody's leaking cgroup holds 1100 empty cgroups
  (free to make in a delegated subtree; each costs the uid rule an open, a
  listing and a read, in the event loop, twice per freeze): refused at
  1024, said, not walked to the end.

On the base binary the re-entry freezes both cgroups again ("frozen"),
and nothing says the thaw was seen: the record of the self-thawed cgroup
stays, holding one of the 64 slots for --freeze-max; all 9 leaks are
frozen; the cgroup of 1100 is walked and frozen.
"""

import os
import signal
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.attack import NOBODY_UID, run_as_nobody
from hk_e2e.procs import TestFailure, fmt_events, mono
from hk_e2e.checks import fast_trend
from hk_e2e.tool import Tool
from test_attack_freeze import (forget_record, freeze_line, record_path, start_nobody_leak,
                                wait_label)
from test_freeze import FREEZE_ETA, MIB, leak_in_cgroups

LIMIT = 400 * MIB


def child(ctx, parent, name, limit=None):
    """A cgroup below parent, removed (thawed first) with the test."""
    path = os.path.join(parent.path, name)
    if os.path.isdir(path):
        cgroups.Cgroup(path, parent.version).remove()
    os.mkdir(path)
    cg = cgroups.Cgroup(path, parent.version)
    ctx.undo.append(cg.remove)     # reversed at cleanup: before its parent
    ctx.before_kill.append(cg.thaw)
    cgroups._freezers.append(cg)
    if limit:
        cgroups.memory_limit(cg, limit)
    return cg


def pair(ctx, mem, fz, name):
    """A memory cgroup (with its own limit) and a freezer cgroup for one leak."""
    m = child(ctx, mem, name, LIMIT)
    return m, (m if fz.path == mem.path else child(ctx, fz, name))


def freeze_file(fz):
    return "freezer.state" if fz.version == 1 else "cgroup.freeze"


def path_of(cg):
    """The path /proc/PID/cgroup shows for a cgroup two levels down."""
    return "/" + "/".join(cg.path.split("/")[-2:])


def next_freeze_line(ctx, tool, pid, t0, w0, windows):
    """The first line about pid's freeze (not a freeze's end) after t0."""
    while True:
        evs = [o for t, o in tool.events() if t > t0 and o.get("pid") == pid and
               o.get("event") == "freeze" and o.get("end") is None]
        if evs:
            return evs[0]
        if tool.windows() - w0 >= windows:
            raise TestFailure("pid %d: no freeze line within %d windows (it should enter "
                              "OOM risk):\n%s" % (pid, windows,
                                                   fmt_events([o for t, o in tool.events()
                                                               if o.get("pid") == pid])))
        tool.check_alive()
        ctx.meter.sample()
        time.sleep(0.2)


def thaw_conf(ctx):
    """The fast trend over 6 s, and a label lost after one window: a frozen
    leak leaves OOM risk within two windows, and re-enters ~5 s after a thaw."""
    return fast_trend(ctx, "trend_span = 6s\n[general]\nexit_windows = 1\n")


def t_thaw_by_hand(suite, ctx):
    mem, fz = leak_in_cgroups(ctx)
    cgroups.memory_limit(mem, 4 * LIMIT)
    leaks = {}
    for name in ("root", "own"):
        m, f = pair(ctx, mem, fz, name)
        forget_record(ctx, f)
        leaks[name] = [m, f, path_of(f)]
    # nobody owns the freezer file of "own": theirs to thaw, as in a delegated subtree
    own = leaks["own"][1]
    os.chown(os.path.join(own.path, freeze_file(own)), NOBODY_UID, NOBODY_UID)
    tool = Tool(ctx, "thaw", extra=[*thaw_conf(ctx), "--freeze-on-oom", FREEZE_ETA,
                                    "--cgroup", cgroups.path_of(mem)])
    tool.wait_ready()
    w0 = tool.windows()
    for name, (m, f, path) in leaks.items():
        leaks[name].append(start_nobody_leak(ctx, "leak-" + name, m, f))
    for name, (m, f, path, p) in leaks.items():
        _, o = freeze_line(tool, p.pid, w0)
        if o.get("result") != "frozen" or o.get("cgroup") != path or f.frozen() != "FROZEN":
            raise TestFailure("%s: want frozen; %s, the line:\n%s" %
                              (path, f.frozen(), fmt_events([o])))
    # frozen, its RSS is flat: it leaves OOM risk (or the thaw could fall
    # inside the episode by luck: the base binary then kept it thawed)
    for name, (m, f, path, p) in leaks.items():
        wait_label(tool, p.pid, "HK_OK", 6)

    t_thaw, w_thaw = mono(), tool.windows()
    r = subprocess.run([ctx.tool, "thaw", leaks["root"][2]], stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=10)
    if r.returncode != 0:
        raise TestFailure("hotspot-k thaw %s: exit %d, %r" % (leaks["root"][2], r.returncode,
                                                               r.stderr))
    rc, out, err = run_as_nobody(["sh", "-c", 'echo "$1" > "$0"',
                                  os.path.join(own.path, freeze_file(own)),
                                  "THAWED" if own.version == 1 else "0"])
    if rc != 0:
        raise TestFailure("nobody could not thaw its own cgroup %s: %s" % (own.path, err))

    # each leak grows again and re-enters OOM risk: not frozen again
    for name, (m, f, path, p) in leaks.items():
        o = next_freeze_line(ctx, tool, p.pid, t_thaw, w_thaw, 12)
        want = "%s was thawed by hand: not freezing it again while pid %d stays at OOM " \
               "risk" % (path, p.pid)
        if o.get("result") != "refused" or o.get("reason") != want or f.frozen() != "THAWED":
            raise TestFailure("%s, thawed by hand (%s), got %s again at its next OOM risk; "
                              "the line:\n%s\n    want result refused, reason %r" %
                              (path, "hotspot-k thaw" if name == "root" else
                               "nobody's own echo", f.frozen(), fmt_events([o]), want))
    # and it said, within two windows of the thaw, that it saw it: at a
    # tick (end "hand"), or in the refusal when the re-entry came first
    seen_s = {}
    for name, (m, f, path, p) in leaks.items():
        said = "%s was thawed by hand: not freezing it again" % path
        seen = [t for t, o in tool.events() if t > t_thaw and o.get("cgroup") == path and
                (o.get("end") == "hand" or (o.get("reason") or "").startswith(said))]
        if not seen or seen[0] - t_thaw > 2.5:
            raise TestFailure("%s: no line says the thaw by hand was seen within 2.5 s:\n%s"
                              % (path, fmt_events([o for t, o in tool.events()
                                                   if o.get("cgroup") == path])))
        seen_s[name] = seen[0] - t_thaw
        if os.path.exists(record_path(f)):
            raise TestFailure("%s was thawed by hand, yet its record %s still holds a "
                              "freeze slot" % (path, record_path(f)))
    # it stays thawed while at OOM risk
    tool.wait_windows(2)
    for name, (m, f, path, p) in leaks.items():
        label = (tool.proc_entry(p.pid) or {}).get("hyst", {}).get("label")
        if f.frozen() != "THAWED" or label != "HK_OOM_RISK":
            raise TestFailure("%s, thawed by hand, 2 windows later: %s, pid %d %s" %
                              (path, f.frozen(), p.pid, label))
    # a later episode: "root"'s leak pauses (out of OOM risk), then grows
    # again: that one may be frozen
    m, f, path, p = leaks["root"]
    os.kill(p.pid, signal.SIGSTOP)
    ctx.before_kill.append(lambda: p.poll() is None and os.kill(p.pid, signal.SIGCONT))
    wait_label(tool, p.pid, "HK_OK", 5)
    t_cont, w_cont = mono(), tool.windows()
    os.kill(p.pid, signal.SIGCONT)
    o = next_freeze_line(ctx, tool, p.pid, t_cont, w_cont, 12)
    if o.get("result") != "frozen" or f.frozen() != "FROZEN":
        raise TestFailure("%s: a later OOM-risk episode, after the one thawed by hand "
                          "ended, was not frozen (%s); the line:\n%s" %
                          (path, f.frozen(), fmt_events([o])))
    ctx.record("attack_thaw_by_hand", True, "thawed by hotspot-k thaw, seen in %.1f s; by "
               "nobody's own echo, seen in %.1f s; neither frozen again at its next OOM "
               "risk; a later episode frozen again" % (seen_s["root"], seen_s["own"]))


def t_slots(suite, ctx):
    mem, fz = leak_in_cgroups(ctx)
    cgroups.memory_limit(mem, 16 * LIMIT)
    leaks = []
    for i in range(9):
        m, f = pair(ctx, mem, fz, "f%d" % i)
        forget_record(ctx, f)
        leaks.append((m, f, path_of(f)))
    tool = Tool(ctx, "slots", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA,
                                     "--cgroup", cgroups.path_of(mem)])
    tool.wait_ready()
    w0 = tool.windows()
    procs = [start_nobody_leak(ctx, "leak%d" % i, m, f) for i, (m, f, _) in enumerate(leaks)]
    lines = [freeze_line(tool, p.pid, w0)[1] for p in procs]
    frozen = [o for o in lines if o.get("result") == "frozen"]
    refused = [o for o in lines if o.get("result") == "refused"]
    want = "8 cgroups are frozen already for uid %d's processes: no more for it at once" \
        % NOBODY_UID
    states = [f.frozen() for _, f, _ in leaks]
    if len(frozen) != 8 or len(refused) != 1 or refused[0].get("reason") != want or \
            states.count("FROZEN") != 8:
        raise TestFailure("nobody's 9 leaks: want 8 frozen and 1 refused (%r); got %d "
                          "cgroups FROZEN, the lines:\n%s" % (want, states.count("FROZEN"),
                                                               fmt_events(lines)))
    ctx.record("attack_freeze_slots", True, "9 leaks of one uid: 8 frozen, the 9th refused: "
               "%s" % want)


def t_walk(suite, ctx):
    mem, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    # nobody's delegated freezer cgroup: they make 1100 empty cgroups in it
    os.chown(fz.path, NOBODY_UID, NOBODY_UID)
    n = 1100

    def rm_children():
        for i in range(n):
            try:
                os.rmdir(os.path.join(fz.path, "e%d" % i))
            except OSError:
                pass
    ctx.undo.append(rm_children)
    t0 = mono()
    rc, out, err = run_as_nobody(["sh", "-c", 'cd "$0" && i=0; while [ $i -lt %d ]; do '
                                  'mkdir e$i || exit 1; i=$((i+1)); done' % n, fz.path],
                                 timeout_s=60)
    if rc != 0:
        raise TestFailure("nobody could not make %d cgroups in %s: %s" % (n, fz.path, err))
    made_s = mono() - t0
    tool = Tool(ctx, "walk", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA,
                                    "--cgroup", cgroups.path_of(mem)])
    tool.wait_ready()
    w0 = tool.windows()
    p = start_nobody_leak(ctx, "leak", mem, fz)
    _, o = freeze_line(tool, p.pid, w0)
    want = "%s holds more than 1024 cgroups, too many to check that each process is uid " \
        "%d's: never frozen with another user's process in it" % (path, NOBODY_UID)
    if o.get("result") != "refused" or o.get("reason") != want or fz.frozen() != "THAWED":
        raise TestFailure("nobody's leak beside %d empty cgroups: %s; want refused, %r; "
                          "the line:\n%s" % (n, fz.frozen(), want, fmt_events([o])))
    ctx.record("attack_freeze_walk", True, "%d cgroups made by nobody in %.1f s: refused "
               "at 1024" % (n, made_s))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("attack_thaw_by_hand", t_thaw_by_hand, 60, True),
    ("attack_freeze_slots", t_slots, 60, True),
    ("attack_freeze_walk", t_walk, 90, True),
]
