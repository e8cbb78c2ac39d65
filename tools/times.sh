# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# times.sh - the table that make test (tests/all.sh) and make check
# (tools/check.sh) end with, sourced by both: one row a suite or part, its
# seconds and result, an e2e run's slowest tests under its row, the total.

# ms_since T0: milliseconds since T0 (date +%s%N)
ms_since()
{
	echo $((($(date +%s%N) - $1) / 1000000))
}

# times_table WHAT TIMES DIR TOTAL T0: TIMES holds `name ms exit-status`
# lines; DIR/e2e-times.NAME, where run.py wrote one (HK_E2E_TIMES), each of
# an e2e run's tests `seconds name`, slowest first
times_table()
{
	local name ms rc

	echo
	printf '%-20s seconds  result\n' "$1"
	while read -r name ms rc; do
		printf '%-20s %7d.%d  %s\n' "$name" $((ms / 1000)) $((ms % 1000 / 100)) \
			"$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")"
		[ -s "$3/e2e-times.$name" ] && printf '%-20s slowest: %s\n' "" "$(head -n 5 \
			"$3/e2e-times.$name" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')"
	done <"$2"
	ms=$(ms_since "$5")
	printf '%-20s %7d.%d\n' "$4" $((ms / 1000)) $((ms % 1000 / 100))
}
