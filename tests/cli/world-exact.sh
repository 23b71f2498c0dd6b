#!/bin/sh
# world-exact.sh: tests/bench/bench_world_exact, the plain A* over a
# world's tile maps that gives world HAA*'s benchmark its exact lengths at
# 32768^2 (tests/bench/results/world-haa-bench.md), against answers it did
# not compute: a world made by tests/bench/world-gen.py (brc202d cropped
# and mirrored, 512^2 in tiles of 128, when ../shared is there; else the
# sample level tiled) and the same world as one map, baked whole, where
# navbake query (Annotated A*) gives each pair's status and length; and a
# MovingAI scenario file's optimal lengths on its map.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

if ! command -v python3 >/dev/null 2>&1; then
  skip "python3 absent: world-gen.py cannot make the world"
  finish
fi
exact=$top_builddir/tests/bench/bench_world_exact
gen=$top_srcdir/tests/bench/world-gen.py
maps=${NB_SHARED:+$NB_SHARED/maps}
if [ -n "$maps" ] && [ -f "$maps/dao/brc202d.map" ]; then
  src=$maps/dao/brc202d.map crop="--crop 50,20,430,291" side=512 tile=128
else
  tiled_sample >sample.map
  src=sample.map crop="" side=384 tile=96
fi
# shellcheck disable=SC2086
ok "world-gen.py: tiles of $tile" python3 "$gen" $crop "$src" "$side" "$tile" w
# shellcheck disable=SC2086
ok "world-gen.py: the same world as one map" python3 "$gen" $crop "$src" "$side" "$side" whole
ok "the whole map baked" mkclear whole/tiles/0_0.map -o whole.nbb -q

# 24 pairs of standable cells of the whole map, spread by an LCG (fixed seed).
awk -v side="$side" 'NR > 4 { row[NR - 5] = $0 }
  END {
    s = 12345; k = 0
    while (k < 48) {
      s = (s * 1103515245 + 12345) % 2147483648; x = s % side
      s = (s * 1103515245 + 12345) % 2147483648; y = s % side
      c = substr(row[y], x + 1, 1)
      if (c == "." || c == "G" || c == "S") { cell[k] = x "," y; k++ }
    }
    for (k = 0; k < 48; k += 2) print cell[k] "," cell[k + 1]
  }' whole/tiles/0_0.map >pairs
is "24 pairs chosen" "$(wc -l <pairs | tr -d ' ')" 24

# The whole bake's answer for each pair: "x0 y0 x1 y1 length" or "... none".
while IFS=, read -r x0 y0 x1 y1; do
  navbake query whole.nbb --from "$x0,$y0" --to "$x1,$y1" --json |
    sed 's/.*"found": \([a-z]*\), "length": \([^,]*\),.*/\1 \2/' |
    awk -v p="$x0 $y0 $x1 $y1" '{ print p, ($1 == "true" ? sprintf("%.4f", $2) : "none") }'
done <pairs >want
# shellcheck disable=SC2046
status "$exact" w/world.yaml $(cat pairs)
is "bench_world_exact on the tiles: exit 0" "$rc" 0
printf '%s\n' "$out" | sed -n 's/^exact \([0-9-]* [0-9-]* [0-9-]* [0-9-]*\) \([0-9.]*\|none\)[:].*/\1 \2/p' >got
is "an answer for every pair" "$(wc -l <got | tr -d ' ')" 24
is "every pair's status and length equal Annotated A*'s on the whole bake" \
   "$(diff want got >/dev/null && echo same || diff want got | head -6)" same
found=$(grep -vc none want)
is "most pairs joined (a test of lengths, not of walls)" "$((found >= 12))" 1
# The whole map as one .map file: the same answers.
# shellcheck disable=SC2046
status "$exact" whole/tiles/0_0.map $(cat pairs)
printf '%s\n' "$out" | sed -n 's/^exact \([0-9-]* [0-9-]* [0-9-]* [0-9-]*\) \([0-9.]*\|none\)[:].*/\1 \2/p' >got1
is "the whole map read as one file: the same" "$(cmp -s got got1 && echo same)" same

if [ -n "$maps" ] && [ -f "$maps/dao/den312d.map.scen" ]; then
  status "$exact" --scen "$maps/dao/den312d.map.scen" "$maps/dao/den312d.map"
  is "den312d's scenario file: exit 0" "$rc" 0
  like "every line's optimal length" "$out" "lengths that differ 0"
  lines=$(grep -c '^[0-9]' "$maps/dao/den312d.map.scen")
  like "all $lines lines run" "$out" "scenario lines $lines,"
else
  skip "../shared/maps absent (NB_SHARED): no scenario file"
fi
status "$exact" w/world.yaml 1,2,3
is "a malformed pair: a usage error" "$rc" 2
sed 's/^tile: .*/tile: 100/' w/world.yaml >w/bad.yaml
status "$exact" w/bad.yaml 1,1,2,2
is "tile maps of another size: refused" "$rc" 1
like "naming the file" "$err" "0_0.map"
finish
