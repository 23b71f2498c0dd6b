#!/bin/sh
# world-query.sh: navbake query, scen, nearest and render on a world of
# tiles (nb_world_aa_find, nb_world_haa_find, nb_world_nearest_find, the
# tile bundles drawn one by one) against the same map baked whole.  The map is ../shared's den312d (65 x 81) in tiles
# of 24 with its MovingAI scenario file (lengths navbake did not compute)
# when ../shared is there; else the sample level tiled 3 x 3 in tiles of 48,
# with a scenario of cells across tiles whose lengths are the whole bake's
# (navbake random and query).  Checked: every scenario length on the world equals the
# file's, as on the whole bake; HAA* on the world is complete and never
# shorter than Annotated A* on it; --json counts the tiles loaded; the
# world's picture is the whole bake's; a world with a tile missing or
# damaged names the tile.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

maps=${NB_SHARED:+$NB_SHARED/maps}
if [ -n "$maps" ] && [ -f "$maps/dao/den312d.map" ]; then
  cp "$maps/dao/den312d.map" big.map
  cp "$maps/dao/den312d.map.scen" s.scen
  tile=24 cols=3 rows=4 width=65 height=81
else
  tiled_sample >big.map
  tile=48 cols=4 rows=3 width=192 height=120
fi
# Every tile of manifest $1 baked into folder $2: how many failed.
bake_tiles() {
  bad=0 y=0
  while [ "$y" -lt "$rows" ]; do
    x=0
    while [ "$x" -lt "$cols" ]; do
      navbake world tile "$1" "$x" "$y" -o "$2" -q >/dev/null 2>&1 || bad=$((bad + 1))
      x=$((x + 1))
    done
    y=$((y + 1))
  done
  echo "$bad"
}
ok "cut into tiles of $tile" navbake world cut big.map --tile "$tile" -c 8 -o w
is "every tile baked" "$(bake_tiles w/world.yaml out)" 0
ok "linked" navbake world link w/world.yaml -o out
ok "the whole map baked" mkclear big.map -o whole.nbb -q

# JSON member NAME of standard input ("null" when absent).
member() { sed -n "s/.*\"$1\": \\([^,}]*\\).*/\\1/p" | sed 's/"//g; s/^$/null/'; }

if [ ! -f s.scen ]; then
  # Cells drawn from the whole map, each with a goal drawn from its own
  # component (navbake random), and the whole bake's length between them.
  navbake random whole.nbb --size 1 -n 40 --seed 3 | sed -n 's/^\([0-9]*\),\([0-9]*\)$/\1 \2/p' >cells
  printf 'version 1\n' >s.scen
  i=0
  while read -r ax ay; do
    i=$((i + 1))
    goal=$(navbake random whole.nbb --size 1 --from "$ax,$ay" --seed "$i" | sed -n '$p')
    len=$(navbake query whole.nbb --size 1 --from "$ax,$ay" --to "$goal" --json | member length)
    [ "$len" = null ] ||
      printf '0\tbig.map\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$width" "$height" "$ax" "$ay" \
        "${goal%,*}" "${goal#*,}" "$len" >>s.scen
  done <cells
fi
lines=$(($(wc -l <s.scen) - 1))
is "a scenario of 20 lines or more" "$((lines >= 20))" 1
status navbake scen whole.nbb s.scen --size 1
is "scen on the whole bake: every length the file's" "$rc" 0

# Annotated A* across the tiles: every length the file's, as on the whole bake.
status navbake scen out/world.nbw s.scen --size 1 --json --progress none
is "scen on the world: exit 0" "$rc" 0
is "... every line run" "$(printf '%s' "$out" | member lines)" "$lines"
is "... none differs" "$(printf '%s' "$out" | member differ)" 0
loaded=$(printf '%s' "$out" | member tiles_loaded)
is "... the tiles the queries named loaded, no more than the world's" \
   "$((loaded >= 2 && loaded <= cols * rows))" 1
is "... of $((cols * rows))" "$(printf '%s' "$out" | member tiles)" "$((cols * rows))"
rounds=$(printf '%s' "$out" | member rounds)
is "... in rounds of loading" "$((rounds >= 1))" 1
status navbake scen out/world.nbw s.scen --size 1 --progress none
like "the text says the tiles loaded too" "$out" "of $((cols * rows)) loaded ("
# A length off by 0.01 in one line: the world's answer is not the file's.
awk 'NR == 2 { $9 = sprintf("%.8f", $9 + 0.01) } { print }' OFS='\t' s.scen >off.scen
status navbake scen out/world.nbw off.scen --size 1 --progress none
is "a line's length off by 0.01: exit 3" "$rc" 3
like "... naming the line" "$out" "off.scen:2:"

# HAA* across the tiles: a path exactly when Annotated A* across them finds
# one, never shorter (scen's mismatches), its error in haa-bench.md's range.
status navbake scen out/world.nbw s.scen --size 1 --method haa --json --progress none
is "scen --method haa on the world: exit 0" "$rc" 0
is "... complete, never shorter than aa: no mismatch" "$(printf '%s' "$out" | member mismatches)" 0
mean=$(printf '%s' "$out" | member error_mean_pct)
is "... mean error at most 10 % ($mean)" "$(awk -v m="$mean" 'BEGIN { print (m >= 0 && m <= 10) }')" 1
status navbake scen out/world.nbw s.scen --size 1 --method haa-refined --json --progress none
is "haa-refined too: no mismatch" "$(printf '%s' "$out" | member mismatches)" 0

# One query from the scenario's longest line, with each method.
set -- $(sort -t"$(printf '\t')" -k9 -g s.scen | tail -1 | cut -f5-8)
from="$1,$2" to="$3,$4"
whole=$(navbake query whole.nbb --size 1 --from "$from" --to "$to" --json | member length)
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --json
is "query on the world: the whole bake's length" "$(printf '%s' "$out" | member length)" "$whole"
like "... tiles_loaded in --json" "$out" '"tiles_loaded": '
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --method haa --compare --json
is "query --method haa --compare: exit 0" "$rc" 0
haa=$(printf '%s' "$out" | member length)
is "... the optimum it is measured against is the whole bake's" \
   "$(printf '%s' "$out" | member optimal)" "$whole"
is "... not shorter than it" "$(awk -v h="$haa" -v a="$whole" 'BEGIN { print (h >= a - 1e-6) }')" 1
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --method haa --path
like "... the text prints the path and the tiles" "$out" "loaded ("

# Cells blocked on a tile border: aa answers as the whole bake does, haa on the edited grid.
blk="$((tile - 2)),0,4,$height"
whole=$(navbake query whole.nbb --size 1 --from "$from" --to "$to" --block "$blk" --json |
        member status)
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --block "$blk" --json
is "--block across a border: the whole bake's status" "$(printf '%s' "$out" | member status)" "$whole"
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --block "$blk" --method haa --json
is "haa with --block on a world: answered" "$rc" 0
is "... with the whole bake's status" "$(printf '%s' "$out" | member status)" "$whole"
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --method haa-smooth
is "a method that does not take a world: a usage error" "$rc" 2
like "... naming the ones that do" "$err" "aa, haa, haa-refined and optimal do"
status navbake query out/world.nbw --size 1 --from "$from" --to "$to" --method optimal
is "optimal on a world baked without optimal: 1: refused" "$rc" 1
like "... saying the layer is not there" "$err" "no optimal layer across tiles"
# The same world with the manifest's optimal: 1: the optimal layer across
# the tiles gives every scenario length (nb_world_sg_find).
ok "cut again" navbake world cut big.map --tile "$tile" -c 8 -o wo
echo "optimal: 1" >>wo/world.yaml
is "every tile baked with optimal: 1" "$(bake_tiles wo/world.yaml outo)" 0
ok "linked" navbake world link wo/world.yaml -o outo
status navbake scen outo/world.nbw s.scen --size 1 --method optimal --json --progress none
is "scen --method optimal on the world: exit 0" "$rc" 0
is "... none differs from the file" "$(printf '%s' "$out" | member differ)" 0
wlen=$(navbake query whole.nbb --size 1 --from "$from" --to "$to" --json | member length)
status navbake query outo/world.nbw --size 1 --from "$from" --to "$to" --method optimal --json
is "query --method optimal: the whole bake's length" "$(printf '%s' "$out" | member length)" "$wlen"
# The link's cache keeps each tile's border_opt: a link reading every
# border file from the cache writes the world_opt of one reading none.
cp outo/world.nbw "$tmp/opt-first.nbw"
ok "linked again, from the cache" navbake world link wo/world.yaml -o outo -v
is "... reading no border file" "$(grep 'border files read' "$tmp/.out" | cut -d' ' -f1)" 0
is "... the same bytes, world_opt included" "$(cmp -s outo/world.nbw "$tmp/opt-first.nbw" && echo same)" same
ok "linked with --full" navbake world link wo/world.yaml -o outo --full
is "... the same bytes" "$(cmp -s outo/world.nbw "$tmp/opt-first.nbw" && echo same)" same
status navbake query out/world.nbw --size 1 --from 0,0 --to "$width,0"
is "a cell off the world: a usage error" "$rc" 2

# nearest across the tiles: the whole bake's answer, from points on the tiles' corners.
for p in "$tile,$tile" "$((tile - 1)),$((tile * 2))" "0,0" "$((width - 1)),$((height - 1))"; do
  a=$(navbake nearest whole.nbb "$p" --size 1 --json | sed 's/.*"x": \([^,]*\), "y": \([^,]*\),.*/\1,\2/')
  status navbake nearest out/world.nbw "$p" --size 1 --json
  b=$(printf '%s' "$out" | sed 's/.*"x": \([^,]*\), "y": \([^,]*\),.*/\1,\2/')
  case $a in [0-9]*,[0-9]*) ;; *) a="(the whole bake found none: $a)" ;; esac
  is "nearest $p on the world: the whole bake's cell" "$b" "$a"
done
like "... tiles_loaded in --json" "$out" '"tiles_loaded": '

# A tile missing, and one damaged: the error names the tile.
cp -R out miss && rm miss/tiles/1_0.nbb
status navbake scen miss/world.nbw s.scen --size 1 --progress none
is "scen with a tile missing: a failure" "$rc" 1
like "... naming the tile" "$err" "1_0.nbb"
# The tile of the query's start, cut short.
t="$((${from%,*} / tile))_$((${from#*,} / tile))"
cp -R out torn && head -c 2000 "out/tiles/$t.nbb" >"torn/tiles/$t.nbb"
status navbake query torn/world.nbw --size 1 --from "$from" --to "$to" --method haa
is "haa with its start's tile truncated: a failure" "$rc" 1
like "... naming the tile" "$err" "$t.nbb"
status navbake nearest torn/world.nbw "$from" --size 1
is "nearest in that tile: a failure" "$rc" 1
like "... naming the tile" "$err" "$t.nbb"
ok "query --help names a world" sh -c 'navbake query --help | grep -q WORLD'

# render of a world, tile by tile: the whole bake's picture, pixel for pixel.
if navbake render --help | grep -q 'yes (libpng)'; then
  for layers in terrain "clearance --size 1"; do
    # shellcheck disable=SC2086
    navbake render whole.nbb -o whole.png -q $layers
    # shellcheck disable=SC2086
    status navbake render out/world.nbw -o world.png -q $layers
    is "render $layers of the world: exit 0" "$rc" 0
    ok "... the whole bake's picture, legend and all" cmp whole.png world.png
  done
  win="$((tile / 2)),$((tile / 2)),$((tile + 5)),$((tile + 3))"
  navbake render whole.nbb -o whole.png -q --no-legend --window "$win" --scale 3
  ok "a window across four tiles" navbake render out/world.nbw -o world.png -q --no-legend \
     --window "$win" --scale 3
  ok "... the whole bake's" cmp whole.png world.png
else
  skip "navbake built without libpng: the pictures are not compared"
fi
navbake query out/world.nbw --size 1 --from "$from" --to "$to" --method haa --path --json >p.json
ok "render of a world with a path of haa over it" navbake render out/world.nbw -o p.svg -q -p p.json
status navbake render out/world.nbw -o c.svg components
is "render of a world's components: a usage error" "$rc" 2
status navbake render torn/world.nbw -o t.svg
is "render of a world with a tile truncated: a failure" "$rc" 1
like "... naming the tile" "$err" "$t.nbb"
finish
