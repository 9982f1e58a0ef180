#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lava/make-jobs.sh OUTDIR APP ESP VARS [NAME]: the LAVA jobs of gttlab, from the templates in lava/
# (*-job.yaml.in) with the one monitors block (lava/monitors.yaml) put into each: OUTDIR/qemu.yaml
# (booting ESP with OVMF's code and a copy of VARS), OUTDIR/x86-ipxe.yaml and OUTDIR/x86-grub.yaml
# (chainloading APP over TFTP), OUTDIR/x86-flasher.yaml (writing ESP to a card).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1 app=$(realpath "$2") esp=$(realpath "$3") vars=$(realpath "$4") name=${5:-gttlab.efi}
mkdir -p "$out"
sed -e '/^#/d' -e 's/^/    /' "$here/monitors.yaml" > "$out/.monitors"
for t in qemu x86-ipxe x86-grub x86-flasher; do
	while IFS= read -r line; do
		if [ "$line" = "@MONITORS@" ]; then
			cat "$out/.monitors"
			continue
		fi
		line=${line//@APP@/$app}
		line=${line//@ESP@/$esp}
		line=${line//@VARS@/$vars}
		line=${line//@NAME@/$name ($t)}
		printf '%s\n' "$line"
	done < "$here/$t-job.yaml.in" > "$out/$t.yaml"
done
rm -f "$out/.monitors"
