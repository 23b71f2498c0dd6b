#!/bin/sh
# insert-table.sh: tests/bench/bench_insert_table, the sizing probe for a
# baked insertion table (tests/bench/results/world-haa-bench.md, round 11):
# on baked tiles, each end's costs to every portal of its tile by its block
# searched plus the table's sums equal the whole tile graph's Dijkstra (the
# insertion HAA* across tiles runs today, which test_world_haa checks
# against a plain Dijkstra) for every block size asked; with the planted
# fault (the costs inside the end's block left out) some differ, so the
# comparison can fail.  A street tile when ../shared has Paris.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1

probe=$top_builddir/tests/bench/bench_insert_table

# checks TILE B...: the probe's lines for those block sizes, all costs equal.
checks() {
  tile=$1
  shift
  status "$probe" "$tile" 150 "$@"
  is "$tile: exit 0" "$rc" 0
  is "$tile: a line for each block size" "$(printf '%s\n' "$out" | grep -c '^blocks of')" "$#"
  is "$tile: no portal cost differs" \
     "$(printf '%s\n' "$out" | grep '^blocks of' | grep -vc ' 0 portal costs differ')" 0
  ends=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9]*\) ends:.*/\1/p' | sort -n | head -1)
  is "$tile: ends compared" "$((${ends:-0} >= 20))" 1
  portals=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9]*\) portals$/\1/p')
  is "$tile: portals" "$((${portals:-0} >= 4))" 1
  out=$(NB_BENCH_PLANT=1 "$probe" "$tile" 150 "$@" 2>&1)
  is "$tile: the planted fault is seen" \
     "$(printf '%s\n' "$out" | grep '^blocks of' | grep -vc ' 0 portal costs differ')" "$#"
}

tiled_sample >big.map
ok "cut into tiles of 48" navbake world cut big.map --tile 48 -c 8 -o w
ok "tile 1,1 baked" navbake world tile w/world.yaml 1 1 -o out -q
checks out/tiles/1_1.nbb 1 2 3

maps=${NB_SHARED:+$NB_SHARED/maps}
if [ -n "$maps" ] && [ -f "$maps/street/Paris_0_512.map" ] && command -v python3 >/dev/null 2>&1; then
  gen=$top_srcdir/tests/bench/world-gen.py
  ok "world-gen.py: Paris in tiles of 256" python3 "$gen" "$maps/street/Paris_0_512.map" 768 256 p
  ok "street tile 1,1 baked" navbake world tile p/world.yaml 1 1 -o pout -q
  checks pout/tiles/1_1.nbb 2 4 8
else
  skip "no ../shared street map: the street tile's checks"
fi
finish
