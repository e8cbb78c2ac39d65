# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_7_mem.sh - figure 7, bytes of every hotspot-k map at the default
# sizes; mem_section serves figure 4 too, which reads them from its own
# process. Sourced by run.sh (it uses lib.sh's helpers).

# mem_section PID: every BPF map the hotspot-k with that PID holds
mem_section()
{
	local pid=$1 f id line total=0 name type max bytes rows=""

	for f in /proc/"$pid"/fdinfo/*; do
		id=$(awk '/^map_id:/ { print $2 }' "$f" 2>/dev/null)
		[ -n "$id" ] || continue
		line=$(bpftool map show id "$id" -j 2>/dev/null | tr -d '{}')
		name=$(sed -n 's/.*"name":"\([^"]*\)".*/\1/p' <<<"$line")
		type=$(sed -n 's/.*"type":"\([^"]*\)".*/\1/p' <<<"$line")
		max=$(sed -n 's/.*"max_entries":\([0-9]*\).*/\1/p' <<<"$line")
		bytes=$(sed -n 's/.*"bytes_memlock":\([0-9]*\).*/\1/p' <<<"$line")
		[ -n "$bytes" ] || continue
		total=$((total + bytes))
		rows+="| $name | $type | $max | $bytes | $(fmt %.2f "$(calc "$bytes / 1048576")") |"$'\n'
	done
	section 7-mem
	say "## 7. Kernel memory at the default sizes"
	say ""
	say "| map | type | max_entries | bytes_memlock | MiB |"
	say "| --- | --- | --- | --- | --- |"
	printf '%s' "$rows" | sort -t'|' -k5,5nr >>"$SECTION"
	say "| **all maps** | | | **$total** | **$(fmt %.2f "$(calc "$total / 1048576")")** |"
	summary "7. kernel memory" "$(fmt %.1f "$(calc "$total / 1048576")") MiB in all maps at the default sizes ($(fmt %.1f "$(calc "$(grep -F '| hk_procs |' <<<"$rows" | cut -d'|' -f5) / 1048576")") MiB of it hk_procs, $(grep -F '| hk_procs |' <<<"$rows" | cut -d'|' -f4 | tr -d ' ') entries), + task storage per thread" "–"
	say ""
	say "Method: the map ids of one hotspot-k process started with the defaults (hk_procs sized by the tool: 4 × the processes running at start, 4096..65536), from its own fds in /proc/PID/fdinfo, each read with \`bpftool map show id N -j\` (\`bytes_memlock\`). Not in these bytes: hk_tasks is task storage, allocated per thread on demand (a 40-byte value plus the kernel's per-element and per-task headers, on the order of 150–200 bytes per thread: ~15–20 MiB at 100 k threads)."
	say ""
	[ "$total" -gt 0 ] || fail mem "no map found"
}

fig_mem()
{
	log "7. kernel memory"
	hk_start "$WORK/hk-mem.log" --json || { fail mem "hotspot-k did not start"; return; }
	mem_section "$HK_PID"
	stop "$HK_PID"
}
