#!/bin/sh
# world-plan.sh: navbake world plan.  A 4 x 4 world planned for Ninja is
# baked with ninja -j1 and -j2 into two folders, byte for byte the same;
# Ninja's own view of the plan (ninja -t query) has each tile's strips made
# from its map alone and each tile read its map and the strips its
# neighbours lend it (found here from the grid), never their maps, and a
# second run does nothing; after a one-cell edit in a tile's middle and a
# new cut, Ninja runs that tile's strips and tile actions and the link and
# rewrites only that tile's bundle and border and the world bundle; after
# one near a corner, the neighbours whose strips changed too; the other
# outputs keep their inodes and times, and every output is a full bake's
# of the edited world.  The Slurm script
# is run by stand-ins for sbatch and scontrol (make check-cluster runs it
# on Slurm) and bakes the same bytes.  Bad input is refused, named.
. "$top_srcdir/tests/support/lib.sh"
. "$top_srcdir/tests/support/sample-world.sh"
cd "$tmp" || exit 1
plan() { navbake world plan "$@"; }

# refuses STATUS DESCRIPTION COMMAND...: the command exits with STATUS;
# its output (both streams) is in $tmp/.out.
refuses() {
  want=$1 d=$2; shift 2
  "$@" >"$tmp/.out" 2>&1
  is "$d (exit $want)" "$?" "$want"
}
# stamps FOLDER: every output's name, inode and time to the nanosecond.
stamps() { (cd "$1" && find . -name '*.nbb' -o -name '*.border' -o -name '*.nbw' | sort | xargs stat -c '%n %i %.9Y'); }
# ran: the actions Ninja's last run (in $tmp/.out) ran, sorted, on one line.
ran() { sed -n 's/^\[[0-9]*\/[0-9]*\] //p' "$tmp/.out" | sort | tr '\n' ' '; }
# compass DX DY: the direction of the neighbour at (DX, DY), as strips are named.
compass() {
  case "$1 $2" in
    "-1 -1") echo nw ;; "0 -1") echo n ;; "1 -1") echo ne ;; "-1 0") echo w ;;
    "1 0") echo e ;; "-1 1") echo sw ;; "0 1") echo s ;; "1 1") echo se ;;
  esac
}
# halo X Y: the files tile (X, Y) is baked from, found from the 4 x 4 grid:
# its map, and each neighbour's strip facing it (the neighbour's name, the
# direction back to the tile).
halo() {
  echo "$tmp/w/tiles/${1}_$2.map"
  for dy in -1 0 1; do
    for dx in -1 0 1; do
      x=$(($1 + dx)) y=$(($2 + dy))
      [ "$dx$dy" != 00 ] && [ $x -ge 0 ] && [ $y -ge 0 ] && [ $x -lt 4 ] && [ $y -lt 4 ] &&
        echo "$tmp/one/strips/${x}_$y.$(compass $((-dx)) $((-dy))).map"
    done
  done
}
# lends X Y: the strips tile (X, Y) writes, one a neighbour.
lends() {
  for dy in -1 0 1; do
    for dx in -1 0 1; do
      x=$(($1 + dx)) y=$(($2 + dy))
      [ "$dx$dy" != 00 ] && [ $x -ge 0 ] && [ $y -ge 0 ] && [ $x -lt 4 ] && [ $y -lt 4 ] &&
        echo "$tmp/one/strips/${1}_$2.$(compass $dx $dy).map"
    done
  done
}
# outputs FILE NINJAFILE: what the edge making FILE makes, sorted.
outputs() { ninja -f "$2" -t query "$1" | sed -n '/outputs:/,$p' | grep '^    ' | sed 's/^ *//' | sort; }
# inputs OUTPUT NINJAFILE: what Ninja says OUTPUT is made from, sorted.
inputs() { ninja -f "$2" -t query "$1" | sed -n '/input:/,/outputs:/p' | grep '^    ' | sed 's/^ *//' | sort; }

ok "cut a 256 x 256 world into 4 x 4 tiles of 64" sample_world w
ok "plan it for Ninja into one folder" plan w/world.yaml -o one --ninja one.ninja
is "it says what it wrote" "$(cat "$tmp/.out")" "wrote one.ninja"
ok "and into another" plan w/world.yaml -o two --ninja two.ninja

level=$(printf '%s\n' "$tmp/w/world.yaml" "$tmp/w/legend.yaml" "$tmp/w/agents.yaml")
is "Ninja: a corner tile reads its map, the strips its 3 neighbours lend it and the level's files" \
   "$(inputs "$tmp/one/tiles/0_0.nbb" one.ninja)" "$( (echo "$level"; halo 0 0) | sort)"
is "an inner tile, its 8 neighbours'" \
   "$(inputs "$tmp/one/tiles/1_2.border" one.ninja)" "$( (echo "$level"; halo 1 2) | sort)"
is "an edge tile, its 5 neighbours'" \
   "$(inputs "$tmp/one/tiles/3_1.nbb" one.ninja)" "$( (echo "$level"; halo 3 1) | sort)"
is "no tile reads another tile's map" \
   "$(for y in 0 1 2 3; do for x in 0 1 2 3; do inputs "$tmp/one/tiles/${x}_$y.nbb" one.ninja | grep '/tiles/.*\.map$' | grep -v "/${x}_$y.map\$"; done; done)" ""
is "an inner tile's strips are made from its map and the level's files" \
   "$(inputs "$tmp/one/strips/1_2.ne.map" one.ninja)" "$( (echo "$level"; echo "$tmp/w/tiles/1_2.map") | sort)"
is "one a neighbour, by one action" "$(outputs "$tmp/w/tiles/1_2.map" one.ninja | grep strips/)" "$(lends 1 2 | sort)"
is "a corner tile's, 3" "$(outputs "$tmp/w/tiles/3_3.map" one.ninja | grep strips/)" "$(lends 3 3 | sort)"
is "the link reads every border and the level's files" "$(inputs "$tmp/one/world.nbw" one.ninja)" \
   "$( (echo "$level"; for y in 0 1 2 3; do for x in 0 1 2 3; do echo "$tmp/one/tiles/${x}_$y.border"; done; done) | sort)"
is "every action is restat" "$(grep -c '^  restat = 1$' one.ninja)" 3
is "the tile action is told to read the strips" "$(grep -c '^  command = .* world tile .* --strips$' one.ninja)" 1

ok "ninja -j1 bakes the world" ninja -f one.ninja -j1
is "16 strips actions, 16 tile actions, then the link" "$(grep -c '^\[.*\] strips ' "$tmp/.out") $(grep -c '^\[.*\] tile ' "$tmp/.out") $(grep '^\[' "$tmp/.out" | tail -n 1 | sed 's/^\[.*\] //')" "16 16 link"
ok "ninja -j2 bakes it into the other folder" ninja -f two.ninja -j2
is "16 tile bundles, 16 borders and the world bundle" "$(world_outputs one | wc -l | tr -d ' ')" 33
is "byte for byte the same from -j1 and -j2" "$(world_outputs two)" "$(world_outputs one)"
ok "ninja again" ninja -f one.ninja
is "has no work to do" "$(cat "$tmp/.out")" "ninja: no work to do."
ok "planning again" plan w/world.yaml -o one --ninja one.ninja
is "writes nothing" "$(cat "$tmp/.out")" ""
ok "cutting again" sample_world w
ok "and ninja" ninja -f one.ninja
is "still has no work to do" "$(cat "$tmp/.out")" "ninja: no work to do."

# A map touched, its bytes the same: its strips and its tile run again and
# rewrite nothing, so (restat) neither its neighbours nor the link run.
stamps one >before
touch w/tiles/3_3.map
ok "ninja after touching the map of tile (3, 3)" ninja -f one.ninja
is "runs that tile's strips and tile, not its neighbours, not the link" "$(ran)" "strips 3_3 tile 3_3 "
is "which rewrote nothing" "$(stamps one)" "$(cat before)"
ok "ninja again" ninja -f one.ninja
is "has no work to do" "$(cat "$tmp/.out")" "ninja: no work to do."

# One cell of tile (1, 2) edited, in its middle (cells (64, 128) to (127,
# 191), a halo of 16): its map alone is cut again, and no strip changes.
stamps one >before
world_outputs one >digests.before
ok "cut the world with (100, 150) edited" sample_world w 100 150
is "writes that tile's map" "$(cat "$tmp/.out")" "wrote w/tiles/1_2.map"
ok "ninja after the edit" ninja -f one.ninja -d explain
is "runs that tile's strips and tile and the link, none of its neighbours" "$(ran)" \
   "link strips 1_2 tile 1_2 "
like "because that map changed (-d explain)" "$(cat "$tmp/.out")" "w/tiles/1_2.map"
is "rewrites that tile's bundle and border and the world bundle, nothing else" \
   "$(sed -n "s|^wrote $tmp/one/||p" "$tmp/.out" | sort | tr '\n' ' ')" \
   "tiles/1_2.border tiles/1_2.nbb world.nbw "
world_outputs one >digests.after
stamps one >after
# A file is rewritten (a new inode, a new time) exactly when its bytes changed.
is "each output rewritten is one whose bytes changed, and only those" \
   "$(diff before after | sed -n 's/^> \([^ ]*\) .*/\1/p')" \
   "$(diff digests.before digests.after | sed -n 's/^> [0-9]* [0-9]* //p')"
is "the other tiles keep their files" \
   "$(grep -v 'tiles/1_2\.' after | grep tiles/)" "$(grep -v 'tiles/1_2\.' before | grep tiles/)"
like "the edited tile's bundle was rewritten" "$(diff before after)" "> ./tiles/1_2.nbb"
ok "a full bake of the edited world, planned" plan w/world.yaml -o full --ninja full.ninja
ok "and baked" ninja -f full.ninja -j2
is "is byte for byte the world the edit's rebake left" "$(world_outputs full)" "$(world_outputs one)"
ok "ninja again" ninja -f one.ninja
is "has no work to do" "$(cat "$tmp/.out")" "ninja: no work to do."

# Near tile (1, 2)'s top left corner instead (the first edit undone): the
# strips its neighbours above and to the left read change, so those three
# run again too, and nothing else.
stamps one >before
ok "cut the world with (70, 130) edited" sample_world w 70 130
ok "ninja after the edit" ninja -f one.ninja
is "runs that tile, the three neighbours whose strips changed and the link" "$(ran)" \
   "link strips 1_2 tile 0_1 tile 0_2 tile 1_1 tile 1_2 "
is "the strips it rewrote: those facing them" \
   "$(sed -n "s|^wrote $tmp/one/strips/||p" "$tmp/.out" | sort | tr '\n' ' ')" "1_2.n.map 1_2.nw.map 1_2.w.map "
stamps one >after
is "the other tiles keep their files" \
   "$(grep -vE 'tiles/(1_2|0_1|0_2|1_1)\.' after | grep tiles/)" "$(grep -vE 'tiles/(1_2|0_1|0_2|1_1)\.' before | grep tiles/)"
rm -r full
ok "a full bake of this edited world" ninja -f full.ninja -j2
is "is byte for byte the world the edit's rebake left" "$(world_outputs full)" "$(world_outputs one)"

# The link's cache (FOLDER/link.cache): the edit's link above read only the
# border files that changed and wrote the bytes of the full bake's, which
# had no cache; a damaged cache is ignored, the same bytes.
ok "the link again, verbose" navbake world link w/world.yaml -o one -v
is "reads no border file: all from the cache" "$(grep 'border files read' "$tmp/.out")" "0 of 16 border files read"
printf 'X' | dd of=one/link.cache bs=1 seek=100 conv=notrunc 2>/dev/null
ok "the link with the cache damaged" navbake world link w/world.yaml -o one -v
like "reads every border file, saying why" "$(cat "$tmp/.out")" \
  "16 of 16 border files read, the cache ignored: the cache is damaged"
is "and writes the same world bundle" "$(world_outputs full)" "$(world_outputs one)"
ok "the link once more" navbake world link w/world.yaml -o one -v
is "the cache made again" "$(grep 'border files read' "$tmp/.out")" "0 of 16 border files read"

# Slurm's script, run by stand-ins that run each job here at once
# (tests/support/slurm-standins.sh), arrays of 6 tasks at most.
. "$top_srcdir/tests/support/slurm-standins.sh"
slurm_standins 6
ok "plan the edited world for Slurm" \
   plan w/world.yaml -o slurm --slurm submit.sh --partition debug --time 10:00 --mem 900 --throttle 2
ok "the script is shell" sh -n submit.sh
ok "submitted (to the stand-ins)" env PATH="$tmp/bin:$PATH" sh submit.sh --comment=navbake
is "it prints the three arrays' and the link's job ids" "$(cat "$tmp/.out" | tr '\n' ' ')" \
   "tiles 101 tiles 102 tiles 103 link 104 "
is "arrays of 6, 6 and 4 tasks, two at a time, from tiles 0, 6 and 12" \
   "$(sed -n 's/.*--array=\([^ ]*\) --export=ALL,NAVBAKE_FIRST_TILE=\([0-9]*\) .*/\1 \2/p' sbatch.log | tr '\n' ' ')" \
   "0-5%2 0 0-5%2 6 0-3%2 12 "
like "the link waits for the three arrays to end well" "$(sed -n 4p sbatch.log)" \
   "--dependency=afterok:101:102:103 --kill-on-invalid-dep=yes"
is "every sbatch is given the requests and the script's own options" \
   "$(grep -c -- '--partition=debug --time=10:00 --mem=900 --comment=navbake$' sbatch.log)" 4
is "the Slurm bake is byte for byte Ninja's" "$(world_outputs slurm)" "$(world_outputs one)"

# Paths Ninja and the shell must escape: a space, '$', ':' and a quote.
mkdir "o d'd"
ok "cut a world into a folder named with a space, \$, : and '" \
   navbake world cut -q "$top_srcdir/data/sample.map" --tile 32 -o "o d'd/w \$x:y"
ok "plan it" plan "o d'd/w \$x:y/world.yaml" -o "o d'd/out \$x:y" --ninja "o d'd/b.ninja" \
   --slurm "o d'd/s.sh"
ok "Ninja bakes it" ninja -f "o d'd/b.ninja"
is "into that folder" "$(ls "o d'd/out \$x:y/tiles" | tr '\n' ' ')" \
   "0_0.border 0_0.nbb 0_1.border 0_1.nbb 1_0.border 1_0.nbb 1_1.border 1_1.nbb "
world_outputs "o d'd/out \$x:y" >odd.ninja
rm -r "o d'd/out \$x:y"
ok "so does the Slurm script" env PATH="$tmp/bin:$PATH" sh "o d'd/s.sh"
is "the same bytes" "$(world_outputs "o d'd/out \$x:y")" "$(cat odd.ninja)"

# What plan refuses.
refuses 2 "no form to write" plan w/world.yaml -o x
like "says so" "$(cat "$tmp/.out")" "give what to write: --ninja FILE, --slurm FILE or both"
refuses 2 "no output folder" plan w/world.yaml --ninja x.ninja
refuses 2 "Slurm's options without --slurm" plan w/world.yaml -o x --ninja x.ninja --mem 2G
refuses 2 "a --mem that is not an amount" plan w/world.yaml -o x --slurm x.sh --mem 2GB
like "names it" "$(cat "$tmp/.out")" "--mem: '2GB' is not an amount such as 900 or 2G"
refuses 2 "a --time that is not a time" plan w/world.yaml -o x --slurm x.sh --time "1 hour"
refuses 2 "a --partition that is not a name" plan w/world.yaml -o x --slurm x.sh --partition "a'b"
refuses 2 "a --throttle of 0" plan w/world.yaml -o x --slurm x.sh --throttle 0
refuses 1 "a manifest that is not there" plan nothere.yaml -o x --ninja x.ninja
like "names it" "$(cat "$tmp/.out")" "nothere.yaml"
printf 'world: 1\nwidth: 100\ntile: 32\nmaps: "t/{x}_{y}.map"\n' >bad.yaml
refuses 1 "a manifest without its height" plan bad.yaml -o x --ninja x.ninja
like "names the manifest" "$(cat "$tmp/.out")" "bad.yaml"
cp -R w holed && rm holed/tiles/2_3.map
refuses 1 "a tile map missing" plan holed/world.yaml -o x --ninja x.ninja
like "names the tile, its cells and the file" "$(cat "$tmp/.out")" \
   "tile (2, 3), cells (128, 192) to (191, 255): $tmp/holed/tiles/2_3.map: No such file or directory"
is "and writes no plan" "$(ls x.ninja 2>/dev/null)" ""
: >afile
refuses 1 "an output folder that is a file" plan w/world.yaml -o afile --ninja x.ninja
like "says so" "$(cat "$tmp/.out")" "afile: exists and is not a folder"
finish
