#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The conformance checker must catch broken binaries: each fake binary below breaks one rule
# of the IGT protocol, and tests/vm/igt-conformance.sh must fail naming it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/gttlab-igt-selftest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
caught=0
total=0

# fake NAME NEEDLE BODY: a test root holding one shell-script binary; the checker must fail with NEEDLE
fake() {
	local name=$1 needle=$2 body=$3
	total=$((total + 1))
	mkdir -p "$tmp/$name"
	printf 'TESTLIST\nfake\nEND TESTLIST\n' > "$tmp/$name/test-list.txt"
	printf '#!/usr/bin/env bash\n[ -n "${GTTLAB_ACCESS_LOG:-}" ] && echo "device not opened" > "$GTTLAB_ACCESS_LOG"\n%s\n' "$body" > "$tmp/$name/fake"
	chmod +x "$tmp/$name/fake"
	out=$("$here/igt-conformance.sh" "$tmp/$name" 2>&1)
	if [ $? -ne 0 ] && grep -q -- "$needle" <<<"$out"; then
		caught=$((caught + 1))
	else
		echo "igt-conformance-selftest: $name NOT caught (wanted '$needle'):"
		sed 's/^/    /' <<<"$out"
	fi
}

ok_run='case "$*" in *--list-subtests*) echo one ;; *--help*) exit 0 ;; *no-such*) exit 79 ;; *) echo "Starting subtest: one"; echo "Subtest one: SUCCESS (0.001s)"; [ -n "${IGT_SENTINEL_ON_STDERR:-}" ] && echo "Subtest one: SUCCESS (0.001s)" >&2; exit 0 ;; esac'

fake bad-option "invalid option exits 0" 'case "$*" in *--no-such-option*) exit 0 ;; esac; '"$ok_run"
fake banner "invalid subtest names" 'case "$*" in *--list-subtests*) echo "IGT-Version: 1.0"; echo one; exit 0 ;; esac; '"$ok_run"
fake duplicate "duplicate subtest names" 'case "$*" in *--list-subtests*) printf "one\none\n"; exit 0 ;; esac; '"$ok_run"
fake two-results "printed 2 result lines" 'case "$*" in *--run-subtest\ one*) echo "Starting subtest: one"; echo "Subtest one: SUCCESS (0.001s)"; echo "Subtest one: SUCCESS (0.001s)"; exit 0 ;; esac; '"$ok_run"
fake wrong-exit "result SUCCESS with exit 98" 'case "$*" in *--run-subtest\ one*) echo "Starting subtest: one"; echo "Subtest one: SUCCESS (0.001s)"; exit 98 ;; esac; '"$ok_run"
fake noisy "wrote to stderr" 'case "$*" in *--run-subtest\ one*) echo "Starting subtest: one"; echo "Subtest one: SUCCESS (0.001s)"; echo "Subtest one: SUCCESS (0.001s)" >&2; echo "debug noise" >&2; exit 0 ;; esac; '"$ok_run"
fake no-sentinel "not echoed on stderr" 'case "$*" in *--run-subtest\ one*) echo "Starting subtest: one"; echo "Subtest one: SUCCESS (0.001s)"; exit 0 ;; esac; '"$ok_run"
fake unknown-subtest "unknown subtest exits 0" 'case "$*" in *no-such-subtest*) exit 0 ;; esac; '"$ok_run"
fake touches-device "listing touched a device" 'case "$*" in *--list-subtests*) echo "devices opened 1" > "$GTTLAB_ACCESS_LOG"; echo one; exit 0 ;; esac; '"$ok_run"

echo "igt-conformance-selftest: $caught of $total broken binaries caught"
[ "$caught" = "$total" ]
