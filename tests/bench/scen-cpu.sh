#!/bin/sh
# scen-cpu.sh ROUNDS LAYER SCEN NAVBAKE...: the user CPU seconds of `navbake
# scen -m optimal LAYER SCEN` for each navbake build, the builds in turns in
# each of ROUNDS rounds, pinned to one CPU where taskset is there (one
# process: its user time is the query thread's, plus loading the layer).
# Builds of other commits: copy their tools/navbake out of their trees
# (tests/bench/old-build.sh, or a `git worktree add`).  A short file times
# too coarsely (10 ms): repeat its lines, e.g.
#     { head -1 F.scen; for i in 1 2 3 4 5; do tail -n +2 F.scen; done; } >F5.scen
# Compare only within one run (tests/bench/results/optimal-bench.md, round 11).
set -e
[ $# -ge 4 ] || { echo "usage: scen-cpu.sh ROUNDS LAYER SCEN NAVBAKE..." >&2; exit 2; }
rounds=$1 layer=$2 scen=$3
shift 3
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"
echo "# scen-cpu.sh $layer $scen, $(date -u), load: $(cat /proc/loadavg)"
r=1
while [ "$r" -le "$rounds" ]; do
  for b in "$@"; do
    # /usr/bin/time's line is the last of stderr; the answers go to /dev/null.
    t=$( { /usr/bin/time -f "%U" $pin "$b" scen -m optimal "$layer" "$scen" >/dev/null; } 2>&1 | tail -1)
    echo "round $r $b $t"
  done
  r=$((r + 1))
done
echo "# end $(date -u), load: $(cat /proc/loadavg)"
