# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""A production service: filters applied in the kernel, SIGHUP reloading
the config in place, the journal's priorities."""

import os
import shutil
import signal
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.checks import expect_enter, history
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, INTERVAL
from hk_e2e.procs import (TestFailure, fmt_events, indent, kill_group, mono, spawn,
                          workload_alive)
from hk_e2e.tool import Tool

# windows in which a process the filters leave out must stay silent
SILENT_WINDOWS = 6


def named_hog(suite, ctx, name):
    """`yes` under another name (its comm is the name it was exec'd by)."""
    link = os.path.join(suite.workdir, name)
    if not os.path.lexists(link):
        os.symlink(shutil.which("yes"), link)
    return ctx.workload(name, [link], stdout=subprocess.DEVNULL)


def silent(tool, procs, w0, windows):
    """Let windows pass; none of procs may have a transition."""
    tool.wait_windows(windows, since=w0)
    for p in procs:
        if history(tool, p.pid):
            raise TestFailure("%s (pid %d), left out by the filters, was diagnosed:\n%s" %
                              (p.hk_name, p.pid, fmt_events(history(tool, p.pid))))
        if tool.proc_entry(p.pid):
            raise TestFailure("%s (pid %d), left out by the filters, has an hk_procs entry" %
                              (p.hk_name, p.pid))


def t_filter_pid_comm(suite, ctx):
    """--pid A --pid C --comm hkf-a --comm hkf-b --exclude-comm hkf-b: of three
    hogs only A passes every filter (B is excluded, C is not named)."""
    a, b, c = (named_hog(suite, ctx, n) for n in ("hkf-a", "hkf-b", "hkf-c"))
    tool = Tool(ctx, "filter_pid_comm",
                extra=["--pid", str(a.pid), "--pid", str(c.pid), "--comm", "hkf-a",
                       "--comm", "hkf-b", "--exclude-comm", "hkf-b", "-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    expect_enter(suite, tool, "filter_pid_comm", a, "cpu_bound", ENTER_WINDOWS, w0)
    silent(tool, [b, c], w0, SILENT_WINDOWS)
    ctx.record("filter_pid_comm", True, "only hkf-a (pid %d) diagnosed; hkf-b excluded, "
               "hkf-c not named: no transition, no hk_procs entry" % a.pid)


def t_filter_cgroup(suite, ctx):
    """--cgroup PATH: a hog inside the subtree (one level below) is diagnosed,
    one outside is not."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    sub = os.path.join(cg.path, "inner")
    os.mkdir(sub)
    ctx.undo.append(lambda: cgroups.Cgroup(sub, cg.version).remove())  # first: reversed
    inside = ctx.workload("inside", cgroups.run_in(cgroups.Cgroup(sub, cg.version), ["yes"]),
                          stdout=subprocess.DEVNULL)
    outside = ctx.workload("outside", ["yes"], stdout=subprocess.DEVNULL)
    tool = Tool(ctx, "filter_cgroup", extra=["--cgroup", cgroups.path_of(cg),
                                              "-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    expect_enter(suite, tool, "filter_cgroup", inside, "cpu_bound", ENTER_WINDOWS, w0)
    silent(tool, [outside], w0, SILENT_WINDOWS)
    ctx.record("filter_cgroup", True, "--cgroup %s: the hog in %s/inner diagnosed, the "
               "one outside not" % (cgroups.path_of(cg), cgroups.path_of(cg)))


def write_config(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def stderr_line(tool, what, timeout_s=5.0):
    t0 = mono()
    while mono() - t0 < timeout_s:
        for line in tool.stderr_text().splitlines():
            if what in line:
                return line
        tool.check_alive()
        time.sleep(0.1)
    raise TestFailure("no %r on stderr within %.0f s:\n%s" %
                      (what, timeout_s, indent(tool.stderr_text())))


def t_reload(suite, ctx):
    """SIGHUP: new filters and thresholds written in place (same programs,
    windows go on, a flagged process keeps its label); a process the new
    filters leave out gets `exited`; a bad file changes nothing and says
    where."""
    conf = os.path.join(ctx.workdir, "reload.conf")
    write_config(conf, "[filter]\ncomms = hkr-a, hkr-c\n")
    a, b, c = (named_hog(suite, ctx, n) for n in ("hkr-a", "hkr-b", "hkr-c"))
    tool = Tool(ctx, "reload", extra=["--config", conf, "-i", FAST_INTERVAL])
    tool.wait_ready()
    progs = set(tool.prog_ids)
    w0 = tool.windows()
    expect_enter(suite, tool, "reload", a, "cpu_bound", ENTER_WINDOWS, w0)
    expect_enter(suite, tool, "reload", c, "cpu_bound", ENTER_WINDOWS, w0)
    if history(tool, b.pid):
        raise TestFailure("hkr-b was diagnosed before the reload let it in")

    # a: left out; b: let in; c: stays, under a new threshold
    write_config(conf, "[starved]\nmin_wait = 60%\n[filter]\ncomms = hkr-b, hkr-c\n")
    w1 = tool.windows()
    tool.proc.send_signal(signal.SIGHUP)
    line = stderr_line(tool, "hotspot-k: reload: %s:" % conf)
    for want in ("starved.min_wait 70% -> 60%", "filter.comms hkr-a, hkr-c -> hkr-b, hkr-c"):
        if want not in line:
            raise TestFailure("the reload line does not say %r: %r" % (want, line))
    expect_enter(suite, tool, "reload", b, "cpu_bound", ENTER_WINDOWS, w1)
    if not tool.wait_event(lambda o: o.get("pid") == a.pid and o.get("to") == "exited",
                           ENTER_WINDOWS, w1):
        raise TestFailure("hkr-a, left out by the new filters, got no `exited`:\n%s" %
                          fmt_events(history(tool, a.pid)))
    hc = history(tool, c.pid)
    if [o["to"] for o in hc] != ["cpu_bound"]:
        raise TestFailure("hkr-c lost its state across the reload:\n%s" % fmt_events(hc))
    if set(tool.prog_ids) != progs or tool.windows() <= w1:
        raise TestFailure("the reload detached or stopped the walk")
    cfg = tool.config()
    if cfg.get("starved_wait_pct_x100") != 6000:
        raise TestFailure("hk_config holds starved_wait_pct_x100 %s after the reload, not "
                          "6000" % cfg.get("starved_wait_pct_x100"))

    # a bad file: one line naming file:line, the running config stays
    write_config(conf, "[starved]\nmin_wait = 60%\n[filter]\ncomms = hkr-b\nbogus = 1\n")
    tool.proc.send_signal(signal.SIGHUP)
    bad = stderr_line(tool, "the running config stays")
    if "%s:5: unknown key 'bogus' in [filter]" % conf not in bad:
        raise TestFailure("the bad reload does not name file:line: %r" % bad)
    time.sleep(1.5)
    tool.check_alive()
    if tool.config().get("filter_comms", {}).get("n") != 2:
        raise TestFailure("a bad file changed the running filters: %s" %
                          tool.config().get("filter_comms"))
    ctx.record("reload", True, "%s; then: %s" % (line.split(": ", 2)[-1],
                                               bad.split("hotspot-k: ")[-1]))


def t_journal(suite, ctx):
    """stdout and stderr are the journal (JOURNAL_STREAM names them): each
    line starts with its syslog priority, <5> into CPU-bound, <6> for exited,
    <6> for the tool's start line."""
    r, w = os.pipe()
    st = os.fstat(w)
    env = dict(os.environ, JOURNAL_STREAM="%d:%d" % (st.st_dev, st.st_ino))
    # as systemd does: stdout and stderr on the one stream
    # no journald's socket (the host's may run one): the stream's lines
    # alone, as the native entries would replace them (test_journal.py)
    nosock = os.path.join(ctx.workdir, "no-journald.socket")
    tool = ctx.workload("tool", [suite.tool, "-i", FAST_INTERVAL, "--journal-socket", nosock,
                                 *suite.tool_args], stdout=w, stderr=w, env=env)
    os.close(w)
    os.set_blocking(r, False)
    time.sleep(2)
    hog = named_hog(suite, ctx, "hkj-hog")
    out, deadline, lines = b"", mono() + ENTER_WINDOWS + 10, []
    while mono() < deadline and len(lines) < 2:
        workload_alive(ctx, tool)
        try:
            out += os.read(r, 65536)
        except BlockingIOError:
            pass
        lines = [l for l in out.decode(errors="replace").splitlines() if "hkj-hog" in l]
        if lines and hog.poll() is None:
            kill_group(hog)
        time.sleep(0.2)
    kill_group(tool)
    os.close(r)
    if len(lines) < 2 or not lines[0].startswith("<5>") or not lines[1].startswith("<6>") \
            or "CPU-bound" not in lines[0] or "exited" not in lines[1]:
        raise TestFailure("with JOURNAL_STREAM set: %r; want a <5> CPU-bound line and a <6> "
                          "exited line" % lines)
    # the tool's own lines on stderr too: its start line is news, not trouble
    start = [l for l in out.decode(errors="replace").splitlines() if "diagnosing every" in l]
    if not start or not start[0].startswith("<6>hotspot-k: diagnosing every"):
        raise TestFailure("the start line on stderr has no <6>: %r" % start)
    ctx.record("journal", True, "%s | %s" % (lines[0][:40], lines[1][:40]))


def _stall_self_s(text, pid):
    """hotspot_k_stall_seconds_total of pid's cause="self" in a textfile, or None."""
    for line in text.splitlines():
        if line.startswith('hotspot_k_stall_seconds_total{pid="%d",' % pid) and \
                'cause="self"' in line:
            return float(line.rsplit(" ", 1)[1])
    return None


def t_prometheus(suite, ctx):
    """--prometheus FILE: a flagged process gets its series within a window
    or two of its transition, and loses it when it exits; the file is
    replaced whole (no .tmp left). Its stall counter moves while it stays
    flagged (three busy threads on one CPU: 0.5 s of self wait a window),
    not only at its transitions."""
    path = os.path.join(ctx.workdir, "hotspot-k.prom")
    tool = Tool(ctx, "prometheus", extra=["--prometheus", path, "-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    hog = named_hog(suite, ctx, "hkp-hog")
    t_ev, _ = expect_enter(suite, tool, "prometheus", hog, "cpu_bound", ENTER_WINDOWS, w0)
    series = 'hotspot_k_process_flagged{pid="%d",comm="hkp-hog",' % hog.pid

    def wait_text(pred, what):
        deadline = mono() + 3 * 1.0 + 5
        while mono() < deadline:
            try:
                with open(path) as f:
                    text = f.read()
            except OSError:
                text = ""
            if pred(text):
                return text
            tool.check_alive()
            time.sleep(0.1)
        raise TestFailure("%s: not in %s within 8 s:\n%s" % (what, path, indent(text[-2000:])))
    text = wait_text(lambda t: series in t, "the hog's series")
    took = mono() - t_ev
    if 'hotspot_k_processes{label="cpu_bound"} 1' not in text or \
            "hotspot_k_windows_total " not in text:
        raise TestFailure("the textfile lacks the per-label count or the counters:\n%s" %
                          indent(text[:2000]))
    kill_group(hog)
    wait_text(lambda t: series not in t and 'hotspot_k_processes{label="cpu_bound"} 0' in t,
              "the hog's series gone after its exit")
    cpu = sorted(os.sched_getaffinity(0))[0]
    crowd = ctx.workload("crowd", ["taskset", "-c", str(cpu), ctx.hkload, "spin",
                                   "--threads", "3"])
    text = wait_text(lambda t: _stall_self_s(t, crowd.pid) is not None, "the crowd's ledger")
    s0, w0 = _stall_self_s(text, crowd.pid), tool.windows()
    tool.wait_windows(4, since=w0)
    text = wait_text(lambda t: (_stall_self_s(t, crowd.pid) or 0) > s0, "the ledger moving")
    s1 = _stall_self_s(text, crowd.pid)
    moves = len(history(tool, crowd.pid))
    kill_group(crowd)
    if s1 - s0 < 1.0 or moves != 1:
        raise TestFailure("the crowd's self wait went %.3f -> %.3f s in 4 windows of 250 ms "
                          "(want >= 1 s more) over %d transitions (want 1)" % (s0, s1, moves))
    left = [n for n in os.listdir(ctx.workdir) if n.startswith("hotspot-k.prom") and
            n != "hotspot-k.prom"]
    if left:
        raise TestFailure("files left beside the textfile: %s" % left)
    ctx.record("prometheus", True, "series %.1f s after the transition, gone after the exit; "
               "a crowd's self wait counter %.2f -> %.2f s in 4 windows, no transition"
               % (took, s0, s1))


PIN_DIR = "/sys/fs/bpf/hotspot-k"


def run(argv, timeout=20):
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def t_pin(suite, ctx):
    """--pin: load, pin, exit; the diagnosis runs on with no process: follow
    prints its transitions, status reads its state, unpin stops it and
    leaves no BPF object behind."""
    from hk_e2e.bpf import bpf_ids_loaded
    if os.path.exists(PIN_DIR):
        raise TestFailure("%s exists before the test: another instance is pinned" % PIN_DIR)
    ctx.undo.append(lambda: os.path.exists(PIN_DIR) and run([suite.tool, "unpin"]))
    progs0, maps0 = bpf_ids_loaded()
    rc, out, err = run([suite.tool, "--pin", "-i", INTERVAL])
    if rc != 0 or "pinned under %s" % PIN_DIR not in out:
        raise TestFailure("--pin: exit %d\n%s%s" % (rc, indent(out), indent(err)))
    progs1, maps1 = bpf_ids_loaded()
    new_progs, new_maps = progs1 - progs0, maps1 - maps0
    if not new_progs or not new_maps:
        raise TestFailure("--pin exited 0 but left no program or map running")
    err_path = os.path.join(ctx.workdir, "follow.stderr")
    with open(err_path, "wb") as ef:
        follow = ctx.workload("follow", [suite.tool, "follow", "--json"],
                              stdout=subprocess.PIPE, stderr=ef)
    hog = named_hog(suite, ctx, "hkpin-hog")
    from hk_e2e.procs import read_line
    import json
    got = None
    deadline = mono() + ENTER_WINDOWS + 10
    while mono() < deadline and not got:
        line = read_line(follow, 1.0)
        if line:
            o = json.loads(line)
            if o.get("pid") == hog.pid and o.get("to") == "cpu_bound":
                got = o
        workload_alive(ctx, follow)
    if not got:
        raise TestFailure("follow printed no cpu_bound line for the hog within %d s" %
                          (ENTER_WINDOWS + 10))
    rc, out, err = run([suite.tool, "status"])
    if rc != 0 or str(hog.pid) not in out:
        raise TestFailure("status of the pinned instance: exit %d\n%s%s" %
                          (rc, indent(out), indent(err)))
    kill_group(hog)
    kill_group(follow)
    rc, out, err = run([suite.tool, "unpin"])
    if rc != 0 or os.path.exists(PIN_DIR):
        raise TestFailure("unpin: exit %d, %s still there\n%s" % (rc, PIN_DIR, indent(err)))
    deadline = mono() + 3
    while True:
        lp, lm = bpf_ids_loaded()
        if not (new_progs & lp) and not (new_maps & lm):
            break
        if mono() > deadline:
            raise TestFailure("3 s after unpin the kernel still holds programs %s, maps %s" %
                              (sorted(new_progs & lp), sorted(new_maps & lm)))
        time.sleep(0.1)
    rc, _, err = run([suite.tool, "unpin"])
    if rc != 3 or "nothing pinned" not in err:
        raise TestFailure("a second unpin: exit %d (want 3: nothing pinned), %r" % (rc, err))
    ctx.record("pin", True, "%d programs and %d maps ran with no process; follow and status "
               "read them; unpin left none" % (len(new_progs), len(new_maps)))


TESTS = [
    ("filter_pid_comm", t_filter_pid_comm, 60),
    ("filter_cgroup", t_filter_cgroup, 60),
    ("reload", t_reload, 90),
    ("journal", t_journal, 45),
    ("prometheus", t_prometheus, 60),
    ("pin", t_pin, 60),
]
