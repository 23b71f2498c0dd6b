#!/bin/sh
# update-trust.sh: what an update of a bundle trusts (mkclear(1) and
# mkabstract(1), "What an update trusts"), held to with lying old bundles:
# tests/support/nbtest-lie changes one section's values and keeps every
# CRC and structure check right.  An update of a lying bundle either gives
# what the update of the honest bundle gives (the bytes of a whole bake,
# rebake.sh and test_rebake check; so verify --deep passes), or is refused
# (exit 1, the bundle left as it was) with a message naming the layer,
# "not its map's" and --full; a lie in what the rule trusts (the abstract
# graph where no change reaches, the levels of a graph kept whole, the
# subgoal layers of an unchanged level) stays, said so; and --full always
# bakes the map alone: the bytes --full gives the honest bundle.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data

# The sample map three times over (two bands of 64 rows), and the same with
# a wall in row 86: a change that reaches the second band of rows only.
awk 'NR == 2 { print "height 120"; next } NR <= 4 { print; next } { row[NR] = $0 }
     END { for (k = 0; k < 3; k++) for (i = 5; i <= 44; i++) print row[i] }' \
  "$data/sample.map" > "$tmp/tall.map"
awk 'NR == 91 { $0 = substr($0, 1, 10) "@@@@@" substr($0, 16) } { print }' "$tmp/tall.map" \
  > "$tmp/edited.map"
is "the edited map differs from the tall one in row 86 alone" \
  "$(diff "$tmp/tall.map" "$tmp/edited.map" | head -1)" 91c91
# Agents of three sizes, and the same with terrain costs for one (the graph's costs are a
# section of their own, bound to the graph's CRC).
printf 'agents:\n  - {name: scout, size: 1, capability: [ground, swamp]}\n  - {name: wagon, size: 2, capability: [ground]}\n  - {name: giant, size: 3, capability: [ground, swamp, trees]}\n' \
  > "$tmp/agents-plain.yaml"
sed 's/swamp\]}$/swamp], costs: {swamp: 5}}/' "$tmp/agents-plain.yaml" > "$tmp/agents-costs.yaml"
grep -q 'costs: {swamp: 5}' "$tmp/agents-costs.yaml" || echo "Bail out! no costs in agents-costs.yaml"
graph="-c 5 --levels 3 --level-factor 2"

# The honest bundles of the tall map, with every section an update meets: layers and runs,
# subgoal layers, the abstract graph with its levels, or its costs; for a lie in the graph
# itself, which the levels and the costs are bound to by its CRC, a graph alone, with stored
# paths or without.
for p in plain costs flat paths; do
  a=plain extra=
  case $p in
    costs) a=costs ;;
    flat) extra="--levels 1" ;;
    paths) extra="--levels 1 --paths" ;;
  esac
  rm -f "$tmp/base-$p.nbk"
  ok "the honest bundle ($p)" sh -c "mkclear -q --optimal --agents '$tmp/agents-$a.yaml' '$tmp/tall.map' -o '$tmp/base-$p.nbk' &&
    mkabstract -q $graph $extra '$tmp/base-$p.nbk' && navbake verify -q --deep '$tmp/base-$p.nbk'"
done

# update LIE|BASE MAP OUT [--full]: mkclear's update of a copy of a bundle (the agents of $a).
update() {
  cp "$1" "$3"
  status mkclear -q --agents "$tmp/agents-$a.yaml" $4 "$2" -o "$3"
}

# What each lie's update must give, for the same map and for the edited one: refused (the
# layer is checked), fixed (what the update computes again: the bytes of the honest update),
# or trusted (the lie stays).
for kind in clearance components runs cost levels weight subgoal path; do
  case $kind in
    clearance | components | runs) want="refused refused" ;;
    cost) want="fixed fixed" ;;        # the graph's costs are computed again by every update
    levels) want="trusted fixed" ;;    # kept with a graph kept whole; built again with one changed
    subgoal) want="trusted fixed" ;;   # kept for the same level; removed with changed cells
    weight | path) want="trusted trusted" ;; # the graph's clusters no change reaches
  esac
  b=plain a=plain
  [ $kind = weight ] && b=flat
  [ $kind = path ] && b=paths
  [ $kind = cost ] && b=costs a=costs
  base=$tmp/base-$b.nbk lie=$tmp/lie-$kind.nbk
  ok "[$kind] the lying bundle, which plain verify accepts" sh -c "nbtest-lie $kind '$base' '$lie' >/dev/null &&
    navbake verify -q '$lie' && ! navbake verify -q --deep '$lie'"
  for map in tall edited; do
    case $map in tall) w=${want% *} ;; *) w=${want#* } ;; esac
    update "$base" "$tmp/$map.map" "$tmp/honest.nbk"
    is "[$kind, $map map] the honest bundle's update: exit 0" "$rc" 0
    update "$lie" "$tmp/$map.map" "$tmp/u.nbk"
    case $w in
      refused)
        is "  the lying bundle's: refused, exit 1" "$rc" 1
        like "  naming the layer and why" "$err" "is not its map's: "
        like "  and --full" "$err" "bake it from the map alone with --full"
        ok "  the bundle left as it was" cmp "$lie" "$tmp/u.nbk" ;;
      fixed)
        is "  the lying bundle's: exit 0" "$rc" 0
        ok "  the honest update's bytes" cmp "$tmp/honest.nbk" "$tmp/u.nbk"
        ok "  verify --deep passes" navbake verify -q --deep "$tmp/u.nbk" ;;
      trusted)
        is "  the lying bundle's: exit 0 (the rule trusts the section)" "$rc" 0
        ok "  the lie is still there" sh -c "! navbake verify -q --deep '$tmp/u.nbk'" ;;
    esac
    update "$base" "$tmp/$map.map" "$tmp/honest.nbk" --full
    update "$lie" "$tmp/$map.map" "$tmp/u.nbk" --full
    is "  --full on the lying bundle: exit 0" "$rc" 0
    ok "  the bytes --full gives the honest one" cmp "$tmp/honest.nbk" "$tmp/u.nbk"
    ok "  verify --deep passes" navbake verify -q --deep "$tmp/u.nbk"
  done
done

# A lie where a change reaches is no lie kept: the clearance layer's lie at (5, 3), with a
# change in the same band of rows, is computed again like the change.
awk 'NR == 11 { $0 = substr($0, 1, 7) "@@" substr($0, 10) } { print }' "$tmp/tall.map" \
  > "$tmp/near.map"
a=plain
update "$tmp/base-plain.nbk" "$tmp/near.map" "$tmp/honest.nbk"
update "$tmp/lie-clearance.nbk" "$tmp/near.map" "$tmp/u.nbk"
is "a clearance lie in a band a change reaches: exit 0" "$rc" 0
ok "  the honest update's bytes" cmp "$tmp/honest.nbk" "$tmp/u.nbk"

# The refusal in full: the section, its capability, the cell and the values.
update "$tmp/lie-clearance.nbk" "$tmp/tall.map" "$tmp/u.nbk"
like "the clearance refusal names the cell and the values" "$err" \
  "(the clearance of {ground}) is not its map's: cell (5, 3) holds"
update "$tmp/lie-components.nbk" "$tmp/edited.map" "$tmp/u.nbk"
like "the components refusal names the layer and a cell" "$err" \
  "(the components of {ground} for size 1) is not its map's: brought up to date, cell ("
update "$tmp/lie-runs.nbk" "$tmp/tall.map" "$tmp/u.nbk"
like "the runs refusal names the run" "$err" "(the runs of {ground} for size 1) is not its map's: run "

# mkabstract builds from BUNDLE's clearance layers: a lying one is refused, naming mkclear
# --full, with or without --full (which still builds from the layers).
for full in "" --full; do
  cp "$tmp/lie-clearance.nbk" "$tmp/a.nbk"
  status mkabstract -q $graph $full "$tmp/a.nbk"
  is "mkabstract $full on a lying clearance layer: exit 1" "$rc" 1
  like "  naming it and mkclear --full" "$err" "is not its map's: cell (5, 3) holds"
  like "  and what to do" "$err" "bake the layers from the map again with mkclear --full"
  ok "  the bundle left as it was" cmp "$tmp/lie-clearance.nbk" "$tmp/a.nbk"
done
# ... and brings OUT's graph up to date by OUT's layers: a lying one there is refused too,
# naming --full, which reads nothing of OUT.
rm -f "$tmp/new.nbk" "$tmp/fresh.nbk"
ok "mkabstract NEW -o OUT: the edited level's layers" \
  mkclear -q --agents "$tmp/agents-plain.yaml" "$tmp/edited.map" -o "$tmp/new.nbk"
cp "$tmp/lie-clearance.nbk" "$tmp/out.nbk"
status mkabstract -q $graph "$tmp/new.nbk" -o "$tmp/out.nbk"
is "  OUT with a lying clearance layer: exit 1" "$rc" 1
like "  naming it and --full" "$err" "its graph would be brought up to date by it: build the graph whole with --full"
ok "  OUT left as it was" cmp "$tmp/lie-clearance.nbk" "$tmp/out.nbk"
ok "  --full: the bytes of a whole build" sh -c "mkabstract -q $graph --full '$tmp/new.nbk' -o '$tmp/out.nbk' &&
  mkabstract -q $graph '$tmp/new.nbk' -o '$tmp/fresh.nbk' && cmp '$tmp/out.nbk' '$tmp/fresh.nbk'"
# A lying graph kept by mkabstract in place is trusted; --full builds it whole.
cp "$tmp/lie-weight.nbk" "$tmp/g.nbk"
ok "mkabstract in place keeps a lying graph (the rule trusts it)" sh -c "mkabstract -q $graph --levels 1 '$tmp/g.nbk' &&
  ! navbake verify -q --deep '$tmp/g.nbk'"
ok "  --full: the honest bundle's bytes" sh -c "mkabstract -q $graph --levels 1 --full '$tmp/g.nbk' && cmp '$tmp/g.nbk' '$tmp/base-flat.nbk'"
finish
