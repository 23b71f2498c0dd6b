#!/bin/sh
# forest.sh: round obstacles from the command line: mkabstract --forest
# (usage, bad input, atomic writes, a forest beside a grid map, what
# navbake info says), navbake query --forest (baked, deferred, from a
# YAML file, errors, JSON, sampling) against a length worked out here with
# awk, and navbake dump of a forest back to YAML.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
forest=$data/forest.yaml

# mkabstract: help, version, usage errors.
status mkabstract --help; is "mkabstract --help exits 0" "$rc" 0
like "and lists --forest among its options" "$out" "
  -f, --forest FILE     bake the bitangent graphs"
like "and --agent-radius" "$out" "
  -r, --agent-radius R  with --forest, an agent radius"
like "with the forest mode's usage" "$out" "mkabstract --forest FOREST.yaml --agent-radius R"
status mkabstract --forest x --help; is "mkabstract --forest --help exits 0" "$rc" 0
like "and describes the forest mode" "$out" "--agent-radius R"
status mkabstract --version; like "mkabstract --version" "$out" "mkabstract (navbake) "
status mkabstract "$tmp/x.nbk"; is "the grid mode on a missing bundle: exit 1" "$rc" 1
like "it names the bundle" "$err" "x.nbk"
status mkabstract --forest "$forest" -o "$tmp/f.nbk"; is "no --agent-radius: exit 2" "$rc" 2
like "said so" "$err" "no --agent-radius given"
status mkabstract --forest "$forest" -r -1 -o "$tmp/f.nbk"; is "a negative agent radius: exit 2" "$rc" 2
like "named" "$err" "--agent-radius: '-1' is not a number from 0 to"
status mkabstract --forest "$forest" -r nan -o "$tmp/f.nbk"; is "a NaN agent radius: exit 2" "$rc" 2
status mkabstract --forest "$forest" -r 1,1 -o "$tmp/f.nbk"; is "a radius twice: exit 2" "$rc" 2
status mkabstract --forest "$forest" -r 1; is "no output: exit 2" "$rc" 2
status mkabstract --forest "$forest" -r 1 --bogus -o "$tmp/f.nbk"; is "an unknown option: exit 2" "$rc" 2
ok "no bundle was left by usage errors" test ! -e "$tmp/f.nbk"

# Bad forests: exit 1, a located message, nothing written.
printf 'circles:\n  - [1, 2, 3]\n  - [4, 5, 0]\n' > "$tmp/zero.yaml"
status mkabstract --forest "$tmp/zero.yaml" -r 0 -o "$tmp/f.nbk"; is "a zero radius: exit 1" "$rc" 1
like "file, line, column and what" "$err" "zero.yaml:3:12: circle 2: the radius must be greater than 0"
printf 'circles:\n  - [1, .nan, 3]\n' > "$tmp/nan.yaml"
status mkabstract --forest "$tmp/nan.yaml" -r 0 -o "$tmp/f.nbk"; is "NaN: exit 1" "$rc" 1
like "named" "$err" "nan.yaml:2:9: circle 1: y: expected a finite number, found '.nan'"
status mkabstract --forest "$tmp/none.yaml" -r 0 -o "$tmp/f.nbk"; is "a missing forest: exit 1" "$rc" 1
ok "and no bundle" test ! -e "$tmp/f.nbk"

# A bake.
ok "the sample forest bakes for radii 0 and 1" mkabstract --forest "$forest" -r 0,1 -o "$tmp/f.nbk"
status navbake info "$tmp/f.nbk"; is "navbake info on it" "$rc" 0
like "a forest of 19 circles" "$out" "forest      1   raw"
like "its circles counted" "$out" "circles=19"
like "a graph per radius, with how many edges survive" "$out" "radius_index=1 nodes="
like "and the radius it was baked for" "$out" "(agent radius 1: "
ok "navbake verify checks it" navbake verify "$tmp/f.nbk"
status mkabstract --forest "$forest" -r 0,1 -v -o "$tmp/f.nbk"; like "-v says what each graph holds" "$err" "bitangents kept"
# Baking again replaces: the same bytes, and a failed bake leaves it intact.
cp "$tmp/f.nbk" "$tmp/keep.nbk"
status mkabstract --forest "$tmp/zero.yaml" -r 0 -o "$tmp/f.nbk"
ok "a failed bake leaves the bundle as it was" cmp "$tmp/f.nbk" "$tmp/keep.nbk"
ok "and no temporary file" sh -c "! ls '$tmp'/f.nbk.tmp* 2>/dev/null"
ok "baking again gives the same bytes" mkabstract --forest "$forest" -r 0,1 -o "$tmp/f.nbk"
ok "byte for byte" cmp "$tmp/f.nbk" "$tmp/keep.nbk"
ok "-z stores zlib sections" mkabstract -z --forest "$forest" -r 0,1 -o "$tmp/z.nbk"
status navbake info "$tmp/z.nbk"; like "zlib+raw" "$out" "bitangent   1   zlib+raw"

ok "a forest from standard input, the bundle to standard output" sh -c \
  "mkabstract --forest - -r 0,1 -o - < '$forest' > '$tmp/stdout.nbk'"
ok "the same bytes" cmp "$tmp/stdout.nbk" "$tmp/keep.nbk"

# Beside a grid map: both kept.
ok "a map bundle" nbtest-bundle --agents "$data/sample-agents.yaml" "$data/sample.map" "$tmp/m.nbk"
ok "a forest added to it" mkabstract --forest "$forest" -r 0.5 -o "$tmp/m.nbk"
status navbake info "$tmp/m.nbk"
like "the map is still there" "$out" "map        64 x 40 cells"
like "beside the forest" "$out" "circles=19"
navbake dump "$tmp/m.nbk" map > "$tmp/back.map"
ok "and the map is untouched" cmp "$data/sample.map" "$tmp/back.map"
ok "IN and -o OUT: read one, write another" mkabstract --forest "$forest" -r 2 "$tmp/m.nbk" -o "$tmp/m2.nbk"
status navbake info "$tmp/m2.nbk"; like "the new one has the map" "$out" "map        64 x 40"
like "and one graph, for radius 2" "$out" "(agent radius 2:"

# dump: the forest back as YAML that bakes the same bundle.
navbake dump "$tmp/f.nbk" forest > "$tmp/back.yaml"
ok "the dumped forest bakes the same bundle" mkabstract --forest "$tmp/back.yaml" -r 0,1 -o "$tmp/b.nbk"
ok "byte for byte" cmp "$tmp/f.nbk" "$tmp/b.nbk"

# navbake query --forest.  Round one circle of radius 3 (2.5 + agent 0.5)
# from (-10, 0) to (10, 0): 2 sqrt(100 - 9) + 3 (pi - 2 acos(0.3)).
printf 'circles:\n  - [0, 0, 2.5]\n' > "$tmp/one.yaml"
mkabstract --forest "$tmp/one.yaml" -r 0.5 -o "$tmp/one.nbk"
want=$(awk 'BEGIN { r = 3; d = 10; a = atan2(sqrt(1 - 0.09), 0.3);
  printf "%.9f", 2 * sqrt(d * d - r * r) + r * (3.14159265358979 - 2 * a) }')
status navbake query --forest -q "$tmp/one.nbk" --from -10,0 --to 10,0
is "baked: the length worked out by hand" "$out" "$want"
status navbake query --forest -q --deferred "$tmp/one.nbk" --from -10,0 --to 10,0
is "deferred: the same" "$out" "$want"
status navbake query --forest -q -r 0.5 "$tmp/one.yaml" --from -10,0 --to 10,0
is "from the YAML file, never baked: the same" "$out" "$want"
status navbake query --forest -q --plain --no-prune "$tmp/one.nbk" --from -10,0 --to 10,0
is "the article's plain scheme, no pruning: the same" "$out" "$want"
status navbake query --forest "$tmp/one.nbk" --from -10,0 --to 10,0
like "the text output says the search" "$out" "search     baked graph 0 (agent radius 0.5)"
like "and lists the segments" "$out" "  arc   "
like "with the expansions" "$out" "expanded   "
status navbake query --forest --deferred "$tmp/one.nbk" --from -10,0 --to 10,0
like "deferred says how many circles it opened" "$out" "deferred (agent radius 0.5): 1 circles opened"
status navbake query --forest -S 1 "$tmp/one.nbk" --from -10,0 --to 10,0
like "--sample lists positions" "$out" "samples    every 1: distance x y heading"
is "one a unit, and the end" "$(printf '%s\n' "$out" | sed -n '/^samples/,$p' | wc -l)" \
  "$(awk -v L="$want" 'BEGIN { n = int(L); if (n < L) n++; print n + 2 }')"
status navbake query --forest --json -S 2 "$tmp/one.nbk" --from -10,0 --to 10,0
is "--json exits 0" "$rc" 0
if command -v python3 >/dev/null 2>&1; then
  printf '%s\n' "$out" > "$tmp/q.json"
  ok "--json is JSON: three segments, an arc in the middle, samples" python3 -c "
import json, math, sys
d = json.load(open('$tmp/q.json'))
assert abs(d['length'] - $want) < 1e-8 and d['search'] == 'baked'
g = d['segments']
assert [p['kind'] for p in g] == ['line', 'arc', 'line']
assert g[1]['radius'] == 3 and len(d['samples']) == 12
# Each segment starts where the one before ends; the arc turns the way its
# sweep says and its length is radius * |sweep|; the last ends at the goal.
for a, b in zip(g, g[1:]):
    assert math.dist(a['to'], b['from']) < 1e-9
a = g[1]
assert a['turn'] == (1 if a['sweep'] > 0 else -1)
assert abs(a['length'] - 3 * abs(a['sweep'])) < 1e-12
assert math.dist(g[0]['from'], [-10, 0]) < 1e-12 and math.dist(g[2]['to'], [10, 0]) < 1e-9
"
else
  skip "python3 absent: JSON not parsed"
fi
status navbake query --forest "$tmp/one.nbk" --from 1,1 --to 10,0
is "a start inside the inflated circle: exit 3" "$rc" 3
like "said plainly" "$err" "the start (1, 1) is inside circle 0 (centre (0, 0), radius 2.5, 3 with the agent radius 0.5)"
status navbake query --forest "$tmp/one.nbk" --from -10,0 --to 10,0 --baked -r 1
is "--baked for a radius not baked: exit 1" "$rc" 1
like "said so" "$err" "no graph baked for the agent radius 1"
status navbake query --forest -q "$tmp/one.nbk" --from -10,0 --to 10,0 -r 1
ok "without --baked, another radius is searched deferred" test "$rc" = 0
status navbake query --forest "$tmp/one.nbk" --from -10,0 --to 10,0 -i 3
is "a radius index not baked: exit 1" "$rc" 1
status navbake query --forest "$tmp/one.nbk" --from -10,0
is "no --to: exit 2" "$rc" 2
status navbake query --forest "$tmp/one.nbk" --from -10 --to 10,0
is "a point that is not X,Y: exit 2" "$rc" 2
like "named" "$err" "--from: '-10' is not a point X,Y"
status navbake query --forest "$tmp/one.nbk" --from nan,0 --to 10,0
is "a NaN point: exit 2" "$rc" 2
status navbake query --forest "$tmp/m.nbk" --from 50,30 --to 1,1 -q
ok "a bundle with a map and a forest is queried" test "$rc" = 0
status navbake query --forest "$tmp/none.nbk" --from 0,0 --to 1,1
is "a missing bundle: exit 1" "$rc" 1
nbtest-bundle "$data/sample.map" "$tmp/map-only.nbk"
status navbake query --forest "$tmp/map-only.nbk" --from 0,0 --to 1,1
is "a bundle without a forest: exit 1" "$rc" 1
like "said so" "$err" "the bundle has no forest"
status navbake query --from 0,0 --to 1,1 "$tmp/map-only.nbk"
like "navbake query without --forest is a grid query, which needs clearance" "$err" "no clearance layer"
# A goal in the sample's closed ring of stones with agent radius 1.5: no path.
status navbake query --forest "$tmp/f.nbk" -r 1.5 --from 5,5 --to 85,40
is "a goal walled in: exit 3" "$rc" 3
like "no path, said so" "$err" "no path from (5, 5) to (85, 40)"
# The sample's boulders touch at (59.2, 53.6): the straight line along
# their common tangent (16 long) would squeeze through; the path goes round.
status navbake query --forest -q "$tmp/f.nbk" -r 0 --from 52.8,58.4 --to 65.6,48.8
ok "no path through the point where two circles touch ($out > 16)" \
  awk -v l="$out" 'BEGIN { exit !(l > 16.001) }'
status navbake query --forest "$tmp/f.nbk" --from 5,5 --to 101,40
is "a goal outside the bounds: exit 1" "$rc" 1
like "said so" "$err" "outside the forest's bounds"
finish
