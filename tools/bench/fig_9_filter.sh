# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_9_filter.sh - figure 9, the in-kernel walk with a filter that keeps
# 1 % of the processes next to the same walk with none; not in "all"
# (~2 min). Sourced by run.sh (it uses lib.sh's helpers).
#
# One population for the whole figure: FILTER_PROCS idle processes (bn-spawn),
# 1 % of them named FILTER_NAME (prctl), one in 10 waking every 100 ms (two
# of the named ones among them), so that windows are not all quiet: a process
# none of whose threads ran is skipped as quiet before the filter is asked,
# and only the others have per-process work a filter can save. Then
# hotspot-k -i 1s --json with no filter and with --comm FILTER_NAME,
# alternated, FILTER_ROUNDS rounds of FILTER_S seconds each.

FILTER_PROCS=${BENCH_FILTER_PROCS:-2000}
FILTER_ROUNDS=${BENCH_FILTER_ROUNDS:-3}
FILTER_S=${BENCH_FILTER_S:-15}
FILTER_NAME=hkb-keep
FILTER_WAKE_EVERY=10	# one process in 10 wakes ...
FILTER_WAKE_MS=100	# ... every 100 ms

# map_entries ID: how many entries the map holds (bpftool map dump, counted)
map_entries()
{
	bpftool map dump id "$1" -j 2>/dev/null |
		"$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))' 2>/dev/null || echo nan
}

# filter_run ROUND none|keep: one hotspot-k over the population; a line in
# filter.tsv with the Δ of hk_stats from after its second window to the end
filter_run()
{
	local r=$1 v=$2 h t0 s0 s1 id n k
	local -a args=(-i 1s --json)

	[ "$v" = none ] || args+=(--comm "$FILTER_NAME")
	log "9. filter: round $r, ${args[*]}"
	t0=$(date +%s.%N)
	hk_start "$WORK/hk-filter-$v.log" "${args[@]}" || { echo "round=$r v=$v skipped=hotspot-k" >>"$WORK/filter.tsv"; return 1; }
	h=$HK_PID
	# from the end of window 2 on: window 1 (at start) creates every
	# thread's task storage and every process's entry
	next_window "$h" && next_window "$h"
	s0=$("$OUT/bn-bpf" stats -p "$h" 2>/dev/null)
	# the rest of FILTER_S, less about a window for the last one
	nap "$(awk -v t0="$t0" -v now="$(date +%s.%N)" -v s="$FILTER_S" 'BEGIN { x = s - (now - t0) - 1; print ((x > 0) ? x : 0) }')"
	next_window "$h"
	s1=$("$OUT/bn-bpf" stats -p "$h" 2>/dev/null)
	id=$(map_of "$h" hk_procs)
	n=$(map_entries "$id")
	stop "$h" INT
	if [ -z "$s0" ] || [ -z "$s1" ]; then
		echo "round=$r v=$v skipped=hk_stats" >>"$WORK/filter.tsv"
		return 1
	fi
	{
		echo -n "round=$r v=$v entries=$n driver=$(kv driver "$s1")"
		for k in windows walk_cpu_ns_total threads_walked procs_walked procs_quiet threads_visited entries_created; do
			echo -n " $k=$(($(kv "$k" "$s1") - $(kv "$k" "$s0")))"
		done
		echo " entries_created_all=$(kv entries_created "$s1")"
	} >>"$WORK/filter.tsv"
}

fig_filter()
{
	local f=$WORK/spawn-filter.out r v sp

	log "9. filter: $FILTER_PROCS idle processes, $((FILTER_PROCS / 100)) named $FILTER_NAME, $FILTER_ROUNDS rounds x {no filter, --comm $FILTER_NAME} x ${FILTER_S} s"
	: >"$WORK/filter.tsv"
	run_bg "$f" "$OUT/bn-spawn" -p "$FILTER_PROCS" -c $((FILTER_PROCS / 100)) -n "$FILTER_NAME" \
		-e "$FILTER_WAKE_EVERY" -w "$FILTER_WAKE_MS"
	sp=$BG_PID
	if ! wait_line "$f" '^ready' 120 "$sp"; then
		stop "$sp" TERM 120
		fail filter "bn-spawn: $(tail -2 "$f")"
		return
	fi
	for ((r = 0; r < FILTER_ROUNDS; r++)); do
		for v in none keep; do
			over_budget && { echo "round=$r v=$v skipped=time" >>"$WORK/filter.tsv"; continue; }
			filter_run "$r" "$v"
		done
	done
	stop "$sp" TERM 120
	filter_report
}

# filter_col V EXPR: EXPR (awk, over the Δ fields) per round of variant V
filter_col()
{
	round_col "$WORK/filter.tsv" "$1" 'f["windows"] > 0' "$2"
}

# filter_ratio EXPR: keep ÷ none of EXPR within each round
filter_ratio()
{
	round_ratios "$WORK/filter.tsv" keep none 'f["windows"] > 0' "$1"
}

filter_report()
{
	local v label w pt pw pq tv ec en drv rw rt kept keep_pw keep_en met any=0
	local pw_expr='f["procs_walked"] / f["windows"]'

	kept=$((FILTER_PROCS / 100))
	section 9-filter
	say "## 9. The walk with a filter that keeps 1 % of the processes"
	say ""
	say "| hotspot-k -i 1s | walk CPU per window | per thread | threads walked per window | processes walked per window (of which quiet) | threads visited per window | hk_procs entries at the end | driver |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- |"
	for v in none keep; do
		[ "$v" = none ] && label="no filter" || label="\`--comm $FILTER_NAME\`"
		w=$(filter_col "$v" 'f["walk_cpu_ns_total"] / f["windows"]' | med)
		[ "$w" = nan ] || any=$((any + 1))
		pt=$(filter_col "$v" 'f["threads_walked"] > 0 ? f["walk_cpu_ns_total"] / f["threads_walked"] : "nan"' | med)
		rt=$(filter_col "$v" 'f["threads_walked"] / f["windows"]' | med)
		pw=$(filter_col "$v" "$pw_expr" | med)
		pq=$(filter_col "$v" 'f["procs_quiet"] / f["windows"]' | med)
		tv=$(filter_col "$v" 'f["threads_visited"] / f["windows"]' | med)
		en=$(filter_col "$v" 'f["entries"]' | med)
		drv=$(filter_col "$v" 'f["driver"]' | sort -u | tr '\n' ' ')
		case $drv in
		"1 ") drv=wq ;;
		"2 ") drv=timer ;;
		"3 ") drv="iter (above 2000 threads)" ;;
		esac
		[ "$v" = keep ] && { keep_pw=$pw; keep_en=$en; }
		say "| $label | $(fmt %.3f "$(calc "$w / 1e6")") ms ($(filter_col "$v" 'f["walk_cpu_ns_total"] / f["windows"] / 1e6' | spread %.3f)) | $(fmt %.0f "$pt") ns | $(fmt %.0f "$rt") | $(fmt %.1f "$pw") ($(fmt %.1f "$pq")) | $(fmt %.1f "$tv") | $(fmt %.0f "$en") | $drv |"
	done
	rw=$(filter_ratio 'f["walk_cpu_ns_total"] / f["windows"]' | med)
	rt=$(filter_ratio 'f["walk_cpu_ns_total"] / f["threads_walked"]' | med)
	say "| \`--comm\` ÷ no filter (median of the per-round ratios, spread) | $(fmt %.2f "$rw")× ($(filter_ratio 'f["walk_cpu_ns_total"] / f["windows"]' | spread %.2f)) | $(fmt %.2f "$rt")× | | | | | |"
	say ""
	# only the kept processes get per-process work: processes walked per
	# window and hk_procs entries are the named ones (+ 0.5 for a window
	# that met one of them twice, a parked process)
	met=$(awk -v p="${keep_pw:-nan}" -v e="${keep_en:-nan}" -v k="$kept" 'BEGIN {
		if (p == "nan" || e == "nan") print "nan"; else print ((p <= k + 0.5 && e <= k) ? 1 : 0) }')
	say "Method: \`bn-spawn -p $FILTER_PROCS -c $kept -n $FILTER_NAME -e $FILTER_WAKE_EVERY -w $FILTER_WAKE_MS\` forks $FILTER_PROCS single-thread processes: the first $kept renamed $FILTER_NAME with prctl(PR_SET_NAME) before they say ready, one in $FILTER_WAKE_EVERY (process i with i % $FILTER_WAKE_EVERY = 0: $((FILTER_PROCS / FILTER_WAKE_EVERY)) of them, $(( (kept + FILTER_WAKE_EVERY - 1) / FILTER_WAKE_EVERY )) named) sleeping ${FILTER_WAKE_MS} ms in a loop so that they run in every window, the rest blocked in pause(); a process none of whose threads ran since the last walk is skipped as quiet before the filter is asked, so it is the waking ones whose per-process work a filter saves. Over that one population, $FILTER_ROUNDS rounds, each \`hotspot-k -i 1s --json\` then \`hotspot-k -i 1s --json --comm $FILTER_NAME\` (one at a time, each started anew, ${FILTER_S} s each). hk_stats is read with \`bn-bpf stats -p PID\` (the hk_stats map among that process's own fds, fields by BTF name; the same value as \`bpftool map dump name hk_stats -j\` when one instance runs) right after window 2 closed and right after the last window before ${FILTER_S} s closed, while the tool runs; every figure is a Δ between those two reads, so window 1 (at start: creates every thread's task storage and every process's entry) is left out: walk CPU per window = Δwalk_cpu_ns_total ÷ Δwindows (the walk's own time on a CPU, without the iter driver's yields between read()s), per thread ÷ Δthreads_walked, processes walked = Δprocs_walked (processes the walk closed: the ones the filter keeps), quiet = Δprocs_quiet, threads visited = Δthreads_visited (threads whose task storage was read). hk_procs entries: that instance's hk_procs map (id from its fds) dumped with \`bpftool map dump id N -j\` and counted, at the end of the run. Medians over rounds; the ratio is taken within each round, then its median and min–max. Target (the filter decides per process, before any per-process work): with \`--comm\`, processes walked per window and hk_procs entries are at most the $kept named ones: $(verdict "$met")."
	say ""
	summary "9. filter" "a \`--comm\` filter keeping $kept of $FILTER_PROCS idle processes (10 % waking every 100 ms): walk CPU $(fmt %.2f "$rw")× per window and $(fmt %.2f "$rt")× per thread the unfiltered walk's ($(fmt %.3f "$(calc "$(filter_col keep 'f["walk_cpu_ns_total"] / f["windows"]' | med) / 1e6")") vs $(fmt %.3f "$(calc "$(filter_col none 'f["walk_cpu_ns_total"] / f["windows"]' | med) / 1e6")") ms per 1 s window, every thread still visited); $(fmt %.1f "$keep_pw") vs $(fmt %.1f "$(filter_col none "$pw_expr" | med)") processes walked per window, hk_procs $(fmt %.0f "$keep_en") vs $(fmt %.0f "$(filter_col none 'f["entries"]' | med)") entries" "only the kept processes walked and tracked: $(verdict "$met")"
	[ "$any" = 2 ] || fail filter "a variant has no run with hk_stats"
}
