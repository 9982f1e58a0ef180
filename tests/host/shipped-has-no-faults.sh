#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/shipped-has-no-faults.sh BUILD: the shipped binaries hold no deliberate fault. Two kinds are
# compiled only into the test build (-DGTTLAB_FAULTS, BUILD/faults/):
#   - the mediator bugs of dom0/faults.h: every name of struct dom0_faults, and the CLI's --host-fault;
#   - the model faults of checks/test_faults.h (TEST_FAULT_NAMES), and the ways in: GTTLAB_TEST_FAULT
#     (gttlab check, the IGT binaries), --fault (gttlab.efi), test_fault_inject.
# Every name is searched in the bytes of build/gttlab, the IGT binaries and build/efi/gttlab.efi (the
# CLI and IGT binaries carry DWARF, so a struct member or a code path of that name would show); none may
# be there. The search proves itself on the test build: its CLI must hold every name but the EFI
# application's --fault, its IGT binary the model faults and GTTLAB_TEST_FAULT, its EFI application
# the model faults and --fault.
set -euo pipefail
build=${1:?usage: tests/host/shipped-has-no-faults.sh BUILD}
mediator=$(sed -n 's/^[[:space:]]*bool \([a-z_]*\);.*/\1/p' dom0/faults.h)
mediator="$mediator host-fault host_faults check_faults"
[ "$(wc -w <<<"$mediator")" -gt 10 ] || { echo "shipped-has-no-faults: no fault names read from dom0/faults.h"; exit 2; }
model=$(sed -n 's/^#define TEST_FAULT_NAMES "\(.*\)"$/\1/p' checks/test_faults.h | tr -d , | tr ' ' '\n' | grep -vx plane || true)
[ "$(wc -w <<<"$model")" -ge 2 ] || { echo "shipped-has-no-faults: no model fault names read from checks/test_faults.h"; exit 2; }
# "plane" is a word of every display path: the model fault of that name is found by its ways in
names="$mediator $model GTTLAB_TEST_FAULT --fault test_fault_inject"
shipped=("$build/gttlab" "$build"/igt/gtt_* "$build/efi/gttlab.efi")
proofs=("$build/faults/gttlab" "$build/faults/igt/gtt_fence" "$build/faults/efi/gttlab.efi")
bad=0
for f in "${shipped[@]}" "${proofs[@]}"; do
	[ -f "$f" ] || { echo "shipped-has-no-faults: $f is not built"; exit 2; }
done
# found FILE NAMES...: those of NAMES in FILE's bytes, one line
found() {
	local f=$1 n hits=""
	shift
	for n in "$@"; do
		grep -qaF -- "$n" "$f" && hits="$hits $n"
	done
	echo "${hits# }"
}
for f in "${shipped[@]}"; do
	# shellcheck disable=SC2086
	hits=$(found "$f" $names)
	if [ -n "$hits" ]; then
		echo "shipped-has-no-faults: $f holds fault code: $hits"
		bad=1
	fi
done
# proof FILE NAMES...: every one of NAMES is in FILE, or the search cannot be trusted
proof() {
	local f=$1 want got
	shift
	want=$#
	got=$(found "$f" "$@" | wc -w)
	if [ "$got" != "$want" ]; then
		echo "shipped-has-no-faults: the search finds $got of the $want names in the test build's $f: it cannot be trusted"
		bad=1
	fi
}
# shellcheck disable=SC2086
proof "$build/faults/gttlab" $mediator $model GTTLAB_TEST_FAULT test_fault_inject
# shellcheck disable=SC2086
proof "$build/faults/igt/gtt_fence" $model GTTLAB_TEST_FAULT
# shellcheck disable=SC2086
proof "$build/faults/efi/gttlab.efi" $model --fault
[ "$bad" = 0 ] && echo "shipped-has-no-faults: none of the $(wc -w <<<"$names") fault names in ${#shipped[@]} shipped binaries;" \
	"each of them in the test build's binaries that have it"
exit "$bad"
