#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The QEMU pipeline must fail when it should: a check that fails inside the EFI application, a
# device that cannot be restored (verdict ABORT, isa-debug-exit 0x13), a
# run that never reaches a verdict (timeout), results that are never written, and ivshmem bytes
# that differ from what the application wrote, a journal lost between a reset and the next
# boot, a guest-mode boot whose guest suite skipped (the device was no vGPU), and under
# --secure-boot: firmware that does not enforce (it runs the unsigned application, and its policy
# is not the one the results must state) and an unsigned application where a signed one must run.
# Each case runs tests/vm/qemu-run.sh and requires a non-zero exit with the reason. The cases that
# inject a model fault (--fault) boot the test build's application, FAULTS_EFI_APP: the shipped one
# has none.
#   tests/vm/qemu-selftest.sh EFI_APP WORKDIR SIGNED_EFI_APP FAULTS_EFI_APP
set -u
usage="usage: qemu-selftest.sh EFI_APP WORKDIR SIGNED_EFI_APP FAULTS_EFI_APP"
app=${1:?$usage}
work=${2:?$usage}
signed=${3:?$usage}
faulty=${4:?$usage}
passed=0
failed=0

expect_failure() {
	local name=$1 needle=$2
	shift 2
	local out
	out=$(env GTTLAB_QEMU_NO_JOURNAL=1 "$@" tests/vm/qemu-run.sh ${SECURE:+--secure-boot} "${APP:-$app}" "$work/$name" \
		${PLATFORMS:-hsw} 2>&1)
	local rc=$?
	# SERIAL=1: the reason is what the application said on the serial line, not what qemu-run says
	[ -n "${SERIAL:-}" ] && out+=$'\n'$(cat "$work/$name"/*/serial.log 2>/dev/null | tr -d '\r')
	if [ "$rc" -ne 0 ] && grep -q -- "$needle" <<<"$out"; then
		echo "qemu-selftest: $name: caught ($needle)"
		passed=$((passed + 1))
	else
		echo "qemu-selftest: $name: NOT caught (exit $rc); output:"
		sed 's/^/    /' <<<"$out"
		failed=$((failed + 1))
	fi
}

APP=$faulty expect_failure failing-check "checks failed" GTTLAB_QEMU_NO_IVSHMEM=1 "GTTLAB_QEMU_ARGS=--fault drop-flush"
# the shipped application has no model fault: the option is unknown to it
SERIAL=1 expect_failure shipped-has-no-fault "unknown argument '--fault'" GTTLAB_QEMU_NO_IVSHMEM=1 "GTTLAB_QEMU_ARGS=--fault drop-flush"
APP=$faulty expect_failure abort "ABORT: the device could not be restored" GTTLAB_QEMU_NO_IVSHMEM=1 \
	"GTTLAB_QEMU_ARGS=--fault freeze-fence --run fence-readback,fence-x-detile"
expect_failure timeout "timed out" GTTLAB_QEMU_NO_IVSHMEM=1 GTTLAB_QEMU_TIMEOUT=2
expect_failure no-results "results.json was not written" GTTLAB_QEMU_NO_IVSHMEM=1 "GTTLAB_QEMU_ARGS=--run no-such-check"
PLATFORMS=none expect_failure ivshmem-bytes "backing file differs" GTTLAB_QEMU_INJECT=ivshmem-byte
PLATFORMS=none expect_failure journal-lost "restore.txt missing" GTTLAB_QEMU_NO_JOURNAL= GTTLAB_QEMU_NO_IVSHMEM=1 \
	GTTLAB_QEMU_INJECT=journal-lost
# the later --device in gttlab.cfg wins: the application opens sim:skl and every guest check skips
PLATFORMS=vgpu-skl expect_failure guest-skipped "so guest mode did not happen" GTTLAB_QEMU_NO_IVSHMEM=1 \
	"GTTLAB_QEMU_ARGS=--device sim:skl"
# Secure Boot: the enforcing firmware swapped for the plain one, then an unsigned application
SECURE=1 PLATFORMS=refused expect_failure sb-not-enforced "the firmware ran the application" GTTLAB_QEMU_INJECT=plain-firmware
SECURE=1 PLATFORMS=skl APP=$signed expect_failure sb-policy "does not say 'Secure Boot enforcing" \
	GTTLAB_QEMU_INJECT=plain-firmware "GTTLAB_QEMU_ARGS=--run ggtt-pte-readback"
SECURE=1 PLATFORMS=skl expect_failure sb-unsigned "never ran: the firmware found no boot option to start (refused: failed to load"
echo "qemu-selftest: $passed of $((passed + failed)) failure modes caught"
[ "$failed" -eq 0 ]
