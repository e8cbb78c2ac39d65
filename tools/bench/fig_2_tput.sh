# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_2_tput.sh - figure 2, pinned pipe ping-pong round trips per second:
# nothing vs hotspot-k vs an empty hook vs hotspot-k --no-hook, in rotated
# order, PAIRS rounds. Sourced by run.sh (it uses lib.sh's helpers and
# yardsticks.sh's variants).

PAIRS=${BENCH_PAIRS:-8}

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
	rh=$(ratios hk | med)
	re=$(ratios empty | med)
	rn=$(ratios nohook | med)
	section 2-tput
	say "## 2. Throughput cost: pinned pipe ping-pong"
	say ""
	say "| running | round trips/s (median) | ratio to none: median (spread over $PAIRS rounds) | throughput lost |"
	say "| --- | --- | --- | --- |"
	say "| nothing | $(fmt %.0f "$n") | 1 | – |"
	say "| hotspot-k (default config: no hook attached, nobody watched) | $(fmt %.0f "$h") | $(fmt %.3f "$rh") ($(ratios hk | spread %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $rh)")") % |"
	say "| hotspot-k \`--no-hook\` (no sched_switch program) | $(fmt %.0f "$nh") | $(fmt %.3f "$rn") ($(ratios nohook | spread %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $rn)")") % |"
	say "| empty sched_switch program | $(fmt %.0f "$e") | $(fmt %.3f "$re") ($(ratios empty | spread %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $re)")") % |"
	say ""
	say "Method: \`bn-pingpong pipe -c 0 -d 1\`: two processes pinned to CPU 0 pass one byte back and forth over two pipes for 1 s (≈ 2 switches per round trip, about half of them involuntary, see figure 1). $PAIRS rounds; in each, nothing / hotspot-k / the empty program / \`hotspot-k --no-hook\` run in a rotated order, one at a time, each started anew just before its ping-pong; the ratio is taken within a round, then the median and the min–max over rounds are quoted. hotspot-k runs the defaults (5 s windows): its walk at start comes before the ping-pong exists and the next one after it ended, so no ping-pong thread is watched and its sched_switch hook is not attached (figure 1 has the hook's cost while attached). \`--no-hook\` checked in $nclean of its $nruns runs: no sched_switch link among its fds while the ping-pong ran, and \"no hook\" in its exit summary. kernel.bpf_stats_enabled=$stats, as found (BPF stats add their own clock reads to every program run when 1)."
	say ""
	summary "2. throughput" "pinned pipe ping-pong with hotspot-k: $(fmt %.3f "$rh")× the throughput with nothing (spread $(ratios hk | spread %.2f)); with \`--no-hook\` $(fmt %.3f "$rn")× (spread $(ratios nohook | spread %.2f)); with an empty hook $(fmt %.3f "$re")×" "–"
	[ "$h" != nan ] && [ "$n" != nan ] && [ "$nh" != nan ] || fail tput "no ping-pong run completed"
	[ "$nclean" = "$nruns" ] || fail tput "hotspot-k --no-hook attached to sched_switch or did not say \"no hook\""
}
