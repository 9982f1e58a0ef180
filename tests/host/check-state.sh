#!/bin/sh
# SPDX-License-Identifier: MIT
# Who may touch the Dom0 runtime's state, checked (issue 42): every part's state is a struct of its
# own (its _types.h), held in struct dom0_runtime or struct vgpu (dom0/state_types.h) by a
# member that names its owners (a plain member may name them too):
#     struct dom0_phys mirror;	/* owner: phys.c phys.h */
#     uint64_t sim_ms;		/* owner: state.c */
#     struct dom0_admission_state adm;	/* owner: admission.c | reader: state.c */
# `reader: *` lets every file read it. A reader may read the member (the lookups beneath a part that its lower neighbours use), never
# assign it, increment it or take its address.
# Only the owning files may write `->mirror` (and reach inside it); every other file goes through
# the owner's functions. One line per access outside the owners, "FILE:LINE: state: what",
# sorted; exit 1 when there is any, 0 when there is none, 2 on misuse. A member's name is unique
# among the members, so `->name` is that member wherever it is written.
#   tests/host/check-state.sh [ROOT]      check the tree at ROOT (default .)
#   tests/host/check-state.sh --self-test plant an access outside the owners (and near misses) in a
#                                    scratch tree and require exactly its line; then the same
#                                    report on . from mawk and gawk, where both exist
set -u -f
LC_ALL=C
export LC_ALL

AWK=${AWK:-awk}
HDR=dom0/state_types.h
# Where owned members are declared: header, the structs (an ERE on the name), and the path from the
# object to the member ('' for the runtime's and a vGPU's own members; 'c.' for their counters, whose
# member in struct vgpu and dom0_runtime says "fields owned: HEADER").
TABLES="dom0/state_types.h:vgpu|dom0_runtime:
dom0/runtime_types.h:dom0_counters:c.
dom0/vgpu_types.h:dom0_vgpu_counters:c."

# owned HEADER STRUCTS PREFIX: one line per member, "PREFIXname owners [| reader: ...]"; or with
# a fourth argument, the names of the members that name no owner
owned() {
	awk -v structs="$2" -v prefix="$3" -v unowned="${4:-}" '
		$0 ~ "^struct (" structs ") \\{" { in_s = 1; next }
		in_s && /^\};/ { in_s = 0 }
		!in_s || !/^[ \t]*[a-z]/ || !/;/ { next }
		{
			decl = $0; sub(/;.*/, "", decl); gsub(/\[[^]]*\]/, "", decl)
			n = split(decl, w, /[ \t*,]+/); name = w[n]
			if (index($0, "fields owned: "))
				next	# its fields name their owners (a table of their own)
			if (index($0, "owner:")) {
				if (unowned) next
				o = $0; sub(/.*owner: /, "", o); sub(/[ \t]*\*\/[ \t]*$/, "", o)
				print prefix name " " o
			} else if (unowned) {
				printf "%s%s ", prefix, name
			}
		}' "$1"
}

check() {
	root=$1
	[ -f "$root/$HDR" ] || { echo "check-state: no $HDR under $root" >&2; return 2; }
	(
		cd "$root" || exit 2
		: > "$tmp/owners"
		echo "$TABLES" | while IFS=: read -r hdr structs prefix; do
			[ -f "$hdr" ] && owned "$hdr" "$structs" "$prefix" | sed "s|^|$hdr |" >> "$tmp/owners"
		done
		[ -s "$tmp/owners" ] || { echo "check-state: $HDR names no owned member" >&2; exit 2; }
		find dom0 -type f \( -name '*.c' -o -name '*.h' \) | sort > "$tmp/files"
		# one pass over every file: each line against each owned member
		# shellcheck disable=SC2046
		"$AWK" -v owners="$tmp/owners" '
			function esc(x) { gsub(/\./, "\\.", x); return x }
			BEGIN {
				while ((getline l < owners) > 0) {
					n++
					split(l, f, " ")
					hdr[n] = f[1]; mem[n] = f[2]
					rest = l; sub(/^[^ ]+ [^ ]+ /, "", rest)
					o = rest; sub(/\|.*/, "", o); gsub(/^ +| +$/, "", o); gsub(/ +/, " ", o); own[n] = o
					r = ""
					if (index(rest, "| reader:")) { r = rest; sub(/.*\| reader:/, "", r); gsub(/^ +| +$/, "", r); gsub(/ +/, " ", r) }
					rd[n] = r
					m = esc(mem[n])
					acc[n] = "->" m "([^a-z_0-9]|$)"
					wr[n] = "((\\+\\+|--)[[:space:]]*|(^|[^&])&[[:space:]]*)[a-z_0-9]+(->|\\.)" m "([^a-z_0-9]|$)|->" m "(\\.[a-z_0-9]+|\\[[^]]*\\])*[[:space:]]*([-+*/%&|^]?=[^=]|\\+\\+|--)"
				}
			}
			FNR == 1 { base = FILENAME; sub(/^dom0\//, "", base) }
			{
				for (i = 1; i <= n; i++) {
					if ($0 !~ acc[i] || index(" " own[i] " ", " " base " "))
						continue
					if (index(" " rd[i] " ", " " base " ") || index(" " rd[i] " ", " * ")) {
						if ($0 ~ /const [^=]*= *&/ || $0 !~ wr[i])
							continue
						printf "%s:%d: state: ->%s is written here, and %s only reads it (%s); its owners %s write it\n", FILENAME, FNR, mem[i], base, hdr[i], own[i]
						continue
					}
					printf "%s:%d: state: ->%s is the state of %s only (%s); reach it through their functions\n", FILENAME, FNR, mem[i], own[i], hdr[i]
				}
			}' $(cat "$tmp/files")
		while read -r hdr member rest; do
			owners=${rest%%|*}
			for f in $owners; do
				[ -f "dom0/$f" ] || echo "$hdr:1: state: ->$member names the owner dom0/$f, which does not exist"
			done
		done < "$tmp/owners"
	) > "$tmp/raw"
	st=$?
	[ "$st" = 0 ] || return 2
	sort "$tmp/raw" > "$tmp/out"
	cat "$tmp/out"
	[ -s "$tmp/out" ] && return 1
	# the members that name no owner yet (shared by every part): said, so the list can only shrink knowingly
	unowned=$(echo "$TABLES" | while IFS=: read -r hdr structs prefix; do
		[ -f "$root/$hdr" ] && owned "$root/$hdr" "$structs" "$prefix" unowned
	done)
	[ -n "${quiet:-}" ] || echo "check-state: $(wc -l < "$tmp/owners") owned members of dom0/'s state, each touched by its owners only; shared by every part: ${unowned:-none}"
	return 0
}

self_test() {
	t=$tmp/tree
	mkdir -p "$t/dom0"
	cat > "$t/$HDR" <<'H'
struct dom0_runtime {
	struct dom0_phys mirror;	/* owner: phys.c phys.h */
	uint64_t clock;		/* owner: state.c */
	struct dom0_admission_state adm;	/* owner: admission.c | reader: state.c */
	unsigned *slot_occ;	/* owner: slots.c | reader: * */
	int shared;
	struct dom0_counters c;
};
H
	: > "$t/dom0/admission.c"
	: > "$t/dom0/slots.c"
	printf 'struct dom0_counters {\n\tuint64_t switches;\t/* switches run; owner: switch.c | reader: * */\n\tuint64_t total;\n};\n' > "$t/dom0/runtime_types.h"
	printf 'int a(struct dom0_runtime *rt)\n{\n\treturn rt->mirror.n;\n}\n' > "$t/dom0/phys.c"
	printf 'static inline int b(struct dom0_runtime *rt) { return rt->mirror.n; }\n' > "$t/dom0/phys.h"
	printf 'int c(struct dom0_runtime *rt)\n{\n\tint k = rt->mirrored + rt->shared;\n\treturn k + rt->mirror.n + (int)rt->clock;\n}\nvoid f(struct dom0_runtime *rt)\n{\n\tif (rt->shared && rt->slot_occ[0])\n\t\trt->slot_occ[1]++;\n}\n' > "$t/dom0/switch.c"
	printf 'void g(struct dom0_runtime *rt)\n{\n\trt->c.total++;\n\tif (rt->c.switches)\n\t\trt->c.switches++;\n}\n' > "$t/dom0/sched.c"
	printf 'uint64_t d(struct dom0_runtime *rt) { return rt->clock + rt->adm.n; }\nvoid e(struct dom0_runtime *rt)\n{\n\trt->adm.n++;\n}\n' > "$t/dom0/state.c"
	{
		printf 'dom0/switch.c:4: state: ->clock is the state of state.c only (%s); reach it through their functions\n' "$HDR"
		printf 'dom0/switch.c:4: state: ->mirror is the state of phys.c phys.h only (%s); reach it through their functions\n' "$HDR"
		printf 'dom0/state.c:4: state: ->adm is written here, and state.c only reads it (%s); its owners admission.c write it\n' "$HDR"
		printf 'dom0/sched.c:5: state: ->c.switches is written here, and sched.c only reads it (dom0/runtime_types.h); its owners switch.c write it\n'
		printf 'dom0/switch.c:9: state: ->slot_occ is written here, and switch.c only reads it (%s); its owners slots.c write it\n' "$HDR"
	} | sort > "$tmp/want"
	quiet=1
	check "$t" > "$tmp/got"
	st=$?
	ok=1
	if [ "$st" != 1 ] || ! cmp -s "$tmp/want" "$tmp/got"; then
		echo "self-test: the planted tree gave exit $st and (- expected, + got):"; diff -u "$tmp/want" "$tmp/got"; ok=0
	fi
	printf 'int c(struct dom0_runtime *rt)\n{\n\treturn rt->mirrored + rt->shared;\n}\n' > "$t/dom0/switch.c"
	printf 'uint64_t d(struct dom0_runtime *rt) { return rt->clock + rt->adm.n; }\n' > "$t/dom0/state.c"
	printf 'int g(struct dom0_runtime *rt)\n{\n\treturn rt->c.switches > 0;\n}\n' > "$t/dom0/sched.c"
	check "$t" > "$tmp/got"
	st=$?
	if [ "$st" != 0 ] || [ -s "$tmp/got" ]; then echo "self-test: a clean tree gave exit $st:"; cat "$tmp/got"; ok=0; fi
	# the same report on this tree from every awk there is
	for a in mawk gawk; do
		command -v "$a" >/dev/null 2>&1 || continue
		AWK=$a check . > "$tmp/real.$a" 2>&1
		[ -f "$tmp/real.first" ] || cp "$tmp/real.$a" "$tmp/real.first"
		if ! cmp -s "$tmp/real.first" "$tmp/real.$a"; then echo "self-test: $a's report on . differs"; ok=0; fi
	done
	quiet=
	[ "$ok" = 1 ] || return 1
	echo "check-state self-test: an access outside the owners reported at its line, a reader that writes reported; near misses (owners, a reader that reads, a longer name, an unowned member) not"
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
case ${1:-.} in
--self-test) self_test; exit $? ;;
-*) echo "usage: $0 [--self-test | ROOT]" >&2; exit 2 ;;
*) check "${1:-.}"; exit $? ;;
esac
