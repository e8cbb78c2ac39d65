# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""--metrics-listen: the textfile's families over HTTP, on TCP and on a unix
socket, from the tool's own loop: the same families and the same flagged
series as the textfile at the same window, a client that sends nothing
delays nobody, 20 connections at once leave it serving, 404 and 405, and
the socket file gone after SIGTERM."""

import http.client
import os
import signal
import socket
import stat
import subprocess
import time

from hk_e2e.checks import expect_enter
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import TestFailure, indent, kill_group, mono
from hk_e2e.tool import Tool

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class UnixHTTPConnection(http.client.HTTPConnection):
    """http.client over a unix socket: only connect() differs."""

    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.unix_path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(conn, path="/metrics", method="GET"):
    """(status, headers, body text, seconds) of one request; the connection closed."""
    t0 = mono()
    try:
        conn.request(method, path)
        r = conn.getresponse()
        body = r.read().decode()
        return r.status, dict(r.getheaders()), body, mono() - t0
    finally:
        conn.close()


def samples(text):
    """{'name{labels}': value} of a text in the 0.0.4 format."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            out[key] = value
    return out


def families(text):
    return {ln.split()[2] for ln in text.splitlines() if ln.startswith("# TYPE ")}


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def same_window(tool, port, path, pid):
    """A scrape and the textfile that say the same hotspot_k_windows_total,
    with pid flagged in both."""
    last = None
    deadline = mono() + 8
    while mono() < deadline:
        tool.check_alive()
        st, hdr, body, _ = get(http.client.HTTPConnection("127.0.0.1", port, timeout=2))
        text = read_text(path)
        a, b = samples(body), samples(text)
        w = a.get("hotspot_k_windows_total")
        flagged = 'pid="%d"' % pid
        if (st == 200 and w and w == b.get("hotspot_k_windows_total") and
                flagged in body and flagged in text):
            return hdr, body, text
        last = (st, w, b.get("hotspot_k_windows_total"))
        time.sleep(0.2)
    raise TestFailure("no scrape and textfile at the same window with pid %d flagged in "
                      "8 s (last: status, scraped and file windows %s)" % (pid, last))


def t_metrics_listen(suite, ctx):
    port = free_port()
    path = os.path.join(ctx.workdir, "mlisten.prom")
    sock_path = os.path.join(ctx.workdir, "mlisten.sock")
    t0 = mono()
    # a stale socket from a killed run: bound, nobody listening; replaced
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stale:
        stale.bind(sock_path)
    spin = ctx.workload("spin", [ctx.hkload, "spin"])
    tool = Tool(ctx, "mlisten", extra=["--metrics-listen", "127.0.0.1:%d" % port,
                                       "--prometheus", path])
    # the unix socket on a second tool, without a textfile: the set and
    # counters must not need one
    utool = Tool(ctx, "mlisten_unix", extra=["--metrics-listen", "unix:" + sock_path])
    tool.wait_ready()
    w0 = tool.windows()
    expect_enter(suite, tool, "metrics_listen", spin, "cpu_bound", ENTER_WINDOWS, w0)
    hdr, body, text = same_window(tool, port, path, spin.pid)
    if hdr.get("Content-Type") != CONTENT_TYPE or hdr.get("Connection") != "close" or \
            int(hdr.get("Content-Length", -1)) != len(body.encode()):
        raise TestFailure("headers %s for a body of %d bytes" % (hdr, len(body.encode())))
    if families(body) != families(text):
        raise TestFailure("scraped families differ from the textfile's: only scraped %s, "
                          "only in the file %s" % (sorted(families(body) - families(text)),
                                                   sorted(families(text) - families(body))))
    mine = 'pid="%d"' % spin.pid
    got = {k: v for k, v in samples(body).items() if mine in k}
    want = {k: v for k, v in samples(text).items() if mine in k}
    if not got or got != want:
        raise TestFailure("the busy loop's series: scraped\n%s\nthe file\n%s" %
                          (indent("\n".join(sorted(got))), indent("\n".join(sorted(want)))))
    nbytes = len(body.encode())

    # a client that connects and sends nothing delays no other scrape
    slow = socket.create_connection(("127.0.0.1", port), timeout=5)
    st, _, _, took = get(http.client.HTTPConnection("127.0.0.1", port, timeout=2))
    if st != 200 or took >= 1.0:
        raise TestFailure("beside a silent client: status %s in %.3f s, want 200 in < 1 s" %
                          (st, took))
    lat = []
    for _ in range(10):
        lat.append(get(http.client.HTTPConnection("127.0.0.1", port, timeout=2))[3])

    # 20 at once: 7 slots left beside the silent one, the rest closed at once
    crowd = [socket.create_connection(("127.0.0.1", port), timeout=3) for _ in range(20)]
    time.sleep(0.3)
    ok = 0
    for s in crowd:
        try:
            s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
            if s.recv(64).startswith(b"HTTP/1.1 200 OK"):
                ok += 1
        except OSError:
            pass
        finally:
            s.close()
    # the silent one is dropped at 2 s
    slow.settimeout(4)
    try:
        eof = slow.recv(1) == b""
    except OSError:
        eof = True
    slow.close()
    if not eof:
        raise TestFailure("a client that sent nothing was not dropped")
    tool.check_alive()
    for want_st, p, m in ((404, "/", "GET"), (404, "/metrics/x", "GET"),
                          (405, "/metrics", "POST")):
        st, _, _, _ = get(http.client.HTTPConnection("127.0.0.1", port, timeout=2), p, m)
        if st != want_st:
            raise TestFailure("%s %s: status %s, want %s" % (m, p, st, want_st))
    # the counters, as of the next window's text
    tool.wait_windows(1)
    st, _, body, _ = get(http.client.HTTPConnection("127.0.0.1", port, timeout=2))
    s = samples(body)
    refused = int(s.get("hotspot_k_metrics_clients_refused_total", -1))
    dropped = int(s.get("hotspot_k_metrics_clients_dropped_total", -1))
    scrapes = int(s.get("hotspot_k_metrics_scrapes_total", -1))
    if st != 200 or ok < 1 or refused < 1 or dropped < 1 or scrapes < 12:
        raise TestFailure("after 20 at once: status %s, %d of 20 answered 200, counters "
                          "refused %d dropped %d scrapes %d (want 200, >= 1, >= 1, >= 1, "
                          ">= 12)" %
                          (st, ok, refused, dropped, scrapes))

    # refused at start, before loading anything: one line each
    notsock = os.path.join(ctx.workdir, "mlisten.file")
    open(notsock, "w").close()
    for argv, want_rc, want in (
            (["--metrics-listen", "127.0.0.1:%d" % port], 1, "Address already in use"),
            (["--metrics-listen", "unix:" + notsock], 1, "is not a socket"),
            (["--metrics-listen", "127.0.0:%d" % port], 2, "bad --metrics-listen")):
        r = subprocess.run([ctx.tool, *argv], capture_output=True, text=True, timeout=10)
        if r.returncode != want_rc or want not in r.stderr.splitlines()[0]:
            raise TestFailure("%s: exit %d, want %d and %r first; stderr:\n%s" %
                              (" ".join(argv), r.returncode, want_rc, want,
                               indent(r.stderr)))

    # the unix socket: 0660 or tighter, served, removed after SIGTERM
    utool.wait_ready()
    sb = os.lstat(sock_path)
    if not stat.S_ISSOCK(sb.st_mode) or sb.st_mode & 0o117:
        raise TestFailure("%s: mode %o, want a socket of 0660 or tighter" %
                          (sock_path, sb.st_mode))
    st, hdr, ubody, _ = get(UnixHTTPConnection(sock_path, 2))
    if st != 200 or "hotspot_k_up 1\n" not in ubody or \
            "hotspot_k_metrics_scrapes_total" not in families(ubody):
        raise TestFailure("over %s: status %s, body:\n%s" % (sock_path, st,
                                                             indent(ubody[:800])))
    rcs = (utool.stop(signal.SIGTERM), tool.stop(signal.SIGTERM))
    if rcs != (0, 0) or os.path.lexists(sock_path):
        raise TestFailure("SIGTERM: exits %s, socket file %s" %
                          (rcs, "left" if os.path.lexists(sock_path) else "gone"))
    kill_group(spin)
    lat.sort()
    ctx.record("metrics_listen", True, "%d families, %d bytes; scrape %.1f ms median, "
               "%.1f ms max of 10; 20 at once: %d served, %d refused, tool serving; "
               "%.1f s" % (len(families(text)), nbytes, lat[5] * 1000, lat[-1] * 1000,
                           ok, refused, mono() - t0))


TESTS = [
    # name, function, hard timeout (s)
    ("metrics_listen", t_metrics_listen, 60),
]
