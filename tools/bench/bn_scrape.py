#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""bn_scrape.py - the scrape client of figure 15 (fig_15_scrape.sh): GET
/metrics from a hotspot-k --metrics-listen on loopback, as Prometheus does
(one connection per scrape, Connection: close), timed from connect() to
the answer's end.

  bn_scrape.py port                 a free loopback TCP port (bound, closed)
  bn_scrape.py get HOST:PORT        one scrape's body on stdout (exit 1: none)
  bn_scrape.py burst HOST:PORT N    N scrapes back to back: a line per scrape
                                    "i= lat_ns= bytes= code=" (code 0: the
                                    connection closed with no answer, as a
                                    refused one is), then "n= ok= t_ns="
  bn_scrape.py every HOST:PORT N MS  N scrapes MS ms apart, lines as burst's
                                    with "t_ms=" (since the first) added
  bn_scrape.py slow HOST:PORT K B MS [MSS]
                                    K clients that send the request and
                                    then read B bytes every MS ms through a
                                    2 KiB receive buffer, until SIGTERM;
                                    MSS: segments of at most that (1448:
                                    Ethernet's) instead of loopback's 64 K,
                                    which let the kernel take a whole answer;
                                    "slow open=K" once all sent, at the end
                                    "slow got= closed=" (bytes read, and
                                    the clients the server closed early)
"""
import signal
import socket
import sys
import time

REQ = b"GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"


def addr(s):
    host, port = s.rsplit(":", 1)
    return host, int(port)


def scrape(a):
    """(latency ns, body bytes, status code; 0 when closed unanswered)"""
    t0 = time.perf_counter_ns()
    chunks = []
    with socket.create_connection(a, timeout=10) as s:
        s.sendall(REQ)
        while True:
            try:
                b = s.recv(1 << 20)
            except ConnectionResetError:
                break
            if not b:
                break
            chunks.append(b)
    t1 = time.perf_counter_ns()
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    code = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return t1 - t0, len(body), code, body


def burst(a, n):
    ok = 0
    # the first create_connection() imports and looks up: not the tool's
    # time (a socket made and closed, never connected)
    socket.getaddrinfo(a[0], a[1], 0, socket.SOCK_STREAM)
    socket.socket().close()
    t0 = time.perf_counter_ns()
    for i in range(n):
        lat, nb, code, _ = scrape(a)
        ok += code == 200
        print(f"i={i} lat_ns={lat} bytes={nb} code={code}")
    print(f"n={n} ok={ok} t_ns={time.perf_counter_ns() - t0}")


def every(a, n, ms):
    ok = 0
    socket.getaddrinfo(a[0], a[1], 0, socket.SOCK_STREAM)
    t0 = time.perf_counter_ns()
    for i in range(n):
        t = time.perf_counter_ns()
        lat, nb, code, _ = scrape(a)
        ok += code == 200
        print(f"i={i} t_ms={(t - t0) // 1000000} lat_ns={lat} bytes={nb} code={code}")
        time.sleep(max(0, t + ms * 1000000 - time.perf_counter_ns()) / 1e9)
    print(f"n={n} ok={ok} t_ns={time.perf_counter_ns() - t0}")


def slow(a, k, each, every_ms, mss):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    socks = []
    for _ in range(k):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # before connect: the window it offers stays small
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        if mss:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, mss)
        s.connect(a)
        s.sendall(REQ)
        s.setblocking(False)
        socks.append(s)
    print(f"slow open={k}", flush=True)
    got = 0
    closed = set()
    while not stop:
        time.sleep(every_ms / 1000)
        for s in socks:
            if s in closed:
                continue
            try:
                b = s.recv(each)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            if not b:
                closed.add(s)
            got += len(b)
    for s in socks:
        s.close()
    print(f"slow got={got} closed={len(closed)}", flush=True)


def main(argv):
    if len(argv) >= 2 and argv[1] == "port":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            print(s.getsockname()[1])
        return 0
    if len(argv) == 3 and argv[1] == "get":
        _, _, code, body = scrape(addr(argv[2]))
        sys.stdout.buffer.write(body)
        return 0 if code == 200 else 1
    if len(argv) == 4 and argv[1] == "burst":
        burst(addr(argv[2]), int(argv[3]))
        return 0
    if len(argv) == 5 and argv[1] == "every":
        every(addr(argv[2]), int(argv[3]), int(argv[4]))
        return 0
    if len(argv) in (6, 7) and argv[1] == "slow":
        slow(addr(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]),
             int(argv[6]) if len(argv) == 7 else 0)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
