#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# igt-tests/make-testlist.sh IGT_DIR GTTLAB: a testlist for `igt_runner --test-list FILE`, every test
# of the collection in igt_runner's names: igt@BINARY@SUBTEST for each subtest a binary lists
# (its --list-subtests, which touches no device) and igt@BINARY@platforms@PLATFORM for each
# platform the build simulates (gttlab info --platforms, the rows with a sim: device). Written to stdout.
set -euo pipefail
dir=$1
gttlab=$2
plats=$("$gttlab" info --platforms | awk '$5 ~ /^sim:/ { print $1 }')
[ -n "$plats" ] || { echo "make-testlist: $gttlab knows no platform" >&2; exit 1; }
bins=$(sed -e '/^TESTLIST$/d' -e '/^END TESTLIST$/d' "$dir/test-list.txt")
for b in $bins; do
	subs=$("$dir/$b" --list-subtests)
	[ -n "$subs" ] || { echo "make-testlist: $b lists no subtest" >&2; exit 1; }
	for s in $subs; do
		if [ "$s" = platforms ]; then
			for p in $plats; do echo "igt@$b@platforms@$p"; done
		else
			echo "igt@$b@$s"
		fi
	done
done
