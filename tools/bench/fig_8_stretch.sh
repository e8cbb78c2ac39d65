# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_8_stretch.sh - figure 8, the longest stretch a walk holds a CPU, per
# driver, at STRETCH_CONFIGS populations (fig_3_walk.sh's spawn_start),
# next to cyclictest's latency; not in "all" (~7 min). Sourced by run.sh
# (it uses lib.sh's helpers).

# populations and how long cyclictest runs in each
STRETCH_CONFIGS=${BENCH_STRETCH_CONFIGS:-"1000x2 10000x1 10000x10"}
STRETCH_S=${BENCH_STRETCH_S:-15}

# stretch_run P T MODE: cyclictest for STRETCH_S seconds with MODE running
# (none: no hotspot-k; wq, table, timer, iter: that driver forced; default: the
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
		echo -n " end_us=$(sed -n 's/.*longest walk end \([0-9]*\) us.*/\1/p' <<<"$sum")"
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
		for m in none wq table timer iter default; do
			stretch_run "$p" "$t" "$m"
		done
		spawn_stop
		walk_sysctls_restore
	done

	section 8-stretch
	say "## 8. The longest stretch on a CPU"
	say ""
	say "| processes × threads | hotspot-k | driver | CPU per thread (avg) | longest walk | longest stretch on a CPU · stretches over 2 ms · longest iter walk end (hk_stats) | cyclictest: 99.9th percentile · max latency (µs) · wake-ups later than 2 ms |"
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
		*) say "| $(kv procs "$line") × $(kv threads "$line") | $([ "$m" = default ] && echo "default" || echo "--driver $m") | $(kv driver "$line") | $(kv pt_ns "$line") ns | $(fmt %.1f "$(calc "$(kv walk_max_us "$line") / 1000")") ms | $(fmt %.2f "$(calc "$(kv stretch_us "$line") / 1000")") ms · $(kv long "$line") · $(fmt %.2f "$(calc "$(kv end_us "$line") / 1000")") ms | $(kv p999 "$line") · $(kv max "$line") · $(kv late "$line") of $(kv n "$line") |" ;;
		esac
	done <"$WORK/stretch.tsv"
	say ""
	say "Method: \`bn-spawn -p P -t T\` forks the idle population; then, one after the other over the same population, \`cyclictest -m -S -p 95 -i 500 -D ${STRETCH_S}s -q\` (rt-tests: a SCHED_FIFO 95 thread on every CPU, woken every 500 µs; it reports how late each wake-up ran) alone, and next to hotspot-k -i 1s with each driver forced and with its own choice. cyclictest starts after the tool's second window (its first walk, which creates the task storage, is always the chunked iter one). Each run starts once the previous instance's maps are gone, and 2 s more: a task storage map being freed walks every thread's storage, and an instance whose first walk met that (creating its own storage meanwhile) showed 16 ms stretches. Longest walk (first thread to the end, time off the CPU included), longest stretch, stretches over 2 ms, the iter driver's longest walk end and CPU per thread from the tool's exit summary (hk_stats: \`walk_ns_max\`, \`stretch_ns_max\`, \`stretches_over_2ms\` of \`stretches\`, \`walk_end_ns_max\`, \`walk_cpu_ns_total / threads_walked\`). On this PREEMPT_NONE/VOLUNTARY kernel the wq and timer drivers walk every thread in one go (a kworker or the timer softirq, not preemptible, in an RCU read section): what runs on that CPU waits for the whole walk, one stretch. The iter driver's walk is one read(), in which the kernel offers the CPU after every thread (bpf_seq_read()'s cond_resched(), 5.11+): its stretches are 32 threads run with no context switch of the walker (an upper bound of each thread's), and the walk's end (stop()); time the walker spent off the CPU is not a stretch. Stretches are wall-clock otherwise: time the hypervisor stole from this VM inside one counts too, which is why cyclictest's own baseline (not running) is shown: this VM alone delays some wake-ups by several ms."
	say ""
	line=$(awk '/mode=default/ { for (i = 1; i <= NF; i++) if ($i ~ /^stretch_us=/) { split($i, kv, "="); if (kv[2] > m) m = kv[2] } } END { print m + 0 }' "$WORK/stretch.tsv")
	summary "8. longest stretch" "default driver: longest stretch on a CPU $(fmt %.2f "$(calc "$line / 1000")") ms at up to $(echo "$STRETCH_CONFIGS" | awk '{ split($NF, a, "x"); print a[1] * a[2] }') threads" "≤ ~2 ms: $(awk -v s="$line" 'BEGIN { print (s > 0 && s <= 2500) ? "**met**" : "**missed**" }')"
}
