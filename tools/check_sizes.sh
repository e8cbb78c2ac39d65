#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# check_sizes.sh - no C file of user/, bpf/ or include/ over 500 lines
# (issue #31: a file a job, small enough to read whole). Exit 1 with one
# line per file over, naming it and its length.
#
#   tools/check_sizes.sh [ROOT]     (ROOT: the repository, default .)
cd "${1:-.}" || exit 2
max=500
over=$(find user bpf include -name '*.[ch]' -exec wc -l {} + |
	awk -v max=$max '$2 != "total" && $1 > max { print $2 ": " $1 " lines, over " max }')
[ -z "$over" ] || { echo "$over"; exit 1; }
echo "check_sizes: $(find user bpf include -name '*.[ch]' | wc -l) files, none over $max lines"
