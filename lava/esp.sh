# SPDX-License-Identifier: MIT
# Sourced by lava/run-qemu.sh and lava/lab.sh.
# make_esp IMAGE APP CFG-TEXT: a 64 MiB FAT ESP (mtools) with APP as EFI/BOOT/BOOTX64.EFI and CFG-TEXT
# as EFI/BOOT/gttlab.cfg, the arguments the application reads.
make_esp() {
	local cfg
	cfg=$(mktemp) || return 1
	printf -- '%s\n' "$3" > "$cfg" &&
		truncate -s 64M "$1" && mformat -i "$1" -F -v GTTLAB :: >/dev/null && mmd -i "$1" ::/EFI ::/EFI/BOOT &&
		mcopy -i "$1" "$2" ::/EFI/BOOT/BOOTX64.EFI && mcopy -i "$1" "$cfg" ::/EFI/BOOT/gttlab.cfg
	local rc=$?
	rm -f "$cfg"
	return $rc
}
