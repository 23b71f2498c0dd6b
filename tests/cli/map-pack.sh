#!/bin/sh
# map-pack.sh: the map section packed to the bits its characters need
# (formats/bundle.md, version 2) from the command line: info names its
# version, bits and bytes a cell (text and JSON, against the payload size
# the format gives); dump gives the map file back; binary -> SQLite ->
# binary keeps the bytes; verify --deep passes; a world's tile bundles
# hold packed maps too.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map

ok "mkclear bakes the sample level" mkclear -q -a "$data/sample-agents.yaml" "$map" -o "$tmp/s.nbk"
status navbake info "$tmp/s.nbk"
line=$(printf '%s\n' "$out" | grep ' map ')
# 64 x 40 cells of 7 characters: 4 bits a cell, 272 + 1280 bytes.
like "info: the map is version 2, packed" "$line" "map         2   packed"
like "info: 1552 bytes at 4 bits a cell" "$line" "1552       1552"
like "info: its parameters and bytes a cell" "$line" "width=64 height=40 bits=4 (0.606 bytes/cell)"
status navbake info --json "$tmp/s.nbk"
like "info --json: the map's bytes a cell" "$out" '"params": {"width": 64, "height": 40, "bits": 4}, "bytes_per_cell": 0.606250}'
total=$(printf '%s\n' "$out" | awk -F'"stored": ' '/"type_name": "(map|clearance|components|runs)"/ { split($2, a, ","); s += a[1] } END { printf "%.6f", s / 2560 }')
like "info --json: the bundle's bytes a cell, the sum of its sections'" "$out" "\"bytes_per_cell\": $total
}"
navbake dump "$tmp/s.nbk" map > "$tmp/back.map"
ok "dump gives the map back" cmp "$map" "$tmp/back.map"
navbake convert "$tmp/s.nbk" "$tmp/s.sqlite"
navbake convert "$tmp/s.sqlite" "$tmp/back.nbk"
ok "binary -> SQLite -> binary: the same bytes" cmp "$tmp/s.nbk" "$tmp/back.nbk"
ok "verify --deep passes" navbake verify --deep "$tmp/s.nbk"

# A map of walls and floor alone: 1 bit a cell.
printf 'type octile\nheight 3\nwidth 5\nmap\n@@@@@\n@...@\n@@@@@\n' > "$tmp/two.map"
mkclear -q "$tmp/two.map" -o "$tmp/two.nbk"
status navbake info "$tmp/two.nbk"
like "two characters: 1 bit a cell, 272 + 2 bytes" "$(printf '%s\n' "$out" | grep ' map ')" "274        274"
navbake dump "$tmp/two.nbk" map > "$tmp/two.back"
ok "and dump gives it back" cmp "$tmp/two.map" "$tmp/two.back"

# A world's tile bundles hold packed maps, and convert writes the whole map back.
cd "$tmp" || exit 1
tiled_sample > big.map
navbake world cut big.map --tile 48 -c 8 -a "$data/sample-agents.yaml" -o w > /dev/null 2>&1
bad=0
for y in 0 1 2; do for x in 0 1 2 3; do
  navbake world tile w/world.yaml "$x" "$y" -o out -q > /dev/null 2>&1 || bad=$((bad + 1))
done; done
is "a world of 4 x 3 tiles baked" "$bad" 0
navbake world link w/world.yaml -o out > /dev/null 2>&1
v=$(for t in out/tiles/*.nbb; do navbake info "$t" | awk '$2 == "map" { print $3, $4 }'; done | sort -u)
is "every tile bundle's map is version 2, packed" "$v" "2 packed"
navbake convert out/world.nbw whole.map
ok "the world's map from its tile bundles is the cut map" cmp big.map whole.map
finish
