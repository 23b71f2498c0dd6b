#!/bin/sh
# stream-bench.sh [SIZE:TILE [BENCH_STREAM OPTIONS...]]: the streaming
# benchmark (issue 31, item 6; tests/bench/results/stream-bench.md).  A
# shared map is tiled with mirroring to SIZE x SIZE cells in tiles of TILE
# (tests/bench/world-gen.py), planned with navbake world plan --ninja and
# baked with ninja -j2, then tests/bench/bench_stream walks it (its options
# after SIZE:TILE).  Default 8192:1024.  Run from a built tree:
#   make bench-stream    (BENCH_ARGS="8192:1024 -s 8")
# NB_WORLD_MAP chooses the map (default street/Paris_0_512 of the shared
# maps: its edges are open, so the copies join; a DAO map's walled edges
# leave no path across the world).  NB_STREAM_DIR keeps the baked world
# there and reuses it when its world.nbw is there already (a 8192^2 bake
# takes many minutes on a loaded machine); else it is baked in $TMPDIR and
# removed.  NB_STREAM_AB=N walks the world 2N times in turns, without and
# with -t (nb_world_trim after each long query), so that the two are
# compared in one run on one machine's load.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NB_SHARED:-$top/../shared}
map=${NB_WORLD_MAP:-$shared/maps/street/Paris_0_512.map}
navbake=$(cd "${NB_TOOLS:-tools}" && pwd)/navbake
bench=$(cd "${NB_BENCH:-tests/bench}" && pwd)/bench_stream
[ -f "$map" ] || { echo "stream-bench.sh: $map: no such map" >&2; exit 2; }
command -v ninja >/dev/null || { echo "stream-bench.sh: ninja is not installed" >&2; exit 2; }
st=${1:-8192:1024}
[ $# -gt 0 ] && shift
side=${st%:*} tile=${st#*:}
if [ -n "$NB_STREAM_DIR" ]; then
  w=$NB_STREAM_DIR/w$side-$tile
  mkdir -p "$w"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/stream-bench.XXXXXX")
  trap 'rm -rf "$dir"' EXIT INT TERM
  w=$dir/w$side-$tile
fi
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "map: $map, tiled to $side^2 in tiles of $tile"
if [ -f "$w/out/world.nbw" ]; then
  echo "world: baked before, in $w/out"
else
  python3 "$top/tests/bench/world-gen.py" "$map" "$side" "$tile" "$w"
  "$navbake" world plan "$w/world.yaml" -o "$w/out" --ninja "$w/out.ninja" -q
  t0=$(date +%s)
  ninja -f "$w/out.ninja" -j 2 >"$w/out.log"
  echo "world: baked by ninja -j2 in $(( $(date +%s) - t0 )) s"
fi
echo
if [ -n "$NB_STREAM_AB" ]; then
  i=0
  while [ "$i" -lt "$NB_STREAM_AB" ]; do
    i=$((i + 1))
    echo "## turn $i, no trim (load $(cut -d' ' -f1-3 /proc/loadavg))"
    "$bench" "$w/out" "$@"
    echo "## turn $i, -t (load $(cut -d' ' -f1-3 /proc/loadavg))"
    "$bench" "$w/out" "$@" -t
  done
else
  "$bench" "$w/out" "$@"
fi
