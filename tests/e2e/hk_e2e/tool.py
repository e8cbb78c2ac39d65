# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""One running instance of the tool.

How the suite waits: the tool prints one JSON line per transition; a reader
thread collects them with their arrival time. Deadlines are counted in the
tool's own windows (hk_stats.windows of *this* instance: its map ids come
from /proc/<tool>/fdinfo, bpftool's BTF view locates the field once, then
bpf(2) reads it, so that polling spawns no process), never as fixed sleeps.
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

from . import bpf
from .bpf import NR_BPF, bpf_lookup_u64, bpftool
from .common import INTERVAL, INTERVAL_S
from .procs import TestFailure, indent, kill_group, mono, spawn


class Tool:
    """hotspot-k --json -i 1s, its stdout read by a thread, its windows counted."""

    def __init__(self, ctx, name, extra=(), journal=False, env=None):
        """journal: stdout is the journal's stream (JOURNAL_STREAM names the
        pipe), so each line starts with its syslog priority: kept in the
        event as "_priority". env: variables added to the tool's
        environment (the HOTSPOT_K_TEST_* switches)."""
        self.ctx = ctx
        self.name = name
        self.stderr_path = os.path.join(ctx.workdir, "%s.tool.stderr" % name)
        self.argv = [ctx.tool, "--json", "-i", INTERVAL, *ctx.tool_args, *extra]
        # the stream's lines, whatever journald the host runs: its native
        # entries would replace them (test_journal.py names a socket)
        if journal and "--journal-socket" not in extra:
            self.argv.append("--no-journal")
        # OOM post-mortems in the test's own directory, not the host's
        # /run/hotspot-k/oom (left behind, read by the next status)
        if "--postmortem-dir" not in self.argv:
            self.argv += ["--postmortem-dir", os.path.join(ctx.workdir, "%s.oom" % name)]
        self.lines = []             # (arrival monotonic, raw text, obj or None, error)
        self.cond = threading.Condition()
        self.stats_id = None
        self.stats_size = 0
        self.direct = None          # read hk_stats with bpf(), see _direct_ok
        self.procs_id = None
        self.prog_ids = set()
        self.map_ids = set()
        self.t_start = mono()
        self.t_ready = None
        self._err = open(self.stderr_path, "wb")
        self.journal = journal
        env = dict(os.environ, **env) if env else None
        if journal:
            r, w = os.pipe()
            st = os.fstat(w)
            env = dict(env or os.environ, JOURNAL_STREAM="%d:%d" % (st.st_dev, st.st_ino))
            try:
                self.proc = spawn(self.argv, stdout=w, stderr=self._err, env=env)
            finally:
                os.close(w)
            self.out = os.fdopen(r, "rb")
        else:
            self.proc = spawn(self.argv, stdout=subprocess.PIPE, stderr=self._err, env=env)
            self.out = self.proc.stdout
        ctx.own(self)
        self.reader = threading.Thread(target=self._read, daemon=True,
                                       name="reader-%s" % name)
        self.reader.start()

    # -- output --------------------------------------------------------
    def _read(self):
        for raw in self.out:
            t = mono()
            text, obj, err, prio = None, None, None, None
            try:
                text = raw.decode("utf-8")
                m = re.match(r"<([0-7])>", text) if self.journal else None
                if m:
                    prio = int(m.group(1))
                obj = json.loads(text[m.end():] if m else text)
                if isinstance(obj, dict) and prio is not None:
                    obj["_priority"] = prio
                if not isinstance(obj, dict):
                    err = "not a JSON object"
                    obj = None
            except (UnicodeDecodeError, ValueError) as e:
                err = "invalid JSON: %s" % e
                if text is None:
                    text = raw.decode("utf-8", errors="replace")
            with self.cond:
                self.lines.append((t, text.rstrip("\n"), obj, err))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def events(self):
        with self.cond:
            return [(t, o) for t, _, o, _ in self.lines if o is not None]

    def bad_lines(self):
        with self.cond:
            return [(txt, err) for _, txt, _, err in self.lines if err]

    def stderr_text(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def alive(self):
        return self.proc.poll() is None

    def check_alive(self):
        if not self.alive():
            raise TestFailure("the tool exited early (rc=%s); stderr:\n%s" %
                              (self.proc.returncode, indent(self.stderr_text())))

    # -- the tool's BPF objects, found from its file descriptors --------
    def _fd_ids(self):
        return bpf.fd_ids(self.proc.pid)

    def discover(self):
        """Record our prog/map ids (and those the progs reference); find hk_stats."""
        progs, maps = self._fd_ids()
        if not progs or not maps:
            return False
        for p in bpftool("prog", "show", "-j") or []:
            if p["id"] in progs:
                maps.update(p.get("map_ids", []))
        for m in bpftool("map", "show", "-j") or []:
            if m["id"] in maps:
                if m.get("name") == "hk_stats":
                    self.stats_id = m["id"]
                    self.stats_size = m.get("bytes_value", 0)
                elif m.get("name") == "hk_procs":
                    self.procs_id = m["id"]
        self.prog_ids, self.map_ids = progs, maps
        return self.stats_id is not None and self.procs_id is not None

    def stats(self):
        d = bpftool("map", "dump", "id", str(self.stats_id), "-j")
        return d[0]["formatted"]["value"]

    def _direct_ok(self):
        """Can windows be read with the bpf() syscall (no process spawned)?

        Polling by running bpftool starts a process every poll, and on a
        2-CPU machine such a process preempts the Starved victim now and
        then. So hk_stats is read directly, once bpftool's BTF view confirms
        that `windows` is its first u64.
        """
        if self.direct is None:
            self.direct = False
            if NR_BPF and self.stats_size >= 8:
                d = bpftool("map", "dump", "id", str(self.stats_id), "-j")[0]
                raw = bytes(int(b, 16) for b in d["value"][:8])
                first = next(iter(d["formatted"]["value"]))
                w = int.from_bytes(raw, sys.byteorder)
                self.direct = (first == "windows" and
                               bpf_lookup_u64(self.stats_id, self.stats_size) in (w, w + 1))
        return self.direct

    def windows(self):
        if self._direct_ok():
            w = bpf_lookup_u64(self.stats_id, self.stats_size)
            if w is not None:
                return w
        return int(self.stats()["windows"])

    def config(self):
        """hk_config as bpftool shows it (formatted by BTF)."""
        cid = None
        for m in bpftool("map", "show", "-j") or []:
            if m["id"] in self.map_ids and m.get("name") == "hk_config":
                cid = m["id"]
        if cid is None:
            raise TestFailure("no hk_config among the tool's maps")
        return bpftool("map", "dump", "id", str(cid), "-j")[0]["formatted"]["value"]

    def proc_entry(self, pid):
        """hk_procs value of a TGID, or None when not tracked."""
        key = [str(b) for b in int(pid).to_bytes(4, sys.byteorder)]
        r = subprocess.run([bpf.BPFTOOL, "map", "lookup", "id", str(self.procs_id),
                            "key", *key, "-j"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
        if r.returncode != 0:
            return None
        d = json.loads(r.stdout or b"null")
        if not d:
            return None
        return d["formatted"]["value"]

    def map_lookup(self, name, key_u32):
        """A u32-keyed map of the tool's, by name: the value bpftool
        formats by BTF, or None (no such map, or no such key)."""
        mid = next((m["id"] for m in bpftool("map", "show", "-j") or []
                    if m["id"] in self.map_ids and m.get("name") == name), None)
        if mid is None:
            return None
        key = [str(b) for b in int(key_u32).to_bytes(4, sys.byteorder)]
        r = subprocess.run([bpf.BPFTOOL, "map", "lookup", "id", str(mid), "key", *key, "-j"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=10)
        d = json.loads(r.stdout or b"null") if r.returncode == 0 else None
        return d["formatted"]["value"] if d else None

    def wait_ready(self, timeout_s=20.0):
        """Until the BPF side is loaded, armed, and has closed a first window."""
        deadline = mono() + timeout_s
        while mono() < deadline:
            self.check_alive()
            if self.stats_id is None:
                self.discover()
            if self.stats_id is not None and self.windows() >= 1:
                # ids again: everything is loaded by now
                self.discover()
                self.t_ready = mono()
                return
            time.sleep(0.1)
        raise TestFailure("the tool did not close its first window within %.0f s; "
                          "stderr:\n%s" % (timeout_s, indent(self.stderr_text())))

    # -- waiting, in windows --------------------------------------------
    def wait_windows(self, n, since=None):
        """Let n windows pass (counted from `since`, default now)."""
        w0 = self.windows() if since is None else since
        deadline = mono() + n * INTERVAL_S * 3 + 10
        while True:
            self.ctx.meter.sample()
            self.check_alive()
            w = self.windows()
            if w - w0 >= n:
                return w
            if mono() > deadline:
                raise TestFailure("hard timeout: %d windows did not pass in %.0f s "
                                  "(only %d)" % (n, n * INTERVAL_S * 3 + 10, w - w0))
            time.sleep(0.2)

    def wait_event(self, pred, max_windows, since):
        """The first event matching pred, within max_windows of `since`, or None."""
        hard = mono() + max_windows * INTERVAL_S * 3 + 10
        while True:
            for t, o in self.events():
                if pred(o):
                    return t, o
            self.ctx.meter.sample()
            self.check_alive()
            if self.windows() - since >= max_windows:
                # the window's events may still be on their way to us
                time.sleep(0.3)
                for t, o in self.events():
                    if pred(o):
                        return t, o
                return None
            if mono() > hard:
                raise TestFailure("hard timeout waiting for %d windows" % max_windows)
            with self.cond:
                self.cond.wait(0.2)

    # -- stopping -------------------------------------------------------
    def stop(self, sig=signal.SIGINT, timeout_s=5.0):
        """Signal the tool, return its exit code (None if it had to be killed)."""
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                kill_group(self.proc)
                self.reader.join(2)
                return None
        self.reader.join(2)
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.stop(timeout_s=3.0)
        kill_group(self.proc)
        self._err.close()
