# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The sched_switch hook exists only while a thread is watched (issue #20).

A storm of context switches on a healthy host (a pipe ping-pong across two
CPUs: nobody waits for a CPU) leaves the hook unattached: no link, not one
run of it, while /proc/stat counts the switches, and the summary says so
from the kernel's own run counts (the tool holds BPF_ENABLE_STATS). The
seed's starved pair attaching it, both sides entering in one window and the
hook going again after the pair: test_seed.py's starved_noisy_neighbor.

What the tool costs the host's other BPF programs (issue #29, finding 10):
nothing by default; their run_time_ns stays 0 beside it, and only with
--bpf-stats does the kernel time their runs, until the tool exits.

A victim starved again after a quiet spell (finding 13): the votes its
thread held for the first episode's aggressor, gone since, must not name
the second episode's aggressor."""

import json
import os
import re
import signal
import sys

from hk_e2e import bpf
from hk_e2e.checks import expect_enter, history, run_cli
from hk_e2e.common import ENTER_WINDOWS, HOLD_WINDOWS
from hk_e2e.procs import TestFailure, fmt_events, harness_off_cpu0, indent
from hk_e2e.sockfilter import SockFilter
from hk_e2e.tool import Tool
from test_seed import BUSY_SH, HOOK_IDLE_WINDOWS, pair_variant

# the windows the storm lasts
STORM_WINDOWS = 4

# a round trip over two pipes between two processes on two CPUs: two
# voluntary switches on each CPU per round trip, and nobody waits for a CPU
PINGPONG_PY = """
import os
cpus = sorted(os.sched_getaffinity(0))
r1, w1 = os.pipe()
r2, w2 = os.pipe()
if os.fork() == 0:
    os.sched_setaffinity(0, {cpus[-1]})
    while True:
        os.read(r1, 1)
        os.write(w2, b"x")
os.sched_setaffinity(0, {cpus[0]})
while True:
    os.write(w1, b"x")
    os.read(r2, 1)
"""


def ctxt():
    """Context switches since boot, every CPU (/proc/stat)."""
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("ctxt "):
                return int(line.split()[1])
    raise TestFailure("no ctxt line in /proc/stat")


def t_hook_healthy_storm(suite, ctx):
    # the kernel's run counts of the tool's programs: under --bpf-stats only
    tool = Tool(ctx, "hook_storm", extra=["--bpf-stats"])
    tool.wait_ready()
    hook, links = bpf.hook_state(tool.prog_ids)
    if hook is None:
        raise TestFailure("no hk_switch program among the tool's %s" % sorted(tool.prog_ids))
    # bpftool shows run_cnt once a program ran under stats
    runs0 = hook.get("run_cnt", 0)
    c0 = ctxt()
    w0 = tool.windows()
    ctx.workload("pingpong", [sys.executable, "-c", PINGPONG_PY])
    attached = []
    for i in range(STORM_WINDOWS):
        tool.wait_windows(1)
        hook, links = bpf.hook_state(tool.prog_ids)
        if links:
            attached.append((tool.windows() - w0, links))
    switches = ctxt() - c0
    runs = hook.get("run_cnt", 0) - runs0
    if switches < 20000 * STORM_WINDOWS:
        raise TestFailure("the storm made %d context switches in %d windows: too few to "
                          "show anything" % (switches, STORM_WINDOWS))
    if attached or runs:
        raise TestFailure("a healthy storm (%d switches) attached the hook: links %s, %d "
                          "runs" % (switches, attached, runs))
    # --bpf-stats holds BPF_ENABLE_STATS: the kernel times each run of its
    # programs, the exit hook's (bpftool's own exits made some) included
    exits = [p for p in bpf.bpftool("prog", "show", "-j") or []
             if p["id"] in tool.prog_ids and p.get("name") in ("hk_exit", "hk_exit_table")]
    if not exits or not exits[0].get("run_cnt"):
        raise TestFailure("the exit hook has no run count: the tool did not enable BPF "
                          "stats (BPF_ENABLE_STATS): %s" % exits)
    # the tool's own account of it, from another process
    rc, out, err, _ = run_cli(suite, [suite.tool, "status", "--json"], timeout=20)
    cost = json.loads(out)["instance"].get("own_cost") if rc == 0 else None
    if not cost or cost.get("source") != "stats" or cost.get("hook_attaches") != 0 or \
            cost.get("hook_runs") != 0:
        raise TestFailure("status --json: want own_cost measured by the kernel's stats, "
                          "the hook never attached nor run; exit %s:\n%s%s" %
                          (rc, indent(out), indent(err)))
    rc = tool.stop()
    said = [l for l in tool.stderr_text().splitlines() if "own cost" in l]
    if rc != 0 or not said or "measured: BPF_ENABLE_STATS" not in said[0] or \
            "sched_switch hook 0 runs" not in said[0] or "(attached 0 times" not in said[0]:
        raise TestFailure("summary: want the own cost measured, the hook never attached; "
                          "exit %s:\n%s" % (rc, indent(tool.stderr_text())))
    ctx.record("hook_healthy_storm", True,
               "%d context switches in %d windows (%.0f/s), hook links 0, hook runs 0; %s" %
               (switches, STORM_WINDOWS, switches / STORM_WINDOWS, said[0].split(": ", 1)[-1]))


def t_hook_cost_estimated(suite, ctx):
    """--no-bpf-stats (and a tool without CAP_SYS_ADMIN): the seed's pair
    attaches the hook; the summary's own cost is an estimate, the hook's
    runs counted from the host's context switches while it was attached."""
    tool, aggr, vict = pair_variant(suite, ctx, "cost_estimated", "--no-bpf-stats")
    hook, links = bpf.hook_state(tool.prog_ids)
    if not links:
        raise TestFailure("the pair is Starved but the hook is not attached")
    rc = tool.stop()
    said = [l for l in tool.stderr_text().splitlines() if "own cost" in l]
    m = re.search(r"sched_switch hook (\d+) runs ([\d.]+) ms \(attached (\d+) times", said[0]) \
        if said else None
    if rc != 0 or not m or "estimated: runs counted x ns per run in make bench" not in said[0] \
            or int(m.group(1)) == 0 or int(m.group(3)) < 1:
        raise TestFailure("--no-bpf-stats: want the own cost estimated, the hook attached "
                          "with runs counted; exit %s:\n%s" % (rc, indent(tool.stderr_text())))
    ctx.record("hook_cost_estimated", True, said[0].split(": ", 1)[-1])


# datagrams the other program receives while a tool runs
OTHER_RUNS = 1000
STATS_SYSCTL = "/proc/sys/kernel/bpf_stats_enabled"


def other_prog(ctx, name):
    """The other program, loaded and run before any tool; None (and the test
    recorded as skipped) when somebody already has the kernel time every
    program: then nothing here can tell the tool's part."""
    try:
        with open(STATS_SYSCTL) as f:
            sysctl = f.read().strip()
    except OSError:
        sysctl = "0"
    other = SockFilter()
    other.send(10)
    before = other.runs()
    if sysctl == "1" or before != (0, 0):
        other.close()
        why = "kernel.bpf_stats_enabled=%s, a socket filter's runs before any tool %s" % \
            (sysctl, before)
        ctx.note("%s skipped: %s" % (name, why))
        ctx.record(name, True, "skipped: BPF stats enabled by someone else (%s)" % why)
        return None
    return other


def own_cost_line(tool):
    said = [l for l in tool.stderr_text().splitlines() if "own cost" in l]
    return said[0] if said else ""


def t_cost_others_untimed(suite, ctx):
    """By default the tool holds no BPF_ENABLE_STATS: another program's runs
    beside it are neither timed nor counted, and its own cost is an
    estimate, said as one."""
    other = other_prog(ctx, "cost_others_untimed")
    if other is None:
        return
    try:
        tool = Tool(ctx, "cost_default")
        tool.wait_ready()
        tool.wait_windows(1)
        other.send(OTHER_RUNS)
        during = other.runs()
        rc = tool.stop()
    finally:
        other.close()
    said = own_cost_line(tool)
    if during != (0, 0):
        raise TestFailure("another BPF program beside the tool: run_cnt %d, run_time_ns %d "
                          "after %d runs; want 0 and 0 (BPF stats not enabled)" %
                          (during[0], during[1], OTHER_RUNS))
    if rc != 0 or "estimated: runs counted x ns per run in make bench" not in said:
        raise TestFailure("summary: want the own cost said as estimated; exit %s:\n%s" %
                          (rc, indent(tool.stderr_text())))
    ctx.record("cost_others_untimed", True, "%d runs of another program: run_cnt 0, "
               "run_time_ns 0; %s" % (OTHER_RUNS, said.split(": ", 1)[-1]))


def t_cost_bpf_stats(suite, ctx):
    """--bpf-stats: the kernel times every program of the host, the other
    one included, exactly while the tool runs."""
    other = other_prog(ctx, "cost_bpf_stats")
    if other is None:
        return
    try:
        tool = Tool(ctx, "cost_bpf_stats", extra=["--bpf-stats"])
        tool.wait_ready()
        other.send(OTHER_RUNS)
        during = other.runs()
        rc = tool.stop()
        other.send(OTHER_RUNS)
        after = other.runs()
    finally:
        other.close()
    said = own_cost_line(tool)
    if during[0] != OTHER_RUNS or during[1] <= 0 or after != during:
        raise TestFailure("--bpf-stats: another program's run_cnt, run_time_ns %s after %d "
                          "runs with the tool, %s after %d more without; want %d and > 0, "
                          "then unchanged" % (during, OTHER_RUNS, after, OTHER_RUNS,
                                              OTHER_RUNS))
    if rc != 0 or "measured: BPF_ENABLE_STATS" not in said:
        raise TestFailure("--bpf-stats: want the own cost measured; exit %s:\n%s" %
                          (rc, indent(tool.stderr_text())))
    ctx.record("cost_bpf_stats", True, "another program: %d runs, %d ns timed (%d ns a run) "
               "while the tool ran, none after; %s" %
               (during[0], during[1], during[1] // during[0], said.split(": ", 1)[-1]))


# Two episodes on CPU 0, in one session (test_seed.PAIR_SH says why): the
# victim at nice 7 beside aggressor A waits ~80 % and is preempted ~40
# times a window; then stopped (its thread quiet) while A is killed; then
# at nice 19 beside B, stopped until then: preempted ~4 times a window.
EPISODES_SH = """\
taskset -c 0 bash -c "$1" &
echo $!
taskset -c 0 nice -n 7 bash -c "$1" &
echo $!
taskset -c 0 bash -c 'kill -STOP $$; '"$1" &
echo $!
wait
"""


def t_hook_second_episode(suite, ctx):
    with harness_off_cpu0():
        second_episode(suite, ctx)


def second_episode(suite, ctx):
    tool = Tool(ctx, "second_episode")
    tool.wait_ready()
    w0 = tool.windows()
    a, vict, b = ctx.workload_pair("episodes", EPISODES_SH, ["aggressor A", "victim",
                                                             "aggressor B"], [BUSY_SH])
    _, first = expect_enter(suite, tool, "second_episode", vict, "starved", ENTER_WINDOWS,
                            w0)
    if first.get("aggressor_pid") != a.pid:
        raise TestFailure("the first episode names aggressor %s, want A (pid %d)" %
                          (first.get("aggressor_pid"), a.pid))
    tool.wait_windows(HOLD_WINDOWS)
    # the victim's thread quiet from now on, holding its votes for A
    os.kill(vict.pid, signal.SIGSTOP)
    os.kill(a.pid, signal.SIGKILL)
    w1 = tool.windows()
    if not tool.wait_event(lambda o: o.get("pid") == vict.pid and o.get("to") == "ok",
                           ENTER_WINDOWS, w1):
        raise TestFailure("the victim, stopped, stayed Starved:\n%s" %
                          fmt_events(history(tool, vict.pid)))
    # quiet past the hook's idle walks: on a host where nothing else waits
    # it detaches, and the next episode attaches it again
    tool.wait_windows(HOOK_IDLE_WINDOWS + 1)
    _, links = bpf.hook_state(tool.prog_ids)
    w2 = tool.windows()
    os.setpriority(os.PRIO_PROCESS, vict.pid, 19)
    os.kill(b.pid, signal.SIGCONT)
    os.kill(vict.pid, signal.SIGCONT)
    found = tool.wait_event(lambda o: o.get("pid") == vict.pid and o.get("to") == "starved" and
                            o is not first, ENTER_WINDOWS, w2)
    if not found:
        raise TestFailure("the victim never became Starved again beside B (pid %d):\n%s" %
                          (b.pid, fmt_events(history(tool, vict.pid))))
    if found[1].get("aggressor_pid") != b.pid:
        raise TestFailure("the second episode names aggressor %s, want B (pid %d; A, pid "
                          "%d, was killed %d windows before):\n%s" %
                          (found[1].get("aggressor_pid"), b.pid, a.pid, w2 - w1,
                           fmt_events(history(tool, vict.pid))))
    expect_enter(suite, tool, "second_episode", b, "noisy_neighbor", ENTER_WINDOWS, w2)
    ctx.record("hook_second_episode", True,
               "victim %d Starved beside A %d, stopped and A killed, %d windows quiet "
               "(hook links then %s), Starved again naming B %d" %
               (vict.pid, a.pid, w2 - w1, links or "none", b.pid))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("hook_healthy_storm", t_hook_healthy_storm, 60, True),
    ("hook_cost_estimated", t_hook_cost_estimated, 60, True),
    ("cost_others_untimed", t_cost_others_untimed, 60, False),
    ("cost_bpf_stats", t_cost_bpf_stats, 60, False),
    ("hook_second_episode", t_hook_second_episode, 90, True),
]
