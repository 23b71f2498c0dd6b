#!/bin/sh
# bake-threads.sh [SIDE [MAP [THREADS]]]: how much faster mkclear and
# mkabstract bake a big level on THREADS threads (default 2) than on one
# (issue 16).  The level is MAP (default rooms/64room_005 of the shared
# maps) tiled with mirroring to SIDE x SIDE cells (default 8192), as
# tests/bench/bench_scale tiles it; each tool runs on 1 and on THREADS
# threads, twice each in turns, and the bundles must be byte-identical.
# Prints wall and CPU seconds (/usr/bin/time's elapsed and user+sys) and
# the ratio of the faster of each pair.  Run from a built tree:
#   make bench-threads        (or sh tests/bench/bake-threads.sh 4096)
# The 8192^2 level takes about 1.3 GB of disk in $TMPDIR and 1.5 GB of RAM.
set -e
side=${1:-8192}
shared=${NB_SHARED:-$(dirname "$0")/../../../shared}
map=${2:-$shared/maps/rooms/64room_005.map}
threads=${3:-2}
tools=${NB_TOOLS:-tools}
[ -f "$map" ] || { echo "bake-threads.sh: $map: no such map" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/bake-threads.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

# Mirror the source map's rows and columns until SIDE x SIDE.
awk -v side="$side" '
  NR == 2 { h = $2 } NR == 3 { w = $2 }
  NR > 4 { row[NR - 5] = $0 }
  END {
    print "type octile"; print "height " side; print "width " side; print "map"
    for (y = 0; y < side; y++) {
      ty = int(y / h); sy = y % h; if (ty % 2) sy = h - 1 - sy
      src = row[sy]; line = ""; rev = ""
      for (x = w; x >= 1; x--) rev = rev substr(src, x, 1)
      for (t = 0; t * w < side; t++) line = line ((t % 2) ? rev : src)
      print substr(line, 1, side)
    }
  }' "$map" > "$dir/level.map"

# run LABEL CMD...: runs CMD under /usr/bin/time, prints wall and CPU.
run() {
  label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > /dev/null
  read -r wall user sys < "$dir/time"
  cpu=$(echo "$user $sys" | awk '{ printf "%.2f", $1 + $2 }')
  printf '%-24s wall %7.2f s  CPU %7.2f s\n' "$label" "$wall" "$cpu"
  echo "$wall" > "$dir/last"
}
best() { sort -n "$1" | head -1; }

echo "level: $(basename "$map") tiled to ${side}^2; $(nproc) cores online;" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for tool in mkclear mkabstract; do
  : > "$dir/t1"; : > "$dir/tn"
  for rep in 1 2; do
    for j in 1 "$threads"; do
      out="$dir/b$j"
      if [ "$tool" = mkclear ]; then
        rm -f "$out"
        run "$tool -j $j (run $rep)" "$tools/mkclear" -q -j "$j" "$dir/level.map" -o "$out"
      else
        cp "$dir/clear" "$out"
        run "$tool -j $j (run $rep)" "$tools/mkabstract" -q -j "$j" "$out"
      fi
      if [ "$j" = 1 ]; then cat "$dir/last" >> "$dir/t1"; else cat "$dir/last" >> "$dir/tn"; fi
    done
    cmp -s "$dir/b1" "$dir/b$threads" || {
      echo "bake-threads.sh: $tool: -j 1 and -j $threads bundles differ" >&2; exit 1; }
  done
  [ "$tool" = mkclear ] && cp "$dir/b1" "$dir/clear"
  echo; echo "$tool: fastest of 2 with 1 thread $(best "$dir/t1") s, with $threads" \
       "$(best "$dir/tn") s: $(echo "$(best "$dir/t1") $(best "$dir/tn")" |
       awk '{ printf "%.2fx", $1 / $2 }'); same bytes"
done
