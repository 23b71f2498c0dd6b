#!/bin/sh
# world-twins.sh: navbake world plan's twins (formats/world.md "Repeated
# tiles").  A 5 x 5 world of tiles of 64 made from a 32 x 32 chunk of
# data/sample.map mirrored (period 64, the tile side: every tile map the
# same bytes) has 9 kinds of tile (4 corners, 4 sides, the inside): the
# plan bakes 9 and makes the 16 others twins, each depending on its
# twin's bundle.  The twins' bake is byte for byte a plan's with
# --no-twins (every tile baked).  A tile edited after the plan is not its
# twin's any more: the action bakes it (from its own old bundle), the same bytes
# as a whole bake of the edited world; planned again, the edited tile and
# its neighbours leave their kinds, and the bytes are still a whole
# bake's.  navbake world tile --twin with a tile of another kind does
# nothing but bake.
. "$top_srcdir/tests/support/lib.sh"
. "$top_srcdir/tests/support/sample-world.sh"
cd "$tmp" || exit 1

# kind X Y: which of the 9 kinds tile (X, Y) of the 5 x 5 grid is: which
# sides of the world it touches.
kind() {
  k=
  [ "$1" = 0 ] && k="${k}w"; [ "$1" = 4 ] && k="${k}e"
  [ "$2" = 0 ] && k="${k}n"; [ "$2" = 4 ] && k="${k}s"
  echo "${k:-inside}"
}
# ran: the actions Ninja's last run (in $tmp/.out) ran, sorted, on one line.
ran() { sed -n 's/^\[[0-9]*\/[0-9]*\] //p' "$tmp/.out" | sort | tr '\n' ' '; }
inputs() { ninja -f "$2" -t query "$1" | sed -n '/input:/,/outputs:/p' | grep '^    ' | sed 's/^ *//; s/^| //' | sort; }

ok "cut a 320 x 320 world of a repeated chunk into 5 x 5 tiles of 64" chunk_world w
is "every tile map the same bytes" "$(cksum <w/tiles/0_0.map) $(cd w/tiles && cat *.map | cksum)" \
   "$(cksum <w/tiles/0_0.map) $(for i in $(seq 25); do cat w/tiles/0_0.map; done | cksum)"
ok "plan it with twins" navbake world plan w/world.yaml -o twins --ninja twins.ninja
ok "and without" navbake world plan w/world.yaml -o whole --ninja whole.ninja --no-twins
is "without: no twin edge" "$(grep -c ': twin ' whole.ninja)" 0
# The expected twins, from the grid: each tile but the first of its kind
# (row by row) is the first's twin.
want=$(for y in 0 1 2 3 4; do for x in 0 1 2 3 4; do echo "$(kind $x $y) $x $y"; done; done |
  awk '{ if ($1 in first) print $2 "_" $3 " of " first[$1]; else first[$1] = $2 "_" $3 }' | sort)
is "with: 16 twins, each of the first tile of its kind" "$(printf '%s\n' "$want" | wc -l | tr -d ' ')" 16
is "the plan's twin edges are those" \
   "$(sed -n 's/^  tx = \(.*\)/\1/p;s/^  x = \(.*\)/x\1/p;s/^  y = \(.*\)/y\1/p;s/^  ty = \(.*\)/\1/p;s/^build .*: \(twin\|tile\|strips\|link\) .*/\1/p' twins.ninja |
     awk '/^(twin|tile|strips|link)$/ { e = $0; next } /^x/ { x = substr($0, 2); next }
          /^y/ { y = substr($0, 2); if (e != "twin") next; getline tx; getline ty; print x "_" y " of " tx "_" ty }' | sort)" \
   "$want"
is "a twin's action reads its twin's bundle (an implicit input)" \
   "$(inputs "$tmp/twins/tiles/4_3.nbb" twins.ninja | grep '\.nbb$')" "$tmp/twins/tiles/4_1.nbb"
ok "ninja bakes the world without twins" ninja -f whole.ninja -j2
ok "and with" ninja -f twins.ninja -j2
is "9 tile actions and 16 twins" \
   "$(grep -c '^\[.*\] tile ' "$tmp/.out") $(grep -c '^\[.*\] twin ' "$tmp/.out")" "9 16"
is "byte for byte the world baked without twins" "$(world_outputs twins)" "$(world_outputs whole)"
is "25 tile bundles, 25 borders and the world bundle" "$(world_outputs twins | wc -l | tr -d ' ')" 51

# Slurm: the twins as arrays of their own after the other tiles' (run by
# stand-ins, tests/support/slurm-standins.sh; arrays of 6 tasks at most),
# each action logged by a navbake that records its arguments.
. "$top_srcdir/tests/support/slurm-standins.sh"
slurm_standins 6
cat >logging <<SH
#!/bin/sh
echo "\$*" >>"$tmp/actions.log"
exec "$top_builddir/tools/navbake" "\$@"
SH
chmod +x logging
ok "plan it for Slurm" navbake world plan w/world.yaml -o slurm --slurm submit.sh --navbake ./logging
ok "the script is shell" sh -n submit.sh
ok "submitted (to the stand-ins)" env PATH="$tmp/bin:$PATH" sh submit.sh
is "it prints two arrays of tiles, three of twins and the link" "$(cat "$tmp/.out" | tr '\n' ' ')" \
   "tiles 101 tiles 102 twins 103 twins 104 twins 105 link 106 "
is "arrays of 6 and 3 tiles, then 6, 6 and 4 twins" \
   "$(sed -n 's/.*--job-name=navbake-\([a-z]*\).*--array=\([^ ]*\) --export=ALL,NAVBAKE_FIRST_TILE=\([0-9]*\) .*/\1 \2 \3/p' sbatch.log | tr '\n' ' ')" \
   "tiles 0-5 0 tiles 0-2 6 twins 0-5 0 twins 0-5 6 twins 0-3 12 "
is "the twins' arrays wait for the tiles' to end well" \
   "$(grep -c -- '--job-name=navbake-twins --dependency=afterok:101:102 --kill-on-invalid-dep=yes' sbatch.log)" 3
like "the link for all five" "$(sed -n 6p sbatch.log)" "--dependency=afterok:101:102:103:104:105 "
# The tile actions run, as "X_Y of TX_TY" for a twin's, from the --index
# each was given.
acted=$(sed -n 's/^world tile .* --index \([0-9]*\)\( --twin \([0-9]*\),\([0-9]*\)\)\{0,1\} -j .*/\1 \3 \4/p' actions.log |
  awk '{ x = $1 % 5; y = int($1 / 5); if ($2 != "") print x "_" y " of " $2 "_" $3; else print x "_" y }' | sort)
is "9 tiles baked: the first of each kind" "$(echo "$acted" | grep -vc ' of ')" 9
is "the 16 others each updated from the first tile of its kind" "$(echo "$acted" | grep ' of ')" "$want"
is "byte for byte the world baked without twins" "$(world_outputs slurm)" "$(world_outputs whole)"
ok "planned with --no-twins" navbake world plan w/world.yaml -o slurm2 --slurm whole.sh --no-twins
is "the script has no twins' arrays" "$(grep -c 'twins' whole.sh)" 0
ok "a twin's action again, verbose" \
   navbake world tile w/world.yaml 2 3 -o twins --strips --twin 1,1 --full -v
like "is updated from its twin" "$(cat "$tmp/.out")" "tile (2, 3): updated from its twin, 0 cells changed"
ok "(the strips first)" sh -c 'for y in 0 1 2 3 4; do for x in 0 1 2 3 4; do navbake world strips w/world.yaml $x $y -o other -q || exit 1; done; done'
mkdir -p other/tiles && cp twins/tiles/1_1.nbb other/tiles/
ok "a tile given a twin of another kind" navbake world tile w/world.yaml 4 2 -o other --strips \
   --twin 1,1 -v
like "is baked whole" "$(cat "$tmp/.out")" "tile (4, 2): baked whole"
is "the bytes of the whole bake's" "$(cksum <other/tiles/4_2.nbb)" "$(cksum <whole/tiles/4_2.nbb)"

# An edit in tile (2, 2)'s middle after the plan: its action (a twin's) finds
# its twin's input records differ and bakes it from its own old bundle.
ok "cut the world with (160, 160) edited" chunk_world w 160 160
is "writes that tile's map" "$(cat "$tmp/.out")" "wrote w/tiles/2_2.map"
ok "ninja the old plan" ninja -f twins.ninja -v
is "runs that tile (a twin of 1_1 in the plan), its strips and the link" "$(sed -n 's/^\[[0-9]*\/[0-9]*\] //p' "$tmp/.out" | grep -c 'world tile .* 2 2 .*--twin 1,1')" 1
ok "a whole bake of the edited world" ninja -f whole.ninja -j2
is "is byte for byte the world the stale plan's bake left" "$(world_outputs twins)" "$(world_outputs whole)"
ok "plan again" navbake world plan w/world.yaml -o twins --ninja twins.ninja
is "tile (2, 2) and its 8 neighbours (the inside) are twins no more: 16 - 8 twins" \
   "$(grep -c ': twin ' twins.ninja)" 8
ok "ninja the new plan" ninja -f twins.ninja
is "byte for byte the whole bake still" "$(world_outputs twins)" "$(world_outputs whole)"
ok "ninja again" ninja -f twins.ninja
is "has no work to do" "$(cat "$tmp/.out")" "ninja: no work to do."

refuses() { want=$1 d=$2; shift 2; "$@" >"$tmp/.out" 2>&1; is "$d (exit $want)" "$?" "$want"; }
refuses 2 "--twin that is not X,Y" navbake world tile w/world.yaml 1 1 -o twins --twin 3
like "says so" "$(cat "$tmp/.out")" "--twin: '3' is not a tile's X,Y"
refuses 2 "--twin for strips" navbake world strips w/world.yaml 1 1 -o twins --twin 1,2
finish
