#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/make-jobs.sh OUTDIR APP ESP VARS [NAME [GUEST_ESP [MDEV_UUID [PV_ESP [VF_ESP [VF_BDF]]]]]]: the LAVA jobs of gttlab, from
# the templates in lava/ (*-job.yaml.in) with the one monitors block (lava/monitors.yaml) put into
# each: OUTDIR/qemu.yaml (booting ESP with OVMF's code and a copy of VARS), OUTDIR/x86-ipxe.yaml and
# OUTDIR/x86-grub.yaml (chainloading APP over TFTP), OUTDIR/x86-flasher.yaml (writing ESP to a card),
# OUTDIR/gvtg-guest.yaml (booting GUEST_ESP, default ESP, in a GVT-g guest whose vGPU is the mdev
# MDEV_UUID, default the all-zero placeholder a lab replaces with the UUID its host created),
# OUTDIR/pv-guest.yaml (booting PV_ESP, default ESP, as a guest of `gttlab dom0 serve`),
# OUTDIR/sriov-guest.yaml (booting VF_ESP, default ESP, in a guest given the SR-IOV VF at PCI address
# VF_BDF, default 0000:00:02.1, the first VF of an integrated GPU), and
# OUTDIR/x86-health-check.yaml (the iPXE DUT's health check: three checks on its own GPU). APP, ESP,
# VARS, GUEST_ESP, PV_ESP and VF_ESP are files (file:// URLs) or http(s):// URLs a lab serves them from.
# lava/make-jobs.sh --secure-boot OUTDIR APP ESP VARS [NAME]: the Secure Boot variants of the x86 UEFI
# templates from the same files, for a signed APP (make efi-signed) and an ESP holding it:
# OUTDIR/qemu-secure-boot.yaml (OVMF's snakeoil firmware, VARS a copy of OVMF_VARS_4M.snakeoil.fd,
# on a device with SMM: lava/devices/gttlab-qemu-secure-boot.jinja2), x86-ipxe-secure-boot.yaml,
# x86-grub-secure-boot.yaml and x86-flasher-secure-boot.yaml (a machine whose firmware enforces
# Secure Boot with the lab's key enrolled: docs/secure-boot.md). Their monitor starts only after the
# application's line "gttlab: firmware: Secure Boot enforcing": under firmware that does not enforce,
# no check is recorded and the job fails.
# Every job's monitor starts at the application's announce line, and only when it names a device of a
# kind the template's device dictionary declares (lava/device-kinds.sh): "gttlab: D: skl (gen 9,
# hardware), device ...". A DUT whose run is taken on anything else (its GPU missing, the model)
# records no test case and the job fails, as LAVA fails a job whose monitor never starts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
secure=""
[ "${1:-}" = --secure-boot ] && { secure=1; shift; }
# url FILE-OR-URL: an http(s):// URL as it is (a lab serves its images from a web server), else the
# file:// URL of the file, which must exist
url() {
	case $1 in
	http://* | https://*) printf '%s' "$1" ;;
	*://*) echo "make-jobs: '$1': an image is a file or an http(s):// URL" >&2; exit 2 ;;
	*) [ -f "$1" ] || { echo "make-jobs: '$1': no such file" >&2; exit 2; }; printf 'file://%s' "$(realpath "$1")" ;;
	esac
}
out=$1 name=${5:-gttlab.efi}
app=$(url "$2") esp=$(url "$3") vars=$(url "$4") guest_esp=$(url "${6:-$3}") pv_esp=$(url "${8:-$3}") vf_esp=$(url "${9:-$3}") ||
	exit 2
vf_bdf=${10:-0000:00:02.1}
[[ $vf_bdf =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-1][0-9a-fA-F]\.[0-7]$ ]] ||
	{ echo "make-jobs: VF_BDF '$vf_bdf' is not a PCI address (SSSS:BB:DD.F)" >&2; exit 2; }
uuid=${7:-00000000-0000-0000-0000-000000000000}
[[ $uuid =~ ^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$ ]] ||
	{ echo "make-jobs: MDEV_UUID '$uuid' is not a UUID (8-4-4-4-12 hex digits)" >&2; exit 2; }
mkdir -p "$out"
templates=(qemu x86-ipxe x86-grub x86-flasher x86-health-check gvtg-guest pv-guest sriov-guest) suffix="" code=/usr/share/OVMF/OVMF_CODE_4M.fd
if [ -n "$secure" ]; then
	templates=(qemu x86-ipxe x86-grub x86-flasher) suffix=-secure-boot code=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
fi
grep -q "^  start: '$(printf '%s' "gttlab.efi: register-level checks" | sed 's/\./\\./g')'$" "$here/monitors.yaml" ||
	{ echo "make-jobs: lava/monitors.yaml no longer starts at the banner this script replaces" >&2; exit 2; }
# monitors TEMPLATE: the monitors block, starting at the announce line of a device of the kinds the
# template's device dictionary declares (after the enforcing line, for the Secure Boot variants)
monitors() {
	local dict=$here/devices/gttlab-$1.jinja2 kinds want line
	[ "$1" = qemu ] && [ -n "$secure" ] && dict=$here/devices/gttlab-qemu-secure-boot.jinja2
	[ "$1" = x86-health-check ] && dict=$here/devices/gttlab-x86-ipxe.jinja2	# the DUT it checks
	kinds=$("$here/device-kinds.sh" "$dict") || exit 2
	want='gttlab: \S+: \S+ \(gen [0-9.]+, ('"$(paste -sd '|' <<<"$kinds")"')\), device'
	[ -n "$secure" ] && want='gttlab: firmware: Secure Boot enforcing[\s\S]*'"$want"
	while IFS= read -r line; do
		[[ $line == '#'* ]] && continue
		[[ $line == '  start: '* ]] && line="  start: '$want'"
		printf '    %s\n' "$line"
	done < "$here/monitors.yaml"
}
# render TEMPLATE IMAGE: one job, the template's own comments (which name its placeholders) left out
render() {
	local t=$1 image=$2 line
	echo "# Made by lava/make-jobs.sh${secure:+ --secure-boot} from lava/$t-job.yaml.in (see there); do not edit."
	while IFS= read -r line; do
		[[ $line == '#'* ]] && continue
		if [ "$line" = "@MONITORS@" ]; then
			monitors "${t%-secure-boot}"
			continue
		fi
		line=${line//@APP@/$app}
		line=${line//@ESP@/$image}
		line=${line//@VARS@/$vars}
		line=${line//@MDEV_UUID@/$uuid}
		line=${line//@VF_BDF@/$vf_bdf}
		line=${line//@OVMF_CODE@/file://$code}
		line=${line//@NAME@/$name ($t$suffix)}
		printf '%s\n' "$line"
	done < "$here/$t-job.yaml.in"
}
for t in "${templates[@]}"; do
	image=$esp
	[ "$t" = gvtg-guest ] && image=$guest_esp
	[ "$t" = pv-guest ] && image=$pv_esp
	[ "$t" = sriov-guest ] && image=$vf_esp
	render "$t" "$image" > "$out/$t$suffix.yaml"
done
