# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_17_wstate.sh - figure 17, issue #34's per-thread reads and state:
# what a field costs read with a direct load from the iterator's trusted
# pointer against a bpf_probe_read_kernel call (BPF_CORE_READ), for figure
# 3's fields and for the ones hotspot-k still reads with the helper; and a
# thread's state in task storage, a TID hash and a TID-indexed array, each
# looked up and written 3 times, beside none (bn-wstate,
# bench_wstate.bpf.c). Idle populations as figure 3 makes them
# (fig_3_walk.sh's spawn_start, walk_sysctls). In "all": ~35 s.
# Sourced by run.sh (it uses lib.sh's helpers).

WSTATE_CONFIGS=${BENCH_WSTATE_CONFIGS:-"1000x10 10000x1 10000x10"}
WSTATE_ROUNDS=${BENCH_WSTATE_ROUNDS:-31}	# the first dropped
WSTATE_GAP_MS=20
WSTATE_LEVELS="iter direct core core_hot tool_dir tool_core tstore hash array"

# wstate_config PROCS THREADS: one population, a line in wstate.tsv
wstate_config()
{
	local p=$1 t=$2 n=$(($1 * $2)) l f=$WORK/wstate-$1x$2.out

	log "17. wstate: $p processes x $t threads"
	[ "$n" -lt 30000 ] || walk_sysctls
	# before the fork: a thread gets task->delays only if it is on then
	sysctl_set kernel.task_delayacct 1
	if ! spawn_start "$p" "$t"; then
		sysctl_restore kernel.task_delayacct
		walk_sysctls_restore
		echo "procs=$p threads=$t skipped=spawn" >>"$WORK/wstate.tsv"
		return 1
	fi
	run_fg "$f" "$OUT/bn-wstate" -r "$WSTATE_ROUNDS" -g "$WSTATE_GAP_MS"
	spawn_stop
	sysctl_restore kernel.task_delayacct
	walk_sysctls_restore
	if ! grep -q '^wst ' "$f"; then
		echo "procs=$p threads=$t skipped=bn-wstate" >>"$WORK/wstate.tsv"
		return 1
	fi
	{
		echo -n "procs=$p threads=$t"
		echo -n " thr=$(awk "$KV_FIELDS"'$1 == "wst" { print f["threads"] }' "$f" | med)"
		for l in $WSTATE_LEVELS; do
			awk -v l="$l" "$KV_FIELDS"'
				$1 == "wst" && f["level"] == l && f["round"] > 0 && f["threads"] > 0 {
					print f["ns"] / f["threads"], f["miss"], f["no_delays"] }' "$f" >"$WORK/wstate-$l"
			echo -n " $l=$(awk '{ print $1 }' "$WORK/wstate-$l" | med) n_$l=$(wc -l <"$WORK/wstate-$l")"
			echo -n " miss_$l=$(awk '{ print $2 }' "$WORK/wstate-$l" | med)"
		done
		echo -n " nodelays=$(awk '{ print $3 }' "$WORK/wstate-tool_dir" | med)"
		awk "$KV_FIELDS"'$1 == "map" { printf " mem_%s=%s", f["name"], f["memlock"] }' "$f"
		echo
	} >>"$WORK/wstate.tsv"
}

# the rows of wstate.tsv as "KEY..." (fig_3_walk.sh's walk_rows)
wstate_rows()
{
	ROWS_TSV=$WORK/wstate.tsv walk_rows "$@"
}

# "total (+Δ)": ns per thread of a level and its cost over a base level
wstate_cell()
{
	echo "$(fmt %.0f "$1") ($(fmt %+.0f "$(calc "$1 - $2")"))"
}

wstate_report()
{
	local p t sk thr it di co ch td tc ts ha ar nd ma mh any=0

	section 17-wstate
	say "## 17. Per-thread reads and state (issue #34)"
	say ""
	say "Reads: median ns per thread, each level on top of the bare walk (+ its cost over it); ns per field = that cost ÷ the fields (÷ the helper calls for BPF_CORE_READ)."
	say ""
	say "| processes × threads | threads walked | bare walk | + 8 fields, direct loads (9 loads) | + the same, BPF_CORE_READ (9 calls) | ns per field: direct · per call: helper | + 1 direct load, then 8 helper reads of its hot line | ns per hot helper call | + hotspot-k's 7 helper-read fields (delays, ioac), direct | + the same as hotspot-k reads them (7 calls) | ns per field: direct · helper |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	: >"$WORK/wstate-call"
	: >"$WORK/wstate-load"
	while read -r p t sk thr it di co ch td tc nd; do
		if [ "$sk" != nan ]; then
			say "| $p × $t | not measured ($sk) | | | | | | | | | |"
			FAILED="$FAILED wstate:${p}x$t"
			continue
		fi
		any=1
		calc "($co - $it) / 9" >>"$WORK/wstate-call"
		calc "($di - $it) / 8" >>"$WORK/wstate-load"
		say "| $p × $t | $(fmt %.0f "$thr") | $(fmt %.0f "$it") | $(wstate_cell "$di" "$it") | $(wstate_cell "$co" "$it") | $(fmt %.1f "$(calc "($di - $it) / 8")") · $(fmt %.1f "$(calc "($co - $it) / 9")") | $(wstate_cell "$ch" "$it") | $(fmt %.1f "$(calc "($ch - $di + ($di - $it) * 7 / 8) / 8")") | $(wstate_cell "$td" "$it") | $(wstate_cell "$tc" "$it") | $(fmt %.1f "$(calc "($td - $it) / 7")") · $(fmt %.1f "$(calc "($tc - $it) / 7")") |"
	done < <(wstate_rows procs threads skipped thr iter direct core core_hot tool_dir tool_core nodelays)
	say ""
	say "State: median ns per thread, each on top of the 8 fields read directly (the floor; + its cost over it); 3 writes per thread in each."
	say ""
	say "| processes × threads | floor: bare walk + 8 fields direct | + task storage get (existing) | + hash map keyed by TID, lookup | + array map at TID & (2^20 − 1), tag checked | array slots found holding another TID |"
	say "| --- | --- | --- | --- | --- | --- |"
	: >"$WORK/wstate-ts"
	: >"$WORK/wstate-ha"
	: >"$WORK/wstate-ar"
	while read -r p t sk di ts ha ar ma mh; do
		[ "$sk" = nan ] || continue
		calc "$ts - $di" >>"$WORK/wstate-ts"
		calc "$ha - $di" >>"$WORK/wstate-ha"
		calc "$ar - $di" >>"$WORK/wstate-ar"
		say "| $p × $t | $(fmt %.0f "$di") | $(wstate_cell "$ts" "$di") | $(wstate_cell "$ha" "$di") | $(wstate_cell "$ar" "$di") | $(fmt %.0f "$ma") |"
	done < <(wstate_rows procs threads skipped direct tstore hash array miss_array)
	say ""
	read -r mh ma <<<"$(wstate_rows mem_wst_hash_m mem_wst_arr | tail -1)"
	say "Memory (the maps' memlock): the TID hash $(fmt %.1f "$(calc "$mh / 1048576")") MiB (262144 preallocated entries of 40 bytes), the array $(fmt %.1f "$(calc "$ma / 1048576")") MiB (2^20 slots of 40 bytes), whatever the population; task storage is allocated per thread that has one (figure 7: ~150–200 bytes each, ~15–20 MiB at 100 k threads)."
	say ""
	say "Method: per population, \`bn-spawn -p P -t T\` (figure 3's idle populations, fig_3_walk.sh's spawn_start; kernel.pid_max and vm.max_map_count raised to 1048576 at ≥ 30 k threads, and kernel.task_delayacct set to 1 before the fork, so that every spawned thread has its task_delay_info; all restored after), then \`bn-wstate -r $WSTATE_ROUNDS -g $WSTATE_GAP_MS\`: bench_wstate.bpf.c's SEC(\"syscall\") programs, each run with BPF_PROG_TEST_RUN, walk every thread with bpf_iter_task_new(BPF_TASK_ITER_ALL_THREADS) under bpf_rcu_read_lock (the iterator's pointer is trusted), call one function per thread and time themselves with bpf_ktime_get_ns. Before the first sample, one untimed walk (wst_fill) makes every thread's task storage (bpf_task_storage_get with F_CREATE), hash entry (bpf_map_update_elem BPF_NOEXIST; the map preallocated, 262144 entries) and array slot tag. Then $WSTATE_ROUNDS rounds, every level once per round, $WSTATE_GAP_MS ms apart, the order rotated by one each round; the first round dropped: $(wstate_rows n_iter n_direct n_core n_core_hot n_tool_dir n_tool_core n_tstore n_hash n_array | tr ' ' '\n' | minmax) samples per level and population. Levels: bare = count only; direct = figure 3's fields (se.sum_exec_runtime, sched_info.run_delay, sched_info.last_queued, min_flt, maj_flt, nvcsw, nivcsw, signal->stats_lock's sequence: 8 fields, 9 loads with the signal pointer) as direct loads; core = the same with BPF_CORE_READ (9 bpf_probe_read_kernel calls); hot = one direct load of se.sum_exec_runtime, then 8 bpf_core_read() of those same 8 bytes, whose line is then in cache (its ns per call = (hot − direct + 7/8 of direct's cost over bare) ÷ 8: the helper's own cost without a cache miss); hotspot-k's helper reads = bpf/core_fixes.bpf.h's per-thread BPF_CORE_READs (task->delays' blkio_delay, thrashing_delay, swapin_delay, freepages_delay, compact_delay; ioac.read_bytes, write_bytes: 7 fields; the delays pointer itself a direct load in both), direct or as the tool reads them (threads without delays: $(wstate_rows nodelays | tr ' ' '\n' | minmax) per walk, the machine's own, born before the sysctl); the state levels: the floor (direct) plus bpf_task_storage_get without F_CREATE, a bpf_map_lookup_elem of the hash by TID, or of the array at TID & (2^20 − 1) with the slot's tag compared to the TID (another TID: taken over and counted), and 3 writes of 8 bytes. Median of ns ÷ threads per sample."
	say ""
	summary "17. per-thread reads and state" "a field $(spread %.1f <"$WORK/wstate-load") ns as a direct load, $(spread %.0f <"$WORK/wstate-call") ns per bpf_probe_read_kernel call; state over the floor per thread: task storage +$(spread %.0f <"$WORK/wstate-ts") ns, TID hash +$(spread %.0f <"$WORK/wstate-ha") ns, TID array +$(spread %.0f <"$WORK/wstate-ar") ns" "–"
	[ "$any" = 1 ] || fail wstate "no population measured"
}

fig_wstate()
{
	local c

	: >"$WORK/wstate.tsv"
	for c in $WSTATE_CONFIGS; do
		wstate_config "${c%x*}" "${c#*x}"
	done
	wstate_report
}
