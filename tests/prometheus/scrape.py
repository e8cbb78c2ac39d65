#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""scrape.py - both ways out of the tool, stored by the real engines
(make promtool-test, after run.sh): Debian's prometheus scrapes the tool's
--metrics-listen endpoint (job hotspot-k) and Debian's
prometheus-node-exporter, whose textfile collector reads the tool's
--prometheus file (job node), every second, over loopback only.

    tests/prometheus/scrape.py [TOOL [HKLOAD]]  (./hotspot-k build/hkload)

A leak at a pace this test sets (20 MiB/s, hkload grow) in a memory cgroup
limited to 1 GiB becomes OOM risk. Memory, not CPU: this suite runs beside
qemu guests that keep both CPUs busy, and a busy loop's labels (CPU-bound,
Noisy neighbor, Starved) hang on who else runs; a leak's growth is set by
hkload's absolute deadlines (a few % of a CPU to touch 20 MiB/s), and its
time left by the cgroup's limit, not by the host's free memory. The
limit is ~50 s away (within oom_risk.eta_floor, flagged on min_trend
alone), and min_trend is set to 3 s (-c) so that it is flagged ~5 s in.

Once Prometheus stored 3 scrapes of the leak's series from each job, at one
evaluation time, exactly: hotspot_k_up 1 for both jobs; the same 14
hotspot_k_process_* series for the leak's pid from both, with the comm,
label, cgroup, unit, container and pod, and the evidence (RSS, slope,
limit = the cgroup's, ETA, faults, ratios) the tool's JSON line printed for
its transition (the series hold the window that flagged it); every rule of
deploy/prometheus/hotspot-k.rules.yml evaluated with health ok over them,
the leak's time left recorded for both jobs; node_exporter read the file
without error. Within a tolerance: hotspot_k_windows_total of both jobs
(see WINDOWS_SLACK). Then the tool is stopped (SIGTERM, exit 0): the node
job says hotspot_k_up 0, the endpoint's target is down, and no process
series is left in either.

Root, /tmp/hk-bpf.lock held while the tool runs (as run.sh). Every child
is killed by its PID at the end (and by the kernel if this script dies:
PR_SET_PDEATHSIG), the cgroup and the temporary directory removed. Exit 0
when all passed, with one summary line; else one line naming what
differed.
"""

import ctypes
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
from hk_e2e import cgroups  # noqa: E402  (the e2e suite's v1/v2 memory cgroups)

MIB = 1 << 20
LIMIT = 1024 * MIB              # the leak's memory cgroup
LEAK = ["grow", "--step", "5M", "--every", "250ms", "--max", "896M"]    # 20 MiB/s, never at the limit
TOOL_CONF = "[oom_risk]\nmin_trend = 3s\nmin_growth = 16MiB\n"
LOCK = "/tmp/hk-bpf.lock"
LOCK_WAIT_S = 300               # as run.sh: another suite may hold it
BUDGET_S = 60                   # the whole run after the lock: a hard timeout
SCRAPES = 3                     # samples of the leak's series stored per job
ENDPOINT, TEXTFILE = "hotspot-k", "node"    # the two jobs
# hotspot_k_windows_total, endpoint less textfile at one evaluation time:
# each job's sample is its last scrape, at most one scrape interval (one
# window at -i 1s) old, and the file is rewritten once a window at most
# (when the loop wakes: each scrape of the endpoint wakes it), so either
# may be one window behind the other, the file one more when its write
# missed a wake-up: 2 either way.
WINDOWS_SLACK = 2
# evidence series and the transition's JSON key; ratios are the JSON's
# percentages / 100 (both from hundredths of a percent)
EXACT = {
    "hotspot_k_process_rss_bytes": "rss_bytes",
    "hotspot_k_process_rss_anon_bytes": "rss_anon_bytes",
    "hotspot_k_process_rss_slope_bytes_per_second": "rss_slope_bytes_per_s",
    "hotspot_k_process_memory_limit_bytes": "limit_bytes",
    "hotspot_k_process_oom_eta_seconds": "eta_s",
    "hotspot_k_process_major_faults_per_second": "major_faults_per_s",
    "hotspot_k_process_minor_faults_per_second": "minor_faults_per_s",
}
RATIOS = {
    "hotspot_k_process_cpu_ratio": "cpu_pct",
    "hotspot_k_process_run_delay_ratio": "run_delay_pct",
    "hotspot_k_process_thread_run_delay_ratio": "thread_run_delay_pct",
    "hotspot_k_process_throttled_ratio": "throttled_per_cpu_pct",
    "hotspot_k_process_io_blocked_ratio": "io_blocked_pct",
}
INFO_KEYS = ("cgroup", "unit", "container_id", "pod_uid")
PROC_SERIES = 14                # per process, the info and flagged ones included

step = "starting"               # what the hard timeout interrupted


class Failure(Exception):
    pass


def fail(msg):
    raise Failure(msg)


def mono():
    return time.monotonic()


def die_with_parent():
    """In the child: SIGKILL when this script dies, whatever way."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)    # PR_SET_PDEATHSIG


def spawn(argv, log, **kw):
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=log,
                            stdout=kw.pop("stdout", log), preexec_fn=die_with_parent, **kw)


def stop(p, sig=signal.SIGTERM, wait_s=5.0):
    """End p by its PID: sig, then SIGKILL after wait_s; its exit status
    (None: it had to be killed)."""
    if p is None or p.poll() is not None:
        return None if p is None else p.returncode
    p.send_signal(sig)
    try:
        return p.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        pass
    p.kill()
    try:
        p.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        pass
    return None


def last_line(path):
    try:
        with open(path, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.strip()]
        return lines[-1] if lines else "(nothing)"
    except OSError:
        return "(no log)"


def free_ports(n):
    """n ports free on loopback now: each bound to port 0 at once, then let go."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# loopback only: no http_proxy from the environment
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_get(url, timeout=2.0):
    """(status, body) or (None, reason)."""
    try:
        with DIRECT.open(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except (OSError, ValueError) as e:
        return None, str(e)


class Prom:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port

    def api(self, path, **params):
        url = "%s/api/v1/%s?%s" % (self.base, path, urllib.parse.urlencode(params))
        status, body = http_get(url, timeout=3.0)
        if status != 200:
            fail("prometheus %s %s: %s %s" % (path, params, status, body[:200]))
        d = json.loads(body)
        if d.get("status") != "success":
            fail("prometheus %s %s: %s" % (path, params, d))
        return d["data"]

    def query(self, expr, at=None):
        """[(labels, float value)] of an instant query."""
        params = {"query": expr}
        if at is not None:
            params["time"] = "%.3f" % at
        return [(r["metric"], float(r["value"][1])) for r in self.api("query", **params)["result"]]

    def by_job(self, expr, at=None):
        """{job: value} of a query with one series per job."""
        out = {}
        for m, v in self.query(expr, at):
            if m.get("job") in out:
                fail("%s: two series of job %s: %s" % (expr, m.get("job"), m))
            out[m.get("job")] = v
        return out


class ToolOut:
    """The tool's JSON lines, read as they come."""

    def __init__(self, stream):
        self.lines, self.cond = [], threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in stream:
            try:
                o = json.loads(raw)
            except ValueError:
                continue
            with self.cond:
                self.lines.append(o)
                self.cond.notify_all()

    def wait(self, pred, timeout_s):
        deadline = mono() + timeout_s
        with self.cond:
            while True:
                for o in self.lines:
                    if pred(o):
                        return o
                left = deadline - mono()
                if left <= 0:
                    return None
                self.cond.wait(min(left, 0.2))


def until(what, fn, timeout_s, every=0.1):
    """fn() until it returns something true; fail naming what after timeout_s."""
    deadline = mono() + timeout_s
    while True:
        r = fn()
        if r:
            return r
        if mono() > deadline:
            fail("%s within %.0f s" % (what, timeout_s))
        time.sleep(every)


def check_alive(name, p, log):
    if p.poll() is not None:
        fail("%s exited %s: %s" % (name, p.returncode, last_line(log)))


def run(tool, hkload, tmp, kids, ctx, t0):
    global step
    pa, pb, pc = free_ports(3)
    textdir = os.path.join(tmp, "textfile")
    os.mkdir(textdir, 0o700)
    prom_file = os.path.join(textdir, "hotspot-k.prom")
    conf = os.path.join(tmp, "hotspot-k.conf")
    with open(conf, "w") as f:
        f.write(TOOL_CONF)
    with open(os.path.join(tmp, "prometheus.yml"), "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                "  evaluation_interval: 1s\n"
                "rule_files:\n  - %s\n"
                "scrape_configs:\n"
                "  - job_name: %s\n    static_configs:\n      - targets: ['127.0.0.1:%d']\n"
                "  - job_name: %s\n    static_configs:\n      - targets: ['127.0.0.1:%d']\n" %
                (os.path.join(ROOT, "deploy/prometheus/hotspot-k.rules.yml"),
                 ENDPOINT, pa, TEXTFILE, pb))
    logs = {n: os.path.join(tmp, n + ".log") for n in ("tool", "node_exporter", "prometheus")}

    step = "starting the tool and the servers"
    with open(logs["tool"], "w") as log:
        # --duration: ends on its own should this script be stopped mid-run
        kids["tool"] = spawn([tool, "--json", "-i", "1s", "-c", conf, "--duration", "90s",
                              "--metrics-listen", "127.0.0.1:%d" % pa, "--prometheus", prom_file],
                             log, stdout=subprocess.PIPE)
    out = ToolOut(kids["tool"].stdout)
    with open(logs["node_exporter"], "w") as log:
        kids["node_exporter"] = spawn(
            ["prometheus-node-exporter", "--web.listen-address=127.0.0.1:%d" % pb,
             "--collector.disable-defaults", "--collector.textfile",
             "--collector.textfile.directory=" + textdir], log)
    with open(logs["prometheus"], "w") as log:
        kids["prometheus"] = spawn(
            ["prometheus", "--config.file=" + os.path.join(tmp, "prometheus.yml"),
             "--storage.tsdb.path=" + os.path.join(tmp, "tsdb"),
             "--web.listen-address=127.0.0.1:%d" % pc], log)

    def alive():
        for n in ("tool", "node_exporter", "prometheus"):
            check_alive(n, kids[n], logs[n])

    def ready(url, pred):
        alive()
        status, body = http_get(url, timeout=1.0)
        return status == 200 and pred(body)

    def windows_in(body):
        for ln in body.splitlines():
            if ln.startswith("hotspot_k_windows_total "):
                return int(float(ln.split()[1]))
        return 0

    until("the tool's endpoint closing a first window",
          lambda: ready("http://127.0.0.1:%d/metrics" % pa, lambda b: windows_in(b) >= 1), 20)
    until("node_exporter serving the textfile's hotspot_k_up 1",
          lambda: ready("http://127.0.0.1:%d/metrics" % pb,
                        lambda b: "\nhotspot_k_up 1\n" in b), 10)
    until("prometheus ready", lambda: ready("http://127.0.0.1:%d/-/ready" % pc, bool), 20)
    t_up = mono() - t0

    step = "the leak becoming OOM risk"
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        fail("this host has no memory cgroup controller (v1 or v2)")
    cgroups.memory_limit(cg, LIMIT)
    with open(os.path.join(tmp, "leak.log"), "w") as log:
        kids["leak"] = spawn(cgroups.run_in(cg, [hkload] + LEAK), log)
    pid = kids["leak"].pid              # sh execs hkload: the same PID
    t_leak = mono()
    ev = out.wait(lambda o: o.get("pid") == pid, 20)
    alive()
    if ev is None:
        fail("the leak (pid %d, 20 MiB/s in a %d MiB memory cgroup) not flagged within 20 s"
             % (pid, LIMIT // MIB))
    if ev.get("from") != "ok" or ev.get("to") != "oom_risk":
        fail("the leak's first transition is %s -> %s, want ok -> oom_risk"
             % (ev.get("from"), ev.get("to")))
    t_flag = mono() - t_leak

    step = "%d scrapes of the leak's series stored per job" % SCRAPES
    prom = Prom(pc)
    stored = 'count_over_time(hotspot_k_process_flagged{pid="%d"}[5m])' % pid

    def enough():
        alive()
        n = prom.by_job(stored)
        return n if all(n.get(j, 0) >= SCRAPES for j in (ENDPOINT, TEXTFILE)) else None

    leak_n = until("%d scrapes of hotspot_k_process_flagged{pid=\"%d\"} stored from jobs "
                   "%s and %s" % (SCRAPES, pid, ENDPOINT, TEXTFILE), enough, 15, every=0.25)

    step = "the queries"
    at = time.time()
    ups = prom.by_job("hotspot_k_up", at)
    if ups != {ENDPOINT: 1.0, TEXTFILE: 1.0}:
        fail("hotspot_k_up by job: %s, want 1 for %s and %s" % (ups, ENDPOINT, TEXTFILE))
    series = {ENDPOINT: {}, TEXTFILE: {}}
    for m, v in prom.query('{__name__=~"hotspot_k_process_.+",pid="%d"}' % pid, at):
        series.setdefault(m.get("job"), {})[m["__name__"]] = (m, v)
    for job in (ENDPOINT, TEXTFILE):
        s = series[job]
        if len(s) != PROC_SERIES:
            fail("job %s stored %d hotspot_k_process_* series of pid %d, want %d: %s"
                 % (job, len(s), pid, PROC_SERIES, sorted(s)))
        m, v = s.get("hotspot_k_process_flagged", ({}, None))
        got = (m.get("comm"), m.get("label"), v)
        if got != (ev["comm"], ev["to"], 1.0):
            fail("job %s: hotspot_k_process_flagged{pid=\"%d\"} comm, label, value %s; the "
                 "tool printed %s" % (job, pid, got, (ev["comm"], ev["to"], 1.0)))
        m, _ = s["hotspot_k_process_info"]
        for k in INFO_KEYS:     # a label "" is no label to Prometheus
            if m.get(k, "") != ev.get(k):
                fail("job %s: hotspot_k_process_info{pid=\"%d\"} %s=%r; the tool printed %r"
                     % (job, pid, k, m.get(k, ""), ev.get(k)))
        for name, key in EXACT.items():
            if name not in s or s[name][1] != ev.get(key):
                fail("job %s: %s{pid=\"%d\"} %s; the tool printed %s %s"
                     % (job, name, pid, s.get(name, (0, "absent"))[1], key, ev.get(key)))
        for name, key in RATIOS.items():
            if round(s[name][1] * 10000) != round(ev.get(key) * 100):
                fail("job %s: %s{pid=\"%d\"} %s; the tool printed %s %s"
                     % (job, name, pid, s[name][1], key, ev.get(key)))
    if ev.get("limit_bytes") != LIMIT or ev.get("cgroup") != cgroups.path_of(cg):
        fail("the tool printed limit_bytes %s in cgroup %s; the leak's is %d in %s"
             % (ev.get("limit_bytes"), ev.get("cgroup"), LIMIT, cgroups.path_of(cg)))
    left = prom.by_job('instance_pid:hotspot_k_oom_eta_left:seconds{pid="%d"}' % pid, at)
    if set(left) != {ENDPOINT, TEXTFILE} or not all(0 < v <= ev["eta_s"] for v in left.values()):
        fail("the rules' time left for pid %d: %s, want one per job in (0, %s]"
             % (pid, left, ev["eta_s"]))
    for g in prom.api("rules")["groups"]:
        for r in g["rules"]:
            if r.get("health") != "ok":
                fail("rule %s: health %s: %s" % (r["name"], r.get("health"), r.get("lastError")))
    nerr = prom.by_job("node_textfile_scrape_error", at)
    if nerr != {TEXTFILE: 0.0}:
        fail("node_textfile_scrape_error: %s, want 0 (node_exporter read the file)" % nerr)
    win = prom.by_job("hotspot_k_windows_total", at)
    if set(win) != {ENDPOINT, TEXTFILE} or abs(win[ENDPOINT] - win[TEXTFILE]) > WINDOWS_SLACK:
        fail("hotspot_k_windows_total by job at one time: %s, want both within %d"
             % (win, WINDOWS_SLACK))
    scrapes = prom.by_job("count_over_time(up[5m])", at)

    step = "the tool stopped"
    t_stop = mono()
    rc = stop(kids["tool"], signal.SIGTERM, 10.0)
    if rc != 0:
        fail("the tool exited %s on SIGTERM, want 0: %s" % (rc, last_line(logs["tool"])))
    with open(prom_file) as f:
        text = [ln for ln in f.read().splitlines() if not ln.startswith("#")]
    if text != ["hotspot_k_up 0"]:
        fail("the textfile at exit: %s, want hotspot_k_up 0 alone" % text[:3])

    def seen_down():
        for n in ("node_exporter", "prometheus"):
            check_alive(n, kids[n], logs[n])
        now = time.time()
        return (prom.by_job("hotspot_k_up", now) == {TEXTFILE: 0.0} and
                prom.by_job('up{job="%s"}' % ENDPOINT, now) == {ENDPOINT: 0.0} and
                not prom.query("hotspot_k_process_flagged", now))

    until("prometheus seeing hotspot_k_up 0 (job %s), target %s down (up 0, its series "
          "stale) and no hotspot_k_process_flagged" % (TEXTFILE, ENDPOINT), seen_down, 10,
          every=0.25)
    t_down = mono() - t_stop
    print("scrape-test: servers up in %.1f s; leak pid %d oom_risk %.1f s in; stored %d/%d "
          "scrapes (jobs %s/%s), %d/%d with the leak's %d series, each = its JSON line (rss %d, "
          "slope %d B/s, limit %d, eta %d s); windows_total %d/%d; after SIGTERM hotspot_k_up 0 "
          "and target down seen in %.1f s; %.1f s"
          % (t_up, pid, t_flag, scrapes.get(ENDPOINT, 0), scrapes.get(TEXTFILE, 0), ENDPOINT,
             TEXTFILE, leak_n[ENDPOINT], leak_n[TEXTFILE], PROC_SERIES, ev["rss_bytes"], ev["rss_slope_bytes_per_s"],
             ev["limit_bytes"], ev["eta_s"], win[ENDPOINT], win[TEXTFILE], t_down, mono() - t0))


class Ctx:
    """What hk_e2e.cgroups.make wants of a test: a name and an undo list."""
    name = "scrape"

    def __init__(self):
        self.undo = []


def main():
    global step
    tool = sys.argv[1] if len(sys.argv) > 1 else "./hotspot-k"
    hkload = sys.argv[2] if len(sys.argv) > 2 else "build/hkload"
    if os.geteuid() != 0:
        print("scrape-test: FAIL: the tool's run needs root", file=sys.stderr)
        return 1
    for exe in (tool, hkload):
        if not os.access(exe, os.X_OK):
            print("scrape-test: FAIL: build %s first" % exe, file=sys.stderr)
            return 1
    for exe in ("prometheus", "prometheus-node-exporter"):
        if not shutil.which(exe):
            print("scrape-test: FAIL: no %s (tools/deps.sh prometheus)" % exe, file=sys.stderr)
            return 1
    tool, hkload = os.path.abspath(tool), os.path.abspath(hkload)

    def hard_timeout(signum, frame):
        raise Failure("hard timeout (%d s) at: %s" % (BUDGET_S, step))

    def stopped(signum, frame):
        raise Failure("stopped by signal %d at: %s" % (signum, step))

    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    kids, ctx, lock, tmp, rc = {}, Ctx(), None, None, 1
    try:
        step = "waiting for " + LOCK
        lock = open(LOCK, "w")
        deadline = mono() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if mono() > deadline:
                    fail("%s still held after %d s" % (LOCK, LOCK_WAIT_S))
                time.sleep(0.2)
        signal.signal(signal.SIGALRM, hard_timeout)
        signal.alarm(BUDGET_S)
        tmp = tempfile.mkdtemp(prefix="hk-scrape.")
        run(tool, hkload, tmp, kids, ctx, mono())
        rc = 0
    except Failure as e:
        print("scrape-test: FAIL: %s" % e, file=sys.stderr)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop(kids.get("tool"))
        if lock:
            lock.close()            # the lock goes with the tool
        stop(kids.get("leak"), signal.SIGKILL)
        for undo in reversed(ctx.undo):
            try:
                undo()              # the cgroup: what is left in it killed, then rmdir
            except OSError as e:
                print("scrape-test: cannot remove the leak's cgroup: %s" % e, file=sys.stderr)
                rc = 1
        for n in ("prometheus", "node_exporter"):
            stop(kids.get(n))
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
