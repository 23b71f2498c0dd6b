#!/bin/sh
# search-ab.sh [--time ROUNDS] [--queries N] [--map MAP]... COMMIT...: Annotated
# A* and HAA* (tests/bench/bench_search_ab, written for the 0.1, 0.2 and
# 1.0 APIs) with the library of each COMMIT and of this tree, in one run.
# Each build bakes its own bundles with its own tools (mkclear, mkabstract
# -c 10 -Q high, and --levels 1 --landmarks 0 where it has them, so every
# build searches the same graph), from the agent set below: sizes 1 and 2
# of {ground, swamp}; builds with terrain costs also bake {ground, trees}
# with trees costing 3 into a bundle of their own, and are asked those too.
# The queries are N (200) scenario lines of each MAP (default
# ../shared/maps/dao/brc202d.map and ../shared/maps/sc1/AcrosstheCape.map;
# MAP.scen beside it), spread over the file, whose ends the agent stands
# on and are joined.  Prints, per query kind, each build's instructions a
# query (valgrind's callgrind, the measured pass alone: the workspace is
# warmed by a pass before it; the counts do not move with the machine's
# load) and the sums of lengths and expansions, which must agree between
# builds that search the same way.  With --time, also ROUNDS rounds of
# thread CPU times (the driver's clock), the builds in turns in each, pinned to one CPU where taskset
# is there: the median of the rounds' best-of-3 means (microseconds).
# Old builds go to ${NB_AB_BUILDS:-${TMPDIR:-/tmp}}/navbake-COMMIT (tests/bench/old-build.sh;
# a tree built there another way is used when its .commit names the commit).
# Run from the top of a built tree, e.g.
#     sh tests/bench/search-ab.sh 8fc537e 1b12694 89beecd
set -e
rounds=0 queries=200 maps=
while [ $# -gt 0 ]; do
  case $1 in
    --time) rounds=$2; shift 2 ;;
    --queries) queries=$2; shift 2 ;;
    --map) maps="$maps $2"; shift 2 ;;
    -*) echo "usage: search-ab.sh [--time ROUNDS] [--queries N] [--map MAP]... COMMIT..." >&2; exit 2 ;;
    *) break ;;
  esac
done
top=$(pwd)
[ -f "$top/lib/.libs/libnavbake.a" ] || { echo "search-ab.sh: run from a built tree's top" >&2; exit 2; }
[ -n "$maps" ] || maps="$top/../shared/maps/dao/brc202d.map $top/../shared/maps/sc1/AcrosstheCape.map"
for m in $maps; do
  [ -f "$m" ] && [ -f "$m.scen" ] || { echo "search-ab.sh: no $m or $m.scen" >&2; exit 2; }
done
command -v valgrind >/dev/null 2>&1 || { echo "search-ab.sh: needs valgrind" >&2; exit 2; }
work=${TMPDIR:-/tmp}/search-ab.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM
cat > "$work/agents.yaml" <<'EOF'
agents:
  - {name: small, size: 1, capability: [ground, swamp]}
  - {name: large, size: 2, capability: [ground, swamp]}
EOF
cat "$work/agents.yaml" - > "$work/cost-agents.yaml" <<'EOF'
  - {name: small-costs, size: 1, capability: [ground, trees], costs: {trees: 3}}
  - {name: large-costs, size: 2, capability: [ground, trees], costs: {trees: 3}}
EOF
libs="$(pkg-config --libs zlib sqlite3 2>/dev/null || echo -lz -lsqlite3) -lm -pthread"

# The builds: each COMMIT's, then this tree's ("tree").
builds=
dir_of() { if [ "$1" = tree ]; then echo "$top"; else echo "${NB_AB_BUILDS:-${TMPDIR:-/tmp}}/navbake-$1"; fi; }
for c in "$@"; do
  d=$(dir_of "$c")
  # A build made another way (a git worktree built in place) will do when it says its commit.
  [ "$(cat "$d/.commit" 2>/dev/null)" = "$(git -C "$top" rev-parse "$c^{commit}")" ] &&
    [ -f "$d/lib/.libs/libnavbake.a" ] && [ -x "$d/tools/mkclear" ] && [ -x "$d/tools/mkabstract" ] ||
    sh "$top/tests/bench/old-build.sh" "$top" "$c" "$d"
  builds="$builds $c"
done
builds="$builds tree"
for v in $builds; do
  d=$(dir_of $v)
  h=$d/lib/include; [ -f "$h/navbake.h" ] || h=$d/lib
  costs=; grep -q 'const double \*costs;' "$h/navbake.h" && costs=-DHAVE_COSTS
  echo "${costs:+yes}" > "$work/costs.$v"
  cc -O2 $costs -I"$h" -o "$work/ab_$v" "$top/tests/bench/bench_search_ab.c" "$d/lib/.libs/libnavbake.a" $libs
  for m in $maps; do
    b=$work/$v.$(basename "$m" .map)
    levels=; "$d/tools/mkabstract" --help | grep -q -- --levels && levels="--levels 1 --landmarks 0"
    "$d/tools/mkclear" -q -a "$work/agents.yaml" "$m" -o "$b.nbk"
    "$d/tools/mkabstract" -q -c 10 -Q high $levels "$b.nbk"
    if [ -n "$costs" ]; then
      "$d/tools/mkclear" -q -a "$work/cost-agents.yaml" "$m" -o "$b.costs.nbk"
      "$d/tools/mkabstract" -q -c 10 -Q high $levels "$b.costs.nbk"
    fi
  done
done

# The kinds of query: family, size, capability, costs (terrain 3, trees, costing 3).
kinds="aa:1:3: aa:2:3: haa:1:3: haa:2:3: aa:1:9:3=3 aa:2:9:3=3 haa:1:9:3=3 haa:2:9:3=3"
run() { # BUILD MAP KIND [valgrind...]: the driver's line
  v=$1 m=$2 k=$3; shift 3
  f=${k%%:*} r=${k#*:}; s=${r%%:*}; r=${r#*:}; cap=${r%%:*}; t=${r#*:}
  b=$work/$v.$(basename "$m" .map).nbk; set -- "$@" "$work/ab_$v" -f $f -s $s -m $cap -q $queries
  [ -n "$t" ] && { b=${b%.nbk}.costs.nbk; set -- "$@" -t $t; }
  "$@" "$b" "$m.scen"
}
for m in $maps; do
  echo "## $(basename "$m"): instructions a query (callgrind), $queries queries"
  echo
  printf '| query |'; for v in $builds; do printf ' %s |' $v; done; echo
  printf '|---|'; for v in $builds; do printf -- '---:|'; done; echo
  for k in $kinds; do
    label=$(echo $k | awk -F: '{ printf "%s size %s {%s}%s", $1 == "aa" ? "AA*" : "HAA*", $2,
                                 $3 == 3 ? "ground, swamp" : "ground, trees", $4 != "" ? " trees x3" : "" }')
    printf '| %s |' "$label"
    for v in $builds; do
      if [ "${k##*:}" != "" ] && [ -z "$(cat "$work/costs.$v")" ]; then printf ' |'; continue; fi
      run $v "$m" $k valgrind --tool=callgrind --toggle-collect=timed_pass \
        --callgrind-out-file="$work/cg.$v" > "$work/line.$v.$k" 2>"$work/cg.err"
      ir=$(sed -n 's/^summary: //p' "$work/cg.$v")
      n=$(sed 's/.*: \([0-9]*\) queries.*/\1/' "$work/line.$v.$k")
      printf ' %d |' $((ir / n))
    done
    echo
  done
  echo
  echo "The sums of each build's answers (queries, found, lengths, expansions):"
  echo
  for k in $kinds; do
    for v in $builds; do
      [ -f "$work/line.$v.$k" ] && echo "    $v: $(cat "$work/line.$v.$k")"
    done
  done
  echo
  [ "$rounds" -gt 0 ] || continue
  pin=; command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"
  i=0
  while [ $i -lt "$rounds" ]; do
    for k in $kinds; do
      for v in $builds; do
        if [ "${k##*:}" != "" ] && [ -z "$(cat "$work/costs.$v")" ]; then continue; fi
        printf '%s\t%s\t' $k $v
        run $v "$m" $k $pin | sed 's/.* \([0-9.]*\) us$/\1/'
      done
    done
    i=$((i + 1))
  done > "$work/times"
  echo "Thread CPU time, us a query: median of $rounds rounds in turns (each the best of 1 pass after a warm one)"
  echo
  printf '| query |'; for v in $builds; do printf ' %s |' $v; done; echo
  printf '|---|'; for v in $builds; do printf -- '---:|'; done; echo
  for k in $kinds; do
    printf '| %s |' $k
    for v in $builds; do
      grep "^$k	$v	" "$work/times" | cut -f3 | sort -n |
        awk '{ a[NR] = $1 } END { if (NR) printf " %.1f |", a[int((NR + 1) / 2)]; else printf " |" }'
    done
    echo
  done
  echo
done
