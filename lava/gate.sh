#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/gate.sh LOG OUTDIR: judge a lava-run of gttlab's job.
# lava/gate.sh --server LOG RESULTS HEALTH: judge a job a LAVA server ran, from what its API gives back:
#   LOG its log (lavacli jobs logs --raw), RESULTS its test cases (lavacli results ID --yaml), HEALTH its
#   health (Complete, Incomplete, Canceled).
# LAVA renames test cases (\W -> _), keeps no failure reason in them, and a failed test case does not
# fail the job; so the gate judges itself. Exit 0 only when the job completed (lava-run: OUTDIR/result.yaml
# says job pass; a server: health Complete), the test cases of the gttlab monitor are as many as the checks
# the application announced on its console ("; N checks", in the log), and none failed; otherwise one
# line per reason, failing cases named by their test_case_id (the application's own name).
set -uo pipefail
bad=0
say() { echo "lava-gate: $*"; }
if [ "${1:-}" = --server ]; then
	[ $# = 4 ] || { echo "usage: lava/gate.sh --server LOG RESULTS HEALTH" >&2; exit 2; }
	log=$2
	if [ "$4" != Complete ]; then
		say "the job did not complete: its health is $4"
		bad=1
	fi
	# the gttlab suite's cases as "test_case_id result" (LAVA's YAML, read by the dispatcher's python)
	cases=$(/usr/bin/python3 -c 'import sys, yaml
for r in yaml.safe_load(open(sys.argv[1])) or []:
    if r.get("suite") != "gttlab":
        continue
    extra = {k: v for e in r.get("metadata", {}).get("extra", []) or [] for k, v in e.items()}
    print(extra.get("test_case_id", r["name"]), r["result"])' "$3") ||
		{ say "the results $3 are not LAVA's results YAML"; exit 2; }
else
	[ $# = 2 ] || { echo "usage: lava/gate.sh LOG OUTDIR" >&2; exit 2; }
	log=$1
	if ! grep -q '^result: pass' "$2/result.yaml" 2>/dev/null; then
		say "the job did not complete: $(tr '\n' ' ' < "$2/result.yaml" 2>/dev/null || echo 'no result.yaml')"
		bad=1
	fi
	cases=$(grep '"lvl": "results"' "$log" | grep '"definition": "gttlab"' |
		sed -n 's/.*"test_case_id": "\([^"]*\)".*"result": "\([a-z]*\)".*/\1 \2/p')
fi
announced=$(grep '"lvl": "target"' "$log" | grep -o '; [0-9]* checks' | head -1 | grep -o '[0-9]*')
n=$(printf '%s' "$cases" | grep -c . || true)
if [ -z "$announced" ]; then
	say "the application announced no check count on its console"
	bad=1
elif [ "$n" != "$announced" ]; then
	say "$n test cases recorded, the application announced $announced checks"
	bad=1
fi
failed=$(printf '%s\n' "$cases" | grep -v ' pass$' | grep -v ' skip$' | grep . | sed 's/ \(.*\)/ (\1)/')
if [ -n "$failed" ]; then
	say "failing test cases: $(printf '%s\n' "$failed" | tr '\n' ' ')"
	bad=1
fi
[ "$bad" = 0 ] && say "the job completed; $n of $announced checks recorded, none failed"
exit "$bad"
