# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# tests/install/check.sh's helpers: checks, tree listings, the unit's way of
# running hotspot-k, its system calls against the unit's filter, the man page.
# Sourced; uses $tmp, $here and $tool from check.sh.

LOCK=/tmp/hk-bpf.lock
nchecks=0
nfailed=0

# check DESC CMD...: run CMD, say PASS or FAIL; CMD's truth
check() {
	desc=$1
	shift
	nchecks=$((nchecks + 1))
	if "$@"; then
		echo "  PASS     $desc"
		return 0
	fi
	nfailed=$((nfailed + 1))
	echo "  FAIL     $desc"
	return 1
}

# check_eq DESC EXPECTED ACTUAL: the difference when they differ
check_eq() {
	check "$1" test "$2" = "$3" && return 0
	printf '%s\n' "$2" > "$tmp/expected"
	printf '%s\n' "$3" > "$tmp/actual"
	diff -u "$tmp/expected" "$tmp/actual" | tail -n +3 | sed 's/^/           /'
	return 1
}

# indent FILE: what a failed run printed
indent() {
	tail -n 20 "$1" | sed 's/^/           /'
}

finish() {
	echo "install-test: $nchecks checks, $nfailed failed"
	[ "$nfailed" = 0 ]
}

# tree_list DIR: every entry under DIR, its type and mode, and what a file
# holds (the start of its sha256), sorted
tree_list() {
	(cd "$1" && find . -mindepth 1 -printf '%y %m %p\n' | LC_ALL=C sort |
		while read -r y m p; do
			if [ "$y" = f ]; then
				echo "$y $m $p $(sha256sum < "$p" | cut -c1-16)"
			else
				echo "$y $m $p"
			fi
		done)
}

# run_as_unit DESTDIR BIN CONF: BIN as the unit starts it, stdout being the
# "journal": JOURNAL_STREAM names it, as systemd does. A busy loop beside it
# (started under the lock, so that it never disturbs another test's run)
# makes a transition, and so a priority to check, likely within 3 s.
run_as_unit() {
	out=$tmp/run.out
	err=$tmp/run.err
	: > "$out"
	flock -w 1200 "$LOCK" sh -c '
		timeout 20 sh -c "while :; do :; done" &
		b=$!
		timeout -k 5 60 "$@"
		rc=$?
		kill "$b"
		wait "$b" 2>/dev/null
		exit $rc' sh "$here/unit-run.sh" --keep "$1" -- \
		env JOURNAL_STREAM="$(stat -c %d:%i "$out")" \
		"$2" --config "$3" --duration 3s -i 1s >>"$out" 2>"$err"
	rc=$?
	check "run as the unit runs it (bounding set CAP_BPF CAP_PERFMON, no new privileges, every mount read-only, private /tmp, network, IPC), --duration 3s -i 1s: exit 0" \
		test $rc = 0 || indent "$err"
	check "... it printed its summary" grep -q '^hotspot-k: [0-9]* windows, ' "$err" || indent "$err"
	# no CAP_SYS_ADMIN for BPF_ENABLE_STATS: its programs' runs counted and
	# costed at the bench's ns per run, said as an estimate (measured if
	# the admin set kernel.bpf_stats_enabled)
	check "... its own cost, estimated (no CAP_SYS_ADMIN for BPF_ENABLE_STATS)" \
		grep -Eq '^hotspot-k: own cost .*; (estimated: runs counted x ns per run in make bench|measured: kernel.bpf_stats_enabled)\)' \
		"$err" || indent "$err"
	if [ ! -s "$out" ]; then
		echo "  NOTE     no transition within 3 s: the journal priorities were not seen"
		return
	fi
	# the label after the arrow: <4> into an alarm, <5> CPU-bound, <6> the rest
	bad=$(awk '{
		to = $0
		sub(/^.*\342\206\222 /, "", to)
		sub(/  .*/, "", to)
		want = to == "CPU-bound" ? "<5>" : (to == "OK" || to == "exited") ? "<6>" : "<4>"
		if (substr($0, 1, 3) != want)
			print
	}' "$out")
	check "... each of its $(wc -l < "$out") transition lines starts with its journal priority (<4> alarm, <5> CPU-bound, <6> OK or exited)" \
		test -z "$bad" || echo "$bad" | sed 's/^/           /'
}

# allowed_calls UNIT: the system calls its SystemCallFilter= lines allow
# (an allow list first, then ~ lines take groups out, later ones add back)
allowed_calls() {
	systemd-analyze syscall-filter 2>/dev/null > "$tmp/groups"
	awk '
	function apply(name, deny,   n, i, t) {
		if (name ~ /^@/) {
			n = split(members[name], t, " ")
			for (i = 1; i <= n; i++)
				apply(t[i], deny)
		} else if (deny) {
			delete set[name]
		} else {
			set[name] = 1
		}
	}
	NR == FNR {
		if ($0 ~ /^@/) { g = $1; next }
		if (NF && $1 !~ /^#/ && g != "") members[g] = members[g] " " $1
		next
	}
	/^SystemCallFilter=/ {
		v = substr($0, 18)
		deny = sub(/^~/, "", v)
		if (!lines++ && deny) { print "deny-list-first"; exit 1 }
		n = split(v, t, " ")
		for (i = 1; i <= n; i++)
			apply(t[i], deny)
	}
	END { for (s in set) print s }' "$tmp/groups" "$1" | LC_ALL=C sort
}

# after_exec LOG BIN: the lines of an strace -f log that BIN made, from its
# execve on: its process and those it cloned, not the wrappers around it
after_exec() {
	awk -v bin="$2" '
	{ pid = $1 }
	pid in ours {
		print
		if ($0 ~ /^[0-9]+ +(clone|clone3|fork|vfork)\(/ && $NF ~ /^[0-9]+$/)
			ours[$NF] = 1
	}
	index($0, "execve(\"" bin "\"") && / = 0$/ { ours[pid] = 1 }' "$1"
}

# calls_made LOG BIN: the system calls in after_exec's lines
calls_made() {
	after_exec "$1" "$2" | awk 'match($0, /^[0-9]+ +[a-z0-9_]+\(/) {
		s = substr($0, RSTART, RLENGTH)
		sub(/^[0-9]+ +/, "", s)
		sub(/\($/, "", s)
		print s
	}' | LC_ALL=C sort -u
}

# started_pid PIDFILE JOB UNTIL...: once JOB wrote its PID to PIDFILE and
# the command UNTIL... succeeds (0.1 s apart, 60 s at most, while JOB
# lives), that PID; nothing (status 1) otherwise
started_pid() {
	s_file=$1 s_job=$2
	shift 2
	s_n=0
	while [ "$s_n" -lt 600 ] && kill -0 "$s_job" 2>/dev/null; do
		if [ -s "$s_file" ] && "$@"; then
			cat "$s_file"
			return 0
		fi
		sleep 0.1
		s_n=$((s_n + 1))
	done
	return 1
}

# check_syscalls DESTDIR BIN CONF UNIT: BIN traced as the unit runs it (the
# default driver with a SIGHUP once it runs, the iter driver with a cgroup
# filter, --check-config as ExecReload runs it), every call against the
# unit's SystemCallFilter, and what the other seccomp settings forbid
check_syscalls() {
	d=$1 bin=$2 conf=$3 unit=$4
	# The SIGHUP once it says it diagnoses: sent at a fixed 1.5 s, it
	# found unit-run.sh still mounting (under strace -f, beside make
	# test's guests) and ended that shell. The PID is the tool's: sh,
	# unit-run.sh, unshare and setpriv each exec the next.
	: >"$tmp/hup.pid"
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	flock -w 1200 "$LOCK" timeout -k 5 90 strace -f -qq -o "$tmp/strace.hup" \
		sh -c 'echo $$ >"$1" && shift && exec "$@"' sh "$tmp/hup.pid" \
		"$here/unit-run.sh" --keep "$d" -- "$bin" --config "$conf" --duration 4s -i 1s \
		>"$tmp/hup.out" 2>"$tmp/hup.err" &
	job=$!
	pid=$(started_pid "$tmp/hup.pid" "$job" grep -q 'diagnosing every' "$tmp/hup.err") &&
		kill -HUP "$pid"
	wait "$job"
	check "traced as the unit runs it, SIGHUP once it runs: exit 0" test $? = 0 || indent "$tmp/hup.err"
	check "... the SIGHUP reloaded the config" grep -q '^hotspot-k: reload: ' "$tmp/hup.err" ||
		indent "$tmp/hup.err"
	flock -w 1200 "$LOCK" timeout -k 5 60 strace -f -qq -o "$tmp/strace.iter" \
		"$here/unit-run.sh" --keep "$d" -- "$bin" --config "$conf" --driver iter --cgroup / \
		--duration 2s -i 1s >"$tmp/iter.out" 2>"$tmp/iter.err"
	check "traced as the unit runs it, --driver iter --cgroup /: exit 0" test $? = 0 ||
		indent "$tmp/iter.err"
	timeout -k 5 30 strace -f -qq -o "$tmp/strace.check" \
		"$here/unit-run.sh" --keep "$d" -- "$bin" --check-config "$conf" >/dev/null 2>"$tmp/check.err"
	check "traced as ExecReload runs it, --check-config: exit 0" test $? = 0 || indent "$tmp/check.err"

	allowed_calls "$unit" > "$tmp/allowed"
	: > "$tmp/made"
	: > "$tmp/traced"
	for log in "$tmp/strace.hup" "$tmp/strace.iter" "$tmp/strace.check"; do
		calls_made "$log" "$bin" >> "$tmp/made"
		after_exec "$log" "$bin" >> "$tmp/traced"
	done
	LC_ALL=C sort -u -o "$tmp/made" "$tmp/made"
	outside=$(LC_ALL=C comm -23 "$tmp/made" "$tmp/allowed" | tr '\n' ' ')
	check "every system call it made ($(wc -l < "$tmp/made") different ones) is in the unit's SystemCallFilter ($(wc -l < "$tmp/allowed") calls)" \
		test -s "$tmp/allowed" -a -s "$tmp/made" -a -z "$outside" ||
		echo "           outside the filter: $outside"
	echo "           made: $(tr '\n' ' ' < "$tmp/made")"
	check "MemoryDenyWriteExecute: no mapping both writable and executable" \
		sh -c "! grep -E '(mmap|mprotect)\\(.*PROT_WRITE.*PROT_EXEC|(mmap|mprotect)\\(.*PROT_EXEC.*PROT_WRITE' '$tmp/traced'"
	check "RestrictAddressFamilies=AF_UNIX: no other socket" \
		sh -c "! grep -E '(socket|socketpair)\\(' '$tmp/traced' | grep -v 'AF_UNIX'"
	check "RestrictNamespaces: no namespace created or joined" \
		sh -c "! grep -E '^[0-9]+ +(unshare|setns)\\(|CLONE_NEW' '$tmp/traced'"
}

# long_options: every --option hotspot-k's help and its commands' print
long_options() {
	{
		timeout 10 "$tool" --help
		for c in status follow unpin; do
			timeout 10 "$tool" "$c" --help 2>/dev/null
		done
	} | grep -o -- '--[a-z][a-z-]*' | LC_ALL=C sort -u
}

# check_man_warnings PAGE: groff and man say nothing of it
check_man_warnings() {
	w=$(groff -man -Tutf8 -ww -z "$1" 2>&1)
	check "$1: groff -man -Tutf8 -ww -z: no warning" test -z "$w" || echo "$w" | sed 's/^/           /'
	w=
	for loc in C.UTF-8 C; do
		for width in 80 100; do
			m=$(LC_ALL=$loc MANWIDTH=$width timeout 30 man --warnings -l "$1" 2>&1 >/dev/null)
			[ -z "$m" ] || w="$w${w:+
}$loc, $width columns: $m"
		done
	done
	check "$1: man --warnings -l, 80 and 100 columns, UTF-8 and ASCII: no warning" test -z "$w" ||
		echo "$w" | sed 's/^/           /'
}

# check_man PAGE: check_man_warnings, and every option is documented
check_man() {
	check_man_warnings "$1"
	groff -man -Tascii -P-cbou -rLL=200n "$1" 2>/dev/null > "$tmp/man.txt"
	opts=$(long_options)
	missing=
	for o in $opts; do
		grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$tmp/man.txt" || missing="$missing $o"
	done
	check "every long option $tool --help prints is in the man page ($(echo $opts | wc -w) options)" \
		test -n "$opts" -a -z "$missing" || echo "           missing:$missing"
	# the other way round, for the record: flags documented ahead of the code
	ahead=
	for o in $(sed -n '/^OPTIONS/,/^CONFIGURATION/p' "$tmp/man.txt" |
		grep -oE -- '--[a-z][a-z-]*' | LC_ALL=C sort -u); do
		echo "$opts" | grep -qx -- "$o" || ahead="$ahead $o"
	done
	[ -z "$ahead" ] || echo "  NOTE     in the man page, not in any --help:$ahead"
}

# check_hup_at_start BIN CONF: `systemctl reload` of a Type=simple unit may
# come while the tool still reads its config: strace holds that openat 3 s
# and the SIGHUP comes then. It must wait for the loop (a reload), not end
# the process (it did: killed by SIGHUP, status 129)
check_hup_at_start() {
	bin=$1 conf=$2
	: >"$tmp/early.pid"
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	flock -w 1200 "$LOCK" timeout -k 5 60 strace -qq -o /dev/null -P "$conf" \
		-e trace=openat -e inject=openat:delay_exit=3000000:when=1 \
		sh -c 'echo $$ >"$1" && shift && exec "$@"' sh "$tmp/early.pid" \
		"$bin" --config "$conf" --duration 2s -i 1s >"$tmp/early.out" 2>"$tmp/early.err" &
	job=$!
	pid=$(started_pid "$tmp/early.pid" "$job" config_open "$tmp/early.pid" "$conf") &&
		kill -HUP "$pid"
	wait "$job"
	st=$?
	check "a SIGHUP while it opens its config (held 3 s): exit 0 (now $st)" test "$st" = 0 &&
		check "... a reload once it runs" grep -q '^hotspot-k: reload: ' "$tmp/early.err" ||
		indent "$tmp/early.err"
}

# config_open PIDFILE CONF: the process has CONF open
config_open() {
	for f in /proc/"$(cat "$1")"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}

# check_unit_says DESTDIR BIN CONF UNIT: what the unit forbids is said at
# start, in one line each (io_blocked, --profile, a profile directory in its
# private /var/tmp); the drop-in its comments give for --profile is valid
# and, with the capabilities it adds, the profile's line is gone; and the
# unit keeps its state directory and rate-limits its lines only far above
# what the tool's own per-user limit lets through
check_unit_says() {
	d=$1 bin=$2 conf=$3 unit=$4
	for want in RuntimeDirectory=hotspot-k RuntimeDirectoryMode=0700 \
		RuntimeDirectoryPreserve=yes LogRateLimitIntervalSec=30s \
		LogRateLimitBurst=20000; do
		check "the unit sets $want" grep -qx "$want" "$unit"
	done
	# delay accounting off for this run, as a fresh host has it: the unit
	# cannot turn it on, and must say so
	da=$(cat /proc/sys/kernel/task_delayacct 2>/dev/null)
	[ -z "$da" ] || echo 0 > /proc/sys/kernel/task_delayacct
	flock -w 1200 "$LOCK" timeout -k 5 60 "$here/unit-run.sh" --keep "$d" -- "$bin" \
		--config "$conf" --profile 1s --profile-dir /var/tmp --duration 2s -i 1s \
		>"$tmp/prof.out" 2>"$tmp/prof.err"
	rc=$?
	[ -z "$da" ] || echo "$da" > /proc/sys/kernel/task_delayacct
	check "run as the unit runs it, --profile 1s --profile-dir /var/tmp: exit 0" \
		test $rc = 0 || indent "$tmp/prof.err"
	check "... one line says --profile will fail: no CAP_SYS_PTRACE" \
		test "$(grep -c '^hotspot-k: --profile will fail: no CAP_SYS_PTRACE' "$tmp/prof.err")" = 1 ||
		indent "$tmp/prof.err"
	check "... one line says /var/tmp is the unit's own (PrivateTmp=yes)" \
		test "$(grep -c '^hotspot-k: --profile-dir /var/tmp is in this service.s own /var/tmp (PrivateTmp=yes)' "$tmp/prof.err")" = 1 ||
		indent "$tmp/prof.err"
	if [ -n "$da" ]; then
		check "... one line says delay accounting is off, sampled instead (kernel.task_delayacct 0, read-only there)" \
			test "$(grep -c '^hotspot-k: delay accounting off: .*Read-only file system.*sampled' "$tmp/prof.err")" = 1 ||
			indent "$tmp/prof.err"
	else
		echo "  NOTE     no kernel.task_delayacct on this kernel: the io_blocked line was not checked"
	fi
	# the drop-in, as the unit's comments give it
	mkdir -p "$unit.d"
	sed -n '/^#   \[Service\]$/,/^#   ExecStart=\//s/^#   //p' "$unit" > "$unit.d/profile.conf"
	check "the unit's --profile drop-in: 6 lines, [Service] to ExecStart=" \
		test "$(wc -l < "$unit.d/profile.conf")" = 6 || sed 's/^/           /' "$unit.d/profile.conf"
	verify_out=$(timeout 60 unshare --mount -- sh -c "mount --bind '$d/usr/sbin' /usr/sbin &&
		MANPATH='$d/usr/share/man' systemd-analyze verify '$unit'" 2>&1)
	check "... systemd-analyze verify with it: exit 0, no message" test $? = 0 -a -z "$verify_out" ||
		echo "$verify_out" | sed 's/^/           /'
	flock -w 1200 "$LOCK" timeout -k 5 60 "$here/unit-run.sh" --caps +sys_ptrace,+syslog \
		--keep "$d" -- "$bin" --config "$conf" --profile 1s --profile-dir /var/tmp \
		--duration 2s -i 1s >"$tmp/prof2.out" 2>"$tmp/prof2.err"
	check "... with its capabilities (+CAP_SYS_PTRACE +CAP_SYSLOG): exit 0, and no --profile line" \
		sh -c "[ $? = 0 ] && ! grep -q '^hotspot-k: --profile ' '$tmp/prof2.err'" ||
		indent "$tmp/prof2.err"
	rm -rf "$unit.d"
}
