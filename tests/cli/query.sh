#!/bin/sh
# query.sh: 'navbake query' from the command line: options, the agent by
# name or by size and capability, text and JSON that agree, a path whose
# cells and length check out (recomputed here with awk from the map file),
# statuses, and errors.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
ok "the sample level bakes" mkclear --agents "$data/sample-agents.yaml" "$map" -o "$tmp/s.nbk"

status navbake query --help; is "--help exits 0" "$rc" 0
like "usage" "$out" "Usage: navbake query [OPTION]... BUNDLE|WORLD --from X,Y --to X,Y"
like "methods listed" "$out" "aa: Annotated A*"
status navbake query --version; is "--version exits 0" "$rc" 0
status navbake query "$tmp/s.nbk" --from 2,2; is "no --to: exit 2" "$rc" 2
status navbake query "$tmp/s.nbk" --from 2 --to 3,3; is "a bad cell: exit 2" "$rc" 2
like "named" "$err" "--from: '2' is not a cell X,Y"
status navbake query "$tmp/s.nbk" --size 0 --from 2,2 --to 3,3; is "size 0: exit 2" "$rc" 2
status navbake query "$tmp/s.nbk" --corner round --from 2,2 --to 3,3; is "a bad corner rule: exit 2" "$rc" 2
status navbake query "$tmp/s.nbk" --method dijkstra --from 2,2 --to 3,3; is "an unknown method: exit 2" "$rc" 2
like "the known ones listed" "$err" "unknown method 'dijkstra' (known: aa"
status navbake query "$tmp/s.nbk" --agent amphibian --size 1 --from 2,2 --to 3,3; is "--agent with --size: exit 0" "$rc" 0
like "the agent's capability, --size's size" "$out" "agent      amphibian with --size (size 1, capability ground,swamp,water)"
status navbake query "$tmp/s.nbk" --agent tank --from 2,2 --to 3,3; is "an unknown agent: exit 1" "$rc" 1
like "the agents listed" "$err" "no agent 'tank' (the agents are scout, wagon, amphibian, giant)"
status navbake query "$tmp/s.nbk" --capability lava --from 2,2 --to 3,3; is "an unknown terrain: exit 2" "$rc" 2
status navbake query "$tmp/s.nbk" --capability water --from 2,2 --to 3,3; is "a capability without a layer: exit 1" "$rc" 1
like "the layers listed" "$err" "no clearance layer for capability {water} (it has {ground}, {ground,swamp}"
status navbake query "$tmp/s.nbk" --size 4 --from 2,2 --to 3,3; is "a size beyond the cap: exit 1" "$rc" 1
like "said" "$err" "size 4 is beyond the largest size (3)"
status navbake query "$tmp/s.nbk" --from 64,2 --to 3,3; is "a cell outside the map: exit 2" "$rc" 2
like "named with its option" "$err" "--from 64,2 is outside the 64 x 40 map"
status navbake query "$tmp/s.nbk" --from -1,5 --to 3,3; is "a negative cell: exit 2" "$rc" 2
like "said to be off the map, with its size (not 'not a cell')" "$err" \
  "--from -1,5 is outside the 64 x 40 map (cells 0,0 to 63,39)"
status navbake query "$tmp/s.nbk" --from 2,2 --to 3,-40; like "--to too" "$err" "--to 3,-40 is outside the 64 x 40 map"

# An answer, by agent name and by size and capability alike.
status navbake query "$tmp/s.nbk" --agent wagon --from 2,2 --to 60,36
is "a query exits 0" "$rc" 0
like "found" "$out" "status     found"
a=$(printf '%s\n' "$out" | grep '^length')
status navbake query "$tmp/s.nbk" --size 2 --capability ground --from 2,2 --to 60,36
is "--size 2 --capability ground: the same length" "$(printf '%s\n' "$out" | grep '^length')" "$a"
status navbake query "$tmp/s.nbk" --size 2 --capability ground --corner weak --from 2,2 --to 60,36
like "--corner weak is said" "$out" "weak corners"

# The path: every step one move between standable squares of the map file,
# the length their sum.  awk checks the 2 x 2 squares of {ground}.
navbake query --json --path "$tmp/s.nbk" --agent wagon --from 2,2 --to 60,36 > "$tmp/q.json"
check_path() {
  tr -d '[],' < "$tmp/q.json" | sed 's/.*"path": *//; s/}//' > "$tmp/cells"
  awk -v set="$2" -v size="$3" -v want="$4" '
    NR == FNR { if (FNR > 4) { h++; w = length($0); for (x = 0; x < w; x++) g[x, h - 1] = index(set, substr($0, x + 1, 1)) > 0 }; next }
    function stand(x, y,   dx, dy) { for (dy = 0; dy < size; dy++) for (dx = 0; dx < size; dx++) if (!g[x + dx, y + dy]) return 0; return 1 }
    { for (i = 1; i <= NF; i += 2) { n++; X[n] = $i; Y[n] = $(i + 1) } }
    END {
      len = 0
      for (i = 1; i <= n; i++) if (!stand(X[i], Y[i])) { print "cell " X[i] "," Y[i] " not standable"; exit 1 }
      for (i = 2; i <= n; i++) {
        dx = X[i] - X[i-1]; dy = Y[i] - Y[i-1]
        if (dx * dx > 1 || dy * dy > 1 || dx == 0 && dy == 0) { print "not a move"; exit 1 }
        if (dx && dy) { if (!stand(X[i-1] + dx, Y[i-1]) || !stand(X[i-1], Y[i-1] + dy)) { print "corner cut"; exit 1 }; len += sqrt(2) } else len += 1
      }
      if (len - want > 1e-6 || want - len > 1e-6) { print "length " len " != " want; exit 1 }
    }' "$1" "$tmp/cells"
}
if command -v python3 >/dev/null 2>&1; then
  len=$(python3 -c "import json; d=json.load(open('$tmp/q.json')); assert d['found'] and d['path'][0]==[2,2] and d['path'][-1]==[60,36]; print(d['length'])")
  is "JSON: found, from the start to the goal" "$?" 0
  like "the text says the same length" "$a" "length     $len"
  ok "the path is legal for a 2 x 2 {ground} agent and as long as it says" check_path "$map" ".G" 2 "$len"
else
  skip "python3 absent"; skip "python3 absent"; skip "python3 absent"
fi

# A budget: --max-expansions stops the search and answers with the best
# partial path (exit 4: an answer in part); the workspace is reported.
status navbake query "$tmp/s.nbk" --max-expansions 0 --from 2,2 --to 60,36
is "--max-expansions 0: exit 2" "$rc" 2
like "named with its range" "$err" "--max-expansions"
status navbake query "$tmp/s.nbk" --agent wagon --max-expansions 40 --from 2,2 --to 60,36
is "--max-expansions 40: exit 4" "$rc" 4
like "said" "$out" "status     stopped at the expansion limit: the best partial path"
like "the partial path" "$out" "partial    "
like "40 expanded" "$out" "expanded   40"
like "the workspace" "$out" "workspace  "
navbake query --json --path "$tmp/s.nbk" --agent wagon --max-expansions 40 --from 2,2 --to 60,36 > "$tmp/q.json"
if command -v python3 >/dev/null 2>&1; then
  len=$(python3 -c "import json; d=json.load(open('$tmp/q.json')); assert d['status']=='limit' and not d['found'] and d['expanded']==40 and d['path'][0]==[2,2] and d['path'][-1]!=[60,36] and d['workspace_bytes']>0 and d['setup_microseconds']>=0; print(d['length'])")
  is "JSON: limit, 40 expanded, a partial path from the start, workspace_bytes, setup_microseconds" "$?" 0
  ok "the partial path is legal for the wagon and as long as it says" check_path "$map" ".G" 2 "$len"
  ok "the bundle takes HAA*'s graph" mkabstract "$tmp/s.nbk" -o "$tmp/h.nbk"
  navbake query --json --path --method haa-refined "$tmp/h.nbk" --agent wagon --max-expansions 30 --from 2,2 --to 60,36 > "$tmp/q.json"
  len=$(python3 -c "import json; d=json.load(open('$tmp/q.json')); assert d['status']=='limit' and d['expanded']<=30+64*64 and d['path'][0]==[2,2] and d['workspace_bytes']>0 and 'optimal' not in d; print(d['length'])")
  is "HAA* with a budget: limit, a partial path from the start, its workspace" "$?" 0
  ok "HAA*'s partial path is legal for the wagon and as long as it says" check_path "$map" ".G" 2 "$len"
  navbake query --json --method haa "$tmp/h.nbk" --agent wagon --from 2,2 --to 60,36 > "$tmp/q.json"
  ok "HAA* without a budget: found, its workspace reported" python3 -c "import json; d=json.load(open('$tmp/q.json')); assert d['found'] and d['workspace_bytes']>0 and d['setup_microseconds']>=0"
else
  for i in 1 2 3 4 5 6 7; do skip "python3 absent"; done
fi

# Statuses.
status navbake query "$tmp/s.nbk" --from 0,0 --to 60,36; is "a blocked start: exit 3" "$rc" 3
is "an answer, not an error" "$err" ""
like "said" "$out" "no path: the agent cannot stand at the start"
status navbake query "$tmp/s.nbk" --from 2,2 --to 0,0; like "a blocked goal" "$out" "cannot stand at the goal"
status navbake query "$tmp/s.nbk" --size 3 --capability ground --from 2,2 --to 60,36
like "unjoined ends: no path, without a search" "$out" "status     no path (different components: no search)"
is "exit 3" "$rc" 3
like "nothing expanded" "$out" "expanded   0"
status navbake query --json "$tmp/s.nbk" --size 3 --capability ground --from 2,2 --to 60,36
like "JSON: not found" "$out" '"found": false, "length": null, "searched": false'
finish
