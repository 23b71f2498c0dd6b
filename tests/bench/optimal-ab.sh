#!/bin/sh
# optimal-ab.sh COMMIT [LINES] [ROUNDS] [MAP...]: tests/bench/bench_optimal
# (the optimal layer against Annotated A*) as built at COMMIT and as built
# in this tree, in turns, map by map, ROUNDS rounds (2) of at most LINES
# scenario lines a map (100), each timed by the thread's CPU time (-c).
# Each build bakes its own layers, so the old one's bake and query are
# COMMIT's; Annotated A* runs in both, so each output's ratio is its own
# run's.  A ratio between the builds means something only within one run.
# Default maps: street/Paris_0_512, sc1/AcrosstheCape and the benchmark's
# others.  Run from the top of a built tree (make), e.g.
#     sh tests/bench/optimal-ab.sh 4ca11b9 100 2
# (tests/bench/results/optimal-bench.md, "Street maps").  AB_FLAGS adds
# options to both runs, e.g. AB_FLAGS=-P for queries under a kept overlay.
set -e
commit=$1 lines=${2:-100} rounds=${3:-2}
[ -n "$commit" ] || { echo "usage: optimal-ab.sh COMMIT [LINES] [ROUNDS] [MAP...]" >&2; exit 2; }
shift; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
maps=${*:-"street/Paris_0_512 sc1/AcrosstheCape dao/brc202d dao/orz900d dao/ost003d
 mazes/maze512-4-0 rooms/8room_000 bg/AR0042SR wc3/battleground"}
top=$(pwd)
[ -x "$top/tests/bench/bench_optimal" ] || make tests/bench/bench_optimal >/dev/null
want=$(git -C "$top" rev-parse "$commit^{commit}")
old=${TMPDIR:-/tmp}/navbake-opt-$want
if [ ! -x "$old/tests/bench/bench_optimal" ]; then
  rm -rf "$old"
  mkdir -p "$old"
  git -C "$top" archive "$want" | tar -x -C "$old"
  (cd "$old" && autoreconf -fi >/dev/null 2>&1 && ./configure -q &&
   make -j2 tests/bench/bench_optimal >/dev/null)
fi
shared=${NB_SHARED:-$top/../shared}
echo "# optimal-ab.sh $commit ($want) against $(git -C "$top" rev-parse --short HEAD)" \
     "$(git -C "$top" diff --quiet HEAD || echo '(with changes)'), $(date -u)"
grep -m1 'model name' /proc/cpuinfo || true
echo "load: $(cat /proc/loadavg)"
r=1
while [ $r -le "$rounds" ]; do
  for m in $maps; do
    for v in old new; do
      if [ $v = old ]; then b=$old; else b=$top; fi
      echo "## round $r, $m, $v"
      NB_SHARED=$shared "$b/tests/bench/bench_optimal" ${AB_FLAGS:-} -c -n "$lines" -m "$m" | grep -v '^## bench\|^At most\|^Lengths'
    done
  done
  r=$((r + 1))
done
