#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/svg-render.sh BUILD: the two pictures, rendered by headless Chromium.
#   - gttlab dump ggtt --svg on sim:skl, and on a fake sysfs tree whose PLANE_CTL_1_A scans out from
#     the middle of the aperture (tests/lib/fake_sysfs.sh): the scanout surface must be drawn;
#   - gttlab dom0 run scenarios/vocl-migration.scn --svg: slots over time and the GGTT at the end.
# Each is screenshot (chromium --headless --screenshot) and judged by build/tests/png_stats: not
# blank (ink on more than 2% of the pixels, at least 8 colours); and its DOM as Chromium parsed it
# (--dump-dom) must hold the labelled parts. A blank SVG must be judged blank (the judge can fail).
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/gttlab
stats=$build/tests/png_stats
tmp=$(mktemp -d /tmp/gttlab-svg.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"
fails=0 passes=0
bad() { echo "svg: FAIL: $1: $2"; fails=$((fails + 1)); }
ok() { echo "svg: $1"; passes=$((passes + 1)); }

chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "svg: no chromium (Debian package chromium; make deps installs it)"; exit 1; }
# render SVG HEIGHT: $tmp/NAME.png and $tmp/NAME.dom
render() {
	local svg=$1 h=$2 name
	name=$(basename "$svg" .svg)
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
		--window-size=1200,"$h" --screenshot="$tmp/$name.png" "file://$svg" >/dev/null 2>"$tmp/$name.chrome.err" || return 1
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" --dump-dom "file://$svg" \
		>"$tmp/$name.dom" 2>>"$tmp/$name.chrome.err" || return 1
	[ -s "$tmp/$name.png" ] && [ -s "$tmp/$name.dom" ]
}
# not_blank NAME: ink on > 2% of the pixels, >= 8 colours
not_blank() {
	local out w h ink colours
	out=$("$stats" "$tmp/$1.png") || return 1
	read -r dims rest <<<"$out"
	w=${dims%x*}; h=${dims#*x}
	ink=$(sed -n 's/.*ink=\([0-9]*\).*/\1/p' <<<"$out"); colours=$(sed -n 's/.*colours=\([0-9]*\).*/\1/p' <<<"$out")
	[ "$ink" -gt $((w * h / 50)) ] && [ "$colours" -ge 8 ]
}
# has NAME TEXT...: each TEXT is the content of a <text> element of the DOM
has() {
	local name=$1 t
	shift
	for t in "$@"; do
		grep -q ">$t</text>" "$tmp/$name.dom" || { echo "no <text> '$t'"; return 1; }
	done
}
judge() {
	local name=$1 h=$2 why
	shift 2
	if ! render "$tmp/$name.svg" "$h"; then
		bad "$name" "chromium did not render it: $(head -c 300 "$tmp/$name.chrome.err")"
	elif ! not_blank "$name"; then
		bad "$name" "the screenshot is blank: $("$stats" "$tmp/$name.png")"
	elif ! why=$(has "$name" "$@"); then
		bad "$name" "$why in the DOM Chromium parsed"
	else
		ok "$name: rendered ($("$stats" "$tmp/$name.png")), ${#} labelled parts in its DOM"
	fi
}

# the judge itself: a blank picture is blank
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="1200" height="300" fill="#fff"/></svg>\n' \
	>"$tmp/blank.svg"
if render "$tmp/blank.svg" 300 && ! not_blank blank; then
	ok "a blank SVG is judged blank ($("$stats" "$tmp/blank.png"))"
else
	bad "blank" "a blank SVG was not judged blank"
fi

"$bin" --device sim:skl dump ggtt --svg "$tmp/ggtt.svg" || bad "dump ggtt --svg" "exit $?"
judge ggtt 340 "host low" "guest low" "fence pool" "reserved" "host high" "slot 0" "layout" "PTEs" "held by" \
	"not present" "scratch" "mapped" "end of the aperture"

tree=$tmp/tree
fake_device "$tree" 0000:00:02.0 0x8086 0x1912 0x030000 gpu 256
r0=$tree/bus/pci/devices/0000:00:02.0/resource0
put32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" |
	dd of="$r0" bs=1 seek=$(($1)) conv=notrunc status=none; }
put32 0x70188 120				# PLANE_STRIDE_1_A
put32 0x70190 $(((1079 << 16) | 1919))		# PLANE_SIZE_1_A
put32 0x7019c 0x8000000				# PLANE_SURF_1_A: the middle of the aperture
put32 0x70180 0x80000000			# PLANE_CTL_1_A: enabled
"$bin" --device pci:0000:00:02.0 --sysfs-root "$tree" dump ggtt --svg "$tmp/scanout.svg" 2>"$tmp/scanout.err" ||
	bad "dump ggtt --svg on the fake tree" "exit $?: $(head -1 "$tmp/scanout.err")"
judge scanout 360 "host low" "slot 0" "scanout: primary plane, pipe A"

"$bin" dom0 run scenarios/vocl-migration.scn --quiet --svg "$tmp/slots.svg" >"$tmp/run.out" 2>&1 ||
	bad "dom0 run --svg" "exit $?: $(tail -3 "$tmp/run.out")"
judge slots 760 "slot 0" "slot 5" "vm2" "vm3" "vm4" "vm3 migrated" "vm4 migrated" "vm1 left for the other device" \
	"vm1 arrived from the other device" "switches (PTEs written)" "host low" "held by"

echo "svg: $passes passed, $fails failed"
[ "$fails" = 0 ]
