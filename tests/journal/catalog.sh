#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# catalog.sh - dist/hotspot-k.catalog against the code and against
# journalctl (make journal-catalog-test; under a second).
#
#   1. the MESSAGE_IDs of user/output/journal_ids.c (every id the tool
#      sends: journal.h) and the catalog's entries are the same set, each
#      id once in each;
#   2. each entry has a Subject, Defined-By: hotspot-k and a Documentation;
#   3. the real journalctl takes it: `journalctl --root=SCRATCH
#      --update-catalog` with the file where make install puts it
#      (/usr/local/lib/systemd/catalog, PREFIX's default), then
#      --list-catalog names every id with its subject, and --dump-catalog
#      gives one entry's text back.
# Nothing outside SCRATCH (a mktemp directory, removed at exit) is written.
set -u
cd "$(dirname "$0")/../.."

catalog=dist/hotspot-k.catalog
ids_c=user/output/journal_ids.c
tmp=$(mktemp -d /tmp/hk-catalog.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

fail()
{
	echo "journal-catalog-test: FAIL: $*" >&2
	exit 1
}

grep -o '{ "[0-9a-f]\{32\}"' "$ids_c" | tr -d '{ "' | sort > "$tmp/code"
sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' "$catalog" | sort > "$tmp/catalog"
[ -s "$tmp/code" ] || fail "no MESSAGE_ID found in $ids_c"
dup=$(uniq -d "$tmp/code"; uniq -d "$tmp/catalog")
[ -z "$dup" ] || fail "an id twice: $dup"
missing=$(comm -23 "$tmp/code" "$tmp/catalog")
[ -z "$missing" ] || fail "sent by the code, not in $catalog: $missing"
extra=$(comm -13 "$tmp/code" "$tmp/catalog")
[ -z "$extra" ] || fail "in $catalog, never sent by the code: $extra"
# any "-- " line that is not a well-formed id would be a lost entry
if grep -n '^-- ' "$catalog" | grep -v ':-- [0-9a-f]\{32\}$'; then
	fail "$catalog: a '-- ' line (an entry's start) without 32 lower-case hex digits"
fi

# each entry's header: the lines after its "-- ID" up to the blank line
awk '/^-- /{ if (id) print id, s, d, doc; id=$2; s=d=doc=0; head=1; next }
     head && /^$/ { head=0 }
     head && /^Subject: ./ { s=1 }
     head && /^Defined-By: hotspot-k$/ { d=1 }
     head && /^Documentation: ./ { doc=1 }
     END { if (id) print id, s, d, doc }' "$catalog" > "$tmp/heads"
bad=$(awk '$2 != 1 || $3 != 1 || $4 != 1 { print $1 }' "$tmp/heads")
[ -z "$bad" ] || fail "entries without Subject, Defined-By: hotspot-k or Documentation: $bad"

root=$tmp/root
mkdir -p "$root/usr/local/lib/systemd/catalog"
cp "$catalog" "$root/usr/local/lib/systemd/catalog/"
if ! journalctl --root="$root" --update-catalog > "$tmp/update" 2>&1 || [ -s "$tmp/update" ]; then
	cat "$tmp/update" >&2
	fail "journalctl --update-catalog did not take it silently"
fi
journalctl --root="$root" --list-catalog > "$tmp/list" 2>&1 || fail "journalctl --list-catalog"
while read -r id; do
	subject=$(awk -v id="$id" '$0 == "-- " id { getline; sub(/^Subject: /, ""); print; exit }' \
		"$catalog")
	grep -qxF "$id hotspot-k: $subject" "$tmp/list" ||
		fail "journalctl --list-catalog lacks '$id hotspot-k: $subject':
$(cat "$tmp/list")"
done < "$tmp/code"
first=$(head -n 1 "$tmp/code")
journalctl --root="$root" --dump-catalog "$first" | grep -q "^-- $first$" ||
	fail "journalctl --dump-catalog $first gives no entry back"
echo "journal-catalog-test: $(wc -l < "$tmp/code") MESSAGE_IDs, the code's and the catalog's" \
	"the same, each taken by journalctl --update-catalog"
