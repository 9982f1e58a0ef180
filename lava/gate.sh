#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/gate.sh LOG OUTDIR: judge a lava-run of gttlab's job. LAVA renames test cases (\W -> _), keeps
# no failure reason in them, and a failed test case does not fail the job; so the gate reads the job's
# log (lava-run's JSON lines) itself. Exit 0 only when the job completed (OUTDIR/result.yaml: job
# pass), the test cases of the gttlab monitor are as many as the checks the application announced on
# its console ("; N checks"), and none failed; otherwise one line per reason, failing cases named.
set -uo pipefail
log=$1 out=$2
bad=0
say() { echo "lava-gate: $*"; }
if ! grep -q '^result: pass' "$out/result.yaml" 2>/dev/null; then
	say "the job did not complete: $(tr '\n' ' ' < "$out/result.yaml" 2>/dev/null || echo 'no result.yaml')"
	bad=1
fi
announced=$(grep '"lvl": "target"' "$log" | grep -o '; [0-9]* checks' | head -1 | grep -o '[0-9]*')
cases=$(grep '"lvl": "results"' "$log" | grep '"definition": "gttlab"')
n=$(printf '%s' "$cases" | grep -c . || true)
if [ -z "$announced" ]; then
	say "the application announced no check count on its console"
	bad=1
elif [ "$n" != "$announced" ]; then
	say "$n test cases recorded, the application announced $announced checks"
	bad=1
fi
failed=$(printf '%s\n' "$cases" | grep -v '"result": "pass"' | grep -v '"result": "skip"' |
	sed -n 's/.*"test_case_id": "\([^"]*\)".*"result": "\([a-z]*\)".*/\1 (\2)/p')
if [ -n "$failed" ]; then
	say "failing test cases: $(printf '%s\n' "$failed" | tr '\n' ' ')"
	bad=1
fi
[ "$bad" = 0 ] && say "the job completed; $n of $announced checks recorded, none failed"
exit "$bad"
