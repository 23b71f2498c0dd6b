#!/bin/sh
# world-path.sh: navbake world path, Annotated A* across a world's tiles
# (nb_world_aa_find), against navbake query over the same map baked whole:
# the same status and cost for every agent of data/cost-agents.yaml
# (terrain costs) on pairs of cells in different tiles; --json says how
# many tiles it loaded, no more than the world's; bad input is refused.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

tiled_sample >big.map
agents=$top_srcdir/data/cost-agents.yaml
ok "cut into tiles of 48" navbake world cut big.map --tile 48 -c 8 -a "$agents" -o w
bad=0
for y in 0 1 2; do for x in 0 1 2 3; do
  navbake world tile w/world.yaml "$x" "$y" -o out -q >/dev/null 2>&1 || bad=$((bad + 1))
done; done
is "every tile baked" "$bad" 0
ok "linked" navbake world link w/world.yaml -o out
ok "the whole map baked" mkclear big.map -a "$agents" -o whole.nbb -q

# "status cost" of a JSON line (cost null when none).
status_cost() {
  sed 's/.*"status": "\([^"]*\)".*"cost": \([^,}]*\).*/\1|\2/' |
    awk -F'|' '{ print $1, ($1 == "found" ? sprintf("%.6f", $2) : "-") }'
}
found=0
for pair in "5 5 40 30" "12 60 60 70" "5 5 60 40" "30 20 90 20" "70 50 130 70" "12 60 150 30"; do
  # shellcheck disable=SC2086
  set -- $pair
  for agent in infantry wagon hovercraft scout; do
    whole=$(navbake query whole.nbb --from "$1,$2" --to "$3,$4" --agent "$agent" --json |
            status_cost)
    world=$(navbake world path out/world.nbw --from "$1,$2" --to "$3,$4" --agent "$agent" \
              --json | status_cost)
    is "cells $pair, $agent: the whole bake's status and cost" "$world" "$whole"
    case $whole in found*) found=$((found + 1)) ;; esac
  done
done
is "some of them found across tiles" "$((found >= 4))" 1
status navbake world path out/world.nbw --from 12,60 --to 60,70 --agent scout --json
is "a path across tiles found: exit 0" "$rc" 0
loaded=$(printf '%s\n' "$out" | sed 's/.*"tiles_loaded": \([0-9]*\),.*/\1/')
is "--json says it loaded the two tiles of its ends and no more than the world's 12" \
   "$((loaded >= 2 && loaded <= 12))" 1
like "of 12" "$out" '"tiles": 12,'
status navbake world path out/world.nbw --from 12,60 --to 60,70 --agent scout
like "and so does the text" "$out" "of 12 tiles loaded)"
status navbake world path out/world.nbw --from 5,5 --to 500,30
is "a cell off the world: a usage error" "$rc" 2
status navbake world path out/world.nbw --from 5,5
is "no goal: a usage error" "$rc" 2
status navbake world path out/world.nbw --from 5,5 --to 40,30 --tiles nowhere
is "no tile bundles: a failure" "$rc" 1
like "naming the tile" "$err" "tile (0, 0)"
ok "--help" navbake world path --help
finish
