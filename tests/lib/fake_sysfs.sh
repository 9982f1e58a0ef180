# SPDX-License-Identifier: MIT
#
# Fake sysfs trees for the linux backend, sourced by the shell tests (the
# shell twin of fake_device() in tests/hw/test_linux_backend.c): a device
# directory holds vendor, device, class, config and resource as sysfs has
# them, and for the GPU regular files standing in for its BARs' resource0
# (16 MiB) and resource2 (the aperture), which the backend maps. A write to
# the "device" is a changed byte in them.

# put_bytes FILE BYTES...: a binary file from hex bytes
put_bytes() {
	local f=$1 s="" b
	shift
	for b in "$@"; do s+="\\x$b"; done
	printf "%b" "$s" >"$f"
}

# fake_device ROOT BDF VENDOR DEVICE CLASS gpu|other [APERTURE_MIB]: one device directory
fake_device() {
	local dir=$1/bus/pci/devices/$2 vendor=$3 devid=$4 klass=$5 kind=$6 ap_mib=${7:-256}
	local -a cfg
	local i

	mkdir -p "$dir"
	for ((i = 0; i < 256; i++)); do cfg[i]=00; done
	cfg[0]=${vendor:4:2}; cfg[1]=${vendor:2:2}
	cfg[2]=${devid:4:2}; cfg[3]=${devid:2:2}
	cfg[4]=06				# PCI_COMMAND: memory space, bus master
	cfg[10]=${klass:4:2}; cfg[11]=${klass:2:2}	# subclass, base class
	printf '%s\n' "$vendor" >"$dir/vendor"
	printf '%s\n' "$devid" >"$dir/device"
	printf '0x%s\n' "${klass:2}" >"$dir/class"
	if [ "$kind" != gpu ]; then
		put_bytes "$dir/config" "${cfg[@]}"
		: >"$dir/resource"
		return
	fi
	cfg[16]=04; cfg[17]=00; cfg[18]=00; cfg[19]=f0	# BAR0 0xf0000004: 64-bit memory
	cfg[24]=0c; cfg[25]=00; cfg[26]=00; cfg[27]=c0	# BAR2 0xc000000c: 64-bit prefetchable
	cfg[80]=c0; cfg[81]=01				# GMCH: GGMS 3 (8 MiB GSM), GMS 1 (32 MiB stolen)
	put_bytes "$dir/config" "${cfg[@]}"
	cat >"$dir/resource" <<EOR
0x00000000f0000000 0x00000000f0ffffff 0x0000000000140204
0x0000000000000000 0x0000000000000000 0x0000000000000000
0x00000000c0000000 $(printf '0x%016x' $((0xc0000000 + (ap_mib << 20) - 1))) 0x000000000014220c
0x0000000000000000 0x0000000000000000 0x0000000000000000
0x000000000000f000 0x000000000000f03f 0x0000000000040101
0x0000000000000000 0x0000000000000000 0x0000000000000000
0x0000000000000000 0x0000000000000000 0x0000000000000000
EOR
	truncate -s 16M "$dir/resource0"
	truncate -s "${ap_mib}M" "$dir/resource2"
}

# put_le32 FILE OFFSET VALUE: a little-endian dword into FILE at OFFSET, the rest of FILE untouched
put_le32() {
	local v=$(($3))
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))" |
		dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none
}

# fake_pvinfo DIR MAP_BASE MAP_SIZE HIGH_BASE HIGH_SIZE FENCE_NUM [VGT_ID [CAPS [MAJOR [SLOT_SIZE]]]]:
# a GVT-g PVINFO page (docs/hardware.md §6.1) at 0x78000 in DIR/resource0, DIR a GPU of fake_device
# (ROOT/bus/pci/devices/BDF): the magic, version MAJOR.0 (default 1), vgt_id (default 1), caps
# (default 0x1c: FULL_PPGTT, HWSP_EMULATION, HUGE_GTT) and avail_rs. SLOT_SIZE given and nonzero:
# gttlab's request channel is offered (its magic at 0x78100, the slot size at 0x7811c).
fake_pvinfo() {
	local f=$1/resource0 pv=$((0x78000))
	put_le32 "$f" $pv 0x76544776				# magic, low dword of "vGTvGTvG"
	put_le32 "$f" $((pv + 0x04)) 0x47765447
	put_le32 "$f" $((pv + 0x08)) "${9:-1}"			# version_major (u16), minor 0 above it
	put_le32 "$f" $((pv + 0x0c)) "${7:-1}"			# vgt_id
	put_le32 "$f" $((pv + 0x10)) "${8:-0x1c}"		# vgt_caps
	put_le32 "$f" $((pv + 0x40)) "$2"			# avail_rs.mappable_gmadr.base
	put_le32 "$f" $((pv + 0x44)) "$3"			# .size
	put_le32 "$f" $((pv + 0x48)) "$4"			# avail_rs.nonmappable_gmadr.base
	put_le32 "$f" $((pv + 0x4c)) "$5"			# .size
	put_le32 "$f" $((pv + 0x50)) "$6"			# avail_rs.fence_num
	if [ "${10:-0}" != 0 ]; then
		put_le32 "$f" $((pv + 0x100)) 0x6d4d6767	# GTTLAB_GM_MAGIC "ggMm"
		put_le32 "$f" $((pv + 0x11c)) "${10}"		# GTTLAB_IF_GM_SLOT_SIZE
	fi
}
