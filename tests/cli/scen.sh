#!/bin/sh
# scen.sh: Annotated A* on the MovingAI benchmark maps of ../shared/maps
# against the optimal lengths of their scenario files, through mkclear and
# 'navbake scen'.  make check runs every 100th line of every map (and each
# file's last, longest line); 'make check-scen' sets NB_SCEN_EVERY=1 and
# runs them all.  The optimal-search layer (mkclear --optimal, --method
# optimal) the same way: on three maps in make check, on every map with
# every line in check-scen; and its weak-corner layers (mkclear
# --optimal=both) on the same lines against Annotated A* with weak corners
# (the files' lengths are for strict corners: the lines where AA* finds a
# shorter way get its length).  Also: a wrong length is caught, and bad
# scenario files are refused with the file and line named.
. "$top_srcdir/tests/support/lib.sh"
every=${NB_SCEN_EVERY:-100}
maps=${NB_SHARED:+$NB_SHARED/maps}

# A scenario file of our own, for the error cases: from the sample map.
ok "the sample level bakes" mkclear "$top_srcdir/data/sample.map" -o "$tmp/s.nbk"
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t74.42640687\n' > "$tmp/good.scen"
status navbake scen "$tmp/s.nbk" "$tmp/good.scen"; is "a right length: exit 0" "$rc" 0
like "summary" "$out" "lines      1 run, 0 differ by more than 0.0001"
like "timing" "$out" "per query"
like "expansions" "$out" "million per second"
status sh -c "navbake scen '$tmp/s.nbk' - < '$tmp/good.scen'"; is "from standard input" "$rc" 0
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t74.42652000\n' > "$tmp/bad.scen"
status navbake scen "$tmp/s.nbk" "$tmp/bad.scen"; is "a length off by 1e-4 and a bit: exit 3" "$rc" 3
like "the line is named" "$out" "bad.scen:2: 2,2 -> 60,36: length 74.42640687, the file says 74.42652000"
like "and counted" "$out" "1 run, 1 differ"
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t74.4264\n' > "$tmp/d4.scen"
status navbake scen "$tmp/s.nbk" "$tmp/d4.scen"; is "4 decimals: within 1e-4" "$rc" 0
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t60\t36\t74.43\n' > "$tmp/d2.scen"
status navbake scen "$tmp/s.nbk" "$tmp/d2.scen"; is "2 decimals: within their rounding" "$rc" 0
status navbake scen --tolerance 0.0001 "$tmp/s.nbk" "$tmp/d2.scen"; is "unless --tolerance is fixed" "$rc" 3
status navbake scen --json "$tmp/s.nbk" "$tmp/good.scen"
if command -v python3 >/dev/null 2>&1; then
  ok "--json is JSON with the counts" python3 -c "import json,sys; d=json.loads(sys.argv[1]); assert d['lines']==1 and d['differ']==0 and d['expanded']>0" "$out"
else
  skip "python3 absent"
fi
printf 'version 1\n0\tx.map\t512\t512\t2\t2\t60\t36\t1\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; is "a scenario for another map size: exit 1" "$rc" 1
like "named" "$err" "e.scen:2: the line is for a 512 x 512 map, the bundle's map is 64 x 40"
printf '0\tx.map\t64\t40\t2\t2\t60\t36\t1\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; is "no version line: exit 1" "$rc" 1
like "named" "$err" "e.scen:1: expected 'version 1'"
printf 'version 1\n0\tx.map\t64\t40\t2\t2\t60\t36\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; is "8 columns: exit 1" "$rc" 1
like "named" "$err" "e.scen:2: 8 columns, expected 9"
printf 'version 1\n0\tx.map\t64\t40\t2\t-2\t60\t36\t1\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; is "a negative coordinate: exit 1" "$rc" 1
like "named" "$err" "e.scen:2: start y '-2' is not a whole number"
printf 'version 1\n0\tx.map\t64\t40\t2\t2\t60\t36\tfar\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; like "a bad length" "$err" "optimal length 'far' is not a number"
printf 'version 1\n0\tx.map\t64\t40\t70\t2\t60\t36\t1\n' > "$tmp/e.scen"
status navbake scen "$tmp/s.nbk" "$tmp/e.scen"; like "outside its map" "$err" "(70,2) -> (60,36) is outside its 64 x 40 map"
status navbake scen -m optimal "$tmp/s.nbk" "$tmp/good.scen"
is "--method optimal without the layer: Annotated A* answers, exit 0" "$rc" 0
like "... and says so" "$err" "no subgoal layer; bake one with mkclear --optimal; answering with Annotated A"
ok "mkclear --optimal" mkclear -q --optimal "$top_srcdir/data/sample.map" -o "$tmp/so.nbk"
status navbake scen -m optimal "$tmp/so.nbk" "$tmp/good.scen"
is "--method optimal with the layer: exit 0" "$rc" 0
is "... without a note" "$err" ""
for b in so s; do
  status navbake query --json -m optimal "$tmp/$b.nbk" --from 2,2 --to 60,36
  printf '%s' "$out" > "$tmp/q-$b.json"
  status navbake query --json "$tmp/$b.nbk" --from 2,2 --to 60,36
  printf '%s' "$out" > "$tmp/a-$b.json"
  ok "query --json -m optimal ($b.nbk): AA*'s length, its workspace's bytes and setup time" python3 -c "
import json; d=json.load(open('$tmp/q-$b.json')); a=json.load(open('$tmp/a-$b.json'))
assert d['found'] and abs(d['length']-a['length'])<1e-9 and d['workspace_bytes']>0 and d['setup_microseconds']>=0"
done
status navbake scen -m optimal --corner weak "$tmp/so.nbk" "$tmp/good.scen"
like "weak corners, a strict layer only: Annotated A* answers, saying why" "$err" "size 1 and weak corners (it has"
ok "mkclear --optimal=weak" mkclear -q --optimal=weak "$top_srcdir/data/sample.map" -o "$tmp/sw.nbk"
status navbake query --json -m optimal --corner weak "$tmp/sw.nbk" --from 2,2 --to 60,36
printf '%s' "$out" > "$tmp/q-w.json"; qerr=$err
status navbake query --json --corner weak "$tmp/sw.nbk" --from 2,2 --to 60,36
printf '%s' "$out" > "$tmp/a-w.json"
ok "... its layer answers weak queries: Annotated A*'s weak length, shorter than the strict one" python3 -c "
import json; d=json.load(open('$tmp/q-w.json')); a=json.load(open('$tmp/a-w.json')); s=json.load(open('$tmp/q-so.json'))
assert d['found'] and abs(d['length']-a['length'])<1e-9 and d['length']<s['length']-1e-9"
is "... without falling back" "$qerr" ""
status mkclear --optimal=diagonal "$top_srcdir/data/sample.map" -o "$tmp/sx.nbk"
is "mkclear --optimal=diagonal: a usage error" "$rc" 2
like "... naming the rules" "$err" "expected strict (the default), weak or both"
status navbake scen "$tmp/s.nbk"; is "no scenario file: exit 2" "$rc" 2
status navbake scen "$tmp/s.nbk" "$tmp/none.scen"; is "a missing file: exit 1" "$rc" 1

if [ -z "$maps" ] || [ ! -d "$maps" ]; then
  skip "../shared/maps absent (NB_SHARED): the benchmark maps are not run"
  finish; exit
fi
optimal_maps=" dao/arena.map mazes/maze512-32-9.map bg/AR0042SR.map "
for map in "$maps"/*/*.map; do
  name=${map#"$maps"/}
  [ -f "$map.scen" ] || continue
  opt=
  case "$optimal_maps" in *" $name "*) opt=--optimal=both ;; esac
  [ "$every" = 1 ] && opt=--optimal=both
  rm -f "$tmp/m.nbk"
  if ! mkclear $opt "$map" -o "$tmp/m.nbk" 2>"$tmp/.e"; then
    ok "$name: baked" false; continue
  fi
  awk -v k="$every" 'NR == 1 || (NR - 2) % k == 0 { print; next } { last = $0 } END { if ((NR - 2) % k != 0) print last }' \
    "$map.scen" > "$tmp/m.scen"
  lines=$(($(wc -l < "$tmp/m.scen") - 1))
  status navbake scen "$tmp/m.nbk" "$tmp/m.scen"
  is "$name: $lines scenario lines, every length optimal" "$rc" 0
  [ "$rc" = 0 ] || printf '%s\n' "$out" "$err" | sed 's/^/#   /' | head -12
  [ -n "$opt" ] || continue
  status navbake scen -m optimal "$tmp/m.nbk" "$tmp/m.scen"
  is "$name: $lines scenario lines, every length optimal with --method optimal" "$rc:$err" "0:"
  [ "$rc" = 0 ] || printf '%s\n' "$out" "$err" | sed 's/^/#   /' | head -12
  # Weak corners: the file with Annotated A*'s weak lengths where they differ
  # (fields split at blanks: some files use spaces, most tabs).
  navbake scen --corner weak -v "$tmp/m.nbk" "$tmp/m.scen" 2>/dev/null |
    awk '$1 == "differs" { n = split($2, a, ":"); l = $7; sub(/,$/, "", l); print a[n - 1], l }' > "$tmp/w.len"
  awk -v OFS='\t' -v lens="$tmp/w.len" '
    BEGIN { while ((getline l < lens) > 0) { split(l, p, " "); len[p[1]] = p[2] } }
    FNR in len { $9 = len[FNR] } { print }' "$tmp/m.scen" > "$tmp/w.scen"
  status navbake scen -m optimal --corner weak "$tmp/m.nbk" "$tmp/w.scen"
  is "$name: the same lines with weak corners: Annotated A*'s lengths with --method optimal ($(wc -l < "$tmp/w.len") shorter than the file's)" "$rc:$err" "0:"
  [ "$rc" = 0 ] || printf '%s\n' "$out" "$err" | sed 's/^/#   /' | head -12
done
finish
