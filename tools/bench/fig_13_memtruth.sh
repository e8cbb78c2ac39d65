# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_13_memtruth.sh - figure 13, what issue #19's memory truth costs:
#
#  - the host headroom read (bpf/host_mem.bpf.h's hk_host_read: the root
#    memory cgroup, each NUMA node's pglist_data, its zones), run once per
#    window by the walk: ns per read from bn-bpf host (bn_host_read, the
#    same function compiled into the bench's object, BPF_PROG_TEST_RUN),
#    back to back and one at a time; and its accuracy, the pages it
#    computes next to /proc/meminfo's MemAvailable read just before and
#    just after, while a file is read into the page cache and dropped;
#  - the stall counters (hk_task_stall_read, read for every visited
#    thread while [mem_thrashing] stall is on): two hotspot-k -i 1s over
#    one population at the same time, the defaults (stall 10 %) and
#    `stall = 0%` (no memory-stall read), the walk's ns per thread from
#    each one's hk_stats per window (bn-bpf watch, fig_3_walk.sh's
#    windows_of), at MT_CONFIGS populations whose every process's main
#    thread wakes every 900 ms (a quiet thread is not read at all).
#
# Not in "all" (~2.5 min). Sourced by run.sh (it uses lib.sh's helpers).

MT_CONFIGS=${BENCH_MT_CONFIGS:-"1000x10 10000x1"}
MT_ROUNDS=${BENCH_MT_ROUNDS:-2}
MT_S=${BENCH_MT_S:-15}

# --- the headroom read ---------------------------------------------------------

# memtruth_host: bn-bpf host while a sparse 1 GiB file is read into the page
# cache, 256 MiB at a time 100 ms apart, then 1 GiB of anonymous memory is
# written 256 MiB at a time and freed, then the file removed (its cache
# freed); lines in memtruth-host.out
memtruth_host()
{
	local f=/var/tmp/hk-bench-cache.$$ rd

	log "13. memtruth: the host headroom read, next to MemAvailable while the page cache and anon memory change"
	truncate -s 1G "$f" || return 1
	# holes read in are page-cache pages like any: no disk I/O needed
	run_bg "$WORK/memtruth-reader.out" bash -c '
		for ((i = 0; i < 4; i++)); do
			dd if="$1" of=/dev/null bs=1M skip=$((i * 256)) count=256 status=none
			sleep 0.1
		done
		"$2" -c "
import time
held = []
for i in range(4):
    held.append(b\"x\" * (256 << 20))
    time.sleep(0.2)
time.sleep(0.5)"
		rm -f "$1"' reader "$f" "$PY"
	rd=$BG_PID
	run_fg "$WORK/memtruth-host.out" "$OUT/bn-bpf" host -r 10000 -s 24 -b 250
	stop "$rd"
	rm -f "$f"
	grep -q '^host ' "$WORK/memtruth-host.out"
}

# --- the stall counters ---------------------------------------------------------

# memtruth_walk PROCS THREADS: both instances over one population, MT_ROUNDS
# rounds of MT_S s, the start order swapped each round; a line per steady
# window of each in memtruth-walk.tsv (round = population.round.window)
memtruth_walk()
{
	local p=$1 t=$2 r first v log
	local -A pid

	log "13. memtruth: stall counters on vs off, $p processes x $t threads"
	if ! spawn_start "$p" "$t" -e 1 -w 900; then
		echo "pop=${p}x$t skipped=spawn" >>"$WORK/memtruth-walk.tsv"
		return 1
	fi
	printf '[mem_thrashing]\nstall = 0%%\n' >"$WORK/memtruth-off.conf"
	for ((r = 0; r < MT_ROUNDS; r++)); do
		over_budget && break
		[ $((r % 2)) = 0 ] && first=on || first=off
		pid=()
		for v in $first $([ "$first" = on ] && echo off || echo on); do
			if [ "$v" = on ]; then
				hk_start "$WORK/hk-mt-$v.log" -i 1s --json || break
			else
				hk_start "$WORK/hk-mt-$v.log" -i 1s --json --config "$WORK/memtruth-off.conf" || break
			fi
			pid[$v]=$HK_PID
		done
		log=$WORK/watch-mt-${p}x$t-$r.log
		if [ -n "${pid[on]:-}" ] && [ -n "${pid[off]:-}" ]; then
			run_fg "$log" "$OUT/bn-bpf" watch -p "${pid[on]},${pid[off]}" -d $((MT_S + 5)) -n "$MT_S,$MT_S" \
				-l iter,delays,stall -b 250 -m 1024
		fi
		for v in on off; do
			stop "${pid[$v]:-}" INT
		done
		if [ -z "${pid[on]:-}" ] || [ -z "${pid[off]:-}" ] || ! grep -q '^win' "$log"; then
			echo "pop=${p}x$t round=$r skipped=hotspot-k" >>"$WORK/memtruth-walk.tsv"
			continue
		fi
		# steady windows: the 2nd on (the 1st creates every thread's storage)
		for v in on off; do
			windows_of "${pid[$v]}" "$log" |
				awk -v pop="${p}x$t" -v r="$r" -v v="$v" -v first="$first" \
					'$1 >= 2 && $3 > 0 { printf "pop=%s round=%s.%s.%d v=%s first=%s ns=%s threads=%s visited=%s driver=%s\n", pop, pop, r, $1, v, first, $2, $3, $9, $6 }'
		done >>"$WORK/memtruth-walk.tsv"
		# the bare reads, 250 / 500 / 750 ms after each window of the
		# first: "ns_delays ns_stall threads" per window
		paste -d' ' <(bare_of delays "$log") <(bare_of stall "$log") |
			awk -v pop="${p}x$t" 'NF == 4 && $2 > 0 { printf "pop=%s v=bare delays=%s stall=%s threads=%s\n", pop, $1, $3, $2 }' \
			>>"$WORK/memtruth-walk.tsv"
		bare_of iter "$log" | awk -v pop="${p}x$t" '$2 > 0 { printf "pop=%s v=iter ns=%s threads=%s\n", pop, $1, $2 }' \
			>>"$WORK/memtruth-walk.tsv"
	done
	# the same reads back to back, caches warm: what the instructions cost
	run_fg "$WORK/bare-mt-${p}x$t.log" "$OUT/bn-bpf" walk -r 21 -l iter,delays,stall -m 1024
	paste -d' ' <(bare_of delays "$WORK/bare-mt-${p}x$t.log") <(bare_of stall "$WORK/bare-mt-${p}x$t.log") |
		awk -v pop="${p}x$t" 'NF == 4 && $2 > 0 { printf "pop=%s v=hot delays=%s stall=%s threads=%s\n", pop, $1, $3, $2 }' \
		>>"$WORK/memtruth-walk.tsv"
	spawn_stop
}

fig_memtruth()
{
	local c found

	: >"$WORK/memtruth-walk.tsv"
	: >"$WORK/memtruth-host.out"
	memtruth_host || echo "bench: memtruth: no host reading: $(tail -2 "$WORK/memtruth-host.out")" >&2
	found=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)
	for c in $MT_CONFIGS; do
		over_budget && break
		memtruth_walk "${c%x*}" "${c#*x}"
	done
	[ -n "$found" ] && echo "$found" >/proc/sys/kernel/task_delayacct
	memtruth_report
}

# --- the report -------------------------------------------------------------------

# mt_col POP V EXPR: EXPR of variant V's lines of one population
mt_col()
{
	round_col "$WORK/memtruth-walk.tsv" "$2" "f[\"pop\"] == \"$1\"" "$3"
}

# mt_ratios POP: walk ns per thread, stall on ÷ off, per window pair
mt_ratios()
{
	round_ratios "$WORK/memtruth-walk.tsv" on off "f[\"pop\"] == \"$1\"" 'f["ns"] / f["threads"]'
}

memtruth_report()
{
	local h=$WORK/memtruth-host.out hot cold err errnd defer lo c pt pv vis drv ratio
	local ptv sum="" bare="" bi bd bs bx hx

	section 13-memtruth
	say "## 13. Memory truth: the host headroom read and the stall counters"
	say ""
	# hot: back to back, caches warm; cold: one read alone, 250 ms apart
	hot=$(awk '$1 == "hot" { split($2, a, "="); split($3, b, "="); print b[2] / a[2] }' "$h" | med)
	cold=$(awk '$1 == "host" { sub("ns=", "", $3); print $3 }' "$h" | med)
	# error: BPF's figure vs the mean of MemAvailable just before and after, %
	err=$(awk "$KV_FIELDS"'$1 == "host" { m = (f["meminfo_before_kb"] + f["meminfo_after_kb"]) / 2; if (m > 0) print (f["avail_kb"] - m) / m * 100 }' "$h")
	errnd=$(awk "$KV_FIELDS"'$1 == "host" { m = (f["meminfo_before_kb"] + f["meminfo_after_kb"]) / 2; if (m > 0) print (f["avail_kb"] - f["deferred_kb"] - m) / m * 100 }' "$h")
	defer=$(awk "$KV_FIELDS"'$1 == "host" { print f["deferred_kb"] / 1024 }' "$h" | med)
	if grep -q '^host ' "$h"; then
		say "| host headroom read (hk_host_read) | ns per read | per window at -i 5s (share of a CPU) |"
		say "| --- | --- | --- |"
		say "| back to back (10 000 reads, 5 times), median | $(fmt %.0f "$hot") | – |"
		say "| one read alone, 250 ms apart (as once per window), median of $(grep -c '^host ' "$h") | $(fmt %.0f "$cold") ($(awk '$1 == "host" { sub("ns=", "", $3); print $3 }' "$h" | spread %.0f)) | $(fmt %.2f "$(calc "$cold / 1000")") µs ($(fmt %.6f "$(calc "$cold / 5e9 * 100")") %) |"
		say ""
		say "| sample | hk_host_read, MiB | MemAvailable (before / after), MiB | error | of which not-yet-initialised pages, MiB | Cached, MiB |"
		say "| --- | --- | --- | --- | --- | --- |"
		awk "$KV_FIELDS"'$1 == "host" {
			m = (f["meminfo_before_kb"] + f["meminfo_after_kb"]) / 2
			printf "| %d | %.1f | %.1f / %.1f | %+.4f %% | %.1f | %.0f |\n", ++n, f["avail_kb"] / 1024,
				f["meminfo_before_kb"] / 1024, f["meminfo_after_kb"] / 1024,
				(f["avail_kb"] - m) / m * 100, f["deferred_kb"] / 1024, f["cached_kb"] / 1024 }' "$h" >>"$SECTION"
		say ""
		say "Error vs MemAvailable: $(spread %+.4f <<<"$err") % (median $(fmt %+.4f "$(med <<<"$err")") %); without the not-yet-initialised pages (median $(fmt %.1f "$defer") MiB of them): $(spread %+.4f <<<"$errnd") %."
		if [ "$(calc "$defer == 0")" = 1 ]; then
			say ""
			say "No page was left uninitialised on this boot when it ran (first_deferred_pfn past every node's end): a zone initialises its deferred pages as soon as it needs them, and once the machine's memory has been used, all are; until then MemAvailable counts them, and without \`hk_deferred_pages\` the read would fall short by as much."
		fi
		sum="host read $(fmt %.0f "$cold") ns once per window ($(fmt %.0f "$hot") ns hot), error vs MemAvailable $(spread %+.4f <<<"$err") %"
	else
		say "Host headroom read: not measured."
		FAILED="$FAILED memtruth:host"
	fi
	say ""
	say "Method: \`bn-bpf host\` loads \`bn_host_read\`, a SEC(\"syscall\") program that includes hotspot-k's bpf/host_mem.bpf.h and calls its \`hk_host_read\` (the function the walk calls once per window: the root memory cgroup's per-node LRU vector → each possible node's pglist_data, its counters and each zone's free pages and low watermark) through bpf_loop, timed with bpf_ktime_get_ns around the loop, run by BPF_PROG_TEST_RUN with the nodes hotspot-k passes (/sys/devices/system/node/possible). The first call, which finds the root memory cgroup from the caller's css_set, is not timed. Back to back: 10 000 calls per run, 5 runs; alone: one call per run, 250 ms apart (what once per window sees; the bpf_loop call is in it). Accuracy: each single read between two reads of /proc/meminfo's MemAvailable, error against their mean, while a sparse 1 GiB file on /var/tmp is read into the page cache (256 MiB at a time, 100 ms apart), then 1 GiB of anonymous memory is written (256 MiB every 200 ms) and freed, then the file is removed. The lab kernel boots with \`deferred_init=lazy\`: struct pages not initialised at boot stay out of every zone's NR_FREE_PAGES until a zone needs them, but MemFree (and so MemAvailable) counts them; hk_host_read adds them (\`hk_deferred_pages\`: a node's pages from first_deferred_pfn to its end), shown in their own column; a mainline kernel initialises them all during boot (0 there)."
	say ""

	say "| population, -i 1s | walk per thread, stall on (default 10 %) | stall = 0% | on ÷ off, per window pair: median (range) | threads visited per window | driver |"
	say "| --- | --- | --- | --- | --- | --- |"
	for c in $MT_CONFIGS; do
		if grep -q "^pop=$c .*skipped" "$WORK/memtruth-walk.tsv" && ! grep -q "^pop=$c .*ns=" "$WORK/memtruth-walk.tsv"; then
			say "| $(pop "${c%x*}" "${c#*x}") | not measured | | | | |"
			FAILED="$FAILED memtruth:$c"
			continue
		fi
		ptv='f["ns"] / f["threads"]'
		pt=$(mt_col "$c" on "$ptv" | med)
		pv=$(mt_col "$c" off "$ptv" | med)
		vis=$(mt_col "$c" on 'f["visited"]' | med)
		drv=$(mt_col "$c" on 'f["driver"]' | sort -u | tr '\n' ' ')
		case $drv in
		"1 ") drv=wq ;;
		"2 ") drv=timer ;;
		"3 ") drv=iter ;;
		"4 ") drv=table ;;
		esac
		ratio=$(mt_ratios "$c" | med)
		lo=$(mt_ratios "$c" | spread %.3f)
		bi=$(mt_col "$c" iter "$ptv" | med)
		bd=$(mt_col "$c" bare 'f["delays"] / f["threads"]' | med)
		bs=$(mt_col "$c" bare 'f["stall"] / f["threads"]' | med)
		bx=$(mt_col "$c" bare '(f["stall"] - f["delays"]) / f["threads"]' | med)
		hx=$(mt_col "$c" hot '(f["stall"] - f["delays"]) / f["threads"]' | med)
		bare+="| $(pop "${c%x*}" "${c#*x}") | $(fmt %.1f "$bi") | $(fmt %.1f "$bd") | $(fmt %.1f "$bs") | $(fmt %+.1f "$bx") ns ($(mt_col "$c" bare '(f["stall"] - f["delays"]) / f["threads"]' | spread %+.1f)) | $(fmt %+.1f "$hx") ns ($(mt_col "$c" hot '(f["stall"] - f["delays"]) / f["threads"]' | spread %+.1f)) | $(fmt %.0f "$(calc "$hx * $vis / 1000")") µs · $(fmt %.5f "$(calc "$hx * $vis / 5e9 * 100")") % |"$'\n'
		say "| $(pop "${c%x*}" "${c#*x}") | $(fmt %.0f "$pt") ns ($(mt_col "$c" on "$ptv" | spread %.0f)) | $(fmt %.0f "$pv") ns ($(mt_col "$c" off "$ptv" | spread %.0f)) | $(fmt %.3f "$ratio") ($lo) | $(fmt %.0f "$vis") of $(mt_col "$c" on 'f["threads"]' | med | xargs printf %.0f) | $drv |"
		sum="$sum; $c: walk per thread stall on ÷ off $(fmt %.3f "$ratio"), the read $(fmt %+.1f "$hx") ns per thread visited"
	done
	say ""
	say "The read itself, over every thread (bare walks, median ns per thread):"
	say ""
	say "| population | iterate only | + block I/O delay (io_blocked's read) | + memory-stall delays | stall read per thread: Δ, walks 250 ms apart (range) | Δ back to back (range) | back-to-back Δ × threads visited: per window · at -i 5s, share of a CPU |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	printf '%s' "$bare" >>"$SECTION"
	say ""
	say "Method: per population, \`bn-spawn -p P -t T -e 1 -w 900\` (every process's main thread wakes every 900 ms, so that it is visited in each window: the stall counters are read for visited threads only; its other threads pause()), and two hotspot-k \`-i 1s --json\` at the same time, one with the defaults (\`[mem_thrashing] stall = 10%\`: each visited thread's thrashing, swap-in, reclaim and compaction delays read, hk_task_stall_read) and one with \`stall = 0%\` in a config file (none read); both with io_blocked on (the default), which already reads each visited thread's task_delay_info for its block I/O delay. $MT_ROUNDS rounds of $MT_S windows, the start order swapped each round. \`bn-bpf watch\` logs each one's hk_stats at every window (fig. 3's \`windows_of\`): walk = \`last_walk_ns\`, threads = Δ\`threads_walked\`, visited = Δ\`threads_visited\`, from the 2nd window on. On ÷ off per window: the two instances' windows of the same number (less than 1 s apart). Bare walks (bench.bpf.c, BPF_PROG_TEST_RUN, as in fig. 3): \`bn_walk_iter\` iterates every thread; \`bn_walk_delays\` also reads each one's block I/O delay with hotspot-k's \`hk_task_io_ns\`, \`bn_walk_stall\` that and \`hk_task_stall_read\` (bpf/core_fixes.bpf.h, compiled in); run 250, 500 and 750 ms after each window of the stall-on instance (the first of each dropped; Δ = stall − delays of the same window, per thread), then, after the instances, 20 times back to back (\`bn-bpf walk -r 21\`, the first dropped; Δ of the same repetition): the stall read's own instructions on warm caches; its cost per window = that Δ × the threads hotspot-k visits (the bare walks read every thread). task_delayacct is restored after."
	say ""
	summary "13. memory truth" "${sum#; }" "report"
}
