#!/bin/sh
# far-ab.sh COMMIT BUNDLE [ROUNDS] [REPEATS]: HAA*'s longest queries
# (tests/bench/bench_far) on BUNDLE with the library as it was at COMMIT
# and as it is in this tree, in turns, ROUNDS rounds (3) of REPEATS
# repeats (50) each, pinned to one CPU where taskset is there; then for
# each query the least of the rounds' least times and the median of their
# medians.  A ratio between two builds means something only within one
# run: this VM's speed moves by tens of per cent from minute to minute.
# Run from the top of a built tree (make), e.g.
#     sh tests/bench/far-ab.sh 8260aec /tmp/big/b16kL.nbk
set -e
commit=$1 bundle=$2 rounds=${3:-3} repeats=${4:-50}
[ -n "$commit" ] && [ -f "$bundle" ] || {
  echo "usage: far-ab.sh COMMIT BUNDLE [ROUNDS] [REPEATS]" >&2; exit 2; }
top=$(pwd)
[ -f "$top/lib/.libs/libnavbake.a" ] || { echo "far-ab.sh: run from a built tree's top" >&2; exit 2; }
work=${TMPDIR:-/tmp}/far-ab.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM
old=${TMPDIR:-/tmp}/navbake-$commit
sh "$top/tests/bench/old-build.sh" "$top" "$commit" "$old"
libs="$(pkg-config --libs zlib yaml-0.1 sqlite3 2>/dev/null || echo -lz -lyaml -lsqlite3) -lm -pthread"
for v in old new; do
  if [ $v = old ]; then lib=$old/lib/.libs/libnavbake.a; else lib=$top/lib/.libs/libnavbake.a; fi
  ${CC:-cc} -O2 -I"$top/lib/include" -o "$work/far_$v" "$top/tests/bench/bench_far.c" "$lib" $libs
done
pin=; command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"
i=0
while [ $i -lt "$rounds" ]; do
  for v in old new; do
    # bench_far's rows: | query | flags | level | expanded | nodes | length | cells | first | least | median | mean |
    $pin "$work/far_$v" -n "$repeats" "$bundle" | grep '^| top' |
      awk -F'|' -v v=$v '{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3);
                           printf "%s\t%s, %s\t%s\t%s\n", v, $2, $3, $10, $11 }'
  done
  i=$((i + 1))
done > "$work/runs"
echo "bench_far -n $repeats $bundle: $commit (old) and this tree (new), $rounds rounds in turns"
echo
echo "| query | old: least / median of medians us | new: least / median of medians us | old / new (medians) |"
echo "|---|---:|---:|---:|"
cut -f2 "$work/runs" | sort -u | while read -r q; do
  for v in old new; do
    grep "^$v	$q	" "$work/runs" | cut -f3 | sort -n | head -1 > "$work/least.$v"
    grep "^$v	$q	" "$work/runs" | cut -f4 | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}' > "$work/med.$v"
  done
  awk -v q="$q" -v lo="$(cat "$work/least.old")" -v mo="$(cat "$work/med.old")" \
      -v ln="$(cat "$work/least.new")" -v mn="$(cat "$work/med.new")" \
      'BEGIN { printf "| %s | %d / %d | %d / %d | %.2f |\n", q, lo, mo, ln, mn, mo / mn }'
done
