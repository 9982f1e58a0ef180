#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/vm/bad-input.sh BIN_DIR: the malformed-input corpus against BIN_DIR/gttlab.
#
# Every case is bad input, and the CLI's contract for bad input is checked on
# each one: exit status exactly 2, exactly one line on stderr (`gttlab: ...`,
# or `FILE:LINE: ...` / `FILE: ...` for a scenario), nothing on stdout, no
# sanitizer report, and not one byte of a device changed.
#
# The cases are data:
#   tests/vm/bad-input/invocations.txt   one command line per line (see its header)
#   tests/vm/bad-input/scenarios/*.scn   malformed scenarios, each run as `dom0 run FILE`
#
# Real-device paths run against fake sysfs trees built here (tests/lib/fake_sysfs.sh,
# the shell twin of fake_device() in tests/hw/test_linux_backend.c): config, resource0 (16 MiB)
# and resource2 (256 MiB) are plain files the linux backend maps, so a write
# to the "device" is a changed byte in them. Their sha256 sums are taken when
# a tree is built and checked after every case that uses the tree (see
# check_tree for how the 256 MiB file is proven unchanged without reading
# it); any write fails the case, and the tree is rebuilt so later cases
# start clean. Cases that name no tree run on the simulated device, which lives
# and dies inside the process.
#
# Prints one line per failing case and ends with `bad-input: N passed, M failed`;
# exits 0 only when M is 0. Runs as root (it builds FIFOs and 3 GiB sparse
# files in a temporary directory, removed at exit).
set -u

if [ $# -ne 1 ] || [ ! -x "$1/gttlab" ]; then
	echo "usage: $0 BIN_DIR (a directory holding an executable gttlab)" >&2
	exit 2
fi
bin=$(cd "$1" && pwd)/gttlab
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=$here/bad-input
if [ ! -f "$corpus/invocations.txt" ] || ! compgen -G "$corpus/scenarios/*.scn" >/dev/null; then
	echo "bad-input.sh: no corpus in $corpus (invocations.txt, scenarios/*.scn)" >&2
	exit 2
fi
tmp=$(mktemp -d /tmp/gttlab-bad-input.XXXXXX)
scn_pid=""
trap '[ -n "$scn_pid" ] && kill "$scn_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
# a hang is a failure, not a stuck test run
case_timeout=20
# sanitizer builds: leaks are reports too, and a report must not be swallowed by a late abort
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

passed=0
failed=0

# ---- fake sysfs trees ----

# put_bytes and fake_device
. "$here/../lib/fake_sysfs.sh"

# make_tree NAME: the tree @NAME@ stands for, in $tmp/tree-NAME
make_tree() {
	local name=$1 root=$tmp/tree-$1
	local gpu=$root/bus/pci/devices/0000:00:02.0

	rm -rf "$root"
	fake_device "$root" 0000:00:01.0 0x10de 0x1c82 0x030000 other	# another vendor's GPU first
	fake_device "$root" 0000:00:02.0 0x8086 0x1912 0x030000 gpu	# a Skylake GT2
	fake_device "$root" 0000:00:1f.0 0x8086 0xa149 0x060100 other	# Intel, not display
	case $name in
	TREE) ;;
	NOVENDOR)	# the GPU's vendor attribute is missing
		rm "$gpu/vendor" ;;
	JUNK)		# entries under devices/ that are no PCI address
		mkdir -p "$root/bus/pci/devices/garbage" "$root/bus/pci/devices/0000:00:02" \
			"$root/bus/pci/devices/zzzz:zz:zz.z"
		: >"$root/bus/pci/devices/0000:00:03.0"	# a file, not a device directory
		ln -s /nonexistent "$root/bus/pci/devices/0000:00:04.0" ;;
	SHORTBAR)	# resource2 (the aperture) shorter than its 256 MiB BAR
		truncate -s 1M "$gpu/resource2" ;;
	I915)		# bound to i915
		mkdir -p "$root/bus/pci/drivers/i915"
		ln -s ../../../../bus/pci/drivers/i915 "$gpu/driver" ;;
	NOCONFIG)	# no config space file
		rm "$gpu/config" ;;
	BADRESOURCE)	# a resource file that is not three hex numbers a line
		printf 'this is not a resource file\n' >"$gpu/resource" ;;
	*) echo "bad-input.sh: no tree named $name" >&2; exit 2 ;;
	esac
	local f size blocks
	for f in config resource0 resource2; do
		if [ ! -e "$gpu/$f" ]; then
			echo "absent"
			continue
		fi
		read -r size blocks < <(stat -c '%s %b' "$gpu/$f")
		# files of holes of one size have one hash: each size is read once per run
		if [ "$blocks" = 0 ] && [ -z "${zero_sum[$size]:-}" ]; then
			zero_sum[$size]=$(sha256sum <"$gpu/$f")
		fi
		if [ "$blocks" = 0 ]; then
			echo "$size $blocks ${zero_sum[$size]}"
		else
			echo "$size $blocks $(sha256sum <"$gpu/$f")"
		fi
	done >"$tmp/hash-$name"
}

# check_tree NAME: prints what changed in the tree's device files since make_tree, if anything.
#
# config is hashed with sha256sum after every case. resource0 and resource2
# are made with truncate, as files with no block allocated, and a write to
# such a file, by write(2) or through a shared mapping, allocates the block
# it lands in (even when it writes zeros). So while a BAR file still has its
# size and no block allocated, it is proven to hold the bytes it had, all
# zeros, and its sha256 is the one sha256sum gave at make_tree: only then is
# reading its 256 MiB again skipped, which would take most of the time
# budget. A BAR file with blocks allocated is hashed, and when its bytes are
# back as they were it was still written, which the contract forbids too.
# BAD_INPUT_FULL_HASH=1 runs sha256sum on every file after every case.
check_tree() {
	local name=$1 gpu=$tmp/tree-$1/bus/pci/devices/0000:00:02.0 f size blocks sum
	local -a want
	local i=0

	mapfile -t want <"$tmp/hash-$name"
	for f in config resource0 resource2; do
		local w=${want[i]}
		i=$((i + 1))
		if [ ! -e "$gpu/$f" ]; then
			[ "$w" = absent ] || printf '%s removed; ' "$f"
			continue
		fi
		[ "$w" = absent ] && { printf '%s created; ' "$f"; continue; }
		read -r size blocks < <(stat -c '%s %b' "$gpu/$f")
		local wsize=${w%% *} rest=${w#* }
		local wblocks=${rest%% *} wsum=${rest#* }
		if [ "$f" != config ] && [ -z "${BAD_INPUT_FULL_HASH:-}" ] && [ "$wblocks" = 0 ] &&
			[ "$blocks" = 0 ] && [ "$size" = "$wsize" ]; then
			continue
		fi
		sum=$(sha256sum <"$gpu/$f")
		if [ "$sum" != "$wsum" ]; then
			printf '%s changed (sha256 %.12s..., was %.12s...); ' "$f" "$sum" "$wsum"
		elif [ "$f" != config ] && [ "$blocks" != "$wblocks" ]; then
			printf '%s written (blocks allocated), though its bytes are back; ' "$f"
		fi
	done
}

declare -A zero_sum
trees=(TREE NOVENDOR JUNK SHORTBAR I915 NOCONFIG BADRESOURCE)
for t in "${trees[@]}"; do make_tree "$t"; done

# ---- files the cases name ----
mkdir -p "$tmp/dir" "$tmp/out"
mkfifo "$tmp/fifo"
: >"$tmp/empty"
printf 'cre' >"$tmp/short"			# a scenario cut off in its first word
truncate -s 3G "$tmp/big"			# sparse; must never be read whole
truncate -s 2M "$tmp/seed"			# a well-formed MMIO seed, for the other rules
truncate -s $((2 * 1024 * 1024 + 1)) "$tmp/seed.plus1"
truncate -s $((2 * 1024 * 1024 - 4)) "$tmp/seed.minus4"
printf 'not a dir' >"$tmp/notdir"		# a path through it fails with ENOTDIR
ln -s "$tmp/nowhere/target" "$tmp/dangling"	# a dangling symlink: open fails, create too
bytes=""
for ((i = 0; i < 256; i++)); do printf -v hex '%02x' "$i"; bytes+="\\x$hex"; done
printf '%b' "$bytes" >"$tmp/random"		# every byte value, NUL first
printf 'create a low=16M slots=1\0\n' >"$tmp/nul"
good=$repo/scenarios/fence-pool.scn

# ---- one case ----

# one line: the stderr of a failing case, joined and cut
oneline() {
	local s
	s=$(tr '\n' '|' <"$1" | sed 's/|$//; s/|/ | /g')
	[ ${#s} -gt 300 ] && s="${s:0:300}..."
	printf '%s' "$s"
}

# run_case LABEL STDOUT NEEDLE PREFIX_RE TREES ARGS...
#   STDOUT: where the command's stdout goes ("" = a file that must stay empty)
#   NEEDLE: text stderr must contain ("" = none)
#   PREFIX_RE: extended regex the stderr line must start with
#   TREES: space-separated tree names to check after the case
# Few processes besides the command itself: 550 cases have to run in seconds.
run_case() {
	local label=$1 out=$2 needle=$3 prefix=$4 used=$5 rc why="" t changed text
	shift 5
	local err=$tmp/$worker.err so=$tmp/$worker.out
	local -a lines

	timeout -k 5 "$case_timeout" "$bin" "$@" >"${out:-$so}" 2>"$err" </dev/null
	rc=$?
	[ -n "$out" ] && : >"$so"
	mapfile -t lines <"$err"	# a last line without its newline counts too
	text=$(<"$err")
	if [[ $text == *AddressSanitizer* || $text == *LeakSanitizer* || $text == *"runtime error:"* ]]; then
		why="sanitizer report"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after ${case_timeout}s (exit $rc)"
	elif [ "$rc" -ne 2 ]; then
		why="exit status $rc, not 2"
	elif [ "${#lines[@]}" -ne 1 ]; then
		why="${#lines[@]} lines on stderr, not 1"
	elif [ -s "$so" ]; then
		why="stdout not empty: $(head -c 120 "$so" | tr '\n' '|')"
	elif ! [[ ${lines[0]} =~ ^($prefix) ]]; then
		why="the stderr line does not start with the expected prefix"
	elif [ -n "$needle" ] && [[ $text != *"$needle"* ]]; then
		why="stderr does not name '$needle'"
	fi
	for t in $used; do
		changed=$(check_tree "$t")
		if [ -n "$changed" ]; then
			why="${why:+$why; }device bytes of tree @$t@: ${changed%; }"
			make_tree "$t"
		fi
	done
	if [ -z "$why" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: %s: %s; stderr: %s\n' "$label" "$why" "$(oneline "$err")"
	fi
}

# Regex-quote a path for PREFIX_RE.
re_quote() {
	printf '%s' "$1" | sed 's/[][\.*^$(){}+?|/]/\\&/g'
}

# expand VAR TEXT: TEXT with the placeholders replaced, into VAR
expand() {
	local s=$2 t
	s=${s//@PCI@/--sysfs-root @TREE@ --device pci:0000:00:02.0}
	for t in "${trees[@]}"; do s=${s//@$t@/$tmp/tree-$t}; done
	s=${s//@TMP@/$tmp}
	s=${s//@SCN@/$corpus/scenarios}
	s=${s//@GOOD@/$good}
	printf -v "$1" '%s' "$s"
}

# ---- the malformed scenarios, beside the invocations ----

# They use no fake tree, so a second worker runs them while the first runs
# the invocations: most of the time is the simulated device booting.
scenarios() {
	local f dev
	worker=scn
	for f in "$corpus"/scenarios/*.scn; do
		dev=$(sed -n 's/^# device: *\([^ ]*\).*/\1/p' "$f")
		set -- dom0 run "$f"
		[ -n "$dev" ] && set -- --device "$dev" "$@"
		run_case "gttlab $* ($(sed -n '1s/^# *//p' "$f"))" "" "" "$(re_quote "$f"):([0-9]+:)? " "" "$@"
	done
	echo "$passed $failed" >"$tmp/scn.count"
}
scenarios >"$tmp/scn.log" &
scn_pid=$!
worker=inv

# ---- the invocations ----

lineno=0
while IFS= read -r raw || [ -n "$raw" ]; do
	lineno=$((lineno + 1))
	case $raw in '' | '#'*) continue ;; esac
	line=$raw needle=""
	if [[ $line == *' => '* ]]; then
		needle=${line##* => }
		line=${line% => *}
	fi
	used=""
	for t in "${trees[@]}"; do
		[[ $line == *@$t@* || ($t == TREE && $line == *@PCI@*) ]] && used+=" $t"
	done
	out=""
	if [[ $line == '>'* ]]; then
		out=${line%% *}
		out=${out#>}
		line=${line#* }
		[ "$line" = "${out}" ] && line=""
	fi
	expand line "$line"
	expand out "$out"
	# the line is our own data: quoting in it ('' for an empty argument) is the shell's
	if [ "$line" = "@NOARGS@" ]; then
		set --
	else
		eval "set -- $line"
	fi
	# a scenario's errors start with its name; everything else with "gttlab: "
	prefix='gttlab: '
	for ((i = 1; i < $#; i++)); do
		if [ "${!i}" = run ]; then
			j=$((i + 1))
			prefix+="|$(re_quote "${!j}"):([0-9]+:)? "
			break
		fi
	done
	run_case "invocations.txt:$lineno: gttlab $raw" "$out" "$needle" "$prefix" "$used" "$@"
done <"$corpus/invocations.txt"

wait "$scn_pid"
cat "$tmp/scn.log"
if read -r p f <"$tmp/scn.count"; then
	passed=$((passed + p))
	failed=$((failed + f))
else
	echo "FAIL: the scenario worker did not finish"
	failed=$((failed + 1))
fi
echo "bad-input: $passed passed, $failed failed"

[ "$failed" -eq 0 ]
