#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/shipped-hardening.sh BUILD: the shipped binaries carry the hardening the Makefile asks for
# (docs/hostile-input.md). The hosted ones (build/gttlab, the IGT binaries) call the stack protector's
# __stack_chk_fail and glibc's checked calls (__*_chk: _FORTIFY_SOURCE); gttlab.efi (its ELF image,
# build/efi/gttlab.so) defines the global guard __stack_chk_guard, checks canaries (calls of
# __stack_chk_fail) and holds the traps of
# -fsanitize=bounds (ud2 after a bounds compare). A flag that did not take shows as a missing symbol or
# trap. The check proves itself first: a file built here without the flags must fail it.
set -euo pipefail
build=${1:?usage: tests/host/shipped-hardening.sh BUILD}

# hosted FILE: empty when FILE is hardened, else what it lacks
hosted() {
	local syms lack=""
	syms=$(nm -D "$1" 2>/dev/null || true)
	grep -q ' U __stack_chk_fail' <<<"$syms" || lack="$lack no stack protector (__stack_chk_fail)"
	grep -qE ' U __[a-z]+_chk' <<<"$syms" || lack="$lack no _FORTIFY_SOURCE (__*_chk)"
	echo "${lack# }"
}
# efi FILE.so: empty when the EFI image is hardened, else what it lacks
efi() {
	local lack="" syms dis
	syms=$(nm "$1")
	dis=$(objdump -d "$1")
	grep -q ' __stack_chk_guard$' <<<"$syms" || lack="$lack no global stack guard (__stack_chk_guard)"
	[ "$(grep -c 'call.*<__stack_chk_fail>' <<<"$dis")" -ge 20 ] || lack="$lack no canary checks (calls of __stack_chk_fail)"
	[ "$(grep -c 'ud2' <<<"$dis")" -ge 20 ] || lack="$lack no bounds traps (ud2)"
	echo "${lack# }"
}

# the self-test: the same checks on a program built without the flags
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <stdio.h>\n#include <string.h>\nint main(int c, char **v) { char b[64]; strcpy(b, v[0]); printf("%%s %%d\\n", b, c); return 0; }\n' >"$tmp/p.c"
cc -O2 -fno-stack-protector -U_FORTIFY_SOURCE "$tmp/p.c" -o "$tmp/plain"
cc -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=3 "$tmp/p.c" -o "$tmp/hard"
[ -n "$(hosted "$tmp/plain")" ] || { echo "shipped-hardening: the check passed a program built without the flags"; exit 1; }
[ -z "$(hosted "$tmp/hard")" ] || { echo "shipped-hardening: the check failed a program built with them: $(hosted "$tmp/hard")"; exit 1; }

bad=0
for f in "$build/gttlab" "$build"/igt/gtt_*; do
	[ -f "$f" ] || { echo "shipped-hardening: $f is not built"; exit 2; }
	lack=$(hosted "$f")
	[ -z "$lack" ] || { echo "shipped-hardening: $f: $lack"; bad=1; }
done
so=$build/efi/gttlab.so
[ -f "$so" ] || { echo "shipped-hardening: $so is not built"; exit 2; }
lack=$(efi "$so")
[ -z "$lack" ] || { echo "shipped-hardening: $so: $lack"; bad=1; }
[ $bad = 0 ] || exit 1
echo "shipped-hardening: $(ls "$build"/igt/gtt_* | wc -l) IGT binaries and the CLI with stack protector and _FORTIFY_SOURCE=3; gttlab.efi with a global stack guard, $(objdump -d "$so" | grep -c 'call.*<__stack_chk_fail>') canary checks and $(objdump -d "$so" | grep -c ud2) bounds traps (self-test: an unhardened build fails)"
