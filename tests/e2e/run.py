#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""
End-to-end tests of hotspot-k: the real tool, loaded into the running
kernel, against real workloads.

  python3 tests/e2e/run.py --tool ./hotspot-k [--only NAME,...] [--skip NAME,...]
      [--tool-args "--driver iter"] [--keep] [--attacks | --smoke] [--times FILE]

Needs root (the tool loads BPF programs), bpftool, taskset, nice and setpriv
or runuser. Python 3 standard library only.

This file is the entry point: it checks the setup, runs the tests of
test_cli, test_seed, test_cpu, test_memory, test_freeze, test_controls and
test_json (and the others) in that order, and prints the report. Workloads
whose rate matters come from build/hkload (tests/e2e/hkload.c): memory populated with MAP_POPULATE and
paced by absolute deadlines, so that the test sets every rate, not the
machine's speed. Every test has a hard wall-clock timeout, every process started
(workloads in their own process group, the tool) is killed in a finally
block, and a global watchdog (and atexit and signal handlers) kill
everything if the suite overruns or is interrupted.

Modules: hk_e2e/common.py (settings), procs.py (processes we start), bpf.py
(bpftool and bpf(2)), tool.py (one running hotspot-k, and how the suite
waits), suite.py (running and rerunning tests on a noisy machine), checks.py
(helpers the tests share), cgroups.py (cgroups the tests make); zram.py (swap
on a zram device of a test's own); test_cli.py, test_seed.py, test_cpu.py,
test_memory.py, test_freeze.py, test_controls.py, test_json.py,
test_memtruth.py (the tests).

Output: one line per check, `PASS name (...)` or `FAIL name: reason` (with
the relevant JSON lines), detection latencies, then `N passed, N failed`.
The exit status is non-zero iff a check failed.
"""

import argparse
import glob
import importlib
import os
import shutil
import signal
import sys
import threading

import test_attrib
import test_budget
import test_cli
import test_controls
import test_configs
import test_cpu
import test_flame_svg
import test_freeze
import test_hook
import test_journal
import test_io
import test_json
import test_memblame
import test_memory
import test_memprof
import test_metrics_listen
import test_oom_kill
import test_output
import test_pin
import test_postmortem
import test_preexisting
import test_profile
import test_service
import test_seed
import test_status
import test_ledger
import test_wrap
import test_memtruth
import test_walk
import test_table
from hk_e2e import bpf, cgroups, zram
from hk_e2e.checks import load_defaults
from hk_e2e.common import DISTURBED_PCT, INTERVAL, SUITE_TIMEOUT_S
from hk_e2e.procs import kill_all, mono
from hk_e2e.suite import Suite

# name, function, hard timeout (s)[, rerun once when the machine was disturbed]
TESTS = (test_cli.TESTS + test_seed.TESTS + test_cpu.TESTS + test_memory.TESTS +
         test_freeze.TESTS + test_controls.TESTS + test_output.TESTS +
         test_service.TESTS + test_status.TESTS + test_pin.TESTS + test_io.TESTS + test_profile.TESTS +
         test_memprof.TESTS + test_flame_svg.TESTS +
         test_json.TESTS + test_attrib.TESTS + test_wrap.TESTS + test_memtruth.TESTS +
         test_oom_kill.TESTS + test_hook.TESTS + test_configs.TESTS +
         test_walk.TESTS + test_table.TESTS + test_preexisting.TESTS + test_metrics_listen.TESTS +
         test_journal.TESTS + test_memblame.TESTS + test_postmortem.TESTS +
         test_ledger.TESTS +
         test_budget.TESTS)


# Scenarios that run at the same time as each other: each grows, churns or
# holds a process's memory at a pace its test sets, in a memory cgroup of its
# own or against the host's RAM (the tool compares a leak with RAM less its
# own anon: another test's holding does not change it), and each is judged by
# its own PIDs. None spins a CPU, so none starves another. One freezes
# (freeze_before_oom): a freeze's record belongs to the live tool that wrote
# it, and no other tool here freezes. Together they take as long as the
# longest (~27 s), not their sum (~125 s). The
# negative controls do not belong: their 768 MiB warm-up, paced for a quiet
# machine, was CPU-bound for 3 s beside these (seen once in two runs).
# test_memtruth's host headroom (it holds a third of the host's memory) and
# its two swap tests (on a zram device of their own: any memory cgroup at its
# limit would swap to it) run in groups of their own, below; the freeze
# tests filter to their own cgroup (a freeze is decided each window).
TOGETHER = (
    ("mem_thrashing", "oom_risk", "oom_memcg_bursts", "oom_main_exited", "oom_stops",
     "page_cache_writer", "freeze_before_oom", "freeze_refused",
     # memory truth (#19): none spins a CPU. Not cow_fork: its 512 MiB
     # warm-up, slowed by the others, made it CPU-bound for two windows
     # (2 runs of 2)
     "shmem_map", "freeze_eta_falls",
     # the profile an OOM risk starts (its tool filtered to its own cgroup;
     # it checks no profiler is loaded before its leak is flagged), the
     # host's headroom (a third of the RAM held; its ETA is measured against
     # MemAvailable at the line, whoever else takes memory) and the OOM
     # kills of one tool (it counts every kill on the host: nothing else
     # here is killed)
     "memprof_on_oom", "host_headroom", "oom_kill_recall",
     # status --npd oom-risk naming its own leak: its instance pinned
     # (status takes it, whatever else runs) and filtered to the leak's
     # memory cgroup (the others' leaks unseen); 13 s alone
     "npd_oom_risk"),
    # judged on bytes and shares, not on CPU time: the memory and
    # leaf-frame profiles, the flame graph's script; and a kill nobody
    # flagged (its tool judges its own victim); the OOM post-mortem of a
    # leak (its tool's state directory its own, judged by its victim's PID)
    ("memprof_manual", "memprof_offcpu_leaf", "profile_svg_script", "oom_kill_untracked",
     "postmortem_oom"),
    # OOM risk against the host's own headroom, not beside host_headroom
    # (it holds a third of the RAM): a fill minutes from the limit and a
    # leak ~200 s from it (sized from MemAvailable at its start); each
    # measures what the other takes (the fill's ETA at its end); and a task
    # marked by the OOM killer but not killed, in a 256 MiB memory cgroup of
    # its own, held by a v1 freezer (its tool counts the host's OOM kills:
    # neither of the others is killed; its 256 MiB are measured by theirs).
    # In the ~32 s these wait, the command line's tools that watch no
    # workload: a --duration that ends (or, past 2^32 s, does not) and the
    # teardown after SIGINT and SIGTERM, each judged by its own programs and
    # maps; the summary's loss counters and the warning in a PID namespace
    # of its own (said there, not in the host's), judged on their own
    # stderr. None spins or holds memory (a tool's maps are taken at its
    # load, before the leaks start). Not cli_arm_enomem: its start line must
    # come first on stderr, and another tool's running makes a
    # delay-accounting line come first. The 6 took ~8 s as a group of their
    # own. And another program's runs left untimed by a tool (none of these
    # holds BPF_ENABLE_STATS: only cost_bpf_stats asks for it)
    ("bounded_fill", "host_leak_waits", "oom_mark_no_kill",
     "cli_sigint_teardown", "cli_sigterm_teardown", "cli_duration", "cli_duration_long",
     "summary_losses", "attrib_pidns", "cost_others_untimed"),
    # swap on (a zram device each), so never beside a test that expects an
    # OOM kill or a memory cgroup at its limit without swap; with them the
    # memory-pressure blame (#33: its leak, service and writer in a parent
    # of their own, judged by their own PIDs; ~7 s alone)
    ("swap_leak", "thrash_stall", "leak_blame"),
    # one busy loop each (4 on the 2 CPUs: each waits at most about half
    # the time, short of Starved's 70 %, so each is CPU-bound in any
    # window), each judged by its own PID in its own tool's lines: a
    # cgroup path of control bytes cut, a comm of hostile bytes, a timer
    # switched off in its own tool's maps, and --json into /dev/full (any
    # transition's write fails, whoever's it is). And --bpf-stats timing
    # another program while its tool runs (the kernel's switch is global:
    # none of these reads its own cost, and cost_others_untimed, which
    # wants it off, runs elsewhere)
    ("json_long_cgroup", "json_hostile_comm", "dead_timer", "output_full",
     "cost_bpf_stats"),
    # the --cgroup filter (its tool sees its own subtree: the other tests'
    # loops are outside it, as its own outside one is) and the journal's
    # priorities (its lines picked by its hog's name): 3 busy loops, as
    # filter_pid_comm has alone. Not prometheus: its textfile counts every
    # CPU-bound process on the host. Not reload or filter_pid_comm: 3 loops
    # each already. Not journal_native: 1.8-3.1 s alone, while its fourth loop
    # made these two 2-3 s slower (6.1 -> 8.4-9.4 s, 2 runs each)
    ("filter_cgroup", "journal"),
    # --attacks: the freeze attacks, each tool filtered to its own memory
    # cgroup (a tool that saw another's leak would freeze it), and a leak 70
    # cgroups deep (its tool freezes nothing; it judges its own PID). Not
    # attack_freeze_crash: its `thaw --all` thaws every recorded freeze, the
    # others' too (it runs beside the CPU-bound attacks, below). With them the
    # attacks judged on files alone: the textfile's FIFO, hard link and last
    # write, the profile directories (the two busy loops beside the textfile
    # tests are never judged; a symlinked or sticky one is refused before any
    # profile runs). Not the mapped-file attacks: their two spinners beside
    # these made the textfile tools end past their bound (12 s for a 4 s
    # --duration, 1 run of 2): they run with the other profiles, below
    ("attack_freeze_shared", "attack_freeze_expiry", "attack_freeze_pid_reuse",
     "attack_freeze_count", "attack_thaw_outside", "attack_memcg_deep",
     "attack_prom_fifo", "attack_prom_hardlink", "attack_prom_stale",
     "attack_profile_dir_shared", "attack_profile_dir_reload", "attack_dir_symlink",
     "attack_dir_sticky"),
    # a thaw by hand (`thaw` of its own cgroup only), 9 leaks of one uid, a
    # leak beside 1100 empty cgroups: each tool filtered to its own cgroup.
    # Not in the group above: beside it, its two --duration textfile tools
    # (10.9 s to exit of the 12 s they are given with a 4 s --duration,
    # without these) missed their deadline, 2 runs of 2
    # With them hk_procs filled in a cgroup of its own (each tool filtered
    # to it: the rest of the host takes no entry, and the leaks' tools see
    # none of its processes) and names forged in delegated cgroups (its tool
    # judges its own two loops' units): 4 busy loops, each judged
    # CPU-bound by its own PID (4 on the 2 CPUs wait at most about half the
    # time, short of Starved's 70 %); the leaks are paced, their freezes
    # decided by their own trend
    ("attack_thaw_by_hand", "attack_freeze_slots", "attack_freeze_walk",
     "attack_evict_quiet", "attack_reserve_root", "attack_ident_forged"),
    # busy loops judged CPU-bound by their own PID, each tool filtered to
    # its own cgroup or judging its own PID: a --cgroup made anew, a path
    # the kernel cuts, a hog 40 levels below the filter, a line of 16 x 250
    # control bytes. One loop each: 4 on the 2 CPUs wait at most about half
    # the time, short of Starved's 70 %. With them nobody's tmpfs against
    # the host's headroom (these hold no memory to speak of; its tool
    # filtered to its service; its fill slowed by the loops comes in more
    # windows, and the refusal waits 8), and a freezing tool SIGKILLed
    # (its `thaw --all` thaws every recorded freeze: nothing else here
    # freezes, blame_tmpfs's is refused; `status` lists the records in
    # /run, whichever instance is newest; its leak in a 400 MiB cgroup is
    # a fall the tmpfs test's service does not explain, as it should not)
    ("attack_cgroup_recreated", "attack_cgroup_too_long", "attack_filter_deep",
     "attack_json_line_max", "attack_blame_tmpfs", "attack_freeze_crash"),
    # `profile PID` of nobody's spinner, judged on the files and lines it
    # writes and on its RSS, never on time or on a label: the writer killed in
    # fsync, the ELF parser confined, a symlink to a file of the same inode, a
    # 64 GiB perf map (sparse: its deadline 20 s for 2 s of sampling),
    # nobody's symlinks under every name the profile may take (planted for the
    # 16 s after its start). One spinner each. Not attack_symbols_many_maps:
    # judged on the seconds naming takes. With them blame's control: a 100
    # MiB/s leak against the host, frozen because its own growth is the host's
    # fall (the profiles hold tens of MiB); not beside blame_tmpfs, whose 30 %
    # of the host's memory would be a fall its growth does not explain
    ("attack_writer_killed", "attack_symbols_parser_confined",
     "attack_symbols_same_inode", "attack_symbols_perfmap_64g", "attack_profile_symlinks",
     "attack_blame_control"),
)


# make check's end-to-end part (run.py --smoke): one scenario of each main
# path, 20 s on a calm machine. The command line with the real binary
# (--help, usage and config errors, a load and its teardown: 2 s), one CPU
# diagnosis (cpu_bound, 7.5 s), the fastest memory one (mem_thrashing, 7.5 s;
# oom_risk's trend makes it 22 s), one attack (nobody's busy loop under a
# hostile cgroup path: its line cut, within LINE_MAX, parsed: 2.5 s) and,
# last, every JSON line of those runs checked field by field. Exactly these
# names, in this order; make e2e and e2e-attack run each of them again.
SMOKE = ("cli_help", "cli_usage_errors", "cli_bad_config", "cli_sigint_teardown",
         "cpu_bound", "mem_thrashing", "attack_json_line_max", "json_lines_valid")


def smoke_tests():
    """The SMOKE scenarios, from both suites, in SMOKE's order."""
    by_name = {t[0]: t for t in tuple(TESTS) + attack_tests()}
    return tuple(by_name[n] for n in SMOKE)


def attack_tests():
    """The adversarial suite (--attacks): every test_attack_*.py, in name order."""
    here = os.path.dirname(os.path.abspath(__file__))
    tests = ()
    for path in sorted(glob.glob(os.path.join(here, "test_attack_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        tests += tuple(mod.TESTS)
    return tests


def main():
    ap = argparse.ArgumentParser(description="hotspot-k end-to-end tests")
    ap.add_argument("--tool", default="./hotspot-k", help="the hotspot-k binary")
    ap.add_argument("--hkload", default="build/hkload",
                    help="the workload generator (make build/hkload)")
    ap.add_argument("--only", default="", help="comma-separated substrings of test names")
    ap.add_argument("--skip", default="",
                    help="comma-separated test names to leave out")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--tool-args", default="",
                    help="flags given to every hotspot-k the suite starts, "
                         "e.g. \"--driver iter\" (a test's own flags come after)")
    ap.add_argument("--attacks", action="store_true",
                    help="run the adversarial suite instead (test_attack_*.py): an "
                         "unprivileged user against the root tool")
    ap.add_argument("--smoke", action="store_true",
                    help="run make check's few scenarios instead (SMOKE, from both suites)")
    ap.add_argument("--times", default=os.environ.get("HK_E2E_TIMES", ""),
                    help="write each attempt's wall time to this file, "
                         "one `seconds name` a line (where a suite's time goes; "
                         "default $HK_E2E_TIMES)")
    ap.add_argument("--suite-timeout", type=float, default=SUITE_TIMEOUT_S,
                    help="global watchdog in seconds (default %(default)s)")
    args = ap.parse_args()
    tests = smoke_tests() if args.smoke else attack_tests() if args.attacks else TESTS

    tool = os.path.abspath(args.tool)
    hkload = os.path.abspath(args.hkload)
    for exe in (tool, hkload):
        if not os.access(exe, os.X_OK):
            print("FAIL setup: %s is not an executable" % exe)
            print("0 passed, 1 failed")
            return 1
    if os.geteuid() != 0:
        print("FAIL setup: the end-to-end tests load BPF programs: run them as root")
        print("0 passed, 1 failed")
        return 1
    bpf.BPFTOOL = shutil.which("bpftool") or "/usr/sbin/bpftool"
    missing = [c for c in ("taskset", "nice", "yes", "sleep", "bash")
               if not shutil.which(c)]
    if not os.access(bpf.BPFTOOL, os.X_OK):
        missing.append("bpftool")
    if missing:
        print("FAIL setup: missing commands: %s" % ", ".join(missing))
        print("0 passed, 1 failed")
        return 1

    suite = Suite(tool, [o for o in args.only.split(",") if o], args.keep,
                  args.tool_args.split(), args.suite_timeout)
    # a snapshot: others may rebuild ./hotspot-k while the suite runs
    os.chmod(suite.workdir, 0o755)
    snap = os.path.join(suite.workdir, "hotspot-k")
    shutil.copy2(tool, snap)
    os.chmod(snap, 0o755)
    suite.tool = snap
    suite.hkload = os.path.join(suite.workdir, "hkload")
    shutil.copy2(hkload, suite.hkload)
    os.chmod(suite.hkload, 0o755)
    # the profiler's workload (tests/e2e/profload.c), built beside hkload
    for helper in ("profload", "leakload", "uringidle", "memload", "standin-test"):
        path = os.path.join(os.path.dirname(hkload), helper)
        if os.access(path, os.X_OK):
            shutil.copy2(path, os.path.join(suite.workdir, helper))
    load_defaults(snap)
    finished = threading.Event()

    def summary_and_exit(code):
        cgroups.thaw_all()      # a frozen process would outlive its SIGKILL
        kill_all()
        zram.off_all()          # swap the tests made, after its users are gone
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

    print("hotspot-k e2e: %s%s (run from a copy), interval %s, work dir %s" %
          (tool, " " + args.tool_args if args.tool_args else "", INTERVAL,
           suite.workdir), flush=True)
    try:
        skip = set(o for o in args.skip.split(",") if o)
        unknown = skip - set(t[0] for t in tests)
        if unknown:
            suite.record("setup", False, "--skip: no test named %s" %
                         ", ".join(sorted(unknown)))
        group_of = {n: g for g in TOGETHER for n in g}
        done = set()
        for name, fn, timeout_s, *retry in tests:
            if name in skip or name in done:
                continue
            group = [t for t in tests if t[0] in group_of.get(name, ()) and t[0] not in skip]
            if len(group) > 1:
                suite.run_together(group)
                done.update(t[0] for t in group)
                continue
            suite.run_test(name, fn, timeout_s, retry=bool(retry and retry[0]))
    finally:
        finished.set()
        wd.cancel()
        cgroups.thaw_all()
        kill_all()
        zram.off_all()
        if getattr(suite, "attack_top", None):
            shutil.rmtree(suite.attack_top, ignore_errors=True)

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
    if args.times:
        with open(args.times, "w") as f:
            for d, n in sorted(suite.durations, reverse=True):
                f.write("%.1f %s\n" % (d, n))
    slow = sorted(suite.durations, reverse=True)[:8]
    if slow:
        print("slowest: " + ", ".join("%s %.1f s" % (n, d) for d, n in slow))
    print("suite took %.1f s (%.0f s of it waiting for other users' load to pass)" %
          (mono() - suite.t0, suite.calm_waited))
    if suite.skipped:
        print("%d skipped (neither passed nor failed): %s" % (
            len(suite.skipped), "; ".join("%s: %s" % s for s in suite.skipped)))
    passed = sum(1 for _, ok, _ in suite.results if ok)
    failed = sum(1 for _, ok, _ in suite.results if not ok)
    if not args.keep and failed == 0:
        shutil.rmtree(suite.workdir, ignore_errors=True)
    elif failed:
        print("logs kept in %s" % suite.workdir)
    # again at the end, each failure in a line: what a CI log shows first
    for name, ok, why in suite.results:
        if not ok:
            print("FAILED %s: %s" % (name, str(why)[:300]))
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
