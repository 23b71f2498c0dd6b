#!/bin/sh
# agent-rule.sh: one rule for the agent of every command that takes one
# (query, scen, nearest, line, random, plan --model, render): the bundle's
# first agent type; --agent NAME picks another; --size and --capability
# replace those fields of it.  On a level baked with an agent set of its
# own, whose first agent is not MovingAI's (size 1, ground and swamp, for
# which this bundle has no layer), each command without --agent answers
# for that first agent, exactly as with --agent naming it.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
cat >"$tmp/agents.yaml" <<'EOF'
agents:
  - name: cart
    size: 2
    capability: [ground]
  - name: boat
    size: 1
    capability: [ground, water]
EOF
b=$tmp/c.nbk
ok "a level baked with its own agent set (cart first)" \
  mkclear -q --agents "$tmp/agents.yaml" "$data/sample.map" -o "$b"

# same DESCRIPTION COMMAND...: the command's output and exit code without
# --agent are those with --agent cart (time lines left out).
same() {
  d=$1; shift
  { "$@"; echo "exit $?"; } 2>&1 | grep -v -e '^time' -e 'microseconds' -e '^workspace' >"$tmp/plain"
  { "$@" --agent cart; echo "exit $?"; } 2>&1 |
    grep -v -e '^time' -e 'microseconds' -e '^workspace' >"$tmp/named"
  ok "$d: without --agent, the answer for cart" cmp "$tmp/plain" "$tmp/named"
}

status navbake query "$b" --from 2,2 --to 60,36
is "query without --agent: exit 0" "$rc" 0
like "... for the first agent" "$out" "agent      cart (size 2, capability ground)"
same "query" navbake query "$b" --from 2,2 --to 60,36
same "query --json" navbake query --json --path "$b" --from 2,2 --to 60,36
status navbake query "$b" --agent boat --from 2,2 --to 60,36
like "query --agent boat: boat's size and capability" "$out" "agent      boat (size 1, capability ground,water)"
# --size and --capability replace the fields of the agent (the first, or --agent's).
status navbake query "$b" --agent boat --size 2 --from 2,2 --to 60,36
like "--agent boat --size 2: boat's capability, size 2" "$out" "agent      boat with --size (size 2, capability ground,water)"
boat2=$(printf '%s\n' "$out" | grep '^length')
status navbake query "$b" --size 2 --capability ground,water --from 2,2 --to 60,36
like "--size and --capability alone: cart's fields replaced" "$out" \
  "agent      cart with --size and --capability (size 2, capability ground,water)"
is "... the same path as boat's at size 2" "$(printf '%s\n' "$out" | grep '^length')" "$boat2"
status navbake query "$b" --capability ground,water --from 2,2 --to 60,36
like "--capability alone: cart's size stays" "$out" "agent      cart with --capability (size 2, capability ground,water)"
status navbake query "$b" --agent ship --from 2,2 --to 60,36
is "an agent the bundle lacks: exit 1" "$rc" 1
like "... the agents named" "$err" "no agent 'ship' (the agents are cart, boat)"

same "nearest" navbake nearest "$b" 13,9
like "... nearest says which" "$(cat "$tmp/plain")" "agent      cart (size 2, capability ground)"
same "line" navbake line "$b" --from 1,1 --to 28,1
same "random" navbake random "$b" -n 5 --seed 7
navbake query "$b" --from 2,2 --to 60,36 | awk '/^length/ { print $2 }' >"$tmp/len"
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t%s\n' "$(cat "$tmp/len")" >"$tmp/one.scen"
status navbake scen "$b" "$tmp/one.scen"
is "scen without --agent: cart's length matches (exit 0)" "$rc" 0
like "... for cart" "$out" "agent      cart (size 2, capability ground)"
same "plan --model" navbake plan --model "$data/models/tank.yaml" --from 2,2 --to 12,6 "$b"
like "... plan says which" "$(cat "$tmp/plain")" "agent      cart: size 2, capability ground"
for layer in components clearance; do
  navbake render -q "$b" -o "$tmp/plain.svg" $layer
  navbake render -q "$b" -o "$tmp/named.svg" --agent cart $layer
  ok "render $layer: without --agent, cart's" cmp "$tmp/plain.svg" "$tmp/named.svg"
  navbake render -q "$b" -o "$tmp/boat.svg" --agent boat $layer
  ok "... not boat's" sh -c "! cmp -s '$tmp/plain.svg' '$tmp/boat.svg'"
done

# A bundle without an agent set (a forest) needs --capability.
mkabstract -q --forest "$data/forest.yaml" -r 0 -o "$tmp/f.nbk"
status navbake query "$tmp/f.nbk" --from 1,1 --to 2,2
is "no agent set and no --capability: exit 1" "$rc" 1
like "... said so" "$err" "has no agent set: give --capability (and --size)"

# Each command's --help states the rule.
for c in query scen nearest line random render "plan --model tank"; do
  status navbake $c --help
  like "navbake $c --help: the first agent by default" "$out" "(default: its first)"
done
finish
