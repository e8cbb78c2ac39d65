# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# kernels.sh - Debian's kernel packages, fetched once into a cache: sourced
# by vmtest.sh (the guests' kernels) and tools/cross/kernel_btf.sh (the BTF
# a cross build's vmlinux.h is written from). Bash; the includer sets
# `cache` (a directory) and defines die().
#
# A series names a kernel and its architecture: 6.1, 6.12 and node (the
# 6.12 booted as a node), 6.1-rt and 6.12-rt (Debian's PREEMPT_RT builds of
# them) are amd64; arm64-6.1 and arm64-6.12 are arm64.

# milliseconds, from bash's microsecond clock
now_ms()
{
	local t=${EPOCHREALTIME/./}
	echo $((10#$t / 1000))
}

# seconds with one decimal from milliseconds
fmt_s()
{
	printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100))
}

# --- apt -----------------------------------------------------------------------
apt_lists_empty()
{
	! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null
}

apt_update()
{
	[ "$(id -u)" = 0 ] || die "apt lists are missing or stale and only root can update them"
	echo "${0##*/}: apt-get update"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
}

# --- kernels ---------------------------------------------------------------
series_regex()
{
	case $1 in
	6.1) echo '^linux-image-6\.1\.0-[0-9]+-cloud-amd64$' ;;
	6.12 | node) echo '^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64$' ;;
	6.1-rt) echo '^linux-image-6\.1\.0-[0-9]+-rt-amd64$' ;;
	6.12-rt) echo '^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64$' ;;
	arm64-6.1) echo '^linux-image-6\.1\.0-[0-9]+-cloud-arm64$' ;;
	arm64-6.12) echo '^linux-image-6\.12\.[0-9]+\+deb12-cloud-arm64$' ;;
	*) return 1 ;;
	esac
}

# series_deb_arch SERIES: its Debian architecture
series_deb_arch()
{
	case $1 in
	arm64-*) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# apt_download PKG:ARCH: into the cache; the lists updated once if stale
apt_download()
{
	local sandbox=()

	[ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
	if ! (cd "$cache" && apt-get -qq "${sandbox[@]}" download "$1"); then
		# lists older than the mirror: the file is gone, update once
		apt_update
		(cd "$cache" && apt-get -qq "${sandbox[@]}" download "$1") ||
			die "apt-get download $1 failed"
	fi
}

# newest package of a series that apt knows, else the newest cached one
pick_package()
{
	local re pkg

	re=$(series_regex "$1")
	pkg=$(apt-cache pkgnames linux-image-6. 2>/dev/null | grep -E "$re" |
		sort -V | tail -n 1) || true
	if [ -z "$pkg" ]; then
		pkg=$(find "$cache" -maxdepth 1 -name 'linux-image-*.deb' -printf '%f\n' |
			sed 's/_.*//' | grep -E "$re" | sort -V | tail -n 1) || true
	fi
	echo "$pkg"
}

cached_deb()
{
	find "$cache" -maxdepth 1 -name "$1_*.deb" | sort -V | tail -n 1
}

# fetch_kernel SERIES: sets kernel_pkg, kernel_image, kernel_note
fetch_kernel()
{
	local series=$1 deb t0 x old

	kernel_pkg=$(pick_package "$series")
	[ -n "$kernel_pkg" ] || die "$series: no package matches $(series_regex "$series") (apt-cache)"
	deb=$(cached_deb "$kernel_pkg")
	t0=$(now_ms)
	if [ -n "$deb" ]; then
		kernel_note="cached"
	else
		apt_download "$kernel_pkg:$(series_deb_arch "$series")"
		deb=$(cached_deb "$kernel_pkg")
		[ -n "$deb" ] || die "$series: apt-get download left no ${kernel_pkg}_*.deb"
		kernel_note="downloaded $(($(stat -c %s "$deb") / 1048576)) MiB in $(fmt_s $(($(now_ms) - t0))) s"
		# older kernels of the same series only fill the cache
		while read -r old; do
			[ "$old" = "$deb" ] || rm -f "$old" "${old%.deb}.vmlinuz"
		done < <(find "$cache" -maxdepth 1 -name 'linux-image-*.deb' |
			grep -E "/$(series_regex "$series" | sed 's/^\^//; s/\$$//')_")
	fi
	kernel_image=${deb%.deb}.vmlinuz
	if [ ! -s "$kernel_image" ]; then
		# the image only, and tar stops at it: ./boot comes first in
		# the package, its ~200 MB of modules after (0.1 s, not dpkg
		# -x's 1.5 s)
		x=$(mktemp -d "$cache/x.XXXXXX")
		dpkg-deb --fsys-tarfile "$deb" |
			tar -x -C "$x" --wildcards --occurrence=1 './boot/vmlinuz-*' 2>/dev/null || true
		set -- "$x"/boot/vmlinuz-*
		[ -f "$1" ] || { rm -rf "$x"; die "$series: no boot/vmlinuz-* in $deb"; }
		cp "$1" "$kernel_image.tmp" && mv "$kernel_image.tmp" "$kernel_image"
		rm -rf "$x"
	fi
}

# fetch_busybox DEB_ARCH: sets busybox_bin, Debian's static busybox for that
# architecture, unpacked from its package (the host's own when it is the
# host's architecture: installed by tools/deps.sh)
fetch_busybox()
{
	local arch=$1 deb x

	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		busybox_bin=$(command -v busybox) || die "busybox not found"
		return 0
	fi
	busybox_bin=$cache/busybox-static.$arch
	[ -s "$busybox_bin" ] && return 0
	deb=$(find "$cache" -maxdepth 1 -name "busybox-static_*_$arch.deb" | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		apt_download "busybox-static:$arch"
		deb=$(find "$cache" -maxdepth 1 -name "busybox-static_*_$arch.deb" | sort -V | tail -n 1)
		[ -n "$deb" ] || die "apt-get download left no busybox-static_*_$arch.deb"
	fi
	x=$(mktemp -d "$cache/x.XXXXXX")
	dpkg -x "$deb" "$x"
	[ -f "$x/bin/busybox" ] || { rm -rf "$x"; die "no bin/busybox in $deb"; }
	cp "$x/bin/busybox" "$busybox_bin.tmp" && mv "$busybox_bin.tmp" "$busybox_bin"
	rm -rf "$x"
}

