#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/install-root.sh BUILD_DIR: `make install` into a scratch root (DESTDIR, PREFIX=/usr), then
# the installed files run from there: gttlab --version and a check on sim:skl, an IGT binary from the
# test root /usr/libexec/gttlab (with its test lists beside it), gttlab.efi under /usr/lib/gttlab/efi
# (a PE image with its .sbat section), the man pages (man -l), the completion (bash -n), the LAVA
# files (make-jobs.sh renders a job from the installed templates) and the licence. Nothing is
# installed on this machine.
set -u
build=${1:?usage: install-root.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$(mktemp -d /tmp/gttlab-root.XXXXXX)
trap 'rm -rf "$root"' EXIT
failed=0 passed=0
ok() { passed=$((passed + 1)); }
bad() { echo "install-root: FAIL: $*"; failed=$((failed + 1)); }
make -C "$top" --no-print-directory BUILD="$build" install DESTDIR="$root" PREFIX=/usr > "$root.log" 2>&1 ||
	{ tail -5 "$root.log"; rm -f "$root.log"; echo "install-root: make install failed"; exit 1; }
rm -f "$root.log"
u=$root/usr
for f in bin/gttlab libexec/gttlab/gtt_ggtt libexec/gttlab/test-list.txt libexec/gttlab/gttlab.testlist \
	lib/gttlab/efi/gttlab.efi share/man/man1/gttlab.1 share/man/man1/gttlab-dom0.1 \
	share/bash-completion/completions/gttlab share/doc/gttlab/LICENSE share/doc/gttlab/README.md \
	share/doc/gttlab/lava.md share/gttlab/lava/make-jobs.sh share/gttlab/lava/gate.sh \
	share/gttlab/lava/qemu-job.yaml.in share/gttlab/lava/devices/gttlab-x86-ipxe.jinja2; do
	[ -f "$u/$f" ] && ok || bad "/usr/$f is not installed"
done
v=$("$u/bin/gttlab" --version) && [ "$v" = "$("$build/gttlab" --version)" ] && ok || bad "the installed gttlab says '$v'"
out=$("$u/bin/gttlab" --device sim:skl check --run fence-readback 2>&1)
grep -q '^PASS on sim:skl (skl, simulated)' <<<"$out" && ok || bad "the installed gttlab check: $(tail -3 <<<"$out" | tr '\n' '|')"
out=$(GTTLAB_DEVICE=sim:skl "$u/libexec/gttlab/gtt_fence" --run-subtest fence-readback 2>&1)
grep -q 'Subtest fence-readback: SUCCESS' <<<"$out" && ok || bad "the installed gtt_fence: $(tr '\n' '|' <<<"$out")"
objdump -h "$u/lib/gttlab/efi/gttlab.efi" 2>/dev/null | grep -q ' \.sbat ' && ok || bad "the installed gttlab.efi has no .sbat section"
MANWIDTH=100 man -l "$u/share/man/man1/gttlab.1" 2>/dev/null | grep -q 'EXIT STATUS' && ok || bad "man -l gttlab.1 shows no page"
bash -n "$u/share/bash-completion/completions/gttlab" && ok || bad "the installed completion is no bash"
"$u/share/gttlab/lava/make-jobs.sh" "$root/jobs" "$u/lib/gttlab/efi/gttlab.efi" "$u/lib/gttlab/efi/gttlab.efi" \
	"$u/lib/gttlab/efi/gttlab.efi" > /dev/null 2>&1 && grep -q 'start:' "$root/jobs/x86-ipxe.yaml" && ok ||
	bad "the installed make-jobs.sh renders no job from the installed templates"
echo "install-root: $passed passed, $failed failed: make install DESTDIR=... PREFIX=/usr, run from there"
[ "$failed" = 0 ]
