#!/bin/sh
# hitcheck.sh: mkhitcheck and navbake plan --unit from the command line:
# help, version and exit codes; located errors; only the tool's own
# sections change; the same inputs give the same bytes; a failed run
# leaves the bundle as it was; plans as text and JSON.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
b=$tmp/s.nbk

ok "a sample level is baked" nbtest-bundle --agents "$data/sample-agents.yaml" "$data/sample.map" "$b"
navbake info "$b" > "$tmp/before.txt"

# --help, --version, usage errors.
status mkhitcheck --help; is "mkhitcheck --help exits 0" "$rc" 0
like "and shows usage" "$out" "Usage: mkhitcheck --unit UNIT.yaml"
status mkhitcheck --version; like "mkhitcheck --version" "$out" "mkhitcheck (navbake) "
status mkhitcheck -o "$b"; is "no unit: exit 2" "$rc" 2
like "said so" "$err" "mkhitcheck: no unit given"
status mkhitcheck -u "$data/units/jeep.yaml"; is "no output: exit 2" "$rc" 2
status mkhitcheck -u "$data/units/jeep.yaml" -n 9 -o "$b"; is "--neighbourhood 9: exit 2" "$rc" 2
like "named" "$err" "--neighbourhood: 9; expected 8, 24 or 48"
status mkhitcheck -u "$tmp/none.yaml" -o "$b"; is "a missing unit file: exit 1" "$rc" 1
like "named" "$err" "$tmp/none.yaml: cannot open"
printf 'name: bad\nradius: 2\nwidth: 1\nheadings: 7\n' > "$tmp/bad.yaml"
cp "$b" "$tmp/keep.nbk"
status mkhitcheck -u "$data/units/jeep.yaml" -u "$tmp/bad.yaml" -o "$b"; is "a bad unit: exit 1" "$rc" 1
like "with file, line and column" "$err" "$tmp/bad.yaml:4:11: headings must be 8 or 16"
ok "and the bundle is left as it was" cmp "$b" "$tmp/keep.nbk"
printf 'name: boat\nradius: 2\nwidth: 1\ncapability: [lava]\n' > "$tmp/lava.yaml"
status mkhitcheck -u "$tmp/lava.yaml" -o "$b"; is "a terrain the bundle's legend lacks: exit 1" "$rc" 1
like "named" "$err" "unknown terrain 'lava'"
status mkhitcheck -u "$data/units/jeep.yaml" -u "$data/units/jeep.yaml" -o "$b"
is "the same unit twice: exit 1" "$rc" 1

# Baking: only the unit's sections are added.
status mkhitcheck -u "$data/units/jeep.yaml" -u "$data/units/tank.yaml" -o "$b"
is "two units bake" "$rc" 0
like "and are described" "$out" "unit tank: radius 1.5, width 1.5, 16 headings, reverses; Directional-8"
status navbake verify "$b"; is "the bundle verifies" "$rc" 0
navbake info "$b" > "$tmp/after.txt"
for s in legend agents map; do
  is "the $s section is untouched" "$(grep " $s " "$tmp/after.txt")" "$(grep " $s " "$tmp/before.txt")"
done
is "two unit, hitcheck and curves sections" \
  "$(grep -c -E ' (unit|hitcheck|curves) ' "$tmp/after.txt")" 6
like "the jeep's hit-check table, named" "$(cat "$tmp/after.txt")" "name=jeep neighbourhood=24 window=15 all_curves=0"
# all_curves says what the table holds, whichever version: a version-2
# table of every candidate, and a version-1 one (tests/data/unit-v1.nbb,
# which holds every candidate though its section's param[2] is 0).
mkhitcheck -q -u "$data/units/jeep.yaml" --curves all -o "$tmp/all.nbk"
like "a table of every candidate: all_curves=1" "$(navbake info "$tmp/all.nbk")" \
  "name=jeep neighbourhood=24 window=17 all_curves=1"
v1=$top_srcdir/tests/data/unit-v1.nbb
like "a version-1 table: all_curves=1" "$(navbake info "$v1")" \
  "name=v1car neighbourhood=8 window=9 all_curves=1"
like "and in JSON" "$(navbake info --json "$v1")" \
  '"params": {"name": "v1car", "neighbourhood": 8, "window": 9, "all_curves": 1}'
cp "$b" "$tmp/once.nbk"
mkhitcheck -q -u "$data/units/tank.yaml" -u "$data/units/jeep.yaml" -o "$b"
ok "baking again, in another order, gives the same bytes" cmp "$b" "$tmp/once.nbk"
tank_crc=$(grep 'name=tank neighbourhood=8 window' "$tmp/after.txt")
status mkhitcheck -q -u "$data/units/jeep.yaml" -n 8 -o "$b"; is "re-baking the jeep for Directional-8" "$rc" 0
is "prints nothing with -q" "$out" ""
navbake info "$b" > "$tmp/again.txt"
is "replaces its table: one jeep table, for 8 neighbours" \
  "$(grep -c 'hitcheck .*name=jeep' "$tmp/again.txt")" 1
like "  (neighbourhood 8)" "$(cat "$tmp/again.txt")" "name=jeep neighbourhood=8"
is "and leaves the tank's as it was" "$(grep 'name=tank neighbourhood=8 window' "$tmp/again.txt")" "$tank_crc"
status mkhitcheck -q -z -u "$data/units/jeep.yaml" -o "$tmp/z.nbk"
is "--zlib into a new bundle" "$rc" 0
like "stores the tables compressed" "$(navbake info "$tmp/z.nbk")" "zlib+raw"
mkhitcheck -q -u "$data/units/jeep.yaml" -o "$b"
navbake dump "$b" unit > "$tmp/units.txt"
like "dump prints the units as YAML" "$(cat "$tmp/units.txt")" "name: tank"
navbake dump "$b" 4 > "$tmp/tank.yaml"
mkhitcheck -q -u "$tmp/tank.yaml" -o "$tmp/t2.nbk"
is "which bakes the same unit and tables again" \
  "$(navbake info "$tmp/t2.nbk" | grep -E ' (unit|hitcheck|curves) ' | awk '{print $3, $4, $5, $6, $7, $8}')" \
  "$(navbake info "$b" | grep -E ' (unit|hitcheck|curves) .*name=tank' | awk '{print $3, $4, $5, $6, $7, $8}')"

# navbake plan.
status navbake plan --help; is "navbake plan --help exits 0" "$rc" 0
like "names both kinds" "$out" "--model NAME"
status navbake plan --unit jeep --help; like "navbake plan --unit --help" "$out" "--goal-heading DEG"
status navbake plan "$b"; is "plan without --unit or --model: exit 2" "$rc" 2
status navbake plan --model humanoid --from 1,1 --to 2,2 "$b"; is "plan --model goes to motion planning: exit 1" "$rc" 1
like "which finds no such model here" "$err" "no motion model 'humanoid'"
status navbake plan --unit boat --from 2,2 --to 10,10 "$b"; is "an unknown unit: exit 1" "$rc" 1
like "naming those there" "$err" "no unit 'boat' (the bundle has jeep, tank)"
status navbake plan --unit jeep --from 2,2 --to 100,10 "$b"; is "a goal outside the map: exit 2" "$rc" 2
like "said so" "$err" "outside the 64 x 40 map"
status navbake plan --unit jeep --from 0,0 --to 10,10 "$b"; is "a blocked start: exit 3" "$rc" 3
like "said so" "$err" "the start cell (0, 0) is blocked"
status navbake plan --unit jeep --from 2,2 --to 10,10 --goal-heading 30 "$b"; is "a goal heading off the unit's: exit 2" "$rc" 2
status navbake plan --unit jeep --from 2,2 --to 10,10 -n 48 "$b"; is "more neighbours than baked: exit 1" "$rc" 1
like "says how to bake them" "$err" "bake it with --neighbourhood 48"
status navbake plan --unit jeep --from 2,2 --heading 90 --to 10,10 "$b"
is "a path into the walled room: exit 0" "$rc" 0
like "described" "$out" "path: "
like "with its segments" "$out" "arc  forward"
like "and poses" "$out" "poses (every 0.5 cells)"
status navbake plan --unit jeep --from 2,2 --to 10,10 -n 8 --onthefly "$b"
is "on the fly, any neighbourhood" "$rc" 0
# The hybrid's Directional-8 step between the failure points needs the
# longer candidates here: with the shortest curves alone it finds nothing.
status navbake plan --unit jeep --from 2,2 --to 5,30 --position 2.2,2.9 --heading 10 --method hybrid "$b"
is "the hybrid from an off-centre start, shortest curves: exit 3" "$rc" 3
like "  the Directional-8 step failed" "$err" "Directional-8 found no path between the failure points"
cp "$b" "$tmp/all.nbk"
status mkhitcheck -u "$data/units/jeep.yaml" --curves all -o "$tmp/all.nbk"
like "mkhitcheck --curves all says so" "$out" "curves (every candidate) in a 17 x 17 window"
status navbake plan --unit jeep --from 2,2 --to 5,30 --position 2.2,2.9 --heading 10 --method hybrid "$tmp/all.nbk"
is "with every candidate it finds a path" "$rc" 0
like "  which fell back to Directional-8" "$out" "fell back to Directional-8"
status mkhitcheck -u "$data/units/jeep.yaml" --curves some -o "$tmp/all.nbk"
is "--curves some: exit 2" "$rc" 2
like "  named" "$err" "--curves 'some': expected shortest or all"
status navbake plan -q --unit jeep --from 2,2 --to 40,17 "$b"; is "-q, a blocked goal: exit 3" "$rc" 3
is "and nothing printed" "$out$err" ""
status navbake plan --unit jeep --from 2,2 --to 15,8 --max-expansions 5 "$b"
is "an expansion limit reached: exit 4 (the best partial path)" "$rc" 4
like "said so" "$err" "expansion limit"
# With mkclear's layers the cells come from the clearance layer, and the
# reachability components turn a goal in a closed pocket down at once.
ok "mkclear bakes the layers" mkclear -q --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$tmp/c.nbk"
ok "mkhitcheck adds the jeep" mkhitcheck -q -u "$data/units/jeep.yaml" -o "$tmp/c.nbk"
is "the same path with the clearance layer as without" \
  "$(navbake plan --unit jeep --from 2,2 --to 50,30 --step 0 "$tmp/c.nbk" | sed -n 2p)" \
  "$(navbake plan --unit jeep --from 2,2 --to 50,30 --step 0 "$b" | sed -n 2p)"
status navbake plan --unit jeep --from 2,2 --to 48,3 "$tmp/c.nbk"; is "a goal in a pocket among trees: exit 3" "$rc" 3
like "known unreachable from the components" "$err" "reachability components"
status navbake plan --unit jeep --from 2,2 --to 48,3 "$b"; is "without them the search finds out" "$rc" 3
like "the long way" "$err" "no path for the unit"
if command -v python3 >/dev/null 2>&1; then
  navbake plan --json --unit jeep --from 2,2 --heading 90 --to 10,10 --step 0.25 "$b" > "$tmp/p.json"
  ok "--json: the segments add up to the length, the last pose is the goal's centre, every pose is inside a free cell" \
    python3 - "$tmp/p.json" "$data/sample.map" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
rows = open(sys.argv[2]).read().split("\n")[4:]
assert d["found"] and d["unit"]["name"] == "jeep"
assert abs(sum(s["length"] for s in d["segments"]) - d["length"]) < 1e-4
p = d["poses"][-1]
assert abs(p["x"] - 10.5) < 1e-4 and abs(p["y"] - 10.5) < 1e-4, p
for p in d["poses"]:
    assert rows[int(p["y"])][int(p["x"])] in ".GS", p
assert d["waypoints"][0]["x"] == 2.5 and abs(d["waypoints"][0]["heading"] - 90) < 1e-6
EOF
  navbake plan --json --unit jeep --from 2,2 --to 40,17 "$b" > "$tmp/n.json" 2>/dev/null; rc=$?
  is "--json with no path: exit 3" "$rc" 3
  ok "  and says why in the JSON" python3 -c "import json,sys; d=json.load(open('$tmp/n.json')); assert not d['found'] and d['reason']"
else
  skip "python3 absent: JSON not parsed"; skip "python3 absent"; skip "python3 absent"
fi
# A bundle of navbake 0.2, its hit-check table in section version 1
# (tests/data/unit-v1.md): still read, and checked through.
old=$top_srcdir/tests/data/unit-v1.nbb
like "info shows the old table's version" "$(navbake info "$old")" "hitcheck    1   zlib+raw"
status navbake verify --deep "$old"; is "verify --deep passes the version 1 table" "$rc" 0
like "  recomputing its two tables" "$out" "deep: 2 sections recomputed"
finish
