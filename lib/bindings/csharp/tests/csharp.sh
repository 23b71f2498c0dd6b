#!/bin/sh
# csharp.sh: the C# binding (lib/bindings/csharp) compiled by mcs and its
# test program run under mono against the build tree's libnavbake: struct
# layouts against the C compiler's (layout.c), 1,000 scenario lines against
# navbake scen's lengths (lak303d of ../shared/maps, or, without it, 1,000
# pairs of cells navbake random draws on data/sample.map) and 1,000 on a
# Tiled level, every family
# against the navbake command's answers, errors and closed handles, a
# world of tiles baked here against the same map baked whole (its
# reachability, Annotated A*, nearest, line, random and HAA* across the
# tiles, the budget and resident bytes), and the bake
# library: the scenario map baked in-process answering navbake scen's lengths.
# bootstrap.sh installs mono-mcs and mono-runtime, so this does not skip.
. "$top_srcdir/tests/support/lib.sh"
cs=$top_srcdir/lib/bindings/csharp
data=$top_srcdir/data
command -v mcs >/dev/null 2>&1 && command -v mono >/dev/null 2>&1 || {
  echo "not ok 1 - mcs and mono: run build-aux/bootstrap.sh"; echo "1..1"; exit 1; }

ok "Navbake.dll compiles" sh -c "mcs -nologo -target:library -unsafe -langversion:7 -warnaserror \
  -out:'$tmp/Navbake.dll' '$cs'/*.cs"
ok "the test program compiles" mcs -nologo -langversion:7 -r:"$tmp/Navbake.dll" -out:"$tmp/tests.exe" "$cs/tests/Tests.cs"
ok "layout.c compiles" ${CC:-cc} -I"$top_srcdir/lib/include" "$cs/tests/layout.c" -o "$tmp/layout"
"$tmp/layout" > "$tmp/layout.txt"

# Every public function of navbake.h is called by the binding's classes,
# or README.md's "Left out" section names it and says why.
grep -E '^[a-z][a-z0-9_ ]*[ *]nb_[a-z0-9_]+\(' "$top_srcdir/lib/include/navbake.h" | grep -v '^typedef' |
  sed -E 's/^[a-z][a-z0-9_ ]*[ *](nb_[a-z0-9_]+)\(.*/\1/' | sort -u > "$tmp/funcs"
missing=
for f in $(cat "$tmp/funcs"); do
  cat "$cs"/*.cs | grep -v 'extern' | grep -q "Native\.$f(" || grep -q "^- \`$f\`" "$cs/README.md" || missing="$missing $f"
done
is "every function of navbake.h ($(wc -l < "$tmp/funcs" | tr -d ' ')) is called by the binding or listed as left out" "$missing" ""

# Every family's sections in one bundle.
s=$tmp/s.nbk
ok "the sample bundle bakes" sh -c "mkclear -q --optimal '$data/sample.map' -l '$data/legend.yaml' -a '$data/sample-agents.yaml' -o '$s' &&
  mkabstract -q '$s' && mkperim -q -m '$data/models/tank.yaml' -r 8 -o '$s' &&
  mkhitcheck -q -u '$data/units/jeep.yaml' -o '$s' && mkabstract -q --forest '$data/forest.yaml' -r 0,1.5 -o '$s'"

# pairs_scen BUNDLE X,Y MAP W H OUT: 1,000 pairs of distinct cells of the
# component of cell X,Y, drawn by navbake random, as the scenario file OUT
# with the lengths navbake scen finds for them (the lines written with
# length 0 and scen -v, which lists each line's length); the lengths one a
# line in OUT.lengths.
pairs_scen() {
  navbake random -j -n 4000 --seed 34 -f "$2" "$1" | tr -d '\n ' |
    sed 's/.*"picks":\[//; s/\]\]}.*//; s/\],\[/\n/g; s/\[//g' |
    awk -F, -v m="$3" -v w="$4" -v h="$5" 'NR % 2 == 1 {x = $1; y = $2; next}
      (x != $1 || y != $2) && k++ < 1000 {printf "0\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t0\n", m, w, h, x, y, $1, $2}' > "$6.pairs"
  { echo "version 1"; cat "$6.pairs"; } > "$6.zero"
  navbake scen -v -T 0 "$1" "$6.zero" | sed -n 's/^differs .*: length \([0-9.]*\), the file says.*/\1/p' > "$6.lengths"
  { echo "version 1"
    paste "$6.pairs" "$6.lengths" | awk -F'\t' '{OFS = "\t"; $9 = $10; NF = 9; print}'; } > "$6"
}

# 1,000 scenario lines, with the lengths navbake scen finds for them.
lak=${NB_SHARED:+$NB_SHARED/maps/dao/lak303d.map}
if [ -n "$lak" ] && [ -f "$lak" ]; then
  head -1001 "$lak.scen" > "$tmp/l.scen"
  scenmap=$lak
  ok "lak303d bakes" mkclear -q "$lak" -o "$tmp/l.nbk"
  status navbake scen "$tmp/l.nbk" "$tmp/l.scen"
  like "navbake scen: the 1,000 lines match the file" "$out" "1000 run, 0 differ"
  awk -F'\t' 'NR == 1 {print; next} {OFS = "\t"; $9 = "0"; print}' "$tmp/l.scen" > "$tmp/z.scen"
  navbake scen -v -T 0 "$tmp/l.nbk" "$tmp/z.scen" |
    sed -n 's/^differs .*: length \([0-9.]*\), the file says.*/\1/p' > "$tmp/l.scen.lengths"
else
  # No ../shared: pairs of cells of one component of the sample map.
  scenmap=$data/sample.map
  ok "the sample map bakes for MovingAI's agent" mkclear -q "$scenmap" -o "$tmp/l.nbk"
  pairs_scen "$tmp/l.nbk" 2,2 sample.map 64 40 "$tmp/l.scen"
fi
is "navbake scen gives 1,000 lengths" "$(wc -l < "$tmp/l.scen.lengths" | tr -d ' ')" 1000
# The issue's script on a level from an editor: a Tiled map, which the
# bakers read by its extension.
ok "a Tiled level bakes" mkclear -q "$data/levels/room-csv.tmx" -l "$data/levels/room-legend.yaml" -o "$tmp/room.nbk"
pairs_scen "$tmp/room.nbk" 1,1 room.map 12 8 "$tmp/room.scen"
is "navbake scen gives the Tiled level's 1,000 lengths" "$(wc -l < "$tmp/room.scen.lengths" | tr -d ' ')" 1000

# A world of 2 x 2 tiles cut from the sample map, each tile baked and the
# whole linked; and the map baked whole with the same agents, whose
# nb_reachable is the independent answer to the world's.
w=$tmp/w
ok "a world of the sample map is cut, baked and linked" sh -c "
  navbake world cut -q '$data/sample.map' --tile 32 --cluster-size 8 --legend '$data/legend.yaml' \
    --agents '$data/sample-agents.yaml' -o '$w' &&
  for t in '0 0' '1 0' '0 1' '1 1'; do navbake world tile -q '$w/world.yaml' \$t -o '$w/out' || exit 1; done &&
  navbake world link -q '$w/world.yaml' -o '$w/out' &&
  mkclear -q '$data/sample.map' -l '$data/legend.yaml' -a '$data/sample-agents.yaml' -o '$w/whole.nbk'"

# The C# tests: TAP, numbered after these.
LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
MONO_PATH=$tmp
export LD_LIBRARY_PATH MONO_PATH
# A library built with the sanitizers (check-sanitize) needs their runtimes
# loaded first in mono, which is not built with them; mono's own memory is
# not ours to check for leaks, and its signal handlers stay its own.
san=
if [ -n "${NB_SAN_CFLAGS:-}" ]; then
  pre=
  for r in libasan.so libubsan.so; do
    f=$(${CC:-cc} -print-file-name=$r); [ -f "$f" ] && pre="$pre:$f"
  done
  san="LD_PRELOAD=${pre#:} ASAN_OPTIONS=detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:abort_on_error=1"
fi
env $san mono "$tmp/tests.exe" "$s" "$tmp/l.nbk" "$tmp/l.scen" "$tmp/l.scen.lengths" "$tmp/layout.txt" \
  "$w/out/world.nbw" "$w/whole.nbk" "$tmp/room.nbk" "$tmp/room.scen" "$tmp/room.scen.lengths" \
  "$scenmap" > "$tmp/cs.out" 2>&1
rc=$?
sed -n 's/^\(not \)\{0,1\}ok [0-9]* - /&/p; s/^#/#/p' "$tmp/cs.out" | while IFS= read -r line; do
  case $line in ok*|"not ok"*) echo "$line" | sed 's/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 C#: /' ;; *) echo "$line" ;; esac
done > "$tmp/cs.tap"
while IFS= read -r line; do
  case $line in
    ok*) n=$((n + 1)); echo "ok $n - ${line#ok C#: }" ;;
    "not ok"*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - ${line#not ok C#: }" ;;
    *) echo "$line" ;;
  esac
done < "$tmp/cs.tap"
grep -q '^1\.\.' "$tmp/cs.out" || { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - the C# tests ran to the end"; sed 's/^/#   /' "$tmp/cs.out" | tail -20; }
is "the C# test program's exit status" "$rc" 0
finish
