# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Cgroups a test makes: a memory limit, a CPU quota or a freezer, on cgroup
v1 or v2, removed when the test ends (its processes are killed first; a
frozen cgroup is thawed before that, as a frozen process cannot die).

A host may be pure v2 (/sys/fs/cgroup/cgroup.controllers), hybrid (v1
controllers under /sys/fs/cgroup/<controller>, an empty v2 tree at
/sys/fs/cgroup/unified), or v1 only. A controller is in at most one of
them at a time.
"""

import os
import time

ROOT = "/sys/fs/cgroup"

_freezers = []                  # every freezer a test made: thaw_all() thaws them


def v1_root(controller):
    """The v1 hierarchy of a controller, or None."""
    for name in (controller, "cpu,cpuacct" if controller == "cpu" else controller):
        d = os.path.join(ROOT, name)
        if os.path.exists(os.path.join(d, "tasks")):
            return d
    return None


def v2_root(controller):
    """A v2 hierarchy where the controller can be enabled, or None."""
    for d in (ROOT, os.path.join(ROOT, "unified")):
        try:
            with open(os.path.join(d, "cgroup.controllers")) as f:
                if controller in f.read().split():
                    return d
        except OSError:
            continue
    return None


def unified():
    """The cgroup2 hierarchy's mount point (/sys/fs/cgroup on a pure v2
    host, its unified/ on a hybrid one), or None."""
    for d in (ROOT, os.path.join(ROOT, "unified")):
        if os.path.exists(os.path.join(d, "cgroup.procs")) and \
                os.path.exists(os.path.join(d, "cgroup.controllers")):
            return d
    return None


class Cgroup:
    def __init__(self, path, version):
        self.path = path
        self.version = version
        self.procs = os.path.join(path, "cgroup.procs")

    def write(self, name, value):
        with open(os.path.join(self.path, name), "w") as f:
            f.write(str(value))

    def read(self, name):
        with open(os.path.join(self.path, name)) as f:
            return f.read()

    def stat(self):
        """memory.stat (v1 or v2) as a dict of integers."""
        out = {}
        for line in self.read("memory.stat").splitlines():
            k, _, v = line.partition(" ")
            if v.strip().isdigit():
                out[k] = int(v)
        return out

    def thaw(self):
        """Thaw it if it has a freezer: a frozen task never dies of SIGKILL (v1)."""
        for name, value in (("freezer.state", "THAWED"), ("cgroup.freeze", "0")):
            if os.path.exists(os.path.join(self.path, name)):
                try:
                    self.write(name, value)
                except OSError:
                    pass

    def frozen(self):
        """v1 freezer.state (THAWED, FREEZING, FROZEN); v2 FROZEN or THAWED."""
        if self.version == 1:
            return self.read("freezer.state").strip()
        events = dict(l.split(" ", 1) for l in self.read("cgroup.events").splitlines())
        return "FROZEN" if events.get("frozen", "0").strip() == "1" else "THAWED"

    def remove(self):
        """Kill what is left in it, then rmdir (a killed task lingers a little)."""
        self.thaw()
        deadline = time.monotonic() + 5
        while True:
            try:
                pids = [int(x) for x in self.read("cgroup.procs").split()]
            except OSError:
                pids = []
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def make(ctx, controller, version=None):
    """A new cgroup for this test (v1 first unless version says), or None when
    the host has no hierarchy for the controller. Removed at cleanup."""
    name = "hk-e2e-%d-%s" % (os.getpid(), ctx.name)
    root, ver = None, None
    if version in (None, 1):
        root, ver = v1_root(controller), 1
    if root is None and version in (None, 2):
        root, ver = v2_root(controller), 2
        if root:
            try:
                with open(os.path.join(root, "cgroup.subtree_control"), "w") as f:
                    f.write("+" + controller)
            except OSError:
                root = None     # bound to a v1 hierarchy after all
    if root is None:
        return None
    path = os.path.join(root, name)
    if os.path.isdir(path):
        Cgroup(path, ver).remove()     # a rerun's leftover
    os.mkdir(path)
    cg = Cgroup(path, ver)
    ctx.undo.append(cg.remove)
    return cg


def freezer(ctx, cg):
    """A freezer cgroup for the processes of cg: cg itself on v2 (every v2
    cgroup has cgroup.freeze), a new v1 freezer cgroup otherwise. Thawed
    before the test's processes are killed. None when the host has neither."""
    fz = cg if cg.version == 2 else make(ctx, "freezer", version=1)
    if fz is not None:
        ctx.before_kill.append(fz.thaw)
        _freezers.append(fz)
    return fz


def thaw_all():
    """Thaw every freezer made so far (the suite's watchdog, a signal, the end):
    SIGKILL alone would leave a v1-frozen process frozen for good."""
    for fz in list(_freezers):
        fz.thaw()


def memory_limit(cg, limit_bytes):
    cg.write("memory.limit_in_bytes" if cg.version == 1 else "memory.max", limit_bytes)


def cpu_quota(cg, quota_us, period_us=100000):
    if cg.version == 1:
        cg.write("cpu.cfs_period_us", period_us)
        cg.write("cpu.cfs_quota_us", quota_us)
    else:
        cg.write("cpu.max", "%d %d" % (quota_us, period_us))


def run_in(cg, argv):
    """argv, started inside cg from its first instruction."""
    return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', cg.procs, *argv]


def run_in_both(cg1, cg2, argv):
    """argv, started inside two cgroups (of two v1 hierarchies) at once; one
    when they are the same cgroup."""
    if cg1.path == cg2.path:
        return run_in(cg1, argv)
    return ["sh", "-c", 'echo $$ > "$0" && echo $$ > "$1" && shift && exec "$@"',
            cg1.procs, cg2.procs, *argv]


def path_of(cg):
    """The path /proc/PID/cgroup shows for cg: made under a hierarchy's root."""
    return "/" + os.path.basename(cg.path)
