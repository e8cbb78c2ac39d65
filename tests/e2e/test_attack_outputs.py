# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Adversarial: the profile directory as a disk to fill and a name to take
(second security review, findings M3 and L6).

- writer killed: the child that names and writes a profile is killed in
  its first fsync (strace's fault injection: SIGKILL on entry), as the
  parent kills a writer at its 30 s budget while a huge file syncs. Nothing
  is left in the directory: no hidden temporary file (the old writer left
  `.hotspot-k.PID.LABEL.TIME.folded.<16 hex>.tmp` for good), no half of
  the profile; and a stale temporary file of ours from an earlier writer
  (an hour old) is removed at start, while nobody's file of the same
  pattern stays;
- symlinked component: nobody replaces `prof` in their own directory with
  a symlink to a root directory; `profile --dir` through it is refused in
  one line naming the symlink and its owner, exit 2, and nothing is
  written into the root directory (the old tool followed it silently);
- sticky world-writable directory (/tmp's mode 1777): refused in one line,
  exit 2; there anyone can take a profile's final name (a directory at
  `hotspot-k.PID.LABEL.TIME.folded` made the old tool drop the profile).

The caps on a profile's bytes are pinned exactly by unit tests
(tests/unit/test_flame_caps.c).
"""

import json
import os
import re
import shutil
import tempfile
import time

from hk_e2e.attack import NOBODY_UID, arena, run_as_nobody, spawn_as_nobody
from hk_e2e.checks import run_cli
from hk_e2e.procs import TestFailure, indent

STALE = ".hotspot-k.1.manual.20200101T000000Z.svg.0123456789abcdef.tmp"


def busy_loop(ctx):
    busy = spawn_as_nobody(ctx, "busy", [ctx.hkload, "spin"])
    time.sleep(0.2)
    if busy.poll() is not None:
        raise TestFailure("nobody's busy loop did not start")
    return busy


def json_lines(out):
    return [json.loads(x) for x in out.splitlines() if x.startswith("{")]


def t_writer_killed(suite, ctx):
    if not shutil.which("strace"):
        raise TestFailure("strace is not installed (tools/deps.sh test)")
    d = arena(ctx, "killed", owner=0)
    mine = os.path.join(d, STALE)
    with open(mine, "w") as f:
        f.write("left by a writer killed an hour ago\n")
    os.utime(mine, (time.time() - 3600, time.time() - 3600))
    # nobody's own file of our pattern, in a directory nobody can write
    # into: made by root and given to nobody, as it would be where nobody can
    theirs = os.path.join(d, STALE.replace("0123", "3210"))
    with open(theirs, "w") as f:
        f.write("nobody's\n")
    os.chown(theirs, NOBODY_UID, NOBODY_UID)
    os.utime(theirs, (time.time() - 3600, time.time() - 3600))
    busy = busy_loop(ctx)
    argv = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync,fdatasync",
            "-e", "inject=fsync,fdatasync:signal=KILL", "--", ctx.tool, "profile",
            str(busy.pid), "--duration", "1s", "--dir", d, "--json"]
    rc, out, err, took = run_cli(suite, argv, timeout=40)
    done = (json_lines(out) or [{}])[-1]
    if rc == 0 or done.get("state") == "written" or \
            not re.search(r"killed by signal 9", json.dumps(done) + err):
        raise TestFailure("the writer killed in its fsync: exit %d, last line %s, stderr:\n%s"
                          % (rc, done, indent(err)))
    left = sorted(os.listdir(d))
    want = [os.path.basename(theirs)]
    if left != want:
        raise TestFailure("left in the directory after the writer was killed: %s (want only "
                          "nobody's %s)" % (left, want[0]))
    ctx.record("attack_writer_killed", True, "writer SIGKILLed in fsync: nothing left, the "
               "hour-old temporary file of ours removed, nobody's kept (%.1f s)" % took)


def refused(argv, rc, err, pattern, what):
    lines = err.strip().splitlines()
    if rc != 2 or len(lines) != 1 or not re.search(pattern, err):
        raise TestFailure("%s: exit %d, stderr:\n%s\nwant exit 2 and one line matching %r" %
                          (what, rc, indent(err), pattern))
    return lines[0]


def t_dir_symlink_component(suite, ctx):
    home = arena(ctx, "home")
    root_dir = tempfile.mkdtemp(prefix="hk-victim-dir.")
    os.chmod(root_dir, 0o755)
    ctx.undo.append(lambda: shutil.rmtree(root_dir, ignore_errors=True))
    link = os.path.join(home, "prof")
    rc, _, err = run_as_nobody(["ln", "-s", root_dir, link])
    if rc != 0:
        raise TestFailure("nobody's ln -s: %s" % err.strip())
    sleeper = ctx.workload("sleeper", ["sleep", "60"])
    argv = [ctx.tool, "profile", str(sleeper.pid), "--duration", "1s", "--dir", link]
    rc, out, err, took = run_cli(suite, argv, timeout=30)
    line = refused(argv, rc, err, r"%s.* is a symlink .*uid %d" % (re.escape(link),
                                                                    NOBODY_UID),
                   "--dir through nobody's symlink")
    if os.listdir(root_dir):
        raise TestFailure("written into the root directory through nobody's symlink: %s" %
                          os.listdir(root_dir))
    ctx.record("attack_dir_symlink", True, line[:140])


def t_dir_sticky(suite, ctx):
    d = arena(ctx, "sticky", mode=0o1777, owner=0)
    sleeper = ctx.workload("sleeper", ["sleep", "60"])
    argv = [ctx.tool, "profile", str(sleeper.pid), "--duration", "1s", "--dir", d]
    rc, out, err, took = run_cli(suite, argv, timeout=30)
    line = refused(argv, rc, err, r"writable by everyone \(mode 1777\).*take", "sticky 1777")
    if os.listdir(d):
        raise TestFailure("written into the sticky directory: %s" % os.listdir(d))
    ctx.record("attack_dir_sticky", True, line[:140])


TESTS = [
    # name, function, hard timeout (s)
    ("attack_writer_killed", t_writer_killed, 40),
    ("attack_dir_symlink", t_dir_symlink_component, 30),
    ("attack_dir_sticky", t_dir_sticky, 30),
]
