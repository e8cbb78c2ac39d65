# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Settings of the end-to-end suite: the tool's interval, the suite's time
budgets, and the deadlines of the tests, counted in the tool's windows."""

import re

INTERVAL = "1s"
INTERVAL_S = 1.0
# Tests of a feature, not of a diagnosis's timing (a filter, a reload, an
# output, a stop, an attack that needs windows to pass): four windows a
# second. A busy loop alone on a CPU is CPU-bound in any window, and what
# they prove does not hang on a window's length.
FAST_INTERVAL = "250ms"
FAST_INTERVAL_S = 0.25
SUITE_TIMEOUT_S = 720          # global watchdog: 12 minutes
DISTURBED_PCT = 25.0           # other work above this share of a CPU: rerun once,
MAX_RETRIES = 3                # at most this many reruns per suite,
RETRY_MARGIN_S = 120           # and none that could end later than this before the watchdog
CALM_BUDGET_S = 45             # waiting for others' bursts to pass, per suite
CALM_TRUST_S = 5               # a test that ended calm vouches this long for the next
TEARDOWN_GRACE_S = 1.5         # BPF objects must be gone within this after exit
LABELS = {"ok", "oom_risk", "mem_thrashing", "throttled", "starved", "io_blocked",
          "noisy_neighbor", "cpu_bound", "exited", "oom_killed"}
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$")

# scenarios, default config with -i 1s
ENTER_WINDOWS = 15              # deadline of enter-type scenarios
LEAK_WINDOWS = 13               # the OOM trend needs 10 s: flagged <= 12 s
LEAK_MAX_S = 12.0               # from the leak's start to its oom_risk line
HOLD_WINDOWS = 3                # keep watching after detection: no flapping
EXIT_WINDOWS = 5

# negative controls: no transition at all, over at least 15 windows
CONTROL_WINDOWS = 15
