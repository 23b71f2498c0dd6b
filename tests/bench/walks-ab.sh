#!/bin/sh
# walks-ab.sh BASE OUT [ROUNDS]: world HAA* corner to corner
# (tests/bench/bench_world_haa, NB_BENCH_REFINED_ONLY=1) on the world
# linked in OUT, in turns: BASE (a bench_world_haa built from the base
# commit, e.g. in a `git worktree add` of it), this tree's, and this tree's
# with NB_BENCH_WALKS=0 (no stretch copied from the walks the workspace
# keeps), ROUNDS rounds (2).  With CALLGRIND=1, one round under
# valgrind --tool=callgrind --toggle-collect=fifteen instead, the counts'
# files left in the current folder (walks-ab.base.out, walks-ab.new.out).
# Run from the top of a built tree (make tests/bench/bench_world_haa), e.g.
#     sh tests/bench/walks-ab.sh /tmp/base/tests/bench/bench_world_haa /work/tmp/wblocks/dao32k/out
set -e
base=$1 out=$2 rounds=${3:-2}
[ -x "$base" ] && [ -f "$out/world.nbw" ] || {
  echo "usage: walks-ab.sh BASE OUT [ROUNDS]" >&2; exit 2; }
new=$(pwd)/tests/bench/bench_world_haa
[ -x "$new" ] || { echo "walks-ab.sh: run from a built tree's top" >&2; exit 2; }
export NB_BENCH_REFINED_ONLY=1
uptime
if [ "$CALLGRIND" = 1 ]; then
  for v in base new; do
    if [ $v = base ]; then b=$base; else b=$new; fi
    echo "== $v"
    nice -n 10 valgrind --tool=callgrind --callgrind-out-file=walks-ab.$v.out \
      --toggle-collect=fifteen "$b" "$out" 2>&1 | grep -v '^==[0-9]*== [^I]'
  done
else
  r=1
  while [ $r -le "$rounds" ]; do
    echo "== round $r: base"; nice -n 10 "$base" "$out"
    echo "== round $r: this tree"; nice -n 10 "$new" "$out"
    echo "== round $r: this tree, NB_BENCH_WALKS=0"; NB_BENCH_WALKS=0 nice -n 10 "$new" "$out"
    r=$((r + 1))
  done
fi
uptime
