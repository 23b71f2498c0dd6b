#!/bin/sh
# motion-cli.sh: mkperim and navbake plan --model from the command line:
# help, version and exit codes; mkperim adds or replaces only its own
# sections (the others keep their bytes); bad model files are refused with
# their line and column; plans in text and JSON, checked with python3.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
models=$data/models

ok "a sample bundle is baked" nbtest-bundle --agents "$data/sample-agents.yaml" "$data/sample.map" "$tmp/s.nbk"
crcs() { navbake info "$1" | awk '$2 == "legend" || $2 == "agents" || $2 == "map" { print $2, $6 }'; }
before=$(crcs "$tmp/s.nbk")

# --help, --version, usage errors.
status mkperim --help; is "mkperim --help exits 0" "$rc" 0
like "and shows usage" "$out" "Usage: mkperim --model MODEL.yaml"
status mkperim --version; like "mkperim --version" "$out" "mkperim (navbake) "
status mkperim -o "$tmp/s.nbk"; is "no model: exit 2" "$rc" 2
like "named" "$err" "no motion model given"
status mkperim --model "$models/tank.yaml"; is "no output: exit 2" "$rc" 2
status mkperim --model "$models/tank.yaml" --layout round -o "$tmp/s.nbk"; is "bad layout: exit 2" "$rc" 2
like "named" "$err" "--layout: 'round' is not full, speed-limited, symmetric or rotated"
status mkperim --model "$models/tank.yaml" --radius 0 -o "$tmp/s.nbk"; is "radius 0: exit 2" "$rc" 2
status mkperim --model "$models/tank.yaml" --entry-bits 8 -o "$tmp/s.nbk"; is "8-bit entries: exit 2" "$rc" 2
status mkperim --model "$tmp/none.yaml" -o "$tmp/s.nbk"; is "a missing model file: exit 1" "$rc" 1
like "named" "$err" "$tmp/none.yaml"

# Bad model files: the message names file, line and column.
sed 's/^headings: 16/headings: 15/' "$models/humanoid.yaml" > "$tmp/bad.yaml"
status mkperim --model "$tmp/bad.yaml" -o "$tmp/s.nbk"; is "a heading count that does not match: exit 1" "$rc" 1
like "with file, line and column" "$err" "bad.yaml:9:10: offsets: 16 offsets for 15 headings"
sed 's/{name: run, value: 2, turn: 3}/{name: run, value: 2, turn: 9}/' "$models/humanoid.yaml" > "$tmp/bad.yaml"
status mkperim --model "$tmp/bad.yaml" -o "$tmp/s.nbk"
like "a turn limit beyond the headings" "$err" "bad.yaml:15:33: speed 'run': turn 9 is beyond the headings"
sed 's/{name: fast, value: 3, turn: 0}/{name: fast, value: 300, turn: 0}/' "$models/vehicle.yaml" > "$tmp/bad.yaml"
status mkperim --model "$tmp/bad.yaml" -o "$tmp/s.nbk"
like "a speed out of range" "$err" "bad.yaml:15:25: speed 'fast': 300 is outside -64 to 64"
is "nothing was written by the failures" "$(crcs "$tmp/s.nbk")" "$before"
ok "no temporary file is left" sh -c "! ls '$tmp'/s.nbk.tmp* 2>/dev/null"

# Adding keeps the other sections as they were.
ok "mkperim adds the tank (rotated)" mkperim -q --model "$models/tank.yaml" --layout rotated -o "$tmp/s.nbk"
ok "and the humanoid (symmetric, zlib)" mkperim -q --model "$models/humanoid.yaml" -z -o "$tmp/s.nbk"
is "the level's sections keep their bytes" "$(crcs "$tmp/s.nbk")" "$before"
status navbake info "$tmp/s.nbk"
like "info: the model section" "$out" "name=tank headings=24 speeds=3 speed_change=2"
like "info: the perimeter section" "$out" "name=tank radius=15 layout=3 entry_bits=16"
like "info: zlib" "$out" "zlib+raw"
ok "the bundle verifies" navbake verify -q "$tmp/s.nbk"
tank_before=$(navbake info "$tmp/s.nbk" | grep "name=humanoid")
ok "replacing the tank's table" mkperim -q --model "$models/tank.yaml" --layout symmetric --radius 8 -o "$tmp/s.nbk"
status navbake info "$tmp/s.nbk"
is "leaves one tank table" "$(echo "$out" | grep -c 'perimeter.*name=tank')" 1
like "the new one" "$out" "name=tank radius=8 layout=2"
is "and the humanoid's as it was" "$(navbake info "$tmp/s.nbk" | grep 'name=humanoid')" "$tank_before"
ok "the same inputs give the same bytes" sh -c \
  "cp '$tmp/s.nbk' '$tmp/t.nbk' && mkperim -q --model '$models/tank.yaml' --layout symmetric --radius 8 -o '$tmp/t.nbk' && cmp '$tmp/s.nbk' '$tmp/t.nbk'"
ok "mkperim writes a new bundle" mkperim -q --model "$models/vehicle.yaml" --layout rotated --radius 5 -o "$tmp/new.nbk"
status mkperim --model "$models/vehicle.yaml" --layout rotated --radius 5 -o "$tmp/new.nbk"
like "and reports its table" "$err" "mkperim: vehicle: rotated layout, radius 5, 1 table"

# navbake plan.
status navbake plan --help; is "plan --help exits 0" "$rc" 0
like "and names both kinds" "$out" "--unit NAME"
status navbake plan --model tank --help; like "plan --model --help" "$out" "--heuristic H"
status navbake plan "$tmp/s.nbk"; is "plan without --model or --unit: exit 2" "$rc" 2
status navbake plan --unit car --from 1,1 --to 2,2 "$tmp/s.nbk"; is "--unit goes to the unit planner: exit 1" "$rc" 1
like "which finds no such unit" "$err" "no unit 'car'"
status navbake plan --unit car --model tank --from 1,1 --to 2,2 "$tmp/s.nbk"; is "--unit and --model: exit 2" "$rc" 2
status navbake plan --model tank --from 1,1 "$tmp/s.nbk"; is "no goal: exit 2" "$rc" 2
status navbake plan --model tank --from 1,1,0,sideways --to 5,5 "$tmp/s.nbk"; is "an unknown speed: exit 2" "$rc" 2
like "named with the model's" "$err" "model tank has no speed 'sideways' (backward, stopped, forward)"
status navbake plan --model tank --from 1,1,24 --to 5,5 "$tmp/s.nbk"; is "a heading beyond: exit 2" "$rc" 2
status navbake plan --model car --from 1,1 --to 5,5 "$tmp/s.nbk"; is "an unknown model: exit 1" "$rc" 1
like "named with those there" "$err" "no motion model 'car' (the bundle has humanoid, tank)"
status navbake plan --model tank --from 0,0 --to 5,5 "$tmp/s.nbk"; is "a start on a wall: exit 3" "$rc" 3
like "named" "$err" "cannot stand at the start (0, 0)"
status navbake plan --model tank --from 2,2,0 --to 12,6,6 --heuristic perimeter+grid "$tmp/s.nbk"
is "a plan: exit 0" "$rc" 0
like "with its cost" "$out" "path       cost "
like "its first state" "$out" "0      2      2       0  stopped"
status navbake plan --model tank --from 2,2,0 --to 12,6,any "$tmp/s.nbk"
is "a goal at any heading: exit 0" "$rc" 0
status navbake plan --model tank --from 2,2,any --to 12,6 "$tmp/s.nbk"; is "but not a start: exit 2" "$rc" 2
status navbake plan --model tank --from 2,2,0 --to 12,6,any,any "$tmp/s.nbk"; is "passing through a cell: exit 0" "$rc" 0
status navbake plan --model tank --from 2,2,0 --to 12,6,3,any "$tmp/s.nbk"; is "any speed needs any heading: exit 2" "$rc" 2
status navbake plan --model tank --from 2,2,0 --to 12,6,6 --agent wagon --heuristic octile "$tmp/s.nbk"
like "for a named agent" "$out" "agent      wagon: size 2, capability ground"
status navbake plan --model humanoid --from 2,2 --to 60,35 --route --truncate 3 --weight 1.2 "$tmp/s.nbk"
is "a route: exit 0" "$rc" 0
like "over sectors" "$out" "route over sectors of 6"
status navbake plan --model humanoid --from 2,2 --to 60,35 --abstraction hpa "$tmp/s.nbk"
is "an unknown abstraction: exit 2" "$rc" 2
like "named" "$err" "--abstraction: no route abstraction 'hpa': sectors or haa"
status navbake plan --model humanoid --from 2,2 --to 60,35 --abstraction haa "$tmp/s.nbk"
is "a route over HAA* without an abstract graph: exit 1" "$rc" 1
like "said so" "$err" "no abstract graph; bake one with mkabstract"
ok "a bundle with clearance layers" mkclear -q --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$tmp/h.nbk"
ok "an abstract graph" mkabstract -q "$tmp/h.nbk"
ok "and the humanoid" mkperim -q --model "$models/humanoid.yaml" -o "$tmp/h.nbk"
status navbake plan --model humanoid --from 2,2 --to 60,35 --abstraction haa --truncate 3 --weight 1.2 "$tmp/h.nbk"
is "a route over HAA*: exit 0" "$rc" 0
like "over the graph" "$out" "route over the HAA* graph, "
like "segments of clusters" "$out" "segments of 3 clusters"
like "with a path" "$out" "path       cost "
status navbake plan --model humanoid --from 2,2 --to 60,35 --abstraction haa --size 1 --capability water "$tmp/h.nbk"
is "an agent the graph does not serve: exit 1" "$rc" 1
like "said so, with those it serves" "$err" "does not serve capability {water}; it serves {ground,swamp}"
status navbake plan --model "$models/vehicle.yaml" --from 2,2 --to 9,5 "$tmp/s.nbk"
is "a model from a file: exit 0" "$rc" 0
like "planned with the heading heuristic (no table)" "$out" "search     heading heuristic"
like "and says what it cost" "$out" "states for the heading heuristic"
status navbake plan --model "$models/vehicle.yaml" --from 2,2 --to 9,5 --heuristic grid "$tmp/s.nbk"
like "or with the grid one" "$out" "cells for the grid heuristic"
status navbake plan --model tank --from 2,2,0 --to 12,6,6 --heading-classes 8 "$tmp/s.nbk"
is "headings in 8 classes (of tank's 24): exit 0" "$rc" 0
status navbake plan --model tank --from 2,2,0 --to 12,6,6 --heading-classes 5 "$tmp/s.nbk"
is "5 classes do not divide 24: exit 1" "$rc" 1
like "said so" "$err" "5 classes of headings do not divide model tank's 24 headings"
status navbake plan --model tank --from 2,2 --to 60,35 --max-expansions 5 "$tmp/s.nbk"
is "a search cut short: exit 4" "$rc" 4
like "said so" "$err" "no path found within 5 expansions"
if command -v python3 >/dev/null 2>&1; then
  navbake plan --json --model tank --from 2,2,0 --to 12,6,6 "$tmp/s.nbk" > "$tmp/p.json"
  ok "--json: valid JSON, a path from start to goal whose g ends at the cost" python3 -c "
import json, sys
d = json.load(open('$tmp/p.json'))
p = d['path']
assert d['found'] and d['model'] == 'tank' and d['agent']['name'] == 'scout'
assert (p[0]['x'], p[0]['y'], p[0]['heading']) == (2, 2, 0)
assert (p[-1]['x'], p[-1]['y'], p[-1]['heading'], p[-1]['speed']) == (12, 6, 6, 'stopped')
assert abs(p[-1]['g'] - d['cost']) < 1e-4 and d['expanded'] > 0
"
  navbake plan --json --model humanoid --from 2,2 --to 60,35,any --abstraction haa "$tmp/h.nbk" > "$tmp/r.json"
  ok "--json on a route over HAA*: from start to goal, the abstraction named" python3 -c "
import json
d = json.load(open('$tmp/r.json'))
p = d['path']
assert d['found'] and d['route'] and d['abstraction'] == 'haa' and d['segments'] > 1
assert (p[0]['x'], p[0]['y']) == (2, 2) and (p[-1]['x'], p[-1]['y'], p[-1]['speed']) == (60, 35, 'stopped')
assert abs(p[-1]['g'] - d['cost']) < 1e-4
"
else
  skip "python3 absent: JSON not parsed"
  skip "python3 absent: JSON not parsed"
fi
finish
