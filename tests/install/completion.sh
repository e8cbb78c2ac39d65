#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# tests/install/completion.sh TOOL BASH_COMPLETION [ZSH_COMPLETION]: the
# completions cannot drift from the binary. bash's function is called as
# bash-completion calls it (COMP_WORDS, COMP_CWORD -> COMPREPLY): for each
# command, `--` offers exactly the long options its --help defines; the
# commands are those the binary lists; values complete. zsh's file (when
# zsh is installed: parsed by zsh -n) names every one of those options.
# Prints one line per check; exits 1 if any failed.
set -u
tool=$1 bashf=$2 zshf=${3:-}
failed=0 n=0
ok() { n=$((n + 1)); echo "  PASS     completion: $1"; }
bad() { n=$((n + 1)); failed=$((failed + 1)); echo "  FAIL     completion: $1"; }

# the long options an --help defines: the option column of its lines that
# start with an option (the text before two spaces), never a description
help_opts() {
	"$tool" "$@" --help | sed -n 's/^ \{1,\}\(-[-a-zA-Z]\)/\1/p' | sed 's/   *.*//' |
		grep -o -- '--[a-z][a-z-]*' | { cat; echo --help; } | LC_ALL=C sort -u
}

# COMPREPLY for the words given, the last one being completed
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_hotspot_k
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort -u
}

if bash -n "$bashf"; then ok "bash -n $bashf"; else bad "bash -n $bashf"; fi
# shellcheck disable=SC1090
. "$bashf" || bad "sourcing $bashf"
if complete -p hotspot-k 2>/dev/null | grep -q -- '-F _hotspot_k'; then
	ok "complete -F _hotspot_k hotspot-k is registered"
else
	bad "no complete -F _hotspot_k hotspot-k"
fi

cmds=$("$tool" nOpE 2>&1 | sed -n 's/.*(commands: \([^)]*\)).*/\1/p' | tr -d ',' | tr ' ' '\n' |
	LC_ALL=C sort)
got=$(complete_words hotspot-k '')
if [ -n "$cmds" ] && [ "$got" = "$cmds" ]; then
	ok "the first word offers the commands the binary lists ($(echo $cmds))"
else
	bad "the first word offers [$(echo $got)], the binary lists [$(echo $cmds)]"
fi
for c in run $cmds; do
	[ "$c" = help ] && continue
	if [ "$c" = run ]; then want=$(help_opts); got=$(complete_words hotspot-k --)
	else want=$(help_opts "$c"); got=$(complete_words hotspot-k "$c" --); fi
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "$c: -- offers exactly the $(echo "$want" | wc -l) long options of its --help"
	else
		bad "$c: -- offers [$(echo $got)], its --help defines [$(echo $want)]"
	fi
	if [ -n "$zshf" ]; then
		miss=
		for o in $want; do
			grep -qE -- "$o([^a-z-]|\$)" "$zshf" || miss="$miss $o"
		done
		if [ -z "$miss" ]; then ok "$c: every option is in $zshf"
		else bad "$c: not in $zshf:$miss"; fi
	fi
done

check_values() {
	want=$1
	shift
	got=$(complete_words "$@" | tr '\n' ' ')
	if [ "$got" = "$want" ]; then ok "$* -> $want"; else bad "$* -> [$got], want [$want]"; fi
}
check_values "iter timer wq " hotspot-k --driver ''
check_values "status " hotspot-k st
check_values "thaw " hotspot-k help th
check_values "--help --json --utc " hotspot-k follow --
check_values "/etc/hostname " hotspot-k --config /etc/hostnam
check_values "none " hotspot-k --never-freeze no
# this shell's PID among the PIDs offered
if complete_words hotspot-k profile "$$" | grep -qx "$$"; then ok "profile PID offers PIDs"
else bad "profile $$: its PID is not offered"; fi
[ ! -d /sys/fs/cgroup/init.scope ] || check_values "/init.scope/ " hotspot-k --cgroup /init.sc

if [ -n "$zshf" ]; then
	# tools/deps.sh install puts zsh there: without it this check fails
	if zsh -n "$zshf"; then ok "zsh -n $zshf"; else bad "zsh -n $zshf"; fi
fi
echo "completion: $n checks, $failed failed"
[ "$failed" = 0 ]
