#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/host/igt-device.sh BUILD_DIR: the IGT binaries choose their device as a lab expects (issue 43).
# --device, else GTTLAB_DEVICE, else IGT_DEVICE in IGT's own filter syntax (igt-gpu-tools
# lib/igt_device_scan.c: sys:PATH, pci:vendor=..,device=..,card=N, pci:slot=BDF, drm:/dev/dri/cardN),
# else auto: the first Intel GPU. The model runs only when a device string names it: on a machine
# without its GPU every subtest skips (77) with the reason, the platforms subtest included, never a
# pass. A malformed filter is the lab's configuration error (98, the reason on stderr).
# On fake sysfs trees (tests/lib/fake_sysfs.sh): one with an Intel GPU at 0000:00:02.0, an Intel
# non-display function and an AMD display device; one with nothing. What a binary opened is read
# from its info line "gttlab V on DEVICE (PLATFORM, KIND)". Runs as root (the fake GPU is a
# real-device path, journaled under the temporary directory).
set -u
if [ $# -ne 1 ] || [ ! -x "$1/igt/gtt_ggtt" ]; then
	echo "usage: $0 BUILD_DIR (holding igt/gtt_ggtt)" >&2
	exit 2
fi
bin=$(cd "$1" && pwd)/igt/gtt_ggtt
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/gttlab-igt-device.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "igt-device: FAIL: $*"; failed=$((failed + 1)); }

gpu=$tmp/gpu
fake_device "$gpu" 0000:00:02.0 0x8086 0x1912 0x030000 gpu 256
fake_device "$gpu" 0000:00:1f.0 0x8086 0xa143 0x060100 other
fake_device "$gpu" 0000:03:00.0 0x1002 0x67df 0x030000 other
mkdir -p "$gpu/class/drm/card0" "$gpu/class/drm/card1"
ln -s ../../../bus/pci/devices/0000:00:02.0 "$gpu/class/drm/card0/device"
ln -s ../../../bus/pci/devices/0000:03:00.0 "$gpu/class/drm/card1/device"
empty=$tmp/empty
mkdir -p "$empty/bus/pci/devices"

# run TREE SUBTEST ENV...: the binary with only ENV set; OUT and RC
run() {
	local tree=$1 sub=$2
	shift 2
	# a journal for the fake GPU; the model keeps none and refuses one
	local j=GTTLAB_JOURNAL=$tmp/journal
	case "$*" in *=sim:*) j=GTTLAB_JOURNAL= ;; esac
	OUT=$(env -u GTTLAB_DEVICE -u IGT_DEVICE -u GTTLAB_JOURNAL GTTLAB_SYSFS_ROOT="$tree" "$j" "$@" \
		"$bin" --run-subtest "$sub" 2>&1)
	RC=$?
}
# opened WHAT DEVICE KIND ENV...: ggtt-pte-readback ran on DEVICE, a KIND device
opened() {
	local what=$1 dev=$2 kind=$3 pci=""
	shift 3
	[ "$kind" = hardware ] && pci=", PCI 8086:1912"
	run "$gpu" ggtt-pte-readback "$@"
	if ! grep -q "^gttlab [^ ]* on $dev ([a-z]*, $kind$pci)\$" <<<"$OUT"; then
		bad "$what: expected a run on $dev ($kind); exit $RC: $(head -3 <<<"$OUT" | tr '\n' '|')"
	elif grep -q 'Subtest ggtt-pte-readback: SKIP' <<<"$OUT"; then
		bad "$what: opened $dev but skipped: $(tr '\n' '|' <<<"$OUT")"
	else
		ok
	fi
}
# skipped WHAT WORDS ENV...: ggtt-pte-readback exits 77 saying WORDS
skipped() {
	local what=$1 words=$2 tree=$gpu
	shift 2
	[ "$1" = --empty ] && { tree=$empty; shift; }
	run "$tree" ggtt-pte-readback "$@"
	if [ "$RC" != 77 ] || ! grep -q 'Subtest ggtt-pte-readback: SKIP' <<<"$OUT" || ! grep -qF "$words" <<<"$OUT"; then
		bad "$what: expected a skip (77) saying '$words'; exit $RC: $(tr '\n' '|' <<<"$OUT")"
	else
		ok
	fi
}
# refused WHAT WORDS ENV...: a configuration error, 98 with WORDS on stderr
refused() {
	local what=$1 words=$2
	shift 2
	run "$gpu" ggtt-pte-readback "$@"
	if [ "$RC" != 98 ] || ! grep -qF "$words" <<<"$OUT"; then
		bad "$what: expected a failure (98) saying '$words'; exit $RC: $(tr '\n' '|' <<<"$OUT")"
	else
		ok
	fi
}

# no device named: auto, the Intel GPU; none here is a skip, never the model
opened "no device named, a GPU" pci:0000:00:02.0 hardware
skipped "no device named, no GPU" "no usable device auto (no device named)" --empty
run "$empty" platforms
if [ "$RC" = 77 ] && grep -q 'Subtest platforms: SKIP' <<<"$OUT" && grep -q 'runs the models, and only when the device string names one' <<<"$OUT"; then
	ok
else
	bad "the platforms subtest with no device named: exit $RC: $(tr '\n' '|' <<<"$OUT")"
fi
run "$empty" ggtt-pte-readback,platforms
[ "$RC" = 77 ] && ok || bad "a whole run on a machine without its GPU exits $RC, not 77"

# IGT_DEVICE, IGT's filters
opened "IGT_DEVICE vendor" pci:0000:00:02.0 hardware IGT_DEVICE=pci:vendor=8086
opened "IGT_DEVICE vendor name, device, card" pci:0000:00:02.0 hardware IGT_DEVICE=pci:vendor=Intel,device=1912,card=0
opened "IGT_DEVICE integrated" pci:0000:00:02.0 hardware IGT_DEVICE=pci:vendor=intel,device=integrated
opened "IGT_DEVICE slot" pci:0000:00:02.0 hardware IGT_DEVICE=pci:slot=0000:00:02.0
opened "IGT_DEVICE sys: path" pci:0000:00:02.0 hardware IGT_DEVICE=sys:/sys/devices/pci0000:00/0000:00:02.0/drm/card0
opened "IGT_DEVICE drm: node" pci:0000:00:02.0 hardware IGT_DEVICE=drm:/dev/dri/card0
skipped "IGT_DEVICE second Intel card" "card=1 is not among them" IGT_DEVICE=pci:vendor=8086,card=1
skipped "IGT_DEVICE another vendor" "vendor 0x1002: not an Intel GPU" IGT_DEVICE=pci:vendor=amd
skipped "IGT_DEVICE a DRM node of another vendor" "no usable device pci:0000:03:00.0" IGT_DEVICE=drm:/dev/dri/card1
skipped "IGT_DEVICE discrete, none Intel" "card=0 is not among them" IGT_DEVICE=pci:vendor=intel,device=discrete
skipped "IGT_DEVICE, no GPU" "0 of the 0 display devices" --empty IGT_DEVICE=pci:vendor=8086
refused "IGT_DEVICE in gttlab's grammar" "malformed device filter IGT_DEVICE 'sim:skl'" IGT_DEVICE=sim:skl
refused "IGT_DEVICE card=all" "gttlab runs on one device at a time" IGT_DEVICE=pci:vendor=8086,card=all
refused "IGT_DEVICE codename" "gttlab reads no codenames" IGT_DEVICE=pci:vendor=8086,device=skylake
refused "IGT_DEVICE unknown key" "'colour' is not one of vendor, device, card, slot" IGT_DEVICE=pci:colour=blue
refused "IGT_DEVICE sys: without a function" "no PCI function" IGT_DEVICE=sys:/sys/devices/platform/vgem

# the order: --device, GTTLAB_DEVICE, IGT_DEVICE; the model only where named
opened "GTTLAB_DEVICE over IGT_DEVICE" sim:hsw simulated GTTLAB_DEVICE=sim:hsw IGT_DEVICE=pci:vendor=amd
OUT=$(env -u GTTLAB_DEVICE GTTLAB_SYSFS_ROOT="$gpu" GTTLAB_JOURNAL="$tmp/journal" IGT_DEVICE=pci:vendor=amd \
	"$bin" --device pci:slot=0000:00:02.0 --run-subtest ggtt-pte-readback 2>&1)
grep -q "^gttlab [^ ]* on pci:0000:00:02.0 (skl, hardware, PCI 8086:1912)$" <<<"$OUT" && ok ||
	bad "--device with an IGT filter over IGT_DEVICE: $(tr '\n' '|' <<<"$OUT")"
run "$empty" platforms GTTLAB_DEVICE=sim:skl
[ "$RC" = 0 ] && grep -q 'Dynamic subtest skl: SUCCESS' <<<"$OUT" && ok ||
	bad "the platforms subtest with the model named: exit $RC: $(tr '\n' '|' <<<"$OUT" | head -c 400)"

echo "igt-device: $passed passed, $failed failed"
[ "$failed" = 0 ]
