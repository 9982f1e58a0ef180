#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/run-qemu.sh EFI_APP WORKDIR [--fault NAME]: the QEMU job under lava-run, standalone (no
# server, no network), judged by lava/gate.sh. The ESP (made with mtools: EFI/BOOT/BOOTX64.EFI and a
# gttlab.cfg with --device sim:skl --debug-exit, plus --fault NAME, the application's test-only
# fault, when given) and a copy of OVMF's vars go to WORKDIR; the jobs of every template are made
# from lava/ and all four validated (lava-run --validate); then the QEMU job runs. Exit: the gate's.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 work=$2
shift 2
extra=""
[ "${1:-}" = --fault ] && extra="--fault $2"
for t in lava-run qemu-system-x86_64 mformat mcopy mmd timeout; do
	command -v "$t" >/dev/null || { echo "lava: $t is not installed (make deps)"; exit 2; }
done
rm -rf "$work" && mkdir -p "$work"
esp=$work/esp.img
truncate -s 64M "$esp"
mformat -i "$esp" -F -v GTTLAB :: >/dev/null && mmd -i "$esp" ::/EFI ::/EFI/BOOT && mcopy -i "$esp" "$app" ::/EFI/BOOT/BOOTX64.EFI &&
	printf -- '--device sim:skl --debug-exit %s\n' "$extra" > "$work/gttlab.cfg" && mcopy -i "$esp" "$work/gttlab.cfg" ::/EFI/BOOT/gttlab.cfg ||
	{ echo "lava: cannot make the ESP image"; exit 2; }
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$work/vars.fd"
"$here/make-jobs.sh" "$work/jobs" "$app" "$esp" "$work/vars.fd" "gttlab.efi on sim:skl${extra:+ with $extra}" ||
	{ echo "lava: cannot make the jobs"; exit 2; }
for t in qemu x86-ipxe x86-grub x86-flasher; do
	if ! timeout 300 lava-run --job-id 1 --output-dir "$work/validate-$t" --validate "$work/jobs/$t.yaml" \
		--device "$here/devices/gttlab-$t.yaml" > "$work/validate-$t.log" 2>&1 ||
	   ! grep -q '^result: pass' "$work/validate-$t/result.yaml"; then
		echo "lava: $t.yaml does not validate: $(grep -m1 '"error_msg"' "$work/validate-$t.log" | cut -c1-300)"
		exit 1
	fi
	echo "lava: $t.yaml validates against lava/devices/gttlab-$t.yaml"
done
# the Lava-Test-Shell definition against LAVA's own schema (the dispatcher's python)
if ! /usr/bin/python3 -c 'import sys, yaml; from lava_common.schemas.test.testdef import validate; validate(yaml.safe_load(open(sys.argv[1])))' \
	"$here/lava-test-shell/gttlab-igt.yaml" 2>"$work/testdef.err"; then
	echo "lava: lava-test-shell/gttlab-igt.yaml is not a valid test definition: $(tail -1 "$work/testdef.err")"
	exit 1
fi
echo "lava: lava-test-shell/gttlab-igt.yaml validates against LAVA's test definition schema"
t0=$(date +%s)
timeout 900 lava-run --job-id 1 --output-dir "$work/out" "$work/jobs/qemu.yaml" --device "$here/devices/gttlab-qemu.yaml" \
	> "$work/lava-run.log" 2>&1
echo "lava: lava-run exited $? after $(( $(date +%s) - t0 )) s (log: $work/lava-run.log)"
"$here/gate.sh" "$work/lava-run.log" "$work/out"
