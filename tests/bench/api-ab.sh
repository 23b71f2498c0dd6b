#!/bin/sh
# api-ab.sh [--instructions] COMMIT MAP [ROUNDS] [REPEATS]: every query family's time per
# query (tests/bench/bench_api_ab, written for both the 0.2 and the 1.0
# API) with the library as it was at COMMIT and as it is in this tree, in
# turns, ROUNDS rounds (3) of REPEATS repeats (3) each, pinned to one CPU
# where taskset is there; the queries are MAP's scenario lines (MAP.scen
# beside it), baked once with this tree's tools (the bundle format is the
# same for both).  Prints, per family, each build's least and median of
# the rounds' means and the ratio of the medians; the sums of the answers
# must agree.  The "overlay" families ask AA*, HAA* and the optimal layer
# the same queries under an overlay of 4 x 4 blocks (bench_api_ab.c says
# where).  With --instructions, valgrind's callgrind counts the
# instructions each family spends a query instead (the difference between
# runs of 200 and 100 queries, halved and over 100: the opens and the
# bundle's checks left out), which do not move with the machine's load.
# Run from the top of a built tree, e.g.
#     sh tests/bench/api-ab.sh 2d60b04 ../shared/maps/dao/brc202d.map
set -e
instr=no
[ "$1" = --instructions ] && { instr=yes; shift; }
commit=$1 map=$2 rounds=${3:-3} repeats=${4:-3}
[ -n "$commit" ] && [ -f "$map" ] && [ -f "$map.scen" ] || {
  echo "usage: api-ab.sh COMMIT MAP [ROUNDS] [REPEATS]" >&2; exit 2; }
top=$(pwd)
[ -f "$top/lib/.libs/libnavbake.a" ] || { echo "api-ab.sh: run from a built tree's top" >&2; exit 2; }
work=${TMPDIR:-/tmp}/api-ab.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM
old=${TMPDIR:-/tmp}/navbake-$commit
sh "$top/tests/bench/old-build.sh" "$top" "$commit" "$old"
"$top/tools/mkclear" -q --optimal "$map" -o "$work/level.nbk"
"$top/tools/mkabstract" -q "$work/level.nbk"
"$top/tools/mkabstract" -q --forest "$top/data/forest.yaml" --agent-radius 0.5 -o "$work/forest.nbk"
libs="$(pkg-config --libs zlib yaml-0.1 sqlite3 2>/dev/null || echo -lz -lyaml -lsqlite3) -lm -pthread"
cc -O2 -I"$old/lib/include" -o "$work/ab_old" "$top/tests/bench/bench_api_ab.c" "$old/lib/.libs/libnavbake.a" $libs
cc -O2 -I"$top/lib/include" -o "$work/ab_new" "$top/tests/bench/bench_api_ab.c" "$top/lib/.libs/libnavbake.a" $libs
if [ $instr = yes ]; then
  irs() { # BUILD FAMILY QUERIES: the instructions of a run
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$work/ab_$1" -n 1 -f "$2" -q "$3" \
      "$work/level.nbk" "$map.scen" "$work/forest.nbk" >/dev/null 2>"$work/cg.err"
    sed -n 's/^summary: //p' "$work/cg"
  }
  echo "instructions a query (callgrind; 200 queries less 100, over 100) on $(basename "$map"): $commit (old) and this tree (new)"
  echo
  echo "| family | old | new | new / old |"
  echo "|---|---:|---:|---:|"
  for f in aa haa "haa straightened" optimal nearest line random forest \
           "aa overlay" "haa overlay" "optimal overlay"; do
    o=$(( ($(irs old "$f" 200) - $(irs old "$f" 100)) / 100 ))
    n=$(( ($(irs new "$f" 200) - $(irs new "$f" 100)) / 100 ))
    awk -v f="$f" -v o=$o -v n=$n 'BEGIN { printf "| %s | %d | %d | %.3f |\n", f, o, n, n / o }'
  done
  exit 0
fi
pin=; command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"
i=0
while [ $i -lt "$rounds" ]; do
  for v in old new; do
    $pin "$work/ab_$v" -n "$repeats" "$work/level.nbk" "$map.scen" "$work/forest.nbk" |
      awk -F'|' -v v=$v 'NR > 2 { gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $4); gsub(/^ +| +$/, "", $5);
                                  printf "%s\t%s\t%s\t%s\n", v, $2, $4, $5 }'
  done
  i=$((i + 1))
done > "$work/runs"
echo "bench_api_ab -n $repeats on $(basename "$map") ($(grep -c . "$map.scen") scenario lines): $commit (old) and this tree (new), $rounds rounds in turns"
echo
echo "| family | old: least / median us | new: least / median us | old / new (medians) | answers agree |"
echo "|---|---:|---:|---:|---|"
cut -f2 "$work/runs" | awk '!seen[$0]++' | while read -r f; do
  for v in old new; do
    grep "^$v	$f	" "$work/runs" | cut -f4 | sort -n | head -1 > "$work/least.$v"
    grep "^$v	$f	" "$work/runs" | cut -f4 | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}' > "$work/med.$v"
    grep "^$v	$f	" "$work/runs" | cut -f3 | sort -u > "$work/sum.$v"
  done
  agree=no; cmp -s "$work/sum.old" "$work/sum.new" && agree=yes
  awk -v f="$f" -v lo="$(cat "$work/least.old")" -v mo="$(cat "$work/med.old")" \
      -v ln="$(cat "$work/least.new")" -v mn="$(cat "$work/med.new")" -v ag=$agree \
      'BEGIN { printf "| %s | %.3f / %.3f | %.3f / %.3f | %.3f | %s |\n", f, lo, mo, ln, mn, mo / mn, ag }'
done
