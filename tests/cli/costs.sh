#!/bin/sh
# costs.sh: terrain costs per agent type (formats/agents.md) through the
# tools.  An agent set without costs gives the very bytes main's tools
# gave before costs existed: the checksum below was computed with the
# tools of commit 38e29c0 (before issue 18's costs) by
#   mkclear -q --agents data/sample-agents.yaml data/sample.map -o s.nbk
#   mkabstract -q s.nbk; sha256sum s.nbk
# (a deliberate change of the bundle's bytes updates it, saying why: the
# map section became version 2, packed to 4 bits a cell here, in issue 30;
# every other section's bytes are the same as 38e29c0's).
# Costs that are all 1 give those bytes too.  With costs: the agent set's
# version 2, info and dump show them, dump's YAML bakes the same bundle,
# the SQLite form round-trips them; query reports cost and length, the
# optimal method falls back to Annotated A*; HAA* plans on the graph's
# costs for the agent's profile; scen refuses; a bad costs key is an error naming file,
# line and terrain, and no bundle is left.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
want=f168b05459bd45626826b506fa482998176a2571d118cbfff2b1eba006f27d4f
sum() { sha256sum "$1" | cut -d' ' -f1; }

ok "the sample level is baked" mkclear -q --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$tmp/s.nbk"
ok "... with its abstract graph" mkabstract -q "$tmp/s.nbk"
is "without costs: the bytes of the tools before costs" "$(sum "$tmp/s.nbk")" "$want"

# The same agents, each with costs of 1.
awk '{ print } /capability:/ { n++; print (n % 2 ? "    costs: {ground: 1}" : "    costs: {}") }' \
  "$data/sample-agents.yaml" >"$tmp/ones.yaml"
like "the agent set with costs of 1 names costs" "$(cat "$tmp/ones.yaml")" "costs: {ground: 1}"
ok "costs of 1: baked" mkclear -q --agents "$tmp/ones.yaml" "$data/sample.map" -o "$tmp/o.nbk"
ok "... with its abstract graph" mkabstract -q "$tmp/o.nbk"
is "costs of 1: the same bytes" "$(sum "$tmp/o.nbk")" "$want"

cat >"$tmp/c.yaml" <<'Y'
agents:
  - name: scout
    size: 1
    capability: [ground, swamp]
    costs: {swamp: 5}
  - name: wagon
    size: 2
    capability: [ground, swamp]
    costs:
      swamp: 2.5
  - name: walker
    size: 1
    capability: [ground, swamp]
Y
ok "with costs: baked" mkclear -q --optimal --agents "$tmp/c.yaml" "$data/sample.map" -o "$tmp/c.nbk"
ok "... with its abstract graph" mkabstract -q "$tmp/c.nbk"
status navbake info "$tmp/c.nbk"
like "info: the agent's costs" "$out" "capability ground,swamp   costs swamp 5"
# info's columns are sized from what they hold: with the long type names
# abstract_costs and abstract_levels, every column of every section still
# starts (or, for the numbers, ends) where its heading does, and the
# agents' costs line up whatever their capabilities.
ok "... levels of clusters too" mkabstract -q --levels 2 --cluster-size 4 "$tmp/c.nbk" -o "$tmp/cl.nbk"
navbake info "$tmp/cl.nbk" >"$tmp/info.txt"
ok "info lists abstract_costs and abstract_levels" \
  sh -c "grep -q ' abstract_costs ' '$tmp/info.txt' && grep -q ' abstract_levels ' '$tmp/info.txt'"
columns() {
  awk '
    # The first and last column of field k of line s (1-based).
    function span(s, k,    i, f, start) {
      f = 0
      for (i = 1; i <= length(s); i++)
        if (substr(s, i, 1) != " " && (i == 1 || substr(s, i - 1, 1) == " ")) {
          if (++f == k) start = i
        } else if (substr(s, i, 1) == " " && f == k && start) { last = i - 1; return start }
      last = length(s); return start
    }
    /^  #  / { h = $0; on = 1; next }
    on && /^  [0-9]/ {
      for (k = 1; k <= 4; k++) if (span($0, k) != span(h, k)) { print "row " $1 ": field " k; bad = 1 }
      for (k = 5; k <= 6; k++) { span($0, k); e = last; span(h, k); if (e != last) { print "row " $1 ": field " k; bad = 1 } }
    }
    END { exit bad }' "$1"
}
ok "info: the section table's columns line up" columns "$tmp/info.txt"
printf 'agents:\n  - {name: a, size: 1, capability: [ground], costs: {ground: 2}}\n  - {name: b, size: 1, capability: [ground, swamp, water], costs: {swamp: 3}}\n' >"$tmp/two.yaml"
mkclear -q --agents "$tmp/two.yaml" "$data/sample.map" -o "$tmp/two.nbk"
is "info: the agents' costs line up" \
  "$(navbake info "$tmp/two.nbk" | awk '/ costs / { print index($0, " costs ") }' | sort -u | wc -l)" 1
is "info: the agent set is version 2" "$(printf '%s\n' "$out" | awk '$2 == "agents" { print $3, $4 }')" "2 raw"
status navbake info --json "$tmp/c.nbk"
like "info --json: the costs of each terrain" "$out" '"costs": {"ground": 1, "swamp": 2.5}'
status navbake dump "$tmp/c.nbk" agents
like "dump: the costs as YAML" "$out" "    costs: {swamp: 2.5}"
printf '%s\n' "$out" >"$tmp/dumped.yaml"
ok "dump's YAML bakes" mkclear -q --optimal --agents "$tmp/dumped.yaml" "$data/sample.map" -o "$tmp/d.nbk"
ok "... with its abstract graph" mkabstract -q "$tmp/d.nbk"
is "... the same bundle" "$(sum "$tmp/d.nbk")" "$(sum "$tmp/c.nbk")"

# The SQLite form keeps the section's bytes.
ok "to SQLite" navbake convert "$tmp/c.nbk" "$tmp/c.sqlite"
ok "... and back" navbake convert "$tmp/c.sqlite" "$tmp/c2.nbk"
is "... the same bytes" "$(sum "$tmp/c2.nbk")" "$(sum "$tmp/c.nbk")"
status navbake info "$tmp/c.sqlite"
like "info on the SQLite form: the costs" "$out" "costs swamp 2.5"
# The costs in a table a person can query with the sqlite3 shell, against
# those navbake info --json reads from the binary form's agent set.
if command -v sqlite3 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  want=$(navbake info --json "$tmp/c.nbk" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for a in sorted(d["agents"], key=lambda a: a["name"]):
    for t in sorted(a["capability"].split(",")):
        print(a["name"], t, float(a.get("costs", {}).get(t, 1)))')
  is "SQLite: agent_costs, a row per terrain of each agent's capability" \
    "$(sqlite3 "$tmp/c.sqlite" "SELECT agent, terrain, cost FROM agent_costs ORDER BY agent, terrain" | tr '|' ' ')" \
    "$want"
  like "... scout's swamp" "$want" "scout swamp 5.0"
else
  skip "sqlite3 or python3 absent (build-aux/bootstrap.sh installs them)"
  skip "sqlite3 or python3 absent"
fi

# Across the swamp of the sample map: walker goes through, scout around.
status navbake query "$tmp/c.nbk" -a walker --from 2,20 --to 40,30
is "query walker: exit 0" "$rc" 0
wlen=$(printf '%s\n' "$out" | awk '$1 == "length" { print $2 }')
status navbake query "$tmp/c.nbk" -a scout --from 2,20 --to 40,30
is "query scout: exit 0" "$rc" 0
like "... the agent line names the costs" "$out" "costs swamp 5)"
slen=$(printf '%s\n' "$out" | awk '$1 == "length" { print $2 }')
scost=$(printf '%s\n' "$out" | awk '$1 == "cost" { print $2 }')
ok "... its cost ($scost) is at least its length ($slen), and its length at least walker's ($wlen)" \
  awk -v c="$scost" -v l="$slen" -v w="$wlen" 'BEGIN { exit !(c + 0 >= l + 0 && l + 0 >= w + 0 && c != "") }'
status navbake query --json "$tmp/c.nbk" -a scout --from 2,20 --to 40,30
like "query --json: the cost" "$out" "\"cost\": $scost"
like "query --json: the costs" "$out" '"costs": "swamp 5"'
status navbake query "$tmp/c.nbk" -a scout --method optimal --from 2,20 --to 40,30
is "--method optimal with costs: exit 0" "$rc" 0
is "... the layer customized to the costs answers it: no note" "$err" ""
like "... with the least cost" "$out" "cost       $scost"
# Over ground alone the shortest path is the cheapest: the layer answers it.
status navbake query "$tmp/c.nbk" -a scout --from 2,20 --to 20,22
acost=$(printf '%s\n' "$out" | awk '$1 == "cost" { print $2 }')
status navbake query "$tmp/c.nbk" -a scout --method optimal --from 2,20 --to 20,22
is "--method optimal with costs, a path over ground: the layer's answer, no note" "$rc:$err" "0:"
like "... Annotated A*'s cost ($acost)" "$out" "cost       $acost"
status navbake query "$tmp/c.nbk" -a walker --method optimal --from 2,20 --to 40,30
is "--method optimal without costs: no note" "$err" ""
# HAA* on the graph's costs for scout's profile (mkabstract baked one per
# agent with costs: scout's and wagon's).
status navbake info "$tmp/c.nbk"
is "mkabstract: a cost profile per agent with costs" "$(printf '%s\n' "$out" | grep -c ' abstract_costs ')" 2
like "... scout's" "$out" "capability=ground,swamp size=1 arcs="
status navbake query "$tmp/c.nbk" -a scout --method haa --from 2,20 --to 40,30
is "--method haa with costs: exit 0" "$rc" 0
hcost=$(printf '%s\n' "$out" | awk '$1 == "cost" { print $2 }')
ok "... its cost ($hcost) is at least Annotated A*'s ($scost)" \
  awk -v h="$hcost" -v a="$scost" 'BEGIN { exit !(h != "" && h + 0 >= a - 1e-9) }'
status navbake query "$tmp/c.nbk" -a walker --method haa --from 2,20 --to 40,30
is "--method haa without costs: the graph's own weights (exit 0)" "$rc" 0

printf 'version 1\n0\tsample.map\t64\t40\t2\t20\t40\t30\t1\n' >"$tmp/s.scen"
status navbake scen "$tmp/c.nbk" "$tmp/s.scen" -a scout
is "scen with an agent with costs: refused (exit 1)" "$rc" 1
like "... saying why" "$err" "agent 'scout' has terrain costs (swamp 5), and the scenario's optimal lengths are for an agent without"

# Bad costs: the file, the line, the terrain; no bundle left.
printf 'agents:\n  - name: x\n    size: 1\n    capability: [ground]\n    costs: {lava: 2}\n' >"$tmp/bad.yaml"
status mkclear -q --agents "$tmp/bad.yaml" "$data/sample.map" -o "$tmp/bad.nbk"
is "unknown terrain in costs: exit 1" "$rc" 1
like "... named with file and line" "$err" "bad.yaml:5:13: agent 'x': costs: unknown terrain 'lava'"
ok "... and no bundle" test ! -e "$tmp/bad.nbk"
printf 'agents:\n  - name: x\n    size: 1\n    capability: [ground]\n    costs: {ground: 0.5}\n' >"$tmp/bad.yaml"
status mkclear -q --agents "$tmp/bad.yaml" "$data/sample.map" -o "$tmp/bad.nbk"
like "a cost below 1: named" "$err" "bad.yaml:5:21: agent 'x': cost of 'ground': 0.5 is outside 1 to 1e+06"
finish
