# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Adversarial: the pin directory on a bpffs every user can write (security
review 2, finding H1). A plain `mount -t bpf bpf /sys/fs/bpf` gives mode
1777, like /tmp; each test mounts one so, in a private mount namespace
(test_pin's), and nobody plants /sys/fs/bpf/hotspot-k before root comes.

- attack_pin_symlink (A): hotspot-k is nobody's symlink to a directory of
  root's files: `--pin`, `unpin` and `follow` each refuse in one line that
  names the planter (uid 65534) and does not send root to `unpin`; root's
  files stay (the old unpin unlinked every one of them). Then, in a
  directory of root's, a symlink at hk_procs is no pin: unpin leaves it
  and names it;
- attack_pin_config (B): nobody's directory holding an hk_config of 16 KiB
  values, filled with 'A' (the old unpin read it into a 2880-byte struct on
  its stack): unpin refuses and leaves it; the same map in a directory of
  root's (another build's pins) is not read, and unpin says so;
- attack_pin_ring (C): a ring buffer at hotspot-k/hk_events in nobody's
  directory, then a 4 KiB one in root's: `follow` refuses both at once
  (the old one read them until killed).

Unprivileged BPF is off here (kernel.unprivileged_bpf_disabled), so root
makes the planted maps and pins them into nobody's directory: it stands in
for a planter on a host where that sysctl is 0. The symlink and the
directories are nobody's own work.
"""

import shlex

from hk_e2e import bpf
from hk_e2e.attack import NOBODY_UID, as_nobody, victim_file
from hk_e2e.procs import TestFailure
from test_pin import _fail, _in_fresh_ns, _sections

# the kernel's default for a plain mount: 1777
WORLD = "mount -t bpf bpf /sys/fs/bpf || exit 92\n"

# root pins a map (type, key size, value size, entries) at a path, entry 0
# filled with 'A' for an array: python3 -c PLANT TYPE KEY VALUE ENTRIES PATH
PLANT = r'''
import ctypes, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = int(sys.argv[6])
def bpf(cmd, attr):
    r = libc.syscall(NR, cmd, attr, 128)
    if r < 0:
        sys.exit("bpf cmd %d: errno %d" % (cmd, ctypes.get_errno()))
    return r
t, k, v, n = (int(x) for x in sys.argv[1:5])
attr = ctypes.create_string_buffer(128)
struct.pack_into("=IIIII", attr, 0, t, k, v, n, 0)
fd = bpf(0, attr)
if t == 2:
    key = ctypes.create_string_buffer(4)
    val = ctypes.create_string_buffer(b"A" * v, v)
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("=I4xQQQ", attr, 0, fd, ctypes.addressof(key), ctypes.addressof(val), 0)
    bpf(2, attr)
path = ctypes.create_string_buffer(sys.argv[5].encode())
attr = ctypes.create_string_buffer(128)
struct.pack_into("=QII", attr, 0, ctypes.addressof(path), fd, 0)
bpf(6, attr)
'''
ARRAY, RINGBUF = 2, 27
PLANTER = "uid %d" % NOBODY_UID


def _nobody(*argv):
    return " ".join(shlex.quote(a) for a in as_nobody(argv))


def _plant(kind, key, value, entries, path):
    return "python3 -c %s %d %d %d %d %s %d || exit 93\n" % (
        shlex.quote(PLANT), kind, key, value, entries, path, bpf.NR_BPF)


def _refusal(s, name, what, rc, out, err, names_planter=True):
    """Section name: one line, exit 1, naming the planter, no advice to unpin."""
    lines = s.get(name, "").splitlines()
    said = lines[0].split(": ", 1)[-1] if lines else ""
    if len(lines) != 2 or lines[1] != "rc=1" or \
            (names_planter and PLANTER not in said) or "unpin" in said:
        _fail("%s: want one line naming %s (never advising hotspot-k unpin), exit 1" %
              (what, PLANTER if names_planter else "why"), rc, out, err)
    return lines[0]


def t_pin_symlink(suite, ctx):
    victim, check = victim_file(ctx, "pins-victim")
    vdir = victim.rsplit("/", 1)[0]
    script = WORLD + _nobody("ln", "-s", vdir, "/sys/fs/bpf/hotspot-k") + r''' || exit 94
tool=$1
echo "== pin"; "$tool" --pin -i 1s 2>&1; echo "rc=$?"
echo "== unpin"; "$tool" unpin 2>&1; echo "rc=$?"
echo "== follow"; timeout 5 "$tool" follow 2>&1; echo "rc=$?"
echo "== link"; readlink /sys/fs/bpf/hotspot-k
rm /sys/fs/bpf/hotspot-k; mkdir -m 0700 /sys/fs/bpf/hotspot-k || exit 95
ln -s "$2" /sys/fs/bpf/hotspot-k/hk_procs || exit 96
''' + _plant(ARRAY, 4, 8, 1, "/sys/fs/bpf/hotspot-k/hk_stats") + r'''
echo "== inner"; "$tool" unpin 2>&1; echo "rc=$?"
echo "== left"; ls /sys/fs/bpf/hotspot-k
'''
    rc, out, err, _ = _in_fresh_ns(suite, script, suite.tool, vdir, timeout=30)
    check()
    s = _sections(out)
    if rc != 0 or set(s) != {"pin", "unpin", "follow", "link", "inner", "left"}:
        _fail("the symlink script", rc, out, err)
    said = [_refusal(s, n, n, rc, out, err) for n in ("pin", "unpin", "follow")]
    if s["link"] != vdir:
        _fail("the planted link was changed", rc, out, err)
    # in a directory of root's (defence in depth: only root can write it),
    # a symlink under a name --pin gives is no pin: left, and named
    inner = _refusal(s, "inner", "unpin beside a symlink hk_procs", rc, out, err,
                     names_planter=False)
    if "1 pins removed; 1 entries" not in inner or "'hk_procs'" not in inner or \
            s["left"] != "hk_procs":
        _fail("unpin of root's directory holding a symlink hk_procs: want hk_stats "
              "removed, the symlink left and named, exit 1", rc, out, err)
    ctx.record("attack_pin_symlink", True, "victim kept; %s" % said[1])


def t_pin_config(suite, ctx):
    big = 16384
    script = WORLD + _nobody("mkdir", "-m", "0755", "/sys/fs/bpf/hotspot-k") + \
        " || exit 94\n" + _plant(ARRAY, 4, big, 1, "/sys/fs/bpf/hotspot-k/hk_config") + r'''
tool=$1
echo "== pin"; "$tool" --pin -i 1s 2>&1; echo "rc=$?"
echo "== unpin"; "$tool" unpin 2>&1; echo "rc=$?"
echo "== kept"; ls /sys/fs/bpf/hotspot-k
rm -r /sys/fs/bpf/hotspot-k; mkdir -m 0700 /sys/fs/bpf/hotspot-k || exit 95
''' + _plant(ARRAY, 4, big, 1, "/sys/fs/bpf/hotspot-k/hk_config") + r'''
echo "== root"; "$tool" unpin 2>&1; echo "rc=$?"
echo "== after"; ls -A /sys/fs/bpf
'''
    rc, out, err, _ = _in_fresh_ns(suite, script, suite.tool, timeout=30)
    s = _sections(out)
    if rc != 0 or set(s) != {"pin", "unpin", "kept", "root", "after"}:
        _fail("the hk_config script (a signal: the stack overflowed)", rc, out, err)
    said = _refusal(s, "unpin", "unpin of nobody's directory", rc, out, err)
    _refusal(s, "pin", "--pin on nobody's directory", rc, out, err)
    if s["kept"] != "hk_config":
        _fail("the refused unpin removed what it found", rc, out, err)
    root = s["root"].splitlines()
    note = [l for l in root if "hk_config" in l and "%d-byte values" % big in l]
    if root[-1] != "rc=0" or len(note) != 1 or "hotspot-k" in s["after"].split():
        _fail("unpin of root's directory with a 16 KiB hk_config: want a line saying it "
              "was not read (%d-byte values), exit 0, nothing left" % big, rc, out, err)
    ctx.record("attack_pin_config", True, "%s | %s" % (said, note[0]))


def t_pin_ring(suite, ctx):
    script = WORLD + _nobody("mkdir", "-m", "0755", "/sys/fs/bpf/hotspot-k") + \
        " || exit 94\n" + _plant(RINGBUF, 0, 0, 1 << 21, "/sys/fs/bpf/hotspot-k/hk_events") + \
        r'''
tool=$1
echo "== follow"; timeout 5 "$tool" follow 2>&1; echo "rc=$?"
rm -r /sys/fs/bpf/hotspot-k; mkdir -m 0700 /sys/fs/bpf/hotspot-k || exit 95
''' + _plant(RINGBUF, 0, 0, 4096, "/sys/fs/bpf/hotspot-k/hk_events") + r'''
echo "== root"; timeout 5 "$tool" follow 2>&1; echo "rc=$?"
'''
    rc, out, err, _ = _in_fresh_ns(suite, script, suite.tool, timeout=30)
    s = _sections(out)
    if rc != 0 or set(s) != {"follow", "root"}:
        _fail("the ring buffer script", rc, out, err)
    said = _refusal(s, "follow", "follow of nobody's ring buffer", rc, out, err)
    small = _refusal(s, "root", "follow of a 4 KiB ring buffer", rc, out, err,
                     names_planter=False)
    if "4096" not in small:
        _fail("follow of a 4 KiB ring buffer: want its size said", rc, out, err)
    ctx.record("attack_pin_ring", True, "%s | %s" % (said, small))


TESTS = [
    ("attack_pin_symlink", t_pin_symlink, 40),
    ("attack_pin_config", t_pin_config, 40),
    ("attack_pin_ring", t_pin_ring, 40),
]
