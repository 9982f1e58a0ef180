#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/host/kill-restore.sh BIN_DIR [KILLS] [SEED]: the crash journal's proof.
#
# On a fake sysfs tree (tests/lib/fake_sysfs.sh: config, resource0 and resource2
# are files the linux backend maps, so the "device" is bytes on disk),
# `gttlab check` and `gttlab dom0 run` are killed with SIGKILL at KILLS
# (default 100) moments each, drawn from SEED (default 1) uniformly over
# 1.1 times the length of an undisturbed run measured first. After each kill
# `gttlab restore --journal FILE` runs, and every byte of config, resource0
# and resource2 must be identical to the pristine tree, and the journal gone.
# The two commands run in parallel, each on its own tree.
#
# Also shown: an undisturbed run leaves the tree as found and no journal; a
# run that finds an unrestored journal refuses to start (exit 2, naming
# `gttlab restore`) and writes nothing; the default journal under
# /var/lib/gttlab is found by `gttlab restore` with no argument. The kills
# must land inside runs: at least a quarter must leave the device modified
# before the restore, or the test fails (its moments would prove nothing).
#
# Ends with one line per command, `kill-restore CMD: N/N identical ...`;
# exits 0 only when every kill was restored. Runs as root.
set -u

if [ $# -lt 1 ] || [ ! -x "$1/gttlab" ]; then
	echo "usage: $0 BIN_DIR [KILLS] [SEED]" >&2
	exit 2
fi
bin=$(cd "$1" && pwd)/gttlab
kills=${2:-100}
seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/gttlab-kill.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$here/../lib/fake_sysfs.sh"

bdf=0000:00:02.0
files="config resource0 resource2"

# same TREE PRISTINE: silent when every device byte matches, else names the first differences
same() {
	local f d=bus/pci/devices/$bdf rc=0
	for f in $files; do
		if ! cmp -s "$1/$d/$f" "$2/$d/$f"; then
			echo "$f differs at $(cmp -l "$1/$d/$f" "$2/$d/$f" 2>/dev/null | head -3 | awk '{printf "byte %d (0x%x: %s, was %s) ", $1 - 1, $1 - 1, $3, $2}')"
			rc=1
		fi
	done
	return $rc
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# worker NAME APERTURE_MIB ARGS...: kill `gttlab ARGS` KILLS times on tree NAME; writes $tmp/NAME.result
worker() {
	local name=$1 ap=$2
	shift 2
	local tree=$tmp/$name pristine=$tmp/$name.pristine journal=$tmp/$name.journal
	local -a dev=(--device "pci:$bdf" --sysfs-root "$tree")
	local ok=0 dirty=0 left=0 finished=0 failures=0 t0 dur moment st out diff

	fake_device "$tree" "$bdf" 0x8086 0x1912 0x030000 gpu "$ap"
	cp -a --sparse=always "$tree" "$pristine"
	fail() {
		failures=$((failures + 1))
		echo "kill-restore $name: $*"
		rm -rf "$tree"
		cp -a --sparse=always "$pristine" "$tree"
		rm -f "$journal"
	}

	# an undisturbed run: its length, and the tree as found with no journal left
	t0=$(now_ms)
	"$bin" "${dev[@]}" --journal "$journal" "$@" >/dev/null 2>&1
	st=$?
	dur=$(($(now_ms) - t0))
	[ "$st" -le 1 ] || fail "an undisturbed run exited $st"
	[ -e "$journal" ] && fail "an undisturbed run left its journal"
	diff=$(same "$tree" "$pristine") || fail "an undisturbed run left the device changed: $diff"

	local i=0
	while read -r moment; do
		i=$((i + 1))
		"$bin" "${dev[@]}" --journal "$journal" "$@" >/dev/null 2>&1 &
		local pid=$!
		sleep "$moment"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		st=$?
		[ "$st" = 137 ] || finished=$((finished + 1))
		same "$tree" "$pristine" >/dev/null || dirty=$((dirty + 1))
		if [ -e "$journal" ]; then
			left=$((left + 1))
			if [ "$left" = 1 ]; then
				# a run over an unrestored journal refuses to start and writes nothing
				out=$("$bin" "${dev[@]}" --journal "$journal" "$@" 2>&1 >/dev/null)
				st=$?
				if [ "$st" != 2 ] || [[ "$out" != *"gttlab restore"* ]]; then
					fail "a run over the unrestored journal exited $st: $out"
					continue
				fi
			fi
		fi
		out=$("$bin" restore --journal "$journal" 2>&1)
		st=$?
		if [ "$st" != 0 ]; then
			fail "kill $i at ${moment}s: gttlab restore exited $st: $out"
			continue
		fi
		if [ -e "$journal" ]; then
			fail "kill $i at ${moment}s: the journal is still there after gttlab restore"
			continue
		fi
		if ! diff=$(same "$tree" "$pristine"); then
			fail "kill $i at ${moment}s (seed $seed): not restored: $diff"
			continue
		fi
		ok=$((ok + 1))
	done < <(awk -v s="$seed$name" -v n="$kills" -v d="$dur" 'BEGIN {
		h = 0; for (i = 1; i <= length(s); i++) h = (h * 31 + index("0123456789abcdefghijklmnopqrstuvwxyz-", substr(s, i, 1))) % 2147483647
		srand(h); for (i = 0; i < n; i++) printf "%.3f\n", rand() * d * 1.1 / 1000 }')

	if [ "$dirty" -lt $((kills / 4)) ]; then
		fail "only $dirty of $kills kills left the device modified: the moments miss the run (it took ${dur} ms)"
	fi
	echo "$ok $kills $dirty $left $finished $dur $failures" >"$tmp/$name.result"
}

# the default journal (/var/lib/gttlab/BDF@HASH.journal for this tree), restored by `gttlab restore` alone
default_journal() {
	local tree=$tmp/default pristine=$tmp/default.pristine out st diff
	fake_device "$tree" "$bdf" 0x8086 0x1912 0x030000 gpu 64
	cp -a --sparse=always "$tree" "$pristine"
	for moment in 0.15 0.25 0.35; do
		"$bin" --device "pci:$bdf" --sysfs-root "$tree" check >/dev/null 2>&1 &
		local pid=$!
		sleep "$moment"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		compgen -G "/var/lib/gttlab/$bdf@*.journal" >/dev/null && break
	done
	if ! compgen -G "/var/lib/gttlab/$bdf@*.journal" >/dev/null; then
		echo "kill-restore default: no journal under /var/lib/gttlab after three kills"
		return 1
	fi
	out=$("$bin" restore 2>&1)
	st=$?
	if [ "$st" != 0 ] || [[ "$out" != *"restored pci:$bdf"* ]]; then
		echo "kill-restore default: gttlab restore exited $st: $out"
		return 1
	fi
	if ! diff=$(same "$tree" "$pristine"); then
		echo "kill-restore default: not restored: $diff"
		return 1
	fi
	echo "kill-restore default: the journal under /var/lib/gttlab restored by 'gttlab restore' alone"
}

# a 64 MiB aperture keeps the byte comparisons short; the gScale scenario needs 256 MiB
worker check 64 check --run '*' &
w1=$!
worker dom0 256 dom0 run "$repo/scenarios/gscale-15-vgpus.scn" &
w2=$!
wait $w1 $w2
default_journal
rc=$?

for name in check dom0; do
	if [ ! -f "$tmp/$name.result" ]; then
		echo "kill-restore $name: the worker did not finish"
		rc=1
		continue
	fi
	read -r ok n dirty left finished dur failures <"$tmp/$name.result"
	echo "kill-restore $name: $ok/$n identical after gttlab restore ($dirty killed with the device modified, $left left a journal, $finished finished first; run ${dur} ms, seed $seed)"
	[ "$ok" = "$n" ] && [ "$failures" = 0 ] || rc=1
done
exit $rc
