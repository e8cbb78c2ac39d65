#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# image.sh - make image: an OCI image of the static binary, FROM scratch,
# built by Debian's buildah with nothing fetched (no base image, no
# registry), written as an OCI archive a node or a registry client loads.
#
#   tools/image.sh TOOL VERSION OUT	(make image: ./hotspot-k 0.1.0 build/hotspot-k.oci.tar)
#
# Inside: /usr/sbin/hotspot-k, its man pages, the default config
# (--generate-config) as /usr/share/hotspot-k/hotspot-k.conf, and no /run,
# /tmp or /etc: the tool needs none (docs/kubernetes.md). buildah's storage
# is a vfs store of this run's own under build/, removed at the end: nothing
# is left in the host's containers storage and no mount outlives the run.
set -u
cd "$(dirname "$0")/.."

tool=${1:-./hotspot-k}
version=${2:?version}
out=${3:-build/hotspot-k.oci.tar}
name=localhost/hotspot-k:$version
store=
ctr=
# containers/image keeps a blob cache in /var/lib/containers/cache whatever
# --root says: removed at the end when this run made it
cache=/var/lib/containers
[ -e "$cache" ] && cache=

fail()
{
	echo "image: FAIL: $*" >&2
	exit 1
}

cleanup()
{
	[ -z "$ctr" ] || bah rm "$ctr" >/dev/null 2>&1
	[ -z "$store" ] || rm -rf "$store"
	[ -z "$cache" ] || rm -rf "$cache"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bah()
{
	buildah --root "$store/root" --runroot "$store/run" --storage-driver vfs "$@"
}

command -v buildah >/dev/null || fail "no buildah (tools/deps.sh image)"
[ -x "$tool" ] || fail "$tool: build it first (make STATIC=1 hotspot-k)"
# FROM scratch holds no libc: only a static binary runs there
"$tool" --version | grep -q '^linked: *static$' ||
	fail "$tool is not static: make image builds it with STATIC=1 (make clean first if a dynamic one is there)"

mkdir -p build && store=$(mktemp -d build/image.XXXXXX) || exit 1
stage=$store/stage
mkdir -p "$stage/usr/sbin" "$stage/usr/share/man/man8" "$stage/usr/share/man/man5" \
	"$stage/usr/share/hotspot-k" || exit 1
install -m 0755 "$tool" "$stage/usr/sbin/hotspot-k" || exit 1
for page in man8/hotspot-k.8 man5/hotspot-k.conf.5; do
	sed "/^\.TH /s/\"hotspot-k [^\"]*\"/\"hotspot-k $version\"/" "man/${page#*/}" |
		gzip -9n >"$stage/usr/share/man/$page.gz" || exit 1
done
"$tool" --generate-config >"$stage/usr/share/hotspot-k/hotspot-k.conf" ||
	fail "$tool --generate-config"
"$tool" --check-config "$stage/usr/share/hotspot-k/hotspot-k.conf" >/dev/null ||
	fail "the default config does not pass --check-config"

ctr=$(bah from --quiet scratch) || fail "buildah from scratch"
bah copy --quiet "$ctr" "$stage/usr" /usr >/dev/null || fail "buildah copy"
# JSON lines on stdout: the container log is the pipeline's input
bah config --entrypoint '["/usr/sbin/hotspot-k"]' --cmd '--json' \
	--env HOME=/ --workingdir / \
	--label org.opencontainers.image.title=hotspot-k \
	--label org.opencontainers.image.version="$version" \
	--label org.opencontainers.image.licenses="GPL-2.0-only OR BSD-2-Clause" \
	--label org.opencontainers.image.description="CPU and memory hotspots per process, diagnosed in the kernel" \
	"$ctr" || fail "buildah config"
bah commit --quiet --rm "$ctr" "$name" >/dev/null || fail "buildah commit"
ctr=
rm -f "$out"
bah push --quiet "$name" "oci-archive:$out:$name" || fail "buildah push oci-archive:$out"
echo "image: $name in $out ($(du -k "$out" | cut -f1) KiB): podman load -i $out"
