#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/vm/guest-fake-tree.sh [BUILD_DIR]: guest mode on the real-device path. A fake sysfs tree
# (tests/lib/fake_sysfs.sh) holds a Skylake whose BAR0 (resource0) carries a GVT-g PVINFO page
# (docs/hardware.md §6): a 64 MiB mappable slice at 64 MiB of the 256 MiB aperture, a 512 MiB
# non-mappable slice at 1 GiB of the 4 GiB GGTT, fence_num 4. Then
#   - `gttlab info` says "guest mode" and shows the page (text and --json); a native tree says
#     "pvinfo":{"active":false}; a malformed page fails the open with one line naming the word,
#     exit 2, and nothing written;
#   - `gttlab check` claims only inside the mappable slice (every `claim: 0xA+N pages` of its TAP
#     report), leaves every byte it does not own as it was (compared with copies taken before: the
#     GSM's PTEs outside the slice's, fence registers fence_num..31, the PVINFO page, the aperture
#     outside the slice), skips the whole-GPU checks, passes guest-pvinfo, and neither aborts nor
#     exits 2; exit 1 is taken, because reads through a fake aperture file do not translate.
# Runs as root (the linux backend maps the fake BAR files; test pages are mlock'ed). Prints
# "guest-fake-tree: N assertions passed", or a line per failure and exits 1. KEEP=1 keeps the
# temporary directory.
set -u

build=${1:-build}
if [ ! -x "$build/gttlab" ]; then
	echo "usage: $0 [BUILD_DIR] (holding gttlab; default build)" >&2
	exit 2
fi
bin=$(cd "$build" && pwd)/gttlab
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/gttlab-guest.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "guest-fake-tree: FAIL: $1"; failed=$((failed + 1)); }
# expect FAILURE COMMAND...: one assertion; FAILURE says what went wrong when COMMAND fails
expect() {
	local what=$1
	shift
	if "$@"; then pass; else fail "$what"; fi
}

MiB=$((1 << 20))
BDF=0000:00:02.0
map_base=$((64 * MiB)) map_size=$((64 * MiB))
high_base=$((1024 * MiB)) high_size=$((512 * MiB))
fence_num=4 num_fences=32
gsm=$((8 * MiB)) pte=8				# skl: the GSM at BAR0 + 8 MiB, 8-byte PTEs
fence0=$((0x100000))				# FENCE_REG_GEN6_LO(0); fence i at + 8 * i
pvinfo=$((0x78000))

# tree NAME: a fresh fake tree with the skl at $BDF; prints the device directory
tree() {
	fake_device "$tmp/$1" "$BDF" 0x8086 0x1912 0x030000 gpu 256
	echo "$tmp/$1/bus/pci/devices/$BDF"
}

# on TREE ARGS...: the CLI on a fake tree, its journal kept in the temporary directory
on() {
	local t=$1
	shift
	"$bin" --device "pci:$BDF" --sysfs-root "$tmp/$t" --journal "$tmp/$t.journal" "$@"
}

# same FILE COPY OFFSET LENGTH: LENGTH bytes at OFFSET of FILE are those of COPY
same() {
	[ "$4" -le 0 ] && return 0
	cmp -s -i "$3:$3" -n "$4" "$1" "$2"
}

# same_outside FILE COPY START END SIZE: every byte of FILE but [START, END) is that of COPY
same_outside() {
	same "$1" "$2" 0 "$3" && same "$1" "$2" "$4" $(($5 - $4))
}

has() { grep -q -F -- "$2" "$1"; }

# inside A B START END: [A, B) lies inside [START, END)
inside() { (($1 >= $3 && $2 <= $4)); }

# ---- gttlab info on a guest, text and --json ----
dir=$(tree info)
fake_pvinfo "$dir" $map_base $map_size $high_base $high_size $fence_num 3 0x1c 1 $((64 * MiB))
on info info >"$tmp/info.txt" 2>"$tmp/info.err"
rc=$?
expect "gttlab info on a guest exited $rc, not 0 ($(head -1 "$tmp/info.err"))" [ $rc = 0 ]
expect "info does not say guest mode" has "$tmp/info.txt" "guest mode    GVT-g PVINFO page at 0x78000"
expect "info does not show version 1.0, vgt_id 3, caps 0x1c with their names" \
	has "$tmp/info.txt" "PVINFO        version 1.0, vgt_id 3, caps 0x0000001c (FULL_PPGTT HWSP_EMULATION HUGE_GTT)"
expect "info does not show the mappable slice" has "$tmp/info.txt" "mappable      GM 0x04000000-0x07ffffff (64 MiB, in the aperture)"
expect "info does not show the non-mappable slice" \
	has "$tmp/info.txt" "non-mappable  GM 0x40000000-0x5fffffff (512 MiB, above the aperture)"
expect "info does not show fence_num 4" has "$tmp/info.txt" "fence_num     4 (fences 0-3 of 32)"
expect "info does not show the request channel and its slot size" has "$tmp/info.txt" "GM requests   yes: gttlab's request channel, slot size 64 MiB"
expect "info lost the native lines (fences 32)" has "$tmp/info.txt" "fences        32"
on info --json info >"$tmp/info.json" 2>&1
expect "info --json does not hold the page as \"pvinfo\": $(grep -o '"pvinfo".*' "$tmp/info.json")" has "$tmp/info.json" \
	'"pvinfo":{"active":true,"version":"1.0","vgt_id":3,"caps":"0x0000001c","caps_names":["FULL_PPGTT","HWSP_EMULATION","HUGE_GTT"],"mappable_base":"0x04000000","mappable_size":67108864,"nonmappable_base":"0x40000000","nonmappable_size":536870912,"fence_num":4,"gm_channel":true,"slot_size":67108864},"vf":{"active":false}}'

# ---- a native tree: no guest lines, "active": false ----
tree native >/dev/null
on native info >"$tmp/native.txt" 2>&1
expect "a native tree says guest mode" eval '! grep -q "guest mode" "$tmp/native.txt"'
on native --json info >"$tmp/native.json" 2>&1
expect "info --json on a native tree lacks \"pvinfo\":{\"active\":false}" has "$tmp/native.json" '"pvinfo":{"active":false},"vf":{"active":false}}'

# ---- a malformed page: exit 2, one line naming the word, nothing written ----
dir=$(tree bad)
fake_pvinfo "$dir" $((224 * MiB)) $map_size $high_base $high_size $fence_num
cp "$dir/resource0" "$tmp/bad.r0"
cp "$dir/config" "$tmp/bad.cfg"
on bad info >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
expect "a mappable slice past the aperture exited $rc, not 2" [ $rc = 2 ]
expect "stderr is not one line naming mappable_gmadr.size, its value and the rule: $(cat "$tmp/bad.err")" \
	eval '[ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q "mappable_gmadr.size.*0x04000000.*mappable_end > ggtt->mappable_end" "$tmp/bad.err"'
expect "a malformed page printed on stdout" [ ! -s "$tmp/bad.out" ]
expect "a malformed page changed resource0 (BAR0)" cmp -s "$dir/resource0" "$tmp/bad.r0"
expect "a malformed page changed config space" cmp -s "$dir/config" "$tmp/bad.cfg"

# ---- gttlab check on a guest: claims inside the mappable slice, nothing else touched ----
dir=$(tree guest)
fake_pvinfo "$dir" $map_base $map_size $high_base $high_size $fence_num
r0=$dir/resource0 r2=$dir/resource2
cp --sparse=always "$r0" "$tmp/guest.r0"
cp --sparse=always "$r2" "$tmp/guest.r2"
on guest check --format tap >"$tmp/check.tap" 2>"$tmp/check.err"
rc=$?
notok=$(sed -n 's/^not ok [0-9]* - //p' "$tmp/check.tap" | paste -s -d ' ')
why=$(grep -v -e '^\[' -e '^gttlab: keeping off' "$tmp/check.err" | head -1)
# A resource2 file is storage, not a translation through the GGTT: checks that read a mapped page
# back through the aperture fail on any fake tree (tests/vm/scanout-frontends.sh judges only claims
# there, too). So 1 (checks failed) is taken; 2 (bad input, unusable device) and 3 (abort: not
# restored) are not, nor is an abort or a check that touched something outside its claim.
expect "gttlab check on the guest exited $rc, not 0 or 1 (not ok: ${notok:-none}${why:+; $why})" [ $rc -le 1 ]
expect "a check aborted: $(grep -m1 '^Bail out!' "$tmp/check.tap")" eval '! grep -q -e "^  severity: abort" -e "^Bail out!" "$tmp/check.tap"'
expect "a check touched something outside its claim: $(grep -m1 'outside its claim' "$tmp/check.tap")" \
	eval '! grep -q "outside its claim" "$tmp/check.tap"'
expect "guest-pvinfo (PVINFO read again, the same page) did not pass: $(grep -A6 -- '- guest-pvinfo$' "$tmp/check.tap" | grep message)" \
	grep -q '^ok [0-9]* - guest-pvinfo$' "$tmp/check.tap"
expect "ggtt-guard-page, a whole-GPU check, did not skip in guest mode" \
	grep -q '^ok [0-9]* - ggtt-guard-page # SKIP guest mode' "$tmp/check.tap"
claims=0
while read -r a n; do
	claims=$((claims + 1))
	a=$((a)) b=$((a + n * 4096))
	expect "$(printf 'claim 0x%x-0x%x is not inside the mappable slice 0x%x-0x%x' "$a" "$b" $map_base $((map_base + map_size)))" \
		inside "$a" "$b" $map_base $((map_base + map_size))
done < <(sed -n 's/^  claim: \(0x[0-9a-f]*\)+\([0-9]*\) pages$/\1 \2/p' "$tmp/check.tap")
expect "the TAP report holds no claim" [ $claims -gt 0 ]
lo=$((gsm + map_base / 4096 * pte)) hi=$((gsm + (map_base + map_size) / 4096 * pte))
expect "$(printf 'PTEs outside the slice changed (GSM 0x%x-0x%x but 0x%x-0x%x of resource0)' $gsm $((16 * MiB)) $lo $hi)" \
	eval 'same "$r0" "$tmp/guest.r0" $gsm $((lo - gsm)) && same "$r0" "$tmp/guest.r0" $hi $((16 * MiB - hi))'
expect "fence registers $fence_num..$((num_fences - 1)), not the guest's, changed" \
	same "$r0" "$tmp/guest.r0" $((fence0 + 8 * fence_num)) $((8 * (num_fences - fence_num)))
expect "the PVINFO page changed" same "$r0" "$tmp/guest.r0" $pvinfo 4096
expect "the aperture (resource2) outside the slice changed" \
	same_outside "$r2" "$tmp/guest.r2" $map_base $((map_base + map_size)) $((256 * MiB))

if [ $failed -gt 0 ]; then
	echo "guest-fake-tree: $failed of $((passed + failed)) assertions failed"
	exit 1
fi
echo "guest-fake-tree: $passed assertions passed"
