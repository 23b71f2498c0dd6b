#!/bin/sh
# ranges.sh: every number a command takes has a range, and a number
# outside it is a usage error (exit 2) that names the option and prints
# nothing on standard output: no command writes without bound or loops
# for ever.  navbake plan --step 1e-300 wrote 736 MB in 15 s.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
b=$tmp/s.nbk

ok "a sample bundle with a unit, a model and a forest is baked" sh -c "
  mkclear -q --agents '$data/sample-agents.yaml' '$data/sample.map' -o '$b' &&
  mkhitcheck -q -u '$data/units/jeep.yaml' -o '$b' &&
  mkperim -q --model '$data/models/tank.yaml' --radius 4 -o '$b' &&
  mkabstract -q --forest '$data/forest.yaml' --agent-radius 0 -o '$b'"

# refused OPTION COMMAND...: exit 2, the option named, nothing printed.
# Files are limited to 1 MB, so that a command that writes without end
# fails here instead of filling the disk.
refused() {
  opt=$1; shift
  status sh -c 'ulimit -f 2048 && exec "$0" "$@"' "$@"
  is "$* : exit 2" "$rc" 2
  like "  names $opt" "$err" "$opt"
  is "  prints nothing" "$out" ""
}

# navbake plan --unit: the step first, then every other number.
refused --step navbake plan --unit jeep --from 2,2 --to 10,10 --step 1e-300 "$b"
like "  and says what is allowed" "$err" "below 0.01 cells"
refused --step navbake plan --unit jeep --from 2,2 --to 10,10 --step 1e-300 --json "$b"
refused --step navbake plan --unit jeep --from 2,2 --to 10,10 --step 0.009 "$b"
refused --step navbake plan --unit jeep --from 2,2 --to 10,10 --step 1001 "$b"
refused --step navbake plan --unit jeep --from 2,2 --to 10,10 --step -1 "$b"
status navbake plan --unit jeep --from 2,2 --to 10,10 --step 0.01 "$b"
is "--step 0.01 is allowed" "$rc" 0
like "  and samples every 0.01 cells" "$out" "poses (every 0.01 cells)"
status navbake plan --unit jeep --from 2,2 --to 10,10 --step 0 "$b"
is "--step 0 prints no poses" "$rc" 0
refused --heading navbake plan --unit jeep --from 2,2 --to 10,10 --heading 3601 "$b"
refused --goal-heading navbake plan --unit jeep --from 2,2 --to 10,10 --goal-heading -3601 "$b"
refused --max-expansions navbake plan --unit jeep --from 2,2 --to 10,10 --max-expansions 0 "$b"
refused --from navbake plan --unit jeep --from 64,2 --to 10,10 "$b"
refused --to navbake plan --unit jeep --from 2,2 --to 10,40 "$b"
refused --from navbake plan --unit jeep --from -1,2 --to 10,10 "$b"
refused --position navbake plan --unit jeep --from 2,2 --position 1e300,2.5 --to 10,10 "$b"
refused --position navbake plan --unit jeep --from 2,2 --position nan,2.5 --to 10,10 "$b"
refused --neighbourhood navbake plan --unit jeep --from 2,2 --to 10,10 -n 16 "$b"

# navbake plan --model.
refused --from navbake plan --model tank --from 64,1 --to 5,5 "$b"
refused --to navbake plan --model tank --from 2,2 --to 5,40 "$b"
refused --from navbake plan --model tank --from 2,2,24 --to 5,5 "$b"
refused --from navbake plan --model tank --from 99999999999,2 --to 5,5 "$b"
refused --weight navbake plan --model tank --from 2,2 --to 5,5 --weight 0.5 "$b"
refused --weight navbake plan --model tank --from 2,2 --to 5,5 --weight 101 "$b"
refused --truncate navbake plan --model tank --from 2,2 --to 5,5 --truncate 1000001 "$b"
refused --sector navbake plan --model tank --from 2,2 --to 5,5 --route --sector 1 "$b"
refused --sector navbake plan --model tank --from 2,2 --to 5,5 --route --sector 1025 "$b"
refused --segment navbake plan --model tank --from 2,2 --to 5,5 --route --segment 0 "$b"
refused --segment navbake plan --model tank --from 2,2 --to 5,5 --route --segment 1001 "$b"
refused --heading-classes navbake plan --model tank --from 2,2 --to 5,5 --heading-classes 0 "$b"
refused --heading-classes navbake plan --model tank --from 2,2 --to 5,5 --heading-classes 65 "$b"
refused --max-expansions navbake plan --model tank --from 2,2 --to 5,5 -n 4000000001 "$b"
refused --size navbake plan --model tank --from 2,2 --to 5,5 --size 65 --capability ground "$b"

# navbake query, on the grid and among round obstacles.
refused --from navbake query --from 64,1 --to 5,5 "$b"
refused --to navbake query --from 1,1 --to 5,40 "$b"
refused --from navbake query --from 1e10,1 --to 5,5 "$b"
refused --size navbake query --size 0 --from 1,1 --to 5,5 "$b"
refused --size navbake query --size 65 --from 1,1 --to 5,5 "$b"
refused --from navbake query --forest --from 1e10,1 --to 90,50 "$b"
refused --to navbake query --forest --from 1,1 --to 90,inf "$b"
refused --agent-radius navbake query --forest --from 1,1 --to 90,50 --agent-radius 2e9 "$b"
refused --agent-radius navbake query --forest --from 1,1 --to 90,50 --agent-radius -1 "$b"
refused --radius-index navbake query --forest --from 1,1 --to 90,50 --radius-index 64 "$b"
refused --sample navbake query --forest --from 1,1 --to 90,50 --sample 0 "$b"
refused --sample navbake query --forest --from 1,1 --to 90,50 --sample 1e-9 "$b"
like "  and says how many samples that would be" "$err" "more than the 1000000 allowed"
refused --sample navbake query --forest --from 1,1 --to 90,50 --sample 1e-4 --json "$b"
status navbake query --forest --from 1,1 --to 90,50 --sample 1 "$b"
is "--sample 1 is allowed" "$rc" 0

# navbake nearest, line and random.
refused --radius navbake nearest --radius -1 "$b" 1,1
refused --radius navbake nearest --radius 32769 "$b" 1,1
refused --radius navbake nearest --radius nan "$b" 1,1
status navbake nearest --radius 32768 "$b" 1,1
is "--radius 32768 is allowed" "$rc" 0
refused point navbake nearest "$b" 64,1
refused point navbake nearest "$b" 1,99999999999
refused --reachable-from navbake nearest --reachable-from 1,40 "$b" 1,1
refused --size navbake nearest --size 65 "$b" 1,1
refused --from navbake line --from 1e10,1 --to 2,2 "$b"
refused --from navbake line --from nan,1 --to 2,2 "$b"
refused --to navbake line --from 1,1 --to 2,-0.5 "$b"
refused --to navbake line --from 1,1 --to 64.01,1 "$b"
status navbake line --from 1,1 --to 64,40 "$b"
is "--to 64,40, the map's far corner, is allowed (blocked: exit 3)" "$rc" 3
refused --count navbake random --count 0 "$b"
refused --count navbake random --count 1000001 "$b"
refused --seed navbake random --seed -1 "$b"
refused --seed navbake random --seed 18446744073709551616 "$b"
refused --from navbake random --from 64,0 "$b"

# navbake scen, dump and render.
printf 'version 1\n0\tm\t64\t40\t1\t1\t2\t2\t1.41421356\n' > "$tmp/one.scen"
refused --tolerance navbake scen --tolerance -1 "$b" "$tmp/one.scen"
refused --tolerance navbake scen --tolerance 2e9 "$b" "$tmp/one.scen"
refused --size navbake dump --size 65 "$b" clearance
refused --scale navbake render "$b" -o "$tmp/x.svg" --scale 65
refused --scale navbake render "$b" -o "$tmp/x.svg" --scale 64 --window 0,0,100000,100000 forest
ok "  and no picture is written" test ! -e "$tmp/x.svg"
refused --window navbake render "$b" -o "$tmp/x.svg" --window 0,0,0,1
refused --window navbake render "$b" -o "$tmp/x.svg" --window 0,0,99999999999,1
refused --heading navbake render "$b" -o "$tmp/x.svg" --heading 64 hitcheck
refused --size navbake render "$b" -o "$tmp/x.svg" --size 65
refused --agent-radius navbake render "$b" -o "$tmp/x.svg" --agent-radius 2e9 forest
refused --goal navbake render "$b" -o "$tmp/x.svg" --goal 64,0 perimeter

# The bakers.
refused --radius mkperim --model "$data/models/tank.yaml" --radius 64 -o "$tmp/p.nbk"
refused --cluster-size mkabstract --cluster-size 256 "$b" -o "$tmp/a.nbk"
refused --spread mkabstract --spread 0 "$b" -o "$tmp/a.nbk"
refused --agent-radius mkabstract --forest "$data/forest.yaml" --agent-radius 2e9 -o "$tmp/f.nbk"
refused --neighbourhood mkhitcheck -u "$data/units/jeep.yaml" -n 12 -o "$tmp/h.nbk"
finish
