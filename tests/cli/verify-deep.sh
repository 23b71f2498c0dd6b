#!/bin/sh
# navbake verify --deep: it accepts what the tools bake (the sample level
# with every tool, in several forms and with several options, and a few
# shared maps; every shared map with NB_DEEP_EVERY=1, as 'make check-deep'
# runs it), and refuses a bundle whose computed sections lie while its CRCs
# and structure are right (tests/support/nbtest-lie makes them), naming the
# section and the position, while plain verify still accepts it.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
agents=$data/sample-agents.yaml

# ---- the sample level, baked with every tool (as 'make demo' does)
c=$tmp/cleared.nbk
ok "mkclear" mkclear -q --agents "$agents" "$data/sample.map" -o "$c"
s=$tmp/sample.nbk
ok "mkabstract" mkabstract "$c" -o "$s"
m=$tmp/perimeter.nbk
for model in humanoid tank vehicle; do
  ok "mkperim $model" mkperim -q --model "$data/models/$model.yaml" -o "$m"
  ok "mkperim $model (the sample)" mkperim -q --model "$data/models/$model.yaml" -o "$s"
done
ok "mkhitcheck" mkhitcheck -q -u "$data/units/jeep.yaml" -u "$data/units/tank.yaml" -o "$s"
f=$tmp/forest.nbk
ok "mkabstract --forest" mkabstract --forest "$data/forest.yaml" --agent-radius 0,0.5,1 -o "$f"
p=$tmp/paths.nbk
ok "mkabstract --paths" mkabstract --paths "$c" -o "$p"
cb=$tmp/costs.nbk
printf 'agents:\n  - name: scout\n    size: 1\n    capability: [ground, swamp]\n    costs: {swamp: 5}\n  - name: wagon\n    size: 2\n    capability: [ground, swamp]\n    costs: {swamp: 2.5}\n' >"$tmp/costs.yaml"
ok "mkclear, agents with terrain costs" mkclear -q --agents "$tmp/costs.yaml" "$data/sample.map" -o "$cb"
ok "mkabstract: the graph and its costs per cost profile" mkabstract -q "$cb"
status navbake verify --deep "$cb"
is "--deep accepts the graph's costs" "$rc" 0
lv=$tmp/levels.nbk
ok "mkabstract --levels 3 --level-factor 2 --paths" mkabstract -q --levels 3 --level-factor 2 --paths "$c" -o "$lv"
status navbake verify --deep "$lv"
is "--deep accepts the levels above the graph, with their landmarks" "$rc" 0
ok "... and without landmarks, stored paths or zlib" sh -c "mkabstract -q -z --levels 2 --landmarks 0 '$c' -o '$tmp/lv0.nbk' && navbake verify -q --deep '$tmp/lv0.nbk'"
# A levels section of version 1 (landmarks all nodes, chosen as the bake then did), kept in the
# fuzz corpus: its levels recomputed, its landmarks chosen again as version 1 chose them.
v1=$top_srcdir/tests/fuzz/corpus/queries/seed-levels-landmarks
status navbake verify --deep "$v1"
is "--deep accepts a version-1 levels section (the landmarks of its day)" "$rc" 0
o=$tmp/optimal.nbk
ok "mkclear --optimal" mkclear -q --optimal --agents "$agents" "$data/sample.map" -o "$o"
status navbake verify --deep "$o"
is "--deep accepts the optimal-search layers" "$rc" 0
like "... recomputed with the clearance" "$out" "sections recomputed"
ok "--deep accepts them with zlib" sh -c "mkclear -q -z --optimal --agents '$agents' '$data/sample.map' -o '$tmp/optz.nbk' && navbake verify -q --deep '$tmp/optz.nbk'"
ok "--deep accepts weak-corner layers beside the strict ones" sh -c "mkclear -q --optimal=both --agents '$agents' '$data/sample.map' -o '$tmp/optw.nbk' && navbake verify -q --deep '$tmp/optw.nbk'"

status navbake verify --deep "$s"
is "--deep accepts the sample baked with every tool" "$rc" 0
like "it says what it recomputed" "$out" \
  "$s: ok, 44 sections"
like "... and how many perimeter entries it sampled of which tables, with the seed" "$out" \
  "; deep: 36 sections recomputed, "
like "... the default seed and sample" "$out" "(6 of 16 tables, seed 1)"
status navbake verify --deep --perimeter-tables all --seed 7 "$m" "$p" "$f"
is "--deep accepts stored paths, a forest, every perimeter table" "$rc" 0
like "... every table" "$out" "(16 of 16 tables, seed 7)"
like "... the forest's three graphs" "$out" "$f: ok, 4 sections"
like "... recomputed" "$out" "deep: 3 sections recomputed, 0 perimeter entries sampled"
status navbake verify --deep -v "$p"
like "-v says what each section took" "$err" "(abstract): recomputed in"
status navbake verify --deep --seed 2 --perimeter-tables 1 "$m"
like "--seed and --perimeter-tables choose the sample" "$out" "(3 of 16 tables, seed 2)"

# ---- other forms and options of the same bakes
z=$tmp/zlib.nbk
ok "zlib bakes" sh -c "mkclear -q -z --agents '$agents' '$data/sample.map' -o '$z' &&
  mkabstract -z --paths -Q low -c 7 '$z' && mkperim -q -z -m '$data/models/tank.yaml' -o '$z' &&
  mkhitcheck -q -z -n 8 -u '$data/units/jeep.yaml' -o '$z'"
ok "--deep accepts zlib sections" navbake verify -q --deep --perimeter-tables all "$z"
ok "navbake convert to SQLite" navbake convert "$p" "$tmp/paths.sqlite"
ok "--deep accepts the SQLite form" navbake verify -q --deep "$tmp/paths.sqlite"
for opts in "-Q initial" "-Q low -p middle" "-p spread --spread 3 --corner weak --paths" \
            "-p first -c 16" "-c 1"; do
  ok "mkabstract $opts" mkabstract $opts "$c" -o "$tmp/opt.nbk"
  ok "--deep accepts mkabstract $opts" navbake verify -q --deep "$tmp/opt.nbk"
done
for opts in "-m humanoid -l full -r 2" "-m vehicle -l speed-limited -b 32 -r 5" \
            "-m tank -l rotated -s paper" "-m vehicle -l symmetric -s paper -b 32 -r 4"; do
  rm -f "$tmp/perim.nbk"
  set -- $opts; model=$2; shift 2
  ok "mkperim $opts" mkperim -q -m "$data/models/$model.yaml" "$@" -o "$tmp/perim.nbk"
  ok "--deep accepts mkperim $opts (every table)" \
    navbake verify -q --deep --perimeter-tables all "$tmp/perim.nbk"
done

# ---- lies with right CRCs: plain verify accepts them, --deep refuses
# them, naming the section and where.
lie() { # lie KIND BUNDLE [VERIFY OPTION]...
  kind=$1 from=$2; shift 2
  if ! nbtest-lie "$kind" "$from" "$tmp/lie.nbk" >"$tmp/where" 2>"$tmp/lie.err"; then
    ok "nbtest-lie $kind" sh -c "cat '$tmp/lie.err'; false"; return
  fi
  ok "$kind lie: plain verify accepts it (its CRCs and structure are right)" \
    navbake verify -q "$tmp/lie.nbk"
  status navbake verify -q --deep "$@" "$tmp/lie.nbk"
  is "$kind lie: --deep refuses it (exit 1)" "$rc" 1
  while IFS= read -r w; do
    like "$kind lie: the message says '$w'" "$err" "$w"
  done <"$tmp/where"
}
lie clearance "$s"
like "... what the cell holds and what the map gives" "$err" ", recomputed from the map "
lie components "$s"
lie runs "$s"
lie weight "$s"
like "... the weight and the recomputed one" "$err" "sqrt(2), recomputed "
lie path "$p"
lie hitcheck "$s"
lie perimeter "$m" --perimeter-tables all
lie bitangent "$f"
lie subgoal "$o"
lie cost "$cb"
# The levels without stored paths: with them, an arc's weight is its path's, and plain verify
# refuses the lie (below).
lie levels "$tmp/lv0.nbk"
like "... the byte, recomputed" "$err" ", recomputed 0x"
like "... the cost and the recomputed one" "$err" ", recomputed "
lie landmarks "$lv"
# A version-1 levels section's landmarks are chosen again as version 1 chose them (every one a
# node, farthest first): two of them relabelled (their nodes and distances swapped, which the
# check at open accepts) are a lie.
lie landmarks "$v1"
# The graph's costs as mkabstract bakes them, one section a cost profile of the agent set: an
# agent with costs whose profile has none (HAA* would refuse its every query), a section of a
# profile no agent has.
lie nocosts "$cb"
like "... naming the agent and its profile" "$err" "agent 'scout' has terrain costs ({ground,swamp}, size 1, swamp x5) but no abstract_costs section holds its profile"
lie profile "$cb"
# An arc of a level with stored paths that weighs other than its path: every reader refuses
# it (issue 29), and so does plain verify, naming the level and the edge.
nbtest-lie levels "$lv" "$tmp/lie.nbk" >/dev/null
status navbake verify -q "$tmp/lie.nbk"
is "the levels lie on stored paths: plain verify refuses it (exit 1)" "$rc" 1
like "... naming the level and the edge" "$err" "level 2: the edge of arc"
nbtest-lie perimeter "$m" "$tmp/lie.nbk" >/dev/null
status navbake verify --deep --perimeter-tables 1 --seed 8 "$tmp/lie.nbk"
is "a lie in a table the sample holds is seen (seed 8 picks table 0)" "$rc" 1
status navbake verify --deep --perimeter-tables 1 --seed 2 "$tmp/lie.nbk" "$m"
like "a lie in a table the sample leaves out is not seen" "$out" "$tmp/lie.nbk: ok"
like "... and both bundles are checked" "$out" "$m: ok"

# ---- a section its reader refuses, with right CRCs: plain verify refuses
# it, naming it (every type's structural check, the registry's; test_sections
# empties a section of each type)
nbtest-lie graph-bytes "$s" "$tmp/bytes.nbk" >/dev/null
status navbake verify "$tmp/bytes.nbk"
is "an abstract section that is no graph: plain verify refuses it (exit 1)" "$rc" 1
like "... naming the section and what is wrong" "$err" "abstract graph: 5 bytes, shorter than its"

# ---- usage
status navbake verify --deep --seed x "$s"
is "--seed takes a number" "$rc" 2
status navbake verify --deep --perimeter-tables 0 "$s"
is "--perimeter-tables takes 1 or more, or all" "$rc" 2

# ---- shared maps: each baked with the sample's agents (the HAA* paper's
# for its Baldur's Gate maps) and the abstract graph with stored paths,
# its options varying from map to map; a few in make check, all with
# NB_DEEP_EVERY (make check-deep).
maps=
if [ -d "$NB_SHARED/maps" ]; then
  if [ -n "$NB_DEEP_EVERY" ]; then
    maps=$(ls "$NB_SHARED"/maps/*/*.map "$NB_SHARED"/haa-bg/maps/bgmaps/*/*.map 2>/dev/null)
  else
    maps="$NB_SHARED/maps/dao/arena.map $NB_SHARED/maps/dao/den312d.map $NB_SHARED/maps/bg/AR0011SR.map"
  fi
fi
[ -n "$maps" ] || skip "no shared maps in $NB_SHARED"
i=0
for map in $maps; do
  [ -f "$map" ] || { skip "$map is not there"; continue; }
  case $map in */haa-bg/*) a=$data/haa-agents.yaml ;; *) a=$agents ;; esac
  case $((i % 4)) in
    0) opts="--paths" ;; 1) opts="--paths -Q low" ;; 2) opts="-p first -c 16" ;;
    3) opts="--paths --corner weak -p spread" ;;
  esac
  i=$((i + 1))
  name=${map#"$NB_SHARED"/}
  b=$tmp/shared.nbk
  rm -f "$b"
  if mkclear -q --agents "$a" "$map" -o "$b" && mkabstract $opts "$b"; then
    status navbake verify --deep "$b"
    is "--deep accepts $name (mkabstract $opts)" "$rc" 0
    [ "$rc" = 0 ] || echo "# $err"
  else
    ok "bake $name" false
  fi
done
finish
