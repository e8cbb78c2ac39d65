#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# run.sh - what hotspot-k costs, measured next to the alternatives
# (issue #3). `make bench` runs it as root after building ./hotspot-k and
# installing the bench packages; each figure also runs alone:
#
#   tools/bench/run.sh [all | FIGURE...]
#
# This file only dispatches: what the figures share is lib.sh (processes
# killed by PID, sysctls restored, numbers, the setup and the report), each
# figure is fig_<n>_<name>.sh, the storms of figures 1 and 11 are
# storms.sh and the yardsticks of figures 1 and 2 yardsticks.sh.
#
#   hotpath  1. ns per sched_switch: hotspot-k's hook attached
#               (HOTSPOT_K_TEST_HOOK_ALWAYS=1) vs an empty hook vs
#               hk_switch's filter alone vs a per-TGID hash hook vs runqlat's
#               and cpudist's, under five switch storms (hackbench, pipe,
#               yield, many tasks, idle-heavy); hotspot-k --no-hook attaches
#               none; healthy storms: hotspot-k as a user gets it runs
#               nothing on sched_switch
#   tput     2. pinned pipe ping-pong ops/s: none vs hotspot-k vs empty vs
#               hotspot-k --no-hook
#   walk     3. window cost at 100..100 k threads (also runs poll at 1 k
#               and 10 k processes), vs a bare task-iterator walk and the
#               floors of issue #34's table walk (kptrs; a TGID bitmap)
#   poll     5. /proc polling (pidstat, minimal C reader) vs the window
#   user     4. the hotspot-k process over 60 s: syscalls, CPU, RSS
#               (7. map memory is read from the same process)
#   detect   6. seconds from workload start to the transition line
#   mem      7. bytes of every hotspot-k map at the default sizes
#   stretch  8. the longest stretch a walk holds a CPU, per driver, at 2 k,
#               10 k and 100 k threads, next to cyclictest's latency (not in
#               "all": run it alone, ~7 min)
#   filter   9. the walk's CPU with a --comm filter keeping 1 % of 2000
#               processes vs no filter (not in "all", ~2 min)
#   prom    10. --prometheus FILE's idle cost: system calls and wake-ups
#               with and without it, side by side (not in "all",
#               ~1.2 min)
#   profile 11. the profiler: hotspot-k --profile with nothing flagged vs
#               without, side by side (hk_switch ns per sched_switch, no
#               hk_prof_* program loaded); while one process is profiled,
#               hk_prof_switch for other processes and for it, hk_prof_sample
#               per sample, and its pinned ping-pong's slowdown (not in
#               "all", ~3 min)
#   io      12. io_blocked's cost in the walk: two instances over one
#               population at once, io_blocked on and off, CPU per thread
#               walked (not in "all", ~2 min)
#   memtruth 13. issue #19's memory truth: the host headroom read's ns (once
#               per window) and its error against MemAvailable while the
#               page cache changes; the walk's ns per thread with the
#               memory-stall counters on and off, side by side, at 1000 x 10
#               and 10000 x 1 (not in "all", ~2.5 min)
#   hook    14. issue #20's hook on demand: one Starved pair among healthy
#               load (attached when, how long, ns per switch), thread
#               create+exit with and without hotspot-k (hk_exit's ns), the
#               seed pair's entry windows before and after over 20 runs
#               (not in "all", ~5 min)
#   scrape  15. issue #32's --metrics-listen: the tool's CPU, bytes and
#               latency per scrape at 0, 100 and 1000 processes flagged, one
#               scrape per window and back to back; 20 slow clients at 1000
#               (not in "all", ~2.5 min)
#   budget  16. issue #33's [budget]: own CPU and RSS under an OOM-kill
#               storm, a fork storm and 100 k threads, a tool with the
#               default budget and one without side by side, and whether
#               the budgeted one steps back in the calm after (not in
#               "all", ~5 min)
#   wstate  17. issue #34's per-thread reads (direct loads vs the probe-read
#               helper) and per-thread state (task storage, a TID hash, a
#               TID array, none) at 1000 x 10, 10000 x 1 and 10000 x 10
#               (~35 s)
#   forks   18. issue #34's fork storms: stress-ng --fork, thread create+exit
#               and hackbench's setup, throughput with and without
#               hotspot-k (defaults), with an empty exit program and with
#               the TGID table's fork hook, in rotated rounds; hk_exit's
#               and the fork hook's ns per run (not in "all", ~3.5 min)
#
# Helpers, built by tools/bench/Makefile into build/bench/: bn-bpf (the
# yardstick BPF programs: an empty sched_switch hook, one that is
# hk_switch's filter and nothing more, a per-TGID hash hook, an empty
# exit hook, a TGID bitmap's fork hook, bare task-iterator walks and the
# table walks' floors; reads a hotspot-k's hk_stats),
# bn-spawn (idle populations), bn-pingpong (switch storms, both sides on
# one CPU or on two), bn-poll (a minimal /proc poller; CPU time of a
# command), bn-wstate (figure 17's walks); and
# bn_scrape.py, figure 15's HTTP client.
#
# Prints every figure with its method and writes the same markdown to
# build/bench/results.md. Exit status: 0 when every figure asked for was
# measured (met targets or not), 1 when one could not be measured or the
# setup failed, 2 on a usage error. Every process it starts is killed by
# PID, and every sysctl it changes restored, in an EXIT trap.
#
# Environment: BENCH_ROUNDS (hot path rounds, default 3), BENCH_PAIRS
# (throughput rounds, default 8), BENCH_USER_S (default 60),
# BENCH_WALK_CONFIGS (e.g. "1000x1 100x10 100000x1s"), BENCH_STRETCH_CONFIGS
# (default "1000x2 10000x1 10000x10"), BENCH_STRETCH_S (default 15),
# BENCH_FILTER_PROCS (default 2000), BENCH_FILTER_ROUNDS (default 3),
# BENCH_FILTER_S (default 15), BENCH_PROM_S (default 60),
# BENCH_PROFILE_ROUNDS (default 4), BENCH_PROFILE_RUNS (default 4),
# BENCH_PROFILE_PAIRS (default 5), BENCH_IO_PROCS (default 150),
# BENCH_IO_ROUNDS (default 3), BENCH_IO_S (default 15), BENCH_MT_CONFIGS
# (default "1000x10 10000x1"), BENCH_MT_ROUNDS (default 2), BENCH_MT_S
# (default 15), BENCH_HEALTHY_OPS (default 500000), BENCH_HOOK_PAIR_S
# (default 20), BENCH_HOOK_EXIT_ROUNDS (default 5), BENCH_HOOK_THREADS
# (default 20000), BENCH_HOOK_RUNS (default 20), BENCH_SCRAPE_POPS (default "0 100 1000"),
# BENCH_SCRAPE_N (default 200), BENCH_SCRAPE_ROUNDS (default 5),
# BENCH_SCRAPE_PAIRS (default 8), BENCH_SCRAPE_SLOW (default 20), BENCH_BUDGET_STORMS
# (default "oom fork threads"), BENCH_BUDGET_STORM_S (default 60), BENCH_BUDGET_CALM_S
# (default 30), BENCH_BUDGET_OOM_LOOPS (default 8), BENCH_BUDGET_S (default 900: no
# measurement starts later than this into the run), BENCH_WSTATE_CONFIGS (default
# "1000x10 10000x1 10000x10"), BENCH_WSTATE_ROUNDS (default 31), BENCH_FORKS_ROUNDS
# (default 8), BENCH_FORKS_S (default 2), BENCH_FORKS_THREADS (default 80000),
# BENCH_FORKS_HACKBENCH_RUNS (default 20).

set -u
export LC_ALL=C

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/storms.sh"
. "$HERE/yardsticks.sh"
# in figure order; a figure may use another's helpers (3 and 5 share their
# populations, 4 reads 7's maps), so all are sourced whatever runs
for f in 1_hotpath 2_tput 3_walk 4_user 5_poll 6_detect 7_mem 8_stretch \
	 9_filter 10_prom 11_profile 12_io 13_memtruth 14_hook 15_scrape 16_budget \
	 17_wstate 18_forks; do
	. "$HERE/fig_$f.sh"
done

main()
{
	local figs="$*" f

	# stretch (~7 min), filter (~2 min), prom (~1.2 min), profile
	# (~3 min), io (~2 min), memtruth (~2.5 min), hook (~5 min), scrape
	# (~2.5 min), budget (~5 min) and forks (~3.5 min) run on their own:
	# the default set takes ~12 min of the 15-minute budget (wstate: ~35 s
	# of it)
	[ -n "$figs" ] && [ "$figs" != all ] || figs="hotpath tput walk user detect wstate"
	for f in $figs; do
		case $f in
		hotpath | tput | walk | poll | user | detect | mem | stretch | filter | prom | profile | io | memtruth | hook | scrape | budget | wstate | forks) ;;
		*) echo "usage: $0 [all|hotpath|tput|walk|poll|user|detect|mem|stretch|filter|prom|profile|io|memtruth|hook|scrape|budget|wstate|forks]..." >&2; exit 2 ;;
		esac
	done
	bench_setup
	for f in $figs; do
		if over_budget; then
			fail "$f" "over the time budget (${BUDGET_S} s)"
			continue
		fi
		"fig_$f"
	done
	report
	[ -z "$FAILED" ] || { echo "bench: not measured:$FAILED" >&2; exit 1; }
}

main "$@"
