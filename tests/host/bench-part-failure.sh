#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/bench-part-failure.sh BUILD_DIR: a bench part that fails is named and the others' figures are still
# written (issue 45). The boundary part is given a `gttlab` that ends at once (/bin/false), so its dom0 serve never
# says it listens; p1 runs before it and table2 after it. The bench must exit 1, name boundary and how it ended,
# keep p1's and table2's keys in results.json and the markdown report, and hold none of boundary's.
set -u
build=${1:?usage: bench-part-failure.sh BUILD_DIR}
bench=$build/bench/bench
[ -x "$bench" ] || { echo "bench-part-failure: $bench is not built"; exit 1; }
work=$(mktemp -d /tmp/gttlab-bench-fail.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "bench-part-failure: $*"; echo "--- its output:"; cat "$work/out"; exit 1; }

"$bench" --quick --only p1,boundary,table2 --gttlab /bin/false --json "$work/r.json" --markdown "$work/r.md" \
	--tree test > "$work/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "exit status $rc with a failing part, not 1"
grep -q "part boundary FAILED after .*: exit status 1; the parts after it still run" "$work/out" ||
	fail "the failing part is not named as it fails"
grep -q "1 part FAILED: boundary (exit status 1)" "$work/out" || fail "the end does not name the failed part"
grep -q "dom0 serve (sleep): it ended (exit status 1) before saying 'guest 1: listening on'" "$work/out" ||
	fail "the helper that never got ready is not named with how it ended"
python3 - "$work/r.json" <<'PY' || fail "results.json does not say it"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["failed_parts"] == [{"part": "boundary", "how": "exit status 1"}], r["failed_parts"]
assert "p1_write_ratio_gscale" in r, "p1's keys are missing"
assert "table2" in r, "table2's keys are missing"
assert not any(k.startswith("boundary") for k in r), "boundary's keys are there"
PY
grep -q "part boundary FAILED (exit status 1): its figures are missing below" "$work/r.md" ||
	fail "the markdown report does not say boundary failed"
grep -q "p1_write_ratio_gscale" "$work/r.md" || fail "the markdown report lost p1"
echo "bench-part-failure: a part whose helper never got ready is named (exit 1); p1 and table2 before and after it are reported"
