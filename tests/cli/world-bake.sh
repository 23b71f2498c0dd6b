#!/bin/sh
# world-bake.sh: navbake world tile and link (formats/world.md) from the
# command line.  A world cut from a map of the sample level's characters is
# baked tile by tile and linked; each tile bundle opens alone and passes
# verify --deep; a tile baked by --index is the same bytes as by X Y; an
# action run again writes nothing; each tile's strips hold the big map's
# cells its neighbours' halos hold, and a tile baked from them (--strips,
# with every other tile's map gone) is the bytes baked from the maps;
# whether two cells of different tiles are joined, read from the world
# bundle, is what navbake query over the whole map says (a path or none).  Then what tile and link refuse: a tile
# outside the world, a missing neighbour map, a missing strip or one of
# another size, a missing or damaged border file, another tile's border, a
# tile left stale by an edit, naming each.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1
# refuses STATUS DESCRIPTION COMMAND...: the command exits with STATUS; its
# output (both streams) is in $tmp/.out.
refuses() {
  want=$1 d=$2; shift 2
  "$@" >"$tmp/.out" 2>&1
  is "$d (exit $want)" "$?" "$want"
}

tiled_sample >big.map
agents=$top_srcdir/data/sample-agents.yaml

ok "cut into tiles of 48 in clusters of 8" navbake world cut big.map --tile 48 -c 8 -a "$agents" -o w
tiles=
for y in 0 1 2; do for x in 0 1 2 3; do tiles="$tiles $x,$y"; done; done
bad=0
for t in $tiles; do
  navbake world tile w/world.yaml "${t%,*}" "${t#*,}" -o out -q >"$tmp/.out" 2>&1 || bad=$((bad + 1))
done
is "every tile baked" "$bad" 0
is "a tile bundle and a border file each" "$(ls out/tiles | wc -l | tr -d ' ')" 24
ok "linked" navbake world link w/world.yaml -o out
is "the link says what it wrote" "$(cat "$tmp/.out")" "wrote out/world.nbw"
ok "the world bundle verifies" navbake verify out/world.nbw
is "with its 12 tiles, each against the index" "$(grep -c ': ok' "$tmp/.out")" 13
ok "a tile bundle passes verify --deep alone" navbake verify --deep out/tiles/1_1.nbb
status navbake query out/tiles/1_1.nbb --from 20,20 --to 40,44
is "and answers a query alone (no path: exit 3)" "$rc" 3
like "from its components" "$out" "different components"
ok "info names a tile's sections" navbake info out/tiles/1_1.nbb
like "its tile section" "$(cat "$tmp/.out")" "tile"
like "with its column and row" "$(cat "$tmp/.out")" "column=1 row=1"
ok "info names the world's" navbake info out/world.nbw
like "its index" "$(cat "$tmp/.out")" "columns=4 rows=3"
like "and its components" "$(cat "$tmp/.out")" "world_components"

# A world given whole to info, verify and convert: by its world bundle or
# its manifest (--baked: where it was baked), every tile checked against
# the index, and against the manifest's files when given it.
tile_bytes=$(cat out/tiles/*.nbb | wc -c | tr -d ' ')
ok "info of the world bundle" navbake info out/world.nbw
like "says the world's grid" "$(cat "$tmp/.out")" "world      192 x 120 cells in 4 x 3 tiles of 48 (clusters of 8, a halo of 8)"
like "and the tile bundles' bytes, a cell of the world's" "$(cat "$tmp/.out")" \
   "tiles      12, each the one the index names: $tile_bytes bytes, $(echo "$tile_bytes" | awk '{ printf "%.3f", $1 / (192 * 120) }') bytes/cell"
map_bytes=$(for f in out/tiles/*.nbb; do navbake info --json "$f"; done |
  python3 -c 'import json, sys
d = json.JSONDecoder(); s = sys.stdin.read(); i = 0; n = 0
while i < len(s):
    while i < len(s) and s[i].isspace(): i += 1
    if i == len(s): break
    o, i = d.raw_decode(s, i); n += sum(x["stored"] for x in o["sections"] if x["type_name"] == "map")
print(n)')
is "and each section type's, summed over the tiles" "$(sed -n 's/^  map  *\([0-9]*\) bytes.*/\1/p' "$tmp/.out")" "$map_bytes"
own=$(wc -c <out/world.nbw | tr -d ' ')
like "and the world bundle's own bytes, a tile's share (what a game holds whatever it loads)" \
   "$(cat "$tmp/.out")" \
   "own        the world bundle: $own bytes, $(echo "$own" | awk '{ printf "%.1f", $1 / 12 }') bytes/tile"
# Its sections' stored bytes as info of the world bundle alone lists them.
own_secs=$(navbake info --json out/world.nbw | python3 -c 'import json, sys
d = json.load(sys.stdin); t = {}
for x in d["sections"]: t[x["type_name"]] = t.get(x["type_name"], 0) + x["stored"]
print(" ".join("%s %d %.1f" % (k, t[k], t[k] / 12) for k in ("world", "world_components")))')
is "and its index and components, each a tile's share" \
   "$(awk '/^own / { on = 1; next } on && /bytes\/tile/ && ($1 == "world" || $1 == "world_components") { printf "%s%s %s %s", s, $1, $2, $4; s = " " }' "$tmp/.out")" \
   "$own_secs"
ok "info --json of the world bundle" navbake info --json out/world.nbw
is "has the world: its tiles and their bytes" \
   "$(python3 -c 'import json, sys; w = json.load(open(sys.argv[1]))["world"]; print(w["tiles"], w["tile_bytes"], w["sections"]["map"]["stored"])' "$tmp/.out")" \
   "12 $tile_bytes $map_bytes"
ok "info of the manifest, baked in out" navbake info w/world.yaml --baked out
like "names the world bundle, checked against the manifest's files" "$(cat "$tmp/.out")" "baked      out/world.nbw, from the files the manifest names"
like "and the tiles" "$(cat "$tmp/.out")" "tiles      12, each the one the index names: $tile_bytes bytes"
ok "info of the manifest, not baked where it looks" navbake info w/world.yaml
like "says so" "$(cat "$tmp/.out")" "baked      not yet: no w/world.nbw"
ok "verify of the manifest, baked in out" navbake verify w/world.yaml --baked out
like "verifies the world bundle and its tiles, then says the files are the manifest's" \
   "$(cat "$tmp/.out")" "w/world.yaml: ok, the world baked in out from the files it names, 4 x 3 tiles"
is "each tile verified" "$(grep -c '^out/tiles/.*: ok' "$tmp/.out")" 12
ok "verify --deep of the manifest" navbake verify --deep -q w/world.yaml --baked out
ok "convert of the manifest to a map" navbake convert w/world.yaml whole-from-maps.map
is "gives back the map the world was cut from" "$(cmp whole-from-maps.map big.map && echo same)" same
ok "convert of the world bundle to a map" navbake convert out/world.nbw whole-from-tiles.map
is "gives it back from the tile bundles" "$(cmp whole-from-tiles.map big.map && echo same)" same
ok "convert of the world bundle to SQLite" navbake convert out/world.nbw world.sqlite
# What they refuse, naming the file.
cp -R out nt
rm nt/tiles/2_1.nbb
for cmd in "info nt/world.nbw" "verify nt/world.nbw" "convert nt/world.nbw x.map" "convert nt/world.nbw x.nbw" \
           "info w/world.yaml --baked nt" "verify w/world.yaml --baked nt"; do
  # shellcheck disable=SC2086
  refuses 1 "$cmd: a tile missing" navbake $cmd
  like "names it" "$(cat "$tmp/.out")" "nt/tiles/2_1.nbb"
done
is "and convert wrote no map" "$(ls x.map x.nbw 2>/dev/null)" ""
cp out/tiles/0_0.nbb nt/tiles/2_1.nbb
for cmd in "info nt/world.nbw" "verify nt/world.nbw" "convert nt/world.nbw x.map" "verify w/world.yaml --baked nt"; do
  # shellcheck disable=SC2086
  refuses 1 "$cmd: a tile of another digest" navbake $cmd
  like "names it" "$(cat "$tmp/.out")" "nt/tiles/2_1.nbb: tile (2, 1) is not the one the world was linked from"
done
cp -R w wl
printf 'legend: "legend.yaml"\n' >>wl/world.yaml
cp "$top_srcdir/data/legend.yaml" wl/legend.yaml
for cmd in info verify; do
  refuses 1 "$cmd: a manifest naming another legend than the tiles were baked with" navbake $cmd wl/world.yaml --baked out
  like "names the tile and says so" "$(cat "$tmp/.out")" "out/tiles/0_0.nbb: tile (0, 0) was baked with another legend than the manifest names"
done
cp -R w wa
sed 's/size: 3/size: 2/' "$agents" >wa/agents.yaml
refuses 1 "verify: a manifest whose agent set differs" navbake verify wa/world.yaml --baked out
like "names the tile and says so" "$(cat "$tmp/.out")" "out/tiles/0_0.nbb: tile (0, 0) was baked with another agent set than the manifest names"
cp -R w wm
awk 'NR == 10 { $0 = (substr($0, 1, 1) == "@" ? "." : "@") substr($0, 2) } { print }' w/tiles/3_2.map >wm/tiles/3_2.map
refuses 1 "verify: a tile map edited since the bake" navbake verify wm/world.yaml --baked out
like "names the tile and its map" "$(cat "$tmp/.out")" "out/tiles/3_2.nbb: tile (3, 2) was baked from another version of its map wm/tiles/3_2.map"
mkdir notw
cp out/tiles/2_1.nbb notw/world.nbw
refuses 1 "info: a bundle in the world bundle's place" navbake info w/world.yaml --baked notw
like "says so" "$(cat "$tmp/.out")" "notw/world.nbw: not a world bundle"
refuses 1 "verify too" navbake verify w/world.yaml --baked notw
like "says so" "$(cat "$tmp/.out")" "notw/world.nbw: not a world bundle"

# Run again: nothing is written.
ok "a tile baked again" navbake world tile w/world.yaml 2 1 -o out
is "writes nothing" "$(cat "$tmp/.out")" ""
ok "verbose" navbake world tile w/world.yaml 2 1 -o out -v
like "says the files are the same" "$(cat "$tmp/.out")" "same  out/tiles/2_1.nbb"
ok "--index 6 is tile (2, 1)" navbake world tile w/world.yaml --index 6 -o byindex
is "the same tile bundle" "$(cmp byindex/tiles/2_1.nbb out/tiles/2_1.nbb && echo same)" same
is "and border file" "$(cmp byindex/tiles/2_1.border out/tiles/2_1.border && echo same)" same
ok "--full bakes it whole" navbake world tile w/world.yaml 2 1 -o out --full
is "to the same bytes" "$(cat "$tmp/.out")" ""

# Strips: the cells of each tile its neighbours' halos hold (a halo of 8:
# the cluster, the largest agent's size being 3), one file a neighbour.
for t in $tiles; do navbake world strips w/world.yaml "${t%,*}" "${t#*,}" -o st -q || echo FAIL "$t"; done >"$tmp/.fails" 2>&1
is "every tile's strips written" "$(cat "$tmp/.fails")" ""
is "one a neighbour: 3 a corner tile, 5 an edge tile, 8 an inner one (58)" "$(ls st/strips | wc -l | tr -d ' ')" 58
is "tile (1, 1)'s" "$(ls st/strips | grep '^1_1\.' | tr '\n' ' ')" \
   "1_1.e.map 1_1.n.map 1_1.ne.map 1_1.nw.map 1_1.s.map 1_1.se.map 1_1.sw.map 1_1.w.map "
# cells X0 Y0 W H: the big map's cells as a map of their own.
cells() {
  awk -v x="$1" -v y="$2" -v w="$3" -v h="$4" 'NR == 1 { print "type octile"; print "height " h; print "width " w; print "map" }
    NR > 4 + y && NR <= 4 + y + h { print substr($0, x + 1, w) }' big.map
}
is "the strip tile (1, 1) lends its east neighbour: its 8 rightmost columns" \
   "$(cat st/strips/1_1.e.map)" "$(cells 88 48 8 48)"
is "its south-west neighbour: its bottom left 8 x 8 cells" "$(cat st/strips/1_1.sw.map)" "$(cells 48 88 8 8)"
is "tile (3, 2) lends its north neighbour its top 8 rows (it is 48 wide)" \
   "$(cat st/strips/3_2.n.map)" "$(cells 144 96 48 8)"
ok "strips again" navbake world strips w/world.yaml 1 1 -o st
is "write nothing" "$(cat "$tmp/.out")" ""
ok "--index 5 is tile (1, 1)" navbake world strips w/world.yaml --index 5 -o st -v
like "the same files" "$(cat "$tmp/.out")" "same  st/strips/1_1.nw.map"
cp -R w lone
for t in $tiles; do [ "$t" = 1,1 ] || rm "lone/tiles/${t%,*}_${t#*,}.map"; done
ok "tile (1, 1) baked with --strips from a world missing every other tile's map" \
   navbake world tile lone/world.yaml 1 1 -o st --strips
is "the same tile bundle as from the maps" "$(cmp st/tiles/1_1.nbb out/tiles/1_1.nbb && echo same)" same
is "and border file" "$(cmp st/tiles/1_1.border out/tiles/1_1.border && echo same)" same
refuses 1 "strips: a tile outside the world" navbake world strips w/world.yaml 0 3 -o st
like "says so" "$(cat "$tmp/.out")" "tile (0, 3) is not in the world's 4 x 3 tiles"
refuses 2 "strips: no output folder" navbake world strips w/world.yaml 1 1
refuses 1 "strips: the tile's map missing" navbake world strips lone/world.yaml 2 1 -o st
like "names the tile and the file" "$(cat "$tmp/.out")" "the strips of tile (2, 1): tile (2, 1), cells (96, 48) to (143, 95): "
mv st/strips/2_1.w.map st/2_1.w.map
refuses 1 "tile --strips: a strip missing" navbake world tile w/world.yaml 1 1 -o st --strips
like "names it" "$(cat "$tmp/.out")" "st/strips/2_1.w.map"
cp st/strips/2_2.n.map st/strips/2_1.w.map
refuses 1 "tile --strips: a strip of another size in its place" navbake world tile w/world.yaml 1 1 -o st --strips
like "says what it holds and what it should" "$(cat "$tmp/.out")" \
   "st/strips/2_1.w.map: a strip of 48 x 8 cells, where the halo of tile (1, 1) holds 8 x 48 of tile (2, 1)"
mv st/2_1.w.map st/strips/2_1.w.map
# A strip of the right size that is not the neighbour's cells (made
# before an edit of its map, say): the tile bakes, the link names it.
cp -R out stale
cp -R st/strips stale/strips
awk 'NR == 5 { $0 = (substr($0, 1, 1) == "@" ? "." : "@") substr($0, 2) } { print }' st/strips/2_1.w.map >stale/strips/2_1.w.map
ok "tile --strips: a strip of other cells" navbake world tile w/world.yaml 1 1 -o stale --strips
refuses 1 "is refused by the link" navbake world link w/world.yaml -o stale
like "naming the tile and the neighbour" "$(cat "$tmp/.out")" \
   "stale/tiles/1_1.border: tile (1, 1) was baked from another version of tile (2, 1)'s map"

# Reachability across tiles from the world bundle against a query over the
# whole map: a cell of tile (0, 0) and one of tile (3, 2), for the scout.
ok "the whole map baked" mkclear big.map -a "$agents" -o whole.nbb -q
whole_says() {
  navbake query whole.nbb --from "$1,$2" --to "$3,$4" --agent scout >/dev/null 2>&1
  case $? in 0) echo joined ;; 3) echo apart ;; *) echo error ;; esac
}
world_says() {
  nbtest-world reach out/world.nbw out/tiles scout "$@" 2>&1
}
for pair in "3 3 180 110" "3 3 100 60" "20 30 150 20" "60 5 60 115"; do
  # shellcheck disable=SC2086
  is "cells $pair: the world bundle's components say what a search over the whole map does" \
     "$(world_says $pair)" "$(whole_says $pair)"
  # shellcheck disable=SC2086
  set -- $pair
  navbake world reach out/world.nbw --from "$1,$2" --to "$3,$4" --agent scout >/dev/null 2>&1
  case $? in 0) said=joined ;; 3) said=apart ;; *) said=error ;; esac
  is "cells $pair: navbake world reach says so too" "$said" "$(whole_says $pair)"
done
status navbake world reach out/world.nbw --from 3,3 --to 180,110 --json
is "world reach --json: answered (exit 0 or 3)" "$((rc == 0 || rc == 3))" 1
like "loads the two tiles it needs, and says so" "$out" '"tiles_loaded": 2, '
mkdir -p swapped
cp out/tiles/0_0.nbb swapped/0_0.nbb
cp out/tiles/1_0.nbb swapped/1_0.nbb
cp out/tiles/0_0.nbb swapped/1_0.nbb
status navbake world reach out/world.nbw --from 3,3 --to 60,3 --tiles swapped
is "world reach: another tile's bundle in a tile's place is refused (exit 1)" "$rc" 1
like "naming the tile and its file" "$err" "tile (1, 0): swapped/1_0.nbb: a bundle of"

# What tile refuses.
refuses 1 "tile: a tile outside the world" navbake world tile w/world.yaml 4 0 -o out
like "says so" "$(cat "$tmp/.out")" "tile (4, 0) is not in the world's 4 x 3 tiles"
refuses 2 "tile: --index past the last tile" navbake world tile w/world.yaml --index 12 -o out
like "says how many there are" "$(cat "$tmp/.out")" "the world has 12 tiles (0 to 11)"
refuses 2 "tile: X without Y" navbake world tile w/world.yaml 1 -o out
refuses 2 "tile: no output folder" navbake world tile w/world.yaml 1 1
cp -R w gone
rm gone/tiles/2_2.map
refuses 1 "tile: a neighbour's map missing" navbake world tile gone/world.yaml 1 1 -o gout
like "names the tile, its cells and the file" "$(cat "$tmp/.out")" "tile (2, 2), cells (96, 96) to (143, 119): "
like "and the file" "$(cat "$tmp/.out")" "gone/tiles/2_2.map"
is "and writes no tile" "$(ls gout/tiles 2>/dev/null)" ""

# What link refuses.
cp -R out o2
rm o2/tiles/3_2.border
refuses 1 "link: a border file missing" navbake world link w/world.yaml -o o2
like "names it" "$(cat "$tmp/.out")" "o2/tiles/3_2.border"
cp out/tiles/3_2.border o2/tiles/3_2.border
cp out/tiles/0_0.border o2/tiles/1_0.border
refuses 1 "link: another tile's border file" navbake world link w/world.yaml -o o2
like "names it and both tiles" "$(cat "$tmp/.out")" "o2/tiles/1_0.border: the border of tile (0, 0)"
cp out/tiles/1_0.border o2/tiles/1_0.border
printf '\001' | dd of=o2/tiles/1_0.border bs=1 seek=700 conv=notrunc 2>/dev/null
refuses 1 "link: a damaged border file" navbake world link w/world.yaml -o o2
like "names it" "$(cat "$tmp/.out")" "o2/tiles/1_0.border"
cp out/tiles/1_0.nbb o2/tiles/1_0.border
refuses 1 "link: a tile bundle in the border file's place" navbake world link w/world.yaml -o o2
like "says so" "$(cat "$tmp/.out")" "a tile bundle, not a border file"

# An edit: a wall across tile (1, 1)'s right edge.  Only that tile's map is
# cut again; baking it alone leaves its neighbours stale, which the link
# names; baking them too links, and changes only the files the edit reached.
awk 'NR == 4 + 60 { $0 = substr($0, 1, 90) "@@@@@@@@@@@@" substr($0, 103) } { print }' big.map >edit.map
ok "the edit cut" navbake world cut edit.map --tile 48 -c 8 -a "$agents" -o w
is "rewrote one tile map" "$(cat "$tmp/.out")" "wrote w/tiles/1_1.map
wrote w/tiles/2_1.map"
ok "tile (1, 1) baked again" navbake world tile w/world.yaml 1 1 -o out
refuses 1 "verify: a world with a tile baked again after the link" navbake verify out/world.nbw
like "names the tile" "$(cat "$tmp/.out")" "out/tiles/1_1.nbb: tile (1, 1) is not the one the world was linked from"
refuses 1 "link: its neighbours stale" navbake world link w/world.yaml -o out
like "names a tile to bake again" "$(cat "$tmp/.out")" "was baked from another version of tile"
for t in $tiles; do navbake world tile w/world.yaml "${t%,*}" "${t#*,}" -o out -q || echo FAIL "$t"; done >"$tmp/.fails" 2>&1
is "every tile baked again" "$(cat "$tmp/.fails")" ""
ok "linked" navbake world link w/world.yaml -o out
# An edit away from tile (1, 1)'s edges (its middle, farther than the
# halo from every edge): its neighbours read none of those cells, so only
# its own files change.
awk 'NR == 4 + 72 { $0 = substr($0, 1, 70) (substr($0, 71, 1) == "@" ? "." : "@") substr($0, 72) } { print }' edit.map >mid.map
ok "an edit in the middle of a tile cut" navbake world cut mid.map --tile 48 -c 8 -a "$agents" -o w
for t in $tiles; do navbake world tile w/world.yaml "${t%,*}" "${t#*,}" -o out || echo FAIL "$t"; done >"$tmp/.wrote" 2>&1
is "every tile baked again rewrites only that tile's bundle and border" "$(cat "$tmp/.wrote")" "wrote out/tiles/1_1.nbb
wrote out/tiles/1_1.border"
ok "linked" navbake world link w/world.yaml -o out
ok "and a middle edit undone" navbake world cut edit.map --tile 48 -c 8 -a "$agents" -o w
for t in $tiles; do navbake world tile w/world.yaml "${t%,*}" "${t#*,}" -o out -q || echo FAIL "$t"; done
ok "linked" navbake world link w/world.yaml -o out
ok "the edited whole map baked" mkclear edit.map -a "$agents" -o whole.nbb -q
for pair in "3 3 180 110" "20 30 150 20" "60 5 60 115" "80 60 110 60"; do
  # shellcheck disable=SC2086
  is "after the edit, cells $pair: the world says what the whole map does" \
     "$(world_says $pair)" "$(whole_says $pair)"
done
finish
