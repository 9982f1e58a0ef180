#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/gate.sh --device-dict DICT LOG OUTDIR: judge a lava-run of gttlab's job.
# lava/gate.sh --device-dict DICT --server LOG RESULTS HEALTH: judge a job a LAVA server ran, from what its
#   API gives back: LOG its log (lavacli jobs logs --raw), RESULTS its test cases (lavacli results ID
#   --yaml), HEALTH its health (Complete, Incomplete, Canceled).
# DICT is the device dictionary the job ran on (its .jinja2, as `lavacli devices dict get` gives it): the
# kinds of device it declares (lava/device-kinds.sh) are the only ones a run there may be taken on.
# LAVA renames test cases (\W -> _), keeps no failure reason in them, and a failed test case does not
# fail the job; so the gate judges itself. Exit 0 only when the job completed (lava-run: OUTDIR/result.yaml
# says job pass; a server: health Complete), the application's announce line says a device of a kind
# DICT declares (a real DUT whose run says "simulated" fails), the test cases of the gttlab monitor are
# as many as the checks it announced ("; N checks", in the log), at least one passed, and none failed;
# otherwise one line per reason, failing cases named by their test_case_id (the application's own name)
# with the reason the application's console gave for each.
set -uo pipefail
bad=0
say() { echo "lava-gate: $*"; }
[ "${1:-}" = --device-dict ] && [ $# -ge 2 ] ||
	{ echo "usage: lava/gate.sh --device-dict DICT [--server] LOG ... (the device's kind must be judged)" >&2; exit 2; }
kinds=$("$(dirname "$0")/device-kinds.sh" "$2") || exit 2
dict=$2
shift 2
if [ "${1:-}" = --server ]; then
	[ $# = 4 ] || { echo "usage: lava/gate.sh --device-dict DICT --server LOG RESULTS HEALTH" >&2; exit 2; }
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
	[ $# = 2 ] || { echo "usage: lava/gate.sh --device-dict DICT LOG OUTDIR" >&2; exit 2; }
	log=$1
	if ! grep -q '^result: pass' "$2/result.yaml" 2>/dev/null; then
		say "the job did not complete: $(tr '\n' ' ' < "$2/result.yaml" 2>/dev/null || echo 'no result.yaml')"
		bad=1
	fi
	cases=$(grep '"lvl": "results"' "$log" | grep '"definition": "gttlab"' |
		sed -n 's/.*"test_case_id": "\([^"]*\)".*"result": "\([a-z]*\)".*/\1 \2/p')
fi
# the application's own lines, as the DUT printed them
target=$(grep '"lvl": "target"' "$log" | sed -n 's/.*"msg": "\(.*\)"}$/\1/p')
announced=$(grep -o '; [0-9]* checks' <<<"$target" | head -1 | grep -o '[0-9]*')
version=$(sed -n 's/^gttlab\.efi: version \([^ ]*\)$/\1/p' <<<"$target" | head -1)
if [ -z "$version" ]; then
	say "the application said no version on its console: whose verdict this is cannot be told"
	bad=1
fi
# what the run was taken on: "gttlab: D: PLATFORM (gen G, KIND), device 0x...", against the dictionary
kind=$(grep -o '(gen [0-9.]*, [^)]*), device' <<<"$target" | head -1 | sed 's/^(gen [0-9.]*, \(.*\)), device$/\1/')
if [ -z "$kind" ]; then
	say "the application announced no device on its console: nothing was taken on anything"
	bad=1
elif ! grep -qxF -- "$kind" <<<"$kinds"; then
	say "the run was taken on a $kind device; ${dict##*/} declares $(paste -sd '|' <<<"$kinds")"
	bad=1
fi
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
	# each with the reason its result line gave: "[ i/N] fail NAME  T ms  REASON"
	while read -r id _; do
		reason=$(grep -E "^\[ *[0-9]+/[0-9]+\] [a-z]+ +$id +[0-9]+ ms" <<<"$target" | head -1 | sed -E 's/^\[[^]]*\] [a-z]+ +[^ ]+ +[0-9]+ ms +//')
		say "  $id: ${reason:-(no reason on the console)}"
	done <<<"$failed"
	bad=1
fi
if [ -n "$cases" ] && ! grep -q ' pass$' <<<"$cases"; then
	say "no test case passed: every check skipped, nothing was proven (SKIP is no pass)"
	bad=1
fi
[ "$bad" = 0 ] && say "the job completed, taken on: $kind (as ${dict##*/} declares) by gttlab $version; $n of $announced checks recorded, none failed"
exit "$bad"
