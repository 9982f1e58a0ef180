#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/host/serve-kill-restore.sh BUILD_DIR [KILLS]: the host of the VM boundary killed mid-run.
#
# `gttlab dom0 serve` runs on a real-device path (a fake sysfs tree: tests/lib/fake_sysfs.sh, whose
# config, resource0 and resource2 are files the linux backend maps) with its crash journal, and
# a pv: guest runs the guest suite against it. At KILLS (default 8) moments inside the guest's
# run the host is killed with SIGKILL; then the guest must end as an abort naming its lost device
# (or, killed while it still opened the device, a device error naming the loss; never a pass; at
# least a quarter of the kills must be aborts), `gttlab restore --journal FILE` must put every byte
# of the tree back as it was,
# and the journal must be gone. An undisturbed run first: the host leaves the tree as found and no
# journal. At least a quarter of the kills must leave the tree modified before the restore, or
# the moments prove nothing. Runs as root (the linux backend's pages).
set -u
build=${1:?usage: tests/host/serve-kill-restore.sh BUILD_DIR [KILLS]}
kills=${2:-8}
bin=$(cd "$build" && pwd)/gttlab
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/gttlab-serve-kill.XXXXXX)
hpid=
trap '[ -n "$hpid" ] && kill -KILL "$hpid" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"
bdf=0000:00:02.0
tree=$tmp/tree pristine=$tmp/pristine journal=$tmp/journal
fake_device "$tree" "$bdf" 0x8086 0x1912 0x030000 gpu 64
cp -a --sparse=always "$tree" "$pristine"
host=(--device "pci:$bdf" --sysfs-root "$tree" --journal "$journal" dom0 serve --dir "$tmp" --guests 1 --exit-after 1)
guest=(--device "pv:$tmp/vgpu1.sock,timeout=500" check --run guest)
failures=0
fail() { echo "serve-kill-restore: FAIL: $*"; failures=$((failures + 1)); }

same() {
	local f d=bus/pci/devices/$bdf
	for f in config resource0 resource2; do
		cmp -s "$tree/$d/$f" "$pristine/$d/$f" || { echo "$f differs"; return 1; }
	done
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# start the host; returns once it listens (its pid in $hpid)
start_host() {
	rm -f "$tmp/vgpu1.sock"
	"$bin" "${host[@]}" > "$tmp/host.log" 2>&1 &
	hpid=$!
	for _ in $(seq 100); do [ -S "$tmp/vgpu1.sock" ] && return 0; sleep 0.02; done
	fail "dom0 serve did not listen: $(cat "$tmp/host.log")"
	return 1
}

# until the host says the guest is attached (its vGPU made): the guest's checks start then
attached() {
	for _ in $(seq 500); do grep -q "guest 1 connected" "$tmp/host.log" && return 0; sleep 0.005; done
	return 1
}

# the undisturbed run: how long the guest runs once attached; the host ends by itself, the tree as
# found, no journal
start_host || exit 1
"$bin" "${guest[@]}" > "$tmp/guest.log" 2>&1 &
gpid=$!
attached || fail "the guest never attached"
t0=$(now_ms)
wait "$gpid"
dur=$(($(now_ms) - t0))
wait "$hpid"; st=$?
[ "$st" = 0 ] || fail "an undisturbed host exited $st: $(cat "$tmp/host.log")"
[ -e "$journal" ] && fail "an undisturbed host left its journal"
same >/dev/null || fail "an undisturbed host left the device changed"
echo "serve-kill-restore: an undisturbed guest ran ${dur} ms once attached"

ok=0 dirty=0 missed=0 aborted=0 at_open=0
for i in $(seq "$kills"); do
	start_host || continue
	"$bin" "${guest[@]}" > "$tmp/guest.log" 2>&1 &
	gpid=$!
	attached || fail "kill $i: the guest never attached"
	# moments spread over the first four fifths of the guest's run once attached
	sleep "$(awk -v i="$i" -v n="$kills" -v d="$dur" 'BEGIN { printf "%.3f", (0.05 + 0.75 * (i - 0.5) / n) * d / 1000 }')"
	if ! kill -0 "$gpid" 2>/dev/null; then
		missed=$((missed + 1))
		kill -KILL "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null
	else
		kill -KILL "$hpid"; wait "$hpid" 2>/dev/null
		wait "$gpid"; st=$?
		if [ "$st" = 3 ] && grep -q "device lost" "$tmp/guest.log"; then
			aborted=$((aborted + 1))
		elif [ "$st" = 2 ] && grep -q "the device is lost\|stopped serving" "$tmp/guest.log"; then
			at_open=$((at_open + 1))	# lost while it opened the device: an error, no check ran
		elif [ "$st" -le 1 ] && grep -q "^\(PASS\|FAIL\) on " "$tmp/guest.log" && ! grep -q "device lost" "$tmp/guest.log"; then
			missed=$((missed + 1))	# its last check had ended: the kill came as it exited
		else
			fail "kill $i: the guest exited $st without naming its lost device: $(head -c 300 "$tmp/guest.log")"
		fi
	fi
	wait "$gpid" 2>/dev/null
	same >/dev/null || dirty=$((dirty + 1))
	out=$("$bin" restore --journal "$journal" 2>&1); st=$?
	if [ "$st" != 0 ]; then
		fail "kill $i: gttlab restore exited $st: $out"
		rm -rf "$tree"; cp -a --sparse=always "$pristine" "$tree"; rm -f "$journal"
		continue
	fi
	[ -e "$journal" ] && { fail "kill $i: the journal is still there after gttlab restore"; rm -f "$journal"; }
	if ! d=$(same); then
		fail "kill $i: not restored: $d"
		rm -rf "$tree"; cp -a --sparse=always "$pristine" "$tree"
		continue
	fi
	ok=$((ok + 1))
done
[ "$dirty" -ge $((kills / 4)) ] || fail "only $dirty of $kills kills left the device modified: the moments miss the run"
[ "$missed" -le $((kills / 2)) ] || fail "$missed of $kills kills came after the guest had finished"
[ "$aborted" -ge $((kills / 4)) ] || fail "only $aborted of $kills kills fell inside the guest's checks (an abort naming the loss)"
echo "serve-kill-restore: $ok/$kills kills of dom0 serve restored by gttlab restore ($dirty left the device modified); the guest: $aborted aborts naming the lost device mid-checks, $at_open device errors naming it while opening, $missed kills after its last check"
[ "$failures" = 0 ]
