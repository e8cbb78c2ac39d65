# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""cdp.py - Debian's chromium, headless, driven over the DevTools protocol
on --remote-debugging-pipe (fd 3 its commands, fd 4 its answers, each
message JSON ended by a NUL), with Python's standard library only.

The browser gets a profile directory of its own, no sandbox (the tests
run as root), and a session of its own: stop() kills that process group
(its PID's) with SIGKILL, whatever happened, and reaps it (the caller made
itself their subreaper: set_subreaper()).
"""

import base64
import ctypes
import fcntl
import json
import os
import queue
import signal
import struct
import subprocess
import threading
import time
import zlib

# the browser itself, not Debian's launcher script (a shell that would
# stand between it and its PID)
CHROMIUM = "/usr/lib/chromium/chromium"
PR_SET_CHILD_SUBREAPER = 36


def set_subreaper():
    """Orphaned descendants come to this process, not to PID 1."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0):
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


class CdpError(Exception):
    pass


class Browser:
    def __init__(self, profile_dir, log_path, width, height):
        cmd_r, cmd_w = os.pipe()
        out_r, out_w = os.pipe()
        # above 4, so that the child's dup2 onto 3 and 4 clobbers none of them
        hi = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (cmd_r, out_w)]
        for fd in (cmd_r, out_w):
            os.close(fd)

        def fds():
            os.dup2(hi[0], 3)
            os.dup2(hi[1], 4)

        argv = [CHROMIUM, "--headless", "--no-sandbox", "--remote-debugging-pipe",
                "--user-data-dir=" + profile_dir, "--window-size=%d,%d" % (width, height),
                "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                "--disable-extensions", "--disable-sync", "--disable-background-networking",
                "--disable-component-update", "--disable-default-apps", "--mute-audio",
                "--password-store=basic", "--use-mock-keychain",
                # colours painted as the page gives them (pixel() reads them)
                "--force-color-profile=srgb",
                # no name resolves: nothing but loopback is reachable by name
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                "about:blank"]
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, preexec_fn=fds,
                                     pass_fds=(3, 4), start_new_session=True)
        os.close(hi[0])
        os.close(hi[1])
        self.w = cmd_w
        self.r = out_r
        self.next_id = 0
        self.msgs = queue.Queue()
        self.events = []
        self.answers = {}
        threading.Thread(target=self._reader, daemon=True).start()
        self.session = None

    def _reader(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self.r, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.msgs.put(None)
                return
            buf += chunk
            while b"\0" in buf:
                msg, buf = buf.split(b"\0", 1)
                self.msgs.put(json.loads(msg))

    def _pump(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise CdpError("chromium did not answer in time")
        try:
            m = self.msgs.get(timeout=left)
        except queue.Empty:
            raise CdpError("chromium did not answer in time")
        if m is None:
            raise CdpError("chromium closed its pipe (exit %s)" % self.proc.poll())
        if "id" in m:
            self.answers[m["id"]] = m
        else:
            self.events.append(m)

    def send(self, method, session=True, **params):
        """Send a command; its id, for wait_answer."""
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params}
        if session and self.session:
            m["sessionId"] = self.session
        data = json.dumps(m).encode() + b"\0"
        while data:
            data = data[os.write(self.w, data):]
        return self.next_id

    def wait_answer(self, mid, timeout=10.0):
        deadline = time.monotonic() + timeout
        while mid not in self.answers:
            self._pump(deadline)
        m = self.answers.pop(mid)
        if "error" in m:
            raise CdpError("%s" % m["error"])
        return m.get("result", {})

    def call(self, method, session=True, timeout=10.0, **params):
        return self.wait_answer(self.send(method, session, **params), timeout)

    def wait_event(self, method, timeout=10.0):
        """The first event of that name not yet taken (older ones kept)."""
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i).get("params", {})
            self._pump(deadline)

    def open_page(self):
        """Attach to the page chromium opened, with Page and Runtime on."""
        targets = self.call("Target.getTargets", session=False, timeout=20)["targetInfos"]
        page = [t for t in targets if t["type"] == "page"]
        if not page:
            raise CdpError("chromium opened no page: %s" % targets)
        self.session = self.call("Target.attachToTarget", session=False,
                                 targetId=page[0]["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def navigate(self, url, timeout=20.0):
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        r = self.call("Page.navigate", url=url)
        if r.get("errorText"):
            raise CdpError("%s: %s" % (url, r["errorText"]))
        self.wait_event("Page.loadEventFired", timeout)

    def eval(self, expr, timeout=10.0):
        """expr's value (JSON-able), evaluated in the page; its exception
        raised here."""
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CdpError("in the page: %s" % d.get("exception", {}).get("description", d))
        return r["result"].get("value")

    def mouse(self, kind, x, y, **kw):
        """An input event as a user's mouse makes it (the browser hit-tests
        x, y); the command's id, not waited for (a dialog may hold it)."""
        return self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, **kw)

    def click(self, x, y):
        """Move, press, release the left button at x, y: the ids."""
        return [self.mouse("mouseMoved", x, y),
                self.mouse("mousePressed", x, y, button="left", clickCount=1),
                self.mouse("mouseReleased", x, y, button="left", clickCount=1)]

    def pixel(self, x, y):
        """The colour chromium paints at CSS pixel x, y (a screenshot of
        that one pixel): "rgb(R,G,B)"."""
        png = base64.b64decode(self.call("Page.captureScreenshot", format="png",
                                         clip={"x": x, "y": y, "width": 1, "height": 1,
                                               "scale": 1})["data"])
        if png[:8] != b"\x89PNG\r\n\x1a\n":
            raise CdpError("the screenshot is no PNG")
        chunks, pos = {}, 8
        while pos < len(png):
            n = struct.unpack(">I", png[pos:pos + 4])[0]
            kind = png[pos + 4:pos + 8]
            chunks[kind] = chunks.get(kind, b"") + png[pos + 8:pos + 8 + n]
            pos += 12 + n
        w, h, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
        if (w, h, depth) != (1, 1, 8) or colour not in (2, 6):
            raise CdpError("the screenshot is %dx%d, %d bits, colour type %d" % (w, h, depth, colour))
        # one row of one pixel: every PNG filter leaves it as it is (its
        # neighbours left and above are zero)
        raw = zlib.decompress(chunks[b"IDAT"])
        return "rgb(%d,%d,%d)" % tuple(raw[1:4])

    def stop(self):
        """Kill the browser's process group, by its PID; wait for it."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        # its helpers, orphaned by the kill, are this process's to reap
        # (set_subreaper): else they stay zombies where PID 1 reaps none
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-self.proc.pid, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                time.sleep(0.02)
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
