#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One phase of make test: run COMMAND, put LANE in front of every line it prints (two lanes run
# at once), and say how long it took and how it ended. The exit status is COMMAND's.
#   tests/lib/phase.sh LANE COMMAND [ARG ...]
set -u
lane=${1:?usage: phase.sh LANE COMMAND [ARG ...]}
shift
[ $# -gt 0 ] || { echo "usage: phase.sh LANE COMMAND [ARG ...]"; exit 2; }
set -o pipefail
t0=$(date +%s)
echo "[$lane] start: $*"
"$@" 2>&1 | sed -u "s/^/[$lane] /"
rc=$?
t=$(($(date +%s) - t0))
if [ "$rc" = 0 ]; then
	echo "[$lane] passed in ${t} s: $*"
else
	echo "[$lane] FAILED (exit $rc) after ${t} s: $*"
fi
exit "$rc"
