# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Forged workload identity (security review 2, finding L1): a user with a
delegated cgroup subtree names its cgroups after someone else's unit,
container and pod, so that the root tool's JSON lines, Prometheus info
series and `status` blame them for the user's hog.

- attack_ident_forged: root makes /hkatkN.slice with two delegated cgroups
  in it, as systemd delegates (the directory and its cgroup.procs are
  nobody's): a service, hkatkN-web.service, and a slice named so that the
  names below it nest as kubelet's do, hkatkN-kubepods.slice. nobody makes
  nginx.service in the first, and
  hkatkN-kubepods-podUID.slice/cri-containerd-ID.scope in the second, and
  runs a busy loop in each. Their lines must carry the unit root named
  (hkatkN-web.service; none in the slice) and no container id or pod UID.

- attack_ident_subuids: nobody makes a user namespace, which root maps as
  `unshare --map-root-user --map-auto` does with an /etc/subuid range
  (0 to nobody, 1..7 to host 100001..100007), and runs four busy loops on
  one CPU in it, as uids 1..4 there (host 100001..100004). With --profile, at most 2 of them are profiled: the
  rest is refused as nobody's ("uid 65534 has 2 profiles already").

On the base binary the first is "unit":"nginx.service" and the second
"unit":"cri-containerd-ID.scope" with that container id and pod UID. The
second's names also sit where systemd would put them (a slice chain from
the root, the unit right below it): only the owner of the directories
tells them from kubelet's. All four loops of the last are profiled: four
host uids, two slots each.
"""

import os
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.attack import arena, as_nobody
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL
from hk_e2e.procs import TestFailure, fmt_events, read_line, workload_alive
from hk_e2e.tool import Tool
from test_attack_kernel import delegate, remove_tree

CID = "ab" * 32
POD = "0a1b2c3d-1111-2222-3333-444444444444"


def v1_named_systemd():
    """The v1 name=systemd hierarchy of a hybrid host, or None."""
    d = os.path.join(cgroups.ROOT, "systemd")
    return d if os.path.exists(os.path.join(d, "tasks")) else None


def mkcg(path, undo):
    if os.path.isdir(path):
        remove_tree(path)
        os.rmdir(path)
    os.mkdir(path)
    undo.append(lambda: (remove_tree(path), os.rmdir(path)))
    return cgroups.Cgroup(path, 2)


def t_attack_ident_forged(suite, ctx):
    v2 = cgroups.unified()
    if v2 is None:
        raise TestFailure("no cgroup2 hierarchy on this host")
    tag = "hkatk%d" % os.getpid()
    top = mkcg(os.path.join(v2, tag + ".slice"), ctx.undo)
    web = mkcg(os.path.join(top.path, tag + "-web.service"), ctx.undo)
    kube = mkcg(os.path.join(top.path, tag + "-kubepods.slice"), ctx.undo)
    delegate(web)
    delegate(kube)
    # on a hybrid host a path the unified hierarchy does not name is looked
    # up in name=systemd: there the hogs sit in a cgroup that names nothing
    pre = []
    v1 = v1_named_systemd()
    if v1:
        v1cg = os.path.join(v1, tag)
        if not os.path.isdir(v1cg):
            os.mkdir(v1cg)
        ctx.undo.append(lambda: os.rmdir(v1cg))
        pre = [os.path.join(v1cg, "cgroup.procs")]
    forged = {
        "nginx": (web.path, "nginx.service", tag + "-web.service"),
        "kube": (kube.path, "%s-kubepods-pod%s.slice/cri-containerd-%s.scope" %
                 (tag, POD.replace("-", "_"), CID), ""),
    }
    tool = Tool(ctx, "ident", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    hogs = {}
    for name, (base, sub, _) in forged.items():
        # root puts it in the delegated cgroup; nobody makes the names and
        # moves itself down (a move needs the common parent's cgroup.procs)
        script = as_nobody(["sh", "-c", 'mkdir -p "$1" && echo $$ > "$1/cgroup.procs" && '
                            'shift && exec "$@"', "nest", sub, ctx.hkload, "spin"])
        hogs[name] = ctx.workload(name, ["sh", "-c", 'for f; do [ "$f" = -- ] && break; '
                                         'echo $$ > "$f"; shift; done; shift; cd "$0" && '
                                         'exec "$@"', base, *pre,
                                         os.path.join(base, "cgroup.procs"), "--", *script],
                                  stdout=subprocess.DEVNULL)
    bad = []
    for name, (base, sub, want_unit) in forged.items():
        p = hogs[name]
        found = tool.wait_event(lambda o: o.get("pid") == p.pid and
                                o.get("to") not in (None, "ok", "exited"), 20, w0)
        workload_alive(ctx, p)
        if not found:
            raise TestFailure("nobody's busy loop in %s/%s (pid %d) was never flagged" %
                              (base, sub, p.pid))
        o = found[1]
        got = (o.get("unit"), o.get("container_id"), o.get("pod_uid"))
        if got != (want_unit, "", ""):
            bad.append("%s/%s: unit %r container_id %r pod_uid %r; want unit %r and "
                       "none:\n%s" % (base, sub, got[0], got[1], got[2], want_unit,
                                      fmt_events([o])))
    if bad:
        raise TestFailure("names nobody made in a delegated subtree pass for real:\n" +
                          "\n".join(bad))
    ctx.record("attack_ident_forged", True, "nginx.service and a kubepods pod/container "
               "nobody named in delegated cgroups: unit %s and none" % forged["nginx"][2])


# in nobody's user namespace: wait for root's maps, then four loops on
# CPU 1 as uids 1..4 there, their PIDs on stdout (setpriv, run as uid 0
# there, has the namespace's capabilities)
SUBUID_SH = r'''
echo ready
read go || exit 97
for i in 1 2 3 4; do
    taskset -c 1 setpriv --reuid=$i --regid=$i --clear-groups -- "$0" spin &
    echo $!
done
wait
'''


def t_attack_ident_subuids(suite, ctx):
    out = arena(ctx, "out", mode=0o755, owner=0)
    # the tool sees the loops alone: others' busy processes take no slot
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    tool = Tool(ctx, "subuids", extra=("--profile", "60s", "--profile-dir", out,
                                       "-i", FAST_INTERVAL, "--cgroup", cgroups.path_of(cg)))
    tool.wait_ready()
    w0 = tool.windows()
    ns = ctx.workload("userns", cgroups.run_in(cg, as_nobody(["unshare", "-U", "sh", "-c",
                                                             SUBUID_SH, ctx.hkload])),
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    if read_line(ns, 10) != "ready":
        workload_alive(ctx, ns)
        raise TestFailure("nobody's user namespace did not start")
    for f in ("uid_map", "gid_map"):
        with open("/proc/%d/%s" % (ns.pid, f), "w") as m:
            m.write("0 65534 1\n1 100001 7\n")
    ns.stdin.write(b"go\n")
    ns.stdin.flush()
    pids = set()
    for _ in range(4):
        line = read_line(ns, 10)
        if not line or not line.isdigit():
            workload_alive(ctx, ns)
            raise TestFailure("nobody's loops did not start: %r" % line)
        pids.add(int(line))
    # each becomes its uid once setpriv has run (then hkload)
    deadline = time.monotonic() + 5
    while True:
        uids = set()
        for pid in pids:
            with open("/proc/%d/status" % pid) as f:
                uids.update(int(l.split()[1]) for l in f if l.startswith("Uid:"))
        if uids == {100001, 100002, 100003, 100004} or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if uids != {100001, 100002, 100003, 100004}:
        raise TestFailure("nobody's loops run as host uids %s, want 100001..100004" %
                          sorted(uids))

    for pid in sorted(pids):
        if not tool.wait_event(lambda o, pid=pid: o.get("pid") == pid and "event" not in o and
                               o.get("to") not in (None, "ok", "exited"), ENTER_WINDOWS, w0):
            raise TestFailure("nobody's loop %d (of 4 on one CPU) was not flagged within %d "
                              "windows" % (pid, ENTER_WINDOWS))
    time.sleep(0.5)
    started = set(o.get("pid") for _, o in tool.events() if o.get("event") == "profile" and
                  o.get("state") == "started" and o.get("pid") in pids)
    refused = tool.stderr_text().count("uid 65534 has 2 profiles already")
    if len(started) != 2 or refused != 2:
        raise TestFailure("nobody's 4 loops under 4 subordinate uids: %d profiled, %d "
                          "refused as nobody's; want 2 and 2. stderr:\n%s" %
                          (len(started), refused, tool.stderr_text()))
    ctx.record("attack_ident_subuids", True, "nobody's 4 loops as host uids 100001..100004: "
               "2 profiled, 2 refused as uid 65534's")


TESTS = [
    ("attack_ident_forged", t_attack_ident_forged, 30),
    ("attack_ident_subuids", t_attack_ident_subuids, 40),
]
