#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/man-completion.sh BUILD_DIR: the man pages and the bash completion agree with the program.
# gttlab(1) and gttlab-dom0(1) are generated (cli/man.sh) from BUILD_DIR/gttlab's --help; groff renders
# both with every warning on and says nothing; gttlab(1) has a section for every command `gttlab --help`
# lists and names every global option it lists. The completion (cli/gttlab.bash), sourced into a
# fresh bash, offers the commands, the checks and suites of `check --list` for --run (in a comma
# list too), the models of `info --platforms` for --device, and the formats for --format.
set -u
build=${1:?usage: man-completion.sh BUILD_DIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$build" && pwd)/gttlab
tmp=$(mktemp -d /tmp/gttlab-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0
ok() { passed=$((passed + 1)); }
bad() { echo "man-completion: FAIL: $*"; failed=$((failed + 1)); }

"$here/cli/man.sh" "$bin" "$tmp" > /dev/null || { echo "man-completion: cli/man.sh failed"; exit 1; }
for p in gttlab.1 gttlab-dom0.1; do
	warn=$(groff -man -ww -z "$tmp/$p" 2>&1)
	[ -z "$warn" ] && ok || bad "$p: groff warns: $(head -3 <<<"$warn" | tr '\n' '|')"
done
page=$(MANWIDTH=120 man -l "$tmp/gttlab.1" 2>/dev/null)
for c in $("$bin" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }' | sort -u); do
	grep -qx "^\.SS $c" "$tmp/gttlab.1" && ok || bad "gttlab(1) has no section for the command $c"
done
for o in $("$bin" --help | sed -n '/^global options:/,/^$/p' | grep -o '^  --[a-z0-9-]*'); do
	grep -qe "$o" <<<"$page" && ok || bad "gttlab(1) does not name the global option $o"
done
grep -q 'EXIT STATUS' <<<"$page" && grep -q '77' <<<"$page" && ok || bad "gttlab(1) has no exit status with 77"

# complete WORDS...: what the completion offers for the last word
complete_() {
	PATH=$(dirname "$bin"):$PATH bash --norc --noprofile -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gttlab; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$here/cli/gttlab.bash" "$@"
}
expect() {
	local want=$1
	shift
	grep -qx -- "$want" <(complete_ "$@") && ok || bad "completing '$*' does not offer $want: $(complete_ "$@" | head -5 | tr '\n' ' ')"
}
expect check gttlab ch
expect dom0 gttlab do
expect --device gttlab --dev
expect sim:hsw gttlab --device sim:h
expect vgpu:sim:tgl gttlab --device vgpu:sim:t
expect fence-readback gttlab check --run fence-r
expect ggtt gttlab check --run gg
expect ggtt-pte-readback,fence-x-detile gttlab check --run ggtt-pte-readback,fence-x
expect igt-json gttlab check --format i
expect --platforms gttlab info --pl
expect tgl gttlab encode pte 0x1000 --platform t
expect serve gttlab dom0 se
n=$("$bin" check --list | wc -l)
m=$(complete_ gttlab check --run "" | grep -c .)
[ "$m" -gt "$n" ] && ok || bad "completing --run offers $m words for $n checks and their suites"
echo "man-completion: $passed passed, $failed failed"
[ "$failed" = 0 ]
