#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/run-qemu.sh EFI_APP WORKDIR [--fault NAME | --secure-boot SIGNED_APP]: the QEMU jobs under lava-run, standalone (no
# server, no network), judged by lava/gate.sh. The ESPs are made with mtools (EFI/BOOT/BOOTX64.EFI
# and a gttlab.cfg): esp.img with --device sim:skl --debug-exit, plus --fault NAME, the application's
# test-only fault, when given; esp-vgpu.img with --device vgpu:sim:skl --run guest --debug-exit (a vGPU
# of the application's own Dom0 runtime); esp-gvtg-guest.img with --device auto --run guest, for the
# GVT-g guest template; esp-sriov-guest.img with --device auto --run vf, for the SR-IOV VF guest
# template. They and a copy of OVMF's vars go to WORKDIR; the jobs of every template are
# made from lava/ and every one validated (lava-run --validate, and LAVA's job schema as a server
# applies it); then the sim:skl job runs and is gated, and (without --fault) the vgpu:sim:skl job,
# gated the same way and also failed when a guest check skipped (guest mode did not happen); then
# the two pv-guest jobs at once, one per guest slot of one `gttlab dom0 serve` that the first job's
# user command starts (esp-pv.img: --device pv --run guest --debug-exit), each gated the same way,
# and the service must have seen no guest read another's stamp. With --secure-boot: the Secure Boot
# variants are made too (esp-signed.img holds SIGNED_APP), validated, and qemu-secure-boot.yaml runs
# on the SMM device (lava/devices/gttlab-qemu-secure-boot.yaml) under OVMF's snakeoil firmware: its
# monitor starts only at "Secure Boot enforcing", and it is gated as the others are; then the same job
# on plain OVMF (no keys: setup mode) must fail the gate with no check recorded.
# The jobs of lava/make-jobs.sh's first set take their images from http:// URLs, served from WORKDIR by
# a python3 http.server on 127.0.0.1 for the run (a lab serves its images so), and the sim:skl job
# fetches them from there; the others take file:// URLs.
# Exit: 0 when every gate passed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 work=$2
shift 2
extra="" fault="" signed=""
[ "${1:-}" = --fault ] && extra="--fault $2" fault=$2
[ "${1:-}" = --secure-boot ] && signed=${2:?--secure-boot needs the signed application}
for t in lava-run qemu-system-x86_64 mformat mcopy mmd timeout; do
	command -v "$t" >/dev/null || { echo "lava: $t is not installed (make deps)"; exit 2; }
done
rm -rf "$work" && mkdir -p "$work"

. "$here/esp.sh"
esp=$work/esp.img vgpu_esp=$work/esp-vgpu.img guest_esp=$work/esp-gvtg-guest.img pv_esp=$work/esp-pv.img
vf_esp=$work/esp-sriov-guest.img
make_esp "$esp" "$app" "--device sim:skl --debug-exit${extra:+ $extra}" &&
	make_esp "$vgpu_esp" "$app" "--device vgpu:sim:skl --run guest --debug-exit" &&
	make_esp "$guest_esp" "$app" "--device auto --run guest" &&
	make_esp "$pv_esp" "$app" "--device pv --run guest --debug-exit" &&
	make_esp "$vf_esp" "$app" "--device auto --run vf" ||
	{ echo "lava: cannot make the ESP images"; exit 2; }
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$work/vars.fd"
# the images over HTTP, as a lab's web server gives them: WORKDIR served on 127.0.0.1 for this run
cp "$app" "$work/gttlab.efi" || exit 2
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -m http.server --bind 127.0.0.1 --directory "$work" "$port" > "$work/http.log" 2>&1 &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null' EXIT
web=http://127.0.0.1:$port
for _ in $(seq 50); do curl -sf -o /dev/null "$web/vars.fd" && break; sleep 0.1; done
curl -sf -o /dev/null "$web/vars.fd" || { echo "lava: the HTTP server on $web does not answer"; exit 2; }
"$here/make-jobs.sh" "$work/jobs" "$web/gttlab.efi" "$web/esp.img" "$web/vars.fd" "gttlab.efi on sim:skl${extra:+ with $extra}" \
	"$web/esp-gvtg-guest.img" 00000000-0000-0000-0000-000000000000 "$web/esp-pv.img" "$web/esp-sriov-guest.img" &&
	"$here/make-jobs.sh" "$work/jobs-vgpu" "$app" "$vgpu_esp" "$work/vars.fd" "gttlab.efi on vgpu:sim:skl" ||
	{ echo "lava: cannot make the jobs"; exit 2; }
sb_jobs=()
if [ -n "$signed" ]; then
	[ -f "$signed" ] || { echo "lava: $signed is missing (make efi-signed)"; exit 2; }
	make_esp "$work/esp-signed.img" "$signed" "--device sim:skl --debug-exit" &&
		cp /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd "$work/vars-snakeoil.fd" &&
		"$here/make-jobs.sh" --secure-boot "$work/jobs" "$signed" "$work/esp-signed.img" "$work/vars-snakeoil.fd" \
			"gttlab.efi on sim:skl under Secure Boot" || { echo "lava: cannot make the Secure Boot jobs"; exit 2; }
	sb_jobs=(qemu-secure-boot x86-ipxe-secure-boot x86-grub-secure-boot x86-flasher-secure-boot)
fi
for t in qemu x86-ipxe x86-grub x86-flasher x86-health-check gvtg-guest sriov-guest "${sb_jobs[@]}"; do
	# a Secure Boot variant runs on its template's device, the QEMU one on the device with SMM
	dict=$here/devices/gttlab-${t%-secure-boot}.yaml
	[ "$t" = x86-health-check ] && dict=$here/devices/gttlab-x86-ipxe.yaml
	[ "$t" = qemu-secure-boot ] && dict=$here/devices/gttlab-qemu-secure-boot.yaml
	# a VF guest runs on the same QEMU-with-KVM host dictionary as a GVT-g guest
	[ "$t" = sriov-guest ] && dict=$here/devices/gttlab-gvtg-guest.yaml
	note=""
	# the GVT-g host's dictionary boots with KVM, and lava-run refuses -enable-kvm where there is none
	if { [ "$t" = gvtg-guest ] || [ "$t" = sriov-guest ]; } && [ ! -e /sys/class/misc/kvm ]; then
		sed -e '/^ *- -cpu host$/d' -e '/^ *- -enable-kvm$/d' "$dict" > "$work/gttlab-gvtg-guest-nokvm.yaml"
		dict=$work/gttlab-gvtg-guest-nokvm.yaml
		note=" (its KVM lines left out: no /sys/class/misc/kvm here)"
	fi
	if ! timeout 300 lava-run --job-id 1 --output-dir "$work/validate-$t" --validate "$work/jobs/$t.yaml" \
		--device "$dict" > "$work/validate-$t.log" 2>&1 ||
	   ! grep -q '^result: pass' "$work/validate-$t/result.yaml"; then
		echo "lava: $t.yaml does not validate: $(grep -m1 '"error_msg"' "$work/validate-$t.log" | cut -c1-300)"
		exit 1
	fi
	echo "lava: $t.yaml validates against lava/devices/${dict##*/}$note"
done
for k in 1 2; do
	if ! timeout 300 lava-run --job-id 1 --output-dir "$work/validate-pv$k" --validate "$work/jobs/pv-guest.yaml" \
		--device "$here/devices/gttlab-pv-guest$k.yaml" > "$work/validate-pv$k.log" 2>&1 ||
	   ! grep -q '^result: pass' "$work/validate-pv$k/result.yaml"; then
		echo "lava: pv-guest.yaml does not validate against gttlab-pv-guest$k.yaml: $(grep -m1 '"error_msg"' "$work/validate-pv$k.log" | cut -c1-300)"
		exit 1
	fi
	echo "lava: pv-guest.yaml validates against lava/devices/gttlab-pv-guest$k.yaml"
done
# the job schema a server applies at submission (strict: the context keys too, which lava-run ignores)
if ! /usr/bin/python3 -c 'import sys, yaml; from lava_common.schemas import validate
for f in sys.argv[1:]: validate(yaml.safe_load(open(f)), strict=True)' "$work"/jobs/*.yaml 2>"$work/schema.err"; then
	echo "lava: a job does not pass LAVA's job schema: $(tail -1 "$work/schema.err")"
	exit 1
fi
echo "lava: every job passes LAVA's job schema (strict, as a server submits it)"
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
# its images came over HTTP: the server logged the dispatcher's GETs
if grep -q '"GET /esp.img HTTP/1.[01]" 200' "$work/http.log" && grep -q "url: $web/esp.img" "$work/jobs/qemu.yaml"; then
	echo "lava: the sim:skl job fetched its ESP from $web/esp.img"
else
	echo "lava: the sim:skl job did not fetch its ESP over HTTP (log: $work/http.log)"
	rc_http=1
fi
"$here/gate.sh" --device-dict "$here/devices/gttlab-qemu.jinja2" "$work/lava-run.log" "$work/out"
rc=$?
[ -n "${rc_http:-}" ] && rc=1
# the test-only fault is the model's: the guest job has nothing to prove with it
[ -n "$fault" ] && exit "$rc"

# the device rule, from both sides. The gate: the same log judged against a real DUT's dictionary
# (hardware) must fail, naming the kind. LAVA: the same job with the real DUT's monitor (its start
# asks for a hardware announce line) on this QEMU device must record no test case and fail.
if "$here/gate.sh" --device-dict "$here/devices/gttlab-x86-ipxe.jinja2" "$work/lava-run.log" "$work/out" > "$work/gate-kind.out"; then
	echo "lava: the gate passed a simulated run against gttlab-x86-ipxe.jinja2, which declares hardware"
	rc=1
elif grep -q 'the run was taken on a simulated device; gttlab-x86-ipxe.jinja2 declares hardware' "$work/gate-kind.out"; then
	echo "lava: the gate fails a simulated run on a hardware DUT's dictionary: $(grep -m1 'taken on' "$work/gate-kind.out")"
else
	echo "lava: the gate failed the simulated run on a hardware dictionary without naming the kind:"
	sed 's/^/    /' "$work/gate-kind.out"
	rc=1
fi
# the gate's other rules, each on the same log with its fault put in: every gttlab case a skip (no
# pass: nothing proven), and the application's version line gone (whose verdict it is cannot be told)
sed '/"definition": "gttlab"/s/"result": "pass"/"result": "skip"/' "$work/lava-run.log" > "$work/lava-run-allskip.log"
sed '/gttlab\.efi: version /d' "$work/lava-run.log" > "$work/lava-run-noversion.log"
for f in "allskip:no test case passed" "noversion:said no version"; do
	if "$here/gate.sh" --device-dict "$here/devices/gttlab-qemu.jinja2" "$work/lava-run-${f%%:*}.log" "$work/out" \
		> "$work/gate-${f%%:*}.out"; then
		echo "lava: the gate passed the ${f%%:*} log"
		rc=1
	elif grep -q "${f#*:}" "$work/gate-${f%%:*}.out"; then
		echo "lava: the gate fails the ${f%%:*} log: $(grep -m1 "${f#*:}" "$work/gate-${f%%:*}.out")"
	else
		echo "lava: the gate failed the ${f%%:*} log without saying '${f#*:}':"; sed 's/^/    /' "$work/gate-${f%%:*}.out"
		rc=1
	fi
done
hw_start=$(grep -m1 '^ *start:' "$work/jobs/x86-ipxe.yaml" | sed 's/^ *start: //')
awk -v s="      start: $hw_start" '/^ *start:/ { print s; next } { print }' "$work/jobs/qemu.yaml" > "$work/qemu-hw-monitor.yaml"
grep -qF "(hardware)" "$work/qemu-hw-monitor.yaml" || { echo "lava: cannot make the hardware-monitor copy of the qemu job"; rc=1; }
timeout 600 lava-run --job-id 7 --output-dir "$work/out-hw-monitor" "$work/qemu-hw-monitor.yaml" \
	--device "$here/devices/gttlab-qemu.yaml" > "$work/lava-run-hw-monitor.log" 2>&1
if grep -q '^result: pass' "$work/out-hw-monitor/result.yaml" 2>/dev/null ||
	grep '"lvl": "results"' "$work/lava-run-hw-monitor.log" | grep -q '"definition": "gttlab"'; then
	echo "lava: a job whose monitor asks for hardware recorded checks of the model, or completed"
	rc=1
else
	echo "lava: the job with a hardware DUT's monitor, run on the model, records no test case and fails: $(grep -m1 -o '"error_msg": "[^"]*"' "$work/lava-run-hw-monitor.log")"
fi

# the guest job: the guest suite inside a vGPU of the application's own Dom0 runtime
t0=$(date +%s)
timeout 600 lava-run --job-id 2 --output-dir "$work/out-vgpu" "$work/jobs-vgpu/qemu.yaml" --device "$here/devices/gttlab-qemu.yaml" \
	> "$work/lava-run-vgpu.log" 2>&1
echo "lava: vgpu:sim:skl guest job: lava-run exited $? after $(( $(date +%s) - t0 )) s (log: $work/lava-run-vgpu.log)"
"$here/gate.sh" --device-dict "$here/devices/gttlab-qemu.jinja2" "$work/lava-run-vgpu.log" "$work/out-vgpu" || rc=1
# guest_cases LABEL LOG: the gate passes skips; here a skip means guest mode did not happen, and every
# check of the guest suite (as the CLI lists it) must be there
n_guest=$("$(cd "$(dirname "$app")/.." && pwd)/gttlab" check --list --run guest | grep -c .) ||
	{ echo "lava: the CLI beside $app cannot list the guest suite (make all)"; exit 2; }
guest_cases() {
	local cases n skipped
	cases=$(grep '"lvl": "results"' "$2" | grep '"definition": "gttlab"')
	n=$(printf '%s' "$cases" | grep -c . || true)
	skipped=$(printf '%s\n' "$cases" | grep '"result": "skip"' | sed -n 's/.*"test_case_id": "\([^"]*\)".*/\1/p' | tr '\n' ' ')
	if [ -n "$skipped" ]; then
		echo "lava: $1: skipped, so guest mode did not happen: $skipped"
		return 1
	elif [ "$n" != "$n_guest" ]; then
		echo "lava: $1: $n test cases recorded, the guest suite has $n_guest"
		return 1
	fi
	echo "lava: $1: all $n_guest guest checks passed in guest mode"
}
guest_cases "vgpu:sim:skl guest job" "$work/lava-run-vgpu.log" || rc=1

# the Secure Boot job: the signed application on the device with SMM, under the snakeoil firmware
if [ -n "$signed" ]; then
	t0=$(date +%s)
	timeout 600 lava-run --job-id 5 --output-dir "$work/out-sb" "$work/jobs/qemu-secure-boot.yaml" \
		--device "$here/devices/gttlab-qemu-secure-boot.yaml" > "$work/lava-run-sb.log" 2>&1
	echo "lava: Secure Boot job: lava-run exited $? after $(( $(date +%s) - t0 )) s (log: $work/lava-run-sb.log)"
	"$here/gate.sh" --device-dict "$here/devices/gttlab-qemu-secure-boot.jinja2" "$work/lava-run-sb.log" "$work/out-sb" || rc=1
	# one grep: grep -q ending a pipeline early is a SIGPIPE that pipefail counts as a failure
	if grep -qF '"lvl": "target", "msg": "gttlab: firmware: Secure Boot enforcing (SecureBoot=1, SetupMode=0)"' "$work/lava-run-sb.log"; then
		echo "lava: Secure Boot job: the application ran under enforcing Secure Boot (SecureBoot=1, SetupMode=0)"
	else
		echo "lava: Secure Boot job: the log does not say the firmware enforced Secure Boot"
		rc=1
	fi
	# the variant must fail where the firmware does not enforce: the same job on plain OVMF
	# (plain code with the snakeoil variables would still enforce: OVMF_CODE_4M.fd supports Secure Boot)
	sed -e 's|OVMF_CODE_4M.snakeoil.fd|OVMF_CODE_4M.fd|' -e 's|file://.*/vars-snakeoil.fd$|file:///usr/share/OVMF/OVMF_VARS_4M.fd|' \
		"$work/jobs/qemu-secure-boot.yaml" > "$work/qemu-secure-boot-plain.yaml"
	grep -q 'vars-snakeoil' "$work/qemu-secure-boot-plain.yaml" &&
		{ echo "lava: the plain-firmware copy of the Secure Boot job still names the snakeoil variables"; rc=1; }
	timeout 600 lava-run --job-id 6 --output-dir "$work/out-sb-plain" "$work/qemu-secure-boot-plain.yaml" \
		--device "$here/devices/gttlab-qemu.yaml" > "$work/lava-run-sb-plain.log" 2>&1
	if "$here/gate.sh" --device-dict "$here/devices/gttlab-qemu.jinja2" "$work/lava-run-sb-plain.log" "$work/out-sb-plain" > "$work/gate-sb-plain.out"; then
		echo "lava: the Secure Boot job passed on firmware that does not enforce Secure Boot"
		rc=1
	elif grep -q '0 test cases recorded' "$work/gate-sb-plain.out"; then
		echo "lava: the Secure Boot job on plain OVMF fails as it must: $(grep -m1 'test cases recorded' "$work/gate-sb-plain.out")"
	else
		echo "lava: the Secure Boot job on plain OVMF failed for another reason:"
		sed 's/^/    /' "$work/gate-sb-plain.out"
		rc=1
	fi
fi

# the pv-guest jobs: two at once, each one guest slot of one dom0 serve that the jobs' user command
# starts; the dictionaries as a lab would set them for this dispatcher: its socket directory, its CLI
pv=$work/pv
gttlab=$(cd "$(dirname "$app")/.." && pwd)/gttlab
[ -x "$gttlab" ] || { echo "lava: $gttlab is missing (make all)"; exit 2; }
pids=()
for k in 1 2; do
	sed -e "s|/run/gttlab-pv|$pv|g" -e "s|/usr/local/bin/gttlab|$gttlab|g" "$here/devices/gttlab-pv-guest$k.yaml" \
		> "$work/gttlab-pv-guest$k.yaml"
	timeout 300 lava-run --job-id $((2 + k)) --output-dir "$work/out-pv$k" "$work/jobs/pv-guest.yaml" \
		--device "$work/gttlab-pv-guest$k.yaml" > "$work/lava-run-pv$k.log" 2>&1 &
	pids+=($!)
done
t0=$(date +%s)
for k in 1 2; do
	wait "${pids[$((k - 1))]}"
	echo "lava: pv guest $k job: lava-run exited $? (log: $work/lava-run-pv$k.log)"
	"$here/gate.sh" --device-dict "$here/devices/gttlab-pv-guest$k.jinja2" "$work/lava-run-pv$k.log" "$work/out-pv$k" || rc=1
	guest_cases "pv guest $k job" "$work/lava-run-pv$k.log" || rc=1
done
# the service the user command started (setsid -f: not our child), found by its command line in /proc
serve_pids() {
	local p
	for p in /proc/[0-9]*; do
		tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q "dom0 serve --dir $pv " && echo "${p#/proc/}"
	done
}
for i in $(seq 100); do [ -z "$(serve_pids)" ] && break; sleep 0.1; done
if [ -n "$(serve_pids)" ]; then
	echo "lava: dom0 serve did not stop after its two guests; stopping it"
	kill $(serve_pids) 2>/dev/null
	rc=1
fi
echo "lava: the two pv-guest jobs and their host service took $(( $(date +%s) - t0 )) s; the service said:"
sed 's/^/    /' "$pv/serve.log" 2>/dev/null
grep -q "2 guests came, 2 reclaimed" "$pv/serve.log" 2>/dev/null || { echo "lava: the host service did not serve both guests"; rc=1; }
grep -q ", 0 another's" "$pv/serve.log" 2>/dev/null || { echo "lava: a guest read another's stamped bytes"; rc=1; }
exit "$rc"
