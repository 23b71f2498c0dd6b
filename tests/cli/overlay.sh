#!/bin/sh
# overlay.sh: 'navbake query --block/--open' and 'navbake render --block'.
# Each answer under blocks is checked against a bundle baked afresh from
# the map file with those cells made walls (edited here with awk), for
# Annotated A*, the optimal layer and HAA* (found exactly when AA* finds,
# its path avoiding the blocked cells); --open gives back the plain
# answer; --partial into a closed wall; bad rectangles are usage errors.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml
ok "the sample level bakes with the optimal layer" \
  mkclear --optimal --agents "$agents" "$map" -o "$tmp/s.nbk"
ok "and HAA*'s graph" mkabstract "$tmp/s.nbk" -o "$tmp/s.nbk"

# The map file with the rectangles X,Y,W,H given made walls.
edit_map() {
  out=$1; shift
  awk -v rects="$*" '
    BEGIN { n = split(rects, r, " ") }
    NR <= 4 { print; next }
    { y = NR - 5; line = $0
      for (i = 1; i <= n; i++) { split(r[i], q, ",")
        if (y >= q[2] && y < q[2] + q[4])
          line = substr(line, 1, q[1]) sprintf("%" q[3] "s", "") substr(line, q[1] + q[3] + 1) }
      gsub(/ /, "@", line); print line }' "$map" > "$out"
}

length_of() { printf '%s\n' "$1" | sed -n 's/^length *\([0-9.]*\).*/\1/p'; }
status_of() { printf '%s\n' "$1" | sed -n 's/^status *//p' | sed 's/ (different components: no search)//'; }

from=2,2 to=60,36
status navbake query "$tmp/s.nbk" --agent wagon --from $from --to $to
plain=$(length_of "$out")
for case in "20,1,3,20" "20,1,3,30" "10,0,4,12 30,20,6,6" "2,2,1,1" "59,35,1,1" "0,0,64,40"; do
  edit_map "$tmp/e.map" $case
  mkclear --optimal --agents "$agents" "$tmp/e.map" -o "$tmp/e.nbk" 2>/dev/null
  status navbake query "$tmp/e.nbk" --agent wagon --from $from --to $to
  want_status=$(status_of "$out") want=$(length_of "$out")
  opts=
  for r in $case; do opts="$opts --block $r"; done
  for m in aa optimal; do
    status navbake query "$tmp/s.nbk" --agent wagon --from $from --to $to --method $m $opts
    is "--block $case, $m: the fresh bake's status" "$(status_of "$out")" "$want_status"
    is "--block $case, $m: the fresh bake's length" "$(length_of "$out")" "$want"
  done
  navbake query --json --path "$tmp/s.nbk" --agent wagon --from $from --to $to --method haa $opts \
    > "$tmp/h.json"
  haa=$(sed -n 's/.*"found": \([a-z]*\).*/\1/p' "$tmp/h.json")
  case $want_status in found) f=true ;; *) f=false ;; esac
  is "--block $case, haa: found exactly when AA* on the fresh bake finds" "$haa" "$f"
  # HAA*'s cells (the wagon covers 2 x 2) are all open on the edited map.
  bad=$(tr -d '[],' < "$tmp/h.json" | sed 's/.*"path": *//; s/}//' | awk -v m="$tmp/e.map" '
    BEGIN { while ((getline l < m) > 0) { k++; if (k > 4) g[k - 5] = l } }
    { for (i = 1; i <= NF; i += 2) for (dy = 0; dy < 2; dy++) for (dx = 0; dx < 2; dx++)
        if (substr(g[$(i + 1) + dy], $i + dx + 1, 1) != ".") { print $i "," $(i + 1); exit } }')
  is "--block $case, haa: no cell of the path is blocked or a wall" "$bad" ""
done

status navbake query "$tmp/s.nbk" --agent wagon --from $from --to $to --block 20,1,3,20 --open 20,1,3,20
is "--open of the same rectangle: the plain length" "$(length_of "$out")" "$plain"
like "the overlay line says 0 cells" "$out" "overlay    0 cells blocked"
status navbake query "$tmp/s.nbk" --agent wagon --from $from --to $to --block 20,1,3,20 --open 0,0,64,40
is "--open of the whole map after a block: the plain length" "$(length_of "$out")" "$plain"
status navbake query "$tmp/s.nbk" --agent wagon --from $from --to $to --block 3,3,1,1
is "a block under the agent's square at the start: exit 3" "$rc" 3
like "start blocked" "$out" "the agent cannot stand at the start"
status navbake query --json "$tmp/s.nbk" --agent wagon --from $from --to $to --block 20,1,3,20
like "JSON: blocked_cells" "$out" '"blocked_cells": 60'

status navbake query "$tmp/s.nbk" --from $from --to $to --block 60,3,10,2
is "a rectangle past the map: exit 2" "$rc" 2
like "named with the map's size" "$err" "--block 60,3,10,2 goes past the 64 x 40 map"
status navbake query "$tmp/s.nbk" --from $from --to $to --open 1,2,3
is "three numbers: exit 2" "$rc" 2
like "said" "$err" "--open: '1,2,3' is not a rectangle X,Y,W,H"
status navbake query "$tmp/s.nbk" --from $from --to $to --block 1,1,0,2
is "a side of 0: exit 2" "$rc" 2
status navbake query "$tmp/s.nbk" --from $from --to $to --block -1,1,2,2
is "a negative corner: exit 2" "$rc" 2

# --partial: a goal inside a closed square wall.  The path ends at the cell
# 'navbake nearest --reachable-from' finds on the map baked afresh with the
# wall, and (aa, optimal) is as long as the fresh bake's path to that cell.
fort="36,16,9,1 36,24,9,1 36,16,1,9 44,16,1,9"
edit_map "$tmp/f.map" $fort
mkclear --optimal --agents "$agents" "$tmp/f.map" -o "$tmp/f.nbk" 2>/dev/null
status navbake nearest "$tmp/f.nbk" --agent wagon --reachable-from $from 40,20
near=$(printf '%s\n' "$out" | sed -n 's/^cell *//p')
status navbake query "$tmp/f.nbk" --agent wagon --from $from --to "$near"
want=$(length_of "$out")
opts=
for r in $fort; do opts="$opts --block $r"; done
for m in aa optimal haa; do
  status navbake query "$tmp/s.nbk" --agent wagon --method $m --from $from --to 40,20 $opts --partial
  is "--partial into a closed wall, $m: exit 3" "$rc" 3
  like "$m: the status says partial" "$out" "status     partial"
  end=$(printf '%s\n' "$out" | sed -n 's/^partial .* to \([0-9,]*\))$/\1/p')
  is "$m: the path ends at the fresh bake's nearest reachable cell" "$end" "$near"
  [ $m = haa ] ||
    is "$m: as long as the fresh bake's path there" \
      "$(printf '%s\n' "$out" | sed -n 's/^partial *\([0-9.]*\).*/\1/p')" "$want"
done
status navbake query --json "$tmp/s.nbk" --agent wagon --from $from --to 40,20 $opts --partial
like "JSON: status partial" "$out" '"status": "partial"'
status navbake query "$tmp/s.nbk" --agent wagon --from $from --to 40,20 $opts
is "without --partial: no path, exit 3" "$(status_of "$out") $rc" "no path 3"
status navbake query "$tmp/s.nbk" --agent wagon --method haa --compare --partial --from $from --to 40,20
is "--partial with --compare: a usage error" "$rc" 2

ok "render --block draws the blocked cells" \
  navbake render "$tmp/s.nbk" -q -o "$tmp/b.svg" --block 20,1,3,20 --block 40,5,2,2
ok "as a group of their own" grep -q 'id="blocked"' "$tmp/b.svg"
ok "named in the legend" grep -q 'blocked (--block)' "$tmp/b.svg"
status navbake render "$tmp/s.nbk" -q -o "$tmp/c.svg" --block 70,1,3,3
is "render: a rectangle past the map: exit 2" "$rc" 2
finish
