# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Adversarial: the files root writes where nobody can write too (security
review, findings 1, 5 and 16).

- profile symlinks: nobody owns the profile directory and plants symlinks
  to a root file under every name `hotspot-k profile PID` will use (the
  PID is nobody's own busy loop; every UTC second around the start, the
  temporary and the final names): the root file stays as it was, the
  profile's files are root's regular 0640 files, and the tool says whose
  directory it wrote into;
- a profile directory others can write without the sticky bit: refused in
  one line, exit 2, at start (`profile --dir`, `--profile-dir`) and at the
  reload that turns profiles on (the reload is refused whole);
- a FIFO at the textfile's old temporary name (`mkfifo DIR/hotspot-k.prom.tmp`
  in the directory the exporter's user owns): the tool exits by itself at
  the end of its --duration, its textfile valid all along (the old tool
  hung in open() for good: killed at a hard deadline here);
- a hard link there to a root file: the root file stays as it was;
- a clean exit leaves `hotspot_k_up 0` and no other series, not the last
  flagged set for good.
"""

import json
import os
import re
import signal
import stat
import subprocess
import time

from hk_e2e.attack import NOBODY_UID, arena, run_as_nobody, spawn_as_nobody, victim_file
from hk_e2e.checks import run_cli
from hk_e2e.procs import TestFailure, indent, kill_group, mono, spawn
from hk_e2e.tool import Tool
from test_service import stderr_line, write_config

TEXTFILE = "hotspot-k.prom"
# the tool's first line on stderr, --json or not: its programs are loaded and
# --duration's timer is about to be set; as long as Tool.wait_ready allows
START_LINE = "hotspot-k: diagnosing every"
LOAD_BOUND_S = 20
SAMPLE_RE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="'
                       r'(?:[^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.e+]+|NaN)$')


def samples(text, where):
    """The samples of a node_exporter textfile, {line's series: value}; a
    line that is neither HELP, TYPE nor a sample fails the test."""
    out = {}
    if not text.endswith("\n"):
        raise TestFailure("%s does not end with a newline:\n%s" % (where, indent(text[-500:])))
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        m = SAMPLE_RE.match(line)
        if not m:
            raise TestFailure("%s line %d is no textfile line: %r" % (where, n, line[:200]))
        out[m.group(1) + (m.group(2) or "")] = m.group(3)
    return out


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode()
    except (OSError, UnicodeDecodeError):
        return None


def check_own_file(path, mode, what):
    """path is root's own regular file, one link, exactly mode."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_uid != 0:
        raise TestFailure("%s %s: mode %o, %d links, uid %d: want root's regular file, one "
                          "link" % (what, path, st.st_mode, st.st_nlink, st.st_uid))
    if stat.S_IMODE(st.st_mode) != mode:
        raise TestFailure("%s %s: mode %04o, want %04o" %
                          (what, path, stat.S_IMODE(st.st_mode), mode))


def one_line_exit2(argv, rc, err, what):
    lines = err.strip().splitlines()
    if rc != 2 or len(lines) != 1 or not re.search(r"writable by .* and not sticky", err):
        raise TestFailure("%s: exit %d, stderr:\n%s\nwant exit 2 and one line saying the "
                          "directory is writable by others and not sticky" %
                          (" ".join(argv[1:]), rc, indent(err)))
    return lines[0]


def t_profile_symlinks(suite, ctx):
    d = arena(ctx, "prof")
    victim, check = victim_file(ctx, "profile-victim")
    busy = spawn_as_nobody(ctx, "busy", [ctx.hkload, "spin"])
    time.sleep(0.2)
    if busy.poll() is not None:
        raise TestFailure("nobody's busy loop did not start")
    # nobody plants, under every name root may use: the temporary names of
    # the old writer and the final ones, for each second around the start
    now = int(time.time())
    plant = ("import os, sys, time\n"
             "d, pid, now, victim = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]\n"
             "n = 0\n"
             "for s in range(now - 3, now + 16):\n"
             "    ts = time.strftime('%Y%m%dT%H%M%SZ', time.gmtime(s))\n"
             "    for ext in ('folded', 'svg'):\n"
             "        for tail in ('', '.tmp'):\n"
             "            os.symlink(victim, '%s/hotspot-k.%s.manual.%s.%s%s' % "
             "(d, pid, ts, ext, tail))\n"
             "            n += 1\n"
             "print(n)\n")
    rc, out, err = run_as_nobody(["python3", "-c", plant, d, str(busy.pid), str(now), victim])
    if rc != 0:
        raise TestFailure("nobody could not plant the symlinks: %s" % err.strip())
    planted = int(out.strip())
    argv = [ctx.tool, "profile", str(busy.pid), "--duration", "2s", "--dir", d, "--json"]
    rc, out, err, took = run_cli(suite, argv, timeout=30)
    check()
    lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    done = lines[-1] if lines else {}
    if rc != 0 or done.get("state") != "written":
        raise TestFailure("profile in nobody's directory: exit %d, lines %s, stderr:\n%s" %
                          (rc, lines, indent(err)))
    for key in ("folded", "svg"):
        check_own_file(done[key], 0o640, "the profile's " + key)
    # taken, files created safely; and said whose directory it is
    if not re.search(r"belongs to uid %d" % NOBODY_UID, err):
        raise TestFailure("no warning that the directory is nobody's:\n%s" % indent(err))
    left = [n for n in os.listdir(d) if not os.path.islink(os.path.join(d, n)) and
            os.path.join(d, n) not in (done["folded"], done["svg"])]
    if left:
        raise TestFailure("left in the directory: %s" % left)
    ctx.record("attack_profile_symlinks", True, "%d symlinks planted by nobody: victim "
               "untouched, the profile's files root's own 0640, a warning" % planted)


def t_profile_dir_shared(suite, ctx):
    sleeper = ctx.workload("sleeper", ["sleep", "60"])
    results = []
    for mode in (0o777, 0o775):
        d = arena(ctx, "shared%o" % mode, mode=mode, owner=0)
        for argv in ([ctx.tool, "profile", str(sleeper.pid), "--duration", "2s", "--dir", d],
                     [ctx.tool, "--profile", "2s", "--profile-dir", d, "-i", "1s",
                      "--duration", "2s"]):
            rc, out, err, took = run_cli(suite, argv, timeout=20)
            results.append(one_line_exit2(argv, rc, err, d))
            if os.listdir(d):
                raise TestFailure("%s: written into the refused directory: %s" %
                                  (" ".join(argv[1:]), os.listdir(d)))
    ctx.record("attack_profile_dir_shared", True, "4 runs, exit 2: %s" % results[0][:120])


def t_profile_dir_reload(suite, ctx):
    """A reload that turns profiles on checks --profile-dir then, and is
    refused whole: not a failure at the end of every profile."""
    d = arena(ctx, "shared", mode=0o777, owner=0)
    conf = os.path.join(ctx.workdir, "attack_reload.conf")
    write_config(conf, "[profile]\nduration = 0s\n")
    tool = Tool(ctx, "reload", extra=["--config", conf, "--profile-dir", d])
    tool.wait_ready()
    write_config(conf, "[profile]\nduration = 2s\n")
    tool.proc.send_signal(signal.SIGHUP)
    line = stderr_line(tool, "hotspot-k: reload:")
    if not re.search(r"reload: --profile-dir .*writable by everyone.*not sticky.*the "
                     r"running config stays$", line):
        raise TestFailure("the reload that turns profiles on into a directory everyone "
                          "can write: %r" % line)
    # refused whole: once the directory is fixed, the same file is news
    os.chmod(d, 0o755)
    tool.proc.send_signal(signal.SIGHUP)
    again = stderr_line(tool, "profile.duration 0s -> 2s")
    if "reload: %s: " % conf not in again:
        raise TestFailure("the second reload, into a fixed directory: %r" % again)
    rc = tool.stop()
    if rc != 0:
        raise TestFailure("the tool exited %s" % rc)
    ctx.record("attack_profile_dir_reload", True, line.split("reload: ", 1)[1][:100])


def run_textfile(suite, ctx, path, duration_s, name):
    """The tool with --prometheus path for duration_s beside a busy loop,
    killed by PID if it is not gone duration_s + 8 s after its start line
    (--duration counts from there: loading the programs took 8 s of a 12 s
    bound from spawn once, beside the freeze attacks at 165 % of a CPU), or
    if that line is not out LOAD_BOUND_S after spawn: (exit status, stderr,
    the last textfile seen while it ran with hotspot_k_up 1)."""
    ctx.workload("busy", [ctx.hkload, "spin"])
    errp = os.path.join(ctx.workdir, "%s.tool.stderr" % name)
    with open(errp, "wb") as errf:
        p = spawn([ctx.tool, "--json", "--prometheus", path, "-i", "1s", "--duration",
                   "%ds" % duration_s], stdout=subprocess.DEVNULL, stderr=errf)
    ctx.workloads.append(p)
    p.hk_name, p.hk_stderr = name, errp
    deadline = mono() + LOAD_BOUND_S
    started = False
    running = None
    while p.poll() is None and mono() < deadline:
        if not started and START_LINE in (read_text(errp) or ""):
            started = True
            deadline = mono() + duration_s + 8
        text = read_text(path)
        if text and "\nhotspot_k_up 1\n" in text:
            running = text
        time.sleep(0.1)
    if p.poll() is None:
        try:
            with open("/proc/%d/wchan" % p.pid) as f:
                wchan = f.read().strip()
        except OSError:
            wchan = "?"
        kill_group(p)
        if not started:
            raise TestFailure("--prometheus %s: no start line %d s after spawn (waiting "
                              "in %s): killed" % (path, LOAD_BOUND_S, wchan))
        raise TestFailure("--prometheus %s: still running %d s after its start line, "
                          "with a %d s --duration (waiting in %s): killed" %
                          (path, duration_s + 8, duration_s, wchan))
    with open(errp, "rb") as f:
        err = f.read().decode(errors="replace")
    return p.returncode, err, running


def t_prom_fifo(suite, ctx):
    d = arena(ctx, "textfile")
    path = os.path.join(d, TEXTFILE)
    rc, _, err = run_as_nobody(["mkfifo", path + ".tmp"])
    if rc != 0:
        raise TestFailure("nobody's mkfifo: %s" % err.strip())
    t0 = mono()
    rc, err, running = run_textfile(suite, ctx, path, 4, "prom_fifo")
    took = mono() - t0
    if rc != 0:
        raise TestFailure("exit %d, stderr:\n%s" % (rc, indent(err)))
    if running is None:
        raise TestFailure("no textfile with hotspot_k_up 1 while the tool ran")
    got = samples(running, path)
    if "hotspot_k_windows_total" not in got:
        raise TestFailure("the textfile while running has no hotspot_k_windows_total:\n%s" %
                          indent(running[:1500]))
    samples(read_text(path) or "", path)
    check_own_file(path, 0o644, "the textfile")
    if not stat.S_ISFIFO(os.lstat(path + ".tmp").st_mode):
        raise TestFailure("nobody's FIFO at %s.tmp was replaced or removed" % path)
    if not re.search(r"belongs to uid %d" % NOBODY_UID, err):
        raise TestFailure("no warning that the directory is nobody's:\n%s" % indent(err))
    ctx.record("attack_prom_fifo", True, "exited by itself %.1f s after its start (4 s "
               "--duration), textfile valid while running and after" % took)


def t_prom_hardlink(suite, ctx):
    d = arena(ctx, "textfile")
    path = os.path.join(d, TEXTFILE)
    victim, check = victim_file(ctx, "prom-victim")
    rc, _, err = run_as_nobody(["ln", victim, path + ".tmp"])
    if rc != 0:
        # fs.protected_hardlinks=1 stops nobody linking a file of root's;
        # where it is 0 (the kernel's default) nobody can: planted for them
        os.link(victim, path + ".tmp")
        ctx.note("fs.protected_hardlinks stops nobody here; the hard link was made by "
                 "root, as nobody makes it where the sysctl is 0")
    rc, err, running = run_textfile(suite, ctx, path, 3, "prom_hardlink")
    check()
    if rc != 0 or running is None:
        raise TestFailure("exit %d, textfile seen while running: %s; stderr:\n%s" %
                          (rc, running is not None, indent(err)))
    check_own_file(path, 0o644, "the textfile")
    ctx.record("attack_prom_hardlink", True, "the root file linked at %s.tmp untouched" %
               TEXTFILE)


def t_prom_stale(suite, ctx):
    d = os.path.join(ctx.workdir, "attack_prom_stale")
    os.makedirs(d, mode=0o755, exist_ok=True)
    path = os.path.join(d, TEXTFILE)
    tool = Tool(ctx, "prom_stale", extra=["--prometheus", path])
    tool.wait_ready()
    deadline = mono() + 8
    text = None
    while mono() < deadline:
        text = read_text(path)
        if text and "hotspot_k_windows_total" in text:
            break
        tool.check_alive()
        time.sleep(0.1)
    if not text or "\nhotspot_k_up 1\n" not in text:
        raise TestFailure("while running, the textfile does not say hotspot_k_up 1:\n%s" %
                          indent((text or "(none)")[:1500]))
    rc = tool.stop(signal.SIGTERM)
    if rc != 0:
        raise TestFailure("SIGTERM: exit %s" % rc)
    text = read_text(path) or ""
    got = samples(text, path)
    if got != {"hotspot_k_up": "0"}:
        raise TestFailure("after a clean exit the textfile says %d samples, want only "
                          "hotspot_k_up 0:\n%s" % (len(got), indent(text[:1500])))
    ctx.record("attack_prom_stale", True, "after SIGTERM: hotspot_k_up 0, nothing else")


TESTS = [
    # name, function, hard timeout (s)
    ("attack_profile_symlinks", t_profile_symlinks, 40),
    ("attack_profile_dir_shared", t_profile_dir_shared, 40),
    ("attack_profile_dir_reload", t_profile_dir_reload, 40),
    ("attack_prom_fifo", t_prom_fifo, 30),
    ("attack_prom_hardlink", t_prom_hardlink, 30),
    ("attack_prom_stale", t_prom_stale, 30),
]
