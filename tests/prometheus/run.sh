#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# run.sh - the fleet's Prometheus rules and Grafana dashboard against
# Debian's promtool, and the metrics of the real tool (make promtool-test).
#
#   tests/prometheus/run.sh [TOOL [HKLOAD]]	(defaults ./hotspot-k build/hkload)
#
#   1. promtool check rules deploy/prometheus/hotspot-k.rules.yml, and each
#      alert's runbook_url names a page in docs/runbooks/;
#   2. promtool test rules tests/prometheus/rules.test.yml: each alert fires
#      and stays silent, with its labels and annotations; and the join
#      with kube-state-metrics (deploy/prometheus/hotspot-k-kubernetes.rules.yml)
#      over tests/prometheus/kubernetes.test.yml, docs/fleet.md's copy of
#      it equal to the file;
#   3. every expression of deploy/grafana/hotspot-k.json parsed by promtool
#      check rules (dashboard_check.py);
#   4. the tool run for 3 s (-i 1s) beside a busy loop, as root and under
#      /tmp/hk-bpf.lock like every run in make test that loads BPF
#      (sanitize, install-test): the textfile it wrote while it ran, and
#      the one it leaves at exit (hotspot_k_up 0 alone), each with 0
#      problems from promtool check metrics, their text printed otherwise;
#   5. over that file's families: the dashboard's expressions each return
#      something, and every hotspot_k_* name the rules and their tests use
#      is one the tool writes.
# No server is started. Exit 0 when all pass; the first failure ends it.
set -u
cd "$(dirname "$0")/../.."

tool=${1:-./hotspot-k}
hkload=${2:-build/hkload}
rules=deploy/prometheus/hotspot-k.rules.yml
kube=deploy/prometheus/hotspot-k-kubernetes.rules.yml
dash=deploy/grafana/hotspot-k.json
lock=/tmp/hk-bpf.lock
tmp=
spin=
runner=	# timeout's PID: waited for, never killed here

cleanup()
{
	# by PID: the loop; the tool, if this script is stopped mid-run, ends
	# at its --duration (timeout's 30 s at most)
	[ -z "$spin" ] || kill "$spin" 2>/dev/null
	wait 2>/dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail()
{
	echo "promtool-test: FAIL: $*" >&2
	exit 1
}

command -v promtool >/dev/null ||
	fail "no promtool (Debian's prometheus: tools/deps.sh prometheus, or make promtool-test)"
tmp=$(mktemp -d /tmp/hk-promtool.XXXXXX) || exit 1

# 1. the rules parse, and each runbook is there
promtool check rules "$rules" || fail "promtool check rules $rules"
alerts=0
while read -r url; do
	alerts=$((alerts + 1))
	[ -f "$url" ] || fail "$rules: runbook_url $url: no such page"
done < <(sed -n 's/^ *runbook_url: *//p' "$rules")
[ "$alerts" -gt 0 ] || fail "$rules: no runbook_url"
# docs/fleet.md's sed for absolute links: each link changed, the rules valid
sed 's#runbook_url: docs/#runbook_url: https://git.example.org/hotspot-k/blob/main/docs/#' \
	"$rules" >"$tmp/absolute.rules.yml"
[ "$(grep -c 'runbook_url: https://git.example.org/hotspot-k/blob/main/docs/runbooks/' \
	"$tmp/absolute.rules.yml")" = "$alerts" ] || fail "docs/fleet.md's sed leaves a runbook_url relative"
promtool check rules "$tmp/absolute.rules.yml" >/dev/null || fail "docs/fleet.md's sed breaks the rules"
echo "runbooks: $alerts alerts, each with its page in docs/runbooks/ (and absolute with docs/fleet.md's sed)"

# 2. the alerts' unit tests
promtool test rules tests/prometheus/rules.test.yml ||
	fail "promtool test rules tests/prometheus/rules.test.yml"

# the join with kube-state-metrics, and docs/fleet.md's copy of its rules:
# the fenced block after the comment that names the file
promtool check rules "$kube" || fail "promtool check rules $kube"
promtool test rules tests/prometheus/kubernetes.test.yml ||
	fail "promtool test rules tests/prometheus/kubernetes.test.yml"
sed -n '/^groups:/,$p' "$kube" >"$tmp/kube.file"
awk -v f="$kube" 'on && $0 == "```" { exit } on { print }
	$0 == "```yaml" && prev ~ "^<!-- " f " " { on = 1 } { prev = $0 }' \
	docs/fleet.md >"$tmp/kube.doc"
[ -s "$tmp/kube.doc" ] && cmp -s "$tmp/kube.file" "$tmp/kube.doc" ||
	{ diff -u "$tmp/kube.file" "$tmp/kube.doc"; fail "docs/fleet.md's rules are not $kube's"; }
# ... and each promql example of that section is an expression the tests
# evaluate (blanks aside)
awk '/^## Pods and containers/ { sec = 1; next } /^## / { sec = 0 }
	sec && $0 == "```promql" { on = 1; n++; next } on && $0 == "```" { on = 0; next }
	on { print > (dir "/ex." n) }' dir="$tmp" docs/fleet.md
flat() { tr -s ' \n' '  ' <"$1" | sed 's/^ //; s/ $//'; }
examples=0
for ex in "$tmp"/ex.*; do
	[ -e "$ex" ] || break
	examples=$((examples + 1))
	flat tests/prometheus/kubernetes.test.yml | grep -qF -- "$(flat "$ex")" ||
		{ cat "$ex"; fail "docs/fleet.md: this example is not in tests/prometheus/kubernetes.test.yml"; }
done
[ "$examples" -gt 0 ] || fail "docs/fleet.md: no promql example in its kube-state-metrics section"
echo "kubernetes join: docs/fleet.md quotes $kube as it is, and its $examples example(s) are tested"

# 3. the dashboard's expressions parse
python3 tests/prometheus/dashboard_check.py "$dash" "$tmp/dash" || fail "$dash"
promtool check rules "$tmp/dash/dashboard.rules.yml" >"$tmp/dash.log" 2>&1 ||
	{ cat "$tmp/dash.log"; fail "$dash: an expression promtool does not parse"; }

# 4. the real textfile: the tool beside a busy loop, the file copied while
# it runs (each write is a rename: a copy is one whole file)
[ "$(id -u)" = 0 ] || fail "the tool's run needs root"
[ -x "$tool" ] && [ -x "$hkload" ] || fail "build $tool and $hkload first"
# the lock first (300 s: another suite may hold it), then the loop: nothing
# spins beside a suite that measures
exec 9>"$lock"
flock -w 300 9 || fail "$lock: still held after 300 s"
"$hkload" spin >/dev/null 2>&1 &
spin=$!
prom=$tmp/out/hotspot-k.prom
mkdir -m 0700 "$tmp/out"
timeout -s INT -k 5 30 "$tool" -i 1s --duration 3s --prometheus "$prom" >"$tmp/tool.log" 2>&1 &
runner=$!
while kill -0 "$runner" 2>/dev/null; do
	cp "$prom" "$tmp/copy.prom" 2>/dev/null && grep -qx 'hotspot_k_up 1' "$tmp/copy.prom" &&
		mv "$tmp/copy.prom" "$tmp/running.prom"
	sleep 0.1
done
wait "$runner"
rc=$?
runner=
kill "$spin" 2>/dev/null
wait "$spin" 2>/dev/null
spin=
exec 9>&-
[ "$rc" = 0 ] || { cat "$tmp/tool.log"; fail "$tool exited $rc"; }
[ -s "$tmp/running.prom" ] || { cat "$tmp/tool.log"; fail "no textfile with hotspot_k_up 1 while the tool ran"; }
for f in "$tmp/running.prom" "$prom"; do
	problems=$(promtool check metrics <"$f" 2>&1)
	[ $? = 0 ] && [ -z "$problems" ] ||
		{ printf '%s\n' "$problems"; fail "promtool check metrics: problems in the textfile $(basename "$f")"; }
done
cp "$tmp/running.prom" build/promtool-test.prom	# kept, as the suites' logs are
[ "$(grep -v '^#' "$prom")" = "hotspot_k_up 0" ] ||
	{ cat "$prom"; fail "the file at exit is not hotspot_k_up 0 alone"; }
echo "textfile: $(grep -c '^# TYPE' "$tmp/running.prom") families, $(grep -vc '^#' "$tmp/running.prom") samples ($(grep -c '^hotspot_k_process_flagged{' "$tmp/running.prom") processes flagged) while running, and hotspot_k_up 0 at exit: 0 problems from promtool check metrics"

# 5. the dashboard and the rules over the tool's own families
python3 tests/prometheus/dashboard_check.py "$dash" "$tmp/dash" --textfile "$tmp/running.prom" \
	--rules "$rules" --names "$rules" tests/prometheus/rules.test.yml "$kube" \
	tests/prometheus/kubernetes.test.yml || fail "$dash or $rules"
promtool test rules "$tmp/dash/dashboard.test.yml" >"$tmp/dash.log" 2>&1 ||
	{ cat "$tmp/dash.log"; fail "$dash: an expression empty over the tool's families (DashboardExprEmpty names the panel)"; }
echo "promtool-test: rules, alerts' tests, dashboard and the tool's metrics passed"
