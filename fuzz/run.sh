#!/bin/bash
# SPDX-License-Identifier: MIT
# Run the libFuzzer harnesses for a while each, two at a time, and judge them.
#
#   fuzz/run.sh BUILD_DIR SECONDS NAME...      (make fuzz runs it)
#
# Each harness BUILD_DIR/fuzz_NAME runs on a scratch copy of its committed
# corpus (BUILD_DIR/work/NAME/corpus, made afresh from fuzz/corpus/NAME), so
# the committed corpus never changes; what it finds goes to
# BUILD_DIR/work/NAME/artifacts/ and its output to BUILD_DIR/work/NAME/log.
# A harness with a dictionary, fuzz/dict/NAME.dict (the words of its input
# language), gets it with -dict=; a dictionary libFuzzer did not take fails
# the run (libFuzzer itself refuses one it cannot parse).
# One line per harness with its executions per second; exit 1 when any
# harness found a crash, a leak, a timeout or ran out of memory.
set -u

dir=$1 secs=$2
shift 2
jobs=${FUZZ_JOBS:-2}

run_one() {
	local name=$1 w=$dir/work/$1
	local dict=()
	rm -rf "$w"
	mkdir -p "$w/corpus" "$w/artifacts"
	cp fuzz/corpus/"$name"/* "$w/corpus/" 2>/dev/null
	[ -f "fuzz/dict/$name.dict" ] && dict=(-dict="fuzz/dict/$name.dict")
	# libFuzzer's own -timeout covers one input; a harness blocked outside it (an open that never
	# returns) must not hold make test, so the whole run is bounded too
	timeout -k 10 $((secs + 120)) "$dir/fuzz_$name" -rss_limit_mb=2048 -timeout=10 -max_total_time="$secs" -print_final_stats=1 \
		"${dict[@]}" -artifact_prefix="$w/artifacts/" "$w/corpus" >"$w/log" 2>&1
	echo $? >"$w/rc"
}

# two at a time: the machine has two cores
running=0
for name in "$@"; do
	if [ ! -x "$dir/fuzz_$name" ]; then
		echo "fuzz: $dir/fuzz_$name is missing (make fuzz-build)" >&2
		exit 1
	fi
	if [ ! -d "fuzz/corpus/$name" ]; then
		echo "fuzz: no seed corpus fuzz/corpus/$name" >&2
		exit 1
	fi
	run_one "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

status=0
for name in "$@"; do
	w=$dir/work/$name
	rc=$(cat "$w/rc" 2>/dev/null || echo "?")
	# libFuzzer's closing statistics: units run and the seconds it took
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -n 1)
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$w/log" | tail -n 1)
	if [ -n "$runs" ] && [ -n "$took" ] && [ "$took" -gt 0 ]; then
		rate=$((runs / took))
	else
		# no final statistics (it stopped early): the last status line's exec/s
		rate=$(grep -o 'exec/s: [0-9]*' "$w/log" | tail -n 1 | sed 's/exec\/s: //')
	fi
	cov=$(grep -o 'cov: [0-9]*' "$w/log" | tail -n 1 | sed 's/cov: //')
	units=$(ls "$w/corpus" | wc -l)
	found=$(ls "$w/artifacts" 2>/dev/null | head -n 1)
	# libFuzzer says "Dictionary: N entries" once it has read one
	words=""
	if [ -f "fuzz/dict/$name.dict" ]; then
		words=$(sed -n 's/^Dictionary: \([0-9]*\) entries$/\1/p' "$w/log" | head -n 1)
		if [ -z "$words" ] && [ "$rc" = 0 ]; then
			rc="dict"
			printf 'fuzz_%-10s FAILED  fuzz/dict/%s.dict was not taken\n' "$name" "$name"
		fi
	fi
	if [ "$rc" = 0 ] && [ -z "$found" ]; then
		printf 'fuzz_%-10s ok      %8s exec/s  %9s runs in %ss  cov %s  corpus %s%s\n' \
			"$name" "${rate:-?}" "${runs:-?}" "${took:-?}" "${cov:-?}" "$units" "${words:+  dict $words}"
	elif [ "$rc" = dict ]; then
		status=1
	else
		status=1
		what=$(grep -m 1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)[^(]*|runtime error: .*|SUMMARY: .*' "$w/log" | head -n 1)
		printf 'fuzz_%-10s FAILED  exit %s: %s\n' "$name" "$rc" "${what:-see the log}"
		[ -n "$found" ] && printf '    input: %s\n' "$w/artifacts/$found"
		printf '    log:   %s\n' "$w/log"
	fi
done
exit $status
