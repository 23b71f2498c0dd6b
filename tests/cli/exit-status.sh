#!/bin/sh
# exit-status.sh: every command's exit codes (tools/common/exit_status.h),
# each code from each command that can give it: 0 success, 1 a failure,
# 2 a usage error, 3 answered no, 4 a search stopped at its budget with
# its best partial path.  A "no" is said and a partial answer printed all
# the same; a usage error prints nothing on standard output.  A bad
# option is one message and the pointer to --help, never two errors.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
b=$tmp/s.nbk
ok "the sample level with every grid section" sh -c "
  mkclear -q --agents '$data/sample-agents.yaml' '$data/sample.map' -o '$b' &&
  mkabstract -q '$b' && mkperim -q -m '$data/models/tank.yaml' -o '$b' &&
  mkhitcheck -q -u '$data/units/jeep.yaml' -o '$b'"
ok "and a forest" mkabstract -q --forest "$data/forest.yaml" -r 0,1.5 -o "$tmp/f.nbk"

# code WANT DESCRIPTION COMMAND...: the command exits WANT; with 3 it said
# why, with 4 it printed its partial answer, with 2 nothing on standard
# output.
code() {
  want=$1 d=$2; shift 2
  status "$@"
  is "$d: exit $want" "$rc" "$want"
  case $want in
    2) is "... nothing on standard output" "$out" "" ;;
    3) ok "... the answer said" test -n "$out$err" ;;
    4) ok "... the partial answer printed" test -n "$out" ;;
  esac
}

q="navbake query $b"
code 0 "query: a path" $q -a wagon --from 2,2 --to 60,36
code 1 "query: a capability the bundle has no layer for" $q --capability water --from 2,2 --to 3,3
code 2 "query: --from off the map" $q --from -1,5 --to 3,3
code 3 "query: a blocked start" $q --from 0,0 --to 60,36
like "... said" "$out" "no path: the agent cannot stand at the start"
code 3 "query: ends not joined" $q --size 3 --capability ground --from 2,2 --to 60,36
code 4 "query: --max-expansions" $q -a wagon --max-expansions 10 --from 2,2 --to 60,36
like "... the best partial path" "$out" "partial    "
code 4 "query --method haa: --max-expansions" $q -m haa -a wagon --max-expansions 10 --from 2,2 --to 60,36
code 3 "query --method haa: a blocked goal" $q -m haa -a wagon --from 2,2 --to 0,0
code 0 "query --method optimal" $q -m optimal -a wagon --from 2,2 --to 60,36

code 0 "line: a clear segment" navbake line -a scout "$b" --from 1,1 --to 28,1
code 1 "line: a missing bundle" navbake line -a scout "$tmp/none.nbk" --from 1,1 --to 28,1
code 2 "line: a point off the map" navbake line -a scout "$b" --from 1,1 --to 65,1
code 3 "line: blocked on the way" navbake line -a scout "$b" --from 1,1 --to 30,1
code 3 "line: a start in the wall" navbake line -a scout "$b" --from 0,0 --to 3,1

code 0 "nearest: a cell" navbake nearest -a wagon "$b" 0,0
code 1 "nearest: an agent the bundle lacks" navbake nearest -a nobody "$b" 1,1
code 2 "nearest: a point off the map" navbake nearest -a wagon "$b" 64,0
code 3 "nearest: nothing within the radius" navbake nearest -a wagon --radius 1 "$b" 13,9
code 3 "nearest: reachable from a wall" navbake nearest -a wagon --reachable-from 0,0 "$b" 13,9

code 0 "random: cells" navbake random -a scout "$b" -n 3
code 1 "random: a missing bundle" navbake random "$tmp/none.nbk"
code 2 "random: --count 0" navbake random "$b" --count 0
code 3 "random: from a wall" navbake random -a scout --from 0,0 "$b"

len=$(navbake query "$b" --from 2,2 --to 60,36 | awk '/^length/ { print $2 }')
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t%s\n' "$len" >"$tmp/good.scen"
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t%s\n' "$(awk -v l="$len" 'BEGIN { print l + 1 }')" \
  >"$tmp/bad.scen"
code 0 "scen: every length matches" navbake scen "$b" "$tmp/good.scen"
code 1 "scen: a missing scenario" navbake scen "$b" "$tmp/none.scen"
code 2 "scen: a bad tolerance" navbake scen --tolerance x "$b" "$tmp/good.scen"
code 3 "scen: a length differs" navbake scen "$b" "$tmp/bad.scen"

code 0 "render: a picture" navbake render -q "$b" -o "$tmp/p.svg"
code 1 "render: a missing bundle" navbake render -q "$tmp/none.nbk" -o "$tmp/p.svg"
code 2 "render: an unknown layer" navbake render -q "$b" -o "$tmp/p.svg" lava

m="navbake plan --model tank"
code 0 "plan --model: a path" $m --from 2,2 --to 12,6 "$b"
code 1 "plan --model: a model the bundle lacks" navbake plan --model humanoid --from 2,2 --to 12,6 "$b"
code 2 "plan --model: --from off the map" $m --from -1,2 --to 12,6 "$b"
code 3 "plan --model: a start on a wall" $m --from 0,0 --to 12,6 "$b"
code 4 "plan --model: --max-expansions" $m --from 2,2 --to 60,35 --max-expansions 5 "$b"
like "... the best partial path" "$out" "partial    cost "

u="navbake plan --unit jeep"
code 0 "plan --unit: a path" $u --from 2,2 --heading 90 --to 10,10 "$b"
code 1 "plan --unit: a unit the bundle lacks" navbake plan --unit boat --from 2,2 --to 10,10 "$b"
code 2 "plan --unit: --to off the map" $u --from 2,2 --to 100,10 "$b"
code 3 "plan --unit: a blocked goal" $u --from 2,2 --to 40,17 "$b"
code 4 "plan --unit: --max-expansions" $u --from 2,2 --to 15,8 --max-expansions 5 "$b"
code 4 "plan --unit: --max-nodes" $u --from 2,2 --to 15,8 --max-nodes 5 "$b"

f="navbake query --forest $tmp/f.nbk"
code 0 "query --forest: a path" $f --from 5,5 --to 50,30
code 1 "query --forest: a radius index not baked" $f --from 5,5 --to 50,30 -i 5
code 2 "query --forest: a point that is not X,Y" $f --from 5 --to 50,30
status $f -r 1.5 --from 5,5 --to 85,40
is "query --forest: a goal walled in: exit 3" "$rc" 3

code 0 "info" navbake info "$b"
code 1 "info: a missing bundle" navbake info "$tmp/none.nbk"
code 0 "verify" navbake verify "$b"
code 1 "verify: a damaged bundle" sh -c "head -c 3000 '$b' >'$tmp/cut.nbk' && navbake verify '$tmp/cut.nbk'"
code 0 "dump" navbake dump "$b" legend
code 2 "dump: an unknown section type" navbake dump "$b" lava
code 0 "convert" navbake convert "$b" "$tmp/s.sqlite"
code 1 "convert: a missing bundle" navbake convert "$tmp/none.nbk" "$tmp/n.sqlite"
code 0 "mkclear" mkclear -q "$data/sample.map" -o "$tmp/m.nbk"
code 1 "mkclear: a missing map" mkclear -q "$tmp/none.map" -o "$tmp/m.nbk"
code 0 "mkabstract" mkabstract -q "$tmp/m.nbk"
code 1 "mkabstract: a missing bundle" mkabstract -q "$tmp/none.nbk"
code 0 "mkperim" mkperim -q -m "$data/models/tank.yaml" -o "$tmp/m.nbk"
code 1 "mkperim: a missing model" mkperim -q -m "$tmp/none.yaml" -o "$tmp/m.nbk"
code 0 "mkhitcheck" mkhitcheck -q -u "$data/units/jeep.yaml" -o "$tmp/m.nbk"
code 1 "mkhitcheck: a missing unit" mkhitcheck -q -u "$tmp/none.yaml" -o "$tmp/m.nbk"

# A bad option: exit 2, getopt's message naming it and the pointer to
# --help; one error, not two (navbake verify --json printed both).
for c in "navbake info" "navbake verify" "navbake dump" "navbake convert" "navbake query" \
         "navbake query --forest" "navbake scen" "navbake nearest" "navbake line" "navbake random" \
         "navbake render" "navbake plan --model tank" "navbake plan --unit jeep" mkclear \
         mkabstract "mkabstract --forest $data/forest.yaml" mkperim mkhitcheck; do
  status $c --json-please "$b"
  is "$c --json-please: exit 2" "$rc" 2
  is "... one error and the pointer to --help" "$err" \
    "${c%% -*}: unrecognized option '--json-please'
Try '${c%% -*} --help' for more information."
done

# Every section-1 page lists the five codes, and every command's --help
# says its own.
for p in "$top_srcdir"/man/*.1; do
  s=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH/p' "$p")
  ok "${p##*/}: an EXIT STATUS section listing 0 to 4" \
    sh -c 'for k in 0 1 2 3 4; do printf "%s\n" "$1" | grep -q "^\.IP $k\$\|^\.B $k\$\|^$k\$" || exit 1; done' - "$s"
done
for c in info verify dump convert query "query --forest" scen nearest line random render \
         "plan --model tank" "plan --unit jeep" "world cut" "world check" "world plan"; do
  status navbake $c --help
  like "navbake $c --help: its exit status" "$out" "Exit status: 0"
done
finish
