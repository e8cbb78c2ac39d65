# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The journal's native fields, against a real systemd-journald.

The test starts a systemd-journald of its own: a namespaced instance
(`systemd-journald NAMESPACE`: its socket at
/run/systemd/journal.NAMESPACE/socket) in a mount namespace of its own,
with tmpfs over /run and /var/log there, so that it writes nothing on the
host and its files go when it does (killed by PID at the test's end, pass
or fail). The tools reach its socket, and journalctl its files, through
/proc/PID/root. One busy loop, CPU-bound in any window (it runs alone:
1.8-3.1 s with 250 ms windows).

- --journal and no journald there: exit 1 with one line, before any load;
- --journal with stdout a pipe: the loop's transition is an entry with
  MESSAGE_ID (CPU-bound's), HOTSPOT_K_LABEL, HOTSPOT_K_FROM, HOTSPOT_K_PID
  (the loop's), HOTSPOT_K_COMM, HOTSPOT_K_CPU_PCT (the JSON line's cpu_pct),
  PRIORITY 5, SYSLOG_IDENTIFIER hotspot-k, sent by the tool itself (journald's
  own _PID) over the native transport, found by `journalctl HOTSPOT_K_LABEL=cpu_bound
  HOTSPOT_K_PID=...`, and its MESSAGE the very line stdout has; the loop
  named "hk\nPRIORITY=0" (a user's choice of comm), and journald reads it
  back as that one HOTSPOT_K_COMM, the entry's PRIORITY still 5 alone;
- its start and summary lines on stderr (a file here) are entries too, with
  their MESSAGE_IDs, and stay on stderr;
- by default, stdout the journal's stream (JOURNAL_STREAM) and the socket
  taking entries: the entry is the line, and the stream has no copy of it.
"""

import glob
import json
import os
import shutil
import subprocess
import time

from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, INTERVAL_S
from hk_e2e.checks import expect_enter, run_cli
from hk_e2e.procs import TestFailure, indent, mono, workload_alive
from hk_e2e.tool import Tool

# user/output/journal_ids.c: a transition into cpu_bound, the start, the summary
CPU_BOUND_ID = "626d420b28de459ca8ea54db9dd63143"
START_ID = "a545b50cabb844edb0fe90a54dbcea53"
SUMMARY_ID = "b6d2326cc2014289b98957b619967511"
JOURNALD = "/lib/systemd/systemd-journald"


def start_journald(ctx):
    """A namespaced journald in a mount namespace of its own: (its
    Popen, its namespace's name, its native socket as the host sees it)."""
    ns = "hke2e%d" % os.getpid()
    script = ("mount -t tmpfs -o mode=0755,size=64m hk-journal /run && "
              "mount -t tmpfs -o mode=0755,size=64m hk-journal /var/log && "
              "exec %s %s" % (JOURNALD, ns))
    # unshare and sh exec: the PID is journald's
    jd = ctx.workload("journald", ["unshare", "--mount", "--propagation", "private",
                                   "sh", "-c", script])
    sock = "/proc/%d/root/run/systemd/journal.%s/socket" % (jd.pid, ns)
    deadline = mono() + 10
    while not os.path.exists(sock):
        workload_alive(ctx, jd)
        if mono() > deadline:
            raise TestFailure("%s %s made no %s within 10 s" % (JOURNALD, ns, sock))
        time.sleep(0.05)
    return jd, ns, sock


def entries(jd, ns, *matches):
    """The entries of the test's journald matching all of matches."""
    dirs = glob.glob("/proc/%d/root/run/log/journal/*.%s" % (jd.pid, ns)) + \
        glob.glob("/proc/%d/root/var/log/journal/*.%s" % (jd.pid, ns))
    if not dirs:
        return []
    r = subprocess.run(["journalctl", "--directory", dirs[0], "-o", "json", "--no-pager",
                        *matches], capture_output=True, timeout=10)
    return [json.loads(l) for l in r.stdout.decode(errors="replace").splitlines()
            if l.startswith("{")]


def text(v):
    """A field's value: journalctl -o json gives one it cannot print as a
    list of bytes, and a field sent twice as a list of values."""
    if isinstance(v, list) and all(isinstance(b, int) for b in v):
        return bytes(v).decode(errors="replace")
    return v


def wait_entry(ctx, jd, ns, tool, matches, what):
    deadline = mono() + ENTER_WINDOWS * INTERVAL_S + 5
    while mono() < deadline:
        got = [e for e in entries(jd, ns, *matches) if e.get("_PID") == str(tool.proc.pid)]
        if got:
            return got[0]
        workload_alive(ctx, jd)
        tool.check_alive()
        time.sleep(0.2)
    raise TestFailure("%s: no entry %s from pid %d in the test's journal; its hotspot-k "
                      "entries:\n%s\nthe tool's stderr:\n%s" %
                      (what, " ".join(matches), tool.proc.pid,
                       indent("\n".join(e.get("MESSAGE", "")[:200] for e in
                                        entries(jd, ns, "SYSLOG_IDENTIFIER=hotspot-k"))),
                       indent(tool.stderr_text()[-2000:])))


def t_journal_native(suite, ctx):
    # --journal and no journald: the start stops, one line, exit 1
    none = os.path.join(ctx.workdir, "no-journald.socket")
    rc, out, err, _ = run_cli(suite, [suite.tool, "--journal", "--journal-socket", none,
                                      *suite.tool_args])
    want = "hotspot-k: --journal: the journal's socket %s: %s" % (none, os.strerror(2))
    if rc != 1 or err.strip() != want or out:
        raise TestFailure("--journal, no socket: exit %d, stderr %r; want exit 1 and %r" %
                          (rc, err, want))
    jd, ns, sock = start_journald(ctx)
    # short windows: the loop is CPU-bound in any, and flagged sooner
    piped = Tool(ctx, "journal_native", extra=["--journal", "--journal-socket", sock,
                                               "-i", FAST_INTERVAL])
    # JOURNAL_STREAM names its stdout: the entries by default, no flag
    stream = Tool(ctx, "journal_stream", extra=["--journal-socket", sock, "-i", FAST_INTERVAL],
                  journal=True)
    piped.wait_ready()
    stream.wait_ready()
    w0 = piped.windows()
    # `yes` under a name that would be a field of its own in the text
    # form (comm: the name exec'd, 13 bytes)
    link = os.path.join(os.fsencode(suite.workdir), b"hk\nPRIORITY=0")
    if not os.path.lexists(link):
        os.symlink(os.fsencode(shutil.which("yes")), link)
    hog = ctx.workload("loop", [link], stdout=subprocess.DEVNULL)
    _, o = expect_enter(suite, piped, "journal_native", hog, "cpu_bound", ENTER_WINDOWS, w0)
    line = [txt for _, txt, obj, _ in piped.lines if obj is o][0]
    matches = ("HOTSPOT_K_LABEL=cpu_bound", "HOTSPOT_K_PID=%d" % hog.pid)
    e = wait_entry(ctx, jd, ns, piped, matches, "--journal")
    want = {"MESSAGE": line, "MESSAGE_ID": CPU_BOUND_ID, "PRIORITY": "5",
            "SYSLOG_IDENTIFIER": "hotspot-k", "HOTSPOT_K_LABEL": "cpu_bound",
            "HOTSPOT_K_FROM": "ok", "HOTSPOT_K_PID": str(hog.pid),
            "HOTSPOT_K_COMM": o["comm"], "HOTSPOT_K_CPU_PCT": "%.2f" % o["cpu_pct"],
            "_TRANSPORT": "journal"}
    wrong = {k: (e.get(k), v) for k, v in want.items() if text(e.get(k)) != v}
    if wrong:
        raise TestFailure("the entry's fields (got, want): %s\nthe entry: %s" %
                          (wrong, json.dumps(e)[:3000]))
    # the default under the unit: the entry in place of the stream's line
    es = wait_entry(ctx, jd, ns, stream, matches, "JOURNAL_STREAM")
    if es.get("MESSAGE_ID") != CPU_BOUND_ID or not es.get("MESSAGE", "").startswith("{"):
        raise TestFailure("JOURNAL_STREAM's entry: %s" % json.dumps(es)[:3000])
    copies = [txt for _, txt, obj, _ in stream.lines if obj and obj.get("pid") == hog.pid]
    if copies:
        raise TestFailure("the entry sent, the journal's stream had the line too:\n%s" %
                          indent("\n".join(c[:200] for c in copies)))
    # stderr's start and summary: entries of their kinds, on stderr too
    start = wait_entry(ctx, jd, ns, piped, ("MESSAGE_ID=" + START_ID,), "the start")
    if not start.get("MESSAGE", "").startswith("hotspot-k: diagnosing every ") or \
            start["MESSAGE"] + "\n" not in piped.stderr_text():
        raise TestFailure("the start's entry is not stderr's start line: %r" %
                          start.get("MESSAGE"))
    if piped.stop() != 0:
        raise TestFailure("--journal: exit %s after SIGINT; stderr:\n%s" %
                          (piped.proc.returncode, indent(piped.stderr_text()[-2000:])))
    deadline = mono() + 5
    while True:
        summary = [x.get("MESSAGE", "") for x in entries(jd, ns, "MESSAGE_ID=" + SUMMARY_ID)
                   if x.get("_PID") == str(piped.proc.pid)]
        # its last line, once journald has read it
        if any(m.startswith("hotspot-k: OOM kills: ") for m in summary) or mono() > deadline:
            break
        time.sleep(0.1)
    if not any(m.startswith("hotspot-k: OOM kills: ") for m in summary) or \
            not all(m + "\n" in piped.stderr_text() for m in summary):
        raise TestFailure("the summary's entries are not stderr's summary:\n%s" %
                          indent("\n".join(summary)))
    ctx.record("journal_native", True, "MESSAGE_ID %s, HOTSPOT_K_PID %d, MESSAGE = stdout's "
               "line (%d bytes); under JOURNAL_STREAM the entry alone" %
               (CPU_BOUND_ID[:8], hog.pid, len(line)))


TESTS = [
    ("journal_native", t_journal_native, 60),
]
