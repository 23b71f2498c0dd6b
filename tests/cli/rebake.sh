#!/bin/sh
# rebake.sh: mkclear and mkabstract from the command line as a level
# changes: -j and its range, a changed map brought up to date (the same
# bytes as a whole bake, and -v saying what was computed), --full, the
# abstract graph kept when nothing it depends on changed (the file left,
# its time made new), mkabstract -o OLD, a bundle whose graph no query
# would read refused, and the same bytes for any thread count.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml

# -j and its range.
for tool in mkclear mkabstract; do
  status $tool --help
  like "$tool --help: -j" "$out" "-j, --threads N"
done
status mkclear -j 0 "$map" -o "$tmp/x.nbk"
is "mkclear -j 0: exit 2" "$rc" 2
like "  names the option and its range" "$err" "--threads: '0' is not a whole number from 1 to 256"
status mkclear --threads 257 "$map" -o "$tmp/x.nbk"; is "mkclear --threads 257: exit 2" "$rc" 2
status mkabstract -j 0 "$tmp/x.nbk"; is "mkabstract -j 0: exit 2" "$rc" 2
status mkabstract -j x "$tmp/x.nbk"; is "mkabstract -j x: exit 2" "$rc" 2
ok "nothing written by the refused runs" test ! -e "$tmp/x.nbk"

# A map with some cells changed: a wall across a corridor, a lake, and
# a patch of ground (rows 5, 12 to 14 and 30).
awk 'NR == 9 { $0 = substr($0, 1, 10) "@@@@@" substr($0, 16) }
     NR >= 16 && NR <= 18 { $0 = substr($0, 1, 30) "WWWW" substr($0, 35) }
     NR == 34 { $0 = substr($0, 1, 50) "...." substr($0, 55) }
     { print }' "$map" > "$tmp/edited.map"
ok "the edited map differs from the sample" sh -c "! cmp -s '$map' '$tmp/edited.map'"

for opts in "" "-Q low --paths -c 7"; do
  rm -f "$tmp/old.nbk" "$tmp/fresh.nbk"
  ok "[$opts] the old level baked" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/old.nbk' &&
    mkabstract -q $opts '$tmp/old.nbk' &&
    mkperim -q --model '$data/models/tank.yaml' --radius 4 -o '$tmp/old.nbk'"
  status mkclear -v -j 2 --agents "$agents" "$tmp/edited.map" -o "$tmp/old.nbk"
  is "[$opts] mkclear on the old bundle: exit 0" "$rc" 0
  like "  -v: the bands written anew" "$err" "cells changed: 4 of 4 bands of rows written anew"
  like "  -v: the clusters of the graph" "$err" "the abstract graph: brought up to date:"
  status mkabstract -v $opts "$tmp/old.nbk"
  like "  mkabstract then: nothing to do" "$err" "kept as it is"
  ok "  a whole bake of the edited level" sh -c "mkclear -q --agents '$agents' '$tmp/edited.map' -o '$tmp/fresh.nbk' &&
    mkabstract -q $opts '$tmp/fresh.nbk' &&
    mkperim -q --model '$data/models/tank.yaml' --radius 4 -o '$tmp/fresh.nbk'"
  ok "  the same bytes" cmp "$tmp/old.nbk" "$tmp/fresh.nbk"
  ok "  and it verifies deep" navbake verify --deep "$tmp/old.nbk"
done

# --full computes everything and says so; the bytes are the same.
cp "$tmp/old.nbk" "$tmp/full.nbk"
status mkclear -v --full --agents "$agents" "$map" -o "$tmp/full.nbk"
like "--full: every band written anew" "$err" "4 of 4 bands of rows written anew"
like "  and the graph built whole" "$err" "built whole with its options"
rm -f "$tmp/back.nbk"
ok "  the bytes of a whole bake of that level" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/back.nbk' &&
  mkabstract -q -Q low --paths -c 7 '$tmp/back.nbk' &&
  mkperim -q --model '$data/models/tank.yaml' --radius 4 -o '$tmp/back.nbk' &&
  cmp '$tmp/full.nbk' '$tmp/back.nbk'"

# The same level again: the graph is kept, and mkabstract leaves the file
# as it is but makes its time new (so that make sees it made).
status mkclear -v --agents "$agents" "$map" -o "$tmp/back.nbk"
like "the same level: nothing written anew" "$err" "0 cells changed: 0 of 4 bands"
like "  what is kept found to be the map's" "$err" "the rest kept as stored, computed again and found to be the map's"
like "  the graph kept" "$err" "kept (no cell it depends on changed)"
ok "  the same bytes" cmp "$tmp/full.nbk" "$tmp/back.nbk"
touch -d '2001-01-01' "$tmp/back.nbk"
status mkabstract -v -Q low --paths -c 7 "$tmp/back.nbk"
like "mkabstract with the same options: kept" "$err" "kept as it is"
ok "  the file unchanged" cmp "$tmp/full.nbk" "$tmp/back.nbk"
ok "  its time made new" test "$tmp/back.nbk" -nt "$tmp/edited.map"
status mkabstract -v -Q low --paths -c 7 --full "$tmp/back.nbk"
like "  --full builds it whole" "$err" "searches"
ok "  the same bytes" cmp "$tmp/full.nbk" "$tmp/back.nbk"
status mkabstract -v -c 9 "$tmp/back.nbk"
like "other options: built whole" "$err" "clusters of 9"

# mkabstract NEW -o OLD: the graph OLD holds is brought up to date for NEW.
rm -f "$tmp/a.nbk" "$tmp/b.nbk" "$tmp/c.nbk"
ok "mkabstract -o OLD: two levels baked" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/a.nbk' &&
  mkabstract -q --paths '$tmp/a.nbk' && mkclear -q --agents '$agents' '$tmp/edited.map' -o '$tmp/b.nbk'"
status mkabstract -v --paths "$tmp/b.nbk" -o "$tmp/a.nbk"
like "  the old graph brought up to date" "$err" "brought up to date:"
ok "  the bytes of a whole build" sh -c "mkabstract -q --paths '$tmp/b.nbk' -o '$tmp/c.nbk' && cmp '$tmp/a.nbk' '$tmp/c.nbk'"

# Levels above the graph with landmarks: mkclear's update of a level bakes them again with the
# options their header holds, the bytes of a whole bake with those options.
rm -f "$tmp/l1.nbk" "$tmp/l2.nbk"
ok "levels and landmarks baked, then the level edited by mkclear" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/l1.nbk' &&
  mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 4 '$tmp/l1.nbk' &&
  mkclear -q --agents '$agents' '$tmp/edited.map' -o '$tmp/l1.nbk'"
ok "  the bytes of a whole bake of the edited level" sh -c "mkclear -q --agents '$agents' '$tmp/edited.map' -o '$tmp/l2.nbk' &&
  mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 4 '$tmp/l2.nbk' && cmp '$tmp/l1.nbk' '$tmp/l2.nbk'"
ok "  other landmarks: the levels baked again" sh -c "mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 6 '$tmp/l2.nbk' && ! cmp -s '$tmp/l1.nbk' '$tmp/l2.nbk'"
ok "  and back: the same bytes" sh -c "mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 4 '$tmp/l2.nbk' && cmp '$tmp/l1.nbk' '$tmp/l2.nbk'"

# An abstract section that is no graph this library reads (a hand-made
# one) fails the bundle's verification, which mkclear makes of the bundle
# it updates (NB_OPEN_VERIFY: every section's structure, as a query checks
# it): the update is refused, naming the section, and the bundle left as
# it was.
rm -f "$tmp/h.nbk"
ok "a hand-made abstract section" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/h.nbk' &&
  nbtest-lie graph-bytes '$tmp/h.nbk' '$tmp/h.nbk' && cp '$tmp/h.nbk' '$tmp/h0.nbk'"
status mkclear --agents "$agents" "$tmp/edited.map" -o "$tmp/h.nbk"
is "  mkclear: exit 1" "$rc" 1
like "  refused, naming the section" "$err" "cannot update the existing bundle (remove it to start afresh): $tmp/h.nbk: section 31: abstract graph: 5 bytes, shorter than its 64-byte header"
ok "  the bundle left as it was" cmp "$tmp/h.nbk" "$tmp/h0.nbk"

# The same bytes on 1, 2 and 3 threads.
for j in 1 2 3; do
  rm -f "$tmp/j$j.nbk"
  ok "-j $j bakes" sh -c "mkclear -q -j $j --agents '$agents' '$tmp/edited.map' -o '$tmp/j$j.nbk' &&
    mkabstract -q -j $j --paths '$tmp/j$j.nbk'"
done
ok "  the same bytes for 1, 2 and 3 threads" sh -c "cmp '$tmp/j1.nbk' '$tmp/j2.nbk' && cmp '$tmp/j1.nbk' '$tmp/j3.nbk'"

# The SQLite form is brought up to date the same way: the same bytes as a
# whole bake into SQLite.
rm -f "$tmp/s.sqlite" "$tmp/f.sqlite"
ok "SQLite: the old level baked" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/s.sqlite' &&
  mkabstract -q '$tmp/s.sqlite'"
status mkclear -v --agents "$agents" "$tmp/edited.map" -o "$tmp/s.sqlite"
like "  brought up to date" "$err" "the abstract graph: brought up to date:"
ok "  the bytes of a whole bake" sh -c "mkclear -q --agents '$agents' '$tmp/edited.map' -o '$tmp/f.sqlite' &&
  mkabstract -q '$tmp/f.sqlite' && cmp '$tmp/s.sqlite' '$tmp/f.sqlite'"
finish
