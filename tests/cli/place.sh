#!/bin/sh
# place.sh: navbake nearest, line and random on the sample level.  nearest
# against a brute force in awk over the layers navbake dump prints (every
# cell read, ties to the least row, then column); line on segments worked
# out by hand from the map; random against the component layer (every cell
# drawn is standable and in the start's component), reproducible from its
# seed, the same from the SQLite form; with --block and --open, the
# answers of the level baked with those cells as walls; help, JSON and
# exit statuses.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
b=$tmp/s.nbk
ok "the sample level is baked" mkclear -q --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$b"

for c in nearest line random; do
  status navbake $c --help
  is "navbake $c --help: exit 0" "$rc" 0
  like "... and says how it is used" "$out" "Usage: navbake $c"
  status navbake $c --version
  like "navbake $c --version" "$out" "navbake $c (navbake)"
  status navbake $c
  is "navbake $c with no bundle: a usage error (exit 2)" "$rc" 2
  status navbake $c --bogus "$b"
  is "navbake $c --bogus: a usage error" "$rc" 2
done
status navbake --help
like "navbake --help lists nearest" "$out" "nearest"
like "... line" "$out" "  line "
like "... and random" "$out" "  random "

# ---- nearest: the brute force.  brute CAP SIZE X Y [FX FY]: "x y distance"
# of the nearest standable cell (in the component of (FX, FY) if given).
brute() {
  navbake dump "$b" clearance --capability "$1" >"$tmp/cv" || return 1
  if [ -n "$5" ]; then
    navbake dump "$b" components --capability "$1" --size "$2" >"$tmp/comp" || return 1
  else
    : >"$tmp/comp"
  fi
  awk -v s="$2" -v px="$3" -v py="$4" -v fx="${5:--1}" -v fy="${6:--1}" '
    FILENAME == ARGV[1] { for (x = 1; x <= NF; x++) cv[x - 1, FNR - 1] = $x; w = NF; h = FNR; next }
    { for (x = 1; x <= NF; x++) comp[x - 1, FNR - 1] = $x }
    END {
      want = fx >= 0 ? comp[fx, fy] : -1
      best = -1
      for (y = 0; y < h; y++) for (x = 0; x < w; x++) {
        if (cv[x, y] < s || (want >= 0 && comp[x, y] != want)) continue
        dx = x - px; if (dx < 0) dx = -dx; dy = y - py; if (dy < 0) dy = -dy
        d = dx > dy ? dx + (sqrt(2) - 1) * dy : dy + (sqrt(2) - 1) * dx
        if (best < 0 || d < best - 1e-9) { best = d; bx = x; by = y }
      }
      printf "%d %d %.8f\n", bx, by, best
    }' "$tmp/cv" "$tmp/comp"
}
# ours AGENT X,Y [OPTION]...: "x y distance" from the JSON.
ours() {
  a=$1 p=$2; shift 2
  navbake nearest --json -a "$a" "$b" "$p" "$@" |
    sed 's/.*"x": \([0-9]*\), "y": \([0-9]*\), "distance": \([0-9.]*\).*/\1 \2 \3/'
}
for q in "scout ground,swamp 1 0 0" "wagon ground 2 0 0" "giant ground,swamp,trees 3 30 20" \
         "amphibian ground,swamp,water 2 32 5" "wagon ground 2 13 9" "scout ground,swamp 1 20 8" \
         "giant ground,swamp,trees 3 63 39" "wagon ground 2 45 6"; do
  set -- $q
  is "nearest: $1 from $4,$5 as brute force" "$(ours "$1" "$4,$5")" "$(brute "$2" "$3" "$4" "$5")"
done
for q in "wagon ground 2 45 6 2 20" "amphibian ground,swamp,water 2 13 9 40 30" \
         "giant ground,swamp,trees 3 13 9 60 2"; do
  set -- $q
  is "nearest: $1 from $4,$5 reachable from $6,$7 as brute force" \
    "$(ours "$1" "$4,$5" --reachable-from "$6,$7")" "$(brute "$2" "$3" "$4" "$5" "$6" "$7")"
done
status navbake nearest -a wagon "$b" 0,0
is "nearest, text: exit 0" "$rc" 0
like "... the cell" "$out" "cell       1,1"
like "... its distance" "$out" "distance   1.41421356"
status navbake nearest -a wagon --radius 1 "$b" 13,9
is "nothing within --radius 1: exit 3" "$rc" 3
like "... said" "$out" "status     none within the radius"
status navbake nearest --json -a wagon --radius 1 "$b" 13,9
like "... in JSON: no cell" "$out" '"status": "beyond radius", "found": false, "x": null, "y": null, "distance": null'
status navbake nearest -a wagon --reachable-from 0,0 "$b" 13,9
is "reachable from a wall: exit 3" "$rc" 3
like "... said" "$out" "the agent cannot stand at --reachable-from"
status navbake nearest -a wagon "$b" 64,0
is "a point off the map: a usage error" "$rc" 2
like "... naming it" "$err" "the point 64,0 is outside the 64 x 40 map"
status navbake nearest -a nobody "$b" 1,1
is "an unknown agent: exit 1" "$rc" 1
like "... naming the agents" "$err" "no agent 'nobody' (the agents are scout, wagon"

# ---- line, worked out from the map: row 1 is ground from x = 1 to 28,
# then water from 29 to 32; column 0 and row 0 are walls.
status navbake line -a scout "$b" --from 1,1 --to 28,1
is "line: along row 1 on ground: clear (exit 0)" "$rc" 0
like "... said" "$out" "status     clear"
status navbake line -a scout "$b" --from 1,1 --to 30,1
is "line: on into the water: blocked (exit 3)" "$rc" 3
like "... the last free point: the square touches the water" "$out" "last       28.000000,1.000000"
like "... the cell" "$out" "blocking   29,1 (water)"
like "... how far it got" "$out" "travelled  0.931034 of it (27.000000 cells)"
status navbake line -a amphibian "$b" --from 1,1 --to 30,1
is "line: the amphibian swims on" "$rc" 0
status navbake line --json -a scout "$b" --from 1.5,1 --to 1.5,0.25
like "line: up into the wall of row 0, in JSON" "$out" \
  '"status": "blocked", "clear": false, "t": 0, "last": [1.5, 1], "blocking": {"x": 1, "y": 0, "kind": "obstacle"}'
status navbake line -a wagon "$b" --from 0.5,1 --to 3,1
is "line: a start overlapping the wall: exit 3" "$rc" 3
like "... said" "$out" "status     start blocked"
like "... naming the wall" "$out" "blocking   0,1 (obstacle)"
status navbake line -a wagon "$b" --from 62.5,30 --to 62.5,32
like "line: a size-2 square at the right edge meets the wall of the last column" "$out" \
  "blocking   63,30 (obstacle)"
status navbake line -a scout "$b" --from 1,1 --to 65,1
is "line: a point off the map: a usage error" "$rc" 2
like "... naming the option" "$err" "--to 65,1 is outside 0 to 64, 0 to 40"
status navbake line -a scout "$b" --from 1,1
is "line: one end only: a usage error" "$rc" 2

# ---- random: every cell drawn is standable and in the start's
# component (navbake dump's layer), the same seed gives the same cells.
navbake dump "$b" components --capability ground,swamp,trees --size 3 >"$tmp/giant"
navbake random -a giant --from 2,20 -n 300 --seed 5 "$b" >"$tmp/r1"
is "random: 300 cells drawn (and a line saying from what)" "$(sed 1,2d "$tmp/r1" | wc -l | tr -d ' ')" 300
like "... from component 1 of (2,20)" "$(cat "$tmp/r1")" "drawn from component 1 (of the cell 2,20): "
bad=$(sed 1,2d "$tmp/r1" | awk -F, 'NR == FNR { for (x = 1; x <= NF; x++) c[x - 1, FNR - 1] = $x; next }
  { split($0, p, ","); if (c[p[1], p[2]] != c[2, 20] || c[2, 20] == 0) print }' FS=' ' "$tmp/giant" FS=, -)
is "... every one in that component of the layer" "$bad" ""
navbake random -a giant --from 2,20 -n 300 --seed 5 "$b" >"$tmp/r2"
ok "... the same seed gives the same cells" cmp "$tmp/r1" "$tmp/r2"
navbake random -a giant --from 2,20 -n 300 --seed 6 "$b" >"$tmp/r3"
ok "... another seed other cells" sh -c "! cmp -s '$tmp/r1' '$tmp/r3'"
navbake random -a giant --from 2,20 -n 300 --seed 5 "$tmp/s.sqlite" >/dev/null 2>&1 ||
  navbake convert "$b" "$tmp/s.sqlite" >/dev/null
navbake random -a giant --from 2,20 -n 300 --seed 5 "$tmp/s.sqlite" >"$tmp/r4"
ok "... and the same from the SQLite form" cmp "$tmp/r1" "$tmp/r4"
status navbake random -a giant "$b" -n 50 --seed 18446744073709551615
is "random anywhere, the largest seed: exit 0" "$rc" 0
like "... from every standable cell" "$out" "drawn from every standable cell: 1571 cells, seed 18446744073709551615"
status navbake random -a giant --from 0,0 "$b"
is "random from a wall: exit 3" "$rc" 3
like "... said" "$out" "none: the agent cannot stand at --from"

# ---- --block and --open: the answers on the sample level with column 3
# and the box (16,20)-(19,23) blocked are those on the level baked with
# those cells as walls.
awk 'NR <= 4 { print; next }
     { y = NR - 5; s = $0
       s = substr(s, 1, 3) "@" substr(s, 5)
       if (y >= 20 && y <= 23) s = substr(s, 1, 16) "@@@@" substr(s, 21)
       print s }' "$data/sample.map" >"$tmp/edited.map"
ok "the level with those cells as walls is baked" \
  mkclear -q --agents "$data/sample-agents.yaml" "$tmp/edited.map" -o "$tmp/e.nbk"
blocks="--block 3,0,1,20 --block 3,20,1,20 --block 16,20,4,4 --block 20,0,1,1 --open 20,0,1,1"
# answer BUNDLE AGENT POINT FROM [OPTION]...: "status x y distance" from the JSON.
answer() {
  bb=$1 a=$2 p=$3 f=$4; shift 4
  navbake nearest --json -a "$a" --reachable-from "$f" "$@" "$bb" "$p" |
    sed 's/.*"status": \("[^"]*"\).*"x": \([0-9a-z]*\), "y": \([0-9a-z]*\), "distance": \([0-9.a-z]*\).*/\1 \2 \3 \4/'
}
for q in "scout 5,5 1,1" "scout 40,2 1,1" "wagon 2,30 30,30" "giant 3,3 20,10" "scout 17,21 10,10"; do
  set -- $q
  is "nearest --block: $1 from $2 reachable from $3 as on the edited level" \
    "$(answer "$b" "$1" "$2" "$3" $blocks)" "$(answer "$tmp/e.nbk" "$1" "$2" "$3")"
done
status navbake nearest -a scout --reachable-from 1,1 $blocks "$b" 5,5
like "... the text names the overlay" "$out" "overlay    56 cells blocked (--block, --open)"
like "... and the cells reach's searches expanded" "$out" "expanded   "
status navbake nearest -a scout --reachable-from 3,5 $blocks "$b" 5,5
is "... reachable from a blocked cell: exit 3" "$rc" 3
status navbake line -a scout $blocks "$b" --from 1,1 --to 10,1
is "line --block: through the blocked column: exit 3" "$rc" 3
like "... the blocking cell is the overlay's" "$out" "blocking   3,1 (blocked (--block))"
status navbake line -a scout "$tmp/e.nbk" --from 1,1 --to 10,1
like "... where the edited level has its wall" "$out" "blocking   3,1 (obstacle)"
status navbake line --json -a wagon --block 20,5,2,2 "$b" --from 10,6 --to 30,6
like "line --block --json: the kind" "$out" '"kind": "blocked (--block)"'
like "... and the cells blocked" "$out" '"blocked_cells": 4'
navbake dump "$tmp/e.nbk" components --capability ground,swamp --size 1 >"$tmp/ecomp"
navbake random -a scout --from 1,1 -n 200 --seed 3 $blocks "$b" >"$tmp/rb"
is "random --block: 200 cells" "$(sed 1,3d "$tmp/rb" | wc -l | tr -d ' ')" 200
bad=$(sed 1,3d "$tmp/rb" | awk 'NR == FNR { for (x = 1; x <= NF; x++) c[x - 1, FNR - 1] = $x; next }
  { split($0, p, ","); if (c[p[1], p[2]] != c[1, 1] || c[1, 1] == 0) print }' FS=' ' "$tmp/ecomp" FS=, -)
is "... every one in the component of 1,1 on the edited level (left of the blocked column)" "$bad" ""
navbake random -a scout --from 1,1 -n 200 --seed 3 $blocks "$b" >"$tmp/rb2"
ok "... the same seed gives the same cells" cmp "$tmp/rb" "$tmp/rb2"
if command -v python3 >/dev/null 2>&1; then
  navbake random --json -a wagon --from 2,2 -n 20 "$b" >"$tmp/r.json"
  ok "random --json: valid JSON, 20 picks, standable" python3 -c "
import json, sys
d = json.load(open('$tmp/r.json'))
assert d['found'] and d['agent'] == 'wagon' and d['from'] == [2, 2] and len(d['picks']) == 20, d
assert d['component'] >= 1 and d['cells'] >= 20"
  navbake nearest --json -a wagon --reachable-from 2,2 "$b" 13,9 >"$tmp/n.json"
  navbake line --json -a wagon "$b" --from 2,2 --to 40,30 >"$tmp/l.json"
  ok "nearest and line --json: valid JSON with their fields" python3 -c "
import json
n = json.load(open('$tmp/n.json'))
assert n['found'] and set(['x', 'y', 'distance', 'examined']) <= set(n), n
l = json.load(open('$tmp/l.json'))
assert l['status'] in ('clear', 'blocked') and len(l['last']) == 2 and 0 <= l['t'] <= 1, l"
else
  skip "python3 absent"; skip "python3 absent"
fi
finish
