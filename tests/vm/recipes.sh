#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/vm/recipes.sh [WORKDIR]: docs/adding.md's recipes, followed as written (issue 42). In a scratch copy of the
# tree (the files git tracks, as they are now), every `<!-- recipe: ACTION -->` of docs/adding.md is carried out,
# in order, with the code block under it exactly as the page shows it; then the copy is built and its unit
# suite run, and its docs' tables checked. A recipe that leaves a file out fails here, not in a newcomer's hands.
# Actions:
#   insert FILE before REGEX        the block goes before the first line matching REGEX
#   insert FILE before-last REGEX   ... before the last line matching REGEX
#   append FILE                     ... at FILE's end
#   replace FILE REGEX              the first text matching REGEX (within a line) becomes the block
#   run COMMAND                     COMMAND runs at the top of the copy
# Each action that matches nothing fails the run, naming it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$top/build/recipes}
rm -rf "$work" && mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd) || exit 2
(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$work" || { echo "recipes: cannot copy the tree"; exit 2; }
# The plain build's objects come along with their times (as the sources' do), so make rebuilds only what the
# recipes change and what depends on it: a file a recipe leaves out still fails to link or to pass, as before.
# Without a build here (the script run on its own), the copy is built whole.
if [ -d "$top/build/tests" ]; then
	tar -C "$top" --exclude=./build/asan --exclude=./build/fuzz --exclude='./build/qemu*' --exclude='./build/lava*' \
		--exclude=./build/recipes --exclude=./build/deb --exclude=./build/tsan \
		--exclude=./build/bench --exclude=./build/vms --exclude=./build/shim -cf - ./build | tar -xf - -C "$work" || { echo "recipes: cannot copy the build"; exit 2; }
fi
# the copy has no .git: it says the version it was copied at, as a source tarball does
git -C "$top" describe --tags --always --dirty > "$work/VERSION" 2>/dev/null || { echo "recipes: $top is no git checkout"; exit 2; }
cd "$work" || exit 2

python3 - docs/adding.md <<'EOF' || exit 1
import re, subprocess, sys
doc = open(sys.argv[1]).read()
# A step is a line of its own: a mention of the marker inside a sentence is not one.
steps = re.findall(r'^<!-- recipe: ([^\n]*?) -->\n(?:\n?```[a-z]*\n(.*?)```\n)?', doc, re.S | re.M)
if len(steps) < 6:
    sys.exit("recipes: docs/adding.md holds %d recipe steps; the two recipes have more" % len(steps))
for n, (action, block) in enumerate(steps, 1):
    words = action.split(' ', 1)
    what = words[0]
    def fail(why):
        sys.exit("recipes: step %d (%s): %s" % (n, action, why))
    if what == 'run':
        if subprocess.call(words[1], shell=True) != 0:
            fail("the command failed")
        print("recipes: step %d: ran %s" % (n, words[1]))
        continue
    parts = words[1].split(' ', 1)
    path, rest = parts[0], parts[1] if len(parts) > 1 else ''
    try:
        text = open(path).read()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e))
    if what == 'append':
        text = text.rstrip('\n') + '\n\n' + block
    elif what == 'insert':
        where, regex = rest.split(' ', 1)
        lines = text.split('\n')
        hits = [i for i, l in enumerate(lines) if re.search(regex, l)]
        if not hits:
            fail("no line of %s matches %s" % (path, regex))
        at = hits[-1] if where == 'before-last' else hits[0]
        lines[at:at] = block.rstrip('\n').split('\n')
        text = '\n'.join(lines)
    elif what == 'replace':
        m = re.search(rest, text, re.M)
        if not m:
            fail("nothing in %s matches %s" % (path, rest))
        text = text[:m.start()] + block.rstrip('\n') + text[m.end():]
    else:
        fail("no such action")
    open(path, 'w').write(text)
    print("recipes: step %d: %s %s" % (n, what, path))
EOF

log=$work/build.log
echo "recipes: the copy with both recipes applied: building it"
if ! make -j2 all > "$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20
	echo "recipes: the copy does not build after the recipes (log: $log)"
	exit 1
fi
if ! ./build/tests/unit --jobs 2 > "$work/unit.log" 2>&1; then
	grep -E 'FAIL|Assertion' "$work/unit.log" | head -20
	echo "recipes: the unit suite fails after the recipes (log: $work/unit.log)"
	exit 1
fi
tests/host/doc-tables.sh build/gttlab > "$work/docs.log" 2>&1 || { cat "$work/docs.log"; echo "recipes: the docs' tables are stale after the recipes"; exit 1; }
grep -q 'ggtt-pte-clear' <(./build/gttlab check --list) || { echo "recipes: the recipe's check is not in the table"; exit 1; }
./build/gttlab info --device sim:cml > /dev/null 2>&1 || { echo "recipes: the recipe's model sim:cml does not open"; exit 1; }
echo "recipes: both recipes of docs/adding.md, followed as written: the copy builds, its $(grep -o 'Tested: [0-9]*' "$work/unit.log") unit tests pass, ggtt-pte-clear is a check and sim:cml a model"
