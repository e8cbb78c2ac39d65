# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_12_io.sh - figure 12, what the io_blocked diagnosis costs the walk: two
# hotspot-k -i 1s over one population at the same time, one with the
# defaults (io_blocked on: each visited thread's delay accounting is read,
# each quiet thread's in_iowait bit too) and one with [io_blocked]
# min_blocked = 0% (off: neither); the walk's CPU per thread from each one's
# hk_stats over the same IO_S seconds, IO_ROUNDS rounds with the start order
# swapped every round; not in "all" (~2 min). Sourced by run.sh (it uses
# lib.sh's helpers).
#
# The population: IO_PROCS processes of 10 threads (bn-spawn), one process
# in 10 waking every 100 ms so that some threads are visited each window,
# and one reader of 1 MiB O_DIRECT blocks (hkload dio) so that the I/O path
# is taken.

IO_PROCS=${BENCH_IO_PROCS:-150}
IO_ROUNDS=${BENCH_IO_ROUNDS:-3}
IO_S=${BENCH_IO_S:-15}

# io_run ROUND FIRST: both instances over IO_S s, FIRST (on|off) started first;
# a line per instance in io.tsv with the Δ of hk_stats from its second window
io_run()
{
	local r=$1 first=$2 v h s0 s1
	local -A pid s_0

	printf '[io_blocked]\nmin_blocked = 0%%\n' >"$WORK/io-off.conf"
	for v in $first $([ "$first" = on ] && echo off || echo on); do
		if [ "$v" = on ]; then
			hk_start "$WORK/hk-io-$v.log" -i 1s --json || return 1
		else
			hk_start "$WORK/hk-io-$v.log" -i 1s --json --config "$WORK/io-off.conf" || return 1
		fi
		pid[$v]=$HK_PID
	done
	for v in on off; do
		next_window "${pid[$v]}" && next_window "${pid[$v]}"
		s_0[$v]=$("$OUT/bn-bpf" stats -p "${pid[$v]}" 2>/dev/null)
	done
	nap "$IO_S"
	for v in on off; do
		h=${pid[$v]}
		next_window "$h"
		s1=$("$OUT/bn-bpf" stats -p "$h" 2>/dev/null)
		s0=${s_0[$v]}
		stop "$h" INT
		if [ -z "$s0" ] || [ -z "$s1" ]; then
			echo "round=$r v=$v skipped=hk_stats" >>"$WORK/io.tsv"
			continue
		fi
		echo "round=$r v=$v first=$first driver=$(kv driver "$s1")" \
			"windows=$(($(kv windows "$s1") - $(kv windows "$s0")))" \
			"walk_cpu_ns_total=$(($(kv walk_cpu_ns_total "$s1") - $(kv walk_cpu_ns_total "$s0")))" \
			"threads_walked=$(($(kv threads_walked "$s1") - $(kv threads_walked "$s0")))" \
			"threads_visited=$(($(kv threads_visited "$s1") - $(kv threads_visited "$s0")))" \
			>>"$WORK/io.tsv"
	done
}

fig_io()
{
	local f=$WORK/spawn-io.out d=$WORK/io-dio.out r sp dio first found

	log "12. io: $IO_PROCS processes x 10 threads + an O_DIRECT reader, io_blocked on vs off side by side, $IO_ROUNDS rounds x ${IO_S} s"
	: >"$WORK/io.tsv"
	found=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)
	run_bg "$f" "$OUT/bn-spawn" -p "$IO_PROCS" -t 10 -e 10 -w 100
	sp=$BG_PID
	run_bg "$d" "$ROOT/build/hkload" dio --file "/var/tmp/hk-bench-dio.$$"
	dio=$BG_PID
	if ! wait_line "$f" '^ready' 120 "$sp" || ! wait_line "$d" '^ready' 60 "$dio"; then
		stop "$sp" TERM 120
		stop "$dio"
		rm -f "/var/tmp/hk-bench-dio.$$"
		fail io "population: $(tail -1 "$f") $(tail -1 "$d")"
		return
	fi
	for ((r = 0; r < IO_ROUNDS; r++)); do
		over_budget && break
		[ $((r % 2)) = 0 ] && first=on || first=off
		io_run "$r" "$first"
	done
	stop "$dio"
	stop "$sp" TERM 120
	rm -f "/var/tmp/hk-bench-dio.$$"
	[ -n "$found" ] && echo "$found" >/proc/sys/kernel/task_delayacct
	io_report
}

# io_col V EXPR: EXPR (awk, over the Δ fields) per round of variant V
io_col()
{
	round_col "$WORK/io.tsv" "$1" 'f["threads_walked"] > 0' "$2"
}

io_report()
{
	local v label pt vis ratio drv
	local pt_expr='f["walk_cpu_ns_total"] / f["threads_walked"]'

	section 12-io
	say "## 12. io_blocked's cost in the walk"
	say ""
	say "| hotspot-k -i 1s | walk CPU per thread walked, median (range) | threads visited per window | driver |"
	say "| --- | --- | --- | --- |"
	for v in on off; do
		[ "$v" = on ] && label="io_blocked on (default)" || label="\`min_blocked = 0%\`"
		pt=$(io_col "$v" "$pt_expr" | med)
		vis=$(io_col "$v" 'f["threads_visited"] / f["windows"]' | med)
		drv=$(io_col "$v" 'f["driver"]' | sort -u | tr '\n' ' ')
		case $drv in
		"1 ") drv=wq ;;
		"2 ") drv=timer ;;
		"3 ") drv=iter ;;
		"4 ") drv=table ;;
		esac
		say "| $label | $(fmt %.0f "$pt") ns ($(io_col "$v" "$pt_expr" | spread %.0f)) | $(fmt %.0f "$vis") | $drv |"
	done
	# on ÷ off within each round: both walked the same threads at the same time
	ratio=$(round_ratios "$WORK/io.tsv" on off 'f["threads_walked"] > 0' "$pt_expr" | med)
	say ""
	say "On ÷ off, per round (both instances over the same threads at the same time, start order swapped each round): $(fmt %.3f "$ratio") median ($(round_ratios "$WORK/io.tsv" on off 'f["threads_walked"] > 0' "$pt_expr" "%.3f ")). Method: $IO_PROCS processes x 10 threads paused (bn-spawn), one in 10 waking every 100 ms, plus \`hkload dio\` (1 MiB O_DIRECT reads); hk_stats' walk_cpu_ns_total over threads_walked from each instance's second window on, over ${IO_S} s."
	summary 12-io "$(fmt %.3f "$ratio") x walk CPU per thread with io_blocked on" "report"
}
