#!/bin/sh
# bench.sh SRCDIR: the C# binding's overhead per query against the C call
# on the same queries (bench/results.md): bench_c.c and Bench.cs run the
# lines of a scenario file (lak303d of ../shared, 1,061 lines) as Annotated
# A*, nearest-cell and straight-line queries, ROUNDS times each (default
# 20, NB_BENCH_ROUNDS), in turns, and the best round of each is compared.
# Run from the build tree (make bench-csharp).
set -e
src=${1:-.}
b=${top_builddir:-.}
rounds=${NB_BENCH_ROUNDS:-20}
map=${NB_SHARED:-$src/../shared}/maps/dao/lak303d.map
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nbbench-cs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cs=$src/lib/bindings/csharp
mcs -nologo -target:library -unsafe -langversion:7 -out:"$tmp/Navbake.dll" "$cs"/*.cs
mcs -nologo -optimize+ -langversion:7 -r:"$tmp/Navbake.dll" -out:"$tmp/bench.exe" "$cs/bench/Bench.cs"
${CC:-cc} -O2 -I"$src/lib/include" "$cs/bench/bench_c.c" -o "$tmp/bench_c" -L"$b/lib/.libs" -lnavbake
"$b/tools/mkclear" -q "$map" -o "$tmp/l.nbk"
LD_LIBRARY_PATH=$b/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
MONO_PATH=$tmp
export LD_LIBRARY_PATH MONO_PATH
for turn in 1 2 3; do
  "$tmp/bench_c" "$tmp/l.nbk" "$map.scen" "$rounds" > "$tmp/c$turn"
  mono "$tmp/bench.exe" "$tmp/l.nbk" "$map.scen" "$rounds" > "$tmp/cs$turn"
done
echo "queries: $(($(wc -l < "$map.scen") - 1)) lines of $(basename "$map.scen"), best of $rounds rounds, 3 turns"
echo "family   C ns/query  C# ns/query  overhead ns  (best turn of each)   same answers"
for fam in aa nearest line; do
  c=$(cat "$tmp"/c? | awk -v f=$fam '$1 == f {print $2}' | sort -n | head -1)
  s=$(cat "$tmp"/cs? | awk -v f=$fam '$1 == f {print $2}' | sort -n | head -1)
  same=$(awk -v f=$fam '$1 == f {print $3}' "$tmp/c1")
  same2=$(awk -v f=$fam '$1 == f {print $3}' "$tmp/cs1")
  awk -v f=$fam -v c="$c" -v s="$s" -v a="$same" -v z="$same2" 'BEGIN {
    printf "%-8s %10.1f  %11.1f  %11.1f   %s\n", f, c, s, s - c, (a == z ? "yes" : "NO " a " " z) }'
done
grep gen0 "$tmp/cs1"
