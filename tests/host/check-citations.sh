#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/check-citations.sh [--self-test] [ROOT]: every citation of docs/hardware.md in the tree
# (sources, scripts, docs, the Makefile) names a section the document has. A citation is
# "hardware.md" followed, on its line or the next, by section marks: §2, §4.3, §2.1-2.3 (both
# ends checked), §1-§4. The sections are the document's headings: "## 2. Title", "### 4.3 Title".
# Prints one line per citation that does not resolve, FILE:LINE and the section; exit 1 if any.
# --self-test runs it on a planted tree first: a missing section and a missing document must be
# reported, good citations not.
set -euo pipefail

# check ROOT: the report on ROOT's citations
check() {
	local root=$1 doc=$1/docs/hardware.md
	if [ ! -f "$doc" ]; then
		echo "docs/hardware.md is missing, and the tree cites it"
		return 1
	fi
	local sections
	sections=$(sed -n -e 's/^## \([0-9][0-9]*\)\. .*/\1/p' -e 's/^### \([0-9][0-9]*\.[0-9][0-9]*\) .*/\1/p' "$doc" | tr '\n' ' ')
	(cd "$root" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f ! -path './build/*' ! -path './.git/*' | sed 's|^\./||') |
		grep -E '\.(c|h|sh|md|in|yaml)$|^Makefile$' | grep -v '^build/' |
		while IFS= read -r f; do
			[ -f "$root/$f" ] || continue
			awk -v f="$f" -v secs=" $sections " '
				# the marks of a line that cites the document, and of the line after one that ends with it
				function marks(text, n, at, m, parts, k) {
					while (match(text, /§[0-9]+(\.[0-9]+)?(-§?[0-9]+(\.[0-9]+)?)?/)) {
						m = substr(text, RSTART, RLENGTH)
						gsub(/§/, "", m)
						n = split(m, parts, "-")
						for (k = 1; k <= n; k++)
							if (index(secs, " " parts[k] " ") == 0)
								printf "%s:%d: hardware.md §%s is not a section of docs/hardware.md\n", f, at, parts[k]
						text = substr(text, RSTART + RLENGTH)
					}
				}
				carry { marks($0, 0, NR); carry = 0 }
				/hardware\.md/ {
					t = substr($0, index($0, "hardware.md"))
					marks(t, 0, NR)
					if (t ~ /hardware\.md[^§]*$/ && t !~ /§/) carry = 1
				}' "$root/$f"
		done
}

if [ "${1:-}" = --self-test ]; then
	shift
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/docs" "$tmp/src"
	printf '# Facts\n## 1. One\n### 1.2 Two\n## 4. Four\n### 4.3 Fences\n' > "$tmp/docs/hardware.md"
	printf '/* docs/hardware.md §1.2 and §4.3; §1-§4; §1.2-4.3 */\n/* see docs/hardware.md\n * §4.3 */\n' > "$tmp/src/good.c"
	printf '/* docs/hardware.md §4.4 */\n/* docs/hardware.md\n * §7 */\n' > "$tmp/src/bad.c"
	out=$(check "$tmp" || true)
	want="src/bad.c:1: hardware.md §4.4 is not a section of docs/hardware.md
src/bad.c:3: hardware.md §7 is not a section of docs/hardware.md"
	[ "$out" = "$want" ] || { echo "check-citations self-test: expected:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
	rm "$tmp/docs/hardware.md"
	out=$(check "$tmp" || true)
	[ "$out" = "docs/hardware.md is missing, and the tree cites it" ] ||
		{ echo "check-citations self-test: a missing document was not reported: $out"; exit 1; }
	echo "check-citations self-test: a missing section and a missing document reported, good citations not"
fi
root=${1:-.}
out=$(check "$root")
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
n=$(cd "$root" && grep -rho --include='*.[ch]' --include='*.sh' --include='*.md' 'hardware\.md' . 2>/dev/null | wc -l)
echo "check-citations: every citation of docs/hardware.md names one of its sections ($n mentions)"
