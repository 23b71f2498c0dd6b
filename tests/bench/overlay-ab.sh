#!/bin/sh
# overlay-ab.sh OLD NEW OUT [ROUNDS]: world HAA* corner to corner under an
# overlay (bench_world_haa's NB_BENCH_BLOCK: 8 x 8 cells inside a tile on
# the path, then across a tile border on it), with the bench_world_haa of
# two build trees OLD and NEW (the same bench source built against each
# library: copy tests/bench/bench_world_haa.c into OLD before its build),
# in turns, ROUNDS (2) times; OUT is a linked world (world.nbw, tiles/).
# Figures are thread CPU times: the machine may be loaded.  NB_BENCH_AFTER:
# the queries timed after the first under each overlay (15).
set -e
old=$1 new=$2 out=$3 rounds=${4:-2}
[ -x "$old/tests/bench/bench_world_haa" ] && [ -x "$new/tests/bench/bench_world_haa" ] &&
  [ -f "$out/world.nbw" ] || { echo "usage: overlay-ab.sh OLD NEW OUT [ROUNDS]" >&2; exit 2; }
uptime
r=1
while [ "$r" -le "$rounds" ]; do
  for where in inside border; do
    for tree in "$old" "$new"; do
      echo "== round $r, $where, $tree"
      NB_BENCH_AFTER=${NB_BENCH_AFTER:-15} NB_BENCH_BLOCK=$where "$tree/tests/bench/bench_world_haa" "$out" | grep -E "^(blocked|query|under)"
    done
  done
  r=$((r + 1))
done
uptime
