#!/bin/sh
# render.sh: navbake render from the command line: help, usage errors,
# bad inputs named with their place, pictures written atomically (a failed
# render leaves an existing picture as it was and no temporary file).
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
b=$tmp/s.nbk
mkclear --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$b" >/dev/null 2>&1

status navbake render --help; is "--help exits 0" "$rc" 0
like "--help shows usage" "$out" "Usage: navbake render [OPTION]... BUNDLE -o OUT.svg|OUT.png [LAYER]..."
if grep -q '^#define HAVE_PNG 1' "$top_builddir/build-aux/config.h"; then
  like "--help says PNG is there" "$out" "PNG output: yes"
else
  like "--help says PNG is missing" "$out" "PNG output: NO"
fi
status navbake help render; is "navbake help render" "$rc" 0
status navbake render --version; like "--version" "$out" "navbake render (navbake) "

status navbake render; is "no bundle: exit 2" "$rc" 2
like "and says so" "$err" "navbake render: no bundle given"
status navbake render "$b"; is "no -o: exit 2" "$rc" 2
# A FIFO named .svg is written straight into (a new file renamed onto it
# would replace it): what comes out is the same picture as a file's.
if mkfifo "$tmp/pipe.svg" 2>/dev/null; then
  cat "$tmp/pipe.svg" > "$tmp/piped.svg" &
  ok "render into a FIFO" navbake render "$b" -o "$tmp/pipe.svg" terrain
  wait
  navbake render "$b" -o "$tmp/file.svg" terrain
  ok "the same bytes as into a file" cmp "$tmp/piped.svg" "$tmp/file.svg"
  ok "the FIFO is still a FIFO" test -p "$tmp/pipe.svg"
else
  skip "mkfifo failed"; skip "mkfifo failed"; skip "mkfifo failed"
fi
like "and says so" "$err" "no output given"
status navbake render "$b" -o "$tmp/x.gif"; is "unknown extension: exit 2" "$rc" 2
like "named" "$err" "x.gif: cannot tell the format"
status navbake render "$b" -o "$tmp/x" --format jpeg; is "unknown format: exit 2" "$rc" 2
status navbake render "$b" -o "$tmp/x.svg" --scale 0; is "--scale 0: exit 2" "$rc" 2
like "named" "$err" "--scale: '0' is not a number from 0.001 to 64"
status navbake render "$b" -o "$tmp/x.svg" --window 1,2,3; is "--window of three numbers: exit 2" "$rc" 2
status navbake render "$b" -o "$tmp/x.svg" --window 60,0,10,10; is "--window past the map: exit 2" "$rc" 2
like "says the map's size" "$err" "not inside the 64 x 40 map"
status navbake render "$b" -o "$tmp/x.svg" flowers; is "unknown layer: exit 2" "$rc" 2
like "named" "$err" "unknown layer 'flowers'"
status navbake render "$b" -o "$tmp/x.svg" -c lava clearance; is "unknown terrain: exit 2" "$rc" 2
like "named" "$err" "lava"
status navbake render "$b" -o "$tmp/x.svg" -c water clearance; is "no layer for that capability: exit 1" "$rc" 1
like "says which layers there are" "$err" "{ground,swamp}"
status navbake render "$b" -o "$tmp/x.svg" -a nobody; is "unknown agent: exit 1" "$rc" 1
like "named" "$err" "no agent 'nobody' (the agents are scout"
status navbake render "$tmp/none.nbk" -o "$tmp/x.svg"; is "missing bundle: exit 1" "$rc" 1
[ -e "$tmp/x.svg" ]; is "no picture left behind" "$?" 1

# Paths: bad files are named with their line.
printf '1 1\n2 x\n' > "$tmp/bad.txt"
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/bad.txt"; is "bad cell list: exit 1" "$rc" 1
like "names file and line" "$err" "bad.txt:2: expected a cell"
printf '{"path": [[1, 1], [2, 2]' > "$tmp/bad.json"
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/bad.json"; is "truncated JSON: exit 1" "$rc" 1
like "names file, line and column" "$err" "bad.json:1:25: expected ',' or ']'"
printf '{"path": [[1, 1], [2, -2]]}' > "$tmp/neg.json"
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/neg.json"; is "negative cell: exit 1" "$rc" 1
like "names where" "$err" "neg.json:1:19: expected a cell"
printf '1 1\n100 2\n' > "$tmp/far.txt"
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/far.txt"; is "cell off the map: exit 1" "$rc" 1
like "names the cell" "$err" "cell 2 (100, 2) is outside the 64 x 40 map"
status navbake render - -o "$tmp/x.svg" --path - < "$b"; is "bundle and path both on stdin: exit 2" "$rc" 2
printf '# nothing\n' > "$tmp/empty.txt"
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/empty.txt"; is "no path: exit 1" "$rc" 1
like "says so" "$err" "no path in it"
printf '1 1\n2 2\n\n5 5\n6 6\n' > "$tmp/two.txt"
ok "two paths in one list" navbake render "$b" -o "$tmp/two.svg" --path "$tmp/two.txt"
like "each in the legend" "$(cat "$tmp/two.svg")" "two.txt #2: 2 cells"
ok "a layer twice" navbake render "$b" -o "$tmp/twice.svg" clearance terrain clearance
like "keeps ids unique" "$(cat "$tmp/twice.svg")" 'id="clearance-2"'
ok "the bundle from standard input" sh -c "navbake render - -o '$tmp/in.svg' < '$b'"

# Forests: a path of cells over a forest, a forest path over a grid map.
mkabstract --forest "$data/forest.yaml" --agent-radius 0,1 -o "$tmp/f.nbk" >/dev/null 2>&1
ok "a forest bundle draws" navbake render "$tmp/f.nbk" -o "$tmp/f.svg" forest bitangent
like "its legend counts the graph" "$(cat "$tmp/f.svg")" "bitangents"
status navbake render "$tmp/f.nbk" -o "$tmp/x.svg" --path "$tmp/two.txt"
is "cells over a forest: exit 1" "$rc" 1
like "says why" "$err" "a path of cells cannot be drawn over a forest"
navbake query --forest "$tmp/f.nbk" --from 1,1 --to 99,59 --json > "$tmp/fq.json" 2>/dev/null
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/fq.json"
is "a forest path over a grid map: exit 1" "$rc" 1
like "says why" "$err" "cannot be drawn over a grid map"
status navbake render "$tmp/f.nbk" -o "$tmp/x.svg" terrain
is "a grid layer of a bundle without a map: exit 1" "$rc" 1
like "points at the forest" "$err" "it holds a forest"
status navbake render "$tmp/f.nbk" -o "$tmp/x.svg" -r 0.25 bitangent
like "a radius not baked: the baked ones named" "$err" "(baked: 0, 1)"

# Units: their tables are a frame of their own.
mkhitcheck -q -u "$data/units/jeep.yaml" -o "$b" >/dev/null 2>&1
ok "a hit-check table draws" navbake render "$b" -o "$tmp/hc.svg" --heading 2 hitcheck curves
like "its legend names the unit and heading" "$(cat "$tmp/hc.svg")" "hit-check table of jeep"
status navbake render "$b" -o "$tmp/x.svg" hitcheck terrain
is "unit and map layers together: exit 2" "$rc" 2
like "says why" "$err" "map, forest and unit layers cannot be drawn together"
status navbake render "$b" -o "$tmp/x.svg" --window 0,0,5,5 hitcheck
is "--window on a hit-check table: exit 2" "$rc" 2
status navbake render "$b" -o "$tmp/x.svg" --path "$tmp/two.txt" hitcheck
is "a path over a hit-check table: exit 2" "$rc" 2
status navbake render "$tmp/f.nbk" -o "$tmp/x.svg" hitcheck
is "no unit: exit 1" "$rc" 1
like "says so" "$err" "no unit to draw"

# Atomic writes: a failing render keeps the old picture.
ok "a picture" navbake render "$b" -o "$tmp/keep.svg"
cp "$tmp/keep.svg" "$tmp/keep.orig"
status navbake render "$b" -o "$tmp/keep.svg" -c water clearance
ok "a failed render leaves it as it was" cmp "$tmp/keep.svg" "$tmp/keep.orig"
is "and no temporary file" "$(ls "$tmp" | grep -c tmp)" 0
status navbake render "$b" -o - --format svg
like "standard output" "$out" "<svg xmlns"
ok "the same bundle gives the same picture" sh -c \
  "navbake render '$b' -o '$tmp/a.svg' clearance components && navbake render '$b' -o '$tmp/b.svg' clearance components && cmp '$tmp/a.svg' '$tmp/b.svg'"
if command -v xmllint >/dev/null 2>&1; then
  ok "xmllint finds every layer well-formed" xmllint --noout "$tmp/a.svg" "$tmp/two.svg"
else
  skip "xmllint is not installed"
fi
finish
