# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_18_forks.sh - figure 18, issue #34's fork-storm acceptance
# ("throughput with the tool >= 99 % of without"): three storms of task
# creation and exit, each with no hotspot-k and with one as a user runs it
# (the defaults: 5 s windows, sched_switch hook detached until a thread is
# watched), with an empty exit program (the floor of any exit hook) and
# with the TGID table's fork hook (bn-bpf attach forkhook: a new process's
# bit set with an atomic OR, the floor of issue #34's fork hook), in a
# rotated order, FORKS_ROUNDS rounds:
#   fork     stress-ng --fork 2 --metrics-brief: fork + exit + wait of a
#            process, bogo ops/s (real time) of 2 workers
#   threads  bn-threads: pthread_create + exit + join on CPU 0, threads/s
#   hackbench  hackbench -P -p -g 10 -l 10 back to back (400 processes
#            forked, 10 messages each, all reaped, per run), processes/s
# then one pass of the three storms under a hotspot-k with --bpf-stats and
# the fork hook: hk_exit's and the fork hook's ns per run and runs per
# second, read from each program's run_time_ns/run_cnt. Sourced by run.sh (it uses lib.sh's helpers and
# yardsticks.sh's variants).

FORKS_ROUNDS=${BENCH_FORKS_ROUNDS:-8}
FORKS_S=${BENCH_FORKS_S:-2}
FORKS_THREADS=${BENCH_FORKS_THREADS:-80000}
FORKS_HACKBENCH_RUNS=${BENCH_FORKS_HACKBENCH_RUNS:-20}
# hotspot-k's own flags in the rounds and the --bpf-stats pass, e.g.
# "--driver table" (the default above 2000 threads from 6.10, with its
# fork hook, whose own cost the pass then reads in the fork hook's columns)
FORKS_HK_ARGS=${BENCH_FORKS_HK_ARGS:-}

# forks_cpu: the user + system seconds of this shell's reaped descendants,
# as an expression for calc in FORKS_CPU (bash's times, parsed with no
# process started, so that nothing of its own is counted in between)
forks_cpu()
{
	local line u s

	times >"$WORK/forks-times"
	{ read -r line; read -r u s; } <"$WORK/forks-times"
	u=${u%s}
	s=${s%s}
	FORKS_CPU="(${u%%m*} * 60 + ${u#*m} + ${s%%m*} * 60 + ${s#*m})"
}

# forks_run OUTFILE CMD...: run_fg, its wall-clock seconds in RUN_SECS and
# the CPU seconds it and all it forked took in RUN_CPU
forks_run()
{
	local c0 t0 t1 rc

	forks_cpu
	c0=$FORKS_CPU
	t0=$EPOCHREALTIME
	run_fg "$@"
	rc=$?
	t1=$EPOCHREALTIME
	forks_cpu
	RUN_SECS=$(calc "$t1 - $t0")
	RUN_CPU=$(calc "$FORKS_CPU - $c0")
	return $rc
}

# forks_storm NAME: run that storm to completion (in this shell, not a
# subshell: its PID in PIDS for the trap); "rate=R cpu_rate=P secs=S
# cpu=C" in STORM: R in the storm's own unit per second of wall-clock
# time, P per CPU second of the storm and all it forked (the exit hook runs
# in the exiting task: counted; others' load on this shared host: not);
# false when it failed
forks_storm()
{
	local out=$WORK/forks-$1.out n

	STORM=
	case $1 in
	fork)
		forks_run "$out" stress-ng --fork 2 --timeout "${FORKS_S}s" --metrics-brief || return 1
		# "stress-ng: metrc: [pid] fork OPS REAL USR SYS OPS/S(real) ..."
		n=$(awk '$2 == "metrc:" && $4 == "fork" && $5 ~ /^[0-9]+$/ { print $5 }' "$out")
		[ -n "$n" ] || return 1
		STORM="rate=$(awk '$2 == "metrc:" && $4 == "fork" { print $9 }' "$out")"
		;;
	threads)
		forks_run "$out" "$OUT/bn-threads" -n "$FORKS_THREADS" -c 0 || return 1
		n=$FORKS_THREADS
		STORM="rate=$(calc "$n / $(kv secs "$(grep '^threads=' "$out")")")"
		;;
	hackbench)
		# each run: 10 groups x 40 processes forked and reaped
		forks_run "$out" bash -c 'for ((i = 0; i < $0; i++)); do hackbench -P -p -g 10 -l 10 || exit 1; done' \
			"$FORKS_HACKBENCH_RUNS" || return 1
		n=$((FORKS_HACKBENCH_RUNS * 400))
		STORM="rate=$(calc "$n / $RUN_SECS")"
		;;
	esac
	STORM+=" cpu_rate=$(calc "$n / $RUN_CPU") secs=$RUN_SECS cpu=$RUN_CPU"
}

FORKS_STORMS="fork threads hackbench"

forks_rounds()
{
	local r v s hook

	: >"$WORK/forks.tsv"
	# warm: hackbench's binary and its first 400 forks, outside the rounds
	run_fg /dev/null hackbench -P -p -g 10 -l 10
	for ((r = 0; r < FORKS_ROUNDS; r++)); do
		for v in $(rotate "$r" none hk exitempty forkhook); do
			# shellcheck disable=SC2086 # flags, split on purpose
			variant_start "$v" $FORKS_HK_ARGS || variant_start "$v" $FORKS_HK_ARGS ||
				{ echo "bench: $v did not start" >&2; continue; }
			# the storms' order rotates too: the tool's one walk among
			# them (5 s windows) falls on each storm in turn
			for s in $(rotate "$r" $FORKS_STORMS); do
				forks_storm "$s" || { echo "bench: storm $s failed ($v)" >&2; continue; }
				hook=0
				[ "$v" = hk ] && nohook_attached "$VPID" && hook=1
				echo "round=$r v=$v storm=$s $STORM hook=$hook" >>"$WORK/forks.tsv"
			done
			[ "$v" = none ] || variant_stop
		done
	done
}

# the exit hook's and the fork hook's own costs: one pass under a
# hotspot-k holding BPF_ENABLE_STATS, the fork hook attached beside it
# (not in the A/B rounds: the stats add clock reads to every BPF program
# run on the host)
forks_exit_cost()
{
	local s e f fpid fk=
	local -a x0 x1 y0 y1

	: >"$WORK/forks-exit.tsv"
	run_bg "$WORK/forks-forkhook.log" "$OUT/bn-bpf" attach forkhook
	fpid=$BG_PID
	wait_line "$WORK/forks-forkhook.log" '^ready' 10 "$fpid" &&
		f=$(sed -n 's/^ready prog_id=//p' "$WORK/forks-forkhook.log")
	# shellcheck disable=SC2086 # flags, split on purpose
	variant_start hk --bpf-stats $FORKS_HK_ARGS || { stop "$fpid"; return 1; }
	e=$(prog_of "$VPID" hk_exit)
	# the table driver's own fork hook, when it runs, in the fork columns
	fk=$(prog_of "$VPID" hk_fork) && f=$fk
	fk=
	[ -n "$e" ] || { variant_stop; stop "$fpid"; return 1; }
	for s in $FORKS_STORMS; do
		read -r -a x0 <<<"$(prog_stat "$e")"
		[ -z "$f" ] || read -r -a y0 <<<"$(prog_stat "$f")"
		forks_storm "$s" || continue
		read -r -a x1 <<<"$(prog_stat "$e")"
		[ -z "$f" ] || { read -r -a y1 <<<"$(prog_stat "$f")"; fk=" fork_runs=$((y1[1] - y0[1])) fork_ns=$(calc "($((y1[0] - y0[0]))) / $((y1[1] - y0[1]))")"; }
		echo "storm=$s $STORM exit_runs=$((x1[1] - x0[1])) exit_ns=$(calc "($((x1[0] - x0[0]))) / $((x1[1] - x0[1]))")$fk" >>"$WORK/forks-exit.tsv"
	done
	variant_stop
	stop "$fpid"
}

# forks_col STORM V EXPR: from the rounds' lines
forks_col()
{
	round_col "$WORK/forks.tsv" "$2" 'f["storm"] == "'"$1"'"' "$3"
}

# forks_ratios STORM V FIELD: V's FIELD (rate, cpu_rate) ÷ none's, per round
forks_ratios()
{
	round_ratios "$WORK/forks.tsv" "$2" none 'f["storm"] == "'"$1"'"' 'f["'"$3"'"]'
}

# forks_exit STORM KEY: that field of the --bpf-stats pass's line
forks_exit()
{
	awk -v s="$1" -v k="$2" "$KV_FIELDS"' f["storm"] == s { print f[k] }' "$WORK/forks-exit.tsv"
}

forks_report()
{
	local s unit n h rh rc re rec rf rfc met metc all=1 runs ens fruns fns secs hooks nh sum=""

	section 18-forks
	say "## 18. Fork storms: throughput with and without hotspot-k (issue #34)"
	say ""
	say "| storm | rate without (median) | rate with hotspot-k (median) | with ÷ without: median (spread over rounds) | per CPU second: with ÷ without | ≥ 0.99 (rate · per CPU second) | an empty exit program ÷ without (rate · per CPU second) | the TGID table's fork hook ÷ without (rate · per CPU second) | hk_exit ns per run · runs/s · share of one CPU (--bpf-stats pass) | fork hook ns per run · runs/s · share of one CPU (same pass) | sched_switch hook attached at the storm's end |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for s in $FORKS_STORMS; do
		case $s in
		fork) unit="forks/s (stress-ng --fork 2, bogo ops/s)" ;;
		threads) unit="threads/s (bn-threads, CPU 0)" ;;
		hackbench) unit="processes/s (hackbench runs back to back, 400 each)" ;;
		esac
		n=$(forks_col "$s" none 'f["rate"]' | med)
		h=$(forks_col "$s" hk 'f["rate"]' | med)
		rh=$(forks_ratios "$s" hk rate | med)
		rc=$(forks_ratios "$s" hk cpu_rate | med)
		re=$(forks_ratios "$s" exitempty rate | med)
		rec=$(forks_ratios "$s" exitempty cpu_rate | med)
		rf=$(forks_ratios "$s" forkhook rate | med)
		rfc=$(forks_ratios "$s" forkhook cpu_rate | med)
		met=$(calc "$rh >= 0.99")
		metc=$(calc "$rc >= 0.99")
		[ "$met" = 1 ] || all=0
		runs=$(forks_exit "$s" exit_runs)
		ens=$(forks_exit "$s" exit_ns)
		secs=$(forks_exit "$s" secs)
		fruns=$(forks_exit "$s" fork_runs)
		fns=$(forks_exit "$s" fork_ns)
		hooks=$(forks_col "$s" hk 'f["hook"]' | awk '{ s += $1 } END { print s + 0 }')
		nh=$(forks_col "$s" hk 'f["hook"]' | wc -l)
		say "| $unit | $(fmt %.0f "$n") | $(fmt %.0f "$h") | $(fmt %.3f "$rh") ($(forks_ratios "$s" hk rate | spread %.3f)) | $(fmt %.3f "$rc") ($(forks_ratios "$s" hk cpu_rate | spread %.3f)) | $(verdict "$met") · $(verdict "$metc") | $(fmt %.3f "$re") ($(forks_ratios "$s" exitempty rate | spread %.3f)) · $(fmt %.3f "$rec") ($(forks_ratios "$s" exitempty cpu_rate | spread %.3f)) | $(fmt %.3f "$rf") ($(forks_ratios "$s" forkhook rate | spread %.3f)) · $(fmt %.3f "$rfc") ($(forks_ratios "$s" forkhook cpu_rate | spread %.3f)) | $(fmt %.0f "$ens") ns · $(fmt %.0f "$(calc "$runs / $secs")")/s · $(fmt %.2f "$(calc "$ens * $runs / $secs / 1e7")") % | $(fmt %.0f "$fns") ns · $(fmt %.0f "$(calc "$fruns / $secs")")/s · $(fmt %.2f "$(calc "$fns * $fruns / $secs / 1e7")") % | $hooks of $nh runs |"
		sum+="${sum:+; }$s $(fmt %.3f "$rh")× ($(forks_ratios "$s" hk rate | spread %.3f)), per CPU second $(fmt %.3f "$rc")× ($(forks_ratios "$s" hk cpu_rate | spread %.3f))"
	done
	say ""
	say "Method: $FORKS_ROUNDS rounds; in each, no hotspot-k, hotspot-k as a user runs it (the default config: 5 s windows, the exit hook attached, the sched_switch hook only while a thread is watched; \`--json\` to a file), an empty tp_btf/sched_process_exit program (\`bn-bpf attach exitempty\`: the floor of any exit hook) and the TGID table's fork hook (\`bn-bpf attach forkhook\`, tools/bench/bench_tgid.bpf.c: a tp_btf/sched_process_fork program that, for a child that is a new process (pid == tgid, not a kernel thread), sets its TGID's bit in a 512 KiB bitmap with an atomic OR: the floor of issue #34's fork hook), in a rotated order, each started anew before its storms and stopped after (killed by PID). Under each, the three storms one after the other, their order rotated per round (so the tool's one walk during them, about 5 s after its start, falls on each storm in turn): \`stress-ng --fork 2 --timeout ${FORKS_S}s --metrics-brief\` (two workers forking a child that exits at once and reaping it; its bogo ops/s in real time), \`bn-threads -n $FORKS_THREADS -c 0\` (pthread_create of a thread that returns at once, then pthread_join, on CPU 0; threads ÷ its own wall-clock time), and \`hackbench -P -p -g 10 -l 10\` $FORKS_HACKBENCH_RUNS times back to back (each run forks 400 processes, 10 messages of 100 bytes each over pipes, reaps them; 400 × runs ÷ wall-clock time). Per CPU second: the same count ÷ the user + system seconds of the storm and every process it forked (bash's \`times\` for its reaped descendants, before and after): the exit hook runs in the exiting task and is counted, what the other sessions on this shared host run is not, so this ratio is the steadier one. The ratio is taken within a round (with ÷ without, same storm), then the median and the min–max over rounds; the target is the median ≥ 0.99. Hook column: a sched_switch bpf_link among the tool's fds when the storm ended (the storms can make the walk watch a thread on this shared 2-CPU host). The exit hook's cost is one more pass of the three storms under a hotspot-k with \`--bpf-stats\` (it holds BPF_ENABLE_STATS; kept out of the A/B rounds because the stats add two clock reads to every BPF program run on the host): Δ\`run_time_ns\` ÷ Δ\`run_cnt\` of hk_exit over each storm, runs ÷ the storm's seconds, and their product as a share of one CPU; the fork hook attached beside it in that pass, read the same way (it runs on every fork and thread create; it sets a bit only for a new process). Every exit runs hotspot-k's exit hook once (thread or process). hotspot-k's flags here: ${FORKS_HK_ARGS:-none} (BENCH_FORKS_HK_ARGS; with \`--driver table\` the tool has a fork hook of its own, hk_fork: a new process's bit and a reference to its leader, and the fork columns of the --bpf-stats pass read it instead of bn-bpf's)."
	say ""
	summary "18. fork storms" "with hotspot-k ÷ without, median (spread) over $FORKS_ROUNDS rounds: $sum; hk_exit $(fmt %.0f "$(forks_exit fork exit_ns)") ns per exit in the fork storm; the TGID table's fork hook $(fmt %.0f "$(forks_exit fork fork_ns)") ns per fork, $(fmt %.3f "$(forks_ratios fork forkhook rate | med)")× the forks/s without" "≥ 0.99 each: $(verdict "$all")"
}

fig_forks()
{
	log "18. fork storms: $FORKS_ROUNDS rounds x {none, hotspot-k, empty exit program, fork hook} x {stress-ng --fork ${FORKS_S} s, $FORKS_THREADS threads, $FORKS_HACKBENCH_RUNS hackbench runs}, then one --bpf-stats pass"
	forks_rounds
	forks_exit_cost || fail forks "the --bpf-stats pass: hotspot-k or its hk_exit not found"
	forks_report
	[ -s "$WORK/forks.tsv" ] || fail forks "no storm completed"
}
