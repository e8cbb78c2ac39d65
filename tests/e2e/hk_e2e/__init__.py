# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The machinery of hotspot-k's end-to-end suite (tests/e2e/run.py).

common (settings), procs (the processes the suite starts), bpf (bpftool and
bpf(2)), tool (one running hotspot-k), suite (running, rerunning and
reporting tests), checks (helpers the tests share).
"""
