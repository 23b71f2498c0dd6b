#!/bin/sh
# levels.sh: levels as editors write them (formats/tiled.md,
# formats/ldtk.md, formats/image.md).  The room in every encoding Tiled writes, .tmx and
# .tmj, reads as the map derived by hand (data/levels/room.expected.map)
# and bakes to the same bytes, as does the room's PNG; the heightmaps read
# as a brute force of the step and band rules; every map of ../shared/levels reads as
# python's own XML, JSON, base64 and zlib readers decode it
# (tests/support/level_truth.py), bakes, and answers a query with the
# length of a plain Dijkstra; each planted fault is refused naming the
# file and where; cut and corrupted files are refused, never a crash.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1
D=$top_srcdir/data/levels
cp "$D"/* .

# ---- the room, in every encoding ----
for f in room-*.tmx room-*.tmj; do
  status navbake convert --legend room-legend.yaml "$f" -
  is "$f reads as the map derived by hand" "$rc $out" "0 $(cat room.expected.map)"
  ok "$f bakes" mkclear --legend room-legend.yaml "$f" -o "${f%.*}-${f##*.}.nbk"
done
ok "the room baked from a MovingAI map" mkclear --legend room-legend.yaml room.expected.map -o map.nbk
for b in room-*.nbk; do
  ok "$b: the bytes of the bake of room.expected.map" cmp "$b" map.nbk
done
status navbake convert --legend room-legend.yaml room-zstd.tmx "$tmp/out.map"
is "convert writes OUT.map" "$rc $(cat out.map)" "0 $(cat room.expected.map)"
# Without the legend, the classes 'floor' and 'wall' name nothing: every
# tile that names nothing is ground, the tiles that name terrains keep them.
status navbake convert room-csv.tmx -
like "no legend: the walls are ground" "$(echo "$out" | sed -n 5p)" "............"
like "no legend: the water is water" "$(echo "$out" | sed -n 7p)" "...WW.....T."

# ---- images and heightmaps ----
status navbake convert --legend room-legend.yaml room.png -
is "room.png reads as the map derived by hand" "$rc $out" "0 $(cat room.expected.map)"
ok "room.png bakes" mkclear --legend room-legend.yaml room.png -o png.nbk
ok "room.png: the bytes of the bake of room.expected.map" cmp png.nbk map.nbk
if command -v python3 >/dev/null 2>&1; then
  python3 "$top_srcdir/tests/support/heights_truth.py" hills.pgm 9 120 12 > hills.truth
  is "the brute force checks its own moves" "$?" 0
  for f in hills.pgm hills8.png; do
    status navbake convert --legend hills-legend.yaml $f -
    is "$f reads as the brute force of the step and band rules" "$rc $out" "0 $(cat hills.truth)"
  done
  set -- $(python3 "$top_srcdir/tests/support/octile_check.py" hills.truth)
  ok "hills.pgm bakes" mkclear --legend hills-legend.yaml hills.pgm -o hills.nbk
  status navbake query --json hills.nbk --from "$1" --to "$2"
  len=$(echo "$out" | sed -n 's/.*"length": \([0-9.]*\).*/\1/p')
  is "hills: a query from $1 to $2 has Dijkstra's length" \
     "$(awk -v a="$len" -v b="$3" 'BEGIN { print (a - b < 1e-5 && b - a < 1e-5) ? "same" : a " vs " b }')" same
else
  skip "python3 absent"; skip "python3 absent"; skip "python3 absent"; skip "python3 absent"; skip "python3 absent"
fi
# The 16-bit image holds the same heights times 257.
sed 's/max_step: 12/max_step: 3084/; s/\[0, 9\]/[0, 2313]/; s/\[120, 65535\]/[30840, 65535]/' hills-legend.yaml > hills16.yaml
status navbake convert --legend hills16.yaml hills.png -
is "hills.png (16 bits) reads as hills8.png with its legend scaled" "$rc $out" "0 $(navbake convert --legend hills-legend.yaml hills8.png -)"

# ---- planted faults: refused with the file and the place ----
# fault NAME PHRASE FILE SED: FILE edited by SED into NAME is refused
# (exit 1) with PHRASE in its message.
fault() {
  sed "$4" "$3" > "$1"
  status navbake convert --legend room-legend.yaml "$1" -
  is "$1: refused (exit 1)" "$rc" 1
  like "$1: says '$2'" "$err" "$2"
}
fault gid.tmx "gid.tmx: layer 'ground', cell (1, 0): gid 9 is tile 2 of tileset 'props', which has 2 tiles (firstgid 7)" room-csv.tmx 's/^1,1,1/1,9,1/'
fault first.tmx "first.tmx: layer 'ground', cell (0, 0): gid 1 belongs to no tileset" room-csv.tmx 's/firstgid="1"/firstgid="3"/'
fault gidts.tmx "gid 12 is tile 5 of tileset 'props', which has 2 tiles" room-csv.tmx 's/^1,1,1/1,12,1/'
fault csvlen.tmx "layer 'ground': CSV data holds 95 gids, the layer has 96 cells" room-csv.tmx '0,/^1,1,1,/s/^1,1,1,/1,1,/'
fault size.tmx "layer 'ground' is 11 x 8, the map 12 x 8" room-csv.tmx 's/name="ground" width="12"/name="ground" width="11"/'
fault enc.tmx "unknown data encoding 'base32'" room-base64.tmx 's/encoding="base64"/encoding="base32"/'
fault comp.tmx "unknown compression 'lzma'" room-zlib.tmx 's/compression="zlib"/compression="lzma"/'
fault poly2.tmx "poly2.tmx:47:40: object 2: a second <polygon>" room-csv.tmx 's|^\(.*\)<polygon points="0,0 48,0 0,48"/>|&\1<polygon points="0,0 8,0 0,8"/>|'
fault inflate.tmx "inflate.tmx:11:3: layer 'ground': the zlib data does not inflate" room-zlib.tmx 's/^   eJ/   eK/'
fault nozstd.tmx "the zstd data" room-zstd.tmx '0,/^   KLUv/s/^   KLUv/   KLUw/'
fault tileset.tmx "missing.tsx" room-csv.tmx 's/source="room.tsx"/source="missing.tsx"/'
fault iso.tmx "iso.tmx:2:1: an isometric map: only orthogonal maps are read" room-csv.tmx 's/orientation="orthogonal"/orientation="isometric"/'
fault xml.tmx "xml.tmx:3:" room-csv.tmx '3s/<tileset/<tileset <</'
fault dtd.tmx "a document type declaration" room-csv.tmx '1a<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa">]>'
fault json.tmj "json.tmj:5:" room-array.tmj '5s/,$/,,/'
fault gidj.tmj "gidj.tmj: layers[0] 'ground': data[0] is not a gid" room-array.tmj '0,/^    1,$/s/^    1,$/    -1,/'
fault lenj.tmj "its data holds 95 gids, the layer has 12 x 8 cells" room-array.tmj '0,/^    1,$/{/^    1,$/d}'
fault encj.tmj "unknown compression 'brotli'" room-zstd.tmj 's/"compression": "zstd"/"compression": "brotli"/'
# A zlib stream of the layer's size and a byte more, and a bomb of zeros.
if command -v python3 >/dev/null 2>&1; then
  python3 - <<'PY'
import base64, zlib
src = open("room-zlib.tmx").read()
first = src.split('<data encoding="base64" compression="zlib">\n   ')[1].split("\n")[0]
big = base64.b64encode(zlib.compress(bytes(12 * 8 * 4 + 1))).decode()
bomb = base64.b64encode(zlib.compress(bytes(64 << 20), 9)).decode()
open("longer.tmx", "w").write(src.replace(first, big, 1))
open("bomb.tmx", "w").write(src.replace(first, bomb, 1))
PY
  for f in longer bomb; do
    status navbake convert --legend room-legend.yaml $f.tmx -
    is "$f.tmx: refused (exit 1)" "$rc" 1
    like "$f.tmx: inflates no further than the layer" "$err" "layer 'ground': the zlib data inflates to more than the layer's 384 bytes"
  done
else
  skip "python3 absent"; skip "python3 absent"; skip "python3 absent"; skip "python3 absent"
fi
# imgfault NAME PHRASE LEGEND: NAME read with LEGEND is refused naming it.
imgfault() {
  status navbake convert --legend "$3" "$1" -
  is "$1 with $3: refused (exit 1)" "$rc" 1
  like "$1 with $3: says '$2'" "$err" "$2"
}
echo 'height_bits: 8' | cat hills16.yaml - > bits8.yaml
imgfault hills.png "hills.png: a 16-bit image; the legend reads heights of 8 bits (height_bits)" bits8.yaml
sed 's/"#0000ff"/"#0000fe"/' room-legend.yaml > nowater.yaml
imgfault room.png "room.png: pixel (3, 2): colour #0000ff is not in the legend's colours" nowater.yaml
imgfault room.png "room.png: a heightmap must be a gray image of 8 or 16 bits (this one is in colour)" hills-legend.yaml
head -c 60 room.png > cut.png
imgfault cut.png "cut.png: not a PNG libpng can read" room-legend.yaml
head -c 200 hills.pgm > cut.pgm
imgfault cut.pgm "cut.pgm: 145 bytes of samples, the header's 20 x 14 at 1 bytes each is 280" hills-legend.yaml
printf 'P5 20 0 255\n' > flat.pgm
imgfault flat.pgm "flat.pgm: byte 6: expected the height, a whole number from 1 to 16384" hills-legend.yaml

# Step limits per agent (formats/agents.md): the bake holds a terrain for
# the cells only the steeper agent stands on (test_heightmap_agents checks
# every cell against a brute force); a bad limit is named by file, line
# and agent.
printf 'agents:\n  - name: goat\n    size: 1\n    capability: [ground, water]\n    max_step: 40\n  - name: cart\n    size: 1\n    capability: ground\n    max_step: 2\n' > steps.yaml
ok "hills.pgm bakes for agents with their own step limits" \
  mkclear --legend hills-legend.yaml --agents steps.yaml hills.pgm -o steps.nbk
status navbake info --json steps.nbk
like "hills.pgm: the goat's steeper cells are a terrain of their own" "$out" "ground-step40"
sed 's/max_step: 2$/max_step: 65536/' steps.yaml > badstep.yaml
status mkclear --legend hills-legend.yaml --agents badstep.yaml hills.pgm -o bad.nbk
is "an agent's max_step of 65536: refused (exit 1)" "$rc" 1
like "an agent's max_step of 65536: named by file, line and agent" "$err" "badstep.yaml:9:15: agent 'cart': max_step: "

# LDtk: a layer of the wrong size, a level that is not there.
if command -v python3 >/dev/null 2>&1; then
  cat > mk.py <<'PY'
import json
d = {"jsonVersion": "1.5.3", "worldLayout": "Free", "defaultGridSize": 16, "levels": [], "worlds": [],
     "defs": {"layers": [{"uid": 1, "identifier": "Walls", "type": "IntGrid", "gridSize": 16,
                          "intGridValues": [{"value": 1, "identifier": "walls"}, {"value": 2, "identifier": "water"}]}]}}
for n, (x, csv) in enumerate(((0, [0, 1, 0, 2, 0, 0]), (48, [1, 1, 0, 0, 2, 0]))):
    d["levels"].append({"identifier": "L%d" % n, "worldX": x, "worldY": 0, "pxWid": 48, "pxHei": 32,
                        "layerInstances": [{"__type": "IntGrid", "__identifier": "Walls", "__cWid": 3, "__cHei": 2,
                                            "__gridSize": 16, "layerDefUid": 1, "intGridCsv": csv}]})
json.dump(d, open("two.ldtk", "w"), indent=1)
d["levels"][1]["layerInstances"][0]["intGridCsv"].pop()
json.dump(d, open("short.ldtk", "w"), indent=1)
PY
  python3 mk.py
  status navbake convert two.ldtk -
  is "two.ldtk: two levels side by side" "$rc $(echo "$out" | tail -2 | tr '\n' ' ')" "0 .@.@@. W...W. "
  status navbake convert 'two.ldtk#L1' -
  is "two.ldtk#L1: the one level" "$rc $(echo "$out" | tail -2 | tr '\n' ' ')" "0 @@. .W. "
  imgfault short.ldtk "short.ldtk: level 'L1', layer 'Walls': intGridCsv holds 5 values, the layer has 3 x 2 cells" hills-legend.yaml
  imgfault 'two.ldtk#L9' "two.ldtk: no level 'L9'" hills-legend.yaml
  sed '3s/$/,/' two.ldtk > comma.ldtk
  imgfault comma.ldtk "comma.ldtk:3:24: string or '}' expected near ','" hills-legend.yaml
else
  for i in 1 2 3 4 5 6 7 8; do skip "python3 absent"; done
fi
cat > bad-legend.yaml <<'Y'
terrains:
  - name: ground
    chars: "."
    tiles: ["floor", "floor"]
Y
status navbake convert --legend bad-legend.yaml room-csv.tmx -
like "a tile named twice in the legend" "$err" "bad-legend.yaml:4:22: terrain 1: 'floor' is named twice"

# ---- cut and corrupted files: refused cleanly, never a crash ----
bad=0 runs=0
for f in room-csv.tmx room-zlib.tmx room-zstd.tmx room-array.tmj room-gzip.tmj room.tsx room.tsj \
         room.png hills.png hills.pgm; do
  size=$(wc -c < "$f")
  for cut in 1 7 50 200 400 700 1000 1500 2500; do
    [ "$cut" -lt "$size" ] || continue
    mkdir -p cut && cp room.tsx room.tsj room-legend.yaml hills16.yaml cut/
    head -c "$cut" "$f" > "cut/$f"
    # A cut tileset is read through a map that names it.
    case $f in room.tsx) target=room-csv.tmx ;; room.tsj) target=room-array.tmj ;; *) target=$f ;; esac
    [ "$target" = "$f" ] || cp "$target" cut/
    case $f in hills*) legend=cut/hills16.yaml ;; *) legend=cut/room-legend.yaml ;; esac
    navbake convert --legend "$legend" "cut/$target" - >/dev/null 2>cut/err; rc=$?
    runs=$((runs + 1))
    [ "$rc" -eq 1 ] && grep -q "cut/" cut/err || { bad=$((bad + 1)); echo "# $f cut at $cut: exit $rc: $(cat cut/err)"; }
  done
  for at in 3 40 97 180 260 333 420 555; do
    [ "$at" -lt "$size" ] || continue
    mkdir -p flip && cp room.tsx room.tsj room-legend.yaml hills16.yaml room-csv.tmx room-array.tmj flip/
    # One byte changed to each of a few values.
    for byte in 0 34 60 255; do
      { head -c "$at" "$f"; printf "\\$(printf '%03o' "$byte")"; tail -c +"$((at + 2))" "$f"; } > "flip/$f"
      case $f in room.tsx) target=room-csv.tmx ;; room.tsj) target=room-array.tmj ;; *) target=$f ;; esac
      case $f in hills*) legend=flip/hills16.yaml ;; *) legend=flip/room-legend.yaml ;; esac
      navbake convert --legend "$legend" "flip/$target" - >/dev/null 2>flip/err; rc=$?
      runs=$((runs + 1))
      [ "$rc" -le 1 ] || { bad=$((bad + 1)); echo "# $f byte $at = $byte: exit $rc: $(cat flip/err)"; }
    done
  done
done
is "cut files are refused with exit 1 and corrupted ones never crash ($runs runs)" "$bad" 0

# ---- the editors' own levels (../shared/levels) ----
S=${NB_SHARED:-$top_srcdir/../shared}/levels
if [ ! -d "$S" ]; then
  skip "../shared/levels absent"
elif ! command -v python3 >/dev/null 2>&1; then
  skip "python3 absent"
else
  for f in "$S"/tiled/*.tmx "$S"/tiled/forest/*.tmx "$S"/ldtk/*.ldtk \
           "$S/ldtk/WorldMap_GridVania_layout.ldtk#Entrance" \
           "$S/ldtk/Test_file_for_API_showing_all_features.ldtk#Everything"; do
    name=$(basename "$f")
    python3 "$top_srcdir/tests/support/level_truth.py" "$f" > truth.map
    status navbake convert "$f" -
    is "$name reads as python decodes it" "$rc $out" "0 $(cat truth.map)"
    ok "$name bakes" mkclear "$f" -o level.nbk
    set -- $(python3 "$top_srcdir/tests/support/octile_check.py" truth.map)
    if [ $# -eq 3 ]; then
      status navbake query --json level.nbk --from "$1" --to "$2"
      len=$(echo "$out" | sed -n 's/.*"length": \([0-9.]*\).*/\1/p')
      is "$name: a query from $1 to $2 has Dijkstra's length" \
         "$(awk -v a="$len" -v b="$3" 'BEGIN { print (a - b < 1e-5 && b - a < 1e-5) ? "same" : a " vs " b }')" same
    fi
  done
  # Tiles named by the legend: the desert's water and rocks.
  cat > desert.yaml <<'Y'
terrains:
  - name: ground
    chars: "."
  - name: swamp
    chars: "S"
  - name: water
    chars: "W"
    tiles: ["Desert:29", "Desert:14"]
obstacles: "@"
obstacle_tiles: ["Desert:30", "Desert:45"]
Y
  python3 "$top_srcdir/tests/support/level_truth.py" "$S/tiled/desert.tmx" Desert:29=W Desert:14=W \
    Desert:30=@ Desert:45=@ > truth.map
  status navbake convert --legend desert.yaml "$S/tiled/desert.tmx" -
  is "desert.tmx with the legend's tiles reads as python decodes it" "$rc $out" "0 $(cat truth.map)"
  ok "desert.tmx: the legend's tiles make water" grep -q W truth.map
fi
finish
