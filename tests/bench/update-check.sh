#!/bin/sh
# update-check.sh OLD SIDE [EDIT]: the instructions (valgrind's callgrind)
# of mkclear's in-place update of a changed level, with the tools of OLD (a
# build by tests/bench/old-build.sh, e.g. of the commit before the update
# checked what it keeps) and with this tree's, beside those of
# the full bake (this tree's mkclear and mkabstract from the map alone).
# The level is random512-10-0 of ../shared tiled to SIDE x SIDE, changed in
# an EDIT x EDIT square (10) at its centre, the bench_change edit; the
# bundle updated is the level's before the edit, with mkabstract's graph.
# Instructions do not move with the machine's load, as seconds do
# (tests/bench/results/change-bench.md).  Run from the top of a built
# tree; -j 1.  The three bundles must be the same bytes.
set -e
old=$1 side=$2 edit=${3:-10}
[ -x "$old/tools/mkclear" ] && [ -n "$side" ] || {
  echo "usage: update-check.sh OLD SIDE [EDIT]" >&2; exit 2; }
shared=${NB_SHARED:-../shared}
tile=$shared/maps/random/random512-10-0.map
[ -f "$tile" ] || { echo "update-check.sh: $tile is absent (set NB_SHARED)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tile repeated to side x side; then the square at the centre changed
# (an obstacle where its first cell is ground, else ground).
awk -v side="$side" 'NR > 4 { row[n++] = $0 }
  END { printf "type octile\nheight %d\nwidth %d\nmap\n", side, side
        for (y = 0; y < side; y++) { r = row[y % n]; s = ""
          while (length(s) < side) s = s r
          print substr(s, 1, side) } }' "$tile" > "$work/base.map"
awk -v side="$side" -v e="$edit" 'BEGIN { x0 = int((side - e) / 2); y0 = x0 }
  NR == 5 + y0 { c = substr($0, x0 + 1, 1) == "." ? "@" : "." }
  NR > 4 && NR - 5 >= y0 && NR - 5 < y0 + e {
    sq = ""; for (i = 0; i < e; i++) sq = sq c
    $0 = substr($0, 1, x0) sq substr($0, x0 + e + 1) }
  { print }' "$work/base.map" > "$work/edit.map"
tools/mkclear -q "$work/base.map" -o "$work/base.nbk"
tools/mkabstract -q "$work/base.nbk"
ir() { # OUT TOOL ARGS...: the instructions of a run of TOOL
  out=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || {
    cat "$work/cg.err" >&2; exit 1; }
  sed -n 's/^summary: //p' "$work/cg" > "$work/$out"
}
cp "$work/base.nbk" "$work/old.nbk"
ir old.mkclear "$old/tools/mkclear" -q -j 1 "$work/edit.map" -o "$work/old.nbk"
ir old.mkabstract "$old/tools/mkabstract" -q -j 1 "$work/old.nbk"
cp "$work/base.nbk" "$work/new.nbk"
ir new.mkclear tools/mkclear -q -j 1 "$work/edit.map" -o "$work/new.nbk"
ir new.mkabstract tools/mkabstract -q -j 1 "$work/new.nbk"
ir full.mkclear tools/mkclear -q -j 1 "$work/edit.map" -o "$work/full.nbk"
ir full.mkabstract tools/mkabstract -q -j 1 "$work/full.nbk"
cmp "$work/full.nbk" "$work/new.nbk"
cmp "$work/full.nbk" "$work/old.nbk"
g() { cat "$work/$1"; }
old_u=$(( $(g old.mkclear) + $(g old.mkabstract) ))
new_u=$(( $(g new.mkclear) + $(g new.mkabstract) ))
full=$(( $(g full.mkclear) + $(g full.mkabstract) ))
echo "| $side x $side | $edit x $edit | $(g full.mkclear) + $(g full.mkabstract) = $full |" \
  "$old_u | $new_u | $(awk -v a="$new_u" -v b="$old_u" -v f="$full" \
  'BEGIN { printf "%.1f%% | %.1f%% | %.1f%%", 100 * b / f, 100 * a / f, 100 * (a - b) / f }') |"
