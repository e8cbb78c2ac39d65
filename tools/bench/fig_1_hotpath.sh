# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_1_hotpath.sh - figure 1, ns per sched_switch: hotspot-k vs an empty
# hook vs hk_switch's filter alone vs a per-TGID hash hook, under five
# switch storms (storms.sh: hackbench, pipe, yield, many tasks,
# idle-heavy); hotspot-k --no-hook attaches none. Sourced by run.sh (it uses
# lib.sh's helpers, yardsticks.sh's variants and storms.sh's storms).

ROUNDS=${BENCH_ROUNDS:-3}

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
