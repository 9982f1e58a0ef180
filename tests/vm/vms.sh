#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real VM boundary (docs/transport.md): `gttlab dom0 serve` in this host serves QEMU guests
# that boot gttlab.efi in OVMF and find their vGPU through an ivshmem-doorbell device.
#   tests/vm/vms.sh BUILD_DIR
# 1. Three guests at once against one host service, each running every check (in guest mode the
#    guest suite runs and the checks that need the whole GPU skip): two must pass with all seven
#    guest checks passed; the third is killed (SIGKILL to its QEMU) after its first check. The
#    host must reclaim its vGPU and go on serving: a fourth guest then boots on the killed one's
#    slot and must pass too. No guest may read another's stamp (and the host must have seen their
#    own: the search looked at something). Whether the kill fell while the first two still ran
#    depends on the machine's load and is said, not asserted (tests/dom0/test_pv_serve.c asserts
#    it without a VM).
# 2. The host killed (SIGKILL) while a guest runs: the guest must end with no pass (the device is
#    lost: abort), within the transport's timeout, saying so. This host runs gBalloon's policy
#    (--policy): it must have metered the guest's W on QEMU's one vCPU thread ("CPU 0/TCG": the
#    guests run with -name ...,debug-threads=on) and ticked a period on it before it was killed.
# Exit 0 only when all of that held.
set -u
build=${1:?usage: tests/vm/vms.sh BUILD_DIR}
app=$build/efi/gttlab.efi
gttlab=$build/gttlab
work=$build/vms
timeout_s=${GTTLAB_QEMU_TIMEOUT:-600}
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$OVMF_CODE" "$OVMF_VARS" "$app" "$gttlab"; do
	[ -f "$f" ] || { echo "vms: $f is missing (make efi; make deps)"; exit 2; }
done
for t in qemu-system-x86_64 mformat mcopy mmd timeout; do
	command -v "$t" >/dev/null || { echo "vms: $t is not installed (make deps)"; exit 2; }
done
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "vms: FAIL: $*"; failures=$((failures + 1)); }

# esp NAME CFG: a FAT image with the application and its gttlab.cfg
esp() {
	local img=$work/$1.img
	truncate -s 64M "$img"
	mformat -i "$img" -F -v GTTLAB :: >/dev/null && mmd -i "$img" ::/EFI ::/EFI/BOOT &&
		mcopy -i "$img" "$app" ::/EFI/BOOT/BOOTX64.EFI && printf '%s\n' "$2" > "$work/$1.cfg" &&
		mcopy -i "$img" "$work/$1.cfg" ::/EFI/BOOT/gttlab.cfg
}

# guest NAME SOCKET: boot it in the background (pid in $! of the caller), its status in NAME.status
guest() {
	local name=$1 sock=$2
	cp "$OVMF_VARS" "$work/$name.vars"
	(
		exec timeout "$timeout_s" qemu-system-x86_64 -machine q35,accel=tcg -m 1024 -smp 1 -name "$name",debug-threads=on \
			-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
			-drive if=pflash,format=raw,unit=1,file="$work/$name.vars" \
			-drive format=raw,file="$work/$name.img" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			-chardev socket,path="$sock",id=ivs -device ivshmem-doorbell,chardev=ivs,vectors=1 \
			-serial file:"$work/$name.serial" -pidfile "$work/$name.pid" -display none -monitor none -net none \
			-no-reboot </dev/null
	) &
}

# wait_log FILE TEXT [SECONDS]: until FILE holds TEXT
wait_log() {
	local i
	for ((i = 0; i < ${3:-60} * 10; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

verdict_of() {
	case $1 in
	33) echo pass ;; 35) echo "checks failed" ;; 37) echo "usage or device error" ;;
	39) echo abort ;; 124) echo "timed out after ${timeout_s}s" ;; 137) echo killed ;; *) echo "QEMU exit $1" ;;
	esac
}

# the guest suite as the CLI lists it (the check table's order)
mapfile -t guest_checks < <("$gttlab" check --list --run guest | awk '{ print $1 }')
[ ${#guest_checks[@]} -gt 0 ] || { echo "vms: $gttlab lists no guest check"; exit 2; }

# passed NAME: its boot passed and its results hold every guest check, each passed
passed() {
	local name=$1 st=$2 c line
	mkdir -p "$work/$name"
	for f in summary.txt results.tap; do
		mcopy -n -i "$work/$name.img" "::/gttlab/$f" "$work/$name/$f" 2>/dev/null || fail "$name: no $f on its ESP"
	done
	echo "vms: $name: $(verdict_of "$st")"
	[ "$st" = 33 ] || { fail "$name: $(verdict_of "$st"); serial log: $work/$name.serial"; return; }
	for c in "${guest_checks[@]}"; do
		line=$(grep -E "^(not )?ok [0-9]+ - $c( |\$)" "$work/$name/results.tap" 2>/dev/null)
		case $line in
		'') fail "$name: $c is missing from results.tap" ;;
		*'# SKIP'*) fail "$name: $c skipped: ${line#*# SKIP }" ;;
		'not ok'*) fail "$name: $c failed" ;;
		esac
	done
}

# ---- 1. three guests, one killed ----
"$gttlab" dom0 serve --dir "$work" --guests 3 --exit-after 4 > "$work/serve.log" 2>&1 &
serve=$!
wait_log "$work/serve.log" "guest 3: listening" 10 || fail "dom0 serve did not start: $(cat "$work/serve.log")"
esp g1 "--device pv --debug-exit" && esp g2 "--device pv --debug-exit --seed 7" &&
	esp g3 "--device pv --debug-exit" && esp g5 "--device pv --run guest --debug-exit" ||
	fail "cannot build the FAT images"
t0=$(date +%s)
guest g1 "$work/vgpu1.sock"; p1=$!
guest g2 "$work/vgpu2.sock"; p2=$!
guest g3 "$work/vgpu3.sock"; p3=$!
# the third is killed once it has made requests of its own
if wait_log "$work/serve.log" "guest 3 connected" 120 && wait_log "$work/g3.serial" "pass " 120; then
	# QEMU itself, by the pid it wrote (timeout, its parent, cannot pass SIGKILL on)
	kill -KILL "$(cat "$work/g3.pid" 2>/dev/null)" 2>/dev/null || fail "no QEMU of g3 to kill"
else
	fail "g3 never got going: $(tail -3 "$work/g3.serial" 2>/dev/null)"
fi
wait "$p3" 2>/dev/null; s3=$?
# the slot the killed guest held serves the next guest, once its vGPU went back
if wait_log "$work/serve.log" "guest 3 gone: vGPU" 30; then
	guest g5 "$work/vgpu3.sock"; p5=$!
	wait "$p5"; s5=$?
else
	s5=none
fi
wait "$p1"; s1=$?
wait "$p2"; s2=$?
echo "vms: three guests booted at once, ${SECONDS}s so far ($(( $(date +%s) - t0 ))s for the guests)"
passed g1 "$s1"
passed g2 "$s2"
echo "vms: g3: $(verdict_of "$s3") (killed mid-run)"
[ "$s3" != 33 ] || fail "g3 passed although it was killed mid-run"
passed g5 "$s5"
wait "$serve"; ss=$?
sed 's/^/    /' "$work/serve.log"
[ "$ss" = 0 ] || fail "dom0 serve exited $ss"
grep -q "guest 3 gone: vGPU [0-9]* reclaimed" "$work/serve.log" || fail "the killed guest's vGPU was not reclaimed"
if [ "$(grep -o "guest [123] gone" "$work/serve.log" | head -1)" = "guest 3 gone" ]; then
	echo "vms: g3 was reclaimed while g1 and g2 were still being served"
else
	echo "vms: note: g1 or g2 had finished before g3 was killed (load); the host served g5 after it"
fi
grep -q ", 0 another's" "$work/serve.log" || fail "a guest read another's stamped bytes"
own=$(sed -n 's/.*stamps read: \([0-9]*\) own.*/\1/p' "$work/serve.log")
[ "${own:-0}" -gt 0 ] || fail "the host saw no stamp at all: its leak search looked at nothing"

# ---- 2. the host killed mid-run ----
mkdir -p "$work/lost"
"$gttlab" dom0 serve --dir "$work/lost" --guests 1 --policy 2 > "$work/lost/serve.log" 2>&1 &
serve=$!
wait_log "$work/lost/serve.log" "guest 1: listening" 10 || fail "the second dom0 serve did not start"
esp g4 "--device pv --debug-exit" || fail "cannot build g4's image"
guest g4 "$work/lost/vgpu1.sock"; p4=$!
if wait_log "$work/lost/serve.log" "guest 1 connected" 120 && wait_log "$work/g4.serial" "pass " 120; then
	kill -KILL "$serve"
	wait "$serve" 2>/dev/null
else
	fail "g4 never got going"
	kill -KILL "$serve"
fi
wait "$p4"; s4=$?
echo "vms: g4 (its host killed mid-run): $(verdict_of "$s4")"
[ "$s4" = 39 ] || fail "g4: $(verdict_of "$s4"), expected abort: a lost device is no pass; serial log: $work/g4.serial"
grep -q "device lost" "$work/g4.serial" || fail "g4 does not say its device was lost: $(tail -3 "$work/g4.serial")"
grep -q "guest 1: W metered on 1 vCPU threads of process" "$work/lost/serve.log" ||
	fail "the policy did not meter g4's W on its QEMU's vCPU thread: $(grep -i "W \|policy" "$work/lost/serve.log")"
sed -n '/W metered on 1 vCPU threads/,$p' "$work/lost/serve.log" | grep -q "policy period [0-9]*: W [0-9.]*% (1 guests metered)" ||
	fail "the policy ticked no period on g4's vCPU thread's W: $(grep -i policy "$work/lost/serve.log")"

if [ "$failures" -gt 0 ]; then
	echo "vms: $failures failure(s)"
	exit 1
fi
echo "vms: two guests passed the guest suite against one host service, a killed guest was reclaimed, a killed host is a lost device"
