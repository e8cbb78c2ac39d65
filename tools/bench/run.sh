#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# run.sh - what hotspot-k costs, measured next to the alternatives
# (issue #3). `make bench` runs it as root after building ./hotspot-k and
# installing the bench packages; each figure also runs alone:
#
#   tools/bench/run.sh [all | FIGURE...]
#
#   hotpath  1. ns per sched_switch: hotspot-k vs an empty hook vs
#               hk_switch's filter alone vs a per-TGID hash hook, under
#               five switch storms (storms.sh: hackbench, pipe, yield,
#               many tasks, idle-heavy); hotspot-k --no-hook attaches none
#   tput     2. pinned pipe ping-pong ops/s: none vs hotspot-k vs empty vs
#               hotspot-k --no-hook
#   walk     3. window cost at 100..100 k threads (also runs poll at 1 k
#               and 10 k processes), vs a bare task-iterator walk
#   poll     5. /proc polling (pidstat, minimal C reader) vs the window
#   user     4. the hotspot-k process over 60 s: syscalls, CPU, RSS
#               (7. map memory is read from the same process)
#   detect   6. seconds from workload start to the transition line
#   mem      7. bytes of every hotspot-k map at the default sizes
#   stretch  8. the longest stretch a walk holds a CPU, per driver, at 2 k,
#               10 k and 100 k threads, next to cyclictest's latency (not in
#               "all": run it alone, ~7 min)
#   filter   9. the walk's CPU with a --comm filter keeping 1 % of 2000
#               processes vs no filter (filter.sh; not in "all", ~2 min)
#   prom    10. --prometheus FILE's idle cost: system calls and wake-ups
#               with and without it, side by side (prom.sh; not in "all",
#               ~1.2 min)
#   profile 11. the profiler: hotspot-k --profile with nothing flagged vs
#               without, side by side (hk_switch ns per sched_switch, no
#               hk_prof_* program loaded); while one process is profiled,
#               hk_prof_switch for other processes and for it, hk_prof_sample
#               per sample, and its pinned ping-pong's slowdown (profile.sh;
#               not in "all", ~3 min)
#   io      12. io_blocked's cost in the walk: two instances over one
#               population at once, io_blocked on and off, CPU per thread
#               walked (io.sh; not in "all", ~2 min)
#
# Helpers, built by tools/bench/Makefile into build/bench/: bn-bpf (the
# yardstick BPF programs: an empty sched_switch hook, one that is
# hk_switch's filter and nothing more, a per-TGID hash hook, bare
# task-iterator walks; reads a hotspot-k's hk_stats), bn-spawn (idle
# populations), bn-pingpong (switch storms, both sides on one CPU or on
# two), bn-poll (a minimal /proc poller; CPU time of a command). The storms
# themselves are in storms.sh, sourced here.
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
# BENCH_IO_ROUNDS (default 3), BENCH_IO_S (default 15), BENCH_BUDGET_S (default 900: no
# measurement starts later than this into the run).

set -u
export LC_ALL=C

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/build/bench
WORK=$OUT/run
HK=$OUT/hotspot-k
RESULTS=$OUT/results.md

ROUNDS=${BENCH_ROUNDS:-3}
PAIRS=${BENCH_PAIRS:-8}
USER_S=${BENCH_USER_S:-60}
# PROCSxTHREADS; a trailing s: processes sharing one mm (bn-spawn -s)
WALK_CONFIGS=${BENCH_WALK_CONFIGS:-"100x1 10x10 1000x1 100x10 10000x1 1000x10 100000x1s 10000x10"}
HK_MAX_PROCS=131072	# the walk runs track every process of 100 k
# populations of the stretch figure (8) and how long cyclictest runs in each
STRETCH_CONFIGS=${BENCH_STRETCH_CONFIGS:-"1000x2 10000x1 10000x10"}
STRETCH_S=${BENCH_STRETCH_S:-15}
# the whole run must stay under 15 minutes: what would start after this is
# skipped (and reported as not measured)
BUDGET_S=${BENCH_BUDGET_S:-900}
PY=/usr/bin/python3

PIDS=""			# every process started here and not yet reaped
SAVED_SYSCTLS=""	# "name value" lines, as found
FAILED=""		# figures that could not be measured
T_START=$(date +%s)

# --- processes and sysctls ---------------------------------------------------

log()
{
	printf '[%4ss] %s\n' $(($(date +%s) - T_START)) "$*" >&2
}

# run_bg OUTFILE CMD...: start CMD in the background, its PID in BG_PID
run_bg()
{
	local out=$1
	shift
	"$@" >"$out" 2>&1 &
	BG_PID=$!
	PIDS="$PIDS $BG_PID"
}

alive()
{
	local st

	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# stop PID [SIGNAL] [TIMEOUT_S]: signal it, wait, SIGKILL after the timeout
stop()
{
	local pid=$1 sig=${2:-TERM} t=${3:-15} i

	[ -n "$pid" ] || return 0
	kill -"$sig" "$pid" 2>/dev/null
	for ((i = 0; i < t * 20; i++)); do
		alive "$pid" || break
		sleep 0.05
	done
	alive "$pid" && kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	PIDS=$(echo " $PIDS " | sed "s/ $pid / /; s/^ *//; s/ *$//")
}

# run_fg OUTFILE CMD...: run CMD to completion, killable by the trap
run_fg()
{
	local rc

	run_bg "$@"
	wait "$BG_PID"
	rc=$?
	PIDS=$(echo " $PIDS " | sed "s/ $BG_PID / /; s/^ *//; s/ *$//")
	return $rc
}

nap()
{
	run_fg /dev/null sleep "$1"
}

sysctl_set()
{
	local name=$1 val=$2 cur

	cur=$(sysctl -n "$name") || return 1
	grep -q "^$name " <<<"$SAVED_SYSCTLS" || SAVED_SYSCTLS+="$name $cur"$'\n'
	sysctl -qw "$name=$val"
}

sysctl_restore()
{
	local name=$1 val

	val=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$SAVED_SYSCTLS")
	[ -n "$val" ] || return 0
	sysctl -qw "$name=$val" || echo "bench: could not restore $name=$val" >&2
	SAVED_SYSCTLS=$(grep -v "^$name " <<<"$SAVED_SYSCTLS")
	[ -n "$SAVED_SYSCTLS" ] && SAVED_SYSCTLS+=$'\n'
}

cleanup()
{
	local pid name

	trap - EXIT INT TERM
	for pid in $PIDS; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in $PIDS; do
		stop "$pid" TERM 60
	done
	for name in $(awk '{ print $1 }' <<<"$SAVED_SYSCTLS"); do
		sysctl_restore "$name"
	done
}

trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM

. "$HERE/storms.sh"
. "$HERE/filter.sh"
. "$HERE/prom.sh"
. "$HERE/profile.sh"
. "$HERE/io.sh"

# --- numbers ------------------------------------------------------------------

# stats over numbers on stdin (one or many per line): median, min, max, n
med()
{
	tr ' ' '\n' | grep -E '^-?[0-9.]+(e[-+]?[0-9]+)?$' | sort -g |
		awk '{ a[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

minmax()
{
	tr ' ' '\n' | grep -E '^-?[0-9.]+(e[-+]?[0-9]+)?$' | sort -g |
		awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (!NR) print "nan"; else printf "%s–%s\n", lo, hi }'
}

# fmt FORMAT NUMBER: printf that turns a missing number into "n/a"
fmt()
{
	case $2 in
	"" | nan | inf | -inf) echo "n/a" ;;
	*) printf "$1" "$2" ;;
	esac
}

calc()
{
	case "$*" in
	*nan* | *n/a* | "") echo nan ;;
	*) awk "BEGIN { x = ($*); print x }" 2>/dev/null || echo nan ;;
	esac
}

# key=value field of a line
kv()
{
	sed -n "s/.*[ ^]$1=\([^ ]*\).*/\1/p" <<<" $2" | head -1
}

# over_budget: true once the run is too far along to start more
over_budget()
{
	[ $(($(date +%s) - T_START)) -ge "$BUDGET_S" ]
}

fail()
{
	echo "bench: $1: could not measure: $2" >&2
	FAILED="$FAILED $1"
}

# --- BPF objects of a process -------------------------------------------------

# id of the program a PID's bpf link attaches to tracepoint TP
link_prog()
{
	local f

	for f in /proc/"$1"/fdinfo/*; do
		grep -qs "^tp_name:[[:space:]]*$2\$" "$f" || continue
		awk '/^prog_id:/ { print $2 }' "$f" 2>/dev/null
		return 0
	done
	return 1
}

# "run_time_ns run_cnt" of a program, as bpftool prog show -j reports them
prog_stat()
{
	bpftool prog show id "$1" -j 2>/dev/null | tr ',{}' '\n\n\n' |
		awk -F: '$1 == "\"run_time_ns\"" { t = $2 } $1 == "\"run_cnt\"" { c = $2 }
			 END { print t + 0, c + 0 }'
}

# hk_start LOG ARGS...: start hotspot-k, wait until its sched_switch hook is
# attached (with --no-hook: its exit hook); its PID in HK_PID (empty on
# failure)
hk_start()
{
	local out=$1 i tp=sched_switch

	shift
	case " $* " in *" --no-hook "*) tp=sched_process_exit ;; esac
	run_bg "$out" "$HK" "$@"
	HK_PID=$BG_PID
	for ((i = 0; i < 300; i++)); do
		link_prog "$HK_PID" "$tp" >/dev/null && return 0
		alive "$HK_PID" || break
		sleep 0.02
	done
	echo "bench: hotspot-k $* did not attach: $(tail -3 "$out")" >&2
	stop "$HK_PID"
	HK_PID=
	return 1
}

# wait_line FILE REGEX TIMEOUT_S PID: until FILE has a matching line
wait_line()
{
	local i

	for ((i = 0; i < $3 * 50; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		[ -n "${4:-}" ] && ! alive "$4" && break
		sleep 0.02
	done
	grep -qE "$2" "$1" 2>/dev/null
}

# next_window PID: until the next window of that hotspot-k has closed (its
# hk_stats.windows moving)
next_window()
{
	local w0 w i

	w0=$(kv windows "$("$OUT/bn-bpf" stats -p "$1" 2>/dev/null)")
	for ((i = 0; i < 300; i++)); do
		w=$(kv windows "$("$OUT/bn-bpf" stats -p "$1" 2>/dev/null)")
		[ "$w" != "$w0" ] && return 0
		alive "$1" || return 1
		sleep 0.03
	done
	return 1
}

# wait_window PID OFFSET_S: until OFFSET_S after the next window
wait_window()
{
	next_window "$1"
	nap "$2"
}

# nohook_attached PID: a hotspot-k (--no-hook) holds a sched_switch link
nohook_attached()
{
	link_prog "$1" sched_switch >/dev/null
}

# nohook_said LOG: a stopped hotspot-k's summary line says "no hook"
nohook_said()
{
	grep -q '^hotspot-k: .*, no hook, ' "$1"
}

# --- sections of the report ---------------------------------------------------

section()
{
	SECTION=$WORK/section-$1.md
	: >"$SECTION"
}

say()
{
	printf '%s\n' "$*" >>"$SECTION"
}

verdict()
{
	case $1 in
	1) echo "**met**" ;;
	0) echo "**missed**" ;;
	*) echo "n/a" ;;
	esac
}

# summary FIGURE RESULT TARGET: a row of the summary table
summary()
{
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$WORK/summary.tsv"
}

# --- the yardsticks -------------------------------------------------------------

# variant_start none|hk|nohook|empty|filter|tgid [HOTSPOT-K ARGS]: VPID and
# VPROG (its sched_switch program; none for none and nohook)
variant_start()
{
	VPID=
	VPROG=
	case $1 in
	none)
		return 0
		;;
	hk)
		hk_start "$WORK/variant-hk.log" --json "${@:2}" || return 1
		VPID=$HK_PID
		VPROG=$(link_prog "$VPID" sched_switch)
		;;
	nohook)
		hk_start "$WORK/variant-nohook.log" --json --no-hook "${@:2}" || return 1
		VPID=$HK_PID
		return 0
		;;
	empty | filter | tgid)
		run_bg "$WORK/variant-$1.log" "$OUT/bn-bpf" attach "$1"
		VPID=$BG_PID
		wait_line "$WORK/variant-$1.log" '^ready' 10 "$VPID" || {
			stop "$VPID"
			VPID=
			return 1
		}
		VPROG=$(sed -n 's/^ready prog_id=//p' "$WORK/variant-$1.log")
		;;
	esac
	[ -n "$VPROG" ]
}

variant_stop()
{
	stop "$VPID"
	VPID=
}

# rotate N WORDS...: the words, starting at the Nth (round-robin order)
rotate()
{
	local n=$1

	shift
	local -a w=("$@")
	local i

	for ((i = 0; i < ${#w[@]}; i++)); do
		printf '%s ' "${w[(i + n) % ${#w[@]}]}"
	done
}

# --- 1. hot path ------------------------------------------------------------------

# hk_counts PID PROG: "switches_recorded run_cnt" of a hotspot-k and its hook
hk_counts()
{
	echo "$(kv switches_recorded "$("$OUT/bn-bpf" stats -p "$1" 2>/dev/null)") $(prog_stat "$2" | cut -d' ' -f2)"
}

# nohook_check: one hotspot-k --no-hook through a window; NOHOOK is "none"
# (no sched_switch program, and it says so) or what went wrong
nohook_check()
{
	NOHOOK="did not start"
	variant_start nohook -i 1s || return 1
	next_window "$VPID"
	NOHOOK=none
	nohook_attached "$VPID" && NOHOOK="it holds a sched_switch link"
	variant_stop
	[ "$NOHOOK" != none ] || nohook_said "$WORK/variant-nohook.log" ||
		NOHOOK="its summary does not say \"no hook\""
	[ "$NOHOOK" = none ]
}

fig_hotpath()
{
	local data=$WORK/hotpath.tsv r v s ok
	local -a c0 c1

	log "1. hot path: $ROUNDS rounds x {hotspot-k, empty, filter, per-TGID hash} x {$STORMS}"
	: >"$data"
	: >"$WORK/hotpath-hk.tsv"
	sysctl_set kernel.bpf_stats_enabled 1 || { fail hotpath "cannot set kernel.bpf_stats_enabled"; return; }
	nohook_check
	for ((r = 0; r < ROUNDS; r++)); do
		for v in $(rotate "$r" hk empty filter tgid); do
			variant_start "$v" -i 1s || variant_start "$v" -i 1s ||
				{ echo "bench: $v did not start" >&2; continue; }
			# what hotspot-k recorded during each storm: its walk
			# adds it up, so read it once the next window closed
			if [ "$v" = hk ]; then
				next_window "$VPID"
				read -r -a c0 <<<"$(hk_counts "$VPID" "$VPROG")"
			fi
			for s in $STORMS; do
				# someone else may have switched the stats off
				[ "$(sysctl -n kernel.bpf_stats_enabled)" = 1 ] ||
					sysctl -qw kernel.bpf_stats_enabled=1
				ok=1
				storm "$s" "$VPROG" || storm "$s" "$VPROG" || ok=0
				if [ "$ok" = 1 ]; then
					echo "$s $v $r $STORM" >>"$data"
				else
					echo "bench: storm $s under $v failed: $(tail -2 "$WORK/storm.out")" >&2
				fi
				[ "$v" = hk ] || continue
				next_window "$VPID"
				read -r -a c1 <<<"$(hk_counts "$VPID" "$VPROG")"
				[ "$ok" = 1 ] && [ "${#c0[@]}" = 2 ] && [ "${#c1[@]}" = 2 ] &&
					echo "$s $r $((c1[0] - c0[0])) $((c1[1] - c0[1]))" >>"$WORK/hotpath-hk.tsv"
				c0=("${c1[@]}")
			done
			variant_stop
		done
	done
	sysctl_restore kernel.bpf_stats_enabled
	hotpath_report
}

# hotpath_diff STORM A B: median over rounds of A's ns minus B's, per round,
# so that drift between rounds cancels
hotpath_diff()
{
	awk -v s="$1" -v a="$2" -v b="$3" '$1 == s { ns[$2 " " $3] = $4 }
		END { for (k in ns) { split(k, p, " "); if (p[1] == a && (b " " p[2]) in ns) print ns[k] - ns[b " " p[2]] } }' "$WORK/hotpath.tsv" | med
}

hotpath_report()
{
	local data=$WORK/hotpath.tsv s e f h t dh df dw dt rate inv share met
	local ok=1 any=0 sh="" sf="" st="" over="" nohook rec

	case $NOHOOK in
	none) nohook="no program attached (0 ns)" ;;
	*) nohook="not measured: $NOHOOK" ;;
	esac
	rec=$(awk '{ s += $3 } END { printf "%.0f", s }' "$WORK/hotpath-hk.tsv")
	section 1-hotpath
	say "## 1. Hot path: ns per sched_switch"
	say ""
	say "| storm | switches/s, all CPUs (the storm's own: involuntary) | empty hook | hk_switch's filter alone | hotspot-k \`hk_switch\` | hotspot-k added over empty (target ≤ 10) | of which: filter · watched-thread path (switches hotspot-k recorded) | per-TGID hash hook | hash added over empty | hotspot-k \`--no-hook\` |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for s in $STORMS; do
		e=$(awk -v s="$s" '$1 == s && $2 == "empty" { print $4 }' "$data" | med)
		f=$(awk -v s="$s" '$1 == s && $2 == "filter" { print $4 }' "$data" | med)
		h=$(awk -v s="$s" '$1 == s && $2 == "hk" { print $4 }' "$data" | med)
		t=$(awk -v s="$s" '$1 == s && $2 == "tgid" { print $4 }' "$data" | med)
		dh=$(hotpath_diff "$s" hk empty)
		df=$(hotpath_diff "$s" filter empty)
		dw=$(hotpath_diff "$s" hk filter)
		dt=$(hotpath_diff "$s" tgid empty)
		rate=$(awk -v s="$s" '$1 == s && $2 == "empty" && $6 > 0 { print $5 / $6 }' "$data" | med)
		inv=$(awk -v s="$s" '$1 == s && $2 == "empty" && ($7 + $8) > 0 { print 100 * $8 / ($7 + $8) }' "$data" | med)
		share=$(awk -v s="$s" '$1 == s && $4 > 0 { print 100 * $3 / $4 }' "$WORK/hotpath-hk.tsv" | med)
		met=nan
		if [ "$dh" != nan ]; then
			any=1
			met=$(awk -v d="$dh" 'BEGIN { print (d <= 10) ? 1 : 0 }')
			[ "$met" = 1 ] || { ok=0; over+="${over:+; }$s: +$(fmt %.0f "$dh") ns = filter $(fmt %+.0f "$df") ns + watched-thread path $(fmt %+.0f "$dw") ns (recorded $(fmt %.1f "$share") % of the switches)"; }
		fi
		sh+="${sh:+ / }$(fmt %+.0f "$dh")"
		sf+="${sf:+ / }$(fmt %+.0f "$df")"
		st+="${st:+ / }$(fmt %+.0f "$dt")"
		say "| $(storm_label "$s") | $(fmt %.0f "$rate") ($(fmt %.0f "$inv") %$([ "$s" != many ] || echo ", the ping-pong pair's")) | $(fmt %.0f "$e") ns | $(fmt %.0f "$f") ns | $(fmt %.0f "$h") ns | $(fmt %+.0f "$dh") ns $(verdict "$met") | $(fmt %+.0f "$df") · $(fmt %+.0f "$dw") ns ($(fmt %.1f "$share") %) | $(fmt %.0f "$t") ns | $(fmt %+.0f "$dt") ns | $nohook |"
	done
	say ""
	if [ -n "$over" ]; then
		say "Where hk_switch adds more than 10 ns, the nanoseconds go to: $over. The filter is paid on every switch: the voluntary check, and on involuntary ones (the idle task's included) prev's TID against one 8-byte word of hk_watch. The watched-thread path is everything hk_switch does on top, measured as hk_switch minus the filter: on switches of watched threads the aggressor's TGID, the kernel-thread check, the task storage lookup and the vote, and on every switch whatever hotspot-k's own 1 s walk leaves colder (it runs meanwhile, as it does in use). The share recorded is over the whole storm, warm-up included, when no storm thread is watched until the first walk has seen it wait."
		say ""
	fi
	say "Method: kernel BPF stats (\`kernel.bpf_stats_enabled=1\` for this figure only, then restored): Δ\`run_time_ns\` / Δ\`run_cnt\` of the attached sched_switch program, read with \`bpftool prog show id N -j\` before and after each storm (hotspot-k's program found through its own bpf_link in /proc/PID/fdinfo); a ping-pong storm whose first read came after the ping-pong had ended is run again. Variants: hotspot-k (\`hk_switch\`, default thresholds, \`-i 1s\` so that the storm processes have been through a walk during their 1.2 s warm-up, which the stats leave out: the steady state, with the watch bits set for the threads the walk saw waiting ≥ 70 % of a window (as long as Starved takes) and their task storage created); an empty tp_btf/sched_switch program (the floor: dispatch + the stats' own clock reads); \`bn_filter\`, hk_switch's filter and nothing more (the voluntary check, then prev's kernel-thread flag, then prev's TID tested against a bitmap as big as hk_watch with no bit set, then return: the same BPF instructions as hk_switch's first ones, per \`bpftool prog dump xlated\`, but for hk_switch loading its next argument up front), so that hk_switch's ns split into the filter and the watched-thread path (hk_switch minus the filter); a per-TGID collector hook (per-CPU switch-in stamp + \`bpf_ktime_get_ns\` + hash update by prev's TGID on every switch, + the aggressor's entry on involuntary ones, 64-byte values, as hotspot-bpf does). $ROUNDS rounds, one variant loaded at a time, variant order rotated each round, all five storms per load; medians over rounds; \"added\" and its split are medians of the per-round differences. Switches/s: Δ\`run_cnt\` of the empty program ÷ the wall-clock time between the two reads (each timed at its midpoint; every switch on both CPUs, the machine's own included); the involuntary share from the storm processes' own rusage (nvcsw/nivcsw, the ping-pong pair's in the many-task storm) in the same runs. Switches hotspot-k recorded: Δ\`hk_stats.switches_recorded\` (involuntary switches of watched threads, summed by the walk) ÷ Δ\`run_cnt\` of hk_switch, each read once the window after the storm had closed, so over the whole storm, warm-up included (a floor in the two hackbench storms: what a process recorded after the last walk before it exited is lost); $rec over all rounds. \`hotspot-k --no-hook\`: started once with \`-i 1s\`, through a window: no sched_switch link among its fds, and its exit summary says \"no hook\" ($([ "$NOHOOK" = none ] && echo "both so" || echo "not so: $NOHOOK")); there is no program to time, its cost is in figure 2. Storms: \`hackbench -p -g 2 -l 4000\` (80 new processes each run, no warm-up, stats over the whole run); \`bn-pingpong pipe -c 0 -w 1.2 -d 1.2\` (1-byte round trips over two pipes, stats read over the 1.2 s after the warm-up); \`bn-pingpong yield -c 0 -w 1.2 -d 1.2\` (every yield is an involuntary switch to the other process, so every switch reaches the bitmap test; each waits ~50 % of the window, a fair share: not watched); many tasks: \`hackbench -p -g 4 -l 4000\` (160 new processes over both CPUs, ~10 s) started with \`bn-pingpong pipe -c 0 -w 1.2 -d 1.2\`, both at nice 10 (at the bench's own nice they starved its reads past the ping-pong's end), stats over the ping-pong's measured 1.2 s, checked to end before hackbench did, then hackbench's workers killed by their PIDs and hackbench stopped by its own (it reaps them): task storage and task_structs of 160 processes, cache-cold; idle-heavy: \`bn-pingpong pipe -c 0 -C 1 -w 1.2 -d 1.2\`, the two sides on different CPUs, each CPU idle while its side waits for the other: the storm's own switches are voluntary, and every other switch is the idle task's, which by the kernel's rule (prev_state TASK_RUNNING) reaches the bitmap test and stops there."
	say ""
	summary "1. hot path" "hotspot-k's hook adds $sh ns per sched_switch over an empty program ($(echo $STORMS | sed 's/ / \/ /g') storms), of which its filter alone $sf ns; a per-TGID hash hook adds $st ns; \`--no-hook\`: $nohook" "≤ 10 ns added in every storm: $(verdict "$([ "$any" = 1 ] && echo "$ok")")"
	[ "$any" = 1 ] || fail hotpath "no run counted any switch"
}

# --- 2. throughput ----------------------------------------------------------------

fig_tput()
{
	local data=$WORK/tput.tsv r v line stats
	local n h e nh rh re rn nruns=0 nclean=0

	stats=$(sysctl -n kernel.bpf_stats_enabled)
	log "2. throughput: $PAIRS rounds x {none, hotspot-k, empty, hotspot-k --no-hook} pinned pipe ping-pong (bpf_stats_enabled=$stats)"
	: >"$data"
	for ((r = 0; r < PAIRS; r++)); do
		for v in $(rotate "$r" none hk empty nohook); do
			variant_start "$v" || variant_start "$v" ||
				{ echo "bench: $v did not start" >&2; continue; }
			if run_fg "$WORK/tput.out" "$OUT/bn-pingpong" pipe -c 0 -d 1; then
				line=$(grep '^ops=' "$WORK/tput.out")
				echo "$r $v $(kv ops_per_s "$line")" >>"$data"
			fi
			if [ "$v" = nohook ]; then
				# nothing on sched_switch, and it says so
				nruns=$((nruns + 1))
				nohook_attached "$VPID" && line=bad || line=ok
				variant_stop
				[ "$line" = ok ] && nohook_said "$WORK/variant-nohook.log" && nclean=$((nclean + 1))
				continue
			fi
			variant_stop
		done
	done

	n=$(awk '$2 == "none" { print $3 }' "$data" | med)
	h=$(awk '$2 == "hk" { print $3 }' "$data" | med)
	e=$(awk '$2 == "empty" { print $3 }' "$data" | med)
	nh=$(awk '$2 == "nohook" { print $3 }' "$data" | med)
	# ratios within a round: drift between rounds cancels
	ratios()
	{
		awk -v w="$1" '{ o[$1 " " $2] = $3 } END { for (k in o) { split(k, p, " "); if (p[2] == w && (p[1] " none") in o) print o[k] / o[p[1] " none"] } }' "$data"
	}
	spread()
	{
		ratios "$1" | minmax | awk -F– -v f="$2" '{ printf f "–" f, $1, $2 }'
	}
	rh=$(ratios hk | med)
	re=$(ratios empty | med)
	rn=$(ratios nohook | med)
	section 2-tput
	say "## 2. Throughput cost: pinned pipe ping-pong"
	say ""
	say "| running | round trips/s (median) | ratio to none: median (spread over $PAIRS rounds) | throughput lost |"
	say "| --- | --- | --- | --- |"
	say "| nothing | $(fmt %.0f "$n") | 1 | – |"
	say "| hotspot-k (default config) | $(fmt %.0f "$h") | $(fmt %.3f "$rh") ($(spread hk %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $rh)")") % |"
	say "| hotspot-k \`--no-hook\` (no sched_switch program) | $(fmt %.0f "$nh") | $(fmt %.3f "$rn") ($(spread nohook %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $rn)")") % |"
	say "| empty sched_switch program | $(fmt %.0f "$e") | $(fmt %.3f "$re") ($(spread empty %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $re)")") % |"
	say ""
	say "Method: \`bn-pingpong pipe -c 0 -d 1\`: two processes pinned to CPU 0 pass one byte back and forth over two pipes for 1 s (≈ 2 switches per round trip, about half of them involuntary, see figure 1). $PAIRS rounds; in each, nothing / hotspot-k / the empty program / \`hotspot-k --no-hook\` run in a rotated order, one at a time, each started anew just before its ping-pong; the ratio is taken within a round, then the median and the min–max over rounds are quoted. hotspot-k runs the defaults (5 s windows): its walk at start comes before the ping-pong exists and the next one after it ended, so no ping-pong thread is watched and its hook runs the filter only (figure 1 has the watched-thread path). \`--no-hook\` checked in $nclean of its $nruns runs: no sched_switch link among its fds while the ping-pong ran, and \"no hook\" in its exit summary. kernel.bpf_stats_enabled=$stats, as found (BPF stats add their own clock reads to every program run when 1)."
	say ""
	summary "2. throughput" "pinned pipe ping-pong with hotspot-k: $(fmt %.3f "$rh")× the throughput with nothing (spread $(spread hk %.2f)); with \`--no-hook\` $(fmt %.3f "$rn")× (spread $(spread nohook %.2f)); with an empty hook $(fmt %.3f "$re")×" "–"
	[ "$h" != nan ] && [ "$n" != nan ] && [ "$nh" != nan ] || fail tput "no ping-pong run completed"
	[ "$nclean" = "$nruns" ] || fail tput "hotspot-k --no-hook attached to sched_switch or did not say \"no hook\""
}

# --- 3. window cost at scale -------------------------------------------------------

# spawn_start PROCS THREADS [-s]: an idle population; its PID in SPAWN_PID
spawn_start()
{
	local f=$WORK/spawn-$1x$2${3:+s}.out

	run_bg "$f" "$OUT/bn-spawn" -p "$1" -t "$2" ${3:-}
	SPAWN_PID=$BG_PID
	wait_line "$f" '^ready' 120 "$SPAWN_PID" && return 0
	echo "bench: bn-spawn -p $1 -t $2 ${3:-}: $(tail -2 "$f")" >&2
	stop "$SPAWN_PID" TERM 120
	return 1
}

spawn_stop()
{
	stop "$SPAWN_PID" TERM 120
}

# window lines of one hotspot-k in a watch log:
# "W walk_ns dthreads dprocs max driver untracked stretch_max"
windows_of()
{
	awk -v pid="$1" '
		$1 != "win" { next }
		{ delete f; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["pid"] != pid { next }
		{
			w = f["windows"]; t = f["threads_walked"]; p = f["procs_walked"]
			if (w == 1 || (seen && w == pw + 1))
				print w, f["last_walk_ns"], t - pt, p - pp, f["walk_ns_max"], f["driver"], f["procs_untracked"], f["stretch_ns_max"]
			seen = 1; pw = w; pt = t; pp = p
		}' "$2"
}

# bare walks of a level in a watch log, the first (cold, creating) dropped: "ns threads"
bare_of()
{
	awk -v l="$1" '
		$1 != "bare" { next }
		{ delete f; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["level"] == l && n++ { print f["ns"], f["threads"] }' "$2"
}

walk_sysctls()
{
	local cur

	cur=$(sysctl -n kernel.pid_max)
	[ "$cur" -ge 1048576 ] || sysctl_set kernel.pid_max 1048576
	cur=$(sysctl -n vm.max_map_count)
	[ "$cur" -ge 1048576 ] || sysctl_set vm.max_map_count 1048576
}

walk_sysctls_restore()
{
	sysctl_restore kernel.pid_max
	sysctl_restore vm.max_map_count
}

# walk_config PROCS THREADS SHARED POLL: one population, hotspot-k at 1 s and
# 5 s next to the bare walks; a line in walk.tsv
walk_config()
{
	local p=$1 t=$2 shared=$3 poll=$4 n=$(($1 * $2)) need avail h1 h5 w1 w5
	local log=$WORK/watch-$1x$2$3.log

	log "3. walk: $p processes x $t threads${shared:+ (shared mm)}"
	if over_budget; then
		echo "procs=$p threads=$t$shared skipped=time" >>"$WORK/walk.tsv"
		return 1
	fi
	# measured: ~100 KiB per idle process (page tables, stacks), ~40 per
	# thread, ~35 per process sharing the mm
	need=$((p * 100 + (n - p) * 40))
	[ -z "$shared" ] || need=$((p * 35))
	avail=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	if [ $((need * 3 / 2 + 2097152)) -gt "$avail" ]; then
		echo "bench: $p x $t needs ~$((need / 1024)) MiB, $((avail / 1024)) MiB available: skipped" >&2
		echo "procs=$p threads=$t$shared skipped=memory" >>"$WORK/walk.tsv"
		return 1
	fi
	[ "$n" -lt 30000 ] || walk_sysctls
	spawn_start "$p" "$t" ${shared:+-s} || { walk_sysctls_restore; echo "procs=$p threads=$t$shared skipped=spawn" >>"$WORK/walk.tsv"; return 1; }
	hk_start "$WORK/hk5.log" -i 5s --max-procs $HK_MAX_PROCS --json && h5=$HK_PID || h5=
	hk_start "$WORK/hk1.log" -i 1s --max-procs $HK_MAX_PROCS --json && h1=$HK_PID || h1=
	if [ -n "$h1" ] && [ -n "$h5" ]; then
		run_fg "$log" "$OUT/bn-bpf" watch -p "$h1,$h5" -d 30 -n 8,3 -b 250 -l all -m $HK_MAX_PROCS
	fi
	stop "$h1"
	stop "$h5"
	[ -z "$poll" ] || poll_at "$p"
	spawn_stop
	walk_sysctls_restore

	if [ -z "$h1" ] || [ -z "$h5" ] || ! grep -q '^win' "$log"; then
		echo "procs=$p threads=$t$shared skipped=hotspot-k" >>"$WORK/walk.tsv"
		return 1
	fi
	w1=$(windows_of "$h1" "$log")
	w5=$(windows_of "$h5" "$log")
	# steady windows: from the second on (the first creates every
	# thread's task storage and every process's entry)
	{
		echo -n "procs=$p threads=$t$shared"
		echo -n " thr=$(awk '$1 >= 2 { print $3 }' <<<"$w1" | med)"
		echo -n " nprocs=$(awk '$1 >= 2 { print $4 }' <<<"$w1" | med)"
		echo -n " w1=$(awk '$1 >= 2 { print $2 }' <<<"$w1" | med)"
		echo -n " pt1=$(awk '$1 >= 2 && $3 > 0 { print $2 / $3 }' <<<"$w1" | med)"
		echo -n " first1=$(awk '$1 == 1 { print $2 }' <<<"$w1" | med)"
		echo -n " w5=$(awk '$1 >= 2 { print $2 }' <<<"$w5" | med)"
		echo -n " pt5=$(awk '$1 >= 2 && $3 > 0 { print $2 / $3 }' <<<"$w5" | med)"
		echo -n " first5=$(awk '$1 == 1 { print $2 }' <<<"$w5" | med)"
		# longest walk of either instance, its driver, longest stretch
		{ tail -1 <<<"$w1"; tail -1 <<<"$w5"; } | sort -k5,5g | tail -1 |
			awk '{ printf " max=%s ctx=%s", $5, $6 }'
		{ tail -1 <<<"$w1"; tail -1 <<<"$w5"; } | sort -k8,8g | tail -1 |
			awk '{ printf " stretch=%s", $8 }'
		for l in iter direct fields store hash; do
			echo -n " $l=$(bare_of "$l" "$log" | awk '$2 > 0 { print $1 / $2 }' | med)"
			echo -n " n_$l=$(bare_of "$l" "$log" | wc -l)"
		done
		echo -n " iterw=$(bare_of iter "$log" | awk '{ print $1 }' | med)"
		echo " n1=$(awk '$1 >= 2' <<<"$w1" | wc -l) n5=$(awk '$1 >= 2' <<<"$w5" | wc -l)"
	} >>"$WORK/walk.tsv"
}

# a full hk_procs is counted: 2 k processes against --max-procs 1024
walk_untracked()
{
	local h log=$WORK/watch-untracked.log

	log "3. walk: 2000 processes against --max-procs 1024"
	spawn_start 2000 1 || return 1
	hk_start "$WORK/hk-untracked.log" -i 1s --max-procs 1024 --json && h=$HK_PID || h=
	[ -n "$h" ] && run_fg "$log" "$OUT/bn-bpf" watch -p "$h" -d 10 -n 3
	stop "$h"
	spawn_stop
	[ -n "$h" ] || return 1
	grep '^win' "$log" | tail -1 >"$WORK/untracked.txt"
}

fig_walk()
{
	local c t

	: >"$WORK/walk.tsv"
	: >"$WORK/poll.tsv"
	for c in $WALK_CONFIGS; do
		t=${c#*x}
		case $c in
		1000x1 | 10000x1) walk_config "${c%x*}" "$t" "" poll ;;
		*s) walk_config "${c%x*}" "${t%s}" s "" ;;
		*) walk_config "${c%x*}" "$t" "" "" ;;
		esac
	done
	walk_untracked
	walk_report
	poll_report
}

# the rows of walk.tsv as "procs threads KEY..." for the keys asked for
walk_rows()
{
	awk -v keys="$*" '
		{ delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		{ n = split(keys, k, " "); line = ""
		  for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") ((k[i] in f) && f[k[i]] != "" ? f[k[i]] : "nan")
		  print line }' "$WORK/walk.tsv"
}

# a population label: "100000 × 1 (shared mm)"
pop()
{
	echo "$1 × ${2%s}$([ "${2%s}" = "$2" ] || echo " (shared mm)")"
}

walk_report()
{
	local p t sk thr procs w1 pt1 first1 w5 pt5 first5 max ctx bi bd bf bs bh biw stretch
	local ratio met any=0 line un

	: >"$WORK/walk-ratios"
	section 3-walk
	say "## 3. Window cost at scale"
	say ""
	say "| processes × threads | threads (processes) walked | bare walk: per thread · per window | hotspot-k -i 1s: per thread · per window · CPU | hotspot-k -i 5s: per thread · per window · CPU | hotspot-k ÷ bare, per thread (target ≤ 1.5) | window 1 (at start, creates storage): 1 s / 5 s instance | longest walk · longest stretch on a CPU (driver) |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- |"
	while read -r p t sk thr procs w1 pt1 first1 w5 pt5 first5 max ctx bi biw stretch; do
		if [ "$sk" != nan ]; then
			say "| $(pop "$p" "$t") | not measured ($sk) | | | | | | |"
			FAILED="$FAILED walk:${p}x$t"
			continue
		fi
		any=1
		ratio=$(calc "$pt1 / $bi")
		met=$(awk -v r="$ratio" 'BEGIN { print (r == "nan") ? "nan" : (r <= 1.5) ? 1 : 0 }')
		case $ctx in
		1) ctx="wq: a kworker" ;;
		2) ctx="timer: softirq" ;;
		3) ctx="iter: read() in 1 ms chunks" ;;
		*) ctx="driver $ctx" ;;
		esac
		say "| $(pop "$p" "$t") | $(fmt %.0f "$thr") ($(fmt %.0f "$procs")) | $(fmt %.0f "$bi") ns · $(fmt %.2f "$(calc "$biw / 1e6")") ms | $(fmt %.0f "$pt1") ns · $(fmt %.2f "$(calc "$w1 / 1e6")") ms · $(fmt %.3f "$(calc "$w1 / 1e7")") % | $(fmt %.0f "$pt5") ns · $(fmt %.2f "$(calc "$w5 / 1e6")") ms · $(fmt %.4f "$(calc "$w5 / 5e7")") % | $(fmt %.2f "$ratio")× $(verdict "$met") | $(fmt %.1f "$(calc "$first1 / 1e6")") / $(fmt %.1f "$(calc "$first5 / 1e6")") ms | $(fmt %.1f "$(calc "$max / 1e6")") ms · $(fmt %.1f "$(calc "$stretch / 1e6")") ms ($ctx) |"
		echo "$ratio" >>"$WORK/walk-ratios"
	done < <(walk_rows procs threads skipped thr nprocs w1 pt1 first1 w5 pt5 first5 max ctx iter iterw stretch)
	say ""
	say "Where a walk's time goes (median ns per thread; bare levels: iterate, then the per-thread fields, then task storage, then a per-process hash entry, each on top of the previous one):"
	say ""
	say "| processes × threads | bare: iterate only | + fields, direct loads | + fields, BPF_CORE_READ (as hotspot-k) | + task storage get/create, 3 writes | + per-process hash lookup/update | hotspot-k -i 1s (+ per-process sums, window step, classification, hysteresis) |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	while read -r p t sk bi bd bf bs bh pt1; do
		[ "$sk" = nan ] || continue
		say "| $(pop "$p" "$t") | $(fmt %.0f "$bi") | $(fmt %.0f "$bd") | $(fmt %.0f "$bf") | $(fmt %.0f "$bs") | $(fmt %.0f "$bh") | $(fmt %.0f "$pt1") |"
	done < <(walk_rows procs threads skipped iter direct fields store hash pt1)
	say ""
	# walk ns = a * threads + b * processes + c: least squares over the
	# forked populations, weighted by 1/walk^2 (relative errors: the
	# populations span three orders of magnitude)
	fit()
	{
		walk_rows threads skipped thr nprocs "$@" | awk '$2 == "nan" && $1 !~ /s$/ {
			for (i = 5; i <= NF; i++) {
				if ($i == "nan" || $i <= 0)
					continue
				x = $3; y = $4; z = $i; w = 1 / (z * z); n++
				sxx += w * x * x; sxy += w * x * y; sx += w * x; syy += w * y * y
				sy += w * y; s1 += w; sxz += w * x * z; syz += w * y * z; sz += w * z
			}
		} END {
			a11 = sxx; a12 = sxy; a13 = sx; a22 = syy; a23 = sy; a33 = s1
			d = a11 * (a22 * a33 - a23 * a23) - a12 * (a12 * a33 - a23 * a13) + a13 * (a12 * a23 - a22 * a13)
			if (n < 3 || d == 0) { print "nan nan nan"; exit }
			da = sxz * (a22 * a33 - a23 * a23) - a12 * (syz * a33 - a23 * sz) + a13 * (syz * a23 - a22 * sz)
			db = a11 * (syz * a33 - sz * a23) - sxz * (a12 * a33 - a23 * a13) + a13 * (a12 * sz - syz * a13)
			dc = a11 * (a22 * sz - a23 * syz) - a12 * (a12 * sz - syz * a13) + sxz * (a12 * a23 - a22 * a13)
			print da / d, db / d, dc / d
		}'
	}
	local -a fh fb
	read -r -a fh <<<"$(fit w1 w5)"
	read -r -a fb <<<"$(fit iterw)"
	say "How it grows (per-window walk = a·threads + b·processes + c, least squares over the forked populations above, both intervals, weighted for relative error): hotspot-k a = $(fmt %.0f "${fh[0]}") ns per thread, b = $(fmt %.0f "${fh[1]}") ns per process, c = $(fmt %.0f "$(calc "${fh[2]} / 1000")") µs per window; bare iteration a = $(fmt %.0f "${fb[0]}") ns per thread, b = $(fmt %.0f "${fb[1]}") ns per process, c = $(fmt %.0f "$(calc "${fb[2]} / 1000")") µs."
	say ""
	if [ -s "$WORK/untracked.txt" ]; then
		line=$(cat "$WORK/untracked.txt")
		un=$(kv procs_untracked "$line")
		say "A full hk_procs is counted: 2000 idle processes (+ the machine's own) against \`--max-procs 1024\`, -i 1s: after $(kv windows "$line") windows hk_stats shows procs_walked $(kv procs_walked "$line"), procs_untracked $un (a count per window of the processes that found the map full: $(awk -v u="$un" 'BEGIN { print (u > 0) ? "> 0, **met**" : "0, **missed**" }'))."
	else
		say "A full hk_procs: not measured."
		FAILED="$FAILED walk:untracked"
	fi
	say ""
	say "Method: \`bn-spawn -p P -t T\` forks P processes of T threads each (a static binary; every thread blocks in pause()). \"Shared mm\": \`bn-spawn -s\` makes each process with clone(CLONE_VM) instead of fork(): a process of its own (own TGID, signal struct, files) without a copy of the address space, because an idle forked process costs ~100 KiB here and faulting 10 GB of fresh guest memory in made 100 k forks take 95 s on this VM; those processes' \`mm\` is one shared, cache-hot struct, so that row is somewhat optimistic per process. kernel.pid_max and vm.max_map_count are raised to 1048576 for populations ≥ 30 k threads, then restored. Two hotspot-k run at once over each population, \`-i 1s\` and \`-i 5s\`, with \`--max-procs $HK_MAX_PROCS\` so that every process is tracked (100 k processes do not fit the default 32768). \`bn-bpf watch\` reads each one's hk_stats (found through that process's own map fds, fields by BTF name) every 5 ms and logs every window: walk = \`last_walk_ns\`; threads and processes = the Δ of \`threads_walked\` and \`procs_walked\`; medians over the steady windows (the 2nd on: about 14 at 1 s and 3 at 5 s per population; window 1 is the walk hotspot-k makes at start, which creates every thread's task storage and every process's entry, shown apart); CPU = walk time ÷ interval, as a share of one CPU. Longest walk = \`walk_ns_max\` (first window included), longest stretch = \`stretch_ns_max\` (the longest the walk held one CPU without a break), driver = \`hk_stats.driver\` (the default: iter above 4000 threads, else wq). The bare walk is \`bn_walk_iter\`, a SEC(\"syscall\") program run with BPF_PROG_TEST_RUN that only iterates every thread (bpf_iter_task_new/next/destroy with BPF_TASK_ITER_ALL_THREADS, under bpf_rcu_read_lock) and times itself with bpf_ktime_get_ns: the floor. It runs 250 ms after each window of the 1 s instance, and the other levels one at a time, in turn, 500 and 750 ms after it, so that every walk finds the task_structs untouched for about as long as hotspot-k's own walk does (the 5 s instance's walks fall anywhere in between). The first sample of each level is dropped (cold code, storage creation); about 12 samples of the floor and 6 of each other level per population. Ratio = hotspot-k -i 1s ÷ bare iterate, per thread."
	say ""
	local big nmet ntot
	big=$(walk_rows procs threads w1 w5 | awk '$1 * ($2 + 0) == 100000 { printf "%s%s × %s: %.0f ms per walk (%.2f %% of a CPU at -i 1s, %.3f %% at 5 s)", sep, $1, ($2 ~ /s$/) ? ($2 + 0) " (shared mm)" : $2, $3 / 1e6, $3 / 1e7, $4 / 5e7; sep = "; " }')
	nmet=$(awk '$1 != "nan" && $1 <= 1.5' "$WORK/walk-ratios" | wc -l)
	ntot=$(awk '$1 != "nan"' "$WORK/walk-ratios" | wc -l)
	summary "3. window cost" "${big:-100 k threads not measured}; per thread $(minmax <"$WORK/walk-ratios" | awk -F– '{ printf "%.2f–%.2f", $1, $2 }')× a bare task-iterator walk; a full hk_procs is counted (procs_untracked ${un:-?})" "≤ 1.5× bare: met in $nmet of $ntot populations"
	[ "$any" = 1 ] || fail walk "no population measured"
}

# --- 8. the longest stretch on a CPU, next to a latency probe ----------------

# stretch_run P T MODE: cyclictest for STRETCH_S seconds with MODE running
# (none: no hotspot-k; wq, timer, iter: that driver forced; default: the
# tool's own choice); a line in stretch.tsv
stretch_run()
{
	local p=$1 t=$2 mode=$3 h= cyc=$WORK/cyc-$1x$2-$3.out hk=$WORK/hk-stretch-$1x$2-$3.log
	local lat sum n0 i

	log "8. stretch: $p x $t, $mode"
	n0=$(hk_maps)
	if [ "$mode" != none ]; then
		if [ "$mode" = default ]; then
			hk_start "$hk" -i 1s --max-procs $HK_MAX_PROCS --json
		else
			hk_start "$hk" -i 1s --max-procs $HK_MAX_PROCS --json --driver "$mode"
		fi
		h=$HK_PID
		[ -n "$h" ] || { echo "procs=$p threads=$t mode=$mode skipped=hotspot-k" >>"$WORK/stretch.tsv"; return 1; }
		# from the second window on: the first walk is always the iter one
		next_window "$h"
	fi
	# SCHED_FIFO 95 on every CPU, a wake-up every 500 us: how late it
	# runs, in a histogram of 1 us buckets up to 20 ms
	run_fg "$cyc" cyclictest -m -S -p 95 -i 500 -D "${STRETCH_S}s" -q -h 20000
	[ -z "$h" ] || stop "$h" INT
	# the next run must not meet this one's teardown: freeing a task
	# storage map walks every thread's storage, and the next instance's
	# first walk creating its own meanwhile was seen taking 16 ms stretches
	for ((i = 0; i < 300; i++)); do
		[ "$(hk_maps)" -gt "$n0" ] || break
		sleep 0.1
	done
	nap 2
	lat=$(awk '
		/^[0-9]+ / { for (i = 2; i <= NF; i++) { c[$1 + 0] += $i; n += $i } }
		/^# Histogram Overflows:/ { for (i = 4; i <= NF; i++) { over += $i; n += $i } }
		/^# Max Latencies:/ { for (i = 4; i <= NF; i++) if ($i + 0 > m) m = $i + 0 }
		END {
			if (!n) exit
			for (b = 0; b < 20000; b++) {
				s += c[b]
				if (!p && s >= n * 0.999) p = b
				if (b > 2000) late += c[b]
			}
			printf "n=%d p999=%d max=%d late=%d", n, p ? p : 20000, m, late + over
		}' "$cyc")
	sum=$(grep -m 1 ' windows, ' "$hk" 2>/dev/null)
	{
		echo -n "procs=$p threads=$t mode=$mode ${lat:-n=0 p999=nan max=nan late=nan}"
		echo -n " long=$(sed -n 's/.*(\([0-9]*\) of \([0-9]*\) over 2 ms).*/\1\/\2/p' <<<"$sum")"
		echo -n " driver=$(sed -n 's/.*, driver \([a-z]*\),.*/\1/p' <<<"$sum")"
		echo -n " walk_max_us=$(sed -n 's/.*longest walk \([0-9]*\) us.*/\1/p' <<<"$sum")"
		echo -n " stretch_us=$(sed -n 's/.*longest stretch on a CPU \([0-9]*\) us.*/\1/p' <<<"$sum")"
		echo " pt_ns=$(sed -n 's/.*walk \([0-9]*\) ns\/thread avg.*/\1/p' <<<"$sum")"
	} >>"$WORK/stretch.tsv"
}

# hk_procs maps loaded, of every hotspot-k
hk_maps()
{
	bpftool map show 2>/dev/null | grep -c ' name hk_procs '
}

fig_stretch()
{
	local c p t m line

	: >"$WORK/stretch.tsv"
	for c in $STRETCH_CONFIGS; do
		p=${c%x*}
		t=${c#*x}
		if over_budget; then
			echo "procs=$p threads=$t mode=all skipped=time" >>"$WORK/stretch.tsv"
			continue
		fi
		[ $((p * t)) -lt 30000 ] || walk_sysctls
		if ! spawn_start "$p" "$t"; then
			echo "procs=$p threads=$t mode=all skipped=spawn" >>"$WORK/stretch.tsv"
			walk_sysctls_restore
			continue
		fi
		for m in none wq timer iter default; do
			stretch_run "$p" "$t" "$m"
		done
		spawn_stop
		walk_sysctls_restore
	done

	section 8-stretch
	say "## 8. The longest stretch on a CPU"
	say ""
	say "| processes × threads | hotspot-k | driver | CPU per thread (avg) | longest walk | longest stretch on a CPU · stretches over 2 ms (hk_stats) | cyclictest: 99.9th percentile · max latency (µs) · wake-ups later than 2 ms |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	while read -r line; do
		if [ -n "$(kv skipped "$line")" ]; then
			say "| $(kv procs "$line") × $(kv threads "$line") | $(kv mode "$line") | not measured ($(kv skipped "$line")) | | | | |"
			FAILED="$FAILED stretch:$(kv procs "$line")x$(kv threads "$line")"
			continue
		fi
		m=$(kv mode "$line")
		case $m in
		none) say "| $(kv procs "$line") × $(kv threads "$line") | not running | | | | | $(kv p999 "$line") · $(kv max "$line") · $(kv late "$line") of $(kv n "$line") |" ;;
		*) say "| $(kv procs "$line") × $(kv threads "$line") | $([ "$m" = default ] && echo "default" || echo "--driver $m") | $(kv driver "$line") | $(kv pt_ns "$line") ns | $(fmt %.1f "$(calc "$(kv walk_max_us "$line") / 1000")") ms | $(fmt %.2f "$(calc "$(kv stretch_us "$line") / 1000")") ms · $(kv long "$line") | $(kv p999 "$line") · $(kv max "$line") · $(kv late "$line") of $(kv n "$line") |" ;;
		esac
	done <"$WORK/stretch.tsv"
	say ""
	say "Method: \`bn-spawn -p P -t T\` forks the idle population; then, one after the other over the same population, \`cyclictest -m -S -p 95 -i 500 -D ${STRETCH_S}s -q\` (rt-tests: a SCHED_FIFO 95 thread on every CPU, woken every 500 µs; it reports how late each wake-up ran) alone, and next to hotspot-k -i 1s with each driver forced and with its own choice. cyclictest starts after the tool's second window (its first walk, which creates the task storage, is always the chunked iter one). Each run starts once the previous instance's maps are gone, and 2 s more: a task storage map being freed walks every thread's storage, and an instance whose first walk met that (creating its own storage meanwhile) showed 16 ms stretches. Longest walk (first read to last, yields included), longest stretch, stretches over 2 ms and CPU per thread from the tool's exit summary (hk_stats: \`walk_ns_max\`, \`stretch_ns_max\`, \`stretches_over_2ms\` of \`stretches\`, \`walk_cpu_ns_total / threads_walked\`). Stretches are wall-clock: time the hypervisor stole from this VM inside one counts too, which is why cyclictest's own baseline (not running) is shown: this VM alone delays some wake-ups by several ms. On this PREEMPT_NONE/VOLUNTARY kernel the wq and timer drivers walk every thread in one go (a kworker or the timer softirq, not preemptible, in an RCU read section): what runs on that CPU waits for the whole walk. The iter driver stops every 1 ms (\`chunk_ns\`) and returns to userspace, which reads again: the scheduler runs between chunks."
	say ""
	line=$(awk '/mode=default/ { for (i = 1; i <= NF; i++) if ($i ~ /^stretch_us=/) { split($i, kv, "="); if (kv[2] > m) m = kv[2] } } END { print m + 0 }' "$WORK/stretch.tsv")
	summary "8. longest stretch" "default driver: longest stretch on a CPU $(fmt %.2f "$(calc "$line / 1000")") ms at up to $(echo "$STRETCH_CONFIGS" | awk '{ split($NF, a, "x"); print a[1] * a[2] }') threads" "≤ ~2 ms: $(awk -v s="$line" 'BEGIN { print (s > 0 && s <= 2500) ? "**met**" : "**missed**" }')"
}

# --- 5. the alternative: polling /proc -----------------------------------------------

# poll_at PROCS: with the population up, alternate pidstat and the C reader
poll_at()
{
	local r line c

	log "5. poll: pidstat and the minimal C reader at $1 processes"
	for ((r = 0; r < 2; r++)); do
		# pidstat reads everything once, then once per interval: 3 reads
		if run_fg "$WORK/pidstat.out" "$OUT/bn-poll" run -q -- pidstat -u -w -r -h 1 2; then
			line=$(grep '^run ' "$WORK/pidstat.out")
			echo "$1 pidstat $r $(calc "$(kv cpu_s "$line") / 3")" >>"$WORK/poll.tsv"
		fi
		if run_fg "$WORK/cread.out" "$OUT/bn-poll" read -n 3; then
			while read -r line; do
				c=$(kv cpu_s "$line")
				echo "$1 cread $r $c $(kv procs "$line")" >>"$WORK/poll.tsv"
			done < <(grep '^refresh' "$WORK/cread.out")
		fi
	done
}

fig_poll()
{
	: >"$WORK/walk.tsv"
	: >"$WORK/poll.tsv"
	walk_config 1000 1 "" poll
	walk_config 10000 1 "" poll
	poll_report
}

poll_report()
{
	local p ps cr w1 w5 nprocs any=0 sp=""

	section 5-poll
	say "## 5. The alternative: polling /proc"
	say ""
	say "| processes | pidstat -u -w -r -h: CPU per refresh | minimal C reader: CPU per refresh | hotspot-k walk per window (-i 1s / -i 5s) | pidstat ÷ hotspot-k | C reader ÷ hotspot-k | CPU at one refresh or window per 5 s: pidstat / C reader / hotspot-k |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	for p in $(awk '{ print $1 }' "$WORK/poll.tsv" | sort -un); do
		ps=$(awk -v p="$p" '$1 == p && $2 == "pidstat" { print $4 }' "$WORK/poll.tsv" | med)
		cr=$(awk -v p="$p" '$1 == p && $2 == "cread" { print $4 }' "$WORK/poll.tsv" | med)
		nprocs=$(awk -v p="$p" '$1 == p && $2 == "cread" { print $5 }' "$WORK/poll.tsv" | med)
		w1=$(walk_rows procs threads w1 | awk -v p="$p" '$1 == p && $2 == "1" { print $3 }')
		w5=$(walk_rows procs threads w5 | awk -v p="$p" '$1 == p && $2 == "1" { print $3 }')
		[ "$ps" != nan ] && [ "$cr" != nan ] && any=1
		sp+="${sp:+; }$p processes: pidstat $(fmt %.0f "$(calc "$ps * 1000")") ms, C reader $(fmt %.0f "$(calc "$cr * 1000")") ms per refresh vs hotspot-k $(fmt %.1f "$(calc "$w5 / 1e6")") ms per window"
		say "| $p idle + the machine's ($(fmt %.0f "$nprocs") in /proc) | $(fmt %.1f "$(calc "$ps * 1000")") ms | $(fmt %.1f "$(calc "$cr * 1000")") ms | $(fmt %.2f "$(calc "$w1 / 1e6")") / $(fmt %.2f "$(calc "$w5 / 1e6")") ms | $(fmt %.0f "$(calc "$ps * 1e9 / $w5")")× | $(fmt %.0f "$(calc "$cr * 1e9 / $w5")")× | $(fmt %.2f "$(calc "$ps * 20")") % / $(fmt %.2f "$(calc "$cr * 20")") % / $(fmt %.3f "$(calc "$w5 / 5e7")") % |"
	done
	say ""
	say "Method: in the same run as figure 3, on the same single-thread populations, once the two hotspot-k had stopped: 2 rounds, each \`pidstat -u -w -r -h 1 2\` (3 reads of every process: the baseline and 2 reports; its output to /dev/null; CPU = user+sys of pidstat from wait4 rusage, ÷ 3) then \`bn-poll read -n 3\` (a minimal C poller: per refresh it opens, reads and parses /proc/PID/stat and /proc/PID/schedstat of every process: CPU time, faults, RSS, run delay; CPU = getrusage user+sys around each refresh). Medians. hotspot-k's cost per window is its in-kernel walk (figure 3, same population: it does nothing in userspace per window); the ratios use the 5 s walk, the default interval. Both pollers see per-process totals only: no per-thread share, no aggressor, no memory-cgroup limit."
	say ""
	summary "5. polling /proc" "$sp" "–"
	[ "$any" = 1 ] || fail poll "no polling run completed"
}

# --- 4. userspace, 7. kernel memory ------------------------------------------------

# cpu_ticks PID: utime + stime (clock ticks) from /proc/PID/stat
cpu_ticks()
{
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

status_field()
{
	awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"
}

# mem_section PID: every BPF map the hotspot-k with that PID holds
mem_section()
{
	local pid=$1 f id line total=0 name type max bytes rows=""

	for f in /proc/"$pid"/fdinfo/*; do
		id=$(awk '/^map_id:/ { print $2 }' "$f" 2>/dev/null)
		[ -n "$id" ] || continue
		line=$(bpftool map show id "$id" -j 2>/dev/null | tr -d '{}')
		name=$(sed -n 's/.*"name":"\([^"]*\)".*/\1/p' <<<"$line")
		type=$(sed -n 's/.*"type":"\([^"]*\)".*/\1/p' <<<"$line")
		max=$(sed -n 's/.*"max_entries":\([0-9]*\).*/\1/p' <<<"$line")
		bytes=$(sed -n 's/.*"bytes_memlock":\([0-9]*\).*/\1/p' <<<"$line")
		[ -n "$bytes" ] || continue
		total=$((total + bytes))
		rows+="| $name | $type | $max | $bytes | $(fmt %.2f "$(calc "$bytes / 1048576")") |"$'\n'
	done
	section 7-mem
	say "## 7. Kernel memory at the default sizes"
	say ""
	say "| map | type | max_entries | bytes_memlock | MiB |"
	say "| --- | --- | --- | --- | --- |"
	printf '%s' "$rows" | sort -t'|' -k5,5nr >>"$SECTION"
	say "| **all maps** | | | **$total** | **$(fmt %.2f "$(calc "$total / 1048576")")** |"
	summary "7. kernel memory" "$(fmt %.1f "$(calc "$total / 1048576")") MiB in all maps at the default sizes ($(fmt %.1f "$(calc "$(grep -F '| hk_procs |' <<<"$rows" | cut -d'|' -f5) / 1048576")") MiB of it hk_procs, $(grep -F '| hk_procs |' <<<"$rows" | cut -d'|' -f4 | tr -d ' ') entries), + task storage per thread" "–"
	say ""
	say "Method: the map ids of one hotspot-k process started with the defaults (hk_procs sized by the tool: 4 × the processes running at start, 4096..65536), from its own fds in /proc/PID/fdinfo, each read with \`bpftool map show id N -j\` (\`bytes_memlock\`). Not in these bytes: hk_tasks is task storage, allocated per thread on demand (a 40-byte value plus the kernel's per-element and per-task headers, on the order of 150–200 bytes per thread: ~15–20 MiB at 100 k threads)."
	say ""
	[ "$total" -gt 0 ] || fail mem "no map found"
}

fig_mem()
{
	log "7. kernel memory"
	hk_start "$WORK/hk-mem.log" --json || { fail mem "hotspot-k did not start"; return; }
	mem_section "$HK_PID"
	stop "$HK_PID"
}

fig_user()
{
	local st pid c0 c1 v0 v1 n0 n1 e0 e1 t0 t1 rss hwm calls=0 sys tick i

	log "4. userspace: hotspot-k with the defaults, ${USER_S} s, started under strace -f"
	# strace from the exec: attaching to a running hotspot-k interrupts its
	# epoll_wait with EINTR, which hotspot-k took for a stop when written
	run_bg "$WORK/hk-user.log" strace -f -ttt -o "$WORK/strace.txt" "$HK" --json
	st=$BG_PID
	pid=
	for ((i = 0; i < 500; i++)); do
		pid=$(cat /proc/"$st"/task/*/children 2>/dev/null | awk '{ print $1 }')
		[ -n "$pid" ] && link_prog "$pid" sched_switch >/dev/null && break
		alive "$st" || break
		sleep 0.02
	done
	if [ -z "$pid" ] || ! link_prog "$pid" sched_switch >/dev/null; then
		stop "$st"
		fail user "hotspot-k did not start under strace: $(tail -2 "$WORK/hk-user.log")"
		return
	fi
	# not our child (strace's), but ours to kill
	PIDS="$PIDS $pid"
	mem_section "$pid"
	nap 1
	t0=$(date +%s.%N)
	c0=$(cpu_ticks "$pid")
	v0=$(status_field "$pid" voluntary_ctxt_switches)
	n0=$(status_field "$pid" nonvoluntary_ctxt_switches)
	e0=$(grep -c '^{' "$WORK/hk-user.log")
	nap "$USER_S"
	t1=$(date +%s.%N)
	c1=$(cpu_ticks "$pid")
	v1=$(status_field "$pid" voluntary_ctxt_switches)
	n1=$(status_field "$pid" nonvoluntary_ctxt_switches)
	e1=$(grep -c '^{' "$WORK/hk-user.log")
	rss=$(status_field "$pid" VmRSS)
	hwm=$(status_field "$pid" VmHWM)
	stop "$pid" TERM 15
	stop "$st" TERM 15
	tick=$(getconf CLK_TCK)
	# system calls entered inside the window ("PID TIME name(...")
	sys=$(awk -v a="$t0" -v b="$t1" '$2 + 0 >= a && $2 + 0 < b && $3 !~ /^</ && $3 ~ /\(/ {
			sub(/\(.*/, "", $3); n[$3]++ }
		END { for (k in n) printf "%s %d\n", k, n[k] }' "$WORK/strace.txt" | sort -k2,2nr)
	[ -z "$sys" ] || calls=$(awk '{ s += $2 } END { print s }' <<<"$sys")
	[ -z "$sys" ] || sys=$(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' <<<"$sys")

	section 4-user
	say "## 4. Userspace: the hotspot-k process over ${USER_S} s"
	say ""
	say "| measure | value | target |"
	say "| --- | --- | --- |"
	local met
	# the watchdog (a timer driver's windows must keep coming) wakes the
	# tool when 3 intervals of 5 s pass without a walk ending: at least
	# 2 intervals apart, one epoll_wait each (hk_stats is mapped)
	local watchdog=$(( (USER_S + 9) / 10 ))
	met=$(awk -v c="$calls" -v e="$((e1 - e0))" -v w="$watchdog" 'BEGIN { print (c <= 2 + w + 4 * e) ? 1 : 0 }')
	say "| system calls in ${USER_S} s (strace -f) | $calls${sys:+ ($sys)} | only the watchdog's ($watchdog at most) and the transitions': $(verdict "$met") |"
	summary "4. userspace" "$calls system calls, $((v1 - v0)) wake-ups (voluntary switches), $(fmt %.0f "$(calc "($c1 - $c0) * 1000 / $tick")") ms CPU in ${USER_S} s ($((e1 - e0)) transitions printed); RSS $(fmt %.1f "$(calc "$rss / 1024")") MiB" "only the watchdog's wake-ups (≤ $watchdog): $(verdict "$met")"
	say "| transitions printed meanwhile (each: a wake-up, a write) | $((e1 - e0)) | |"
	say "| voluntary / involuntary context switches in ${USER_S} s (/proc/PID/status) | $((v1 - v0)) / $((n1 - n0)) | |"
	say "| CPU time in ${USER_S} s (utime + stime, /proc/PID/stat) | $(fmt %.0f "$(calc "($c1 - $c0) * 1000 / $tick")") ms | |"
	say "| RSS (VmRSS) / peak (VmHWM) | $(fmt %.1f "$(calc "$rss / 1024")") MiB / $(fmt %.1f "$(calc "$hwm / 1024")") MiB | |"
	say ""
	say "Method: one hotspot-k with the defaults (5 s windows, \`--json\`) started under \`strace -f -ttt\` (strace from the exec: attaching with \`strace -p\` interrupts the epoll_wait with EINTR, which hotspot-k at the time of writing took for a stop, exiting 0), nothing started by the bench meanwhile (other users' processes may still change state: their transitions are counted above). After a 1 s settle, the system calls strace saw entered during the next ${USER_S} s are counted by name; CPU from /proc/PID/stat fields 14+15 ($tick Hz ticks) and switches from /proc/PID/status at both ends. Met when the calls are explained by the watchdog (one epoll_wait when 3 intervals pass without a window: at most one per 2 intervals, ${watchdog} in ${USER_S} s) and the transitions printed (≤ 2 + 4 per transition)."
	say ""
	[ -s "$WORK/strace.txt" ] && [ -n "$rss" ] || fail user "hotspot-k or strace stopped early"
}

# --- 6. detection latency -------------------------------------------------------------

# the seed scenarios (hotspot-bpf's README, "Testing scenarios")
THRASH_PY='
import mmap, time, random
size = 256 * 1024 * 1024
mm = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
while True:
    mm.madvise(mmap.MADV_DONTNEED)
    for _ in range(5000):
        offset = random.randint(0, size - 4096) & ~4095
        mm[offset] = 65
    time.sleep(0.1)
'
LEAK_PY='
import time
x = []
while True:
    x.append(" " * 10_000_000)
    time.sleep(0.25)
'

# event_time FILE PID LABEL: epoch seconds of the first transition of PID to
# LABEL in a --json log ("" if none)
event_time()
{
	local line

	line=$(grep -F "\"pid\":$2," "$1" | grep -F "\"to\":\"$3\"" | head -1)
	[ -n "$line" ] || return 1
	date -d "$(sed -n 's/.*"time":"\([^"]*\)".*/\1/p' <<<"$line")" +%s.%N
}

# detect_one NAME PHASE TIMEOUT_S T0 "PID:LABEL..." : wait for every PID to
# reach its label, at most TIMEOUT_S after T0 (wall clock, every label of the
# scenario together); a line per label in detect.tsv
detect_one()
{
	local name=$1 phase=$2 timeout=$3 t0=$4 want=$5 pw pid label got te

	for pw in $want; do
		pid=${pw%%:*}
		label=${pw#*:}
		got=
		while :; do
			te=$(event_time "$WORK/hk-detect.log" "$pid" "$label") && { got=1; break; }
			alive "$pid" || break
			[ "$(calc "$(date +%s.%N) - $t0 >= $timeout")" = 1 ] && break
			sleep 0.1
		done
		if [ -n "$got" ]; then
			echo "$name $phase $label $(calc "$te - $t0") $(calc "$(date +%s.%N) - $te")" >>"$WORK/detect.tsv"
		else
			echo "$name $phase $label nan nan" >>"$WORK/detect.tsv"
		fi
	done
}

# scenario NAME PHASE HK: start it PHASE s after a window, wait, kill it
scenario()
{
	local name=$1 phase=$2 hk=$3 t0 a v w

	wait_window "$hk" "$phase"
	t0=$(date +%s.%N)
	case $name in
	yes)
		run_bg /dev/null yes
		w=$BG_PID
		detect_one "$name" "$phase" 30 "$t0" "$w:cpu_bound"
		stop "$w"
		;;
	pinned-pair)
		run_bg /dev/null taskset -c 0 bash -c 'while true; do :; done'
		a=$BG_PID
		run_bg /dev/null taskset -c 0 nice -n 19 bash -c 'while true; do :; done'
		v=$BG_PID
		detect_one "$name" "$phase" 30 "$t0" "$v:starved $a:noisy_neighbor"
		stop "$v"
		stop "$a"
		;;
	madvise-thrash)
		run_bg /dev/null "$PY" -c "$THRASH_PY"
		w=$BG_PID
		detect_one "$name" "$phase" 30 "$t0" "$w:mem_thrashing"
		stop "$w"
		;;
	leak)
		run_bg /dev/null "$PY" -c "$LEAK_PY"
		w=$BG_PID
		detect_one "$name" "$phase" 45 "$t0" "$w:oom_risk"
		stop "$w"
		;;
	esac
}

# the transitions each scenario must show, and the targets (s) that exist
DETECT_WANT="yes:cpu_bound pinned-pair:starved pinned-pair:noisy_neighbor madvise-thrash:mem_thrashing leak:oom_risk"
DETECT_TARGET="oom_risk:15"

# mem_limit: the tightest memory.max on the bench's own cgroup v2 path (the
# scenarios' too), else total RAM, in bytes
mem_limit()
{
	local cg lim best

	best=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
	cg=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	while [ -n "$cg" ]; do
		lim=$(cat "/sys/fs/cgroup$cg/memory.max" 2>/dev/null)
		case $lim in
		'' | max) ;;
		*) [ "$lim" -lt "$best" ] && best=$lim ;;
		esac
		[ "$cg" = / ] && break
		cg=$(dirname "$cg")
	done
	echo "$best"
}

fig_detect()
{
	local hk s ph pw

	log "6. detection latency: the five seed scenarios, default interval (5 s), two window phases"
	: >"$WORK/detect.tsv"
	hk_start "$WORK/hk-detect.log" --json --utc || { fail detect "hotspot-k did not start"; return; }
	hk=$HK_PID
	for s in yes pinned-pair madvise-thrash leak; do
		for ph in 0.1 2.5; do
			# a scenario that timed out once is not tried again
			if over_budget || grep -q "^$s .* nan " "$WORK/detect.tsv"; then
				for pw in $DETECT_WANT; do
					[ "${pw%%:*}" != "$s" ] || echo "$s $ph ${pw#*:} skip nan" >>"$WORK/detect.tsv"
				done
				continue
			fi
			scenario "$s" "$ph" "$hk"
		done
	done
	stop "$hk"

	section 6-detect
	say "## 6. Detection latency at the default interval (5 s)"
	say ""
	say "| scenario | expected transition | started 0.1 s after a window | started 2.5 s after a window | target |"
	say "| --- | --- | --- | --- | --- |"
	local name label l1 l2 any=0 sd="" lag tgt met cell tout
	for pw in $DETECT_WANT; do
		name=${pw%%:*}
		label=${pw#*:}
		l1=$(awk -v n="$name" -v l="$label" '$1 == n && $2 == "0.1" && $3 == l { print $4 }' "$WORK/detect.tsv")
		l2=$(awk -v n="$name" -v l="$label" '$1 == n && $2 == "2.5" && $3 == l { print $4 }' "$WORK/detect.tsv")
		[ "$name" = leak ] && tout=45 || tout=30
		for ph in l1 l2; do
			case ${!ph} in
			'') printf -v "$ph" '%s' "not run" ;;
			skip) printf -v "$ph" '%s' "not run (time budget, or timed out before)" ;;
			nan) printf -v "$ph" '%s' "none in $tout s (timed out)" ;;
			*) any=1; printf -v "$ph" '%s s' "$(fmt %.1f "${!ph}")" ;;
			esac
		done
		tgt=$(tr ' ' '\n' <<<"$DETECT_TARGET" | awk -F: -v l="$label" '$1 == l { print $2 }')
		cell="–"
		if [ -n "$tgt" ]; then
			met=$(awk -v n="$name" -v l="$label" -v t="$tgt" '$1 == n && $3 == l { n1++; if ($4 != "nan" && $4 != "skip" && $4 <= t) ok++ }
				END { print (n1 != 2) ? "nan" : (ok == 2) ? 1 : 0 }' "$WORK/detect.tsv")
			cell="≤ $tgt s: $(verdict "$met")"
		fi
		sd+="${sd:+, }$label ${l1% s} / ${l2% s} s"
		case $name in
		yes) name="\`yes > /dev/null\`" ;;
		pinned-pair) name="two bash busy loops pinned to CPU 0, victim at nice 19" ;;
		madvise-thrash) name="python: madvise(DONTNEED) of 256 MiB + 5000 random writes every 0.1 s" ;;
		leak) name="python: a 10 MB string every 0.25 s (40 MB/s leak)" ;;
		esac
		say "| $name | ok → $label | $l1 | $l2 | $cell |"
	done
	lag=$(awk '$5 != "nan" { print $5 }' "$WORK/detect.tsv" | sort -g | tail -1)
	local lim eta
	lim=$(mem_limit)
	eta=$(calc "$lim / 40e6 / 60")
	say ""
	say "Method: one hotspot-k with the default config (\`--json --utc\`), started first and left running. Each scenario runs twice, alone, started by the bench 0.1 s and 2.5 s after one of hotspot-k's windows closed (seen through its hk_stats.windows counter), watched until its process's transition appears in the JSON output, then killed by PID. Timeouts, on the wall clock from the start: 30 s (the noisy neighbor shares its victim's), 45 s for the leak (3 × its target, so that neither the timeout nor the run's time budget decides a latency: a timed-out or skipped scenario shows as such, never as a number); a scenario that timed out is not run again. Latency = the event's \`time\` field minus the start time taken just before the start; the bench read each line at most $(fmt %.2f "$lag") s after that time. The phase matters: the first window sees the process for only part of it, and the default hysteresis (enter_windows = 2) needs two matching windows for every label but OOM risk. OOM risk enters at its first match, which needs the anon + shmem RSS to grow in that window itself, a steady trend (least squares, growth in ≥ 75 % of its time, ≥ 64 MiB net) covering ≥ min_trend = 10 s of window samples (three at 5 s, the present one included, the earliest at the first window close after the start), and an ETA to the limit within eta_horizon = 15 min; the limit here is $(fmt %.1f "$(calc "$lim / 1073741824")") GiB (the tightest memory.max on the bench's cgroup path, else total RAM), which a 40 MB/s leak reaches in about $(fmt %.0f "$eta") min. Its target: ≤ 15 s from the start at the 5 s interval, in both phases."
	say ""
	summary "6. detection latency" "$sd (started 0.1 / 2.5 s after a window; default 5 s interval)" "oom_risk ≤ 15 s: $(verdict "$(awk '$3 == "oom_risk" { n++; if ($4 != "nan" && $4 != "skip" && $4 <= 15) ok++ } END { print (n != 2) ? "nan" : (ok == 2) ? 1 : 0 }' "$WORK/detect.tsv")")"
	[ "$any" = 1 ] || fail detect "no transition seen"
	grep -q ' nan ' "$WORK/detect.tsv" && FAILED="$FAILED detect:timeout"
	grep -q ' skip ' "$WORK/detect.tsv" && FAILED="$FAILED detect:skipped"
}

# --- the report -------------------------------------------------------------------

machine_header()
{
	local cpu mem others commit

	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	others=$(pgrep -x hotspot-k | wc -l)
	commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
	git -C "$ROOT" diff --quiet HEAD -- 2>/dev/null || commit="$commit + uncommitted changes"
	section 0-machine
	say "# hotspot-k benchmark results"
	say ""
	say "| machine | |"
	say "| --- | --- |"
	say "| date | $(date -u '+%Y-%m-%d %H:%M:%S UTC') |"
	say "| kernel | $(uname -r) ($(uname -m)) |"
	say "| CPU | $cpu |"
	say "| nproc | $(nproc) |"
	say "| memory | $mem |"
	say "| hotspot-k | $("$HK" --version 2>/dev/null | head -1), tree $commit |"
	say "| sysctls found | kernel.bpf_stats_enabled=$(sysctl -n kernel.bpf_stats_enabled) kernel.pid_max=$(sysctl -n kernel.pid_max) vm.max_map_count=$(sysctl -n vm.max_map_count) |"
	say "| noise at start | load average $(cut -d' ' -f1-3 /proc/loadavg); $others other hotspot-k process(es) running (shared machine: A/B runs alternate, medians quoted) |"
	say ""
}

report()
{
	local took=$(($(date +%s) - T_START))

	if [ -s "$WORK/summary.tsv" ]; then
		section 0-summary
		say "## Summary"
		say ""
		say "| figure | result | target |"
		say "| --- | --- | --- |"
		sort -t"$(printf '\t')" -k1,1V "$WORK/summary.tsv" | awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' >>"$SECTION"
		say ""
		say "Details and the method of every figure below."
		say ""
	fi
	section 99-footer
	say "Total bench time: $((took / 60)) min $((took % 60)) s.${FAILED:+ Not measured:$FAILED.}"
	# sections in figure order: 9 before 10
	printf '%s\n' "$WORK"/section-*.md | sort -V | xargs cat >"$RESULTS.tmp" &&
		mv "$RESULTS.tmp" "$RESULTS"
	cat "$RESULTS"
	echo >&2
	echo "bench: written to $RESULTS" >&2
}

# --- main -------------------------------------------------------------------------

main()
{
	local figs="$*" f i

	# stretch (~7 min), filter (~2 min), prom (~1.2 min), profile
	# (~3 min) and io (~2 min) run on their own: the default set takes ~12 min of the
	# 15-minute budget
	[ -n "$figs" ] && [ "$figs" != all ] || figs="hotpath tput walk user detect"
	for f in $figs; do
		case $f in
		hotpath | tput | walk | poll | user | detect | mem | stretch | filter | prom | profile | io) ;;
		*) echo "usage: $0 [all|hotpath|tput|walk|poll|user|detect|mem|stretch|filter|prom|profile|io]..." >&2; exit 2 ;;
		esac
	done
	if [ "$(id -u)" != 0 ]; then
		echo "bench: needs root (BPF, sysctls, 100 k processes)" >&2
		exit 1
	fi
	if [ ! -x "$ROOT/hotspot-k" ]; then
		echo "bench: no $ROOT/hotspot-k: run make hotspot-k (or make bench)" >&2
		exit 1
	fi
	mkdir -p "$WORK"
	rm -f "$WORK"/section-*.md "$WORK/summary.tsv"
	make -s -C "$HERE" >&2 || { echo "bench: building tools/bench failed" >&2; exit 1; }
	# others may rebuild ./hotspot-k meanwhile: measure one binary throughout
	for i in 1 2 3; do
		cp "$ROOT/hotspot-k" "$HK.tmp" && "$HK.tmp" --version >/dev/null 2>&1 &&
			mv "$HK.tmp" "$HK" && break
		sleep 2
	done
	[ -x "$HK" ] && "$HK" --version >/dev/null 2>&1 || { echo "bench: cannot copy a working ./hotspot-k" >&2; exit 1; }
	machine_header
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
