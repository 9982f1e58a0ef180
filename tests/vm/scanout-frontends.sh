#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/vm/scanout-frontends.sh BUILD_DIR: every front-end keeps its checks clear of an enabled display
# plane, because the runner finds the planes itself (one safety path).
#
# The plane: pipe A's primary plane, linear 1920x1080 at 4 bytes a pixel (stride 7680), scanning out
# from the middle of the aperture, where the runner places claims first. By the documented rule
# (hw/scanout.h) the range kept clear is the surface widened by 1 MiB on either side:
# [mid - 1 MiB, mid + 7680 * 1080 + 1 MiB). It is enabled
#   - on the model by the test fault `plane` (GTTLAB_TEST_FAULT, --fault in the EFI application),
#     on sim:skl (PLANE_CTL) and sim:hsw (DSPCNTR): the test build's front-ends, BUILD_DIR/faults/
#     (the shipped ones hold no model fault);
#   - on a fake sysfs tree (tests/lib/fake_sysfs.sh) by writing PLANE_CTL_1_A, PLANE_STRIDE_1_A,
#     PLANE_SIZE_1_A and PLANE_SURF_1_A into resource0, a real-device path.
# For `gttlab check` and the EFI application every claim in the TAP report (`claim: 0xA+N pages`)
# must lie outside the range and the keeping-off line (the same words in every front-end) must name
# it, once; the IGT binaries must say the line once on stdout and pass with stderr clean (on the
# model). Runs as root (the fake tree is a real-device path). KEEP=1 keeps the temporary directory.
set -u

if [ $# -ne 1 ] || [ ! -x "$1/gttlab" ]; then
	echo "usage: $0 BUILD_DIR (holding gttlab, igt/, efi/gttlab.efi and their test build in faults/)" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
bin=$build/gttlab
faults=$build/faults	# the test build: the model faults are compiled in there only
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/gttlab-scanout.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"
passed=0
failed=0

ok() { echo "scanout: $1: kept clear"; passed=$((passed + 1)); }
bad() { echo "scanout: $1: FAIL: $2"; failed=$((failed + 1)); }

# range APERTURE_BYTES: the kept-clear range, from the formula above
range() {
	local mid=$(($1 / 2))
	echo "$((mid - 1048576)) $((mid + 7680 * 1080 + 1048576))"
}

# claims_clear NAME TAP START END: every claim of the TAP report outside [START, END), at least one claim
claims_clear() {
	local name=$1 tap=$2 start=$3 end=$4 a n b count=0
	while read -r a n; do
		b=$((a + n * 4096))
		count=$((count + 1))
		if (( b > start && a < end )); then
			bad "$name" "a check claimed $(printf '0x%x-0x%x' "$a" "$b"), behind the plane"
			return 1
		fi
	done < <(sed -n 's/^  claim: \(0x[0-9a-f]*\)+\([0-9]*\) pages$/\1 \2/p' "$tap")
	if [ "$count" = 0 ]; then
		bad "$name" "no claim in the TAP report"
		return 1
	fi
}

# line_names NAME FILE START END: the keeping-off line, in the words every front-end shares, names
# exactly the range, once
line_names() {
	local want count
	want=$(printf 'gttlab: keeping off GGTT 0x%x-0x%x: primary plane of pipe A is enabled' "$3" "$4")
	count=$(tr -d '\r' <"$2" | grep -c -x -F "$want")
	if [ "$count" != 1 ]; then
		bad "$1" "'$want' said $count times, not once: $(grep -m1 'keeping off' "$2")"
		return 1
	fi
}

# some_passed NAME TAP: at least one check passed (a run where everything skipped proves nothing)
some_passed() {
	grep -q '^ok [0-9]* - [a-z0-9-]*$' "$2" || { bad "$1" "no check passed"; return 1; }
}

# ---- gttlab check on the model, gen9 and gen7.5 planes ----
for p in skl:268435456 hsw:536870912; do
	plat=${p%%:*}
	read -r start end < <(range "${p#*:}")
	GTTLAB_TEST_FAULT=plane "$faults/gttlab" --device "sim:$plat" check --format tap >"$tmp/cli-$plat.tap" 2>"$tmp/cli-$plat.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "gttlab check sim:$plat" "exit $rc: $(grep -m1 '^not ok' "$tmp/cli-$plat.tap")"
	elif line_names "gttlab check sim:$plat" "$tmp/cli-$plat.err" "$start" "$end" &&
		claims_clear "gttlab check sim:$plat" "$tmp/cli-$plat.tap" "$start" "$end" &&
		some_passed "gttlab check sim:$plat" "$tmp/cli-$plat.tap"; then
		ok "gttlab check sim:$plat ($(grep -c '^  claim:' "$tmp/cli-$plat.tap") claims)"
	fi
done

# ---- the IGT binaries on the model: the line once on stdout (an info line), stderr clean on a pass ----
read -r start end < <(range 268435456)
for b in gtt_ggtt gtt_fence gtt_aperture; do
	GTTLAB_DEVICE=sim:skl GTTLAB_TEST_FAULT=plane "$faults/igt/$b" >"$tmp/$b.out" 2>"$tmp/$b.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "$b" "exit $rc: $(head -1 "$tmp/$b.err")"
	elif [ -s "$tmp/$b.err" ]; then
		bad "$b" "stderr not clean on a pass: $(head -1 "$tmp/$b.err")"
	elif line_names "$b" "$tmp/$b.out" "$start" "$end"; then
		ok "$b on sim:skl"
	fi
done

# ---- a fake sysfs tree: the real-device path ----
tree=$tmp/tree
fake_device "$tree" 0000:00:02.0 0x8086 0x1912 0x030000 gpu 256
r0=$tree/bus/pci/devices/0000:00:02.0/resource0
# put32 OFFSET VALUE: a little-endian dword into resource0
put32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" |
	dd of="$r0" bs=1 seek=$(($1)) conv=notrunc status=none; }
put32 0x70188 120				# PLANE_STRIDE_1_A: 7680 bytes in 64-byte units
put32 0x70190 $(((1079 << 16) | 1919))		# PLANE_SIZE_1_A
put32 0x7019c 0x8000000				# PLANE_SURF_1_A: the middle of the 256 MiB aperture
put32 0x70180 0x80000000			# PLANE_CTL_1_A: enabled, linear
"$bin" --device pci:0000:00:02.0 --sysfs-root "$tree" --journal "$tmp/j" check --format tap >"$tmp/fake.tap" 2>"$tmp/fake.err"
rc=$?
# a fake tree has no translation, so data-path checks fail there: only the claims are judged
if [ "$rc" -gt 1 ]; then
	bad "gttlab check on the fake tree" "exit $rc: $(grep -v '^\[' "$tmp/fake.err" | head -1)"
elif line_names "gttlab check on the fake tree" "$tmp/fake.err" "$start" "$end" &&
	claims_clear "gttlab check on the fake tree" "$tmp/fake.tap" "$start" "$end"; then
	ok "gttlab check on a fake tree with PLANE_CTL_1_A enabled"
fi
GTTLAB_DEVICE=pci:0000:00:02.0 GTTLAB_SYSFS_ROOT=$tree GTTLAB_JOURNAL=$tmp/j "$build/igt/gtt_ggtt" >"$tmp/fake-igt.out" 2>&1
if line_names "gtt_ggtt on the fake tree" "$tmp/fake-igt.out" "$start" "$end"; then
	ok "gtt_ggtt on a fake tree with PLANE_CTL_1_A enabled"
fi

# ---- the EFI application under QEMU (one boot) ----
if [ -f "$faults/efi/gttlab.efi" ]; then
	GTTLAB_QEMU_NO_IVSHMEM=1 GTTLAB_QEMU_NO_JOURNAL=1 GTTLAB_QEMU_ARGS="--fault plane" \
		"$repo/tests/vm/qemu-run.sh" "$faults/efi/gttlab.efi" "$tmp/qemu" skl >"$tmp/qemu.log" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		bad "gttlab.efi" "qemu-run exit $rc: $(grep -m1 FAIL "$tmp/qemu.log")"
	elif line_names "gttlab.efi" "$tmp/qemu/skl/serial.log" "$start" "$end" &&
		claims_clear "gttlab.efi" "$tmp/qemu/skl/results.tap" "$start" "$end"; then
		ok "gttlab.efi in QEMU ($(grep -c '^  claim:' "$tmp/qemu/skl/results.tap") claims)"
	fi
else
	bad "gttlab.efi" "$faults/efi/gttlab.efi is not built (make $faults/efi/gttlab.efi)"
fi

echo "scanout: $passed passed, $failed failed"
[ "$failed" = 0 ]
