#!/bin/sh
# demo.sh SRCDIR BUNDLE (make demo): the quick start's main job.  Bakes
# SRCDIR/data's sample level with every tool into BUNDLE (sample.nbk),
# writes its SQLite form and a picture of its clearance beside it
# (sample.sqlite, sample.svg) and describes it with navbake info.  Run in
# the build directory, where the tools are (tools/); each command is
# printed before it runs, and the first that fails stops it.
[ $# -eq 2 ] || { echo "usage: demo.sh SRCDIR BUNDLE" >&2; exit 2; }
set -e
d=$1/data b=$2
stem=${b%.nbk}
run() { echo "$*"; "$@"; }
rm -f "$b"
run tools/mkclear --agents "$d/sample-agents.yaml" "$d/sample.map" -o "$b"
run tools/mkabstract "$b"
for m in humanoid tank vehicle; do
  echo "mkperim --model data/models/$m.yaml -o $b"
  tools/mkperim -q --model "$d/models/$m.yaml" -o "$b"
done
run tools/mkhitcheck -u "$d/units/jeep.yaml" -u "$d/units/tank.yaml" -o "$b"
run tools/mkabstract --forest "$d/forest.yaml" --agent-radius 0,0.5,1 -o "$b"
run tools/navbake convert "$b" "$stem.sqlite"
run tools/navbake render "$b" -o "$stem.svg" clearance
echo "navbake info $b"
tools/navbake info "$b"
