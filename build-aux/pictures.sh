#!/bin/sh
# pictures.sh SRCDIR PICTURES (make pictures): remakes the README's
# pictures into PICTURES (SRCDIR/data/pictures, committed) from SRCDIR/data
# and, when $NB_SHARED/maps holds it, wc3/battleground.map (otherwise those
# pictures are left as they are).  Run in the build directory, where the
# tools are; works in _pictures/, removed at the end.  Needs a build with
# libpng.  Each command is printed before it runs; the first that fails
# stops it.
[ $# -eq 2 ] || { echo "usage: pictures.sh SRCDIR PICTURES" >&2; exit 2; }
d=$1/data out=$2
shared=${NB_SHARED:-$1/../shared}
if ! grep -q '^#define HAVE_PNG 1' build-aux/config.h; then
  echo "make pictures: this build has no libpng (install libpng-dev and re-run configure)" >&2
  exit 1
fi
set -e
rm -rf _pictures
mkdir -p _pictures "$out"
run() { echo "$*"; "$@"; }
s=_pictures/sample.nbk
render() { run tools/navbake render "$@"; }
run tools/mkclear -q --agents "$d/sample-agents.yaml" "$d/sample.map" -o $s
render $s -o "$out/sample-terrain.png" --scale 10 terrain grid
render $s -o "$out/sample-clearance.png" --scale 10 -a giant clearance
render $s -o "$out/sample-components.png" --scale 10 -a amphibian components
run tools/mkabstract -q $s
render $s -o "$out/sample-abstract.png" --scale 10 -a giant terrain abstract
echo "tools/navbake query $s -a wagon --from 2,20 --to 40,30 --json --path > _pictures/query.json"
tools/navbake query $s -a wagon --from 2,20 --to 40,30 --json --path >_pictures/query.json
render $s -o "$out/wagon-path.png" --scale 10 -a wagon clearance --path _pictures/query.json --footprint
run tools/mkhitcheck -q -u "$d/units/jeep.yaml" -o $s
echo "tools/navbake plan --unit jeep --from 3,3 --to 60,35 --json $s > _pictures/plan.json"
tools/navbake plan --unit jeep --from 3,3 --to 60,35 --json $s >_pictures/plan.json
render $s -o "$out/jeep-plan.png" --scale 10 --path _pictures/plan.json --footprint
render $s -o "$out/jeep-hitcheck.png" --scale 24 --unit jeep --heading 1 hitcheck curves
run tools/mkperim -q -m "$d/models/humanoid.yaml" -o $s
echo "tools/navbake plan --model humanoid --agent scout --from 5,5 --to 40,20 --json $s > _pictures/motion.json"
tools/navbake plan --model humanoid --agent scout --from 5,5 --to 40,20 --json $s >_pictures/motion.json
render $s -o "$out/humanoid-perimeter.png" --scale 10 terrain perimeter --goal 40,20 --speed walk \
  --path _pictures/motion.json
f=_pictures/forest.nbk
run tools/mkabstract --forest "$d/forest.yaml" --agent-radius 1 -o $f
echo "tools/navbake query --forest $f --from 2,2 --to 98,58 --json > _pictures/forest.json"
tools/navbake query --forest $f --from 2,2 --to 98,58 --json >_pictures/forest.json
render $f -o "$out/forest.png" --scale 8 forest bitangent --path _pictures/forest.json
if [ -f "$shared/maps/wc3/battleground.map" ]; then
  g=_pictures/bg.nbk
  run tools/mkclear -q --agents "$d/picture-agents.yaml" "$shared/maps/wc3/battleground.map" -o $g
  render $g -o "$out/battleground-terrain.png" --scale 1
  render $g -o "$out/battleground-clearance.png" --scale 1 -a leviathan clearance
  render $g -o "$out/battleground-window.png" --window 280,340,96,72 --scale 8 -a tank components grid
else
  echo "make pictures: $shared/maps is not here: the battleground pictures are left as they are"
fi
rm -rf _pictures
