# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_1_hotpath.sh - figure 1, ns per sched_switch: hotspot-k's hook
# attached (HOTSPOT_K_TEST_HOOK_ALWAYS=1) vs an empty hook vs hk_switch's
# filter alone vs a per-TGID hash hook vs runqlat's and cpudist's
# sched_switch programs, under five switch storms (storms.sh: hackbench,
# pipe, yield, many tasks, idle-heavy); hotspot-k --no-hook attaches none;
# and the healthy-storm row: hotspot-k as a user gets it runs nothing on
# sched_switch during a healthy storm, next to the hook attached for good in
# the same storm. Sourced by run.sh (it uses lib.sh's helpers,
# yardsticks.sh's variants and storms.sh's storms).

ROUNDS=${BENCH_ROUNDS:-3}
# round trips of the healthy storm's ping-pong across two CPUs
HEALTHY_OPS=${BENCH_HEALTHY_OPS:-500000}

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

# switch_progs PID: ids of that hotspot-k's sched_switch programs (hk_*
# with "switch" in the name: hk_switch, hk_switch_noarg, hk_prof_switch),
# attached or not
switch_progs()
{
	local id

	for id in $(prog_ids "$1"); do
		bpftool prog show id "$id" 2>/dev/null | grep -qE " name hk_[a-z_]*switch[a-z_]* " && echo "$id"
	done
}

# runs_of IDS...: "run_time_ns run_cnt" summed over the programs
runs_of()
{
	local id

	for id in "$@"; do
		prog_stat "$id"
	done | awk '{ t += $1; c += $2 } END { print t + 0, c + 0 }'
}

# healthy_storm NAME: one healthy storm (ping-pong across CPUs 0 and 1,
# HEALTHY_OPS round trips; or hackbench -p -g 2 -l 4000) with three
# hotspot-ks running (DEF_PID as a user gets it, FLT_PID the same limited to
# the storm's processes, ON_PID with the hook attached for good): a line
# "storm def_runs def_links flt_runs flt_links on_ns on_runs secs load1" in
# healthy.tsv
healthy_storm()
{
	local f=$WORK/healthy-storm.out links=0 flinks=0 t0 t1 pid
	local -a d0 d1 g0 g1 o0 o1

	read -r -a d0 <<<"$(runs_of $DEF_PROGS)"
	read -r -a g0 <<<"$(runs_of $FLT_PROGS)"
	read -r -a o0 <<<"$(prog_stat "$ON_PROG")"
	t0=$EPOCHREALTIME
	case $1 in
	pingpong) run_bg "$f" "$OUT/bn-pingpong" pipe -c 0 -C 1 -n "$HEALTHY_OPS" ;;
	hackbench) run_bg "$f" hackbench -p -g 2 -l 4000 ;;
	esac
	pid=$BG_PID
	# whether the default ones ever hold a sched_switch link meanwhile
	while alive "$pid"; do
		nohook_attached "$DEF_PID" && links=$((links + 1))
		nohook_attached "$FLT_PID" && flinks=$((flinks + 1))
		sleep 0.2
	done
	wait "$pid"
	PIDS=$(echo " $PIDS " | sed "s/ $pid / /; s/^ *//; s/ *$//")
	t1=$EPOCHREALTIME
	read -r -a d1 <<<"$(runs_of $DEF_PROGS)"
	read -r -a g1 <<<"$(runs_of $FLT_PROGS)"
	read -r -a o1 <<<"$(prog_stat "$ON_PROG")"
	[ $((o1[1] - o0[1])) -gt 0 ] || return 1
	echo "$1 $((d1[1] - d0[1])) $links $((g1[1] - g0[1])) $flinks $(calc "($((o1[0] - o0[0]))) / $((o1[1] - o0[1]))") $((o1[1] - o0[1])) $(calc "$t1 - $t0") $(cut -d' ' -f1 /proc/loadavg)" >>"$WORK/healthy.tsv"
}

# healthy_storms: the healthy-storm row's runs, three hotspot-ks at once
healthy_storms()
{
	local s

	: >"$WORK/healthy.tsv"
	HEALTHY_ATTACHES=nan
	HEALTHY_FLT_ATTACHES=nan
	# the default interval (5 s), as a user gets it: at -i 1s a worker of
	# hackbench (80 processes on 2 CPUs) may wait >= 70 % of a window for
	# a CPU, and is then watched, rightly
	variant_start hk || { echo "bench: hotspot-k did not start" >&2; return 1; }
	DEF_PID=$VPID
	# on a shared host other work may starve a thread: this one sees only
	# the storm's processes
	hk_start "$WORK/healthy-flt.log" --json --comm bn-pingpong --comm hackbench ||
		{ echo "bench: hotspot-k --comm did not start" >&2; stop "$DEF_PID"; return 1; }
	FLT_PID=$HK_PID
	variant_start hkon || { echo "bench: hotspot-k (hook always) did not start" >&2; stop "$FLT_PID"; stop "$DEF_PID"; return 1; }
	ON_PID=$VPID
	ON_PROG=$VPROG
	DEF_PROGS=$(switch_progs "$DEF_PID")
	FLT_PROGS=$(switch_progs "$FLT_PID")
	log "1. healthy storms: a ping-pong across CPUs ($HEALTHY_OPS round trips) and hackbench, hotspot-k (programs $(echo $DEF_PROGS)), hotspot-k --comm (programs $(echo $FLT_PROGS)) and hotspot-k with the hook always attached (program $ON_PROG)"
	next_window "$DEF_PID"
	for s in pingpong hackbench; do
		[ "$(sysctl -n kernel.bpf_stats_enabled)" = 1 ] || sysctl -qw kernel.bpf_stats_enabled=1
		healthy_storm "$s" || echo "bench: healthy storm $s failed: $(tail -2 "$WORK/healthy-storm.out")" >&2
	done
	stop "$ON_PID"
	stop "$FLT_PID"
	stop "$DEF_PID"
	# their own count of attaches, from their exit summaries
	HEALTHY_ATTACHES=$(attaches_of "$WORK/variant-hk.log")
	HEALTHY_FLT_ATTACHES=$(attaches_of "$WORK/healthy-flt.log")
}

# attaches_of LOG: how many times a stopped hotspot-k's summary says its
# hook was attached (nan: no summary)
attaches_of()
{
	local n

	n=$(sed -n 's/.*sched_switch hook [0-9]* runs .*(attached \([0-9]*\) times.*/\1/p' "$1" | tail -1)
	echo "${n:-nan}"
}

fig_hotpath()
{
	local data=$WORK/hotpath.tsv r v s ok
	local -a c0 c1

	log "1. hot path: $ROUNDS rounds x {hotspot-k hook attached, empty, filter, per-TGID hash, runqlat, cpudist} x {$STORMS}"
	: >"$data"
	: >"$WORK/hotpath-hk.tsv"
	sysctl_set kernel.bpf_stats_enabled 1 || { fail hotpath "cannot set kernel.bpf_stats_enabled"; return; }
	nohook_check
	healthy_storms
	for ((r = 0; r < ROUNDS; r++)); do
		for v in $(rotate "$r" hkon empty filter tgid runqlat cpudist); do
			variant_start "$v" -i 1s || variant_start "$v" -i 1s ||
				{ echo "bench: $v did not start" >&2; continue; }
			# what hotspot-k recorded during each storm: its walk
			# adds it up, so read it once the next window closed
			if [ "$v" = hkon ]; then
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
				[ "$v" = hkon ] || continue
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

# hotpath_ns STORM V: median over rounds of V's ns per switch
hotpath_ns()
{
	awk -v s="$1" -v v="$2" '$1 == s && $2 == v { print $4 }' "$WORK/hotpath.tsv" | med
}

# hotpath_ratio STORM A B: median over rounds of A's ns ÷ B's, per round
hotpath_ratio()
{
	awk -v s="$1" -v a="$2" -v b="$3" '$1 == s { ns[$2 " " $3] = $4 }
		END { for (k in ns) { split(k, p, " "); if (p[1] == a && (b " " p[2]) in ns && ns[b " " p[2]] > 0) print ns[k] / ns[b " " p[2]] } }' "$WORK/hotpath.tsv" | med
}

# healthy_col N: column N of healthy.tsv, the storms' values " / "-separated
healthy_col()
{
	awk -v n="$1" '{ printf "%s%s", (NR > 1 ? " / " : ""), $n }' "$WORK/healthy.tsv"
}

# healthy_report: the healthy-storm row (healthy.tsv), and its summary
healthy_report()
{
	local s label runs links fruns flinks on_ns on_runs secs load zero=1 any=0

	say "### Healthy storms: what runs on sched_switch"
	say ""
	say "| storm (three hotspot-ks at once) | hotspot-k (default): runs of its hk_*switch programs · polls that saw a sched_switch link | the same, \`--comm bn-pingpong --comm hackbench\` | hotspot-k hook attached (HOOK_ALWAYS): runs · ns per switch | wall clock | load average (1 min) at the end |"
	say "| --- | --- | --- | --- | --- | --- |"
	for s in pingpong hackbench; do
		case $s in
		pingpong) label="pipe ping-pong across CPUs 0 and 1, $HEALTHY_OPS round trips" ;;
		hackbench) label="hackbench -p -g 2 -l 4000" ;;
		esac
		read -r runs links fruns flinks on_ns on_runs secs load <<<"$(awk -v s="$s" '$1 == s { print $2, $3, $4, $5, $6, $7, $8, $9 }' "$WORK/healthy.tsv" | tail -1)"
		if [ -z "$runs" ]; then
			say "| $label | not measured | | | | |"
			zero=0
			continue
		fi
		any=1
		[ "$fruns" = 0 ] && [ "$flinks" = 0 ] || zero=0
		say "| $label | **$runs** runs · $links | **$fruns** runs · $flinks | $on_runs runs · $(fmt %.0f "$on_ns") ns | $(fmt %.1f "$secs") s | $load |"
	done
	say ""
	say "Method: one hotspot-k as a user gets it (\`hotspot-k --json\`, the default 5 s interval: its sched_switch hook attached only while its walk watches a thread; at \`-i 1s\` a hackbench worker — 80 processes on 2 CPUs — may wait ≥ 70 % of a 1 s window for a CPU and be watched, rightly, depending on where the windows fall in hackbench's ~1.8 s), the same limited to the storms' processes (\`--comm bn-pingpong --comm hackbench\`: on a shared host another job's thread that waits ≥ 70 % of a window for a CPU is watched, rightly, and attaches the unfiltered one's hook; the load average column says how busy the host was) and one with \`HOTSPOT_K_TEST_HOOK_ALWAYS=1\` (the hook attached for good, as before issue #20) running at the same time, started before the storms, one window passed; then each storm once: \`bn-pingpong pipe -c 0 -C 1 -n $HEALTHY_OPS\` (the two sides on CPUs 0 and 1) and \`hackbench -p -g 2 -l 4000\`. Runs: Δ\`run_cnt\` over the whole storm (BPF stats on: the sysctl for this figure) of every program of each default hotspot-k whose name is hk_*switch* (attached or not: a program that never ran on a switch counts 0), and of the HOOK_ALWAYS one's attached \`hk_switch\` (ns per switch: Δ\`run_time_ns\` ÷ Δ\`run_cnt\`); every 0.2 s during the storm, whether each default hotspot-k holds a sched_switch bpf_link (/proc/PID/fdinfo). Their exit summaries say their hooks were attached $(fmt %s "$HEALTHY_ATTACHES") times (unfiltered) and $(fmt %s "$HEALTHY_FLT_ATTACHES") times (\`--comm\`) over their whole lives (both storms and the windows around them). The target (0 runs, no link) is checked on the \`--comm\` one, whose only threads are the storm's."
	say ""
	HEALTHY_SUMMARY="healthy storms (ping-pong across CPUs, $HEALTHY_OPS round trips; hackbench): $(healthy_col 4) runs of hotspot-k's sched_switch programs (\`--comm\` the storm; unfiltered, on a host at load $(healthy_col 9): $(healthy_col 2)), vs $(healthy_col 7) runs with the hook always attached"
	HEALTHY_MET=$([ "$any" = 1 ] && echo "$zero")
}

hotpath_report()
{
	local data=$WORK/hotpath.tsv s e f h t dh df dw dt rate inv share met
	local ok=1 any=0 sh="" sf="" st="" over="" nohook rec rrq rcd srq="" scd="" peers=""

	case $NOHOOK in
	none) nohook="no program attached (0 ns)" ;;
	*) nohook="not measured: $NOHOOK" ;;
	esac
	rec=$(awk '{ s += $3 } END { printf "%.0f", s }' "$WORK/hotpath-hk.tsv")
	section 1-hotpath
	say "## 1. Hot path: ns per sched_switch"
	say ""
	say "| storm | switches/s, all CPUs (the storm's own: involuntary) | empty hook | hk_switch's filter alone | hotspot-k \`hk_switch\` while attached (HOOK_ALWAYS) | hotspot-k added over empty (target ≤ 10) | of which: filter · watched-thread path (switches hotspot-k recorded) | per-TGID hash hook | hash added over empty | hotspot-k \`--no-hook\` |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for s in $STORMS; do
		e=$(hotpath_ns "$s" empty)
		f=$(hotpath_ns "$s" filter)
		h=$(hotpath_ns "$s" hkon)
		t=$(hotpath_ns "$s" tgid)
		dh=$(hotpath_diff "$s" hkon empty)
		df=$(hotpath_diff "$s" filter empty)
		dw=$(hotpath_diff "$s" hkon filter)
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
		# the second table's row: the same storm next to runqlat and cpudist
		rrq=$(hotpath_ratio "$s" hkon runqlat)
		rcd=$(hotpath_ratio "$s" hkon cpudist)
		srq+="${srq:+ / }$(fmt %.2f "$rrq")"
		scd+="${scd:+ / }$(fmt %.2f "$rcd")"
		peers+="| $(storm_label "$s") | $(fmt %.0f "$h") ns | $(fmt %.0f "$(hotpath_ns "$s" runqlat)") ns | $(fmt %.0f "$(hotpath_ns "$s" cpudist)") ns | $(fmt %.2f "$rrq") | $(fmt %.2f "$rcd") | $(fmt %+.0f "$dh") · $(fmt %+.0f "$(hotpath_diff "$s" runqlat empty)") · $(fmt %+.0f "$(hotpath_diff "$s" cpudist empty)") ns |"$'\n'
		say "| $(storm_label "$s") | $(fmt %.0f "$rate") ($(fmt %.0f "$inv") %$([ "$s" != many ] || echo ", the ping-pong pair's")) | $(fmt %.0f "$e") ns | $(fmt %.0f "$f") ns | $(fmt %.0f "$h") ns | $(fmt %+.0f "$dh") ns $(verdict "$met") | $(fmt %+.0f "$df") · $(fmt %+.0f "$dw") ns ($(fmt %.1f "$share") %) | $(fmt %.0f "$t") ns | $(fmt %+.0f "$dt") ns | $nohook |"
	done
	say ""
	say "### While attached: next to runqlat and cpudist"
	say ""
	say "| storm | hotspot-k \`hk_switch\` (HOOK_ALWAYS) | runqlat's sched_switch program | cpudist's sched_switch program | hotspot-k ÷ runqlat | hotspot-k ÷ cpudist | added over empty: hotspot-k · runqlat · cpudist |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	printf '%s' "$peers" >>"$SECTION"
	say ""
	say "Method: as above, in the same rounds (runqlat and cpudist two more variants of the rotation, one tool loaded at a time): \`runqlat 3600 1\` and \`cpudist 3600 1\` from Debian's libbpf-tools $(dpkg-query -W -f='${Version}' libbpf-tools 2>/dev/null || echo "(version unknown)") (\`apt-get install libbpf-tools\`, tools/deps.sh bench), each up once it holds a sched_switch bpf_link; ns per switch: Δ\`run_time_ns\` ÷ Δ\`run_cnt\` of that link's program (runqlat's sched_wakeup and sched_wakeup_new programs not counted: they do not run on a switch). Ratios: per round, then the median over rounds."
	say ""
	healthy_report
	if [ -n "$over" ]; then
		say "Where hk_switch adds more than 10 ns, the nanoseconds go to: $over. The filter is paid on every switch: the voluntary check, and on involuntary ones (the idle task's included) prev's TID against one 8-byte word of hk_watch. The watched-thread path is everything hk_switch does on top, measured as hk_switch minus the filter: on switches of watched threads the aggressor's TGID, the kernel-thread check, the task storage lookup and the vote, and on every switch whatever hotspot-k's own 1 s walk leaves colder (it runs meanwhile, as it does in use). The share recorded is over the whole storm, warm-up included, when no storm thread is watched until the first walk has seen it wait."
		say ""
	fi
	say "Method: kernel BPF stats (\`kernel.bpf_stats_enabled=1\` for this figure only, then restored): Δ\`run_time_ns\` / Δ\`run_cnt\` of the attached sched_switch program, read with \`bpftool prog show id N -j\` before and after each storm (hotspot-k's program found through its own bpf_link in /proc/PID/fdinfo); a ping-pong storm whose first read came after the ping-pong had ended is run again. Variants: hotspot-k with its hook attached for good (\`HOTSPOT_K_TEST_HOOK_ALWAYS=1\`, as every hotspot-k was before issue #20; by default the hook is attached only while a thread is watched, see the healthy storms below) (\`hk_switch\`, default thresholds, \`-i 1s\` so that the storm processes have been through a walk during their 1.2 s warm-up, which the stats leave out: the steady state, with the watch bits set for the threads the walk saw waiting ≥ 70 % of a window (as long as Starved takes) and their task storage created); an empty tp_btf/sched_switch program (the floor: dispatch + the stats' own clock reads); \`bn_filter\`, hk_switch's filter and nothing more (the voluntary check, then prev's kernel-thread flag, then prev's TID tested against a bitmap as big as hk_watch with no bit set, then return: the same BPF instructions as hk_switch's first ones, per \`bpftool prog dump xlated\`, but for hk_switch loading its next argument up front), so that hk_switch's ns split into the filter and the watched-thread path (hk_switch minus the filter); a per-TGID collector hook (per-CPU switch-in stamp + \`bpf_ktime_get_ns\` + hash update by prev's TGID on every switch, + the aggressor's entry on involuntary ones, 64-byte values, as hotspot-bpf does). $ROUNDS rounds, one variant loaded at a time, variant order rotated each round, all five storms per load; medians over rounds; \"added\" and its split are medians of the per-round differences. Switches/s: Δ\`run_cnt\` of the empty program ÷ the wall-clock time between the two reads (each timed at its midpoint; every switch on both CPUs, the machine's own included); the involuntary share from the storm processes' own rusage (nvcsw/nivcsw, the ping-pong pair's in the many-task storm) in the same runs. Switches hotspot-k recorded: Δ\`hk_stats.switches_recorded\` (involuntary switches of watched threads, summed by the walk) ÷ Δ\`run_cnt\` of hk_switch, each read once the window after the storm had closed, so over the whole storm, warm-up included (a floor in the two hackbench storms: what a process recorded after the last walk before it exited is lost); $rec over all rounds. \`hotspot-k --no-hook\`: started once with \`-i 1s\`, through a window: no sched_switch link among its fds, and its exit summary says \"no hook\" ($([ "$NOHOOK" = none ] && echo "both so" || echo "not so: $NOHOOK")); there is no program to time, its cost is in figure 2. Storms: \`hackbench -p -g 2 -l 4000\` (80 new processes each run, no warm-up, stats over the whole run); \`bn-pingpong pipe -c 0 -w 1.2 -d 1.2\` (1-byte round trips over two pipes, stats read over the 1.2 s after the warm-up); \`bn-pingpong yield -c 0 -w 1.2 -d 1.2\` (every yield is an involuntary switch to the other process, so every switch reaches the bitmap test; each waits ~50 % of the window, a fair share: not watched); many tasks: \`hackbench -p -g 4 -l 4000\` (160 new processes over both CPUs, ~10 s) started with \`bn-pingpong pipe -c 0 -w 1.2 -d 1.2\`, both at nice 10 (at the bench's own nice they starved its reads past the ping-pong's end), stats over the ping-pong's measured 1.2 s, checked to end before hackbench did, then hackbench's workers killed by their PIDs and hackbench stopped by its own (it reaps them): task storage and task_structs of 160 processes, cache-cold; idle-heavy: \`bn-pingpong pipe -c 0 -C 1 -w 1.2 -d 1.2\`, the two sides on different CPUs, each CPU idle while its side waits for the other: the storm's own switches are voluntary, and every other switch is the idle task's, which by the kernel's rule (prev_state TASK_RUNNING) reaches the bitmap test and stops there."
	say ""
	summary "1. hot path, healthy" "$HEALTHY_SUMMARY" "0 runs on sched_switch during healthy storms: $(verdict "$HEALTHY_MET")"
	summary "1. hot path, vs runqlat/cpudist" "hotspot-k's hook while attached ÷ runqlat's sched_switch program: $srq; ÷ cpudist's: $scd ($(echo $STORMS | sed 's/ / \/ /g') storms)" "n/a"
	summary "1. hot path" "hotspot-k's hook (while attached) adds $sh ns per sched_switch over an empty program ($(echo $STORMS | sed 's/ / \/ /g') storms), of which its filter alone $sf ns; a per-TGID hash hook adds $st ns; \`--no-hook\`: $nohook" "≤ 10 ns added in every storm: $(verdict "$([ "$any" = 1 ] && echo "$ok")")"
	[ "$any" = 1 ] || fail hotpath "no run counted any switch"
}
