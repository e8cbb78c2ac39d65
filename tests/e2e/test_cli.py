# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""CLI tests (fast, no workloads): help, version, config files, usage
errors, running as nobody, and a clean teardown on SIGINT, SIGTERM and
--duration."""

import json
import os
import platform
import re
import shutil
import signal
import struct
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.checks import check_summary_and_teardown, run_cli
from hk_e2e.common import FAST_INTERVAL, INTERVAL
from hk_e2e.procs import TestFailure, indent, mono
from hk_e2e.tool import Tool


def t_cli_help(suite, ctx):
    rc, out, err, _ = run_cli(suite, [suite.tool, "--help"])
    if rc != 0:
        raise TestFailure("--help: exit %d, want 0" % rc)
    if not re.search(r"^Usage: hotspot-k ", out, re.M):
        raise TestFailure("--help: no `Usage: hotspot-k ...` line on stdout:\n" + indent(out))
    ctx.record("cli_help", True)


def _is_static(path):
    """No PT_INTERP program header: linked static."""
    with open(path, "rb") as f:
        elf = f.read(1 << 16)
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    return all(struct.unpack_from("<I", elf, phoff + i * phentsize)[0] != 3
               for i in range(phnum))


def t_cli_version(suite, ctx):
    """--version and `version` say the build: the version first (scripts
    read it), then the commit, libbpf, the architecture, the link, the BPF
    objects' clang (it said `hotspot-k 0.1.0` alone)."""
    rc, out, err, _ = run_cli(suite, [suite.tool, "--version"])
    rc2, out2, err2, _ = run_cli(suite, [suite.tool, "version"])
    lines = out.splitlines()
    keys = [l.split(":")[0] for l in lines[1:]]
    fields = dict((l.split(":", 1)[0], l.split(":", 1)[1].strip()) for l in lines[1:]
                  if ":" in l)
    want_link = "static" if _is_static(suite.tool) else "dynamic"
    if rc != 0 or not lines or not re.match(r"^hotspot-k \d+\.\d+\.\d+$", lines[0]) or \
            keys != ["commit", "libbpf", "arch", "linked", "bpf"] or \
            fields["arch"] != platform.machine() or fields["linked"] != want_link or \
            not re.match(r"^v?\d+\.\d+(\.\d+)? \(built against \d+\.\d+\)$", fields["libbpf"]) or \
            not re.match(r"^clang \d+", fields["bpf"]) or \
            not re.match(r"^([0-9a-f]{7,}|v?\d.*|unknown)(-dirty)?$", fields["commit"]):
        raise TestFailure("--version: exit %d, stdout:\n%s\nwant `hotspot-k X.Y.Z`, then "
                          "commit, libbpf (built against), arch %s, linked %s, bpf clang" %
                          (rc, indent(out), platform.machine(), want_link))
    if rc2 != 0 or out2 != out:
        raise TestFailure("`hotspot-k version`: exit %d, stdout:\n%s\nwant --version's" %
                          (rc2, indent(out2)))
    ctx.record("cli_version", True, "; ".join(lines))


COMMANDS = ["status", "follow", "unpin", "thaw", "profile", "version"]
COMMAND_LIST = "status, follow, unpin, thaw, profile, help, version"


def t_cli_help_words(suite, ctx):
    """`hotspot-k help [COMMAND]` is that --help (it was "unexpected
    argument 'help'")."""
    rc, run_help, _, _ = run_cli(suite, [suite.tool, "--help"])
    rc2, out, err, _ = run_cli(suite, [suite.tool, "help"])
    if rc2 != 0 or out != run_help:
        raise TestFailure("`hotspot-k help`: exit %d, want --help's stdout; stderr %r" %
                          (rc2, err))
    for cmd in COMMANDS:
        rc, want, _, _ = run_cli(suite, [suite.tool, cmd, "--help"])
        rc2, out, err, _ = run_cli(suite, [suite.tool, "help", cmd])
        if rc != 0 or rc2 != 0 or out != want or not want.startswith("Usage: hotspot-k " + cmd):
            raise TestFailure("`hotspot-k help %s`: exit %d, want `%s --help`'s stdout "
                              "(exit %d); got:\n%s" % (cmd, rc2, cmd, rc, indent(out + err)))
    ctx.record("cli_help_words", True, "help and help CMD for %d commands" % len(COMMANDS))


def _hint(cmd):
    return "Try 'hotspot-k%s --help' for more information." % (" " + cmd if cmd else "")


# argv, the hint's command, the first line of stderr (exactly)
USAGE_LINES = [
    (["--bogus"], None, "hotspot-k: unknown option '--bogus'"),
    (["-x"], None, "hotspot-k: unknown option '-x'"),
    (["--config"], None, "hotspot-k: option '--config' needs a value"),
    (["--json=yes"], None, "hotspot-k: option '--json' takes no value"),
    (["--ver"], None, "hotspot-k: ambiguous option '--ver'"),
    (["-j", "stray"], None, "hotspot-k: unexpected argument 'stray'"),
    (["--journal-socket", ""], None,
     "hotspot-k: bad --journal-socket '': a socket's path, 1 to 107 bytes"),
    (["stauts"], None, "hotspot-k: unknown command 'stauts' (commands: %s); did you mean "
     "'status'?" % COMMAND_LIST),
    (["xyzzy"], None, "hotspot-k: unknown command 'xyzzy' (commands: %s)" % COMMAND_LIST),
    (["help", "nope"], None, "hotspot-k: unknown command 'nope' (commands: %s)" %
     COMMAND_LIST),
    (["status", "--bogus"], "status", "hotspot-k status: unknown option '--bogus'"),
    (["status", "-n"], "status", "hotspot-k status: option '-n' needs a value"),
    (["status", "-n", "0"], "status", "hotspot-k status: bad -n '0' (a number from 1 to 1000)"),
    (["status", "--watch", "2x"], "status", "hotspot-k status: bad --watch '2x' (1s..1h in "
     "whole seconds, e.g. 2s; a bare number is seconds)"),
    (["status", "stray"], "status", "hotspot-k status: unexpected argument 'stray'"),
    (["follow", "--bogus"], "follow", "hotspot-k follow: unknown option '--bogus'"),
    (["follow", "-x"], "follow", "hotspot-k follow: unknown option '-x'"),
    (["follow", "extra"], "follow", "hotspot-k follow: unexpected argument 'extra'"),
    (["unpin", "--bogus"], "unpin", "hotspot-k unpin: unknown option '--bogus'"),
    (["unpin", "extra"], "unpin", "hotspot-k unpin: unexpected argument 'extra'"),
    (["thaw", "--bogus"], "thaw", "hotspot-k thaw: unknown option '--bogus'"),
    (["profile", "--bogus"], "profile", "hotspot-k profile: unknown option '--bogus'"),
    (["profile", "1", "--duration"], "profile",
     "hotspot-k profile: option '--duration' needs a value"),
    (["profile", "1", "--duration", "5"], "profile",
     "hotspot-k profile: bad --duration '5' (1s..1h, e.g. 10s)"),
    (["profile"], "profile", "hotspot-k profile: which PID? (e.g. hotspot-k profile 4242)"),
    (["profile", "1", "2"], "profile",
     "hotspot-k profile: one PID only; unexpected argument '2'"),
    (["version", "extra"], "version", "hotspot-k version: unexpected argument 'extra'"),
]


def t_cli_error_style(suite, ctx):
    """One style for every command's usage errors: `hotspot-k[ CMD]: what`
    (never argv[0] nor `follow:`), then the one hint, exit 2 (getopt's
    own messages, three hint forms, none for follow and unpin, stray
    arguments ignored by follow, "unexpected argument 'stauts'")."""
    for argv, cmd, first in USAGE_LINES:
        rc, out, err, _ = run_cli(suite, [suite.tool, *argv])
        want = [first, _hint(cmd)]
        if rc != 2 or err.splitlines() != want or out:
            raise TestFailure("hotspot-k %s: exit %d, stderr:\n%s\nwant exit 2, nothing on "
                              "stdout and exactly:\n%s" % (" ".join(argv), rc, indent(err),
                                                            indent("\n".join(want))))
    ctx.record("cli_error_style", True, "%d usage errors, one line + the hint each" %
               len(USAGE_LINES))


def t_cli_profile_dir_flag(suite, ctx):
    """A refused profile directory is named by the flag the user typed (it
    said --dir for --profile-dir)."""
    for flag in ("--profile-dir", "--dir"):
        rc, out, err, _ = run_cli(suite, [suite.tool, "profile", "1", flag, "/nonexistent/d"])
        if rc != 2 or not err.startswith("hotspot-k profile: %s /nonexistent/d" % flag):
            raise TestFailure("profile 1 %s /nonexistent/d: exit %d, stderr %r; want 2 and "
                              "`hotspot-k profile: %s ...`" % (flag, rc, err, flag))
    ctx.record("cli_profile_dir_flag", True)


def t_cli_not_running(suite, ctx):
    """Nothing pinned: follow and unpin exit 3, told apart from a failure
    (1), in a mount namespace whose bpffs is fresh and empty."""
    got = []
    for cmd in ("follow", "unpin"):
        rc, out, err, _ = run_cli(suite, ["unshare", "--mount", "--propagation", "private",
                                          "--", "sh", "-c",
                                          "mount -t bpf bpf /sys/fs/bpf && exec \"$@\"", "sh",
                                          suite.tool, cmd], timeout=10)
        if rc != 3 or "nothing pinned" not in err or len(err.splitlines()) != 1:
            raise TestFailure("%s with nothing pinned: exit %d, stderr:\n%s\nwant exit 3 and "
                              "one line saying nothing is pinned" % (cmd, rc, indent(err)))
        got.append("%s: %s" % (cmd, err.strip()))
    ctx.record("cli_not_running", True, "exit 3; " + "; ".join(got))


def t_cli_watch_units(suite, ctx):
    """status --watch takes a duration like every other flag (2s), and the
    bare number it took (2); the check that stdout is a terminal comes
    after the value (it refused "2s" as "expected seconds")."""
    for v in ("2s", "2", "1m"):
        rc, out, err, _ = run_cli(suite, [suite.tool, "status", "--watch", v])
        if rc != 2 or "stdout is not one" not in err:
            raise TestFailure("status --watch %s with stdout a pipe: exit %d, stderr %r; "
                              "want the value taken and `not a terminal`" % (v, rc, err))
    ctx.record("cli_watch_units", True)


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
    good = os.path.join(suite.workdir, "usage_good.conf")
    with open(good, "w") as f:
        f.write("[thresholds]\n")
    # none of them silently dropped (docs review 5.1, silent precedence):
    # --check-config checks the directories the flags beside it name too
    for argv in (["--generate-config", "--check-config", good], ["--generate-config", "-c", good],
                 ["-c", good, "--check-config", good],
                 ["--check-config", good, "--prometheus", "/nonexistent/dir/hotspot-k.prom"],
                 ["--check-config", good, "--profile-dir", "/nonexistent/dir"]):
        rc, out, err, took = run_cli(suite, [suite.tool, *argv])
        if rc != 2 or out.strip() or len(err.strip().splitlines()) > 2:
            raise TestFailure("hotspot-k %s: exit %d, want 2, nothing on stdout and one "
                              "line and the hint on stderr; stdout:\n%s\nstderr:\n%s" %
                              (" ".join(argv), rc, indent(out[:300]), indent(err)))
    for argv in (["--no-such-flag"], ["-i", "5x"], ["--duration", "soon"], ["stray-arg"],
                 ["--profile", "0.5s"], ["--pin", "--profile", "5s"],
                 ["--profile", "5s", "--profile-dir", "/nonexistent/dir"],
                 ["profile"], ["profile", "1", "2"], ["profile", "x1"],
                 ["profile", "1", "--duration", "2h"], ["profile", "1", "--dir", "/nonexistent"]):
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
    # the other commands: one line that says root, before any step that
    # fails less clearly ("/run/hotspot-k: Permission denied" first)
    for argv in (["status"], ["status", "--json"], ["thaw", "--all"], ["thaw", "/hk/x"],
                 ["follow"], ["unpin"], ["profile", str(os.getpid())]):
        rc, out, cerr, took = run_cli(suite, pre + [exe, *argv], timeout=10, cwd=d)
        want = re.compile(r"^hotspot-k %s: needs root \(.+\), not uid 65534: try sudo "
                          r"hotspot-k %s$" % (argv[0], argv[0]))
        if rc != 1 or out.strip() or len(cerr.splitlines()) != 1 or not want.match(cerr.strip()):
            raise TestFailure("as nobody, hotspot-k %s: exit %d (want 1), want one line `%s` "
                              "and nothing on stdout; stdout:\n%s\nstderr:\n%s" %
                              (" ".join(argv), rc, want.pattern, indent(out), indent(cerr)))
    # status --npd: the same line on stdout, where node-problem-detector
    # shows it, and exit 2 (its Unknown): 1 would set the condition True
    rc, out, cerr, took = run_cli(suite, pre + [exe, "status", "--npd", "up"], timeout=10,
                                  cwd=d)
    want = ("hotspot-k status: needs root (it reads the running instance's BPF maps), not "
            "uid 65534: try sudo hotspot-k status\n")
    if rc != 2 or out != want or cerr:
        raise TestFailure("as nobody, hotspot-k status --npd up: exit %d (want 2), want `%s` "
                          "on stdout alone; stdout:\n%s\nstderr:\n%s" %
                          (rc, want.strip(), indent(out), indent(cerr)))
    ctx.record("cli_not_root", True, "exit 1: %s; status, thaw, follow, unpin, profile: "
               "one line each" % err.strip().splitlines()[0])


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


def t_cli_duration_long(suite, ctx):
    """A --duration past 2^32 s is not cut to 32 bits (alarm() took
    4294967297 s as 1 s)."""
    tool = Tool(ctx, "duration_long", extra=["--duration", "4294967297s"])
    tool.wait_ready()
    time.sleep(max(0.0, 3.0 - (mono() - tool.t_start)))
    if tool.proc.poll() is not None:
        raise TestFailure("--duration 4294967297s: stopped by itself after %.1f s, exit %s"
                          % (mono() - tool.t_start, tool.proc.returncode))
    rc = tool.stop()
    if rc != 0:
        raise TestFailure("--duration 4294967297s: exit %s after SIGINT, want 0" % rc)
    ctx.record("cli_duration_long", True, "still running after %.1f s, exit 0 on SIGINT" %
               (mono() - tool.t_start))


def t_cli_write_error(suite, ctx):
    """--generate-config into a full disk says so and exits 1 (it exited 1
    without a word)."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([suite.tool, "--generate-config"], stdin=subprocess.DEVNULL,
                           stdout=full, stderr=subprocess.PIPE, timeout=10)
    err = r.stderr.decode(errors="replace").strip()
    want = "hotspot-k: writing output: %s" % os.strerror(28)  # ENOSPC
    if r.returncode != 1 or err != want:
        raise TestFailure("--generate-config > /dev/full: exit %d, stderr %r; want exit 1 "
                          "and %r" % (r.returncode, err, want))
    ctx.record("cli_write_error", True, "exit 1: %s" % err)


def t_cli_no_caps(suite, ctx):
    """Root without CAP_BPF and CAP_PERFMON (a container, a hardened unit):
    one line naming what is missing (it was "the kernel refused the
    program type")."""
    drop = "-bpf,-perfmon,-sys_admin"
    rc, out, err, _ = run_cli(suite, ["setpriv", "--inh-caps=" + drop, "--bounding-set=" + drop,
                                      suite.tool, "--json", "-i", INTERVAL], timeout=10)
    lines = err.strip().splitlines()
    if rc != 1 or len(lines) != 1 or "CAP_BPF and CAP_PERFMON" not in lines[0]:
        raise TestFailure("without CAP_BPF/CAP_PERFMON: exit %d, stderr:\n%s; want exit 1 "
                          "and one line naming both" % (rc, indent(err)))
    ctx.record("cli_no_caps", True, "exit 1: %s" % lines[0])


def t_cli_map_enomem(suite, ctx):
    """hk_procs too big for a small memory cgroup: the map and --max-procs are
    named (it was "loading BPF program ... failed")."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    cgroups.memory_limit(cg, 48 << 20)
    rc, out, err, _ = run_cli(suite, cgroups.run_in(cg, [suite.tool, "--max-procs", "1M",
                                                         "--json", "-i", INTERVAL]),
                              timeout=20)
    lines = err.strip().splitlines()
    if rc != 1 or len(lines) != 1 or "hk_procs" not in err or "--max-procs" not in err:
        raise TestFailure("--max-procs 1M in a 48 MiB cgroup: exit %d, stderr:\n%s; want "
                          "exit 1 and one line naming hk_procs and --max-procs" %
                          (rc, indent(err)))
    ctx.record("cli_map_enomem", True, "exit 1: %s" % lines[0])


def t_cli_interval_defaults(suite, ctx):
    """-i 16s alone is a valid config: the trend's defaults follow the
    interval (it failed, blaming oom_risk.trend_span on /dev/null). A value
    the file did set is blamed on its line, and the flag is named."""
    rc, out, err, _ = run_cli(suite, [suite.tool, "-i", "16s", "--check-config", "/dev/null"])
    if rc != 0:
        raise TestFailure("-i 16s --check-config /dev/null: exit %d, stderr:\n%s" %
                          (rc, indent(err)))
    path = os.path.join(ctx.workdir, "span.conf")
    with open(path, "w") as f:
        f.write("# a trend too short for 16 s windows\n[oom_risk]\ntrend_span = 20s\n")
    rc, out, err, _ = run_cli(suite, [suite.tool, "-i", "16s", "--check-config", path])
    want = ("hotspot-k: %s:3: oom_risk.trend_span 20s must cover at least 2 intervals of "
            "16s (general.interval from --interval 16s)" % path)
    if rc != 2 or err.strip() != want:
        raise TestFailure("-i 16s with trend_span = 20s: exit %d, stderr %r; want 2 and %r" %
                          (rc, err.strip(), want))
    rc, out, err, _ = run_cli(suite, [suite.tool, "-i", "2h", "--check-config", "/dev/null"])
    if rc != 2 or not err.startswith("hotspot-k: --interval 2h: "):
        raise TestFailure("-i 2h: exit %d, stderr %r; want 2, naming --interval" % (rc, err))
    ctx.record("cli_interval_defaults", True, "-i 16s ok; %s" % want)


def t_cli_arm_enomem(suite, ctx):
    """The kernel cannot allocate the window timer (6.18's kmalloc_nolock()
    failed for a whole second once, on a freshly booted machine; stood in
    for by HOTSPOT_K_TEST_ARM_ENOMEM=1): the walk is driven from userspace
    and says why, and a hog is still diagnosed; with --pin, nobody would
    drive it: one line, exit 1 (it was "cannot arm the window timer" and
    exit 1 in every case)."""
    env = dict(os.environ, HOTSPOT_K_TEST_ARM_ENOMEM="1")
    hog = ctx.workload("hog", ["yes"], stdout=subprocess.DEVNULL)
    rc, out, err, _ = run_cli(suite, [suite.tool, "--json", "-i", FAST_INTERVAL, "--duration", "2s",
                                      *suite.tool_args], timeout=20, env=env)
    first = err.splitlines()[0] if err else ""
    evs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    if rc != 0 or "driver iter (the kernel could not allocate the window timer (ENOMEM))" \
            not in first or not any(o.get("pid") == hog.pid and o.get("to") == "cpu_bound"
                                    for o in evs):
        raise TestFailure("timer ENOMEM: want exit 0, a start line naming driver iter and "
                          "why, and the hog CPU-bound; exit %d\n  stderr:\n%s\n  stdout:\n%s" %
                          (rc, indent(err), indent(out)))
    rc2, out2, err2, _ = run_cli(suite, ["unshare", "--mount", "--propagation", "private", "--",
                                         suite.tool, "--pin", "-i", INTERVAL], timeout=20,
                                 env=env)
    lines = [l for l in err2.splitlines() if "bpffs" not in l]
    want = "hotspot-k: cannot arm the window timer: Cannot allocate memory"
    if rc2 != 1 or lines != [want]:
        raise TestFailure("timer ENOMEM with --pin: want exit 1 and %r; exit %d, stderr:\n%s" %
                          (want, rc2, indent(err2)))
    ctx.record("cli_arm_enomem", True, "%s; --pin: exit 1" % first[:120])


TESTS = [
    # name, function, hard timeout (s)
    ("cli_help", t_cli_help, 15),
    ("cli_version", t_cli_version, 15),
    ("cli_help_words", t_cli_help_words, 20),
    ("cli_error_style", t_cli_error_style, 30),
    ("cli_profile_dir_flag", t_cli_profile_dir_flag, 15),
    ("cli_not_running", t_cli_not_running, 15),
    ("cli_watch_units", t_cli_watch_units, 15),
    ("cli_config_roundtrip", t_cli_config_roundtrip, 15),
    ("cli_bad_config", t_cli_bad_config, 60),
    ("cli_usage_errors", t_cli_usage_errors, 30),
    ("cli_not_root", t_cli_not_root, 15),
    ("cli_sigint_teardown", t_cli_sigint, 30),
    ("cli_sigterm_teardown", t_cli_sigterm, 30),
    ("cli_duration", t_cli_duration, 30),
    ("cli_duration_long", t_cli_duration_long, 30),
    ("cli_write_error", t_cli_write_error, 15),
    ("cli_no_caps", t_cli_no_caps, 15),
    ("cli_map_enomem", t_cli_map_enomem, 30),
    ("cli_arm_enomem", t_cli_arm_enomem, 40),
    ("cli_interval_defaults", t_cli_interval_defaults, 15),
]
