# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The attacker of the adversarial suite (`run.py --attacks`): an
unprivileged user beside the root tool, as on any shared production host.

Every attack runs as nobody (setpriv --reuid/--regid 65534, no
supplementary groups): the files it plants, the processes it starts and
the cgroups it is given are nobody's. The root tool is started by the test
as usual (Tool, or run_cli). An attack test fails on a tool that lets the
attack through, and says what the attacker got.
"""

import os
import pwd
import shutil
import subprocess
import tempfile

from .procs import TestFailure

NOBODY_UID = 65534
NOBODY_GID = 65534


def nobody_name():
    try:
        return pwd.getpwuid(NOBODY_UID).pw_name
    except KeyError:
        return str(NOBODY_UID)


def as_nobody(argv):
    """argv run as nobody: real and effective uid and gid 65534, no groups,
    no capabilities (setpriv drops them with the uid change)."""
    if not shutil.which("setpriv"):
        raise TestFailure("setpriv (util-linux) is not installed")
    return ["setpriv", "--reuid=%d" % NOBODY_UID, "--regid=%d" % NOBODY_GID,
            "--clear-groups", "--"] + list(argv)


def run_as_nobody(argv, timeout_s=20, **kw):
    """Run argv as nobody to its end: (returncode, stdout, stderr) as text."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    r = subprocess.run(as_nobody(argv), capture_output=True, timeout=timeout_s, **kw)
    return (r.returncode, r.stdout.decode(errors="replace"),
            r.stderr.decode(errors="replace"))


def spawn_as_nobody(ctx, name, argv, **kw):
    """A workload started as nobody, killed with the test (ctx.workload)."""
    return ctx.workload(name, as_nobody(argv), **kw)


def arena(ctx, name, mode=0o755, owner=NOBODY_UID):
    """A directory for one attack, owned by the attacker (by default), in a
    root-owned 0711 parent that nobody can reach but not list; removed
    with the test."""
    top = getattr(ctx.suite, "attack_top", None)
    if top is None:
        top = tempfile.mkdtemp(prefix="hk-attack.")
        os.chmod(top, 0o711)
        ctx.suite.attack_top = top
    path = os.path.join(top, "%s.%s" % (ctx.name, name))
    shutil.rmtree(path, ignore_errors=True)
    os.mkdir(path)
    os.chown(path, owner, owner)
    os.chmod(path, mode)
    ctx.undo.append(lambda: shutil.rmtree(path, ignore_errors=True))
    return path


def victim_file(ctx, name, text="precious\n"):
    """A root file an attack must not change: (path, check()) where check()
    raises TestFailure when its content or inode changed."""
    top = tempfile.mkdtemp(prefix="hk-victim.")
    os.chmod(top, 0o755)
    path = os.path.join(top, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    ino = os.stat(path).st_ino
    ctx.undo.append(lambda: shutil.rmtree(top, ignore_errors=True))

    def check():
        try:
            st = os.lstat(path)
            with open(path) as f:
                now = f.read()
        except OSError as e:
            raise TestFailure("the victim %s is gone: %s" % (path, e))
        if st.st_ino != ino or now != text:
            raise TestFailure("root wrote the victim %s (inode %d -> %d), now:\n    %r" %
                              (path, ino, st.st_ino, now[:300]))
    return path, check
