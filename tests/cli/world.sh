#!/bin/sh
# world.sh: navbake world cut and check (formats/world.md).  A map cut into
# tiles is put back together by awk from the tile maps and compared with
# the map; cutting again writes nothing, and after a one-cell edit only that
# tile's map (the other files keep their inodes); check finds a tile of the
# wrong size, a missing one, a bad legend copy and bad manifests, naming them.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

# A 100 x 70 map of every default character, from a fixed generator.
mkmap() {
  awk -v w=100 -v h=70 -v edit="$1" 'BEGIN {
    c = ".G.SWT@O.."; s = 12345
    print "type octile"; print "height " h; print "width " w; print "map"
    for (y = 0; y < h; y++) {
      row = ""
      for (x = 0; x < w; x++) {
        s = (s * 1103515245 + 12345) % 2147483648
        ch = substr(c, int(s / 65536) % 10 + 1, 1)
        if (edit != "" && x == 40 && y == 35) ch = (ch == "@" ? "." : "@")
        row = row ch
      }
      print row
    }
  }'
}
mkmap >big.map

# refuses STATUS DESCRIPTION COMMAND...: the command exits with STATUS;
# its output (both streams) is in $tmp/.out.
refuses() {
  want=$1 d=$2; shift 2
  "$@" >"$tmp/.out" 2>&1
  is "$d (exit $want)" "$?" "$want"
}

# join FOLDER COLUMNS ROWS: the world's rows from its tile maps.
join_tiles() {
  for ty in $(seq 0 $(($3 - 1))); do
    files=
    for tx in $(seq 0 $(($2 - 1))); do files="$files $1/tiles/${tx}_$ty.map"; done
    # shellcheck disable=SC2086
    awk 'FNR == 1 { f++ } FNR > 4 { row[FNR - 4] = row[FNR - 4] $0; if (FNR - 4 > n) n = FNR - 4 }
         END { for (i = 1; i <= n; i++) print row[i] }' $files
  done
}

ok "cut a 100 x 70 map into tiles of 32" navbake world cut big.map --tile 32 -o w
is "it names each file it wrote" "$(wc -l < "$tmp/.out" | tr -d ' ')" 13
is "the manifest" "$(grep -v '^#' w/world.yaml)" "world: 1
width: 100
height: 70
tile: 32
cluster: 16
maps: \"tiles/{x}_{y}.map\""
is "4 x 3 tile maps" "$(ls w/tiles | sort | tr '\n' ' ')" \
   "0_0.map 0_1.map 0_2.map 1_0.map 1_1.map 1_2.map 2_0.map 2_1.map 2_2.map 3_0.map 3_1.map 3_2.map "
is "the last column and row stop at the map's edge" "$(sed -n 2,3p w/tiles/3_2.map | tr '\n' ' ')" \
   "height 6 width 4 "
is "the tiles put back together are the map" "$(join_tiles w 4 3)" "$(tail -n +5 big.map)"
ok "check: ok" navbake world check w/world.yaml
is "check says the grid" "$(cat "$tmp/.out")" "w/world.yaml: ok (4 x 3 tiles of 32 cells, 100 x 70 cells)"

ls -i w/tiles w/world.yaml | sort >inodes.before
ok "cutting again" navbake world cut big.map --tile 32 -o w
is "writes nothing" "$(cat "$tmp/.out")" ""
is "and replaces no file" "$(ls -i w/tiles w/world.yaml | sort)" "$(cat inodes.before)"

mkmap edit >big.map
ok "cutting after a one-cell edit at (40, 35)" navbake world cut big.map --tile 32 -o w
is "writes that cell's tile only" "$(cat "$tmp/.out")" "wrote w/tiles/1_1.map"
is "every other file keeps its inode" \
   "$(ls -i w/tiles w/world.yaml | sort | diff inodes.before - | grep -c '^[<>]')" 2
is "the tiles put back together are the edited map" "$(join_tiles w 4 3)" "$(tail -n +5 big.map)"
is "no temporary file is left" "$(ls -a w w/tiles | grep -c tmp-)" 0

ok "a tile map is an ordinary map: mkclear bakes it" mkclear -q w/tiles/1_1.map -o t11.nbk
ok "and it verifies" navbake verify t11.nbk

# With a legend and an agent set: copied beside the tiles and named.
ok "cut with --legend and --agents" \
   navbake world cut big.map --tile 48 --cluster-size 8 -l "$top_srcdir/data/legend.yaml" \
   -a "$top_srcdir/data/agents.yaml" -o wl
ok "the legend's copy is the legend" cmp wl/legend.yaml "$top_srcdir/data/legend.yaml"
ok "the agents' copy is the agent set" cmp wl/agents.yaml "$top_srcdir/data/agents.yaml"
is "the manifest names them" "$(grep -E '^(tile|cluster|legend|agents):' wl/world.yaml | tr '\n' ' ')" \
   'tile: 48 cluster: 8 legend: "legend.yaml" agents: "agents.yaml" '
ok "check from another folder: paths are from the manifest's" sh -c "cd / && navbake world check -q '$tmp/wl/world.yaml'"

# What check refuses, naming the tile and the file.
cp -R w bad
printf 'type octile\nheight 5\nwidth 4\nmap\n....\n....\n....\n....\n....\n' >bad/tiles/3_2.map
refuses 1 "a tile map of the wrong size" navbake world check bad/world.yaml
like "names the tile, its cells and the file" "$(cat "$tmp/.out")" \
   "tile (3, 2), cells (96, 64) to (99, 69): bad/tiles/3_2.map: a map of 4 x 5 cells, where the world's tile is 4 x 6"
rm bad/tiles/0_1.map
refuses 1 "a missing tile map" navbake world check bad/world.yaml
like "names it" "$(cat "$tmp/.out")" "tile (0, 1), cells (0, 32) to (31, 63): "
like "and the file" "$(cat "$tmp/.out")" "bad/tiles/0_1.map"
cp -R wl badl
printf 'terrains: []\nobstacles: "@"\n' >badl/legend.yaml
refuses 1 "a bad legend copy" navbake world check badl/world.yaml
like "names the legend" "$(cat "$tmp/.out")" "badl/legend.yaml"

# Manifests that are not right.
manifest() { printf 'world: 1\nwidth: 100\nheight: 70\n%s\n' "$1" >m.yaml; }
manifest 'tile: 7
maps: "t/{x}_{y}.map"'
refuses 1 "a tile below 16" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:4:7: tile: 7 is not a whole number from 16 to 16384"
manifest 'tile: 40
maps: "t/{x}_{y}.map"'
refuses 1 "a tile that is not a multiple of the cluster" navbake world check m.yaml
like "says so" "$(cat "$tmp/.out")" "tile 40 must be 16 to 16384 cells and a multiple of the cluster (16)"
manifest 'tile: 32
maps: "t/{x}.map"'
refuses 1 "a maps pattern without {y}" navbake world check m.yaml
like "says so" "$(cat "$tmp/.out")" "maps: 't/{x}.map': it must hold {x} and {y} once each"
manifest 'tile: 32
maps: "t/{x}_{y}_{z}.map"'
refuses 1 "a maps pattern with another brace" navbake world check m.yaml
like "says so" "$(cat "$tmp/.out")" "a brace other than in {x} and {y}"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
tiles: 3'
refuses 1 "an unknown key" navbake world check m.yaml
like "is named" "$(cat "$tmp/.out")" "tiles"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
paths: 2'
refuses 1 "paths other than 0 or 1" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:8: paths: 2 is not a whole number from 0 to 1"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
optimal: 2'
refuses 1 "optimal other than 0 or 1" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:10: optimal: 2 is not a whole number from 0 to 1"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
levels: 9'
refuses 1 "levels above 8" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:9: levels: 9 is not a whole number from 1 to 8"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
levels: 0'
refuses 1 "levels: 0" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:9: levels: 0 is not a whole number from 1 to 8"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
blocks: 257'
refuses 1 "blocks above 256" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:9: blocks: 257 is not a whole number from 0 to 256"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
landmarks: 33'
refuses 1 "landmarks above 32" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:12: landmarks: 33 is not a whole number from 1 to 32"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
landmarks: 0'
refuses 1 "landmarks: 0" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:12: landmarks: 0 is not a whole number from 1 to 32"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
insert: 65'
refuses 1 "insert above 64" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:9: insert: 65 is not a whole number from 1 to 64"
manifest 'tile: 32
maps: "t/{x}_{y}.map"
insert: 0'
refuses 1 "insert: 0" navbake world check m.yaml
like "is named with its line" "$(cat "$tmp/.out")" "m.yaml:6:9: insert: 0 is not a whole number from 1 to 64"
printf 'world: 2\nwidth: 100\nheight: 70\ntile: 32\nmaps: "{x}{y}"\n' >m.yaml
refuses 1 "another version" navbake world check m.yaml
like "is refused" "$(cat "$tmp/.out")" "world: 2 is not a whole number from 1 to 1"
printf 'world: 1\nwidth: 1048577\nheight: 70\ntile: 32\nmaps: "{x}{y}"\n' >m.yaml
refuses 1 "a world wider than the limit" navbake world check m.yaml
like "is refused" "$(cat "$tmp/.out")" "width: 1048577 is not a whole number from 1 to 1048576"
printf 'world: 1\nwidth: 1048576\nheight: 1048576\ntile: 16\nmaps: "{x}{y}"\n' >m.yaml
refuses 1 "more tiles than a world may have" navbake world check m.yaml
like "is refused" "$(cat "$tmp/.out")" "65536 x 65536 tiles, more than the 1048576 a world may have"

# What cut refuses.
refuses 2 "cut: --tile that is not a multiple of the cluster" navbake world cut big.map --tile 40 -o x
refuses 2 "cut: no --tile" navbake world cut big.map -o x
refuses 2 "cut: a tile below 16" navbake world cut big.map --tile 8 -o x
printf 'type octile\nheight 2\nwidth 3\nmap\n..x\n...\n' >bad.map
refuses 1 "cut: a map with a character the legend lacks" navbake world cut bad.map --tile 16 -o x
like "names the file, line and column" "$(cat "$tmp/.out")" "bad.map:5:3: character 'x' is not in the legend"
is "and writes nothing" "$(ls -d x 2>/dev/null)" ""
: >afile
refuses 1 "cut: an output that is a file" navbake world cut big.map --tile 32 -o afile
like "says so" "$(cat "$tmp/.out")" "afile: exists and is not a folder"
refuses 2 "cut: an unknown world command" navbake world paste big.map
finish
