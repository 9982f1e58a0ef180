#!/bin/bash
# SPDX-License-Identifier: MIT
# make tsan's judge: the hosted service's tests under ThreadSanitizer, then the
# proof that this check can fail.
#
#   tests/tsan/run.sh TSAN_DIR        (make tsan builds TSAN_DIR/serve and TSAN_DIR/serve-race)
#
# 1. TSAN_DIR/serve runs every test of tests/test_dom0_serve.c with TSan's
#    reports fatal (halt_on_error, exitcode 66) and written under
#    TSAN_DIR/reports/; a report, a failed test or a crash fails the run.
# 2. TSAN_DIR/serve-race is the same built with -DTSAN_SELFTEST_RACE (the
#    hostile guest threads and the test's thread share a counter no lock or
#    join orders). It must end with exit 66 and a data race report on that
#    counter: a TSan that saw nothing (objects not instrumented, reports going
#    nowhere, options not taken) would pass step 1 for nothing.
set -u
dir=${1:?usage: tests/tsan/run.sh TSAN_DIR}

# LLVM 14's TSan expects the memory layout of a kernel whose mmap randomization is at most 28 bits
# ("FATAL: ThreadSanitizer: unexpected memory mapping" otherwise); without randomization any kernel
# will do. setarch -R needs the personality call, which some containers refuse: then run as is.
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then
	run=(setarch "$(uname -m)" -R)
fi

# one run: $1 the reports' folder, the rest the command; its exit status
tsan_run() {
	local reports=$1
	shift
	rm -rf "$reports"
	mkdir -p "$reports"
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 log_path=$reports/tsan" "${run[@]}" "$@"
}

t0=$(date +%s)
tsan_run "$dir/reports" "$dir/serve"
rc=$?
reports=$(ls "$dir/reports" 2>/dev/null)
if [ "$rc" != 0 ] || [ -n "$reports" ]; then
	for f in "$dir"/reports/*; do
		[ -f "$f" ] && head -n 60 "$f"
	done
	echo "tsan: FAILED: the service's tests exited $rc$([ "$rc" = 66 ] && echo " (a ThreadSanitizer report)")${reports:+, reports in $dir/reports/}"
	exit 1
fi
t1=$(date +%s)
echo "tsan: the service's tests ran under ThreadSanitizer with no report ($((t1 - t0)) s)"

# the proof: only the test with the racy threads, stopped by the first report
tsan_run "$dir/race-reports" "$dir/serve-race" hostile_guests >"$dir/race.out" 2>&1
rc=$?
report=$(cat "$dir"/race-reports/* 2>/dev/null)
summary=$(grep -m 1 '^SUMMARY: ThreadSanitizer: data race' <<<"$report")
if [ "$rc" != 66 ] || [ -z "$summary" ] || ! grep -q "Location is global 'selftest_racy_count'" <<<"$report"; then
	cat "$dir/race.out"
	head -n 60 <<<"$report"
	echo "tsan: FAILED: the deliberate race of -DTSAN_SELFTEST_RACE on selftest_racy_count was not reported (exit $rc${summary:+; $summary}): a clean run proves nothing"
	exit 1
fi
echo "tsan: the deliberate race of -DTSAN_SELFTEST_RACE is reported (exit 66): ${summary#SUMMARY: ThreadSanitizer: } ($(($(date +%s) - t1)) s)"
