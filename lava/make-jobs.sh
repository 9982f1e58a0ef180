#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/make-jobs.sh OUTDIR APP ESP VARS [NAME [GUEST_ESP [MDEV_UUID [PV_ESP]]]]: the LAVA jobs of gttlab, from
# the templates in lava/ (*-job.yaml.in) with the one monitors block (lava/monitors.yaml) put into
# each: OUTDIR/qemu.yaml (booting ESP with OVMF's code and a copy of VARS), OUTDIR/x86-ipxe.yaml and
# OUTDIR/x86-grub.yaml (chainloading APP over TFTP), OUTDIR/x86-flasher.yaml (writing ESP to a card),
# OUTDIR/gvtg-guest.yaml (booting GUEST_ESP, default ESP, in a GVT-g guest whose vGPU is the mdev
# MDEV_UUID, default the all-zero placeholder a lab replaces with the UUID its host created),
# OUTDIR/pv-guest.yaml (booting PV_ESP, default ESP, as a guest of `gttlab dom0 serve`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1 app=$(realpath "$2") esp=$(realpath "$3") vars=$(realpath "$4") name=${5:-gttlab.efi}
guest_esp=$(realpath "${6:-$3}") uuid=${7:-00000000-0000-0000-0000-000000000000} pv_esp=$(realpath "${8:-$3}")
[[ $uuid =~ ^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$ ]] ||
	{ echo "make-jobs: MDEV_UUID '$uuid' is not a UUID (8-4-4-4-12 hex digits)" >&2; exit 2; }
mkdir -p "$out"
sed -e '/^#/d' -e 's/^/    /' "$here/monitors.yaml" > "$out/.monitors"
for t in qemu x86-ipxe x86-grub x86-flasher gvtg-guest pv-guest; do
	image=$esp
	[ "$t" = gvtg-guest ] && image=$guest_esp
	[ "$t" = pv-guest ] && image=$pv_esp
	while IFS= read -r line; do
		if [ "$line" = "@MONITORS@" ]; then
			cat "$out/.monitors"
			continue
		fi
		line=${line//@APP@/$app}
		line=${line//@ESP@/$image}
		line=${line//@VARS@/$vars}
		line=${line//@MDEV_UUID@/$uuid}
		line=${line//@NAME@/$name ($t)}
		printf '%s\n' "$line"
	done < "$here/$t-job.yaml.in" > "$out/$t.yaml"
done
rm -f "$out/.monitors"
