#!/bin/sh
# levels.sh: levels as editors write them (formats/tiled.md,
# formats/ldtk.md).  The room in every encoding Tiled writes, .tmx and
# .tmj, reads as the map derived by hand (data/levels/room.expected.map)
# and bakes to the same bytes; every map of ../shared/levels reads as
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
for f in room-csv.tmx room-zlib.tmx room-zstd.tmx room-array.tmj room-gzip.tmj room.tsx room.tsj; do
  size=$(wc -c < "$f")
  for cut in 1 7 50 200 400 700 1000 1500 2500; do
    [ "$cut" -lt "$size" ] || continue
    mkdir -p cut && cp room.tsx room.tsj room-legend.yaml cut/
    head -c "$cut" "$f" > "cut/$f"
    # A cut tileset is read through a map that names it.
    case $f in room.tsx) target=room-csv.tmx ;; room.tsj) target=room-array.tmj ;; *) target=$f ;; esac
    [ "$target" = "$f" ] || cp "$target" cut/
    navbake convert --legend cut/room-legend.yaml "cut/$target" - >/dev/null 2>cut/err; rc=$?
    runs=$((runs + 1))
    [ "$rc" -eq 1 ] && grep -q "cut/" cut/err || { bad=$((bad + 1)); echo "# $f cut at $cut: exit $rc: $(cat cut/err)"; }
  done
  for at in 3 40 97 180 260 333 420 555; do
    [ "$at" -lt "$size" ] || continue
    mkdir -p flip && cp room.tsx room.tsj room-legend.yaml room-csv.tmx room-array.tmj flip/
    # One byte changed to each of a few values.
    for byte in 0 34 60 255; do
      { head -c "$at" "$f"; printf "\\$(printf '%03o' "$byte")"; tail -c +"$((at + 2))" "$f"; } > "flip/$f"
      case $f in room.tsx) target=room-csv.tmx ;; room.tsj) target=room-array.tmj ;; *) target=$f ;; esac
      navbake convert --legend flip/room-legend.yaml "flip/$target" - >/dev/null 2>flip/err; rc=$?
      runs=$((runs + 1))
      [ "$rc" -le 1 ] || { bad=$((bad + 1)); echo "# $f byte $at = $byte: exit $rc: $(cat flip/err)"; }
    done
  done
done
is "cut files are refused with exit 1 and corrupted ones never crash ($runs runs)" "$bad" 0

# ---- the editors' own levels (../shared/levels) ----
S=$top_srcdir/../shared/levels
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
