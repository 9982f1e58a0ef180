#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# IGT protocol conformance of every binary in a test root (docs: ../shared/docs/igt-protocol.md),
# checked from outside as igt_runner sees them:
#   - an invalid option exits 79; --help exits 0;
#   - --list-subtests exits 0, prints only valid, unique names and nothing else, and touches
#     no device (GTTLAB_ACCESS_LOG, written from the model's access counters, says so; a run
#     writes real counts there, which shows the log works);
#   - every listed subtest runs alone and prints exactly one matching result line, with the
#     exit code that result implies and a clean stderr (sentinels only) unless it failed;
#   - an unknown subtest exits 79; a dynamic subtest prints its own result line.
#   tests/vm/igt-conformance.sh TEST_ROOT
set -u
root=${1:?usage: igt-conformance.sh TEST_ROOT}
# the binaries run the model only when a device string names it (no device named is auto, a skip here)
export GTTLAB_DEVICE=${GTTLAB_DEVICE:-sim:skl}
tmp=$(mktemp -d /tmp/gttlab-igt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { echo "igt-conformance: FAIL: $*"; failed=$((failed + 1)); }

[ -f "$root/test-list.txt" ] || { echo "igt-conformance: no $root/test-list.txt"; exit 1; }
bins=$(sed -e '/^TESTLIST$/d' -e '/^END TESTLIST$/d' "$root/test-list.txt")
[ -n "$bins" ] || { echo "igt-conformance: empty test list"; exit 1; }

for b in $bins; do
	bin="$root/$b"
	[ -x "$bin" ] || { bad "$b: not an executable in $root"; continue; }

	"$bin" --no-such-option >/dev/null 2>&1
	rc=$?; [ $rc = 79 ] && ok || bad "$b: invalid option exits $rc, not 79"

	"$bin" --help >/dev/null 2>&1
	rc=$?; [ $rc = 0 ] && ok || bad "$b: --help exits $rc, not 0"

	GTTLAB_ACCESS_LOG="$tmp/list.log" "$bin" --list-subtests >"$tmp/list" 2>"$tmp/list.err"
	rc=$?; [ $rc = 0 ] && ok || bad "$b: --list-subtests exits $rc"
	[ -s "$tmp/list" ] && ok || bad "$b: --list-subtests lists nothing"
	[ -s "$tmp/list.err" ] && bad "$b: --list-subtests wrote to stderr: $(head -1 "$tmp/list.err")" || ok
	grep -vqE '^[a-z0-9_-]+$' "$tmp/list" && bad "$b: invalid subtest names: $(grep -vE '^[a-z0-9_-]+$' "$tmp/list" | head -3 | tr '\n' ' ')" || ok
	[ "$(sort "$tmp/list" | uniq -d)" = "" ] && ok || bad "$b: duplicate subtest names"
	grep -qx 'device not opened' "$tmp/list.log" 2>/dev/null && ok || bad "$b: listing touched a device: $(cat "$tmp/list.log" 2>/dev/null)"

	first=$(head -1 "$tmp/list")
	GTTLAB_ACCESS_LOG="$tmp/run.log" "$bin" --run-subtest "$first" >/dev/null 2>&1
	reads=$(sed -n 's/^mmio-read \([0-9]*\)$/\1/p' "$tmp/run.log" 2>/dev/null)
	[ "${reads:-0}" -gt 0 ] && ok || bad "$b: the access log shows no reads for a run of $first, so it proves nothing"

	"$bin" --run-subtest no-such-subtest >/dev/null 2>&1
	rc=$?; [ $rc = 79 ] && ok || bad "$b: an unknown subtest exits $rc, not 79"

	while read -r s; do
		IGT_SENTINEL_ON_STDERR=1 "$bin" --run-subtest "$s" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		n=$(grep -cE "^Subtest $s: [A-Z]+ \([0-9]+\.[0-9]{3}s\)$" "$tmp/out")
		if [ "$n" != 1 ]; then
			bad "$b: subtest $s printed $n result lines"
			continue
		fi
		grep -qx "Starting subtest: $s" "$tmp/out" || bad "$b: subtest $s printed no start line"
		res=$(sed -nE "s/^Subtest $s: ([A-Z]+) .*/\1/p" "$tmp/out")
		case "$res:$rc" in
		SUCCESS:0 | SKIP:77 | FAIL:98) ok ;;
		*) bad "$b: subtest $s: result $res with exit $rc" ;;
		esac
		# stderr: the sentinels, and nothing else unless it failed
		if [ "$res" != FAIL ] && grep -vqE '^(Starting (dynamic )?subtest: |(Dynamic s|S)ubtest [a-z0-9_-]+: [A-Z]+ \()' "$tmp/err"; then
			bad "$b: subtest $s ($res) wrote to stderr: $(grep -vE '^(Starting|Subtest|Dynamic)' "$tmp/err" | head -1)"
		fi
		grep -qx "Subtest $s: $res .*" "$tmp/err" 2>/dev/null || grep -q "^Subtest $s: $res" "$tmp/err" ||
			bad "$b: subtest $s: the result line is not echoed on stderr with IGT_SENTINEL_ON_STDERR"
	done <"$tmp/list"

	if grep -qx platforms "$tmp/list"; then
		# a platform the suite runs on: SR-IOV's suites skip before gen12 (exit 77), so theirs is adlp
		dyn=skl
		case $b in gtt_vf | gtt_pf) dyn=adlp ;; esac
		"$bin" --run-subtest platforms --dynamic-subtest $dyn >"$tmp/out" 2>/dev/null
		rc=$?
		[ "$(grep -cE "^Dynamic subtest $dyn: [A-Z]+ \\(" "$tmp/out")" = 1 ] && [ $rc = 0 ] && ok ||
			bad "$b: dynamic subtest $dyn: exit $rc, $(grep -c '^Dynamic subtest' "$tmp/out") result lines"
		"$bin" --run-subtest platforms --dynamic-subtest nope >/dev/null 2>&1
		rc=$?; [ $rc = 79 ] && ok || bad "$b: an unknown dynamic subtest exits $rc, not 79"
	fi
done
echo "igt-conformance: $passed passed, $failed failed"
[ "$failed" = 0 ]
