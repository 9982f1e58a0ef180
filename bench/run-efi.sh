#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One timed boot of an EFI application in QEMU/OVMF, for make bench (P5).
#   bench/run-efi.sh EFI_APP WORKDIR [CFG-TEXT]
# Boots the way tests/vm/qemu-run.sh does: a FAT image made with mtools holding
# EFI/BOOT/BOOTX64.EFI (and EFI/BOOT/gttlab.cfg holding CFG-TEXT when given),
# OVMF_CODE_4M.fd with a fresh copy of the variable store, -machine q35,accel=tcg,
# isa-debug-exit at 0xf4, under timeout. Prints one line:
#   status=QEMU-EXIT-STATUS seconds=BOOT-TO-VERDICT pool_calls=N pool_s=SECONDS
# the last two from the application's "firmware memory calls" line on the serial console (-1: none said).
# (33 is the pass verdict: (0x10 << 1) | 1). Only the QEMU run is timed; the image is
# built before. Exit 2 when something it needs is missing.
set -u
app=${1:?usage: run-efi.sh EFI_APP WORKDIR [CFG-TEXT]}
work=${2:?usage: run-efi.sh EFI_APP WORKDIR [CFG-TEXT]}
cfg=${3:-}
timeout_s=${GTTLAB_QEMU_TIMEOUT:-600}

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$OVMF_CODE" "$OVMF_VARS" "$app"; do
	[ -f "$f" ] || { echo "run-efi: $f is missing (make efi; apt-get install ovmf)"; exit 2; }
done
for t in qemu-system-x86_64 mformat mcopy mmd timeout; do
	command -v "$t" >/dev/null || { echo "run-efi: $t is not installed"; exit 2; }
done
mkdir -p "$work"
img="$work/esp.img"
rm -f "$img"
truncate -s 64M "$img"
mformat -i "$img" -F -v BENCH :: >/dev/null &&
	mmd -i "$img" ::/EFI ::/EFI/BOOT &&
	mcopy -i "$img" "$app" ::/EFI/BOOT/BOOTX64.EFI || { echo "run-efi: cannot build the FAT image"; exit 2; }
if [ -n "$cfg" ]; then
	printf '%s\n' "$cfg" > "$work/gttlab.cfg"
	mcopy -i "$img" "$work/gttlab.cfg" ::/EFI/BOOT/gttlab.cfg || { echo "run-efi: cannot copy gttlab.cfg"; exit 2; }
fi
cp "$OVMF_VARS" "$work/vars.fd"
t0=$(date +%s%N)
timeout "$timeout_s" qemu-system-x86_64 -machine q35,accel=tcg -m 1024 -smp 1 \
	-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
	-drive if=pflash,format=raw,unit=1,file="$work/vars.fd" \
	-drive format=raw,file="$img" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial file:"$work/serial.log" -display none -monitor none -net none -no-reboot </dev/null >/dev/null 2>&1
status=$?
ns=$(( $(date +%s%N) - t0 ))
# the application's own account of the firmware's memory services (gttlab.efi says it as it ends; the floor does not)
pool=$(grep -ao 'firmware memory calls [0-9]*, [0-9.]* s inside them' "$work/serial.log" 2>/dev/null | tail -n 1)
pool_calls=$(printf '%s' "$pool" | sed -n 's/firmware memory calls \([0-9]*\), .*/\1/p')
pool_s=$(printf '%s' "$pool" | sed -n 's/.*, \([0-9.]*\) s inside them/\1/p')
printf 'status=%d seconds=%d.%09d pool_calls=%s pool_s=%s\n' "$status" $((ns / 1000000000)) $((ns % 1000000000)) \
	"${pool_calls:--1}" "${pool_s:--1}"
