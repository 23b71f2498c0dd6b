#!/bin/sh
# bake32k-opt.sh FOLDER [SIDE [TILES]]: plans and bakes the DAO world of
# issue 31's optimal layer (brc202d cropped 50,20,430,291 and mirrored, as
# /work/worlds/dao32k; tiles of 1024, `paths: 1`) with `optimal: 1`,
# `blocks: 4` and `landmarks: 24`, into FOLDER, with ninja.  SIDE is the
# world's side in cells (default 32768; 4096 bakes its 4 x 4 top-left tiles).
# TILES, a world folder holding tiles/X_Y.map of that world (e.g.
# /work/worlds/dao32k), is linked rather than generating the tile maps again
# (a 32768^2 world's maps are a GiB); else tests/bench/world-gen.py writes
# them into FOLDER/tiles.
# Resumable: run it again after a stop and ninja bakes what is missing; the
# manifest and the maps are rewritten only when their bytes change, so what
# is baked stays baked.  NB_JOBS sets ninja's -j (default 1), NB_TOOLS the
# folder of the navbake to bake with (default tools of this tree).  Each
# NB_TILE sets the tile's side (default 1024; smaller tiles try the script
# quickly: 1024 256 bakes 4 x 4 tiles of 256).  NB_INSERT=B adds the
# manifest's `insert: B` (each tile's table for inserting a query's ends,
# for world HAA*).  Each
# action's CPU time, peak RSS and command line go to FOLDER/actions.log;
# the bake's start and end to FOLDER/bake.log.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NB_SHARED:-$top/../shared}
out=$1 side=${2:-32768} tiles=$3 tile=${NB_TILE:-1024}
[ -n "$out" ] || { echo "usage: bake32k-opt.sh FOLDER [SIDE [TILES]]" >&2; exit 2; }
navbake=$(cd "${NB_TOOLS:-$top/tools}" && pwd)/navbake
command -v ninja >/dev/null || { echo "bake32k-opt.sh: ninja is not installed" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$tiles" ]; then
  [ -f "$tiles/tiles/0_0.map" ] || { echo "bake32k-opt.sh: $tiles/tiles/0_0.map: no such map" >&2; exit 2; }
  [ -e "$out/tiles" ] || ln -s "$(cd "$tiles" && pwd)/tiles" "$out/tiles"
else
  python3 "$top/tests/bench/world-gen.py" --paths --crop 50,20,430,291 \
    "$shared/maps/dao/brc202d.map" "$side" "$tile" "$out/gen" >/dev/null
  [ -e "$out/tiles" ] || ln -s gen/tiles "$out/tiles"
fi
# The manifest, written only when it changes (a newer manifest would
# rebake every tile).
cat >"$out/world.yaml.new" <<M
# A navbake world (formats/world.md): tests/bench/bake32k-opt.sh.
world: 1
width: $side
height: $side
tile: $tile
cluster: 16
paths: 1
maps: "tiles/{x}_{y}.map"
blocks: 4
landmarks: 24
optimal: 1
M
[ -z "${NB_INSERT:-}" ] || echo "insert: $NB_INSERT" >>"$out/world.yaml.new"
if cmp -s "$out/world.yaml.new" "$out/world.yaml"; then rm "$out/world.yaml.new"
else mv "$out/world.yaml.new" "$out/world.yaml"; fi
# Each action through /usr/bin/time, for its CPU time and peak memory.
cat >"$out/nb.new" <<W
#!/bin/sh
exec /usr/bin/time -a -o "$out/actions.log" -f "%U %S %M %C" "$navbake" "\$@"
W
chmod +x "$out/nb.new"
if cmp -s "$out/nb.new" "$out/nb"; then rm "$out/nb.new"; else mv "$out/nb.new" "$out/nb"; fi
"$navbake" world plan "$out/world.yaml" -o "$out/out" --ninja "$out/build.ninja" \
  --navbake "$out/nb" -q
echo "start $(date -u +%FT%TZ)" >>"$out/bake.log"
ninja -f "$out/build.ninja" -j "${NB_JOBS:-1}" >>"$out/ninja.out"
echo "end $(date -u +%FT%TZ)" >>"$out/bake.log"
