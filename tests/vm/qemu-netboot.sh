#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/vm/qemu-netboot.sh EFI_APP WORKDIR: gttlab.efi loaded over the network, as a lab boots it
# (issue 43). QEMU's user network serves EFI_APP over TFTP (-netdev user,tftp=DIR,bootfile=...);
# the virtio NIC's iPXE ROM fetches and starts it under OVMF. The image then has no writable volume
# of its own (iPXE's is read-only), so
#   disk:     a second FAT disk labelled RESULTS holds gttlab.cfg (--device sim:skl --debug-exit): the
#             application must read its arguments there, say on the console that the journal and
#             reports go to RESULTS, pass (33) and leave summary.txt, results.tap, results.xml and
#             results.json on it;
#   journal:  the same disk, a journaled run (--journal-model) reset before its third check: the
#             journal must be on RESULTS; the next network boot restores from it, says so in
#             \gttlab\restore.txt there, deletes it and passes;
#   none:     no disk at all: the application must refuse with its one line ("no writable FAT volume
#             for the journal and reports ... nothing was run") and power off, never run a check;
#   readonly: RESULTS attached read-only (virtio-blk: QEMU's SATA takes no read-only drive), its gttlab.cfg without --no-journal: the same refusal, as a
#             device error (37), nothing written;
#   no-journal: the read-only disk with --no-journal: the checks run on the model, the reports on the
#             console only (said), and pass.
# Each boot runs under timeout; QEMU's status comes from isa-debug-exit as in qemu-run.sh.
set -u
app=${1:?usage: qemu-netboot.sh EFI_APP WORKDIR}
work=${2:?usage: qemu-netboot.sh EFI_APP WORKDIR}
timeout_s=${GTTLAB_QEMU_TIMEOUT:-600}
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$OVMF_CODE" "$OVMF_VARS" "$app"; do
	[ -f "$f" ] || { echo "qemu-netboot: $f is missing (make efi; apt-get install ovmf)"; exit 2; }
done
for t in qemu-system-x86_64 mformat mcopy mdir timeout; do
	command -v "$t" >/dev/null || { echo "qemu-netboot: $t is not installed (make deps)"; exit 2; }
done
rm -rf "$work" && mkdir -p "$work/tftp" || exit 2
cp "$app" "$work/tftp/gttlab.efi" || exit 2
failures=0
fail() { echo "qemu-netboot: FAIL: $*"; failures=$((failures + 1)); }

# disk IMAGE CFG: a FAT disk labelled RESULTS holding \gttlab.cfg (and no boot loader)
disk() {
	rm -f "$1" && truncate -s 64M "$1" && mformat -i "$1" -F -v RESULTS :: >/dev/null &&
		printf '%s\n' "$2" > "$work/gttlab.cfg" && mcopy -o -i "$1" "$work/gttlab.cfg" ::/gttlab.cfg
}

# netboot LOG [qemu args...]: one network boot; $status, $elapsed
netboot() {
	local log=$1 t0
	shift
	cp "$OVMF_VARS" "$work/vars.fd"
	t0=$(date +%s)
	timeout "$timeout_s" qemu-system-x86_64 -machine q35,accel=tcg -m 1024 -smp 1 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,unit=1,file="$work/vars.fd" \
		-netdev user,id=n0,tftp="$work/tftp",bootfile=gttlab.efi -device virtio-net-pci,netdev=n0,bootindex=1 \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial file:"$log" -display none -monitor none -no-reboot "$@" </dev/null 2>"$log.stderr"
	status=$?
	elapsed=$(($(date +%s) - t0))
	tr -d '\r' < "$log" > "$log.txt"
}

# said LABEL LOG TEXT: the console said TEXT
said() { grep -qF -- "$3" "$2.txt" || fail "$1: the console does not say '$3'; serial log: $2"; }
# loaded LABEL LOG: the application came over TFTP, not from a disk
loaded() {
	grep -q 'tftp://10.0.2.2/gttlab.efi... ok' "$2.txt" && grep -q 'gttlab.efi: register-level checks' "$2.txt" ||
		fail "$1: gttlab.efi was not loaded over TFTP and started; serial log: $2"
}

# ---- disk: reports on the second disk ----
img=$work/results.img
disk "$img" "--device sim:skl --debug-exit --run ggtt-*" || { echo "qemu-netboot: cannot build the FAT image"; exit 2; }
netboot "$work/disk.log" -drive format=raw,file="$img"
echo "qemu-netboot: disk: QEMU status $status in ${elapsed}s"
loaded disk "$work/disk.log"
[ "$status" = 33 ] || fail "disk: QEMU status $status, not 33 (pass)"
said disk "$work/disk.log" "gttlab: arguments from gttlab.cfg on volume RESULTS (not the boot volume)"
said disk "$work/disk.log" "gttlab: journal and reports on volume RESULTS (the first writable volume"
for f in summary.txt results.tap results.xml results.json; do
	mcopy -n -i "$img" "::/gttlab/$f" "$work/disk-$f" 2>/dev/null || { fail "disk: $f is not on RESULTS"; continue; }
done
grep -q '^PASS on sim:skl (skl, simulated)' "$work/disk-summary.txt" 2>/dev/null ||
	fail "disk: summary.txt on RESULTS has no PASS on sim:skl: $(head -c 300 "$work/disk-summary.txt" 2>/dev/null)"

# ---- journal: a reset in a journaled run, restored at the next network boot ----
disk "$img" "--device sim:skl --debug-exit --run ggtt-* --journal-model --crash-before 3"
netboot "$work/journal-1.log" -drive format=raw,file="$img"
if mcopy -n -i "$img" ::/gttlab/journal.bin "$work/journal.bin" 2>/dev/null && [ -s "$work/journal.bin" ]; then
	disk_cfg="--device sim:skl --debug-exit --run ggtt-*"
	printf '%s\n' "$disk_cfg" > "$work/gttlab.cfg" && mcopy -o -i "$img" "$work/gttlab.cfg" ::/gttlab.cfg
	netboot "$work/journal-2.log" -drive format=raw,file="$img"
	echo "qemu-netboot: journal: the boot after the reset: QEMU status $status in ${elapsed}s"
	[ "$status" = 33 ] || fail "journal: the boot after the reset: QEMU status $status, not 33"
	if mcopy -n -i "$img" ::/gttlab/restore.txt "$work/restore.txt" 2>/dev/null &&
		grep -q 'restored efi:ffff:00:02.0 from .gttlab.journal.bin' "$work/restore.txt"; then
		echo "qemu-netboot: journal: $(cat "$work/restore.txt")"
	else
		fail "journal: no restore.txt on RESULTS saying what was restored: $(cat "$work/restore.txt" 2>/dev/null)"
	fi
	mcopy -n -i "$img" ::/gttlab/journal.bin "$work/journal-after.bin" 2>/dev/null &&
		fail "journal: \\gttlab\\journal.bin is still on RESULTS after the restoring boot"
else
	fail "journal: no \\gttlab\\journal.bin on RESULTS after the reset (QEMU status $status); serial log: $work/journal-1.log"
fi

# ---- none: no volume to write to ----
netboot "$work/none.log"
echo "qemu-netboot: none: QEMU status $status in ${elapsed}s"
loaded none "$work/none.log"
said none "$work/none.log" "gttlab: no writable FAT volume for the journal and reports"
said none "$work/none.log" "nothing was run; name a writable FAT volume with --volume LABEL, or run with --no-journal"
grep -qE '^\[ *[0-9]+/|verdict' "$work/none.log.txt" && fail "none: a check ran or a verdict was given; serial log: $work/none.log"
[ "$status" = 0 ] || fail "none: QEMU status $status: the application did not power the machine off after its refusal"

# ---- readonly: a volume, but not a writable one ----
disk "$img" "--device sim:skl --debug-exit"
netboot "$work/readonly.log" -drive if=none,id=ro,format=raw,file="$img",readonly=on -device virtio-blk-pci,drive=ro
echo "qemu-netboot: readonly: QEMU status $status in ${elapsed}s"
[ "$status" = 37 ] || fail "readonly: QEMU status $status, not 37 (the refusal, a device error)"
said readonly "$work/readonly.log" "gttlab: no writable FAT volume for the journal and reports"
mdir -i "$img" ::/gttlab >/dev/null 2>&1 && fail "readonly: \\gttlab was written on a read-only disk"

# ---- no-journal: the same disk, --no-journal: console only ----
disk "$img" "--device sim:skl --debug-exit --no-journal --run ggtt-*"
netboot "$work/no-journal.log" -drive if=none,id=ro,format=raw,file="$img",readonly=on -device virtio-blk-pci,drive=ro
echo "qemu-netboot: no-journal: QEMU status $status in ${elapsed}s"
[ "$status" = 33 ] || fail "no-journal: QEMU status $status, not 33"
said no-journal "$work/no-journal.log" "gttlab: --no-journal: no writable FAT volume"
said no-journal "$work/no-journal.log" "the reports are on this console only"
said no-journal "$work/no-journal.log" "PASS on sim:skl (skl, simulated)"

if [ "$failures" -gt 0 ]; then
	echo "qemu-netboot: $failures failure(s)"
	exit 1
fi
echo "qemu-netboot: over TFTP, the application wrote its reports and journal to the RESULTS disk, restored from it, refused without a writable volume, and ran console-only with --no-journal"
