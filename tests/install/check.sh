#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make install-test: make install and make uninstall into scratch DESTDIRs
# (every file, its mode and content; a config kept, edited or there before;
# uninstall leaves the tree it found), the unit (systemd-analyze verify and
# security), the man pages (no groff warning, every option of --help; what
# they name against the binary: make docs-drift), and
# the installed hotspot-k run the way the unit runs it (tests/install/
# unit-run.sh) with its system calls traced against the unit's filter, and
# what the unit forbids (--profile, io_blocked) said at start.
#   tests/install/check.sh            as root; STATIC=1: the static binary
# Every command has a hard timeout; a run that loads BPF holds
# /tmp/hk-bpf.lock. Prints each check; exits 1 if any failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
. "$here/lib.sh"

[ "$(id -u)" = 0 ] || { echo "install-test: needs root (loads BPF, mounts in its own namespace)" >&2; exit 2; }
for t in systemd-analyze groff man setpriv unshare flock strace sha256sum gzip; do
	command -v "$t" >/dev/null || { echo "install-test: $t missing: tools/deps.sh install" >&2; exit 2; }
done

# the link kind of the last build unless STATIC says, so that building
# here never relinks ./hotspot-k the other way behind make test's back
if [ -z "${STATIC+set}" ]; then
	STATIC=
	[ ! -e build/link.static ] || STATIC=1
fi
MAKE=${MAKE:-make}
mk() {
	timeout -k 5 600 $MAKE --no-print-directory -C "$root" STATIC="$STATIC" "$@"
}

tmp=$(mktemp -d /tmp/hk-install.XXXXXX)
# a mount below /tmp, as another program's would be (a tmpfs an attack test
# left once failed 13 checks here): the unit's PrivateTmp covers it, and
# the unit starts all the same
mkdir "$tmp/submount" && mount -t tmpfs -o size=1m hk-install "$tmp/submount" ||
	{ echo "install-test: cannot mount a tmpfs below /tmp" >&2; exit 1; }
trap 'umount -l "$tmp/submount"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

echo "install-test: building if needed (STATIC=${STATIC:-0})"
mk hotspot-k >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; echo "install-test: build failed" >&2; exit 1; }
tool=./hotspot-k
version=$($tool --version | awk 'NR == 1 { print $2 }')

# --- make install, PREFIX=/usr ----------------------------------------------
d=$tmp/usr-prefix
mkdir "$d"
before=$(tree_list "$d")
mk install DESTDIR="$d" PREFIX=/usr >"$tmp/install.out" 2>&1
check "make install DESTDIR=... PREFIX=/usr exits 0" test $? = 0 || cat "$tmp/install.out"
conf=$d/etc/hotspot-k/hotspot-k.conf
unit=$d/usr/lib/systemd/system/hotspot-k.service
bin=$d/usr/sbin/hotspot-k

expect="etc/hotspot-k/hotspot-k.conf 0644
usr/lib/systemd/catalog/hotspot-k.catalog 0644
usr/lib/systemd/system/hotspot-k.service 0644
usr/sbin/hotspot-k 0755
usr/share/bash-completion/completions/hotspot-k 0644
usr/share/hotspot-k/install.manifest 0644
usr/share/man/man5/hotspot-k.conf.5.gz 0644
usr/share/man/man8/hotspot-k.8.gz 0644
usr/share/zsh/site-functions/_hotspot-k 0644"
got=$(cd "$d" && find . -type f -printf '%P 0%m\n' | LC_ALL=C sort)
check_eq "exactly these files and modes: $(echo "$expect" | tr '\n' ',' | sed 's/,/, /g; s/, $//')" "$expect" "$got"
check "every directory created is 0755" \
	test -z "$(cd "$d" && find . -mindepth 1 -type d ! -perm 0755)"
check "the binary is ./hotspot-k" cmp -s "$tool" "$bin"
gzip -dc "$d/usr/share/man/man8/hotspot-k.8.gz" > "$tmp/man.installed"
grep -v '^\.TH ' man/hotspot-k.8 > "$tmp/man.src"
check "the man page is man/hotspot-k.8, gzip'd" \
	sh -c "grep -v '^\.TH ' '$tmp/man.installed' | cmp -s - '$tmp/man.src'"
check "... its .TH says hotspot-k $version" grep -q "^\.TH .*\"hotspot-k $version\"" "$tmp/man.installed"
gzip -dc "$d/usr/share/man/man5/hotspot-k.conf.5.gz" > "$tmp/man5.installed"
grep -v '^\.TH ' man/hotspot-k.conf.5 > "$tmp/man5.src"
check "hotspot-k.conf(5) is man/hotspot-k.conf.5, gzip'd, its .TH saying hotspot-k $version" \
	sh -c "grep -v '^\.TH ' '$tmp/man5.installed' | cmp -s - '$tmp/man5.src' &&
		grep -q '^\.TH .*\"hotspot-k $version\"' '$tmp/man5.installed'"
$tool --generate-config > "$tmp/default.conf"
check "the config is what --generate-config prints" cmp -s "$tmp/default.conf" "$conf"
check "the installed binary passes the config: --check-config" \
	sh -c "timeout 10 '$bin' --check-config '$conf' | grep -qx '$conf: ok'"
check "the completions are dist/completion's" sh -c "cmp -s dist/completion/hotspot-k.bash \
	'$d/usr/share/bash-completion/completions/hotspot-k' && cmp -s dist/completion/_hotspot-k \
	'$d/usr/share/zsh/site-functions/_hotspot-k'"
# bash -n, and the installed bash completion against every command's --help
bash "$here/completion.sh" "$tool" "$d/usr/share/bash-completion/completions/hotspot-k" \
	"$d/usr/share/zsh/site-functions/_hotspot-k" > "$tmp/completion.out" 2>&1
rc=$?
sed 's/^  PASS     /           /; s/^  FAIL     /           FAIL /' "$tmp/completion.out"
check "the completions: bash -n, each command's options as its --help, values" test $rc = 0
# (journalctl takes it: make journal-catalog-test)
check "the journal's catalog is dist/hotspot-k.catalog" \
	cmp -s dist/hotspot-k.catalog "$d/usr/lib/systemd/catalog/hotspot-k.catalog"
check "the unit has every @PLACEHOLDER@ filled" sh -c "! grep -q '@[A-Z_]*@' '$unit'"
check_eq "the unit's ExecStart runs the installed binary on the installed config" \
	"ExecStart=/usr/sbin/hotspot-k --config /etc/hotspot-k/hotspot-k.conf" \
	"$(grep '^ExecStart=' "$unit")"
check "both exist under DESTDIR" test -x "$d/usr/sbin/hotspot-k" -a -f "$d/etc/hotspot-k/hotspot-k.conf"

# systemd-analyze reads the real paths: the installed sbin is mounted over
# /usr/sbin in a mount namespace of its own, the man page found by MANPATH
verify_out=$(timeout 60 unshare --mount -- sh -c "mount --bind '$d/usr/sbin' /usr/sbin &&
	MANPATH='$d/usr/share/man' systemd-analyze verify '$unit'" 2>&1)
check "systemd-analyze verify: exit 0, no message" test $? = 0 -a -z "$verify_out" ||
	echo "$verify_out" | sed 's/^/           /'
sec=$(timeout 60 unshare --mount -- sh -c "mount --bind '$d/usr/sbin' /usr/sbin &&
	systemd-analyze security --offline=yes --threshold=20 '$unit'" 2>&1)
rc=$?
check "systemd-analyze security --offline: exposure at most 2.0 (now $(echo "$sec" |
	sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'))" test $rc = 0 ||
	echo "$sec" | grep '✗' | sed 's/^/           /'

# --- the unit's way of running it -------------------------------------------
run_as_unit "$d" "$bin" "$conf"
check_syscalls "$d" "$bin" "$conf" "$unit"
check_hup_at_start "$bin" "$conf"
check_unit_says "$d" "$bin" "$conf" "$unit"

# --- a second install; then uninstall ----------------------------------------
mk install DESTDIR="$d" PREFIX=/usr >"$tmp/install2.out" 2>&1
rc=$?
check "a second install exits 0 and says it kept the config" \
	sh -c "[ $rc = 0 ] && grep -q 'kept $conf' '$tmp/install2.out'" || cat "$tmp/install2.out"
check "... which is unchanged" cmp -s "$tmp/default.conf" "$conf"
mk uninstall DESTDIR="$d" PREFIX=/usr >"$tmp/uninstall.out" 2>&1
check "make uninstall exits 0" test $? = 0 || cat "$tmp/uninstall.out"
check_eq "make uninstall leaves the tree that was there before (empty)" "$before" "$(tree_list "$d")"
mk uninstall DESTDIR="$d" PREFIX=/usr >"$tmp/uninstall2.out" 2>&1
check "a second uninstall has nothing to do, exits 0" grep -q "nothing to do" "$tmp/uninstall2.out"

# --- an edited config is kept ------------------------------------------------
mk install DESTDIR="$d" PREFIX=/usr >/dev/null 2>&1
sed -i 's/^interval = 5s$/interval = 2s/' "$conf"
cp "$conf" "$tmp/edited.conf"
mk install DESTDIR="$d" PREFIX=/usr >"$tmp/install3.out" 2>&1
check "install over an edited config says it kept it, and keeps it" \
	sh -c "grep -q 'kept $conf' '$tmp/install3.out' && cmp -s '$tmp/edited.conf' '$conf'"
mk uninstall DESTDIR="$d" PREFIX=/usr >"$tmp/uninstall3.out" 2>&1
check "uninstall keeps the edited config, and says so" \
	sh -c "grep -q 'kept $conf: changed' '$tmp/uninstall3.out' && cmp -s '$tmp/edited.conf' '$conf'"
check_eq "... and removes everything else" \
	"$(printf 'd 755 ./etc\nd 755 ./etc/hotspot-k\nf 644 ./etc/hotspot-k/hotspot-k.conf %s' \
		"$(sha256sum < "$tmp/edited.conf" | cut -c1-16)")" "$(tree_list "$d")"

# --- a config that was there before install (an invalid one) ----------------
d=$tmp/existing
mkdir -p "$d/etc/hotspot-k" "$d/usr/sbin"
printf '# the admin'"'"'s\n[general]\nintervall = 10s\n' > "$d/etc/hotspot-k/hotspot-k.conf"
echo other > "$d/usr/sbin/other-tool"
chmod 0600 "$d/etc/hotspot-k/hotspot-k.conf"
before=$(tree_list "$d")
mk install DESTDIR="$d" PREFIX=/usr >"$tmp/install4.out" 2>&1
rc=$?
check "install over a config that was there exits 0 and says it kept it" \
	sh -c "[ $rc = 0 ] && grep -q 'kept $d/etc/hotspot-k/hotspot-k.conf' '$tmp/install4.out'" ||
	cat "$tmp/install4.out"
check "... and warns that it does not pass --check-config" \
	grep -q 'does not pass hotspot-k --check-config' "$tmp/install4.out"
mk uninstall DESTDIR="$d" PREFIX=/usr >"$tmp/uninstall4.out" 2>&1
check_eq "uninstall leaves exactly the tree that was there (config, its mode, usr/sbin/other-tool)" \
	"$before" "$(tree_list "$d")"

# --- the default PREFIX --------------------------------------------------------
d=$tmp/default-prefix
mkdir "$d"
mk install DESTDIR="$d" >/dev/null 2>&1
check "PREFIX=/usr/local: sbin, share/man/man8 and man5, lib/systemd/system and catalog, the completions under it, config in /etc" \
	test -x "$d/usr/local/sbin/hotspot-k" -a -f "$d/usr/local/share/man/man8/hotspot-k.8.gz" \
	-a -f "$d/usr/local/lib/systemd/catalog/hotspot-k.catalog" \
	-a -f "$d/usr/local/share/man/man5/hotspot-k.conf.5.gz" \
	-a -f "$d/usr/local/share/bash-completion/completions/hotspot-k" \
	-a -f "$d/usr/local/share/zsh/site-functions/_hotspot-k" \
	-a -f "$d/usr/local/lib/systemd/system/hotspot-k.service" -a -f "$d/etc/hotspot-k/hotspot-k.conf"
check "... and the unit runs /usr/local/sbin/hotspot-k" \
	grep -qx 'ExecStart=/usr/local/sbin/hotspot-k --config /etc/hotspot-k/hotspot-k.conf' \
	"$d/usr/local/lib/systemd/system/hotspot-k.service"
check "/usr/local/lib/systemd/system is in systemd's unit path" \
	sh -c "systemd-analyze unit-paths 2>/dev/null | grep -qx /usr/local/lib/systemd/system"
mk uninstall DESTDIR="$d" >/dev/null 2>&1
check "... and uninstall empties it" test -z "$(ls -A "$d")"

# --- the man pages ---------------------------------------------------------------
check_man man/hotspot-k.8
check_man_warnings man/hotspot-k.conf.5

finish
