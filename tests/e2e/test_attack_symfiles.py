# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Adversarial: the ELF files a process maps, which root reads to name its
frames (security review 2, L4 and L5).

- a mapped ELF file is parsed in a confined child (review 2, L5): nobody
  spins in a file it shaped, with 400 000 symbols to take long enough
  to be seen; every process of the tool that holds the file open is
  watched, and one of them, the parser, is uid 65534 with no capability,
  no new privileges, a seccomp filter and 2 fds. The frame is still
  named from the file's table. The old tool parsed it in its root child;
- a mapping's path swapped for a symlink to root's 0600 ELF with the same
  inode number on another tmpfs (review 2, L4), the process killed
  mid-profile so that only the path is left: its frame stays
  [libspin.so]. The old tool took the file by inode alone and named the
  frame from root's file.
"""

import os
import platform
import signal
import struct
import subprocess
import threading
import time

from hk_e2e.attack import NOBODY_UID, arena, spawn_as_nobody
from hk_e2e.procs import TestFailure, read_line, spawn
from test_attack_symbols import PROFILE_DEADLINE_S, PYTHON, descendants, stderr_of

# nobody's spinner in an executable mapping of its own ELF file
SPIN_ELF = r'''
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
fd = os.open(sys.argv[1], os.O_RDONLY)
p = libc.mmap(None, 0x2000, 5, 2, fd, 0)                # PROT_READ|PROT_EXEC, MAP_PRIVATE
if p in (None, ctypes.c_void_p(-1).value):
    sys.exit("cannot map it: errno %d" % ctypes.get_errno())
if len(sys.argv) > 2:                                   # the path swapped, the mapping kept
    os.unlink(sys.argv[1])
    os.symlink(sys.argv[2], sys.argv[1])
print("ready 0", flush=True)
ctypes.CFUNCTYPE(None)(p + 0x1000)()
'''
ELF_FILLERS = 400000            # ~0.2 s of parsing here: long enough to be seen


def spin_elf(path, fillers, name=b"hk_attack_spin"):
    """A small ELF: one PT_LOAD of 8 KiB, a spin at 0x1000 named name,
    and `fillers` more functions in .symtab."""
    arm = platform.machine() != "x86_64"
    code = (b"\x00\x00\x00\x14" if arm else b"\xeb\xfe").ljust(0x1000, b"\0")
    sym = struct.Struct("<IBBHQQ")
    strtab = b"\0" + name + b"\0filler\0"
    syms = b"".join([sym.pack(0, 0, 0, 0, 0, 0), sym.pack(1, 0x12, 0, 1, 0x1000, 16)] +
                    [sym.pack(len(name) + 2, 0x12, 0, 1, 0x100000 + 16 * i, 16)
                     for i in range(fillers)])
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    sym_off = 0x2000
    str_off = sym_off + len(syms)
    shstr_off = str_off + len(strtab)
    sh_off = (shstr_off + len(shstr) + 7) & ~7
    ehdr = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01", 3, 183 if arm else 62, 1,
                       0x1000, 64, sh_off, 0, 64, 56, 1, 64, 5, 4)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, 0x2000, 0x2000, 0x1000)
    shdr = struct.Struct("<IIQQQQIIQQ")
    sections = b"".join([shdr.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                         shdr.pack(1, 1, 6, 0x1000, 0x1000, 0x1000, 0, 0, 16, 0),
                         shdr.pack(7, 2, 0, 0, sym_off, len(syms), 3, 1, 8, 24),
                         shdr.pack(15, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0),
                         shdr.pack(23, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)])
    with open(path, "wb") as f:
        f.write((ehdr + phdr).ljust(0x1000, b"\0") + code + syms + strtab + shstr)
        f.write(b"\0" * (sh_off - shstr_off - len(shstr)) + sections)


def status_fields(pid):
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                out[k] = v.strip()
    except OSError:
        pass
    return out


class HoldersWatch:
    """Every process of the tool's tree seen with path open, every 2 ms:
    {pid: (comm, Uid, CapEff, Seccomp, NoNewPrivs, fds)}, the last look."""

    def __init__(self, proc, path):
        self.pid, self.path, self.seen = proc.pid, path, {}
        self.stop = threading.Event()
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _look(self, pid):
        fd_dir = "/proc/%d/fd" % pid
        try:
            fds = os.listdir(fd_dir)
            if not any(os.readlink(os.path.join(fd_dir, fd)) == self.path for fd in fds):
                return
        except OSError:
            return
        st = status_fields(pid)
        if st:
            self.seen[pid] = (st.get("Name"), st.get("Uid"), st.get("CapEff"),
                              st.get("Seccomp"), st.get("NoNewPrivs"), len(fds))

    def _run(self):
        while not self.stop.is_set() and os.path.exists("/proc/%d" % self.pid):
            for pid in descendants(self.pid):
                if pid != self.pid:
                    self._look(pid)
            time.sleep(0.002)

    def done(self):
        self.stop.set()
        self.th.join(2)


def t_parser_confined(suite, ctx):
    work = arena(ctx, "elf")
    out = arena(ctx, "out", mode=0o755, owner=0)
    path = os.path.join(work, "libspin.so")
    spin_elf(path, ELF_FILLERS)
    os.chown(path, NOBODY_UID, NOBODY_UID)
    p = spawn_as_nobody(ctx, "spin_elf", [PYTHON, "-c", SPIN_ELF, path],
                        stdout=subprocess.PIPE)
    line = read_line(p, 30)
    if line != "ready 0":
        raise TestFailure("the spinner did not start (%r); stderr in %s" % (line, p.hk_stderr))
    tool = spawn([ctx.tool, "profile", str(p.pid), "--duration", "1s", "--dir", out],
                 stdout=subprocess.DEVNULL,
                 stderr=open(os.path.join(ctx.workdir, "%s.profile.stderr" % ctx.name), "wb"))
    watch = HoldersWatch(tool, path)
    try:
        rc = tool.wait(PROFILE_DEADLINE_S)
    finally:
        watch.done()
    folded = [f for f in os.listdir(out) if f.endswith(".folded")]
    text = open(os.path.join(out, folded[0])).read() if folded else ""
    if rc != 0 or "hk_attack_spin" not in text:
        raise TestFailure("profile exit %s, folded %s without hk_attack_spin: %r; stderr: %s" %
                          (rc, folded, text[:300], stderr_of(ctx)))
    confined = [v for v in watch.seen.values()
                if v[1] == "65534\t65534\t65534\t65534" and v[2] == "0000000000000000" and
                v[3] == "2" and v[4] == "1" and v[5] == 2]
    if not confined:
        raise TestFailure("no confined process parsed the ELF; holders of it (name, uid, "
                          "CapEff, Seccomp, NoNewPrivs, fds): %s" % sorted(watch.seen.values()))
    ctx.record("attack_symbols_parser_confined", True, "parsed by %s; holders %s" %
               (confined[0], sorted(watch.seen.values())))


def t_same_inode_other_device(suite, ctx):
    top = arena(ctx, "fs", owner=0)
    out = arena(ctx, "out", mode=0o755, owner=0)
    mine, root = os.path.join(top, "mine"), os.path.join(top, "root")
    for d, opts in ((mine, "uid=65534,gid=65534,mode=0755"), (root, "mode=0755")):
        os.mkdir(d)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m," + opts, "hk-e2e", d],
                       check=True)
        ctx.undo.append(lambda d=d: subprocess.run(["umount", "-l", d]))
    # each file the first of a fresh tmpfs: one inode number, two devices
    secret = os.path.join(root, "secret.so")
    spin_elf(secret, 0, b"root_secret_fn")
    os.chmod(secret, 0o600)
    own = os.path.join(mine, "libspin.so")
    spin_elf(own, 0)
    os.chown(own, NOBODY_UID, NOBODY_UID)
    if os.stat(own).st_ino != os.stat(secret).st_ino:
        raise TestFailure("setup: inodes %d and %d differ" %
                          (os.stat(own).st_ino, os.stat(secret).st_ino))
    p = spawn_as_nobody(ctx, "spin_swap", [PYTHON, "-c", SPIN_ELF, own, secret],
                        stdout=subprocess.PIPE)
    line = read_line(p, 30)
    if line != "ready 0":
        raise TestFailure("the spinner did not start (%r); stderr in %s" % (line, p.hk_stderr))
    tool = spawn([ctx.tool, "profile", str(p.pid), "--duration", "10s", "--dir", out, "--json"],
                 stdout=subprocess.PIPE,
                 stderr=open(os.path.join(ctx.workdir, "%s.profile.stderr" % ctx.name), "wb"))
    first = read_line(tool, 20)
    # a second of samples, then it exits: no map_files, no /proc/PID/root,
    # only the path, now a symlink to root's 0600 file of the same inode
    time.sleep(1.0)
    os.kill(p.pid, signal.SIGKILL)
    rc = tool.wait(PROFILE_DEADLINE_S)
    folded = [f for f in os.listdir(out) if f.endswith(".folded")]
    text = open(os.path.join(out, folded[0])).read() if folded else ""
    if rc != 0 or "[libspin.so]" not in text or "root_secret_fn" in text:
        raise TestFailure("profile exit %s (first line %r), folded %s: %r; stderr: %s" %
                          (rc, first, folded, text[:300], stderr_of(ctx)))
    ctx.record("attack_symbols_same_inode", True, "inode %d on two tmpfs: [libspin.so], "
               "root's file not read" % os.stat(secret).st_ino)


TESTS = [
    # name, function, hard timeout (s)
    ("attack_symbols_parser_confined", t_parser_confined, 40),
    ("attack_symbols_same_inode", t_same_inode_other_device, 40),
]
