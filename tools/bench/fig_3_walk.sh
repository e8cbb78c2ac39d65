# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_3_walk.sh - figure 3, the window's cost at 100..100 k threads next to
# bare task-iterator walks (bn-bpf watch) and the floors of a table-driven
# walk (issue #34: kptrs, bn_table.c; TGIDs, bn_tgid.c), and a full
# hk_procs counted; in
# the same populations, figure 5's polling at 1 k and 10 k processes
# (fig_5_poll.sh's poll_at). Its idle populations (spawn_start) and the
# sysctls they need (walk_sysctls) serve figures 5 and 8 too. Sourced by
# run.sh (it uses lib.sh's helpers).

# PROCSxTHREADS; a trailing s: processes sharing one mm (bn-spawn -s)
WALK_CONFIGS=${BENCH_WALK_CONFIGS:-"100x1 10x10 1000x1 100x10 10000x1 1000x10 100000x1s 10000x10"}
HK_MAX_PROCS=131072	# the walk runs track every process of 100 k

# spawn_start PROCS THREADS [BN-SPAWN ARGS]: a population, idle unless the
# args say otherwise (-s: sharing one mm; -e/-w: waking); its PID in SPAWN_PID
spawn_start()
{
	local p=$1 t=$2 f

	shift 2
	f=$WORK/spawn-${p}x$t$(tr -d ' -' <<<"$*").out
	run_bg "$f" "$OUT/bn-spawn" -p "$p" -t "$t" "$@"
	SPAWN_PID=$BG_PID
	wait_line "$f" '^ready' 120 "$SPAWN_PID" && return 0
	echo "bench: bn-spawn -p $p -t $t $*: $(tail -2 "$f")" >&2
	stop "$SPAWN_PID" TERM 120
	return 1
}

spawn_stop()
{
	stop "$SPAWN_PID" TERM 120
}

# window lines of one hotspot-k in a watch log:
# "W walk_ns dthreads dprocs max driver untracked stretch_max dvisited"
windows_of()
{
	awk -v pid="$1" '
		$1 != "win" { next }
		{ delete f; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["pid"] != pid { next }
		{
			w = f["windows"]; t = f["threads_walked"]; p = f["procs_walked"]; v = f["threads_visited"]
			if (w == 1 || (seen && w == pw + 1))
				print w, f["last_walk_ns"], t - pt, p - pp, f["walk_ns_max"], f["driver"], f["procs_untracked"], f["stretch_ns_max"], v - pv
			seen = 1; pw = w; pt = t; pp = p; pv = v
		}' "$2"
}

# table walks of a mode (one, chunks) in a watch log, the first dropped:
# "ns threads longest-chunk chunks rest_ns" (nan: not on that line); TAG
# table (kptrs, the default) or tgid
table_of()
{
	awk -v m="$1" -v tag="${3:-table}" "$KV_FIELDS"'
		$1 == tag && f["mode"] == m && n++ {
			for (i = split("ns threads max chunks rest_ns", k, " "); i > 0; i--)
				if (f[k[i]] == "")
					f[k[i]] = "nan"
			print f["ns"], f["threads"], f["max"], f["chunks"], f["rest_ns"]
		}' "$2"
}

# bare walks of a level in a watch log, the first (cold, creating) dropped: "ns threads"
bare_of()
{
	awk -v l="$1" '
		$1 != "bare" { next }
		{ delete f; for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["level"] == l && n++ { print f["ns"], f["threads"] }' "$2"
}

walk_sysctls()
{
	local cur

	cur=$(sysctl -n kernel.pid_max)
	[ "$cur" -ge 1048576 ] || sysctl_set kernel.pid_max 1048576
	cur=$(sysctl -n vm.max_map_count)
	[ "$cur" -ge 1048576 ] || sysctl_set vm.max_map_count 1048576
}

walk_sysctls_restore()
{
	sysctl_restore kernel.pid_max
	sysctl_restore vm.max_map_count
}

# walk_config PROCS THREADS SHARED POLL: one population, hotspot-k at 1 s and
# 5 s next to the bare walks; a line in walk.tsv
walk_config()
{
	local p=$1 t=$2 shared=$3 poll=$4 n=$(($1 * $2)) need avail h1 h5 w1 w5
	local log=$WORK/watch-$1x$2$3.log

	log "3. walk: $p processes x $t threads${shared:+ (shared mm)}"
	if over_budget; then
		echo "procs=$p threads=$t$shared skipped=time" >>"$WORK/walk.tsv"
		return 1
	fi
	# measured: ~100 KiB per idle process (page tables, stacks), ~40 per
	# thread, ~35 per process sharing the mm
	need=$((p * 100 + (n - p) * 40))
	[ -z "$shared" ] || need=$((p * 35))
	avail=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
	if [ $((need * 3 / 2 + 2097152)) -gt "$avail" ]; then
		echo "bench: $p x $t needs ~$((need / 1024)) MiB, $((avail / 1024)) MiB available: skipped" >&2
		echo "procs=$p threads=$t$shared skipped=memory" >>"$WORK/walk.tsv"
		return 1
	fi
	[ "$n" -lt 30000 ] || walk_sysctls
	spawn_start "$p" "$t" ${shared:+-s} || { walk_sysctls_restore; echo "procs=$p threads=$t$shared skipped=spawn" >>"$WORK/walk.tsv"; return 1; }
	hk_start "$WORK/hk5.log" -i 5s --max-procs $HK_MAX_PROCS --json && h5=$HK_PID || h5=
	hk_start "$WORK/hk1.log" -i 1s --max-procs $HK_MAX_PROCS --json && h1=$HK_PID || h1=
	if [ -n "$h1" ] && [ -n "$h5" ]; then
		run_fg "$log" "$OUT/bn-bpf" watch -p "$h1,$h5" -d 30 -n 8,4 -b 200 -l all,task,table,tgidtable -m $HK_MAX_PROCS
	fi
	stop "$h1"
	stop "$h5"
	[ -z "$poll" ] || poll_at "$p"
	spawn_stop
	walk_sysctls_restore

	if [ -z "$h1" ] || [ -z "$h5" ] || ! grep -q '^win' "$log"; then
		echo "procs=$p threads=$t$shared skipped=hotspot-k" >>"$WORK/walk.tsv"
		return 1
	fi
	w1=$(windows_of "$h1" "$log")
	w5=$(windows_of "$h5" "$log")
	# steady windows: from the second on (the first creates every
	# thread's task storage and every process's entry)
	{
		echo -n "procs=$p threads=$t$shared"
		echo -n " thr=$(awk '$1 >= 2 { print $3 }' <<<"$w1" | med)"
		echo -n " nprocs=$(awk '$1 >= 2 { print $4 }' <<<"$w1" | med)"
		echo -n " w1=$(awk '$1 >= 2 { print $2 }' <<<"$w1" | med)"
		echo -n " pt1=$(awk '$1 >= 2 && $3 > 0 { print $2 / $3 }' <<<"$w1" | med)"
		echo -n " first1=$(awk '$1 == 1 { print $2 }' <<<"$w1" | med)"
		echo -n " w5=$(awk '$1 >= 2 { print $2 }' <<<"$w5" | med)"
		echo -n " pt5=$(awk '$1 >= 2 && $3 > 0 { print $2 / $3 }' <<<"$w5" | med)"
		echo -n " first5=$(awk '$1 == 1 { print $2 }' <<<"$w5" | med)"
		# longest walk of either instance, its driver, longest stretch
		{ tail -1 <<<"$w1"; tail -1 <<<"$w5"; } | sort -k5,5g | tail -1 |
			awk '{ printf " max=%s ctx=%s", $5, $6 }'
		{ tail -1 <<<"$w1"; tail -1 <<<"$w5"; } | sort -k8,8g | tail -1 |
			awk '{ printf " stretch=%s", $8 }'
		for l in iter direct fields store hash task; do
			echo -n " $l=$(bare_of "$l" "$log" | awk '$2 > 0 { print $1 / $2 }' | med)"
			echo -n " n_$l=$(bare_of "$l" "$log" | wc -l)"
		done
		echo -n " iterw=$(bare_of iter "$log" | awk '{ print $1 }' | med)"
		# the table walk: one run, in ~1 ms chunks (longest chunk,
		# chunks), its references released at the end (left: 0)
		echo -n " tone=$(table_of one "$log" | awk '$2 > 0 { print $1 / $2 }' | med)"
		echo -n " n_tone=$(table_of one "$log" | wc -l)"
		echo -n " tchunk=$(table_of chunks "$log" | awk '$2 > 0 { print $1 / $2 }' | med)"
		echo -n " n_tchunk=$(table_of chunks "$log" | wc -l)"
		echo -n " tcmax=$(table_of chunks "$log" | awk '{ print $3 }' | med)"
		echo -n " tcn=$(table_of chunks "$log" | awk '{ print $4 }' | med)"
		awk "$KV_FIELDS"'$1 == "table" && $2 == "clear" { printf " tfreed=%s tleft=%s", f["released"], f["left"] }' "$log"
		! grep -q '^bn-bpf: table walk not measured' "$log" || echo -n " tskip=kernel"
		# the TGID table walk, the same way; rest: the empty words
		# from kernel.pid_max's to PID_MAX_LIMIT's, scanned apart
		echo -n " gone=$(table_of one "$log" tgid | awk '$2 > 0 { print $1 / $2 }' | med)"
		echo -n " n_gone=$(table_of one "$log" tgid | wc -l)"
		echo -n " gchunk=$(table_of chunks "$log" tgid | awk '$2 > 0 { print $1 / $2 }' | med)"
		echo -n " n_gchunk=$(table_of chunks "$log" tgid | wc -l)"
		echo -n " gcmax=$(table_of chunks "$log" tgid | awk '{ print $3 }' | med)"
		echo -n " gcn=$(table_of chunks "$log" tgid | awk '{ print $4 }' | med)"
		echo -n " grest=$(table_of one "$log" tgid | awk '{ print $5 }' | med)"
		awk "$KV_FIELDS"'$1 == "tgid" && $2 == "fill" { printf " gwords=%s", f["words"] }' "$log"
		! grep -q '^bn-bpf: TGID table walk not measured' "$log" || echo -n " gskip=kernel"
		echo " n1=$(awk '$1 >= 2' <<<"$w1" | wc -l) n5=$(awk '$1 >= 2' <<<"$w5" | wc -l)"
	} >>"$WORK/walk.tsv"
}

# a full hk_procs is counted: 2 k processes against --max-procs 1024
walk_untracked()
{
	local h log=$WORK/watch-untracked.log

	log "3. walk: 2000 processes against --max-procs 1024"
	spawn_start 2000 1 || return 1
	hk_start "$WORK/hk-untracked.log" -i 1s --max-procs 1024 --json && h=$HK_PID || h=
	[ -n "$h" ] && run_fg "$log" "$OUT/bn-bpf" watch -p "$h" -d 10 -n 3
	stop "$h"
	spawn_stop
	[ -n "$h" ] || return 1
	grep '^win' "$log" | tail -1 >"$WORK/untracked.txt"
}

fig_walk()
{
	local c t

	: >"$WORK/walk.tsv"
	: >"$WORK/poll.tsv"
	for c in $WALK_CONFIGS; do
		t=${c#*x}
		case $c in
		1000x1 | 10000x1) walk_config "${c%x*}" "$t" "" poll ;;
		*s) walk_config "${c%x*}" "${t%s}" s "" ;;
		*) walk_config "${c%x*}" "$t" "" "" ;;
		esac
	done
	walk_untracked
	walk_report
	poll_report
}

# the rows of walk.tsv (or of ROWS_TSV: figure 17's) as "KEY..." for the
# keys asked for, nan where a row has none
walk_rows()
{
	awk -v keys="$*" "$KV_FIELDS"'
		{ n = split(keys, k, " "); line = ""
		  for (i = 1; i <= n; i++) line = line (i > 1 ? " " : "") ((k[i] in f) && f[k[i]] != "" ? f[k[i]] : "nan")
		  print line }' "${ROWS_TSV:-$WORK/walk.tsv}"
}

# a population label: "100000 × 1 (shared mm)"
pop()
{
	echo "$1 × ${2%s}$([ "${2%s}" = "$2" ] || echo " (shared mm)")"
}

# the range of a sample count (walk.tsv's n_* keys) over the populations
nsamp()
{
	walk_rows "$@" | tr ' ' '\n' | minmax
}

# table_cells TAG OBJECT SKIP ONE CHUNK LONGEST CHUNKS: a table walk's two
# cells in population $p x $t against the bare walk's $bi ns per thread, in
# CELL_ONE (its "(÷ bare" left open when measured) and CELL_CHUNK; the
# ratios added to TAG-ratios and TAG-chunk-ratios; false when not measured
table_cells()
{
	if [ "$3" = kernel ]; then
		CELL_ONE="not measured (this kernel refused $2: run/watch-${p}x$t.log says why)"
		CELL_CHUNK=$CELL_ONE
		return 1
	fi
	if [ "$4" = nan ]; then
		CELL_ONE="not measured"
		CELL_CHUNK=$CELL_ONE
		FAILED="$FAILED walk:$1:${p}x$t"
		return 1
	fi
	calc "$4 / $bi" >>"$WORK/$1-ratios"
	calc "$5 / $bi" >>"$WORK/$1-chunk-ratios"
	CELL_ONE="$(fmt %.0f "$4") ($(fmt %.2f "$(calc "$4 / $bi")")×"
	CELL_CHUNK="$(fmt %.0f "$5") ($(fmt %.2f "$(calc "$5 / $bi")")×; $(fmt %.2f "$(calc "$6 / 1e6")") ms, $(fmt %.0f "$7"))"
}

walk_report()
{
	local p t sk thr procs w1 pt1 first1 w5 pt5 first5 max ctx bi bd bf bs bh biw stretch
	local ratio met any=0 line un kone gone gchunk gcmax gcn gsk CELL_ONE CELL_CHUNK

	: >"$WORK/walk-ratios"
	section 3-walk
	say "## 3. Window cost at scale"
	say ""
	say "| processes × threads | threads (processes) walked | bare walk: per thread · per window | hotspot-k -i 1s: per thread · per window · CPU | hotspot-k -i 5s: per thread · per window · CPU | hotspot-k ÷ bare, per thread (target ≤ 1.5) | hotspot-k ÷ the kernel's iter/task walking by TID alone, per thread (the iter driver's floor) | window 1 (at start, creates storage): 1 s / 5 s instance | longest walk · longest stretch on a CPU (driver) |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	while read -r p t sk thr procs w1 pt1 first1 w5 pt5 first5 max ctx bi biw stretch btask; do
		if [ "$sk" != nan ]; then
			say "| $(pop "$p" "$t") | not measured ($sk) | | | | | | | |"
			FAILED="$FAILED walk:${p}x$t"
			continue
		fi
		any=1
		ratio=$(calc "$pt1 / $bi")
		met=$(awk -v r="$ratio" 'BEGIN { print (r == "nan") ? "nan" : (r <= 1.5) ? 1 : 0 }')
		case $ctx in
		1) ctx="wq: a kworker" ;;
		2) ctx="timer: softirq" ;;
		3) ctx="iter: one read(), yields between threads" ;;
		4) ctx="table: a kworker, 1 ms chunks" ;;
		*) ctx="driver $ctx" ;;
		esac
		say "| $(pop "$p" "$t") | $(fmt %.0f "$thr") ($(fmt %.0f "$procs")) | $(fmt %.0f "$bi") ns · $(fmt %.2f "$(calc "$biw / 1e6")") ms | $(fmt %.0f "$pt1") ns · $(fmt %.2f "$(calc "$w1 / 1e6")") ms · $(fmt %.3f "$(calc "$w1 / 1e7")") % | $(fmt %.0f "$pt5") ns · $(fmt %.2f "$(calc "$w5 / 1e6")") ms · $(fmt %.4f "$(calc "$w5 / 5e7")") % | $(fmt %.2f "$ratio")× $(verdict "$met") | $(fmt %.2f "$(calc "$pt1 / $btask")")× ($(fmt %.0f "$btask") ns) | $(fmt %.1f "$(calc "$first1 / 1e6")") / $(fmt %.1f "$(calc "$first5 / 1e6")") ms | $(fmt %.1f "$(calc "$max / 1e6")") ms · $(fmt %.1f "$(calc "$stretch / 1e6")") ms ($ctx) |"
		echo "$ratio" >>"$WORK/walk-ratios"
	done < <(walk_rows procs threads skipped thr nprocs w1 pt1 first1 w5 pt5 first5 max ctx iter iterw stretch task)
	say ""
	say "Where a walk's time goes (median ns per thread; bare levels: iterate, then the per-thread fields, then task storage, then a per-process hash entry, each on top of the previous one):"
	say ""
	say "| processes × threads | bare: iterate only | table: per-process threads, one run (÷ bare) | table: in ~1 ms chunks, their sum (÷ bare; longest chunk, chunks) | TGID table: one run (÷ bare; ÷ kptr table) | TGID table: ~1 ms chunks (÷ bare; longest chunk, chunks) | + fields, direct loads | + fields, BPF_CORE_READ (as hotspot-k) | + task storage get/create, 3 writes | + per-process hash lookup/update | hotspot-k -i 1s (+ per-process sums, window step, classification, hysteresis) |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	: >"$WORK/table-ratios"
	: >"$WORK/table-chunk-ratios"
	: >"$WORK/tgid-ratios"
	: >"$WORK/tgid-chunk-ratios"
	: >"$WORK/tgid-kptr-ratios"
	while read -r p t sk bi bd bf bs bh pt1 tone tchunk tcmax tcn tleft tsk gone gchunk gcmax gcn gsk; do
		[ "$sk" = nan ] || continue
		if table_cells table bench_table.bpf.o "$tsk" "$tone" "$tchunk" "$tcmax" "$tcn"; then
			[ "$tleft" = 0 ] || FAILED="$FAILED walk:table-left:${p}x$t"
			CELL_ONE+=")"
		fi
		kone=$tone
		tone=$CELL_ONE
		tchunk=$CELL_CHUNK
		# and ÷ the kptr table's one run (nan when it was not measured)
		if table_cells tgid bench_tgid.bpf.o "$gsk" "$gone" "$gchunk" "$gcmax" "$gcn"; then
			calc "$gone / $kone" >>"$WORK/tgid-kptr-ratios"
			CELL_ONE+="; $(fmt %.2f "$(calc "$gone / $kone")")×)"
		fi
		gone=$CELL_ONE
		gchunk=$CELL_CHUNK
		say "| $(pop "$p" "$t") | $(fmt %.0f "$bi") | $tone | $tchunk | $gone | $gchunk | $(fmt %.0f "$bd") | $(fmt %.0f "$bf") | $(fmt %.0f "$bs") | $(fmt %.0f "$bh") | $(fmt %.0f "$pt1") |"
	done < <(walk_rows procs threads skipped iter direct fields store hash pt1 tone tchunk tcmax tcn tleft tskip gone gchunk gcmax gcn gskip)
	say ""
	# walk ns = a * threads + b * processes + c: least squares over the
	# forked populations, weighted by 1/walk^2 (relative errors: the
	# populations span three orders of magnitude)
	fit()
	{
		walk_rows threads skipped thr nprocs "$@" | awk '$2 == "nan" && $1 !~ /s$/ {
			for (i = 5; i <= NF; i++) {
				if ($i == "nan" || $i <= 0)
					continue
				x = $3; y = $4; z = $i; w = 1 / (z * z); n++
				sxx += w * x * x; sxy += w * x * y; sx += w * x; syy += w * y * y
				sy += w * y; s1 += w; sxz += w * x * z; syz += w * y * z; sz += w * z
			}
		} END {
			a11 = sxx; a12 = sxy; a13 = sx; a22 = syy; a23 = sy; a33 = s1
			d = a11 * (a22 * a33 - a23 * a23) - a12 * (a12 * a33 - a23 * a13) + a13 * (a12 * a23 - a22 * a13)
			if (n < 3 || d == 0) { print "nan nan nan"; exit }
			da = sxz * (a22 * a33 - a23 * a23) - a12 * (syz * a33 - a23 * sz) + a13 * (syz * a23 - a22 * sz)
			db = a11 * (syz * a33 - sz * a23) - sxz * (a12 * a33 - a23 * a13) + a13 * (a12 * sz - syz * a13)
			dc = a11 * (a22 * sz - a23 * syz) - a12 * (a12 * sz - syz * a13) + sxz * (a12 * a23 - a22 * a13)
			print da / d, db / d, dc / d
		}'
	}
	local -a fh fb
	read -r -a fh <<<"$(fit w1 w5)"
	read -r -a fb <<<"$(fit iterw)"
	say "How it grows (per-window walk = a·threads + b·processes + c, least squares over the forked populations above, both intervals, weighted for relative error): hotspot-k a = $(fmt %.0f "${fh[0]}") ns per thread, b = $(fmt %.0f "${fh[1]}") ns per process, c = $(fmt %.0f "$(calc "${fh[2]} / 1000")") µs per window; bare iteration a = $(fmt %.0f "${fb[0]}") ns per thread, b = $(fmt %.0f "${fb[1]}") ns per process, c = $(fmt %.0f "$(calc "${fb[2]} / 1000")") µs."
	say ""
	if [ -s "$WORK/untracked.txt" ]; then
		line=$(cat "$WORK/untracked.txt")
		un=$(kv procs_untracked "$line")
		say "A full hk_procs is counted: 2000 idle processes (+ the machine's own) against \`--max-procs 1024\`, -i 1s: after $(kv windows "$line") windows hk_stats shows procs_walked $(kv procs_walked "$line"), procs_untracked $un (a count per window of the processes that found the map full: $(awk -v u="$un" 'BEGIN { print (u > 0) ? "> 0, **met**" : "0, **missed**" }'))."
	else
		say "A full hk_procs: not measured."
		FAILED="$FAILED walk:untracked"
	fi
	say ""
	say "Method: \`bn-spawn -p P -t T\` forks P processes of T threads each (a static binary; every thread blocks in pause()). \"Shared mm\": \`bn-spawn -s\` makes each process with clone(CLONE_VM) instead of fork(): a process of its own (own TGID, signal struct, files) without a copy of the address space, because an idle forked process costs ~100 KiB here and faulting 10 GB of fresh guest memory in made 100 k forks take 95 s on this VM; those processes' \`mm\` is one shared, cache-hot struct, so that row is somewhat optimistic per process. kernel.pid_max and vm.max_map_count are raised to 1048576 for populations ≥ 30 k threads, then restored. Two hotspot-k run at once over each population, \`-i 1s\` and \`-i 5s\`, with \`--max-procs $HK_MAX_PROCS\` so that every process is tracked (100 k processes do not fit the default 32768). \`bn-bpf watch\` reads each one's hk_stats (found through that process's own map fds, fields by BTF name) every 5 ms and logs every window: walk = \`last_walk_ns\`; threads and processes = the Δ of \`threads_walked\` and \`procs_walked\`; medians over the steady windows (the 2nd on: about 14 at 1 s and 3 at 5 s per population; window 1 is the walk hotspot-k makes at start, which creates every thread's task storage and every process's entry, shown apart); CPU = walk time ÷ interval, as a share of one CPU. Longest walk = \`walk_ns_max\` (first window included), longest stretch = \`stretch_ns_max\` (the longest the walk held one CPU without a break), driver = \`hk_stats.driver\` (the default: above 2000 threads table where they are at least 2 a process, else iter; wq below; a table walk's \`last_walk_ns\` counts the time between its chunks too). The bare walk is \`bn_walk_iter\`, a SEC(\"syscall\") program run with BPF_PROG_TEST_RUN that only iterates every thread (bpf_iter_task_new/next/destroy with BPF_TASK_ITER_ALL_THREADS, under bpf_rcu_read_lock) and times itself with bpf_ktime_get_ns: the floor. It runs 200 ms after each window of the 1 s instance, the table walks 400 ms after it (the kptr table and the TGID table in turn, each in one run and in chunks in turn), and the other levels one at a time, in turn, 600 and 800 ms after it, so that every walk finds the task_structs untouched for about as long as hotspot-k's own walk does (the 5 s instance's walks fall anywhere in between). \`bn_walk_task\` is the iter driver's floor: an iter/task program that only counts, read() to its end through an iterator (the kernel meets every thread by TID: a PID-table lookup and a reference taken and dropped per thread, then one run of the program), timed from its first thread to its end; it runs among the other levels. The table walk is the floor of the table-driven design (kernel-2.md D, issue #34), in its own object (\`tools/bench/bench_table.bpf.c\`; a kernel that cannot load it leaves its columns \"not measured\" and the rest of the figure as it is): a BPF array map of 16-byte slots, each a referenced task kptr (\`struct task_struct __kptr *\`) and the TGID, filled once per population, before the first sample and not timed (in the design fork and exit hooks keep it), by a SEC(\"syscall\") program that walks BPF_TASK_ITER_ALL_PROCS and stores bpf_task_acquire() of each process with bpf_kptr_xchg; \`bn_walk_table\`, run with BPF_PROG_TEST_RUN, takes slots [start, end) and, under one bpf_rcu_read_lock, reads each slot's kptr, takes a reference (bpf_iter_task_new accepts only a trusted task, and a kptr read under RCU is not one: a bpf_task_acquire/bpf_task_release per process, which the design pays too on this kernel), skips a process whose thread_pid is gone (pid_alive) and iterates its threads with bpf_iter_task_new(BPF_TASK_ITER_PROC_THREADS), calling the same one-counter function per thread as the bare walk, timed with bpf_ktime_get_ns. Its samples alternate: the whole table in one run, or in chunks, each a BPF_PROG_TEST_RUN of its own over the next N slots back to back, N = the processes the latest one-run sample walked in 1 ms (the design's budget); per sample the chunks' own times are summed (the chunking's cost is in the sum; not the system calls between them, which stand for the design's ~2-5 µs work-item re-queue), and the longest chunk kept (its median over the samples is shown). The first sample of each level (and of each table mode) is dropped (cold code, storage creation); per population, $(nsamp n_iter) samples of the floor, $(nsamp n_tone) of the table in one run and $(nsamp n_tchunk) in chunks, $(nsamp n_direct n_fields n_store n_hash n_task) of each other level. When the population stops, every slot is emptied (bpf_kptr_xchg NULL, bpf_task_release) and a second pass checks that none was left: no task_struct stays pinned after the figure. The TGID table is the kptr-free variant (kernel-2.md D, \"a cheaper variant without kptrs\"; \`tools/bench/bench_tgid.bpf.c\`, its own object as well): a bitmap with a bit per PID, 65536 u64 words (512 KiB, PID_MAX_LIMIT 4194304) in a global, filled once by the same untimed ALL_PROCS walk (in the design the fork hook sets a process's bit, the exit hook clears it); \`bn_walk_tgid\` scans the words below kernel.pid_max's ($(walk_rows gwords | tr ' ' '\n' | sort -un | tr '\n' ' ' | sed 's/ $//; s/ /, /g') words here), 8 at a time while they are empty, and per set bit takes the task of that PID (bpf_task_from_pid: a PID-table lookup and a reference, global namespace), skips it unless it leads its group (pid == tgid: the number may be a thread's by now), walks its threads with BPF_TASK_ITER_PROC_THREADS calling the same one-counter function per thread, and drops the reference (bpf_task_release), all under one bpf_rcu_read_lock; in chunks, each chunk walks as many processes as the latest one-run sample walked in 1 ms and the next resumes at the TGID after its last. After each one-run sample the words from pid_max's to PID_MAX_LIMIT's (empty) are scanned alone: $(walk_rows grest | tr ' ' '\n' | awk '$1 != "nan" { print $1 / 1000 }' | spread %.0f) µs, what a bitmap scanned to its end would add per walk. $(nsamp n_gone) samples of the TGID table in one run and $(nsamp n_gchunk) in chunks per population. Ratios = hotspot-k -i 1s (or the table walk) ÷ bare iterate, per thread; TGID ÷ kptr: the two one-run walks, per thread."
	say ""
	local big nmet ntot
	big=$(walk_rows procs threads w1 w5 | awk '$1 * ($2 + 0) == 100000 { printf "%s%s × %s: %.0f ms per walk (%.2f %% of a CPU at -i 1s, %.3f %% at 5 s)", sep, $1, ($2 ~ /s$/) ? ($2 + 0) " (shared mm)" : $2, $3 / 1e6, $3 / 1e7, $4 / 5e7; sep = "; " }')
	local table="a table walk's floor: not measured (kernel)"
	[ ! -s "$WORK/table-ratios" ] ||
		table="a table walk's floor (kptrs, per-process threads) $(spread %.2f <"$WORK/table-ratios")× that bare list walk in one run, $(spread %.2f <"$WORK/table-chunk-ratios")× in ~1 ms chunks"
	[ ! -s "$WORK/tgid-ratios" ] ||
		table+="; kptr-free (a TGID bitmap, bpf_task_from_pid per process) $(spread %.2f <"$WORK/tgid-ratios")× in one run, $(spread %.2f <"$WORK/tgid-chunk-ratios")× in chunks, $(spread %.2f <"$WORK/tgid-kptr-ratios")× the kptr table"
	nmet=$(awk '$1 != "nan" && $1 <= 1.5' "$WORK/walk-ratios" | wc -l)
	ntot=$(awk '$1 != "nan"' "$WORK/walk-ratios" | wc -l)
	summary "3. window cost" "${big:-100 k threads not measured}; per thread $(spread %.2f <"$WORK/walk-ratios")× a bare task-iterator walk; $table; a full hk_procs is counted (procs_untracked ${un:-?})" "≤ 1.5× bare: met in $nmet of $ntot populations"
	[ "$any" = 1 ] || fail walk "no population measured"
}
