# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_15_scrape.sh - figure 15, what a scrape of --metrics-listen costs the
# tool at 0, 100 and 1000 processes flagged at once (issue #32): its CPU
# per scrape (the tool's own time on a CPU, with scrapes and without, side
# by side in one run), the bytes, the latency; then 20 slow clients at 1000
# flagged. Not in "all" (~2.5 min). Sourced by run.sh (lib.sh's helpers).
#
# The flagged population: SCRAPE_NAME processes (bn-spawn -f) that each
# wake every 500 ms to fault 2 pages in and drop them, under 10 owners
# (root and 9 uids: one owner holds at most a quarter of the listed set,
# user/output/prom_share.h), and hotspot-k -i 1s --comm SCRAPE_NAME with
# [mem_thrashing] minor_faults_per_s = 1 (default 10000): every one of them
# is flagged mem_thrashing 2 windows in, and nothing else is watched. The
# figure measures the endpoint, not the classifier: any label gives the
# same series.

SCRAPE_POPS=${BENCH_SCRAPE_POPS:-"0 100 1000"}
SCRAPE_N=${BENCH_SCRAPE_N:-200}		# scrapes back to back, per round
SCRAPE_ROUNDS=${BENCH_SCRAPE_ROUNDS:-5}
SCRAPE_PAIRS=${BENCH_SCRAPE_PAIRS:-8}	# windows with one scrape / none
SCRAPE_SLOW=${BENCH_SCRAPE_SLOW:-20}	# slow clients at the largest population
SCRAPE_NAME=hkb-scrape
SCRAPE_OWNERS="0 60001 60002 60003 60004 60005 60006 60007 60008 60009"
SCRAPE_PY=$HERE/bn_scrape.py

# sc_cpu PID: the ns its threads ran (schedstat's first field, summed)
sc_cpu()
{
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# sc_get: one scrape's body, from the instance of this population
sc_get()
{
	"$PY" "$SCRAPE_PY" get "127.0.0.1:$SC_PORT"
}

# sc_metric NAME BODY_FILE: the value of a series by its whole name
sc_metric()
{
	awk -v n="$1" '$1 == n { print $2; exit }' "$2"
}

# sc_flagged BODY_FILE: hotspot_k_processes summed over labels
sc_flagged()
{
	awk '/^hotspot_k_processes\{/ { s += $2 } END { print s + 0 }' "$1"
}

# sc_wait_flagged N: until N are flagged (at most 30 s)
sc_wait_flagged()
{
	local i b=$WORK/scrape-body.txt

	for ((i = 0; i < 60; i++)); do
		sc_get >"$b" 2>/dev/null && [ "$(sc_flagged "$b")" -ge "$1" ] && return 0
		nap 0.5
	done
	return 1
}

# sc_burst POP ROUND: right after a window, SCRAPE_N scrapes back to back
# (the first one finds the text stale and makes it), then as long again
# right after the next window with none
sc_burst()
{
	local pop=$1 r=$2 h=$HK_PID c0 c1 c2 c3 d f=$WORK/scrape-burst-$1-$2.txt

	next_window "$h" || return 1
	c0=$(sc_cpu "$h")
	"$PY" "$SCRAPE_PY" burst "127.0.0.1:$SC_PORT" "$SCRAPE_N" >"$f"
	c1=$(sc_cpu "$h")
	d=$(awk -F'[ =]' '/^n=/ { print $6 / 1e9 }' "$f")
	next_window "$h" || return 1
	c2=$(sc_cpu "$h")
	nap "$d"
	c3=$(sc_cpu "$h")
	awk -v pop="$pop" -v r="$r" -v a=$((c1 - c0)) -v b=$((c3 - c2)) "$KV_FIELDS"'
		"lat_ns" in f { if (f["i"] == 0) first = f["lat_ns"]; else print "lat", pop, f["lat_ns"] >"/dev/stderr"
				bytes = f["bytes"]; ok += f["code"] == 200 }
		"t_ns" in f { t = f["t_ns"]; n = f["n"] }
		END { printf "pop=%s round=%s v=burst n=%d ok=%d t_ns=%.0f cpu_ns=%.0f idle_ns=%.0f first_ns=%.0f bytes=%.0f\n",
			pop, r, n, ok, t, a, b, first, bytes }' "$f" >>"$WORK/scrape.tsv" 2>>"$WORK/scrape-lat.txt"
}

# sc_pair POP K: a window with one scrape at its start and one with none,
# in turn first; one walk in each. Under iter the walk is the tool's own
# read(): its CPU (hk_stats) is taken out of both
sc_pair()
{
	local pop=$1 k=$2 h=$HK_PID i one none
	local -a c w d

	next_window "$h" || return 1
	for i in 0 1 2; do
		((i == 0)) || next_window "$h" || return 1
		c[i]=$(sc_cpu "$h")
		read -r -a d <<<"$(sc_walk)"
		w[i]=${d[0]}
		# iter: 3 (the driver field of hk_stats)
		[ "${d[2]}" = 3 ] || w[i]=0
		((i == 2)) || [ $((k % 2)) != "$i" ] || sc_get >/dev/null
	done
	one=$((c[1] - c[0] - w[1] + w[0])) none=$((c[2] - c[1] - w[2] + w[1]))
	[ $((k % 2)) = 0 ] || { i=$one; one=$none; none=$i; }
	echo "pop=$pop round=$k v=pair one_ns=$one none_ns=$none walk_ns=$((w[2] - w[0])) iter=$([ "${w[2]}" = 0 ] && echo 0 || echo 1)" >>"$WORK/scrape.tsv"
}

# sc_walk: "walk_cpu_ns_total windows driver" of the instance now
sc_walk()
{
	local s

	s=$("$OUT/bn-bpf" stats -p "$HK_PID" 2>/dev/null)
	echo "$(kv walk_cpu_ns_total "$s") $(kv windows "$s") $(kv driver "$s")"
}

# sc_span V SECONDS [CMD...]: the tool's CPU, its walk and windows over
# SECONDS from just after a window, while CMD (if any) runs; a fast client
# scrapes every 250 ms meanwhile (in scrape-V.txt)
sc_span()
{
	local v=$1 s=$2 h=$HK_PID c0 c1 w0 w1 sp= q fc
	local -a a b

	shift 2
	next_window "$h" || return 1
	if [ $# -gt 0 ]; then
		run_bg "$WORK/scrape-$v-clients.txt" "$@"
		sp=$BG_PID
		wait_line "$WORK/scrape-$v-clients.txt" '^slow open=' 10 "$sp"
	fi
	c0=$(sc_cpu "$h")
	w0=$(sc_walk)
	run_bg "$WORK/scrape-$v.txt" "$PY" "$SCRAPE_PY" every "127.0.0.1:$SC_PORT" $((s * 4 - 4)) 250
	fc=$BG_PID
	nap 1
	# the answers not yet read: the send queues of the port's connections,
	# the tool's and those it closed (orphans the kernel finishes)
	q=$(ss -Htan "( sport = :$SC_PORT )" | awk '$1 != "LISTEN" { n++; q += $3; st[$1]++ }
		END { printf "conns=%d sendq=%d states=", n, q; for (k in st) { printf "%s%s:%d", sep, k, st[k]; sep = "," } }')
	nap "$((s - 1))"
	c1=$(sc_cpu "$h")
	w1=$(sc_walk)
	stop "$fc" TERM 10
	[ -n "$sp" ] && stop "$sp" TERM 10
	read -r -a a <<<"$w0"
	read -r -a b <<<"$w1"
	echo "pop=$SC_POP v=$v cpu_ns=$((c1 - c0)) walk_ns=$((b[0] - a[0])) windows=$((b[1] - a[1])) s=$s ok=$(grep -c 'code=200' "$WORK/scrape-$v.txt") refused=$(grep -c 'code=0' "$WORK/scrape-$v.txt") first_ok_ms=$(awk -F'[ =]' '/code=200/ { print $4; exit }' "$WORK/scrape-$v.txt") $q $(grep -m 1 '^slow got' "$WORK/scrape-$v-clients.txt" 2>/dev/null)" >>"$WORK/scrape.tsv"
}

# sc_instance POP DRIVER: hotspot-k over the population, its walk under
# DRIVER, until all POP are flagged (0: 3 windows, as long as the others
# wait at least); its PID in HK_PID, its port in SC_PORT
sc_instance()
{
	SC_PORT=$("$PY" "$SCRAPE_PY" port)
	hk_start "$WORK/hk-scrape-$1-$2.log" -i 1s --json --driver "$2" --config "$WORK/scrape.conf" \
		--comm "$SCRAPE_NAME" --metrics-listen "127.0.0.1:$SC_PORT" || return 1
	if ! sc_wait_flagged "$1"; then
		echo "pop=$1 skipped=flagged $(sc_flagged "$WORK/scrape-body.txt") of $1 in 30 s" >>"$WORK/scrape.tsv"
		stop "$HK_PID" INT
		return 1
	fi
	[ "$1" -gt 0 ] || { next_window "$HK_PID"; next_window "$HK_PID"; next_window "$HK_PID"; }
	return 0
}

# sc_slow POP: the slow clients, beside an instance with the iter driver
# (the walk in the loop's own read(): what a stuck loop would delay)
sc_slow()
{
	local pop=$1 after=$WORK/scrape-after-slow.txt

	sc_instance "$pop" iter || return 1
	sc_span alone 8
	sc_span slow 8 "$PY" "$SCRAPE_PY" slow "127.0.0.1:$SC_PORT" "$SCRAPE_SLOW" 512 1000
	nap 1
	sc_span slow1448 8 "$PY" "$SCRAPE_PY" slow "127.0.0.1:$SC_PORT" "$SCRAPE_SLOW" 2048 500 1448
	nap 1
	sc_get >"$after"
	echo "pop=$pop v=counters refused_total=$(sc_metric hotspot_k_metrics_clients_refused_total "$after") dropped_total=$(sc_metric hotspot_k_metrics_clients_dropped_total "$after") scrapes_total=$(sc_metric hotspot_k_metrics_scrapes_total "$after") driver=$(sc_metric 'hotspot_k_driver{driver="iter"}' "$after")" >>"$WORK/scrape.tsv"
	stop "$HK_PID" INT
}

# sc_population POP: the population, the instance, every measurement
sc_population()
{
	local pop=$1 sp= r u b=$WORK/scrape-set-$1.txt
	local -a owners=()

	SC_POP=$pop
	log "15. scrape: $pop flagged"
	if [ "$pop" -gt 0 ]; then
		for u in $SCRAPE_OWNERS; do owners+=(-u "$u"); done
		run_bg "$WORK/spawn-scrape.out" "$OUT/bn-spawn" -p "$pop" -c "$pop" -n "$SCRAPE_NAME" \
			-e 1 -w 500 -f 2 "${owners[@]}"
		sp=$BG_PID
		wait_line "$WORK/spawn-scrape.out" '^ready' 60 "$sp" ||
			{ stop "$sp" TERM 60; echo "pop=$pop skipped=bn-spawn" >>"$WORK/scrape.tsv"; return 1; }
	fi
	if sc_instance "$pop" wq; then
		sc_get >"$b"
		echo "pop=$pop v=set flagged=$(sc_flagged "$b") unlisted=$(sc_metric hotspot_k_processes_unlisted "$b") listed=$(grep -c '^hotspot_k_process_flagged{' "$b") bytes=$(wc -c <"$b") lines=$(wc -l <"$b")" >>"$WORK/scrape.tsv"
		for ((r = 0; r < SCRAPE_ROUNDS; r++)); do
			sc_burst "$pop" "$r"
		done
		for ((r = 0; r < SCRAPE_PAIRS; r++)); do
			sc_pair "$pop" "$r"
		done
		stop "$HK_PID" INT
		[ "$pop" = "${SCRAPE_POPS##* }" ] && [ "$SCRAPE_SLOW" -gt 0 ] && sc_slow "$pop"
	fi
	stop "$sp" TERM 60
}

fig_scrape()
{
	local pop

	log "15. scrape: --metrics-listen at $SCRAPE_POPS flagged, $SCRAPE_ROUNDS x $SCRAPE_N scrapes back to back and $SCRAPE_PAIRS window pairs each"
	: >"$WORK/scrape.tsv"
	: >"$WORK/scrape-lat.txt"
	printf '[mem_thrashing]\nminor_faults_per_s = 1\n' >"$WORK/scrape.conf"
	for pop in $SCRAPE_POPS; do
		over_budget && { echo "pop=$pop skipped=time" >>"$WORK/scrape.tsv"; continue; }
		sc_population "$pop"
	done
	scrape_report
}

# --- the report -------------------------------------------------------------------

# sc_col POP V EXPR: EXPR (awk, over a line's fields) per line of POP and V
sc_col()
{
	awk -v p="$1" -v v="$2" "$KV_FIELDS"'
		f["pop"] != p || f["v"] != v || ("skipped" in f) { next }
		{ print ('"$3"') }' "$WORK/scrape.tsv"
}

# sc_lat POP Q: the Q-quantile (0..1) of the cached scrapes' latency, ms
sc_lat()
{
	awk -v p="$1" '$1 == "lat" && $2 == p { print $3 }' "$WORK/scrape-lat.txt" | sort -n |
		awk -v q="$2" '{ a[NR] = $1 } END { if (!NR) print "nan"; else { i = int(q * NR + 0.999999); if (i < 1) i = 1; print a[i] / 1e6 } }'
}

# mean of the numbers on stdin (one a line; others skipped)
sc_mean()
{
	awk '$1 ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ { s += $1; n++ } END { if (n) print s / n; else print "nan" }'
}

# sc_one POP [ORDER]: a scrape's CPU at one per window, µs: the mean over
# the pairs (the two orders in equal number: the first window of a pair
# costs more, scrape or not), or over those
# of one ORDER (0: the scrape's window first, 1: second)
sc_one()
{
	sc_col "$1" pair "${2:+f[\"round\"] % 2 != $2 ? \"x\" : }$sc_pair_expr" | sc_mean
}

sc_burst_expr='(f["cpu_ns"] - f["idle_ns"]) / f["n"] / 1000'
sc_pair_expr='(f["one_ns"] - f["none_ns"]) / 1000'

scrape_report()
{
	local pop fl li un by one onesp bu busp p50 p99 first top=${SCRAPE_POPS##* } any=0
	local b0 b1 l1 per est_b est_cpu c0 c1 v l sep=""

	section 15-scrape
	say "## 15. --metrics-listen: the cost of a scrape"
	say ""
	say "| flagged (listed / unlisted) | bytes per scrape | tool CPU per scrape, one per window (the text made anew): mean (scrape's window first / second) | back to back (one text per $SCRAPE_N) | latency, back to back: p50 / p99 | the first after a window (makes the text) |"
	say "| --- | --- | --- | --- | --- | --- |"
	for pop in $SCRAPE_POPS; do
		fl=$(sc_col "$pop" set 'f["flagged"]' | head -1)
		if [ -z "$fl" ]; then
			say "| $pop: not measured ($(grep "^pop=$pop skipped" "$WORK/scrape.tsv" | sed 's/.*skipped=//' | head -1)) | | | | | |"
			continue
		fi
		any=$((any + 1))
		li=$(sc_col "$pop" set 'f["listed"]' | head -1)
		un=$(sc_col "$pop" set 'f["unlisted"]' | head -1)
		by=$(sc_col "$pop" set 'f["bytes"]' | head -1)
		one=$(sc_one "$pop")
		onesp="$(fmt %.0f "$(sc_one "$pop" 0)") / $(fmt %.0f "$(sc_one "$pop" 1)")"
		bu=$(sc_col "$pop" burst "$sc_burst_expr" | med)
		busp=$(sc_col "$pop" burst "$sc_burst_expr" | spread %.1f)
		p50=$(sc_lat "$pop" 0.5)
		p99=$(sc_lat "$pop" 0.99)
		first=$(sc_col "$pop" burst 'f["first_ns"] / 1e6' | med)
		say "| $fl ($li / $un) | $by | $(fmt %.0f "$one") µs ($onesp) | $(fmt %.1f "$bu") µs ($busp) | $(fmt %.2f "$p50") / $(fmt %.2f "$p99") ms | $(fmt %.2f "$first") ms |"
	done
	say ""
	# a burst is one text and N serves, a pair's scrape one of each
	say "Apart (per population: served = (back to back × $SCRAPE_N − one per window) ÷ $((SCRAPE_N - 1)), made = one per window − served): $(for pop in $SCRAPE_POPS; do
		one=$(sc_one "$pop")
		bu=$(sc_col "$pop" burst "$sc_burst_expr" | med)
		v=$(calc "($bu * $SCRAPE_N - $one) / ($SCRAPE_N - 1)")
		printf '%s%s flagged: the text made %s µs, a scrape served from it %s µs' "$sep" "$pop" "$(fmt %.0f "$(calc "$one - $v")")" "$(fmt %.0f "$v")"
		sep="; "
	done)."
	say ""
	# the cap: bytes per listed process at 100 (all listed), 1000 listed
	# extrapolated from it, and the CPU at one per window per byte
	b0=$(sc_col 0 set 'f["bytes"]' | head -1)
	b1=$(sc_col 100 set 'f["bytes"]' | head -1)
	l1=$(sc_col 100 set 'f["listed"]' | head -1)
	c0=$(sc_one 0)
	c1=$(sc_one "$top")
	per=$(calc "(${b1:-nan} - ${b0:-nan}) / ${l1:-nan}")
	est_b=$(calc "${b0:-nan} + $top * $per")
	est_cpu=$(calc "$c0 + ($c1 - $c0) * ($est_b - ${b0:-nan}) / ($(sc_col "$top" set 'f["bytes"]' | head -1) - ${b0:-nan})")
	say "The cap: at most 256 processes get series (\`HK_PROM_PROCS_MAX\`, 64 per owner, \`user/output/prom_share.h\`), the rest are counted in \`hotspot_k_processes\` and \`hotspot_k_processes_unlisted\`. A listed process is $(fmt %.0f "$per") bytes of series (at 100, all listed, over 0); $top listed would be ~$(fmt %.0f "$est_b") bytes per scrape, and, at the CPU per byte above, ~$(fmt %.0f "$est_cpu") µs per scrape at one per window (extrapolated, not measured: the build has the cap)."
	say ""
	if [ -n "$(sc_col "$top" alone 'f["cpu_ns"]')" ]; then
		say "| at $top flagged, ${SCRAPE_SLOW} slow clients | tool CPU | walk CPU per window | a fast client's scrapes every 250 ms: answered / closed unanswered (the first answered, ms in) | slow clients: bytes read, closed by the tool | then: connections on the tool's port (by state), bytes in their send queues |"
		say "| --- | --- | --- | --- | --- | --- |"
		for v in alone slow slow1448; do
			case $v in
			alone) l="none" ;;
			slow) l="$SCRAPE_SLOW, each reading 512 bytes a second through a 2 KiB receive buffer" ;;
			*) l="$SCRAPE_SLOW reading 2 KiB every 500 ms, TCP_MAXSEG 1448 (Ethernet's segments)" ;;
			esac
			say "| $l | $(fmt %.1f "$(sc_col "$top" "$v" 'f["cpu_ns"] / f["s"] / 1e6')") ms/s | $(fmt %.2f "$(sc_col "$top" "$v" 'f["windows"] ? f["walk_ns"] / f["windows"] / 1e6 : "nan"')") ms | $(sc_col "$top" "$v" 'f["ok"] " / " f["refused"] " (" f["first_ok_ms"] ")"') | $([ "$v" = alone ] && echo "–" || sc_col "$top" "$v" '("got" in f) ? f["got"] " / " f["closed"] : "n/a"') | $(sc_col "$top" "$v" 'f["conns"] " (" f["states"] "), " f["sendq"]') |"
		done
		say ""
		say "Connections and send queues 1 s in. The tool's counters after the slow clients left: $(sc_col "$top" counters '"refused_total " f["refused_total"] ", dropped_total " f["dropped_total"] ", scrapes_total " f["scrapes_total"]')."
		say ""
	fi
	say "Method: for each population, \`bn-spawn -p N -c N -n $SCRAPE_NAME -e 1 -w 500 -f 2\` with \`-u\` for root and 9 other uids in turn (one owner holds at most a quarter of the listed set): N processes that each wake every 500 ms to fault 2 pages of their own in and drop them (MADV_DONTNEED: faults that no RSS growth explains), and \`hotspot-k -i 1s --json --driver wq --config C --comm $SCRAPE_NAME --metrics-listen 127.0.0.1:PORT\`, C holding \`[mem_thrashing] minor_faults_per_s = 1\` (default 10000), so that all N are flagged mem_thrashing from their second window and nothing else is watched (the figure measures the endpoint: any label makes the same series). Flagged, listed (\`hotspot_k_process_flagged\` series), unlisted and bytes from one scrape once all N were flagged. The client (\`tools/bench/bn_scrape.py\`, Python) scrapes as Prometheus does: a connection per scrape, \`GET /metrics\`, read to the close; latency from connect() to the close, over loopback, the client's own time included. The tool's CPU is its threads' time on a CPU, \`/proc/PID/task/*/schedstat\`'s first field (ns; utime+stime come in 10 ms ticks), summed, read around each part while it runs. One per window (Prometheus at any interval of a window or more: the text goes stale every window): $SCRAPE_PAIRS pairs of windows, one with a scrape at its start and one with none, in turn first, each from just after a window's end (\`bn-bpf stats\` seeing \`windows\` move) to just after the next, so each holds one walk; per scrape = the mean of (with − without) over the pairs, half of them in each order: the first window of a pair costs the tool more whatever it holds (without a scrape: 0 ns when second, ~100–200 µs when first at 0 and 100 flagged; likely the watchdog, which wakes after 3 windows without an event, a pair and the window before it being 3), so the two orders' means, beside it, differ by twice that and the mean takes it out. With \`--driver wq\` (the walk in a kernel worker, outside the tool's threads: a window with no scrape costs them next to nothing); a walk that outgrows a kernel worker's stretch is handed to \`iter\` ($(awk -v t="$top" -F'[ =]' '$2 == t && / v=pair / { n++; i += ($NF == 1) } END { printf "%d of %d pairs at %s flagged", i, n, t }' "$WORK/scrape.tsv") ran under \`iter\`), whose walk is the tool's own read(): then the walk's CPU, hk_stats' \`walk_cpu_ns_total\` read with the tool's at each end, is taken out of both windows of a pair (the walk's ~4-5 ms and its spread would otherwise be in the difference). Back to back: $SCRAPE_ROUNDS rounds of $SCRAPE_N scrapes started just after a window (the first makes the text, the others reuse it), then as long with none just after the next window; per scrape = (with − without) ÷ $SCRAPE_N, median and range over rounds. The latency quantiles are over every scrape but each round's first; the first's median is beside them. Slow clients (at $top flagged only, a new instance with \`--driver iter\` over the same population: the walk is then the loop's own read(), which a stuck loop would delay): 8 s each from just after a window, with none, with $SCRAPE_SLOW clients that each connect with a 2 KiB receive buffer, send the request and then read 512 bytes a second, then as many that set TCP_MAXSEG 1448 before connecting (the segments of a client across Ethernet: over loopback's 64 KiB segments the kernel sizes a send buffer that takes a whole answer at once, over 1448-byte ones a small one: the send queues 1 s in are in the table) and read 2 KiB every 500 ms; meanwhile a fast client scrapes every 250 ms; the walk's CPU per window from hk_stats (\`walk_cpu_ns_total\`, \`windows\`)."
	say ""
	summary "15. scrape" "at $top flagged ($(sc_col "$top" set 'f["listed"]' | head -1) listed, the cap): $(fmt %.0f "$(sc_col "$top" set 'f["bytes"]' | head -1)") bytes and $(fmt %.0f "$c1") µs of the tool's CPU per scrape at one per window ($(fmt %.0f "$c0") µs at 0 flagged), $(fmt %.1f "$(sc_col "$top" burst "$sc_burst_expr" | med)") µs back to back; p99 $(fmt %.2f "$(sc_lat "$top" 0.99)") ms; $SCRAPE_SLOW slow clients: the tool's CPU $(fmt %.1f "$(sc_col "$top" slow 'f["cpu_ns"] / f["s"] / 1e6')") vs $(fmt %.1f "$(sc_col "$top" alone 'f["cpu_ns"] / f["s"] / 1e6')") ms/s, its walk $(fmt %.2f "$(sc_col "$top" slow 'f["walk_ns"] / f["windows"] / 1e6')") vs $(fmt %.2f "$(sc_col "$top" alone 'f["walk_ns"] / f["windows"] / 1e6')") ms per window; over Ethernet-sized segments 8 of them hold every client slot until dropped, the first scrape answered $(fmt %.1f "$(sc_col "$top" slow1448 'f["first_ok_ms"] / 1000')") s in" "report"
	[ "$any" -gt 0 ] || fail scrape "no population was measured"
}
