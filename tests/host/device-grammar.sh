#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/device-grammar.sh BUILD_DIR: every command of gttlab over one table of device strings.
#
# The device grammar is one module (hw/device_spec.h) that every command reads, so every command
# accepts every valid string: run each command of the table below on each device of the table, and
# each must exit 0 (a command once parsed the string itself: `encode pte` on sim:hsw,edram said
# "unknown platform 'hsw,edram'" while `info` on it worked). The devices: the model on four
# generations and with eDRAM, vGPUs of the Dom0 runtime on it with options, a real-device path (a
# fake sysfs tree: tests/lib/fake_sysfs.sh) and a vGPU `gttlab dom0 serve` serves (pv:). A check's own
# verdict is not the grammar's: `check` runs one check every device can run. Then the strings the
# grammar must refuse: exit 2, one line naming the string, for every command that takes a device.
set -u
build=${1:?usage: tests/host/device-grammar.sh BUILD_DIR}
bin=$(cd "$build" && pwd)/gttlab
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/gttlab-grammar.XXXXXX)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"
bdf=0000:00:02.0 tree=$tmp/tree
fake_device "$tree" "$bdf" 0x8086 0x1912 0x030000 gpu 64

# the pv: device: a vGPU of a dom0 serve on the model, one guest at a time, as long as this runs
"$bin" --device sim:skl dom0 serve --dir "$tmp/pv" --guests 1 > "$tmp/serve.log" 2>&1 &
spid=$!
for _ in $(seq 200); do [ -S "$tmp/pv/vgpu1.sock" ] && break; sleep 0.05; done
[ -S "$tmp/pv/vgpu1.sock" ] || { echo "device-grammar: dom0 serve did not listen: $(cat "$tmp/serve.log")"; exit 1; }

# a scenario with no device's sizes in it
cat > "$tmp/small.scn" <<'EOF'
create g1 low=8M slots=1 fences=2 mem=16
create g2 low=8M slots=1 fences=2 mem=16
switch g1
switch g2
destroy g1
EOF

devices=(
	sim sim:snb sim:hsw sim:hsw,edram sim:tgl
	vgpu:sim vgpu:sim:hsw,edram,low=64 vgpu:sim:bdw,peers=1,fences=2
	"pci:$bdf"
	"pv:$tmp/pv/vgpu1.sock,timeout=5000"
)
commands=(
	"info"
	"encode pte 0x1000"
	"decode pte 0x1003"
	"encode fence --start 0 --size 1M --stride 512 --tiling x"
	"decode fence 0x1"
	"dump ggtt --end 0x10000"
	"dump fences"
	"snapshot $tmp/snap.bin"
	"check --run ggtt-pte-readback"
	"dom0 run $tmp/small.scn --quiet"
)
# run DEVICE WORDS...: gttlab on DEVICE (the fake tree's options for pci:), output in $tmp/out
run() {
	local d=$1
	shift
	local extra=()
	[ "${d#pci:}" != "$d" ] && extra=(--sysfs-root "$tree" --journal "$tmp/journal")
	timeout 120 "$bin" --device "$d" "${extra[@]}" "$@" > "$tmp/out" 2>&1
}

bad=0 ran=0
for d in "${devices[@]}"; do
	for c in "${commands[@]}"; do
		# shellcheck disable=SC2086
		run "$d" $c
		rc=$?
		ran=$((ran + 1))
		if [ "$rc" != 0 ]; then
			echo "device-grammar: FAIL: gttlab --device $d $c: exit $rc: $(grep -m1 . "$tmp/out")"
			bad=$((bad + 1))
		fi
	done
done
echo "device-grammar: $((ran - bad)) of $ran runs ($(( ${#commands[@]} )) commands x ${#devices[@]} devices) took the device"

# refused: exit 2 and one line that names the string, for every command that opens a device
refused=(
	"sim:zzz" "sim:hsw,gt3e" "sim:,edram" "sim:skl," "sim:" "sim:hsw,edram,edram" "gpu0"
	"vgpu:" "vgpu:pci:$bdf" "vgpu:sim:skl,,low=1" "vgpu:sim:skl,low=1,low=2" "vgpu:sim:skl,low=" "vgpu:sim:skl,=3"
	"pv:$tmp/pv/vgpu1.sock,wait=zz" "pv:$tmp/pv/vgpu1.sock,color=red" "auto:x"
)
opening=("info" "dump fences" "snapshot $tmp/snap-bad.bin" "check" "dom0 run $tmp/small.scn")
nref=0
for d in "${refused[@]}"; do
	for c in "${opening[@]}"; do
		# shellcheck disable=SC2086
		run "$d" $c
		rc=$?
		nref=$((nref + 1))
		if [ "$rc" != 2 ] || [ "$(wc -l < "$tmp/out")" != 1 ] || ! grep -qF -- "${d%%,*}" "$tmp/out"; then
			echo "device-grammar: FAIL: gttlab --device '$d' $c: exit $rc, not 2 with one line naming it: $(head -c 300 "$tmp/out")"
			bad=$((bad + 1))
		fi
	done
done
[ -e "$tmp/snap-bad.bin" ] && { echo "device-grammar: FAIL: a refused device left its snapshot file behind"; bad=$((bad + 1)); }
echo "device-grammar: ${#refused[@]} malformed strings refused by all ${#opening[@]} commands that open a device ($nref runs)"
[ "$bad" = 0 ]
