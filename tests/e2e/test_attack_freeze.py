# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Attacks on the freeze before the OOM killer (--freeze-on-oom), by nobody
against the root tool (security review, findings 2, 4, 12 and 16's count).

- attack_freeze_shared: a cgroup holds root's `sleep` (a service's daemon)
  and nobody's leak; the leak enters OOM risk with a short ETA. Frozen, it
  would stop root's process too: the cgroup must stay thawed, and the
  refusal name the rule, root's pid and uid 0;
- attack_freeze_expiry: a freeze ends by itself after --freeze-max (3 s
  here), said in a line, and not before;
- attack_freeze_crash: the tool is SIGKILLed with a cgroup frozen; the
  next one says so at start and takes it over (its record in
  /run/hotspot-k), `status` lists it, `thaw --all` thaws it; a record whose
  time is up is thawed by the next start;
- attack_freeze_pid_reuse: the tool is stopped (SIGSTOP, standing in for
  a stall) while the leak enters OOM risk; the leak is killed and its PID
  given to root's `sleep` in another cgroup (kernel.ns_last_pid) before
  the tool goes on: that cgroup must not be frozen;
- attack_freeze_count: two leaks of one cgroup enter OOM risk in the same
  window: one freeze, counted once ("1 cgroups frozen");
- attack_thaw_outside: `hotspot-k thaw /sys/fs/cgroup/../../../tmp/x`,
  x being nobody's directory with cgroup.events "frozen 1" and
  cgroup.freeze a symlink to a root file: refused in one line, exit 1, the
  file untouched.

On the base binary each fails: the shared cgroup and the victim of the
recycled PID are frozen, the count says 2, the thaw writes "0" into the
root file, and --freeze-max is an unknown flag. Every cgroup is thawed
before anything is killed.

Each tool that may freeze is filtered to its test's memory cgroup, so that
the tests run together (run.TOGETHER); attack_freeze_crash runs apart, as
its `thaw --all` thaws every recorded freeze.
"""

import os
import signal
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.attack import NOBODY_UID, arena, as_nobody, run_as_nobody, victim_file
from hk_e2e.procs import TestFailure, fmt_events, indent, mono, read_line, workload_alive
from hk_e2e.checks import fast_trend
from hk_e2e.tool import Tool
from test_freeze import FREEZE_ETA, FREEZE_WINDOWS, LEAK, leak_in_cgroups

RUNDIR = "/run/hotspot-k"


def start_nobody_leak(ctx, name, cg, fz):
    """The suite's leak, as nobody, in the memory cgroup cg and the freezer fz."""
    p = ctx.workload(name, cgroups.run_in_both(cg, fz, as_nobody([ctx.hkload, *LEAK])),
                     stdout=subprocess.PIPE)
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("%s: the leak did not start" % name)
    return p


def freeze_line(tool, pid, since, windows=FREEZE_WINDOWS):
    found = tool.wait_event(lambda o: o.get("event") == "freeze" and o.get("pid") == pid and
                            o.get("result") not in ("thawed", "held"), windows, since)
    if not found:
        raise TestFailure("no freeze line for pid %d within %d windows:\n%s" %
                          (pid, windows, fmt_events([o for _, o in tool.events()
                                                     if o.get("pid") == pid])))
    return found


def record_path(fz):
    return os.path.join(RUNDIR, "freeze.v%d.%d" % (fz.version, os.stat(fz.path).st_ino))


def forget_record(ctx, fz):
    """Remove the record of fz at cleanup (a test that failed half-way)."""
    path = record_path(fz)

    def drop():
        for p in (path,):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
        try:
            os.rmdir(RUNDIR)        # made by the tool, if nothing else is left
        except OSError:
            pass
    ctx.undo.append(drop)
    return path


def sibling_freezer(ctx, fz, suffix):
    """Another freezer cgroup beside fz (root's), thawed and removed with the test."""
    path = "%s-%s" % (fz.path, suffix)
    if os.path.isdir(path):
        cgroups.Cgroup(path, fz.version).remove()
    os.mkdir(path)
    cg = cgroups.Cgroup(path, fz.version)
    ctx.undo.append(cg.remove)
    ctx.before_kill.append(cg.thaw)
    cgroups._freezers.append(cg)
    return cg


def own_cgroup(cg):
    """The tool filtered to the test's memory cgroup: the freeze attacks run
    together (run.TOGETHER), and a tool that saw another test's leak would
    freeze it."""
    return ["--cgroup", cgroups.path_of(cg)]


def timer_driver():
    """A driver that walks with the tool stopped (the kernel's timer): wq
    from 6.10, timer from 6.7; None before (iter walks from the tool)."""
    try:
        major, minor = (int(x) for x in os.uname().release.split("-")[0].split(".")[:2])
    except ValueError:
        return None
    if (major, minor) >= (6, 10):
        return ["--driver", "wq"]
    if (major, minor) >= (6, 7):
        return ["--driver", "timer"]
    return None


def stop_tool(ctx, tool):
    """SIGSTOP: the tool stands still, as a stalled one would; SIGCONT at cleanup."""
    os.kill(tool.proc.pid, signal.SIGSTOP)
    ctx.before_kill.append(lambda: tool.alive() and os.kill(tool.proc.pid, signal.SIGCONT))


def wait_label(tool, pid, label, max_windows):
    """Until the kernel's entry for pid has label (the tool may be stopped)."""
    w0 = tool.windows()
    while tool.windows() - w0 < max_windows:
        e = tool.proc_entry(pid) or {}
        if e.get("hyst", {}).get("label") == label:
            return
        time.sleep(0.2)
    raise TestFailure("pid %d did not get %s within %d windows" % (pid, label, max_windows))


# ==========================================================================
def t_shared(suite, ctx):
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    # root's process in it: cron, atd or php-fpm's own daemon
    root = ctx.workload("root", cgroups.run_in(fz, ["sleep", "1000"]))
    deadline = mono() + 5
    while str(root.pid) not in fz.read("cgroup.procs").split():
        if mono() > deadline:
            raise TestFailure("root's sleep did not get into %s" % fz.path)
        time.sleep(0.05)
    tool = Tool(ctx, "shared", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA,
                                      *own_cgroup(cg)])
    tool.wait_ready()
    w0 = tool.windows()
    p = start_nobody_leak(ctx, "leak", cg, fz)
    t, o = freeze_line(tool, p.pid, w0)
    state = fz.frozen()
    if state != "THAWED" or o.get("result") != "refused":
        raise TestFailure("nobody's leak got %s (holding root's pid %d) %s; the line:\n%s" %
                          (path, root.pid, state, fmt_events([o])))
    want = "%s holds pid %d of uid 0 beside uid %d's leak: never frozen with another " \
           "user's process in it" % (path, root.pid, NOBODY_UID)
    if o.get("reason") != want:
        raise TestFailure("refused, but the reason is not the rule's:\n    got  %r\n    want %r"
                          % (o.get("reason"), want))
    tool.wait_windows(1)
    if fz.frozen() != "THAWED" or not tool.alive():
        raise TestFailure("refused, yet %s is %s" % (path, fz.frozen()))
    ctx.record("attack_freeze_shared", True, "refused, %s stays THAWED: %s" %
               (path, o.get("reason")))


def t_expiry(suite, ctx):
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    forget_record(ctx, fz)
    tool = Tool(ctx, "expiry", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA, "--freeze-max",
                                      "3s", *own_cgroup(cg)])
    tool.wait_ready()
    w0 = tool.windows()
    p = start_nobody_leak(ctx, "leak", cg, fz)
    t_frozen, o = freeze_line(tool, p.pid, w0)
    if o.get("result") != "frozen" or o.get("freeze_max_s") != 3 or fz.frozen() != "FROZEN":
        raise TestFailure("want %s frozen for 3 s at most; %s, the line:\n%s" %
                          (path, fz.frozen(), fmt_events([o])))
    # not before its time
    while mono() - t_frozen < 2.5:
        if fz.frozen() != "FROZEN":
            raise TestFailure("%s thawed %.1f s after the freeze, before its 3 s" %
                              (path, mono() - t_frozen))
        time.sleep(0.1)
    found = tool.wait_event(lambda o: o.get("event") == "freeze" and
                            o.get("result") == "thawed" and o.get("cgroup") == path,
                            5, tool.windows())
    if not found:
        raise TestFailure("no line says %s was thawed, %.1f s after its freeze (state %s):\n%s"
                          % (path, mono() - t_frozen, fz.frozen(),
                             fmt_events([o for _, o in tool.events()
                                         if o.get("event") == "freeze"])))
    t_thawed, th = found
    if th.get("end") != "max" or th.get("frozen_s") not in (2, 3, 4) or \
            fz.frozen() != "THAWED":
        raise TestFailure("want %s thawed after its 3 s (end max); %s, the line:\n%s" %
                          (path, fz.frozen(), fmt_events([th])))
    if os.path.exists(record_path(fz)):
        raise TestFailure("thawed, but its record %s is still there" % record_path(fz))
    ctx.record("attack_freeze_expiry", True, "frozen, thawed by the tool %.1f s later "
               "(--freeze-max 3s): %s" % (t_thawed - t_frozen, th.get("end")))


def write_record(fz, path, pid, since_ms, until_ms):
    """A record as a tool that is gone would have left it (freeze_record.c)."""
    now_s = int(time.time())
    text = ("hotspot-k freeze 1\nfreezer v%d\nid %d\ndir %s\ncgroup %s\npid %d\nuid %d\n"
            "comm hkload\nsince %d %d\nuntil %d %d\nby 4194305 1\n" %
            (fz.version, os.stat(fz.path).st_ino, fz.path, path, pid, NOBODY_UID,
             since_ms, now_s - 10, until_ms, now_s - 5))
    os.makedirs(RUNDIR, mode=0o700, exist_ok=True)
    fd = os.open(record_path(fz), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def t_crash(suite, ctx):
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    rec = forget_record(ctx, fz)
    a = Tool(ctx, "crash-a", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA, *own_cgroup(cg)])
    a.wait_ready()
    w0 = a.windows()
    p = start_nobody_leak(ctx, "leak", cg, fz)
    _, o = freeze_line(a, p.pid, w0)
    if o.get("result") != "frozen" or fz.frozen() != "FROZEN":
        raise TestFailure("the first tool did not freeze %s:\n%s" % (path, fmt_events([o])))
    a.stop(signal.SIGKILL)
    if fz.frozen() != "FROZEN":
        raise TestFailure("SIGKILL of the tool thawed %s: the test tests nothing" % path)

    # the next tool says so at start, and takes it over
    b = Tool(ctx, "crash-b")
    b.wait_ready()
    found = b.wait_event(lambda o: o.get("event") == "freeze" and o.get("cgroup") == path,
                         3, b.windows())
    if not found or found[1].get("result") != "held" or found[1].get("end") != "taken":
        raise TestFailure("a hotspot-k started after the one that froze %s was SIGKILLed "
                          "said nothing of it (want a line result held); its lines:\n%s\n"
                          "stderr:\n%s" % (path, fmt_events([o for _, o in b.events()
                                                             if "event" in o]),
                                           indent(b.stderr_text())))
    if fz.frozen() != "FROZEN" or not os.path.exists(rec):
        raise TestFailure("taken over, but %s is %s, record %s" %
                          (path, fz.frozen(), "there" if os.path.exists(rec) else "gone"))
    st = subprocess.run([ctx.tool, "status"], stdin=subprocess.DEVNULL, capture_output=True,
                        timeout=20)
    if ("frozen: %s until" % path) not in st.stdout.decode(errors="replace"):
        raise TestFailure("hotspot-k status does not list %s as frozen:\n%s" %
                          (path, indent(st.stdout.decode(errors="replace"))))
    b.stop(signal.SIGKILL)

    # thaw --all: every freeze recorded
    r = subprocess.run([ctx.tool, "thaw", "--all"], stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=20)
    out = r.stdout.decode(errors="replace")
    if r.returncode != 0 or ("%s thawed" % path) not in out or fz.frozen() != "THAWED" or \
            os.path.exists(rec):
        raise TestFailure("hotspot-k thaw --all: exit %d, stdout %r, stderr %r; %s is %s" %
                          (r.returncode, out, r.stderr.decode(errors="replace"), path,
                           fz.frozen()))

    # a record whose time was up when its tool died: thawed by the next start
    fz.write("freezer.state" if fz.version == 1 else "cgroup.freeze",
             "FROZEN" if fz.version == 1 else "1")
    boot_ms = int(time.clock_gettime(time.CLOCK_BOOTTIME) * 1000)
    write_record(fz, path, p.pid, boot_ms - 10000, boot_ms - 5000)
    c = Tool(ctx, "crash-c")
    c.wait_ready()
    found = c.wait_event(lambda o: o.get("event") == "freeze" and o.get("cgroup") == path,
                         3, c.windows())
    if not found or found[1].get("result") != "thawed" or found[1].get("end") != "left" or \
            fz.frozen() != "THAWED" or os.path.exists(rec):
        raise TestFailure("a record whose time was up: want %s thawed at start (end left), "
                          "got %s, the cgroup %s:\n%s" %
                          (path, found and found[1], fz.frozen(), indent(c.stderr_text())))
    ctx.record("attack_freeze_crash", True, "SIGKILLed with %s frozen: the next tool took "
               "it over, status listed it, thaw --all thawed it; an overdue record thawed "
               "at start" % path)


def t_pid_reuse(suite, ctx):
    driver = timer_driver()
    if driver is None:
        ctx.note("kernel %s walks only from the tool (driver iter): a stopped tool sees "
                 "no transition, so the race cannot be staged; the unit test covers it"
                 % os.uname().release)
        ctx.record("attack_freeze_pid_reuse", True, "not staged on this kernel")
        return
    cg, fz = leak_in_cgroups(ctx)
    victim = sibling_freezer(ctx, fz, "victim")
    vpath = cgroups.path_of(victim)
    tool = Tool(ctx, "reuse", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA, *driver,
                                     *own_cgroup(cg)])
    tool.wait_ready()
    p = start_nobody_leak(ctx, "leak", cg, fz)
    pid = p.pid
    # the tool stalls; the kernel walks on and queues the leak's entry
    stop_tool(ctx, tool)
    wait_label(tool, pid, "HK_OOM_RISK", FREEZE_WINDOWS)
    p.kill()
    p.wait()
    # root's process gets the PID, in another cgroup
    got = None
    for _ in range(50):
        with open("/proc/sys/kernel/ns_last_pid", "w") as f:
            f.write(str(pid - 1))
        v = ctx.workload("victim", cgroups.run_in(victim, ["sleep", "1000"]))
        if v.pid == pid:
            got = v
            break
        v.kill()
        v.wait()
    if got is None:
        raise TestFailure("could not give pid %d to another process in 50 tries" % pid)
    deadline = mono() + 5
    while str(pid) not in victim.read("cgroup.procs").split():
        if mono() > deadline:
            raise TestFailure("the victim did not get into %s" % victim.path)
        time.sleep(0.05)
    w0 = tool.windows()
    os.kill(tool.proc.pid, signal.SIGCONT)
    t, o = freeze_line(tool, pid, w0, 5)
    if victim.frozen() != "THAWED" or o.get("result") == "frozen":
        raise TestFailure("the leak's PID went to root's sleep in %s, which got %s; the "
                          "line:\n%s" % (vpath, victim.frozen(), fmt_events([o])))
    want = "it exited, and its PID now belongs to another process"
    if o.get("reason") != want or o.get("cgroup") is not None:
        raise TestFailure("not frozen, but want reason %r and no cgroup read; the line:\n%s"
                          % (want, fmt_events([o])))
    ctx.record("attack_freeze_pid_reuse", True, "pid %d recycled into %s while the tool "
               "was stopped: not frozen (%s)" % (pid, vpath, o.get("reason")))


def t_count(suite, ctx):
    driver = timer_driver()
    if driver is None:
        ctx.note("kernel %s walks only from the tool: the two entries cannot be queued "
                 "together; the unit test covers the count" % os.uname().release)
        ctx.record("attack_freeze_count", True, "not staged on this kernel")
        return
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    forget_record(ctx, fz)
    tool = Tool(ctx, "count", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA, *driver,
                                     *own_cgroup(cg)])
    tool.wait_ready()
    leaks = [start_nobody_leak(ctx, "leak%d" % i, cg, fz) for i in (1, 2)]
    # both enter OOM risk before the tool reads either (a busy tool, one window)
    stop_tool(ctx, tool)
    for p in leaks:
        wait_label(tool, p.pid, "HK_OOM_RISK", FREEZE_WINDOWS)
    w0 = tool.windows()
    os.kill(tool.proc.pid, signal.SIGCONT)
    lines = [freeze_line(tool, p.pid, w0, 5)[1] for p in leaks]
    results = sorted(o.get("result") for o in lines)
    rc = tool.stop()
    err = tool.stderr_text()
    if "freeze: 1 cgroups frozen" not in err or results != ["already", "frozen"]:
        raise TestFailure("two processes of %s: want one freeze, counted once; results %s, "
                          "exit %s, summary:\n%s" %
                          (path, results, rc, indent("\n".join(l for l in err.splitlines()
                                                               if "freeze" in l))))
    ctx.record("attack_freeze_count", True, "two entries, one freeze: %s; \"1 cgroups "
               "frozen\"" % ", ".join(results))


def t_thaw_outside(suite, ctx):
    home = arena(ctx, "thaw")
    victim, check = victim_file(ctx, "victim")
    # nobody's fake cgroup: "frozen 1", and its cgroup.freeze is root's file
    rc, out, err = run_as_nobody(["sh", "-c", 'mkdir x && printf "populated 1\\nfrozen 1\\n" '
                                  '> x/cgroup.events && ln -s "$1" x/cgroup.freeze', "sh",
                                  victim], cwd=home)
    if rc != 0:
        raise TestFailure("nobody could not plant the fake cgroup: %s" % err)
    x = os.path.join(home, "x")
    cases = ["/sys/fs/cgroup/../../.." + x,
             "/sys/fs/cgroup/freezer/../../../.." + x,
             "/sys/fs/cgroup/unified/../../../.." + x,
             x]
    for arg in cases:
        r = subprocess.run([ctx.tool, "thaw", arg], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=20)
        check()
        err = r.stderr.decode(errors="replace")
        if r.returncode != 1 or err.count("\n") != 1 or r.stdout:
            raise TestFailure("hotspot-k thaw %s: exit %d, stdout %r, stderr %r; want exit 1 "
                              "and one line" % (arg, r.returncode, r.stdout, err))
    ctx.record("attack_thaw_outside", True, "%d paths refused, %s untouched: %s" %
               (len(cases), victim, err.strip()))


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("attack_freeze_shared", t_shared, 60, True),
    ("attack_freeze_expiry", t_expiry, 60, True),
    ("attack_freeze_crash", t_crash, 90, True),
    ("attack_freeze_pid_reuse", t_pid_reuse, 60, True),
    ("attack_freeze_count", t_count, 60, True),
    ("attack_thaw_outside", t_thaw_outside, 30),
]
