# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_14_hook.sh - figure 14, issue #20's hook on demand: hotspot-k's
# sched_switch hook attached only while its walk watches a thread.
#   a. one Starved pair (the seed pair on CPU 0) among healthy load (a pipe
#      ping-pong on CPU 1): the hook attaches, its ns per switch while
#      attached, the share of the time it was, detached again after
#   b. the exit hook: thread create+exit with no hotspot-k, with one as a
#      user gets it, with one whose hook is always attached; hk_exit's ns per
#      run
#   c. the seed pair's entry windows, before (HOTSPOT_K_TEST_HOOK_ALWAYS=1)
#      and after (the default), both watching the same pair, BENCH_HOOK_RUNS
#      runs
# Sourced by run.sh (it uses lib.sh's helpers, yardsticks.sh's variants,
# fig_1_hotpath.sh's switch_progs and runs_of).

HOOK_PAIR_S=${BENCH_HOOK_PAIR_S:-20}
HOOK_EXIT_ROUNDS=${BENCH_HOOK_EXIT_ROUNDS:-5}
HOOK_THREADS=${BENCH_HOOK_THREADS:-20000}
HOOK_RUNS=${BENCH_HOOK_RUNS:-20}

# seed_pair: the seed pair on CPU 0 (aggressor at nice 0, victim at nice
# 19), their PIDs in PAIR_A and PAIR_V
seed_pair()
{
	run_bg /dev/null taskset -c 0 bash -c 'while :; do :; done'
	PAIR_A=$BG_PID
	run_bg /dev/null taskset -c 0 nice -n 19 bash -c 'while :; do :; done'
	PAIR_V=$BG_PID
}

# linked_wait PID WANT TIMEOUT_S: until that hotspot-k holds (WANT=1) or does
# not hold (WANT=0) a sched_switch link; the seconds it took, or nan
linked_wait()
{
	local t0=$EPOCHREALTIME i has

	for ((i = 0; i < $3 * 20; i++)); do
		nohook_attached "$1" && has=1 || has=0
		[ "$has" = "$2" ] && { calc "$EPOCHREALTIME - $t0"; return 0; }
		alive "$1" || break
		sleep 0.05
	done
	echo nan
	return 1
}

# --- a. one Starved pair among healthy load ----------------------------------

hook_pair()
{
	local hk progs pp n=0 on=0 t0 t1 ta td
	local -a r0 r1

	: >"$WORK/hook-pair.tsv"
	variant_start hk -i 1s --bpf-stats || { echo "bench: hotspot-k did not start" >&2; return 1; }
	hk=$VPID
	progs=$(switch_progs "$hk")
	run_bg "$WORK/hook-pp.out" "$OUT/bn-pingpong" pipe -c 1 -d $((HOOK_PAIR_S + 12))
	pp=$BG_PID
	# healthy load alone first: the hook stays detached
	nap 3
	nohook_attached "$hk" && echo "attached_before 1" >>"$WORK/hook-pair.tsv"
	read -r -a r0 <<<"$(runs_of $progs)"
	t0=$EPOCHREALTIME
	seed_pair
	ta=$(linked_wait "$hk" 1 10)
	# the pair's time: is the hook attached, every 0.1 s
	while [ "$(calc "$EPOCHREALTIME - $t0 < $HOOK_PAIR_S")" = 1 ]; do
		n=$((n + 1))
		nohook_attached "$hk" && on=$((on + 1))
		sleep 0.1
	done
	read -r -a r1 <<<"$(runs_of $progs)"
	t1=$EPOCHREALTIME
	stop "$PAIR_V"
	stop "$PAIR_A"
	td=$(linked_wait "$hk" 0 10)
	stop "$pp"
	stop "$hk"
	echo "attach_s $ta" >>"$WORK/hook-pair.tsv"
	echo "detach_s $td" >>"$WORK/hook-pair.tsv"
	echo "share_pct $(calc "100 * $on / $n")" >>"$WORK/hook-pair.tsv"
	echo "runs $((r1[1] - r0[1]))" >>"$WORK/hook-pair.tsv"
	echo "ns_per_run $(calc "($((r1[0] - r0[0]))) / $((r1[1] - r0[1]))")" >>"$WORK/hook-pair.tsv"
	echo "switches_per_s $(calc "$((r1[1] - r0[1])) / ($t1 - $t0)")" >>"$WORK/hook-pair.tsv"
	echo "summary $(grep -o 'hook [0-9]* ns/switch while attached' "$WORK/variant-hk.log" | tail -1)" >>"$WORK/hook-pair.tsv"
	echo "lifetime $(grep -o 'sched_switch hook [0-9]* runs [0-9.]* ms (attached [0-9]* times, [0-9]* s in all[^)]*)' "$WORK/variant-hk.log" | tail -1)" >>"$WORK/hook-pair.tsv"
}

# --- b. the exit hook ----------------------------------------------------------

hook_exit()
{
	local r v line e
	local -a x0 x1

	: >"$WORK/hook-exit.tsv"
	for ((r = 0; r < HOOK_EXIT_ROUNDS; r++)); do
		for v in $(rotate "$r" none hk hkon); do
			variant_start "$v" -i 1s --bpf-stats || { echo "bench: $v did not start" >&2; continue; }
			e=
			[ "$v" = none ] || e=$(prog_of "$VPID" hk_exit)
			[ -z "$e" ] || read -r -a x0 <<<"$(prog_stat "$e")"
			if run_fg "$WORK/hook-threads.out" "$OUT/bn-threads" -n "$HOOK_THREADS" -c 0; then
				line=$(grep '^threads=' "$WORK/hook-threads.out")
				if [ -n "$e" ]; then
					read -r -a x1 <<<"$(prog_stat "$e")"
					line+=" exit_runs=$((x1[1] - x0[1])) exit_ns=$(calc "($((x1[0] - x0[0]))) / $((x1[1] - x0[1]))")"
				fi
				echo "round=$r v=$v $line" >>"$WORK/hook-exit.tsv"
			fi
			[ "$v" = none ] || variant_stop
		done
	done
}

# --- c. the seed pair's entry windows, before and after ---------------------------

# entry FILE PID LABEL: "seconds_since_epoch windows" of the first transition
# of PID to LABEL in a --json log
entry()
{
	local line

	line=$(grep -F "\"pid\":$2," "$1" | grep -F "\"to\":\"$3\"" | head -1)
	[ -n "$line" ] || return 1
	echo "$(date -d "$(sed -n 's/.*"time":"\([^"]*\)".*/\1/p' <<<"$line")" +%s.%N) $(sed -n 's/.*"windows":\([0-9]*\).*/\1/p' <<<"$line")"
}

hook_windows()
{
	local hon hdef run t0 tag f pw pid label got e i td

	: >"$WORK/hook-win.tsv"
	HOTSPOT_K_TEST_HOOK_ALWAYS=1 hk_start "$WORK/hook-win-before.log" --json -i 1s || return 1
	hon=$HK_PID
	hk_start "$WORK/hook-win-after.log" --json -i 1s || { stop "$hon"; return 1; }
	hdef=$HK_PID
	nap 2
	for ((run = 0; run < HOOK_RUNS; run++)); do
		over_budget && break
		# from a detached hook, at a phase of the windows that varies
		td=$(linked_wait "$hdef" 0 10)
		nap "0.$((RANDOM % 10))"
		t0=$EPOCHREALTIME
		seed_pair
		for tag in before after; do
			f=$WORK/hook-win-$tag.log
			for pw in "$PAIR_V:starved" "$PAIR_A:noisy_neighbor"; do
				pid=${pw%%:*}
				label=${pw#*:}
				got=
				for ((i = 0; i < 200; i++)); do
					e=$(entry "$f" "$pid" "$label") && { got=1; break; }
					sleep 0.05
				done
				if [ -n "$got" ]; then
					read -r -a e <<<"$e"
					echo "run=$run tool=$tag side=$label t=$(calc "${e[0]} - $t0") windows=${e[1]} detached_s=$td" >>"$WORK/hook-win.tsv"
				else
					echo "run=$run tool=$tag side=$label t=nan windows=nan detached_s=$td" >>"$WORK/hook-win.tsv"
				fi
			done
		done
		stop "$PAIR_V"
		stop "$PAIR_A"
	done
	linked_wait "$hdef" 0 10 >/dev/null
	stop "$hdef"
	stop "$hon"
}

# --- the figure ---------------------------------------------------------------------

# hw_col TOOL SIDE FIELD: that field of every run's line
hw_col()
{
	awk -v t="$1" -v s="$2" -v k="$3" "$KV_FIELDS"' f["tool"] == t && f["side"] == s { print f[k] }' "$WORK/hook-win.tsv"
}

# hw_dist TOOL SIDE: "k: n" of the window the side entered in (the line's
# windows field), over the runs
hw_dist()
{
	hw_col "$1" "$2" windows | sort -n | uniq -c | awk '{ printf "%s%s: %d", (NR > 1 ? ", " : ""), $2, $1 }'
}

hook_report()
{
	local v med_none med_hk med_on ex_hk ex_on th_hk th_on ns runs share ta td sps sumline life
	local nrun same_b same_a later earlier dt lagged

	section 14-hook
	say "## 14. The sched_switch hook on demand (issue #20)"
	say ""
	say "### a. One Starved pair among healthy load"
	say ""
	ta=$(awk '$1 == "attach_s" { print $2 }' "$WORK/hook-pair.tsv")
	td=$(awk '$1 == "detach_s" { print $2 }' "$WORK/hook-pair.tsv")
	share=$(awk '$1 == "share_pct" { print $2 }' "$WORK/hook-pair.tsv")
	runs=$(awk '$1 == "runs" { print $2 }' "$WORK/hook-pair.tsv")
	ns=$(awk '$1 == "ns_per_run" { print $2 }' "$WORK/hook-pair.tsv")
	sps=$(awk '$1 == "switches_per_s" { print $2 }' "$WORK/hook-pair.tsv")
	sumline=$(sed -n 's/^summary //p' "$WORK/hook-pair.tsv")
	life=$(sed -n 's/^lifetime //p' "$WORK/hook-pair.tsv")
	say "| hook attached before the pair (healthy ping-pong only, 3 s) | attached after the pair's start | share of the pair's ${HOOK_PAIR_S} s attached | hk_switch runs · ns per switch while attached (BPF stats) | switches/s it ran on | detached after the pair ended | the tool's own summary |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	say "| $(grep -q '^attached_before 1' "$WORK/hook-pair.tsv" && echo yes || echo no) | $(fmt %.2f "$ta") s | $(fmt %.0f "$share") % | $runs · $(fmt %.0f "$ns") ns | $(fmt %.0f "$sps") | $(fmt %.2f "$td") s | ${sumline:-n/a}; ${life:-n/a} |"
	say ""
	say "Method: one hotspot-k as a user gets it but for the stats (\`--json -i 1s --bpf-stats\`), a pipe ping-pong with both sides on CPU 1 (\`bn-pingpong pipe -c 1\`, healthy: each side waits for the other, not for a CPU) for 3 s, then the seed pair on CPU 0 (\`taskset -c 0 bash -c 'while :; do :; done'\` and the same under \`nice -n 19\`) for ${HOOK_PAIR_S} s, then the pair killed by PID. Attached: a sched_switch bpf_link among the tool's fds (/proc/PID/fdinfo), polled every 50 ms for the attach and detach times (from the pair's start, from its kill) and every 0.1 s for the share. Runs and ns: Δ\`run_cnt\`, Δ\`run_time_ns\` of its hk_*switch programs from the pair's start to ${HOOK_PAIR_S} s later (\`--bpf-stats\`: the tool holds BPF_ENABLE_STATS); switches/s: those runs ÷ the pair's time. The last column is the tool's exit summary (its own count, the whole run)."
	say ""

	say "### b. The exit hook: thread create + exit"
	say ""
	med_none=$(round_col "$WORK/hook-exit.tsv" none 1 'f["ns_per_thread"]' | med)
	med_hk=$(round_col "$WORK/hook-exit.tsv" hk 1 'f["ns_per_thread"]' | med)
	med_on=$(round_col "$WORK/hook-exit.tsv" hkon 1 'f["ns_per_thread"]' | med)
	ex_hk=$(round_col "$WORK/hook-exit.tsv" hk 1 'f["exit_ns"]' | med)
	ex_on=$(round_col "$WORK/hook-exit.tsv" hkon 1 'f["exit_ns"]' | med)
	th_hk=$(round_ratios "$WORK/hook-exit.tsv" hk none 1 'f["ns_per_thread"]' | med)
	th_on=$(round_ratios "$WORK/hook-exit.tsv" hkon none 1 'f["ns_per_thread"]' | med)
	say "| | no hotspot-k | hotspot-k (default: exit hook attached, sched_switch hook not) | hotspot-k, hook always attached |"
	say "| --- | --- | --- | --- |"
	say "| ns per thread create + exit (median of $HOOK_EXIT_ROUNDS rounds; spread) | $(fmt %.0f "$med_none") ($(round_col "$WORK/hook-exit.tsv" none 1 'f["ns_per_thread"]' | spread %.0f)) | $(fmt %.0f "$med_hk") ($(round_col "$WORK/hook-exit.tsv" hk 1 'f["ns_per_thread"]' | spread %.0f)) | $(fmt %.0f "$med_on") ($(round_col "$WORK/hook-exit.tsv" hkon 1 'f["ns_per_thread"]' | spread %.0f)) |"
	say "| ÷ no hotspot-k (per round, median) | 1 | $(fmt %.3f "$th_hk") | $(fmt %.3f "$th_on") |"
	say "| hk_exit ns per run (BPF stats, median) | – | $(fmt %.0f "$ex_hk") | $(fmt %.0f "$ex_on") |"
	say ""
	say "Method: \`bn-threads -n $HOOK_THREADS -c 0\`: pthread_create of a thread that returns at once, then pthread_join, $HOOK_THREADS times one after the other on CPU 0, the wall-clock time ÷ $HOOK_THREADS. $HOOK_EXIT_ROUNDS rounds, each round the three variants one after the other in a rotated order (a hotspot-k started with \`--json -i 1s --bpf-stats\` before and stopped after its run); medians over rounds, the ratio per round then the median. hk_exit's ns per run: Δ\`run_time_ns\` ÷ Δ\`run_cnt\` over the same run (the tool's BPF_ENABLE_STATS fd: \`--bpf-stats\`), runs ≈ threads."
	say ""

	say "### c. The seed pair's entry windows, before and after"
	say ""
	nrun=$(awk "$KV_FIELDS"' { print f["run"] }' "$WORK/hook-win.tsv" | sort -u | wc -l)
	say "$nrun runs, two hotspot-ks watching the same pair each run: \"before\" \`HOTSPOT_K_TEST_HOOK_ALWAYS=1 hotspot-k --json -i 1s\` (the hook attached for good, as before issue #20), \"after\" \`hotspot-k --json -i 1s\` (the hook attached when the walk first watches a thread)."
	say ""
	say "| tool | side | entered in window k (the line's \`windows\`) — k: runs | s from the pair's start to the line, median (spread) |"
	say "| --- | --- | --- | --- |"
	for v in before after; do
		for s in starved noisy_neighbor; do
			say "| $v | $s | $(hw_dist "$v" "$s") | $(fmt %.2f "$(hw_col "$v" "$s" t | med)") ($(hw_col "$v" "$s" t | spread %.2f)) |"
		done
	done
	say ""
	# per run: both sides in the same window (the same windows value), and the
	# aggressor after vs before
	read -r same_b same_a later earlier dt lagged <<<"$(awk "$KV_FIELDS"'
		{ w[f["run"] " " f["tool"] " " f["side"]] = f["windows"]; t[f["run"] " " f["tool"] " " f["side"]] = f["t"]; runs[f["run"]] = 1 }
		END {
			for (r in runs) {
				# phase-free: the window of the aggressor behind that
				# of its victim, after vs before (a miss counts as behind)
				lb = w[r " before noisy_neighbor"] == "nan" ? 99 : w[r " before noisy_neighbor"] - w[r " before starved"]
				la = w[r " after noisy_neighbor"] == "nan" ? 99 : w[r " after noisy_neighbor"] - w[r " after starved"]
				if (la > lb) g++
				if (w[r " before starved"] != "nan" && w[r " before starved"] == w[r " before noisy_neighbor"]) sb++
				if (w[r " after starved"] != "nan" && w[r " after starved"] == w[r " after noisy_neighbor"]) sa++
				a = w[r " after noisy_neighbor"]; b = w[r " before noisy_neighbor"]
				if (a == "nan" || b == "nan") { if (a == "nan" && b != "nan") l++; continue }
				if (a + 0 > b + 0) l++
				if (a + 0 < b + 0) e++
				d = t[r " after noisy_neighbor"] - t[r " before noisy_neighbor"]
				if (!n++ || d > dmax) dmax = d
			}
			printf "%d %d %d %d %s %d\n", sb, sa, l, e, (n ? sprintf("%.2f", dmax) : "nan"), g
		}' "$WORK/hook-win.tsv")"
	say "Victim and aggressor in the same window: before $same_b of $nrun runs, after $same_a of $nrun. The aggressor further behind its victim after than before (its window minus the victim's, per tool; phase-free): $lagged of $nrun runs. Raw, across the tools: the aggressor named in a later window after than before (a higher \`windows\` value, or named only before): $later of $nrun runs; earlier: $earlier — with its victim in the same window each time, so the phase of each tool's first window, not the hook, decides these. Largest (after − before) of the aggressor's entry time in one run: $dt s (the two tools' windows have their own phases, so the times differ by up to 1 s either way for the same window count, and the first, partial window may count for one tool and not the other: the same-window counts within each tool are the phase-free comparison). The default tool's hook was detached at the start of every run (waited for up to 10 s: $(hw_col after starved detached_s | spread %.1f) s)."
	say ""
	say "Method: both hotspot-ks started once and left running; each run waits until the default one's hook is detached (no sched_switch link: no thread watched for 3 windows), then a random 0–0.9 s more (so that the pair starts at a varying phase of the windows), then starts the seed pair (\`taskset -c 0 bash -c 'while :; do :; done'\`, then the same under \`nice -n 19\`), waits (10 s at most) for each tool's transition lines (victim → starved, aggressor → noisy_neighbor) and kills the pair by PID. Window: the \`windows\` field of the transition line (the windows that tool has seen the process in, the partial first one included: 3 when the pair started late in a window, whose share of waiting then fell short); time: the line's \`time\` − the pair's start."
	say ""
	summary "14. hook on demand" "one Starved pair among healthy load: attached $(fmt %.2f "$ta") s after its start, $(fmt %.0f "$share") % of its time, $(fmt %.0f "$ns") ns per switch while attached, detached $(fmt %.1f "$td") s after it ended; thread create+exit $(fmt %.3f "$th_hk")× with hotspot-k (hk_exit $(fmt %.0f "$ex_hk") ns/run); seed pair over $nrun runs: same window before $same_b, after $same_a; aggressor further behind its victim after than before in $lagged runs (raw window later after than before: $later, earlier: $earlier, the windows' phases)" "aggressor named no later: $(verdict "$([ "$nrun" -gt 0 ] && { [ "$lagged" = 0 ] && echo 1 || echo 0; })")"
}

fig_hook()
{
	log "14. hook on demand: a Starved pair among healthy load (${HOOK_PAIR_S} s), the exit hook ($HOOK_EXIT_ROUNDS rounds x $HOOK_THREADS threads), the seed pair's entry windows ($HOOK_RUNS runs)"
	# no sysctl: the hotspot-ks whose runs are read hold a BPF_ENABLE_STATS
	# fd (--bpf-stats), the stats are on while one runs
	hook_pair || fail hook "the Starved pair's run"
	hook_exit
	hook_windows || fail hook "the entry windows' hotspot-ks did not start"
	hook_report
	[ -s "$WORK/hook-exit.tsv" ] || fail hook "no thread create+exit run"
	[ -s "$WORK/hook-win.tsv" ] || fail hook "no entry-window run"
}
