#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/check-license.sh [ROOT]: the tree is MIT, and every source file says so. LICENSE at the top is
# the MIT License, and every tracked file a person writes (C, headers, shell, the Makefile, the LAVA job
# templates, monitors and device dictionaries, the test definition) carries "SPDX-License-Identifier:
# MIT" in its first five lines, and no other identifier. Generated files (the rendered device .yaml,
# the docs' generated tables) are not held to it. --self-test plants a file without the line and one
# with another licence in a scratch tree and must see both named.
set -uo pipefail
if [ "${1:-}" = --self-test ]; then
	me=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && git init -q && cp "$(dirname "$me")/../../LICENSE" . &&
		printf '/* SPDX-License-Identifier: MIT */\nint a;\n' > good.c && printf 'int b;\n' > bare.c &&
		printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n' > other.sh && git add . ) || exit 2
	out=$("$me" "$tmp" 2>&1)
	if [ $? = 0 ] || ! grep -q 'bare.c: no SPDX-License-Identifier' <<<"$out" || ! grep -q 'other.sh: GPL-2.0, not MIT' <<<"$out" ||
		grep -q 'good.c' <<<"$out"; then
		echo "check-license self-test: the planted files were not named as they must be:"; echo "$out"; exit 1
	fi
	echo "check-license self-test: a file without the line and one under another licence named, a good one not"
	exit 0
fi
root=${1:-.}
cd "$root" || exit 2
bad=0
if ! head -1 LICENSE 2>/dev/null | grep -qx 'MIT License' || ! grep -q 'Permission is hereby granted, free of charge' LICENSE; then
	echo "check-license: LICENSE is not the MIT License"
	bad=1
fi
n=0
while IFS= read -r f; do
	case $f in
	*.c | *.h | *.sh | Makefile | *.yaml.in | *.jinja2 | lava/monitors.yaml | lava/lava-test-shell/*.yaml) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	id=$(head -5 "$f" | grep -o 'SPDX-License-Identifier: [^ */#]*' | head -1 | sed 's/^SPDX-License-Identifier: //')
	if [ -z "$id" ]; then
		echo "check-license: $f: no SPDX-License-Identifier in its first five lines"
		bad=1
	elif [ "$id" != MIT ]; then
		echo "check-license: $f: $id, not MIT as LICENSE says"
		bad=1
	fi
done < <(git ls-files)
[ "$bad" = 0 ] && echo "check-license: LICENSE is MIT, and all $n source files say SPDX-License-Identifier: MIT"
exit "$bad"
