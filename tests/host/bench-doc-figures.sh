#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/host/bench-doc-figures.sh [--self-test] [DOC REPORT]: no figure in docs/bench.md that `make bench` did not write
# (issue 45). docs/bench.md explains; docs/bench-results.md, the generated report, holds every figure. A figure is a
# number with a decimal point, or a number with a unit of time, a percentage or a factor (`12 ms`, `0.38%`, `7.9x`,
# `1,024 us`); a section, figure or table of a paper (`§4.3`, `Figure 8`, `Table 2`) is a reference, not a figure. Each
# figure of DOC must appear, written the same way (spaces and thousands' commas aside), in REPORT.
set -u
check() {
	python3 - "$1" "$2" <<'PY'
import re, sys
doc, rep = open(sys.argv[1]).read(), open(sys.argv[2]).read()
norm = lambda t: re.sub(r'[\s,]', '', t)
# a figure: decimal number, or number + unit; not preceded by a reference word or sign
fig = re.compile(r'(?<![\w.§/-])(\d[\d,]*(?:\.\d+)?)(\s?(?:%|x(?![\w])|ns\b|us\b|µs\b|ms\b|s\b))?')
refs = re.compile(r'(?:§|Figures?\s|Fig\.\s|Tables?\s|issue\s|Algorithm\s|eq\.\s|gen|P)$')
have = norm(rep)
bad = []
for n, line in enumerate(doc.split('\n'), 1):
    for m in fig.finditer(line):
        num, unit = m.group(1), m.group(2) or ''
        if not unit and '.' not in num:
            continue
        if refs.search(line[:m.start()]):
            continue
        tok = norm(num + unit)
        if tok not in have:
            bad.append("%s:%d: '%s' is not in %s" % (sys.argv[1], n, (num + unit).strip(), sys.argv[2]))
for b in bad:
    print("bench-doc-figures: " + b)
sys.exit(1 if bad else 0)
PY
}
if [ "${1:-}" = --self-test ]; then
	t=$(mktemp -d /tmp/gttlab-figures.XXXXXX)
	trap 'rm -rf "$t"' EXIT
	printf 'p2 0.141 ran 22.6 us, 6.2x, 1,024 ms\n' > "$t/report"
	printf 'The switch takes 22.6 us (gBalloon §4.3, Figure 8, Table 2), 6.2x; 1024 ms.\n' > "$t/good"
	printf 'The switch takes 22.6 us and once took 0.38%%.\n' > "$t/bad"
	check "$t/good" "$t/report" > "$t/out" || { cat "$t/out"; echo "bench-doc-figures self-test: a page whose figures are all in the report failed"; exit 1; }
	check "$t/bad" "$t/report" > "$t/out" && { echo "bench-doc-figures self-test: a figure not in the report passed"; exit 1; }
	grep -q "'0.38%' is not in" "$t/out" || { cat "$t/out"; echo "bench-doc-figures self-test: the stale figure is not named"; exit 1; }
	echo "bench-doc-figures self-test: a figure the report does not hold is named, references and the report's figures are not"
	exit 0
fi
doc=${1:-docs/bench.md}
rep=${2:-docs/bench-results.md}
if ! check "$doc" "$rep"; then
	echo "bench-doc-figures: $doc quotes figures the generated report does not hold: say what they mean, and let make bench write them"
	exit 1
fi
echo "bench-doc-figures: every figure in $doc is one of $rep's"
