# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Swap on a zram device of the test's own, for the tests that need swap
(test_memtruth.py): no disk, no module to load where zram is built in.

A device of our own (zram-control/hot_add), not zram0, which someone else
on the machine may be using; zram0 only where hot_add is missing and zram0
is unused. Swapped off, reset and removed at the test's cleanup, after its
processes are killed (their swap is freed with them), and by off_all() at
the suite's end, pass, fail, timeout or signal.
"""

import os
import shutil
import subprocess
import threading

from .procs import TestFailure

SYS = "/sys/class/zram-control"
PRIORITY = 32767            # above any swap the host has: ours takes the pages

_lock = threading.Lock()
_active = []                # devices switched on and not yet off: (id, made)


class NoSwap(TestFailure):
    """This machine does not let the test make swap: a skip, with its reason."""


def _run(argv, timeout=60):
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return r.returncode, (r.stderr or r.stdout).decode(errors="replace").strip()


def _write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def _new_device():
    """(id, made by us), or NoSwap with why not."""
    if os.path.exists(os.path.join(SYS, "hot_add")):
        try:
            with open(os.path.join(SYS, "hot_add")) as f:
                return int(f.read().strip()), True
        except (OSError, ValueError) as e:
            raise NoSwap("zram hot_add: %s" % e)
    d = "/sys/block/zram0"
    if not os.path.isdir(d):
        raise NoSwap("no zram in this kernel (no /sys/block/zram0, no %s)" % SYS)
    with open(os.path.join(d, "disksize")) as f:
        if int(f.read().strip() or 0):
            raise NoSwap("zram0 is in use and this kernel cannot add a zram device")
    return 0, False


def swap_on(ctx, size_bytes):
    """Swap of size_bytes on a new zram device, on until the test's cleanup.
    Returns /dev/zramN; raises NoSwap when the machine does not allow it."""
    for tool in ("mkswap", "swapon", "swapoff"):
        if not shutil.which(tool):
            raise NoSwap("no %s" % tool)
    dev_id, made = _new_device()
    entry = (dev_id, made)
    with _lock:
        _active.append(entry)
    ctx.undo.append(lambda: swap_off(entry))
    dev = "/dev/zram%d" % dev_id
    try:
        _write("/sys/block/zram%d/disksize" % dev_id, size_bytes)
    except OSError as e:
        raise NoSwap("zram%d disksize: %s" % (dev_id, e))
    rc, err = _run(["mkswap", dev])
    if rc:
        raise NoSwap("mkswap %s: %s" % (dev, err))
    rc, err = _run(["swapon", "-p", str(PRIORITY), dev])
    if rc:
        raise NoSwap("swapon %s: %s" % (dev, err))
    return dev


def swap_off(entry):
    """swapoff, reset, remove; each step tried, the first error raised last."""
    with _lock:
        if entry not in _active:
            return
        _active.remove(entry)
    dev_id, made = entry
    dev = "/dev/zram%d" % dev_id
    problems = []
    with open("/proc/swaps") as f:
        on = any(l.split()[0] == dev for l in f.read().splitlines()[1:] if l.strip())
    if on:
        rc, err = _run(["swapoff", dev], timeout=120)
        if rc:
            problems.append("swapoff %s: %s" % (dev, err))
    for path, value in (("/sys/block/zram%d/reset" % dev_id, 1),
                        (os.path.join(SYS, "hot_remove"), dev_id) if made else (None, None)):
        if path:
            try:
                _write(path, value)
            except OSError as e:
                problems.append("%s: %s" % (path, e))
    if problems:
        raise OSError("; ".join(problems))


def off_all():
    """Every device still on (the suite's end, a watchdog, a signal)."""
    with _lock:
        left = list(_active)
    for entry in left:
        try:
            swap_off(entry)
        except OSError as e:
            print("note: zram cleanup: %s" % e, flush=True)


def used_bytes(dev):
    """Bytes swapped out to dev (/proc/swaps), 0 when it is not listed."""
    with open("/proc/swaps") as f:
        for l in f.read().splitlines()[1:]:
            p = l.split()
            if p and p[0] == dev:
                return int(p[3]) * 1024
    return 0
