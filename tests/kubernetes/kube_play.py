#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""kube_play.py - the DaemonSet's pod template played on this host by
Debian's podman (make kube-test): the image of make image, the manifest's
capabilities, mounts and probe, and inside it the tool diagnosing a busy
loop the test starts in a cgroup named as the kubelet's systemd driver
names a container's (kubepods.slice/.../cri-containerd-<id>.scope): its
JSON line must carry that pod_uid and container_id.

  tests/kubernetes/kube_play.py IMAGE.oci.tar HKLOAD VERSION

podman 4.3 plays a Pod, not a DaemonSet: the template is taken out of the
manifest whole, and what 4.3 does not read is given to it another way,
each named in POD_CHANGES. Storage, runroot and containers.conf are this
run's own, in a directory removed at the end; host network (no network is
made); nothing is pulled (the pause image is built by podman from Debian's
catatonit). Every container, pod, process and cgroup it makes is removed
by it, pass or fail, and the whole run is bounded (HARD_TIMEOUT_S).
"""

import fcntl
import json
import os
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

MANIFEST = "deploy/kubernetes/hotspot-k.yaml"
LOCK = "/tmp/hk-bpf.lock"
BLOB_CACHE = "/var/lib/containers"
HARD_TIMEOUT_S = 150
ENTER_S = 40            # the busy loop's line, once the tool runs (1 s windows)
POD = "hk-kube-test"
POD_UID = "5c4f2d1e-8a7b-4c3d-9e2f-0a1b2c3d4e5f"
CID = "f00dfeed" * 8    # a containerd id: 64 lowercase hex digits
# what the test changes in the template, and why: podman 4.3 lacks
# the field, or the test needs its own port and short windows
POD_CHANGES = (
    "hostPID: podman 4.3 ignores it (4.5 reads it): pidns = \"host\" in this run's containers.conf",
    "seccompProfile Unconfined: podman 4.3 reads the annotation "
    "container.seccomp.security.alpha.kubernetes.io/<name> instead",
    "env fieldRef spec.nodeName: podman 4.3 refuses it: the host's name as a value",
    "the metrics port (args and probe): a free one of this run's",
    "-i 1s appended: 1 s windows, so the busy loop is flagged in seconds",
)


class Fail(Exception):
    pass


def check_manifest(ds):
    """The template's promises the docs make, read back exactly."""
    t = ds["spec"]["template"]["spec"]
    c = t["containers"][0]
    sc = c["securityContext"]
    want = {
        "kind": (ds["kind"], "DaemonSet"),
        "updateStrategy": (ds["spec"]["updateStrategy"]["type"], "RollingUpdate"),
        "hostPID": (t.get("hostPID"), True),
        "hostNetwork": (t.get("hostNetwork"), True),
        "priorityClassName": (t.get("priorityClassName"), "system-node-critical"),
        "tolerations": (t.get("tolerations"), [{"operator": "Exists"}]),
        "capabilities.drop": (sc["capabilities"]["drop"], ["ALL"]),
        "capabilities.add": (sc["capabilities"]["add"], ["BPF", "PERFMON"]),
        "readOnlyRootFilesystem": (sc.get("readOnlyRootFilesystem"), True),
        "seccompProfile": (sc.get("seccompProfile"), {"type": "Unconfined"}),
        "probe path": (c["livenessProbe"]["httpGet"]["path"], "/metrics"),
        "probe host": (c["livenessProbe"]["httpGet"]["host"], "127.0.0.1"),
        "mounts": (sorted((m["mountPath"], m.get("readOnly", False))
                          for m in c["volumeMounts"]),
                   [("/sys/fs/cgroup", True), ("/sys/kernel/btf", True)]),
    }
    for what, (got, exp) in want.items():
        if got != exp:
            raise Fail("%s: %s is %r, want %r" % (MANIFEST, what, got, exp))
    port = c["livenessProbe"]["httpGet"]["port"]
    if "127.0.0.1:%d" % port not in c["args"]:
        raise Fail("%s: the probe's port %d is not the --metrics-listen in args %r" %
                   (MANIFEST, port, c["args"]))
    return port


def pod_doc(ds, port, new_port, node):
    t = json.loads(json.dumps(ds["spec"]["template"]))  # a deep copy
    spec = t["spec"]
    c = spec["containers"][0]
    c["args"] = [a.replace("127.0.0.1:%d" % port, "127.0.0.1:%d" % new_port)
                 for a in c["args"]] + ["-i", "1s"]
    c["livenessProbe"]["httpGet"]["port"] = new_port
    for e in c.get("env", []):
        if e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "spec.nodeName":
            e.pop("valueFrom")
            e["value"] = node
    md = dict(t["metadata"], name=POD)
    md["annotations"] = {"container.seccomp.security.alpha.kubernetes.io/" + c["name"]:
                         "unconfined"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hard_limits():
    """nofile as this process has it, nproc 4096 (the tool runs a few
    threads): as root, podman 4.3 raises both to its own maxima, which the
    runtime's setrlimit failed with EPERM on this host."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[1], 4096


class Run:
    def __init__(self, image, hkload, version):
        self.image, self.hkload, self.version = image, hkload, version
        self.dir = tempfile.mkdtemp(prefix="hk-kube.", dir="/tmp")
        self.hog = None
        self.bg = []
        self.cgroups = []
        self.conf = os.path.join(self.dir, "containers.conf")
        self.env = dict(os.environ, CONTAINERS_CONF=self.conf)
        self.lock = None
        # containers/image's blob cache, kept there whatever --root says:
        # removed at the end when this run made it
        self.cache = None if os.path.exists(BLOB_CACHE) else BLOB_CACHE

    def cmd(self, args):
        return ["podman", "--root", self.dir + "/root", "--runroot", self.dir + "/run",
                "--storage-driver", "vfs", "--tmpdir", self.dir + "/tmp"] + list(args)

    def podman_bg(self, *args):
        """Started, not waited for: its output (stdout and stderr) read by
        finish(); killed by PID at cleanup if still running."""
        p = subprocess.Popen(self.cmd(args), cwd=self.dir, env=self.env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.bg.append(p)
        return p

    @staticmethod
    def finish(p, timeout):
        out = p.communicate(timeout=timeout)[0]
        if p.returncode:
            raise Fail("%s: exit %d\n%s" % (" ".join(p.args[9:11]), p.returncode, out))
        return out

    def podman(self, *args, timeout=60, check=True, stderr=False, rc=False):
        p = subprocess.run(self.cmd(args), cwd=self.dir, env=self.env, capture_output=True,
                           text=True, timeout=timeout)
        if check and p.returncode:
            raise Fail("%s: exit %d\n%s" % (" ".join(args[:2]), p.returncode,
                                            (p.stdout + p.stderr).strip()))
        out = p.stdout + p.stderr if stderr else p.stdout
        return (p.returncode, out) if rc else out

    def setup(self):
        nofile, nproc = hard_limits()
        with open(self.conf, "w") as f:
            f.write("[containers]\n"
                    "pidns = \"host\"\n"
                    "default_ulimits = [\"nofile=%d:%d\", \"nproc=%d:%d\"]\n"
                    "[engine]\n"
                    # crun refuses a hybrid host whose cgroup2 has a
                    # controller ("cgroups in hybrid mode not supported")
                    "runtime = \"runc\"\n"
                    "cgroup_manager = \"cgroupfs\"\n"
                    "events_logger = \"file\"\n" % (nofile, nofile, nproc, nproc))
        self.podman("load", "-q", "-i", os.path.abspath(self.image))

    def make_cgroup(self):
        """The kubelet's systemd-driver name of a burstable pod's container,
        in the cgroup2 hierarchy (on a hybrid host, its unified mount)."""
        root = "/sys/fs/cgroup/unified"
        if not os.path.exists(root + "/cgroup.procs"):
            root = "/sys/fs/cgroup"
        rel = ["kubepods.slice", "kubepods-burstable.slice",
               "kubepods-burstable-pod%s.slice" % POD_UID.replace("-", "_"),
               "cri-containerd-%s.scope" % CID]
        path = root
        for part in rel:
            path = os.path.join(path, part)
            if not os.path.isdir(path):
                os.mkdir(path)
                self.cgroups.append(path)
        return path

    def start_hog(self, cg):
        # the child moves itself, then runs the loop: no instant outside it
        self.hog = subprocess.Popen(
            ["sh", "-c", 'echo $$ > "$1/cgroup.procs" && exec "$2" spin', "sh", cg,
             self.hkload], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        with open(os.path.join(cg, "cgroup.procs")) as f:
            if str(self.hog.pid) not in f.read().split():
                raise Fail("the busy loop %d is not in %s" % (self.hog.pid, cg))

    def logs(self, name):
        """stdout's JSON lines, then stderr's (podman logs keeps them apart)"""
        return self.podman("logs", name, timeout=20, check=False, stderr=True)

    def tool_pid(self, name):
        out = self.podman("inspect", "--format", "{{.State.Pid}}", name, timeout=20)
        return int(out.strip())

    def cleanup(self):
        for p in [self.hog] + self.bg:
            if p and p.poll() is None:
                p.kill()
                p.wait()
        try:
            # the pause process shares the host's PID namespace here, so
            # is no PID 1, and waits out any grace: SIGKILL at once
            self.podman("pod", "rm", "-f", "-t", "0", POD, timeout=60, check=False)
            self.podman("rm", "-f", "-a", timeout=60, check=False)
            self.podman("pod", "rm", "-f", "-a", timeout=60, check=False)
        except subprocess.TimeoutExpired:
            print("kube-test: podman rm timed out", file=sys.stderr)
        for path in reversed(self.cgroups):
            try:
                os.rmdir(path)
            except OSError as e:
                print("kube-test: rmdir %s: %s" % (path, e), file=sys.stderr)
        # anything mounted under the run's own directory (a container's shm)
        with open("/proc/self/mountinfo") as f:
            mounts = [l.split()[4] for l in f if l.split()[4].startswith(self.dir + "/")]
        for m in sorted(mounts, reverse=True):
            subprocess.run(["umount", "-l", m], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.cache:
            shutil.rmtree(self.cache, ignore_errors=True)
        if self.lock is not None:
            os.close(self.lock)


def memcg_mib(pid):
    """The container's memory cgroup, as a limit sees it (the BPF maps
    are charged there too): now and its peak, in MiB; None where unknown."""
    with open("/proc/%d/cgroup" % pid) as f:
        for l in f:
            _, ctl, path = l.rstrip("\n").split(":", 2)
            if "memory" in ctl.split(","):
                d = "/sys/fs/cgroup/memory" + path
                names = ("memory.usage_in_bytes", "memory.max_usage_in_bytes")
                break
        else:
            d = "/sys/fs/cgroup" + path
            names = ("memory.current", "memory.peak")
    try:
        return tuple(int(open(os.path.join(d, n)).read()) >> 20 for n in names)
    except OSError:
        return None


def wait_for(what, fn, deadline):
    while time.monotonic() < deadline:
        got = fn()
        if got:
            return got
        time.sleep(0.5)
    raise Fail("%s: not within its time" % what)


# --freeze-on-oom's records must outlive the tool (a crash, a pod
# restarted): where it cannot make their directory, it says so at start
NO_RUN_TAIL = (": no freeze can be recorded, to be undone after a crash: each process "
               "will be reported, not frozen (in a container: a host directory of "
               "root's mounted on /run, docs/kubernetes.md)")


SECCOMP_LINE = ("hotspot-k: loading BPF failed: Operation not permitted under a seccomp "
                "filter (a container runtime's default profile allows bpf() only with "
                "CAP_SYS_ADMIN): run it unconfined (Kubernetes seccompProfile type "
                "Unconfined, docker or podman --security-opt seccomp=unconfined)")


def seccomp(run):
    """The template's capabilities under podman's default seccomp profile:
    the load fails, and the one line says why (not the capabilities)."""
    p = run.podman("run", "--rm", "--read-only", "--network", "host", "--pid", "host",
                   "--cap-drop", "all", "--cap-add", "BPF,PERFMON",
                   "-v", "/sys/fs/cgroup:/sys/fs/cgroup:ro",
                   "localhost/hotspot-k:%s" % run.version, "--duration", "1s",
                   timeout=60, check=False, stderr=True, rc=True)
    rc, out = p
    if rc != 1 or SECCOMP_LINE not in out.splitlines():
        raise Fail("under podman's seccomp profile: want exit 1 and the line\n%s\ngot exit "
                   "%d:\n%s" % (SECCOMP_LINE, rc, out))


IMAGE_FILES = ["usr/sbin/hotspot-k", "usr/share/hotspot-k/hotspot-k.conf",
               "usr/share/man/man5/hotspot-k.conf.5.gz", "usr/share/man/man8/hotspot-k.8.gz"]


def image_files(run):
    """What make image put in: the binary, the man pages, the default
    config (and it passes --check-config there); no run, tmp or etc."""
    ref = "localhost/hotspot-k:%s" % run.version
    root = run.podman("image", "mount", ref, timeout=30).strip()
    try:
        files = sorted(os.path.relpath(os.path.join(d, f), root)
                       for d, _, fs in os.walk(root) for f in fs)
        tops = sorted(os.listdir(root))
    finally:
        run.podman("image", "unmount", ref, timeout=30, check=False)
    if files != sorted(IMAGE_FILES) or tops != ["usr"]:
        raise Fail("the image holds %r (top: %r), want %r alone" % (files, tops, IMAGE_FILES))
    out = run.podman("run", "--rm", "--read-only", "--network", "none", ref, "--check-config",
                     "/" + IMAGE_FILES[1], timeout=30, stderr=True)
    if out.strip() != "/%s: ok" % IMAGE_FILES[1]:
        raise Fail("--check-config of the image's default config: %r" % out)


def no_run(run):
    """The image run as the DaemonSet runs it, with --freeze-on-oom, in a
    container whose /run is the image's (none: podman makes a read-only
    mountpoint), then with a directory of the test's on /run."""
    args = ["run", "--rm", "--read-only", "--read-only-tmpfs=false", "--network", "host",
            "--pid", "host", "--cap-drop", "all", "--cap-add", "BPF,PERFMON",
            "--security-opt", "seccomp=unconfined",
            "-v", "/sys/kernel/btf:/sys/kernel/btf:ro", "-v", "/sys/fs/cgroup:/sys/fs/cgroup:ro"]
    tool = ["localhost/hotspot-k:%s" % run.version, "--freeze-on-oom", "60s", "-i", "1s",
            "--duration", "1s"]
    host = os.path.join(run.dir, "hostrun")
    os.mkdir(host, 0o755)
    # both at once: each is a load and a window
    bare = run.podman_bg(*(args + tool))
    mounted = run.podman_bg(*(args + ["-v", host + ":/run"] + tool))
    out = run.finish(bare, 60)
    got = [l for l in out.splitlines() if l.startswith("hotspot-k: --freeze-on-oom: ")]
    want = "hotspot-k: --freeze-on-oom: /run/hotspot-k: "
    if len(got) != 1 or not got[0].startswith(want) or not got[0].endswith(NO_RUN_TAIL):
        raise Fail("no /run of its own: want one line %s<why>%s, got:\n%s" %
                   (want, NO_RUN_TAIL, out))
    why = got[0][len(want):-len(NO_RUN_TAIL)]
    out = run.finish(mounted, 60)
    want = "; records in /run/hotspot-k); "
    st = os.lstat(os.path.join(host, "hotspot-k"))
    if want not in out or not stat.S_ISDIR(st.st_mode) or stat.S_IMODE(st.st_mode) != 0o700:
        raise Fail("with a host directory on /run: want %r and its hotspot-k/ made 0700 at "
                   "start, got mode %o:\n%s" % (want, stat.S_IMODE(st.st_mode), out))
    return why


def main():
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    image, hkload, version = sys.argv[1:]
    if os.geteuid():
        raise Fail("needs root (it loads BPF through podman)")
    for tool in ("podman", "runc"):
        if not shutil.which(tool):
            raise Fail("no %s (tools/deps.sh image)" % tool)
    with open(MANIFEST) as f:
        ds = yaml.safe_load(f)
    port = check_manifest(ds)
    c = ds["spec"]["template"]["spec"]["containers"][0]
    if c["image"] != "localhost/hotspot-k:" + version:
        raise Fail("%s: image %s, want localhost/hotspot-k:%s (make image's)" %
                   (MANIFEST, c["image"], version))
    t0 = time.monotonic()
    phases = []
    last = [t0]

    def mark(what):
        now = time.monotonic()
        phases.append("%s %.1f" % (what, now - last[0]))
        last[0] = now
    run = Run(image, hkload, version)
    name = "%s-%s" % (POD, c["name"])
    try:
        run.setup()
        mark("load")
        new_port = free_port()
        doc = pod_doc(ds, port, new_port, socket.gethostname())
        with open(os.path.join(run.dir, "pod.yaml"), "w") as f:
            yaml.safe_dump(doc, f)
        # nothing else loads BPF meanwhile (the suites' lock)
        run.lock = os.open(LOCK, os.O_CREAT | os.O_WRONLY, 0o644)
        fcntl.flock(run.lock, fcntl.LOCK_EX)
        run.podman("kube", "play", "--build=false", run.dir + "/pod.yaml", timeout=90)
        deadline = time.monotonic() + 30
        wait_for("the tool's start line in the container log",
                 lambda: "diagnosing every 1000 ms" in run.logs(name), deadline)
        mark("play")
        pid = run.tool_pid(name)
        cg = run.make_cgroup()
        run.start_hog(cg)
        hog = run.hog.pid

        def line():
            for l in run.logs(name).splitlines():
                if l.startswith("{"):
                    o = json.loads(l)
                    if o.get("pid") == hog and o.get("to") == "cpu_bound":
                        return o
            return None
        o = wait_for("a cpu_bound line for the busy loop %d" % hog, line,
                     time.monotonic() + ENTER_S)
        mark("flagged")
        want = {"pod_uid": POD_UID, "container_id": CID,
                "unit": "cri-containerd-%s.scope" % CID}
        got = {k: o.get(k) for k in want}
        if got != want:
            raise Fail("the busy loop's line: got %r, want %r\n%s" % (got, want, json.dumps(o)))
        # the liveness probe, as the kubelet makes it (host network)
        url = "http://127.0.0.1:%d/metrics" % new_port
        with urllib.request.urlopen(url, timeout=5) as r:
            body = r.read().decode()
            if r.status != 200 or "\nhotspot_k_up 1\n" not in "\n" + body:
                raise Fail("the liveness probe %s: status %d, no hotspot_k_up 1" %
                           (url, r.status))
        image_files(run)
        mark("image")
        why = no_run(run)
        mark("no-run")
        seccomp(run)
        mark("seccomp")
        with open("/proc/%d/status" % pid) as f:
            st = dict(l.split(":", 1) for l in f if ":" in l)
        rss = {k: int(st[k].split()[0]) // 1024 for k in ("VmRSS", "VmHWM")}
        memcg = memcg_mib(pid)
        restarts = run.podman("inspect", "--format", "{{.RestartCount}}", name).strip()
        if restarts != "0":
            raise Fail("the container restarted %s times:\n%s" % (restarts, run.logs(name)))
        # what a rolling update sends: SIGTERM, then SIGKILL after the grace
        t = time.monotonic()
        run.podman("stop", "-t", "20", name, timeout=60)
        stop_s = time.monotonic() - t
        code = run.podman("inspect", "--format", "{{.State.ExitCode}}", name).strip()
        if code != "0" or stop_s >= 20:
            raise Fail("SIGTERM: exit %s after %.1f s, want 0 within the grace" % (code, stop_s))
        print("kube-test: the DaemonSet's template played by podman %s (%d changes: %s); "
              "the busy loop %d flagged cpu_bound with pod_uid %s, container_id %s...; "
              "probe %s 200; the tool's RSS %d MiB, peak %d MiB; its memory cgroup %s; "
              "--freeze-on-oom with no /run said so at start (%s), and with the host's "
              "directory on /run made its records' 0700; under podman's seccomp profile, "
              "the load's failure named it; SIGTERM: exit 0 in %.1f s; the image: %d files, "
              "no /run, /tmp or /etc" %
              (run.podman("version", "--format", "{{.Client.Version}}").strip(),
               len(POD_CHANGES), "; ".join(POD_CHANGES), hog, POD_UID, CID[:12], url,
               rss["VmRSS"], rss["VmHWM"],
               "%d MiB, peak %d MiB" % memcg if memcg else "unknown", why, stop_s, len(IMAGE_FILES)))
    except Fail as e:
        raise Fail("%s\n--- the container's log:\n%s" % (e, run.logs(name)[-3000:]))
    finally:
        run.cleanup()
    mark("cleanup")
    print("kube-test: passed in %.1f s (%s)" % (time.monotonic() - t0, ", ".join(phases)))
    return 0


def on_alarm(signum, frame):
    raise Fail("over its hard timeout of %d s" % HARD_TIMEOUT_S)


if __name__ == "__main__":
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, lambda s, f: sys.exit(143))
    signal.alarm(HARD_TIMEOUT_S)
    try:
        sys.exit(main())
    except (Fail, subprocess.TimeoutExpired) as e:
        print("kube-test: FAIL: %s" % e, file=sys.stderr)
        sys.exit(1)
