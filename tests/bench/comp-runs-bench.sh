#!/bin/sh
# comp-runs-bench.sh [SIDE TILE]: the queries that read component layers on
# a world's tile bundle, its layers stored by runs (version 2) against the
# same bundle with them packed (version 1), under callgrind in one run
# (tests/bench/bench_comp_runs; the figures in
# tests/bench/results/world-bench.md).  The tile is (1, 1) of a world cut
# from dao/brc202d mirrored to SIDE x SIDE cells in tiles of TILE (default
# 2048 1024).  Run from a built tree.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NB_SHARED:-$top/../shared}
side=${1:-2048} tile=${2:-1024} queries=${NB_QUERIES:-200}
dir=$(mktemp -d "${TMPDIR:-/tmp}/comp-runs.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
python3 "$top/tests/bench/world-gen.py" "$shared/maps/dao/brc202d.map" "$side" "$tile" "$dir/w" >/dev/null
tools/navbake world tile "$dir/w/world.yaml" 1 1 -o "$dir/out" -q
tools/navbake info "$dir/out/tiles/1_1.nbb" | grep ' components '
valgrind --tool=callgrind --callgrind-out-file="$dir/cg" tests/bench/bench_comp_runs \
  "$dir/out/tiles/1_1.nbb" "$queries" 2>/dev/null
echo
echo "| query | packed (version 1) | by runs (version 2) | change |"
echo "|---|---:|---:|---:|"
callgrind_annotate --inclusive=yes "$dir/cg" 2>/dev/null |
  awk '$1 ~ /^[0-9,]+$/ && match($0, /bench_comp_runs.c:(packed|runs)_[a-z]+/) {
         n = $1; gsub(",", "", n); v[substr($0, RSTART + 18, RLENGTH - 18)] = n }
       END { split("reach aa haa nearest", k, " ")
             split("reachability (x100)|Annotated A*|HAA*|nearest, reachable", name, "|")
             for (i = 1; i <= 4; i++) {
               p = v["packed_" k[i]]; r = v["runs_" k[i]]
               printf "| %s | %d | %d | %+.2f%% |\n", name[i], p, r, 100 * (r - p) / p } }'
