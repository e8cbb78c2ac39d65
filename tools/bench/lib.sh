# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# lib.sh - what every figure of the bench shares, sourced by run.sh before
# the figures (fig_<n>_<name>.sh): the paths and the time budget; starting
# processes and killing them by PID, sysctls changed and restored, both in
# an EXIT trap; numbers (median, spread, ratios within a round); the BPF
# objects and counters of a process, strace from its exec; the report's
# sections; the setup (root, ./hotspot-k, the bench binaries built) and the
# report.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$ROOT/build/bench
WORK=$OUT/run
HK=$OUT/hotspot-k
RESULTS=$OUT/results.md

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

# spread FORMAT: "lo–hi" of numbers on stdin, each printf FORMAT (no newline)
spread()
{
	minmax | awk -F– -v f="$1" '{ printf f "–" f, $1, $2 }'
}

# the awk that reads a line of key=value fields into f[]
KV_FIELDS='{ delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }'

# Lines of key=value fields, one per round (round=) and variant (v=); one
# with skipped= or where the awk condition KEEP is false does not count.
# round_col FILE V KEEP EXPR: EXPR of variant V, one line per round
round_col()
{
	awk -v v="$2" "$KV_FIELDS"'
		f["v"] != v || ("skipped" in f) || !('"$3"') { next }
		{ print ('"$4"') }' "$1"
}

# round_ratios FILE A B KEEP EXPR [FORMAT]: EXPR of variant A ÷ EXPR of B
# within each round (side by side or one right after the other: drift
# between rounds cancels), one a line, printf FORMAT if given
round_ratios()
{
	awk -v a="$2" -v b="$3" -v fmt="${6:-}" "$KV_FIELDS"'
		("skipped" in f) || !('"$4"') { next }
		{ x[f["round"] " " f["v"]] = ('"$5"') }
		END {
			for (k in x) {
				split(k, p, " ")
				if (p[2] != a || !((p[1] " " b) in x) || x[p[1] " " b] <= 0)
					continue
				if (fmt == "")
					print x[k] / x[p[1] " " b]
				else
					printf fmt, x[k] / x[p[1] " " b]
			}
		}' "$1"
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
# attached when it is from the start (--pin, or HOTSPOT_K_TEST_HOOK_ALWAYS=1
# in the environment), else its exit hook (by default the sched_switch hook
# waits for a watched thread); its PID in HK_PID (empty on failure)
hk_start()
{
	local out=$1 i tp=sched_process_exit

	shift
	case " $* " in *" --no-hook "*) ;; *" --pin "*) tp=sched_switch ;; esac
	[ "${HOTSPOT_K_TEST_HOOK_ALWAYS:-}" = 1 ] && tp=sched_switch
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

# map_of PID NAME: id of the BPF map NAME among that process's fds
map_of()
{
	local f id

	for f in /proc/"$1"/fdinfo/*; do
		id=$(awk '/^map_id:/ { print $2 }' "$f" 2>/dev/null)
		[ -n "$id" ] || continue
		bpftool map show id "$id" 2>/dev/null | grep -q " name $2 " && { echo "$id"; return 0; }
	done
	return 1
}

# prog_ids PID: the id of every BPF program among that process's fds (program
# fds and links)
prog_ids()
{
	local f

	for f in /proc/"$1"/fdinfo/*; do
		awk '/^prog_id:/ { print $2 }' "$f" 2>/dev/null
	done | sort -un
}

# prog_of PID NAME: id of the BPF program NAME among that process's fds
prog_of()
{
	local id

	for id in $(prog_ids "$1"); do
		bpftool prog show id "$id" 2>/dev/null | grep -q " name $2 " && { echo "$id"; return 0; }
	done
	# the table driver loads hk_exit_table in hk_exit's place
	[ "$2" = hk_exit ] && { prog_of "$1" hk_exit_table; return; }
	return 1
}

# --- a process's counters and system calls -----------------------------------

# cpu_ticks PID: utime + stime (clock ticks) from /proc/PID/stat
cpu_ticks()
{
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# strace_start TAG ARGS...: hotspot-k ARGS under strace -f -ttt from its
# exec (attaching later interrupts its epoll_wait), in $WORK/strace-TAG.txt;
# strace's PID in TR_STRACE, hotspot-k's in TR_PID (empty on failure); up
# once its exit hook is attached (the sched_switch hook waits for a watched
# thread)
strace_start()
{
	local tag=$1 i pid=

	shift
	run_bg "$WORK/hk-$tag.log" strace -f -ttt -o "$WORK/strace-$tag.txt" "$HK" "$@"
	TR_STRACE=$BG_PID
	for ((i = 0; i < 500; i++)); do
		pid=$(cat /proc/"$TR_STRACE"/task/*/children 2>/dev/null | awk '{ print $1 }')
		[ -n "$pid" ] && link_prog "$pid" sched_process_exit >/dev/null && break
		alive "$TR_STRACE" || break
		sleep 0.02
	done
	if [ -z "$pid" ] || ! link_prog "$pid" sched_process_exit >/dev/null; then
		stop "$TR_STRACE"
		TR_PID=
		return 1
	fi
	# not our child (strace's), but ours to kill
	PIDS="$PIDS $pid"
	TR_PID=$pid
}

# switches PID: "voluntary involuntary" context switches, all its threads

# syscalls_in FILE T0 T1: "name count" of the system calls strace saw
# entered in [T0, T1), most frequent first
syscalls_in()
{
	awk -v a="$2" -v b="$3" '$2 + 0 >= a && $2 + 0 < b && $3 !~ /^</ && $3 ~ /\(/ {
			sub(/\(.*/, "", $3); n[$3]++ }
		END { for (k in n) printf "%s %d\n", k, n[k] }' "$1" | sort -k2,2nr -k1,1
}

# prom_start TAG: one of the four instances (prom, plain: under strace;
# prom-bare, plain-bare: not traced); its PID in pr_pid[TAG], its window in
# pr_t0/pr_t1[TAG] (the caller's arrays)

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

# bench_setup: root, a ./hotspot-k, the bench binaries built (make -C
# tools/bench), one copy of ./hotspot-k measured throughout, the machine's
# header; exits 1 when one of them fails
bench_setup()
{
	local i

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
}
