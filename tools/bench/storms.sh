# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# storms.sh - the context-switch storms of figure 1, sourced by run.sh (it
# uses lib.sh's process helpers: run_bg, run_fg, stop, alive, wait_line).
#
#   hackbench  hackbench -p -g 2 -l 4000: 80 processes over pipes, mostly
#              voluntary switches
#   pipe       bn-pingpong pipe -c 0: a pipe ping-pong pinned to CPU 0
#   yield      bn-pingpong yield -c 0: two sched_yield loops on CPU 0,
#              every switch involuntary
#   many       hackbench -p -g 4 -l 4000 (160 processes) on both CPUs while
#              the pinned pipe ping-pong runs: stats over the ping-pong's
#              measured period, the hook's per-task state cache-cold
#   idle       bn-pingpong pipe -c 0 -C 1: the ping-pong's two sides on
#              different CPUs, so that each side sleeps while the other
#              runs and nearly every switch is to or from the idle task

STORMS="hackbench pipe yield many idle"

# storm_label NAME: its row in the figure
storm_label()
{
	case $1 in
	hackbench) echo "hackbench -p -g 2 -l 4000 (80 processes, mostly voluntary)" ;;
	pipe) echo "pipe ping-pong, 2 processes on CPU 0" ;;
	yield) echo "sched_yield loops, 2 processes on CPU 0" ;;
	many) echo "many tasks: hackbench -p -g 4 -l 4000 (160 processes, both CPUs) + the pipe ping-pong on CPU 0" ;;
	idle) echo "idle-heavy: pipe ping-pong across CPUs 0 and 1" ;;
	esac
}

# stop_tree PID: stop hackbench and its workers, each by its PID: the workers
# first, with SIGKILL (their PIDs from /proc/PID/task/*/children), then
# hackbench, which reaps them
stop_tree()
{
	local kids k comm f

	# builtins only: a fork per worker is slow with 160 of them running
	for f in /proc/"$1"/task/*/children; do
		read -r -a kids <"$f" 2>/dev/null || continue
		for k in "${kids[@]}"; do
			comm=
			read -r comm <"/proc/$k/comm" 2>/dev/null
			[ "$comm" = hackbench ] && kill -KILL "$k" 2>/dev/null
		done
	done
	stop "$1"
}

# prog_read PROG_ID: its "run_time_ns run_cnt" in PR, and in PR_T the wall
# clock halfway through the read (bpftool takes a while on a busy machine)
prog_read()
{
	local a=$EPOCHREALTIME

	read -r -a PR <<<"$(prog_stat "$1")"
	PR_T=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f", (a + b) / 2 }')
}

# storm NAME PROG_ID: one context-switch storm, the program's BPF stats
# read around it; "ns_per_run runs secs nvcsw nivcsw" in STORM (secs: wall
# clock between the two reads; nvcsw and nivcsw: the storm processes' own
# switches in their measured part; for "many", the ping-pong pair's). Not
# in a $(...): the EXIT trap must know every PID it starts. Fails when the
# first read came after the ping-pong had ended.
storm()
{
	local f=$WORK/storm.out line pid rc hb= t0 t1 late=
	local -a s0 s1 pp

	STORM=

	case $1 in
	hackbench)
		# processes over pipes: mostly voluntary switches
		prog_read "$2"
		s0=("${PR[@]}")
		t0=$PR_T
		run_fg "$f" "$OUT/bn-poll" run -- hackbench -p -g 2 -l 4000 || return 1
		prog_read "$2"
		s1=("${PR[@]}")
		t1=$PR_T
		line=$(grep '^run ' "$f")
		;;
	pipe | yield | many | idle)
		case $1 in
		pipe | many) pp=(pipe -c 0) ;;
		yield) pp=(yield -c 0) ;;
		idle) pp=(pipe -c 0 -C 1) ;;
		esac
		# ~10 s alone here: it outlasts the ping-pong (checked below).
		# Both at nice 10: 160 runnable processes at the bench's own
		# nice starved it for over a second, reads and all
		if [ "$1" = many ]; then
			run_bg "$WORK/hackbench.out" nice -n 10 hackbench -p -g 4 -l 4000
			hb=$BG_PID
			pp=(nice -n 10 "$OUT/bn-pingpong" "${pp[@]}")
		else
			pp=("$OUT/bn-pingpong" "${pp[@]}")
		fi
		# a warm-up first: hotspot-k's hook only writes into task
		# storage its walk created, for threads the walk saw waiting,
		# so let a window pass
		run_bg "$f" "${pp[@]}" -w 1.2 -d 1.2
		pid=$BG_PID
		wait_line "$f" '^go' 10 "$pid"
		prog_read "$2"
		s0=("${PR[@]}")
		t0=$PR_T
		alive "$pid" && ! grep -q '^ops=' "$f" || late=1
		wait "$pid"
		rc=$?
		prog_read "$2"
		s1=("${PR[@]}")
		t1=$PR_T
		PIDS=$(echo " $PIDS " | sed "s/ $pid / /; s/^ *//; s/ *$//")
		if [ -n "$hb" ]; then
			# hackbench ended first: the period was no storm throughout
			alive "$hb" || { echo "bench: hackbench -g 4 ended before the ping-pong" >>"$f"; rc=1; }
			stop_tree "$hb"
		fi
		[ -z "$late" ] || { echo "bench: the first read came after the ping-pong ended" >>"$f"; rc=1; }
		[ "$rc" = 0 ] || return 1
		line=$(grep '^ops=' "$f")
		;;
	esac
	[ $((s1[1] - s0[1])) -gt 0 ] || return 1
	STORM="$(calc "($((s1[0] - s0[0]))) / $((s1[1] - s0[1]))") $((s1[1] - s0[1])) $(calc "$t1 - $t0") $(kv nvcsw "$line") $(kv nivcsw "$line")"
}
