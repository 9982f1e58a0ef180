#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/shipped-has-no-faults.sh BUILD: the shipped binaries hold no deliberate mediator bug
# (dom0/faults.h). Every name of struct dom0_faults, and the CLI's --host-fault, is searched in
# the bytes of build/gttlab, the IGT binaries and build/efi/gttlab.efi (the CLI and IGT binaries
# carry DWARF, so a struct member or a code path of that name would show); none may be there.
# The search proves itself on the test build's CLI (build/faults/gttlab), which must hold them all.
set -euo pipefail
build=${1:?usage: tests/shipped-has-no-faults.sh BUILD}
names=$(sed -n 's/^[[:space:]]*bool \([a-z_]*\);.*/\1/p' dom0/faults.h)
names="$names host-fault host_faults check_faults"
[ "$(wc -w <<<"$names")" -gt 10 ] || { echo "shipped-has-no-faults: no fault names read from dom0/faults.h"; exit 2; }
shipped=("$build/gttlab" "$build"/igt/gtt_* "$build/efi/gttlab.efi")
bad=0
for f in "${shipped[@]}" "$build/faults/gttlab"; do
	[ -f "$f" ] || { echo "shipped-has-no-faults: $f is not built"; exit 2; }
done
# found FILE: the fault names in FILE's bytes, one line
found() {
	local n hits=""
	for n in $names; do
		grep -qaF -- "$n" "$1" && hits="$hits $n"
	done
	echo "${hits# }"
}
for f in "${shipped[@]}"; do
	hits=$(found "$f")
	if [ -n "$hits" ]; then
		echo "shipped-has-no-faults: $f holds mediator fault code: $hits"
		bad=1
	fi
done
want=$(wc -w <<<"$names")
got=$(found "$build/faults/gttlab" | wc -w)
if [ "$got" != "$want" ]; then
	echo "shipped-has-no-faults: the search finds $got of the $want names in the test build's CLI: it cannot be trusted"
	bad=1
fi
[ "$bad" = 0 ] && echo "shipped-has-no-faults: none of the $want fault names in ${#shipped[@]} shipped binaries; all of them in build/faults/gttlab"
exit "$bad"
