#!/bin/sh
# SPDX-License-Identifier: MIT
# The structure of the tree, checked (issue 24): the layers' include arrows, include circles inside
# a room, and the size of the product's files and functions. One line per violation,
# "FILE:LINE: RULE: what", sorted; exit 1 when there is any, 0 when there is none, 2 on misuse.
#   tests/host/check-structure.sh [ROOT]      check the tree at ROOT (default .)
#   tests/host/check-structure.sh --self-test plant one of each violation in a scratch tree and require
#                                        exactly those lines; then require the same output from
#                                        two runs on . (and from mawk and gawk, when both exist)
#
# Rooms are directories: env, regs, hw, hw/sim, hw/linux, dom0, dom0/host, checks, hosted,
# scenario, cli, efi, igt-tests, and the non-product rooms bench, fuzz and tests (their subdirectories belong to them:
# bench/efi, tests/tsan, tests/tools). Only #include "..." lines count; every include in this tree
# is written from the top (-I.), so an include's room is the directory part of its path.
#
# Which rooms each room may include (design.md "Layers", docs/architecture.md). Own room always.
#   env        nothing                 the bottom: environment interface, formatter, numbers
#   regs       env                     register facts as data
#   hw         regs env                device handle, backends, primitives
#   hw/sim     regs env                the model never reaches hw/'s encoders, so a wrong encoder
#                                      fails a check instead of agreeing with a copy of itself;
#                                      it implements no hw/ interface header (hw/backend_sim.c is
#                                      the adapter), so there is no exception
#   hw/linux   hw regs env             the linux backend implements hw/backend.h
#   dom0       hw regs env             the Dom0 runtime
#   dom0/host  dom0 hw regs env        the hosted request service and steal meter
#   checks     dom0 hw regs env        the check core: checks, runner, session, reports (freestanding)
#   hosted     dom0 hw regs env        what the hosted front-ends share: the backend list, journal
#                                      files, text escaping, JSON, pictures (hw/linux by an exception)
#   scenario   hosted dom0 dom0/host hw regs env    the scenario runner (hosted)
#   cli        checks scenario hosted dom0 dom0/host hw regs env    the gttlab command
#   efi        checks dom0 hw hw/sim regs env
#                                      the front-end without libc: not the hosted rooms hw/linux
#                                      and dom0/host; hw/sim, because the application presents
#                                      the model as an EFI_PCI_IO_PROTOCOL (efi/pciio_sim.*)
#   igt-tests  checks hosted dom0 dom0/host hw hw/linux hw/sim regs env   (a hosted front-end)
#   bench fuzz tests   every product room (test and benchmark code, not product)
# Exceptions, by file (an include of the named room from that one file only):
#   hw/backend_sim.h -> hw/sim     the adapter from the backend table to the model (architecture.md)
#   hosted/backends.c -> hw/linux the hosted front-ends' list of backends (architecture.md)
#
# Product (file and function size): every room but bench, fuzz and tests, with their
# subdirectories. bench, fuzz and tests are test and benchmark code and are not held to it.
#   a product file over 600 lines; a function over 80 lines, counted from its opening brace at
#   column 0 to its closing brace at column 0, both included.
# Circles: within one room, a header and its .c are one node (x.c and x.h are node x); x -> y
#   when x.c or x.h includes y.h of the same room. One line per strongly connected component of
#   more than one node: the shortest circle through its first node (byte order), at the include
#   that starts it, and when the component is larger than that circle, all of its nodes.
set -u
LC_ALL=C
export LC_ALL

AWK=${AWK:-awk}
ROOMS="env regs hw dom0 checks hosted scenario cli efi igt-tests bench fuzz tests"

check() {
	root=$1
	[ -d "$root" ] || { echo "check-structure: no directory $root" >&2; return 2; }
	(
		cd "$root" || exit 2
		dirs=""
		for d in $ROOMS; do [ -d "$d" ] && dirs="$dirs $d"; done
		[ -n "$dirs" ] || { echo "check-structure: no rooms under $root" >&2; exit 2; }
		# shellcheck disable=SC2086
		find $dirs -type f \( -name '*.c' -o -name '*.h' \) | sort > "$tmp/files"
		[ -s "$tmp/files" ] || { echo "check-structure: no C files under $root" >&2; exit 2; }
		# an empty file gives awk no record, so it also gets the list to count every file
		# shellcheck disable=SC2046
		"$AWK" -v filelist="$tmp/files" -f "$tmp/check.awk" $(cat "$tmp/files") > "$tmp/raw"
	)
	st=$?
	[ "$st" = 0 ] || return 2
	sort "$tmp/raw" > "$tmp/out"
	cat "$tmp/out"
	[ -s "$tmp/out" ] && return 1
	return 0
}

write_awk() {
	cat > "$1" <<'AWK'
function room(p,   n, a) {
	n = split(p, a, "/")
	if (n >= 3 && a[1] == "hw" && (a[2] == "sim" || a[2] == "linux")) return a[1] "/" a[2]
	if (n >= 3 && a[1] == "dom0" && a[2] == "host") return a[1] "/" a[2]
	return a[1]
}
function product(r) {
	return r != "bench" && r != "fuzz" && r != "tests"
}
function node(p) {
	sub(/\.[ch]$/, "", p)
	return p
}
function sortarr(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function tarjan(u,   k, n, list, v, w) {
	index_of[u] = low[u] = ++counter
	stack[++sp] = u
	onstack[u] = 1
	n = split(adj[u], list, " ")
	sortarr(list, n)
	for (k = 1; k <= n; k++) {
		v = list[k]
		if (!(v in index_of)) {
			tarjan(v)
			if (low[v] < low[u]) low[u] = low[v]
		} else if (onstack[v] && index_of[v] < low[u]) {
			low[u] = index_of[v]
		}
	}
	if (low[u] == index_of[u]) {
		nscc++
		do {
			w = stack[sp--]
			onstack[w] = 0
			scc[w] = nscc
			sccsize[nscc]++
		} while (w != u)
	}
}
# the shortest circle through s inside its component, from s's first edge; one line for it
function report_circle(s,   q, head, tail, u, k, n, list, v, prev, seen, path, members, m, i, x) {
	head = 1; tail = 0
	n = split(adj[s], list, " ")
	sortarr(list, n)
	for (k = 1; k <= n; k++)
		if (scc[list[k]] == scc[s] && !(list[k] in seen)) { seen[list[k]] = 1; prev[list[k]] = s; q[++tail] = list[k] }
	while (head <= tail) {
		u = q[head++]
		if (u == s) break
		n = split(adj[u], list, " ")
		sortarr(list, n)
		for (k = 1; k <= n; k++) {
			v = list[k]
			if (scc[v] == scc[s] && !(v in seen)) { seen[v] = 1; prev[v] = u; q[++tail] = v }
		}
	}
	path = s
	for (u = prev[s]; u != s; u = prev[u]) path = u " -> " path
	path = s " -> " path
	m = 0
	for (x in scc) if (scc[x] == scc[s]) members[++m] = x
	sortarr(members, m)
	x = ""
	for (i = 1; i <= m; i++) x = x (i > 1 ? " " : "") members[i]
	split(path, list, " -> ")
	print edgeat[list[1], list[2]] ": include-cycle: circle of includes in " room(s) "/: " path \
		(m > 2 ? " (the circles join " m " nodes: " x ")" : "")
}
BEGIN {
	allowed["env"] = ""
	allowed["regs"] = " env "
	allowed["hw"] = " regs env "
	allowed["hw/sim"] = " regs env "
	allowed["hw/linux"] = " hw regs env "
	allowed["dom0"] = " hw regs env "
	allowed["dom0/host"] = " dom0 hw regs env "
	allowed["checks"] = " dom0 hw regs env "
	allowed["hosted"] = " dom0 hw regs env "
	allowed["scenario"] = " hosted dom0 dom0/host hw regs env "
	allowed["cli"] = " checks scenario hosted dom0 dom0/host hw regs env "
	allowed["efi"] = " checks dom0 hw hw/sim regs env "
	allowed["igt-tests"] = " checks hosted dom0 dom0/host hw hw/linux hw/sim regs env "
	prod = " env regs hw hw/sim hw/linux dom0 dom0/host checks hosted scenario cli efi igt-tests "
	allowed["bench"] = prod; allowed["fuzz"] = prod; allowed["tests"] = prod
	exception["hw/backend_sim.h", "hw/sim"] = 1
	exception["hosted/backends.c", "hw/linux"] = 1
	MAXFILE = 600
	MAXFUNC = 80
	while ((getline f < filelist) > 0) {
		files[++nfiles] = f
		nlines[f] = 0
	}
	close(filelist)
}
FNR == 1 { infunc = 0; lastcall = "" }
{
	f = FILENAME
	nlines[f] = FNR
	r = room(f)
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	t = $0
	sub(/^[^"]*"/, "", t)
	sub(/".*$/, "", t)
	tr = (index(t, "/") ? room(t) : r)
	if (tr != r && index(allowed[r], " " tr " ") == 0 && !((f, tr) in exception)) {
		if (!(r in allowed))
			print f ":" FNR ": layer: " r "/ is no room of the table; it includes " t
		else
			print f ":" FNR ": layer: " r "/ may not include " tr "/ (" t ")"
	}
	if (tr == r && t ~ /\.h$/) {
		u = node(f); v = node(t)
		if (u != v) {
			nodes[u] = 1; nodes[v] = 1
			if (!((u, v) in edgeat)) {
				edgeat[u, v] = f ":" FNR
				adj[u] = adj[u] " " v
			}
		}
	}
}
!infunc && /\(/ { lastcall = $0 }
/^\{/ && !infunc { infunc = 1; fstart = FNR; fname = lastcall }
/^\}/ && infunc {
	infunc = 0
	len = FNR - fstart + 1
	if (product(r) && len > MAXFUNC) {
		name = fname
		sub(/\(.*$/, "", name)
		sub(/^.*[^A-Za-z0-9_]/, "", name)
		print f ":" fstart ": function-length: " name "() is " len " lines (limit " MAXFUNC ")"
	}
}
END {
	for (i = 1; i <= nfiles; i++) {
		f = files[i]
		if (product(room(f)) && nlines[f] > MAXFILE)
			print f ":" MAXFILE + 1 ": file-length: " nlines[f] " lines (limit " MAXFILE ")"
	}
	n = 0
	for (u in nodes) order[++n] = u
	sortarr(order, n)
	sp = 0; counter = 0; nscc = 0
	for (i = 1; i <= n; i++)
		if (!(order[i] in index_of)) tarjan(order[i])
	# each component of more than one node, once, from its first node in byte order
	for (i = 1; i <= n; i++) {
		u = order[i]
		if (sccsize[scc[u]] > 1 && !(scc[u] in done)) { done[scc[u]] = 1; report_circle(u) }
	}
}
AWK
}

# ---- the self-test: a planted tree with one of each violation, and the near misses ----
lines() { # lines N FILE: N lines of filler
	i=0
	while [ "$i" -lt "$1" ]; do echo "/* $i */"; i=$((i + 1)); done > "$2"
}
func_of() { # func_of NAME TOTAL: a function whose braces span TOTAL lines, both included
	echo "int $1(void)"
	echo "{"
	i=2
	while [ "$i" -lt "$2" ]; do echo "	(void)0;"; i=$((i + 1)); done
	echo "}"
}
self_test() {
	p=$tmp/planted
	mkdir -p "$p/env" "$p/regs" "$p/hw/sim" "$p/dom0" "$p/checks" "$p/tests" "$p/bench"
	# a circle in regs/: a.h -> b.h (a.h includes it), b -> a (b.c includes a.h); and c.c -> c.h (no circle)
	printf '#include "regs/b.h"\n' > "$p/regs/a.h"
	printf '/* b */\n' > "$p/regs/b.h"
	printf '#include "regs/a.h"\n#include "env/e.h"\n' > "$p/regs/b.c"
	printf '#include "regs/c.h"\n' > "$p/regs/c.c"
	printf '/* c */\n' > "$p/regs/c.h"
	printf '/* e */\n' > "$p/env/e.h"
	# upward: env/ includes regs/; hw/sim/ includes an hw/ encoder; dom0/ includes checks/
	printf '/* line 1 */\n#include "regs/c.h"\n' > "$p/env/up.c"
	printf '#include "regs/c.h"\n#include "hw/pte.h"\n#include "hw/sim/s.h"\n' > "$p/hw/sim/s.c"
	printf '/* s */\n' > "$p/hw/sim/s.h"
	printf '#include "hw/pte.h"\n' > "$p/hw/pte.c"
	printf '/* pte */\n' > "$p/hw/pte.h"
	printf '#include "checks/check.h"\n#include "hw/pte.h"\n' > "$p/dom0/d.c"
	printf '/* check */\n' > "$p/checks/check.h"
	# sizes: 601 lines (reported) and 600 (not); tests/ is not product
	lines 601 "$p/env/big.c"
	lines 600 "$p/env/fits.c"
	lines 900 "$p/tests/t.c"
	printf '#include "checks/check.h"\n' >> "$p/tests/t.c"
	# functions: 81 lines (reported, its brace on line 5) and 80 (not); bench/ is not product
	{ printf '/* 1 */\n/* 2 */\n/* 3 */\n'; func_of too_long 81; func_of just_fits 80; } > "$p/checks/f.c"
	func_of bench_long 200 > "$p/bench/b.c"
	cat > "$tmp/expected" <<'EOF'
checks/f.c:5: function-length: too_long() is 81 lines (limit 80)
dom0/d.c:1: layer: dom0/ may not include checks/ (checks/check.h)
env/big.c:601: file-length: 601 lines (limit 600)
env/up.c:2: layer: env/ may not include regs/ (regs/c.h)
hw/sim/s.c:2: layer: hw/sim/ may not include hw/ (hw/pte.h)
regs/a.h:1: include-cycle: circle of includes in regs/: regs/a -> regs/b -> regs/a
EOF
	ok=1
	check "$p" > "$tmp/got"
	st=$?
	if [ "$st" != 1 ]; then echo "self-test: the planted tree gave exit $st, not 1"; ok=0; fi
	if ! cmp -s "$tmp/expected" "$tmp/got"; then
		echo "self-test: the planted tree's report differs from the one expected (- expected, + got):"
		diff -u "$tmp/expected" "$tmp/got" | tail -n +3
		ok=0
	fi
	# a clean tree passes with no output
	rm -rf "$p" && mkdir -p "$p/env" && printf '/* e */\n' > "$p/env/e.h"
	check "$p" > "$tmp/got"
	st=$?
	if [ "$st" != 0 ] || [ -s "$tmp/got" ]; then echo "self-test: a clean tree gave exit $st:"; cat "$tmp/got"; ok=0; fi
	# the real tree, copied first (others may edit it meanwhile): the same report twice, and from
	# each awk there is
	mkdir -p "$tmp/snap"
	for d in $ROOMS; do [ -d "$d" ] && cp -R "$d" "$tmp/snap/"; done
	check "$tmp/snap" > "$tmp/real.1"
	check "$tmp/snap" > "$tmp/real.2"
	if ! cmp -s "$tmp/real.1" "$tmp/real.2"; then echo "self-test: two runs on . differ"; ok=0; fi
	for a in mawk gawk; do
		command -v "$a" > /dev/null 2>&1 || continue
		AWK=$a check "$tmp/snap" > "$tmp/real.$a"
		if ! cmp -s "$tmp/real.1" "$tmp/real.$a"; then echo "self-test: $a's report on . differs"; ok=0; fi
	done
	if [ "$ok" = 1 ]; then
		echo "check-structure self-test: planted circle, upward includes, 601-line file and 81-line function reported, near misses not; the report on . is the same from every run ($(wc -l < "$tmp/real.1") lines)"
		return 0
	fi
	return 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-structure.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
write_awk "$tmp/check.awk"

case "${1:-}" in
--self-test) self_test; exit $? ;;
-h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
-*) echo "usage: $0 [--self-test | ROOT]" >&2; exit 2 ;;
esac
check "${1:-.}"
exit $?
