#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/host/check-calls.sh OBJECT...: the structure of the tree's calls (issue 42), as tests/host/check-structure.sh
# checks its includes: from the built objects, file A calls file B when A's object uses a function or object
# B's defines (nm: undefined in A, defined in B). One line per violation, sorted, "A -> B: RULE: what";
# exit 1 when there is any, 0 when there is none.
#   - layer: a call from a room to a room the layer table of check-structure.sh does not let it include
#     (the same table, read from that script, so the two cannot drift);
#   - call-cycle: files that call each other round a circle, anywhere in the tree (one line per strongly
#     connected component of more than one file: its members).
# An object is named by its source: build/DIR/x.o (and build/efi/obj/DIR/x.o, build/faults/DIR/x.o) is DIR/x.c.
# Give one program's objects at a time (the hosted build's, or the EFI application's): a symbol is resolved
# to the first object that defines it. Calls into hw/sim/ are allowed wherever hw/ is: the model is one of
# hw/'s backends, reached through its adapter.
#   tests/host/check-calls.sh --self-test   plant objects with a circle and an upward call; require exactly those lines
set -u
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the layer table, from check-structure.sh's awk: allowed["room"] = " rooms "
sed -n 's/^[[:space:]]*allowed\["\([a-z0-9/-]*\)"\] = "\([a-z0-9/ -]*\)"$/\1|\2/p' "$here/check-structure.sh" > "$tmp/allowed"
[ -s "$tmp/allowed" ] || { echo "check-calls: no layer table read from check-structure.sh" >&2; exit 2; }

calls() {
	: > "$tmp/syms"
	for o in "$@"; do
		src=$(echo "$o" | sed -e 's|^.*build/efi/obj/||' -e 's|^.*build/faults/||' -e 's|^.*build/||' -e 's|\.o$|.c|')
		# the C runtime's symbols (memcpy, the stack protector's) are no file's: the EFI build defines them in efi/
		nm "$o" 2>/dev/null | awk -v src="$src" '
			$NF ~ /^(__wrap_)?mem(cpy|set|move|cmp)$|^__stack_chk_(fail|guard)$/ { next }
			NF == 3 && $2 ~ /^[TDBR]$/ { print "def", src, $3 }
			NF == 2 && $1 == "U" { print "use", src, $2 }' >> "$tmp/syms"
	done
	awk -v allowedfile="$tmp/allowed" '
	function room(p,   n, a) {
		n = split(p, a, "/")
		if (n >= 3 && a[1] == "hw" && (a[2] == "sim" || a[2] == "linux")) return a[1] "/" a[2]
		if (n >= 3 && a[1] == "dom0" && a[2] == "host") return a[1] "/" a[2]
		return a[1]
	}
	function tarjan(u,   k, n, list, v, w) {
		index_of[u] = low[u] = ++counter
		stack[++sp] = u
		onstack[u] = 1
		n = split(adj[u], list, " ")
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
			members = ""
			m = 0
			do {
				w = stack[sp--]
				onstack[w] = 0
				list2[++m] = w
			} while (w != u)
			if (m > 1) {
				# sorted, one line
				for (i = 2; i <= m; i++) { t = list2[i]; for (j = i - 1; j >= 1 && list2[j] > t; j--) list2[j + 1] = list2[j]; list2[j + 1] = t }
				for (i = 1; i <= m; i++) members = members (i > 1 ? " " : "") list2[i]
				print list2[1] " -> " list2[2] ": call-cycle: " m " files call each other round a circle: " members
			}
		}
	}
	BEGIN {
		while ((getline l < allowedfile) > 0) {
			split(l, kv, "|")
			allowed[kv[1]] = kv[2]
		}
		prod = " env regs hw hw/sim hw/linux dom0 dom0/host checks hosted scenario cli efi igt-tests "
		allowed["bench"] = prod; allowed["fuzz"] = prod; allowed["tests"] = prod
		# the adapters the include table excepts (check-structure.sh), by file
		exception["hw/backend_sim.c", "hw/sim"] = 1
		exception["hosted/backends.c", "hw/linux"] = 1
	}
	$1 == "def" { if (!($3 in def)) def[$3] = $2; next }
	$1 == "use" { uses[++nu] = $2 SUBSEP $3 }
	END {
		for (i = 1; i <= nu; i++) {
			split(uses[i], x, SUBSEP)
			from = x[1]; s = x[2]
			if (!(s in def)) continue
			to = def[s]
			if (from == to || (from, to) in edge) { if (from != to) names[from, to] = names[from, to] " " s; continue }
			edge[from, to] = 1
			names[from, to] = s
			adj[from] = adj[from] " " to
			nodes[from] = 1; nodes[to] = 1
		}
		for (e in edge) {
			split(e, x, SUBSEP)
			ra = room(x[1]); rb = room(x[2])
			# the model is a backend of hw/: who may call hw/ may call it (its adapter, hw/backend_sim.h, is
			# what they include); it calls nothing above regs/ and env/ itself
			if (rb == "hw/sim" && index(allowed[ra], " hw ")) continue
			if (ra != rb && index(allowed[ra], " " rb " ") == 0 && !((x[1], rb) in exception))
				print x[1] " -> " x[2] ": layer: " ra "/ may not call " rb "/ (" names[e] ")"
		}
		n = 0
		for (u in nodes) order[++n] = u
		for (i = 2; i <= n; i++) { t = order[i]; for (j = i - 1; j >= 1 && order[j] > t; j--) order[j + 1] = order[j]; order[j + 1] = t }
		for (i = 1; i <= n; i++) if (!(order[i] in index_of)) tarjan(order[i])
	}' "$tmp/syms" > "$tmp/calls" || { echo "check-calls: the analysis failed" >&2; exit 2; }
	sort "$tmp/calls"
}

if [ "${1:-}" = --self-test ]; then
	p=$tmp/planted
	mkdir -p "$p/build/dom0" "$p/build/checks"
	printf 'int a_calls_b(void); int b_calls_a(void);\nint a_calls_b(void) { return b_calls_a(); }\n' > "$p/a.c"
	printf 'int a_calls_b(void); int b_calls_a(void);\nint b_calls_a(void) { return a_calls_b(); }\n' > "$p/b.c"
	printf 'int check_fn(void);\nint up(void) { return check_fn(); }\n' > "$p/u.c"
	printf 'int check_fn(void) { return 1; }\n' > "$p/c.c"
	printf 'int lonely(void) { return 0; }\n' > "$p/l.c"
	cc -c "$p/a.c" -o "$p/build/dom0/a.o" && cc -c "$p/b.c" -o "$p/build/dom0/b.o" &&
		cc -c "$p/u.c" -o "$p/build/dom0/u.o" && cc -c "$p/c.c" -o "$p/build/checks/c.o" &&
		cc -c "$p/l.c" -o "$p/build/dom0/l.o" || exit 2
	got=$(calls "$p/build/dom0/a.o" "$p/build/dom0/b.o" "$p/build/dom0/u.o" "$p/build/checks/c.o" "$p/build/dom0/l.o")
	want="dom0/a.c -> dom0/b.c: call-cycle: 2 files call each other round a circle: dom0/a.c dom0/b.c
dom0/u.c -> checks/c.c: layer: dom0/ may not call checks/ (check_fn)"
	if [ "$got" != "$want" ]; then
		printf 'check-calls self-test: the planted objects gave:\n%s\nnot:\n%s\n' "$got" "$want"
		exit 1
	fi
	echo "check-calls self-test: a planted circle of calls and an upward call reported, a lone file not"
	exit 0
fi
[ $# -gt 0 ] || { echo "usage: tests/host/check-calls.sh OBJECT... | --self-test" >&2; exit 2; }
calls "$@" > "$tmp/out" || exit 2
cat "$tmp/out"
[ -s "$tmp/out" ] && exit 1
echo "check-calls: $# objects: every call runs down the layers, and no files call each other round a circle"
exit 0
