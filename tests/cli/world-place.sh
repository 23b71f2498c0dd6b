#!/bin/sh
# world-place.sh: navbake line and random given a world of tiles (its world
# bundle or manifest) against the same commands on the same map baked
# whole: a line gets the whole bake's status, t, last point and blocking
# cell, with and without --block across tile borders; random draws from
# the whole bake's count of cells, each cell one the agent may stand on
# inside --area; --json says how many tiles were loaded; bad input is
# refused.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

tiled_sample >big.map
agents=$top_srcdir/data/sample-agents.yaml
ok "cut into tiles of 48" navbake world cut big.map --tile 48 -c 8 -a "$agents" -o w
bad=0
for y in 0 1 2; do for x in 0 1 2 3; do
  navbake world tile w/world.yaml "$x" "$y" -o w -q >/dev/null 2>&1 || bad=$((bad + 1))
done; done
is "every tile baked" "$bad" 0
ok "linked beside the manifest" navbake world link w/world.yaml -o w
ok "the whole map baked" mkclear big.map -a "$agents" -o whole.nbb -q

# A line's answer without what only one of them says (the blocking cell's kind, the tiles, the time).
answer() {
  sed -e 's/"kind": "[^"]*"//' -e 's/"tiles_loaded": [0-9]*, "tiles": [0-9]*, "rounds": [0-9]*, //' \
      -e 's/"microseconds": [0-9.]*//'
}
same=0 total=0 blocked=0
for seg in "5,5 40.5,30" "2,2 150,3" "10.25,60 100,70.5" "47,10 49,100" "30,20 90,20" \
           "70,50 130,70" "12,60 150,30" "95.5,47.5 97.5,49.5" "0,0 190,118"; do
  # shellcheck disable=SC2086
  set -- $seg
  for agent in scout wagon amphibian giant; do
    for blk in "" "--block 46,40,4,20 --block 90,46,10,4"; do
      # shellcheck disable=SC2086
      whole=$(navbake line whole.nbb --from "$1" --to "$2" -a "$agent" $blk --json | answer)
      # shellcheck disable=SC2086
      world=$(navbake line w/world.nbw --from "$1" --to "$2" -a "$agent" $blk --json | answer)
      total=$((total + 1))
      if [ "$whole" = "$world" ]; then same=$((same + 1))
      else echo "# $seg $agent $blk: world $world"; echo "#   whole $whole"; fi
      case $whole in *'"clear": false'*) blocked=$((blocked + 1)) ;; esac
    done
  done
done
is "navbake line on the world: the whole bake's answer, $total segments across tile borders" \
   "$same" "$total"
is "some of them blocked, some clear" "$((blocked > 5 && blocked < total))" 1
status navbake line w/world.yaml --from 12,60 --to 60,70 --json
is "given the manifest: answered (clear or blocked)" "$((rc == 0 || rc == 3))" 1
loaded=$(printf '%s\n' "$out" | sed 's/.*"tiles_loaded": \([0-9]*\),.*/\1/')
is "--json says it loaded the tiles the segment crosses: 2 of 12" "$loaded" 2
like "of 12" "$out" '"tiles": 12,'
status navbake line w/world.nbw --from 12,60 --to 60,70
like "and so does the text" "$out" "2 of 12 loaded"
status navbake line w/world.nbw --from 12,60 --to 600,70
is "a point off the world: a usage error" "$rc" 2
status navbake line w/world.nbw --from 12,60 --to 60,70 --block 190,0,5,5
is "a --block past the world: a usage error" "$rc" 2

# Random: the whole bake's count; every cell standable, in --area.
for agent in scout wagon giant; do
  # A cell the agent stands on, near 5,5, to draw from its component.
  cell=$(navbake nearest whole.nbb 5,5 -a "$agent" --json | sed 's/.*"x": \([0-9]*\), "y": \([0-9]*\),.*/\1,\2/')
  for from in "" "--from $cell"; do
    # shellcheck disable=SC2086
    a=$(navbake random whole.nbb -a "$agent" $from --json | sed 's/.*"cells": \([0-9]*\),.*/\1/')
    # shellcheck disable=SC2086
    b=$(navbake random w/world.nbw -a "$agent" $from --json | sed 's/.*"cells": \([0-9]*\),.*/\1/')
    is "random $agent $from over the world: the whole bake's count of cells ($a)" "$b" "$a"
  done
done
status navbake random w/world.nbw -a wagon --area 40,30,20,30 -n 200 --seed 9
is "random in an area across four tiles: answered" "$rc" 0
like "the four tiles loaded" "$out" "4 of 12 loaded"
printf '%s\n' "$out" | grep -E '^[0-9]+,[0-9]+$' >picks
is "200 cells drawn" "$(wc -l <picks | tr -d ' ')" 200
bad=0
while IFS=, read -r x y; do
  [ "$x" -ge 40 ] && [ "$x" -lt 60 ] && [ "$y" -ge 30 ] && [ "$y" -lt 60 ] || bad=$((bad + 1))
  navbake nearest whole.nbb "$x,$y" -a wagon -R 0 >/dev/null 2>&1 || bad=$((bad + 1))
done <picks
is "each inside the area, where a wagon stands on the whole bake" "$bad" 0
again=$(navbake random w/world.nbw -a wagon --area 40,30,20,30 -n 200 --seed 9 | grep -E '^[0-9]+,[0-9]+$')
is "the same seed: the same cells" "$again" "$(cat picks)"
status navbake random w/world.nbw --from 5,5 --block 20,20,2,2
is "--from under --block on a world: a failure" "$rc" 1
like "saying it is not answered across tiles" "$err" "not answered across tiles"
status navbake random whole.nbb --area 1,1,4,4
is "--area on a bundle: a usage error" "$rc" 2
status navbake random w/world.nbw --area 1,1,0,4
is "an --area of width 0: a usage error" "$rc" 2
ok "--help" navbake random --help
finish
