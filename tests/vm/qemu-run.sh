#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot gttlab.efi in QEMU/OVMF and judge it from outside.
#   tests/vm/qemu-run.sh EFI_APP WORKDIR [PLATFORM ...]   (default platforms: skl hsw)
# For each platform: a FAT image made with mtools holding EFI/BOOT/BOOTX64.EFI and a gttlab.cfg
# (--device sim:PLATFORM --debug-exit), booted under timeout with OVMF (accel=tcg: KVM is not
# assumed); QEMU's exit status comes from isa-debug-exit ((value << 1) | 1: 33 pass, 35 fail,
# 37 error, 39 abort, 41 skip); the results are copied back with mcopy and checked. A platform word
# vgpu-PLATFORM is a guest-mode boot instead: --device vgpu:sim:PLATFORM --run guest, a vGPU of
# the application's own Dom0 runtime, whose results must hold the guest checks, every one
# passed (a skip means guest mode did not happen, and fails naming the check); PLATFORM-edram boots
# --device sim:PLATFORM,edram (a comma cannot be in the word: QEMU's -drive would split on it);
# vf-PLATFORM boots the vf suite on the model as an SR-IOV VF, --device sim:PLATFORM,vf --run vf,
# whose results must hold the vf checks, every one passed (a skip: VF mode did not happen). Then one boot with an
# ivshmem-plain device backed by a host file: the application writes a GGTT-shaped pattern into
# its BAR through the efi backend's BAR path, and this script finds those bytes in the file. Then a
# pair of boots on one image: a journaled run reset in its middle, and the boot that restores it.
# The word no-gpu boots with --device auto (QEMU has no Intel GPU): it must end in a device error
# (37) on the console and in summary.txt, never a run on the model; nothing-ran boots the guest
# suite on sim:skl, where every check skips: verdict SKIP, status 41, never a pass.
# Exit 0 only when every check passed, every results file is well formed and the bytes match.
#
# --secure-boot: the firmware is OVMF with Secure Boot enforced and Debian's snakeoil test key in
# PK, KEK and db (OVMF_CODE_4M.snakeoil.fd with SMM, OVMF_VARS_4M.snakeoil.fd), so EFI_APP must be
# signed with that key (make efi-signed); only the named platforms boot (no ivshmem or journal
# boots). The platform word `refused` boots EFI_APP and requires the firmware to refuse it: the
# serial log must show the firmware's refusal of the disk's boot option and never the
# application's banner; the run is stopped as soon as either shows, or fails at the timeout.
# GTTLAB_QEMU_SHIM=SHIM (with --secure-boot): every ESP boots SHIM, a signed shim, as BOOTX64.EFI and
# EFI_APP as its second stage, \EFI\BOOT\grubx64.efi; `refused` then requires shim's refusal
# ("Verification failed: (0x1A) Security Violation", what shim says of a second stage it will not
# start, such as one without a .sbat section) instead of the firmware's.
# Every boot's serial log and reports must state the Secure Boot policy the firmware has:
# enforcing (SecureBoot=1, SetupMode=0) with --secure-boot, setup mode (no keys) without.
set -u
secure=""
[ "${1:-}" = --secure-boot ] && { secure=1; shift; }
app=${1:?usage: qemu-run.sh [--secure-boot] EFI_APP WORKDIR [PLATFORM ...]}
work=${2:?usage: qemu-run.sh [--secure-boot] EFI_APP WORKDIR [PLATFORM ...]}
shift 2
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(skl hsw)
[ "${platforms[*]}" = none ] && platforms=()
timeout_s=${GTTLAB_QEMU_TIMEOUT:-600}
# For the self-test (tests/vm/qemu-selftest.sh): more words for gttlab.cfg, no ivshmem boot, a
# corrupted ivshmem byte before the comparison.
extra=${GTTLAB_QEMU_ARGS:-}
no_ivshmem=${GTTLAB_QEMU_NO_IVSHMEM:-}
inject=${GTTLAB_QEMU_INJECT:-}
shim=${GTTLAB_QEMU_SHIM:-}
[ -z "$shim" ] || [ -n "$secure" ] || { echo "qemu-run: GTTLAB_QEMU_SHIM needs --secure-boot"; exit 2; }
[ -z "$shim" ] || [ -f "$shim" ] || { echo "qemu-run: GTTLAB_QEMU_SHIM=$shim is missing (make qemu-shim)"; exit 2; }

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
machine=(-machine q35,accel=tcg)
want_word=setup-mode want_sb=0 want_sm=1
if [ -n "$secure" ]; then
	no_ivshmem=1 GTTLAB_QEMU_NO_JOURNAL=1
	want_word=enforcing want_sb=1 want_sm=0
	# the self-test's fault: the enforcing firmware replaced by the plain one
	if [ "$inject" != plain-firmware ]; then
		OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
		OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
		# the Secure Boot build keeps its variables behind SMM: the flash is writable only from SMM
		machine=(-machine q35,accel=tcg,smm=on -global driver=cfi.pflash01,property=secure,value=on)
	fi
fi
for f in "$OVMF_CODE" "$OVMF_VARS" "$app"; do
	[ -f "$f" ] || { echo "qemu-run: $f is missing (make efi; apt-get install ovmf)"; exit 2; }
done
for t in qemu-system-x86_64 mformat mcopy mmd mdel mdir timeout; do
	command -v "$t" >/dev/null || { echo "qemu-run: $t is not installed (make deps)"; exit 2; }
done
want_fw="Secure Boot $want_word (SecureBoot=$want_sb, SetupMode=$want_sm)"
mkdir -p "$work"
failures=0

fail() { echo "qemu-run: FAIL: $*"; failures=$((failures + 1)); }

# make_esp IMAGE CFG-TEXT
make_esp() {
	rm -f "$1"
	truncate -s 64M "$1"
	mformat -i "$1" -F -v GTTLAB :: >/dev/null || return 1
	mmd -i "$1" ::/EFI ::/EFI/BOOT || return 1
	if [ -n "$shim" ]; then
		mcopy -i "$1" "$shim" ::/EFI/BOOT/BOOTX64.EFI && mcopy -i "$1" "$app" ::/EFI/BOOT/grubx64.efi || return 1
	else
		mcopy -i "$1" "$app" ::/EFI/BOOT/BOOTX64.EFI || return 1
	fi
	printf '%s\n' "$2" > "$work/gttlab.cfg"
	mcopy -i "$1" "$work/gttlab.cfg" ::/EFI/BOOT/gttlab.cfg
}

# boot IMAGE SERIAL-LOG [extra qemu args...]; sets $status and $elapsed. QEMU runs in the
# background while the serial log is watched: when OVMF's boot manager has no boot option left
# (BdsDxe's "No bootable option or device was found": the application was refused, or the
# image holds none), QEMU is stopped there and $status is 200 instead of waiting for the timeout.
boot() {
	local img=$1 log=$2
	shift 2
	cp "$OVMF_VARS" "$work/vars.fd"
	: > "$log"
	local t0 pid stopped=""
	t0=$(date +%s%N)
	timeout "$timeout_s" qemu-system-x86_64 "${machine[@]}" -m 1024 -smp 1 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,unit=1,file="$work/vars.fd" \
		-drive format=raw,file="$img" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial file:"$log" -display none -monitor none -net none -no-reboot "$@" </dev/null 2>"$log.stderr" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q 'BdsDxe: No bootable option or device was found' "$log" ||
			{ [ -n "$shim" ] && grep -aq 'Verification failed: (0x1A) Security Violation' "$log"; }; then
			stopped=1
			kill "$pid" 2>/dev/null
			break
		fi
		sleep 0.2
	done
	wait "$pid"
	status=$?
	[ -n "$stopped" ] && status=200
	[ "$status" != 200 ] && [ -s "$log.stderr" ] && sed 's/^/    qemu: /' "$log.stderr"
	local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	elapsed=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
}

# refusal_line SERIAL-LOG: OVMF's line saying it would not load or start the disk's boot option, or
# with a shim, shim's own refusal of its second stage (drawn in a dialog box: the words only)
refusal_line() {
	if [ -n "$shim" ]; then
		tr -d '\r' < "$1" | grep -ao -m1 'Verification failed: (0x1A) Security Violation'
		return
	fi
	tr -d '\r' < "$1" | grep -m1 -E 'BdsDxe: failed to (load|start) Boot[0-9A-F]+ "UEFI QEMU HARDDISK.*: (Access Denied|Security Violation)$'
}

verdict_of() {
	case $1 in
	33) echo pass ;; 35) echo "checks failed" ;; 37) echo "usage or device error" ;;
	39) echo "ABORT: the device could not be restored" ;; 41) echo "SKIP: nothing ran" ;;
	124) echo "timed out after ${timeout_s}s" ;;
	200) echo "never ran: the firmware found no boot option to start${refused_by:+ (refused: $refused_by)}" ;;
	*) echo "no verdict (QEMU exit $1)" ;;
	esac
}

# after_reset IMAGE LABEL SERIAL-LOG PATTERN: the boot that follows a reset must pass, write
# \gttlab\restore.txt matching PATTERN (grep) and leave no \gttlab\journal.bin behind
after_reset() {
	local img=$1 label=$2 log=$3 pattern=$4
	boot "$img" "$log"
	echo "qemu-run: $label: next boot $(verdict_of $status), ${elapsed}s"
	[ "$status" = 33 ] || fail "$label: the boot after the reset: $(verdict_of $status); serial log: $log"
	rm -f "$work/restore.txt"
	if mcopy -n -i "$img" ::/gttlab/restore.txt "$work/restore.txt" 2>/dev/null &&
		grep -q "$pattern" "$work/restore.txt"; then
		echo "qemu-run: $label: $(cat "$work/restore.txt")"
	else
		fail "$label: \\gttlab\\restore.txt missing or wrong: $(cat "$work/restore.txt" 2>/dev/null)"
	fi
	mcopy -n -i "$img" ::/gttlab/journal.bin "$work/journal-after.bin" 2>/dev/null &&
		fail "$label: \\gttlab\\journal.bin is still there after the boot"
}

# fw_stated LABEL DIR: the serial log and each report in DIR state the firmware's policy, $want_fw
fw_stated() {
	local label=$1 dir=$2 f want
	grep -qF "gttlab: firmware: $want_fw" "$dir/serial.log" ||
		fail "$label: the serial log does not say '$want_fw' but: $(grep -m1 'gttlab: firmware:' "$dir/serial.log")"
	for f in summary.txt results.tap results.xml results.json; do
		[ -f "$dir/$f" ] || continue	# already failed: not written to the ESP
		case $f in
		summary.txt) want="firmware: $want_fw" ;;
		results.tap) want="# firmware: $want_fw" ;;
		results.xml) want="<property name=\"firmware\" value=\"$want_word\"/><property name=\"firmware.SecureBoot\" value=\"$want_sb\"/><property name=\"firmware.SetupMode\" value=\"$want_sm\"/>" ;;
		results.json) want="\"firmware\":{\"secure_boot\":\"$want_word\",\"SecureBoot\":\"$want_sb\",\"SetupMode\":\"$want_sm\"}" ;;
		esac
		grep -qF -- "$want" "$dir/$f" || fail "$label: $f does not state the firmware policy $want_fw"
	done
}

# refused_boot: EFI_APP must be refused by the firmware before it runs: its banner never on the
# serial log, the firmware's refusal of the disk's boot option on it, nothing written to the ESP.
refused_boot() {
	local img=$work/esp-refused.img out=$work/refused line who=${shim:+shim}
	who=${who:-the firmware}
	rm -rf "$out" && mkdir -p "$out"
	make_esp "$img" "--device sim:skl --debug-exit" || { fail "refused: cannot build the FAT image"; return; }
	echo "qemu-run: booting gttlab.efi where $who must refuse it"
	boot "$img" "$out/serial.log"
	line=$(refusal_line "$out/serial.log")
	if grep -q 'gttlab.efi: register-level checks' "$out/serial.log"; then
		fail "refused: $who ran the application; serial log: $out/serial.log"
	elif [ "$status" != 200 ]; then
		fail "refused: neither $who's refusal nor the application: $(verdict_of "$status"); serial log: $out/serial.log"
	elif [ -z "$line" ]; then
		fail "refused: the firmware found no boot option, but $who did not refuse the application; serial log: $out/serial.log"
	elif mdir -i "$img" ::/gttlab >/dev/null 2>&1; then
		fail "refused: \\gttlab exists on the ESP: something ran; serial log: $out/serial.log"
	else
		echo "qemu-run: refused by $who in ${elapsed}s, as it must be: ${line#BdsDxe: }"
	fi
}

# no_verdict WORD CFG STATUS CONSOLE FILE TEXT: a boot that must end without a pass: QEMU status
# STATUS, CONSOLE on the serial log, \gttlab\FILE holding TEXT, and never "verdict PASS"
no_verdict() {
	local word=$1 cfg=$2 want=$3 console=$4 file=$5 text=$6 img=$work/esp-$1.img out=$work/$1
	rm -rf "$out" && mkdir -p "$out"
	make_esp "$img" "$cfg --debug-exit $extra" || { fail "$word: cannot build the FAT image"; return; }
	echo "qemu-run: booting gttlab.efi with $cfg, which must not pass"
	boot "$img" "$out/serial.log"
	echo "qemu-run: $word: $(verdict_of "$status"), ${elapsed}s"
	[ "$status" = "$want" ] || fail "$word: $(verdict_of "$status"), not $(verdict_of "$want"); serial log: $out/serial.log"
	tr -d '\r' < "$out/serial.log" | grep -qF -- "$console" ||
		fail "$word: the console does not say '$console'; serial log: $out/serial.log"
	grep -q 'verdict PASS' "$out/serial.log" && fail "$word: the console says verdict PASS"
	if mcopy -n -i "$img" "::/gttlab/$file" "$out/$file" 2>/dev/null && grep -qF -- "$text" "$out/$file"; then
		:
	else
		fail "$word: \\gttlab\\$file does not say '$text': $(head -3 "$out/$file" 2>/dev/null)"
	fi
}

# The guest and vf suites, in the order of the check table (the CLI's list of them, GTTLAB or
# build/gttlab): a guest-mode or VF boot must report exactly these.
gttlab=${GTTLAB:-build/gttlab}
guest_checks=() vf_checks=()
if [ -x "$gttlab" ]; then
	mapfile -t guest_checks < <("$gttlab" check --list --run guest | awk '{ print $1 }')
	mapfile -t vf_checks < <("$gttlab" check --list --run vf | awk '{ print $1 }')
fi
[ ${#guest_checks[@]} -gt 0 ] && [ ${#vf_checks[@]} -gt 0 ] ||
	{ echo "qemu-run: $gttlab lists no guest or no vf check (make all)"; exit 2; }

# suite_results LABEL DIR MODE CHECK...: DIR/results.tap and results.json hold every CHECK, all
# passed; a skipped one means MODE (guest mode, VF mode) did not happen
suite_results() {
	local label=$1 dir=$2 mode=$3 c line plan
	shift 3
	[ -f "$dir/results.tap" ] || return 0	# already failed: not written to the ESP
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$dir/results.tap")
	[ "$plan" = $# ] || fail "$label: ${plan:-no} checks reported, the suite has $#"
	for c in "$@"; do
		line=$(grep -E "^(not )?ok [0-9]+ - $c( |\$)" "$dir/results.tap")
		case $line in
		'') fail "$label: $c is missing from results.tap" ;;
		*'# SKIP'*) fail "$label: $c skipped, so $mode did not happen: ${line#*# SKIP }" ;;
		'not ok'*) fail "$label: $c failed" ;;
		esac
	done
	[ -f "$dir/results.json" ] && ! grep -q "\"root\":{\"crash\":0,\"pass\":$#,[^}]*\"skip\":0," "$dir/results.json" &&
		fail "$label: results.json does not count $# passed and none skipped"
	return 0
}

for p in ${platforms[@]+"${platforms[@]}"}; do
	[ "$p" = refused ] && { refused_boot; continue; }
	# no device named on a machine without an Intel GPU: a device error, never the model
	[ "$p" = no-gpu ] && { no_verdict no-gpu "--device auto" 37 "device auto: no Intel GPU here" summary.txt \
		"ERROR: device auto: no Intel GPU here"; continue; }
	# every check skipped (the guest suite on a device that is no vGPU): SKIP, not PASS
	[ "$p" = nothing-ran ] && { no_verdict nothing-ran "--device sim:skl --run guest*" 41 "gttlab: verdict SKIP" \
		summary.txt "SKIP on sim:skl (skl, simulated)"; continue; }
	img="$work/esp-$p.img"
	out="$work/$p"
	rm -rf "$out"
	mkdir -p "$out"
	case $p in
	vgpu-*) dev="vgpu:sim:${p#vgpu-}" cfg="--device vgpu:sim:${p#vgpu-} --run guest --debug-exit $extra" ;;
	vf-*) dev="sim:${p#vf-},vf" cfg="--device sim:${p#vf-},vf --run vf --debug-exit $extra" ;;
	*-edram) dev="sim:${p%-edram},edram" cfg="--device sim:${p%-edram},edram --debug-exit $extra" ;;
	*) dev="sim:$p" cfg="--device sim:$p --debug-exit $extra" ;;
	esac
	make_esp "$img" "$cfg" || { fail "$p: cannot build the FAT image"; continue; }
	echo "qemu-run: booting gttlab.efi for $dev"
	boot "$img" "$out/serial.log"
	refused_by=$(refusal_line "$out/serial.log")
	refused_by=${refused_by#BdsDxe: }
	echo "qemu-run: $dev: $(verdict_of $status), boot to verdict ${elapsed}s"
	for f in summary.txt results.tap results.xml results.json; do
		mcopy -n -i "$img" "::/gttlab/$f" "$out/$f" 2>/dev/null || fail "$p: $f was not written to the ESP"
	done
	[ -f "$out/summary.txt" ] && sed 's/^/    /' "$out/summary.txt"
	[ "$status" = 33 ] || fail "$p: $(verdict_of $status); serial log: $out/serial.log"
	if [ -f "$out/results.tap" ]; then
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/results.tap")
		oks=$(grep -c '^ok ' "$out/results.tap")
		[ -n "$plan" ] && [ "$plan" -gt 0 ] && [ "$oks" = "$plan" ] && ! grep -q '^not ok' "$out/results.tap" \
			|| fail "$p: results.tap is malformed or has failures (plan ${plan:-none}, $oks ok)"
	fi
	if [ -f "$out/results.json" ]; then
		grep -q '"__type__":"TestrunResult","results_version":10' "$out/results.json" &&
			grep -q '"root":{"crash":0,"pass":[0-9]*,"dmesg-fail":0,"dmesg-warn":0,"skip":[0-9]*,"incomplete":0,"abort":0,"timeout":0,"notrun":0,"fail":0,"warn":0}' "$out/results.json" ||
			fail "$p: results.json is malformed or counts failures"
		if command -v python3 >/dev/null; then
			python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/results.json" 2>/dev/null ||
				fail "$p: results.json is not valid JSON"
		fi
	fi
	if [ -f "$out/results.xml" ] && command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$out/results.xml" 2>/dev/null ||
			fail "$p: results.xml is not well-formed XML"
	fi
	fw_stated "$p" "$out"
	case $p in
	vgpu-*) suite_results "$p" "$out" "guest mode" "${guest_checks[@]}" ;;
	vf-*) suite_results "$p" "$out" "VF mode" "${vf_checks[@]}" ;;
	esac
done

# the ivshmem boot: bytes written through the efi backend's BAR path, verified in the host file
img="$work/esp-ivshmem.img"
shm="$work/ivshmem.bin"
rm -f "$shm"
truncate -s 1M "$shm"
if [ -n "$no_ivshmem" ]; then
	:
elif make_esp "$img" "--ivshmem-check --debug-exit"; then
	echo "qemu-run: booting gttlab.efi with an ivshmem-plain device backed by $shm"
	boot "$img" "$work/serial-ivshmem.log" \
		-object memory-backend-file,id=shm,share=on,mem-path="$shm",size=1M -device ivshmem-plain,memdev=shm
	echo "qemu-run: ivshmem: $(verdict_of $status), boot to verdict ${elapsed}s"
	[ "$status" = 33 ] || fail "ivshmem: $(verdict_of $status); serial log: $work/serial-ivshmem.log"
	# entry i = ((0x100000 + i) << 12) | 1, little-endian, 4096 entries
	seq 0 4095 | while read -r i; do printf '%016x\n' $(( ((0x100000 + i) << 12) | 1 )); done > "$work/ivshmem.want"
	[ "$inject" = ivshmem-byte ] && printf '\x5a' | dd of="$shm" bs=1 seek=9876 conv=notrunc status=none
	od -An -v -tx8 -w8 -N 32768 "$shm" | tr -d ' ' > "$work/ivshmem.got"
	if cmp -s "$work/ivshmem.want" "$work/ivshmem.got"; then
		echo "qemu-run: ivshmem: the host file holds all 4096 entries the application wrote"
	else
		fail "ivshmem: the backing file differs from the pattern (first difference: $(diff "$work/ivshmem.want" "$work/ivshmem.got" | sed -n 2p))"
	fi
else
	fail "ivshmem: cannot build the FAT image"
fi

# the journal pair: a run on the model, journaled as a real device is (--journal-model), resets
# the machine before its third check; the next boot must find \gttlab\journal.bin, restore the
# device it names before anything else, say so in \gttlab\restore.txt, delete the journal and pass
img="$work/esp-journal.img"
if [ -n "${GTTLAB_QEMU_NO_JOURNAL:-}" ]; then
	:
elif make_esp "$img" "--device sim:skl --debug-exit --run ggtt-* --journal-model --crash-before 3"; then
	echo "qemu-run: booting gttlab.efi to reset the machine in the middle of a journaled run"
	boot "$img" "$work/serial-journal-1.log"
	rm -f "$work/journal.bin" "$work/restore.txt"
	if ! mcopy -n -i "$img" ::/gttlab/journal.bin "$work/journal.bin" 2>/dev/null || [ ! -s "$work/journal.bin" ]; then
		fail "journal: no \\gttlab\\journal.bin after the reset (QEMU exit $status); serial log: $work/serial-journal-1.log"
	else
		# the self-test's fault: the journal is lost between the boots
		[ "$inject" = journal-lost ] && mdel -i "$img" ::/gttlab/journal.bin
		printf '%s\n' "--device sim:skl --debug-exit --run ggtt-*" > "$work/gttlab.cfg"
		mcopy -o -i "$img" "$work/gttlab.cfg" ::/EFI/BOOT/gttlab.cfg
		after_reset "$img" journal "$work/serial-journal-2.log" \
			'restored efi:ffff:00:02.0 from .gttlab.journal.bin: [0-9]* config, [0-9]* register, [1-9][0-9]* PTE chunk'
		# a reset between the journal's creation and its header: the same journal cut inside its
		# header record; the next boot must remove it, say so, and run (the device was never touched)
		head -c 20 "$work/journal.bin" > "$work/journal-cut.bin"
		img="$work/esp-journal-cut.img"
		if make_esp "$img" "--device sim:skl --debug-exit --run ggtt-*" && mmd -i "$img" ::/gttlab &&
			mcopy -o -i "$img" "$work/journal-cut.bin" ::/gttlab/journal.bin; then
			after_reset "$img" "journal cut in its header" "$work/serial-journal-cut.log" \
				'removed .gttlab.journal.bin: a run was reset before its header was written (20 bytes)'
		else
			fail "journal cut in its header: cannot build the FAT image"
		fi
	fi
else
	fail "journal: cannot build the FAT image"
fi

if [ "$failures" -gt 0 ]; then
	echo "qemu-run: $failures failure(s)"
	exit 1
fi
ivshmem_note=", ivshmem"
[ -n "$no_ivshmem" ] && ivshmem_note=""
[ -z "${GTTLAB_QEMU_NO_JOURNAL:-}" ] && ivshmem_note="$ivshmem_note, journal across a reset"
stated=""
[ "${platforms[*]}" != refused ] && stated=", each stating the firmware's policy: $want_fw"
echo "qemu-run: every boot passed (${platforms[*]:-no platform}$ivshmem_note)$stated"
