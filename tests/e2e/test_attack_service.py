# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Attacks on the running service (security review findings 5, 6, 7, 8, 13,
14): what stays changed after a SIGKILL, a stdout nobody reads, a --cgroup
made anew, a full hk_procs, a second `follow`, instances faked through
unprivileged BPF, a cgroup path longer than the kernel prints.

Each fails on a tool that lets the attack through, and says what the
attacker got. Sysctls the tests change are put back; so is the record of
/run/hotspot-k/delayacct."""

import ctypes
import fcntl
import json
import os
import signal
import struct
import subprocess
import termios
import time

from hk_e2e import bpf, cgroups
from hk_e2e.attack import arena, as_nobody, run_as_nobody, spawn_as_nobody
from hk_e2e.checks import history, run_cli
from hk_e2e.common import (ENTER_WINDOWS, FAST_INTERVAL, FAST_INTERVAL_S, INTERVAL,
                           INTERVAL_S)
from hk_e2e.procs import (TestFailure, fmt_events, indent, kill_group, mono, read_line,
                          workload_alive)
from hk_e2e.tool import Tool
from test_service import stderr_line

DELAYACCT = "/proc/sys/kernel/task_delayacct"
RECORD = "/run/hotspot-k/delayacct"
UNPRIV_BPF = "/proc/sys/kernel/unprivileged_bpf_disabled"
PIN_DIR = "/sys/fs/bpf/hotspot-k"
BUSY = ["sh", "-c", "while :; do :; done"]


def read_sysctl(path):
    with open(path) as f:
        return f.read().strip()


def write_sysctl(path, v):
    with open(path, "w") as f:
        f.write(v)


def delayacct_off(ctx):
    """The switch at 0 for the test (the case that matters: the tool turns
    it on); what it was, and no record, put back at cleanup."""
    if not os.path.exists(DELAYACCT):
        raise TestFailure("%s missing: this kernel has no delay accounting switch" %
                          DELAYACCT)
    found = read_sysctl(DELAYACCT)
    had_record = os.path.exists(RECORD)

    def restore():
        if not had_record and os.path.exists(RECORD):
            os.unlink(RECORD)
        write_sysctl(DELAYACCT, found)
    ctx.undo.append(restore)
    if had_record:
        ctx.note("%s was there before the test (a hotspot-k that died)" % RECORD)
    write_sysctl(DELAYACCT, "0")


# --- finding 8: delay accounting after a SIGKILL ------------------------------

def t_delayacct_sigkill(suite, ctx):
    """An instance that turned kernel.task_delayacct on is SIGKILLed (systemd
    after a stop timeout, the OOM killer); a clean run after it must put 0
    back: the record in /run says it was 0 (it stayed 1 for good)."""
    delayacct_off(ctx)
    tool = Tool(ctx, "delayacct_killed", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    if read_sysctl(DELAYACCT) != "1":
        raise TestFailure("io_blocked on, yet delay accounting is %s while the tool runs" %
                          read_sysctl(DELAYACCT))
    tool.proc.kill()
    tool.proc.wait(5)
    after_kill = read_sysctl(DELAYACCT)
    rc, out, err, took = run_cli(suite, [suite.tool, "--duration", "1s", "-i", FAST_INTERVAL,
                                         *suite.tool_args], timeout=30)
    now = read_sysctl(DELAYACCT)
    if rc != 0 or now != "0":
        raise TestFailure("after a SIGKILLed instance (switch %s) and a clean --duration "
                          "1s run (exit %d): kernel.task_delayacct is %s, want 0, as the "
                          "first found it; its stderr:\n%s" %
                          (after_kill, rc, now, indent(err)))
    if os.path.exists(RECORD):
        raise TestFailure("%s is left after a clean exit" % RECORD)
    said = [l for l in err.splitlines() if "did not exit" in l]
    ctx.record("attack_delayacct_sigkill", True, "1 after the SIGKILL, 0 after a clean "
               "run: %s" % (said[0] if said else "(nothing said)"))


# --- finding 5: a stdout nobody reads ------------------------------------------

def pipe_bytes(fd):
    buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    return struct.unpack("i", buf)[0]


def t_blocked_stdout(suite, ctx):
    """The tool's stdout is a one-page pipe nobody reads, filled by the
    transitions of nobody's busy loops. SIGTERM must still end it within a
    few seconds, with its summary and delay accounting put back (it hung
    in write() for good: the stop signal was never read)."""
    delayacct_off(ctx)
    r, w = os.pipe()
    fcntl.fcntl(w, 1031, 4096)            # F_SETPIPE_SZ: one page
    ctx.undo.append(lambda: os.close(r))
    err_path = os.path.join(ctx.workdir, "blocked.tool.stderr")
    with open(err_path, "wb") as err:
        tool = ctx.workload("tool", [suite.tool, "--json", "-i", FAST_INTERVAL,
                                     *suite.tool_args], stdout=w, stderr=err)
    os.close(w)

    def stderr_text():
        with open(err_path, "rb") as f:
            return f.read().decode(errors="replace")
    # three busy loops: three lines in, three more out (each ~1.5 KiB)
    loops = [spawn_as_nobody(ctx, "busy%d" % i, BUSY) for i in range(3)]
    deadline = mono() + ENTER_WINDOWS + 10
    while pipe_bytes(r) < 2048 and mono() < deadline:
        workload_alive(ctx, tool)
        time.sleep(0.2)
    for p in loops:
        kill_group(p)
    # their exits' lines, as many as the page takes: until it stops filling
    # (two lines of ~1.5 KiB fit, the third waits; 8 s at most)
    deadline = mono() + 8
    held, still_since = pipe_bytes(r), mono()
    while mono() < deadline and mono() - still_since < 2 * FAST_INTERVAL_S:
        time.sleep(0.2)
        now_bytes = pipe_bytes(r)
        if now_bytes != held:
            held, still_since = now_bytes, mono()
    # a window or two more: the next line waits on the full pipe
    time.sleep(3 * FAST_INTERVAL_S)
    workload_alive(ctx, tool)
    t0 = mono()
    os.kill(tool.pid, signal.SIGTERM)
    try:
        rc = tool.wait(8)
    except subprocess.TimeoutExpired:
        kill_group(tool)
        raise TestFailure("SIGTERM did not end the tool within 8 s (its stdout pipe held "
                          "%d bytes, nobody reading): killed; stderr:\n%s" %
                          (held, indent(stderr_text())))
    took = mono() - t0
    text = stderr_text()
    now = read_sysctl(DELAYACCT)
    if rc != 0 or "hotspot-k: losses:" not in text or now != "0":
        raise TestFailure("stopped in %.1f s, exit %d, kernel.task_delayacct %s (want 0, "
                          "0 and the summary); stderr:\n%s" % (took, rc, now, indent(text)))
    lost = [l for l in text.splitlines() if "losses:" in l][0]
    lost = lost[lost.index("lines not written"):].split(",")[0] if \
        "lines not written" in lost else lost
    ctx.record("attack_blocked_stdout", True, "pipe held %d bytes; SIGTERM ended it in "
               "%.1f s, exit 0, switch 0; %s" % (held, took, lost))


def t_stuck_sigterm(suite, ctx):
    """The textfile's directory is nobody's (node_exporter's, as is common),
    and nobody plants a FIFO at FILE.tmp: where the tool opens it without
    O_NONBLOCK its loop hangs in open() for good. Whatever holds the loop,
    SIGTERM must end the tool within the 5 s grace and a little, with its
    summary and delay accounting put back (the signal waited on a signalfd
    nobody read: systemd's SIGKILL was the only way out)."""
    delayacct_off(ctx)
    d = arena(ctx, "textfile")
    rc, _, err = run_as_nobody(["mkfifo", os.path.join(d, "hotspot-k.prom.tmp")])
    if rc != 0:
        raise TestFailure("nobody could not make the FIFO: %s" % err)
    tool = Tool(ctx, "stuck", extra=["--prometheus", os.path.join(d, "hotspot-k.prom")])
    tool.wait_ready()
    tool.wait_windows(2)
    t0 = mono()
    rc = tool.stop(signal.SIGTERM, timeout_s=10)
    took = mono() - t0
    text = tool.stderr_text()
    now = read_sysctl(DELAYACCT)
    if rc is None:
        raise TestFailure("SIGTERM did not end the tool within 10 s (a FIFO at the "
                          "textfile's .tmp): killed; stderr:\n%s" % indent(text))
    stuck = [l for l in text.splitlines() if "still busy" in l]
    if rc not in (0, 1) or (rc == 1 and not stuck) or "hotspot-k: losses:" not in text or \
            now != "0":
        raise TestFailure("stopped in %.1f s, exit %s, kernel.task_delayacct %s (want 0 or "
                          "1 with a line saying what held it, the summary, and 0); "
                          "stderr:\n%s" % (took, rc, now, indent(text)))
    ctx.record("attack_stuck_sigterm", True, "exit %d %.1f s after SIGTERM, summary "
               "printed, switch 0%s" % (rc, took, ": " + stuck[0].split("hotspot-k: ")[-1]
                                        if stuck else " (the loop was not held)"))


# --- finding 6: --cgroup made anew ----------------------------------------------

def t_cgroup_recreated(suite, ctx):
    """--cgroup PATH, then the cgroup is removed and made again (systemctl
    restart): nobody's busy loop in the new one must be diagnosed, and a
    line says the filter followed (it matched the old id: silent)."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    tool = Tool(ctx, "cgroup_recreated", extra=["--cgroup", cgroups.path_of(cg),
                                                 "-i", FAST_INTERVAL])
    tool.wait_ready()
    os.rmdir(cg.path)
    time.sleep(1.5 * FAST_INTERVAL_S)
    os.mkdir(cg.path)
    w0 = tool.windows()
    loop = ctx.workload("busy", cgroups.run_in(cg, as_nobody(BUSY)))
    found = tool.wait_event(lambda o: o.get("pid") == loop.pid and o.get("to") == "cpu_bound",
                            ENTER_WINDOWS + 3, w0)
    workload_alive(ctx, loop)
    said = [l for l in tool.stderr_text().splitlines() if "cgroup filter" in l]
    if not found:
        raise TestFailure("nobody's busy loop (pid %d) in %s, made anew, was not diagnosed "
                          "in %d windows; lines about the filter: %s\n%s" %
                          (loop.pid, cgroups.path_of(cg), ENTER_WINDOWS + 3, said or "none",
                           fmt_events(history(tool, loop.pid))))
    follows = [l for l in said if "follows it" in l]
    if not follows:
        raise TestFailure("diagnosed, but no line says the filter followed the new "
                          "cgroup: %s" % said)
    ctx.record("attack_cgroup_recreated", True, "diagnosed after %.1f s; %s" %
               (found[0] - loop.hk_started, " | ".join(s.split("hotspot-k: ")[-1]
                                                      for s in said)))


# --- finding 7: hk_procs full, and a cgroup path too long --------------------

def t_procs_full(suite, ctx):
    """nobody starts enough sleepers to fill hk_procs (--max-procs: the
    machine's processes and some room): a warning while it is full, and a
    line when it has room again (it was only counted for the summary)."""
    procs = sum(1 for d in os.listdir("/proc") if d.isdigit())
    room = procs + 150
    tool = Tool(ctx, "procs_full", extra=["--max-procs", str(room), "-i", FAST_INTERVAL])
    tool.wait_ready()
    tool.wait_windows(2)
    early = [l for l in tool.stderr_text().splitlines() if "hk_procs is full" in l]
    if early:
        ctx.note("hk_procs full before the attack (%d processes, room for %d): %s" %
                 (procs, room, early[0]))
    sleepers = spawn_as_nobody(ctx, "sleepers", [
        "sh", "-c", "i=0; while [ $i -lt 400 ]; do sleep 1000 & i=$((i+1)); done; wait"])
    try:
        full = stderr_line(tool, "hk_procs is full", 3 * ENTER_WINDOWS * INTERVAL_S)
    except TestFailure as e:
        raise TestFailure("400 sleepers against --max-procs %d (%d processes before), "
                          "hk_stats procs_untracked %s: %s" %
                          (room, procs, tool.stats()["procs_untracked"], e))
    kill_group(sleepers)
    room_again = stderr_line(tool, "hk_procs has room again", 3 * ENTER_WINDOWS * INTERVAL_S)
    ctx.record("attack_procs_full", True, "%s | %s" % (full.split("hotspot-k: ")[-1][:90],
                                                   room_again.split("hotspot-k: ")[-1][:60]))


NAME = "a" * 250


def t_cgroup_too_long(suite, ctx):
    """A process 17 cgroups of 250-byte names deep (what a delegated subtree
    allows): the kernel cuts /proc/PID/cgroup at 4095 bytes, a path that
    names another cgroup. --json must say "cgroup path too long" (it
    printed the cut path; an unreadable one was "", and a freeze was then
    refused as "/ is the root cgroup")."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    # made relative to a directory fd: the whole path is over PATH_MAX
    fds = [os.open(cg.path, os.O_RDONLY | os.O_DIRECTORY)]
    for _ in range(17):
        os.mkdir(NAME, dir_fd=fds[-1])
        fds.append(os.open(NAME, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fds[-1]))

    def remove():
        # a killed task lingers a moment in its cgroup
        deadline = mono() + 5
        for parent in reversed(fds[:-1]):
            while True:
                try:
                    os.rmdir(NAME, dir_fd=parent)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if mono() > deadline:
                        break
                    time.sleep(0.1)
        for fd in fds:
            os.close(fd)
    ctx.undo.append(remove)
    # started inside the leaf: its cgroup.procs, through the fd
    procs = "/proc/self/fd/%d/cgroup.procs" % fds[-1]
    tool = Tool(ctx, "cgroup_too_long", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    loop = ctx.workload("busy", ["sh", "-c", 'echo $$ > "$0" && exec "$@"',
                                 procs, *as_nobody(BUSY)], pass_fds=(fds[-1],))
    found = tool.wait_event(lambda o: o.get("pid") == loop.pid and o.get("to") == "cpu_bound",
                            ENTER_WINDOWS, w0)
    workload_alive(ctx, loop)
    kill_group(loop)
    if not found:
        raise TestFailure("the busy loop (pid %d) was not diagnosed:\n%s" %
                          (loop.pid, fmt_events(history(tool, loop.pid))))
    got = found[1].get("cgroup")
    if got != "cgroup path too long":
        raise TestFailure("cgroup of a process whose path is %d bytes: %r (%d bytes), want "
                          "\"cgroup path too long\"" %
                          (17 * 251 + len(cgroups.path_of(cg)), (got or "")[:60] + "...",
                           len((got or "").encode())))
    ctx.record("attack_cgroup_too_long", True, "cgroup %r" % got)


# --- finding 13: two followers ------------------------------------------------------

def t_follow_twice(suite, ctx):
    """A second `follow` while one runs would share the ring buffer's one
    consumer position (lines twice, lines torn): it must be refused, in one
    line (it ran)."""
    if os.path.exists(PIN_DIR):
        raise TestFailure("%s exists before the test: another instance is pinned" % PIN_DIR)
    # bpffs as --pin finds it or mounts it, and unmounted again if it was not
    with open("/proc/self/mounts") as f:
        mounted = any(l.split()[1:3] == ["/sys/fs/bpf", "bpf"] for l in f)
    if not mounted:
        subprocess.run(["mount", "-t", "bpf", "-o", "mode=0700", "bpf", "/sys/fs/bpf"],
                       check=True, timeout=10)
        ctx.undo.append(lambda: subprocess.run(["umount", "/sys/fs/bpf"], timeout=10))
    delayacct_off(ctx)
    ctx.undo.append(lambda: os.path.exists(PIN_DIR) and
                    subprocess.run([suite.tool, "unpin"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, timeout=30))
    rc, out, err, _ = run_cli(suite, [suite.tool, "--pin", "-i", INTERVAL, *suite.tool_args],
                              timeout=30)
    if rc != 0:
        raise TestFailure("--pin: exit %d\n%s" % (rc, indent(err)))
    first = ctx.workload("follow1", [suite.tool, "follow", "--json"], stdout=subprocess.PIPE)
    time.sleep(1.0)
    workload_alive(ctx, first)
    second = ctx.workload("follow2", [suite.tool, "follow", "--json"], stdout=subprocess.PIPE)
    try:
        rc2 = second.wait(5)
    except subprocess.TimeoutExpired:
        raise TestFailure("a second follow still runs 5 s after it started, beside the "
                          "first: both read the one consumer position")
    with open(second.hk_stderr, errors="replace") as f:
        said = f.read().strip()
    if rc2 != 1 or "another hotspot-k follow" not in said:
        raise TestFailure("the second follow: exit %s, %r; want 1 and a line naming the "
                          "other follow" % (rc2, said))
    workload_alive(ctx, first)
    kill_group(first)
    rc, out, err, _ = run_cli(suite, [suite.tool, "unpin"], timeout=30)
    if rc != 0:
        raise TestFailure("unpin: exit %d\n%s" % (rc, indent(err)))
    ctx.record("attack_follow_twice", True, "refused: %s" % said)


# --- finding 14: instances faked with unprivileged BPF --------------------------

FAKE = r'''
import ctypes, os, struct, sys, time
NR_BPF, procs_v, config_v, stats_v = (int(a) for a in sys.argv[1:5])
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def bpf(cmd, attr):
    r = libc.syscall(NR_BPF, cmd, attr, len(attr))
    if r < 0:
        sys.exit("bpf(%d): errno %d" % (cmd, ctypes.get_errno()))
    return r

def mkmap(kind, value_size, entries, name, flags=0):
    a = ctypes.create_string_buffer(128)
    struct.pack_into("=IIIII", a, 0, kind, 4, value_size, entries, flags)
    a[28:28 + len(name)] = name
    return bpf(0, a)

procs = mkmap(1, procs_v, 12345, b"hk_procs", 1)      # hash, BPF_F_NO_PREALLOC
config = mkmap(2, config_v, 1, b"hk_config")
stats = mkmap(2, stats_v, 1, b"hk_stats")
# forged counters: 424242 windows
key, val = ctypes.create_string_buffer(4), ctypes.create_string_buffer(stats_v)
struct.pack_into("=Q", val, 0, 424242)
a = ctypes.create_string_buffer(128)
struct.pack_into("=I4xQQQ", a, 0, stats, ctypes.addressof(key), ctypes.addressof(val), 0)
bpf(2, a)
# a socket filter that holds them, named like hotspot-k's hook
insns = b""
for fd in (procs, config, stats):
    insns += struct.pack("=BBhi", 0x18, 0x11, 0, fd) + struct.pack("=BBhi", 0, 0, 0, 0)
insns += struct.pack("=BBhi", 0xb7, 0, 0, 0) + struct.pack("=BBhi", 0x95, 0, 0, 0)
ins = ctypes.create_string_buffer(insns, len(insns))
lic = ctypes.create_string_buffer(b"GPL")
a = ctypes.create_string_buffer(128)
struct.pack_into("=IIQQ", a, 0, 1, len(insns) // 8, ctypes.addressof(ins),
                 ctypes.addressof(lic))
a[48:48 + 9] = b"hk_switch"
prog = bpf(5, a)
print("ready", flush=True)
time.sleep(600)
'''


def t_fake_instance(suite, ctx):
    """With kernel.unprivileged_bpf_disabled=0, nobody makes maps named
    hk_procs, hk_config and hk_stats of the right sizes and a socket filter
    named hk_switch that holds them. `status` must show the real instance,
    and the real one must put delay accounting back at exit (status showed
    the fake, the newest; the real one left the switch at 1 for "another
    hotspot-k")."""
    try:
        unpriv = read_sysctl(UNPRIV_BPF)
    except OSError as e:
        ctx.note("attack_fake_instance skipped: %s: %s" % (UNPRIV_BPF, e))
        ctx.record("attack_fake_instance", True, "skipped: no %s" % UNPRIV_BPF)
        return
    if unpriv != "0":
        try:
            write_sysctl(UNPRIV_BPF, "0")
        except OSError as e:
            # 1 is for good: only a reboot turns it back
            ctx.note("attack_fake_instance skipped: %s is %s and cannot be made 0 (%s)" %
                     (UNPRIV_BPF, unpriv, e))
            ctx.record("attack_fake_instance", True, "skipped: unprivileged BPF is off for "
                       "good here (%s = %s)" % (UNPRIV_BPF, unpriv))
            return
        ctx.undo.append(lambda: write_sysctl(UNPRIV_BPF, unpriv))
    delayacct_off(ctx)
    tool = Tool(ctx, "fake_real")
    tool.wait_ready()
    sizes = {m["name"]: m for m in bpf.bpftool("map", "show", "-j") or []
             if m["id"] in tool.map_ids and m.get("name") in ("hk_procs", "hk_config",
                                                               "hk_stats")}
    fake = spawn_as_nobody(ctx, "fake", ["python3", "-c", FAKE, str(bpf.NR_BPF),
                                         str(sizes["hk_procs"]["bytes_value"]),
                                         str(sizes["hk_config"]["bytes_value"]),
                                         str(sizes["hk_stats"]["bytes_value"])],
                           stdout=subprocess.PIPE)
    line = read_line(fake, 10)
    if line != "ready":
        workload_alive(ctx, fake)
        raise TestFailure("the fake instance was not made: %r" % line)
    rc, out, err, _ = run_cli(suite, [suite.tool, "status", "--json"], timeout=20)
    try:
        inst = json.loads(out)["instance"]
    except (ValueError, KeyError, TypeError):
        inst = {}
    if rc != 0 or inst.get("windows") == 424242 or inst.get("max_procs") == 12345 or \
            inst.get("max_procs") != sizes["hk_procs"]["max_entries"]:
        raise TestFailure("status shows the fake: exit %d, windows %s, max_procs %s (the "
                          "real one's %s); stderr: %s" %
                          (rc, inst.get("windows"), inst.get("max_procs"),
                           sizes["hk_procs"]["max_entries"], err.strip()))
    rc = tool.stop(signal.SIGTERM)
    text = tool.stderr_text()
    now = read_sysctl(DELAYACCT)
    if rc != 0 or now != "0" or "another hotspot-k" in text:
        raise TestFailure("the real instance exited %s, kernel.task_delayacct %s (want 0 and "
                          "0); stderr:\n%s" % (rc, now, indent(text)))
    kill_group(fake)
    ctx.record("attack_fake_instance", True, "status showed the real instance (%d "
               "windows, max_procs %d); switch 0 at its exit" %
               (inst.get("windows"), inst.get("max_procs")))


TESTS = [
    # name, function, hard timeout (s)
    ("attack_delayacct_sigkill", t_delayacct_sigkill, 60),
    ("attack_blocked_stdout", t_blocked_stdout, 70),
    ("attack_stuck_sigterm", t_stuck_sigterm, 60),
    ("attack_cgroup_recreated", t_cgroup_recreated, 60),
    ("attack_procs_full", t_procs_full, 150),
    ("attack_cgroup_too_long", t_cgroup_too_long, 60),
    ("attack_follow_twice", t_follow_twice, 60),
    ("attack_fake_instance", t_fake_instance, 60),
]
