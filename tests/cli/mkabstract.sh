#!/bin/sh
# mkabstract.sh: mkabstract's grid mode from the command line: usage
# errors, the sample level baked and verified, the other sections left as
# they were, determinism, standard input and output, stored paths and what
# navbake info says of them, the qualities, and bad bundles refused with
# nothing written.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml

status mkabstract --help; is "--help exits 0" "$rc" 0
like "shows the grid usage" "$out" "Usage: mkabstract [OPTION]... BUNDLE [-o OUT]"
like "and mentions --forest" "$out" "--forest"
status mkabstract --version; like "--version" "$out" "mkabstract (navbake) "
status mkabstract; is "no bundle: exit 2" "$rc" 2
like "said so" "$err" "mkabstract: no bundle given"
status mkabstract a.nbk b.nbk; is "two bundles: exit 2" "$rc" 2
status mkabstract --cluster-size 0 a.nbk; is "cluster size 0: exit 2" "$rc" 2
like "named, with the range" "$err" "--cluster-size: '0' is not a whole number from 1 to 255"
status mkabstract -c 256 a.nbk; is "cluster size 256: exit 2" "$rc" 2
status mkabstract --landmarks 17 a.nbk; is "17 landmarks: exit 2" "$rc" 2
like "named, with the range" "$err" "--landmarks: '17' is not a whole number from 0 to 16"
status mkabstract --landmarks x a.nbk; is "landmarks not a number: exit 2" "$rc" 2
status mkabstract --quality best a.nbk; is "unknown quality: exit 2" "$rc" 2
like "named" "$err" "--quality: 'best' is not one of the choices"
status mkabstract --placement left a.nbk; is "unknown placement: exit 2" "$rc" 2
status mkabstract --corner round a.nbk; is "unknown corner rule: exit 2" "$rc" 2
status mkabstract --frob a.nbk; is "unknown option: exit 2" "$rc" 2

# The sample level.
ok "mkclear bakes the sample level" mkclear --agents "$agents" "$map" -o "$tmp/s.nbk"
cp "$tmp/s.nbk" "$tmp/level.nbk"
status mkabstract -v "$tmp/s.nbk"; is "mkabstract bakes its graph in place" "$rc" 0
like "-v: what was built" "$err" "clusters of 10, high quality, ends placement:"
like "-v: what each rule dropped" "$err" "strongly dominated"
ok "the bundle verifies (the graph's structure too)" navbake verify "$tmp/s.nbk"
status navbake info "$tmp/s.nbk"
like "info: the abstract section and its parameters" "$out" "cluster=10 quality=1 nodes="
like "info: its bytes per cell" "$out" "bytes/cell)"
navbake info "$tmp/level.nbk" | grep -v '^bundle\|^file\|abstract\|^bytes/cell' > "$tmp/before"
navbake info "$tmp/s.nbk" | grep -v '^bundle\|^file\|abstract\|^bytes/cell' > "$tmp/after"
ok "every other section is kept as it was (same CRCs)" cmp "$tmp/before" "$tmp/after"
ok "a second bake from the level" mkabstract "$tmp/level.nbk" -o "$tmp/s2.nbk"
ok "gives the same bytes" cmp "$tmp/s.nbk" "$tmp/s2.nbk"
ok "and -o left the level as it was" sh -c "navbake info '$tmp/level.nbk' | grep -vq abstract"
ok "baking again in place" mkabstract "$tmp/s2.nbk"
ok "changes nothing" cmp "$tmp/s.nbk" "$tmp/s2.nbk"
ok "the bundle from standard input to standard output" \
  sh -c "mkabstract - < '$tmp/level.nbk' > '$tmp/pipe.nbk'"
ok "same bytes" cmp "$tmp/s.nbk" "$tmp/pipe.nbk"

# Options: stored paths, quality, cluster size, zlib.
ok "--paths" mkabstract --paths "$tmp/level.nbk" -o "$tmp/p.nbk"
status navbake info "$tmp/p.nbk"
like "info shows what the stored paths cost" "$out" "% of it)"
ok "and it is larger" test "$(wc -c < "$tmp/p.nbk")" -gt "$(wc -c < "$tmp/s.nbk")"
ok "--quality low" mkabstract --quality low "$tmp/level.nbk" -o "$tmp/low.nbk"
status navbake info "$tmp/low.nbk"; like "info: quality 2, the first-pair placement" "$out" "quality=2"
like "placement 0" "$out" "placement=0"
ok "smaller than high quality" test "$(wc -c < "$tmp/low.nbk")" -lt "$(wc -c < "$tmp/s.nbk")"
ok "--cluster-size 16 --placement spread --spread 4" \
  mkabstract -c 16 -p spread --spread 4 "$tmp/level.nbk" -o "$tmp/c16.nbk"
status navbake info "$tmp/c16.nbk"; like "info: cluster 16, placement 2" "$out" "cluster=16 quality=1"
ok "--zlib" mkabstract -z "$tmp/level.nbk" -o "$tmp/z.nbk"
status navbake info "$tmp/z.nbk"; like "a zlib section" "$out" "abstract    1   zlib+raw"
ok "that verifies" navbake verify "$tmp/z.nbk"
ok "a cluster larger than the map" mkabstract -c 255 "$tmp/level.nbk" -o "$tmp/one.nbk"

# Bad bundles: exit 1, named, nothing written.
status mkabstract "$tmp/none.nbk"; is "a missing bundle: exit 1" "$rc" 1
like "named" "$err" "none.nbk"
ok "a level without clearance layers" nbtest-bundle --agents "$agents" "$map" "$tmp/bare.nbk"
cp "$tmp/bare.nbk" "$tmp/bare.orig"
status mkabstract "$tmp/bare.nbk"; is "no clearance: exit 1" "$rc" 1
like "says which layer and how to make it" "$err" "no clearance layer for capability {ground,swamp}"
like "with mkclear" "$err" "bake one with mkclear"
ok "and left the bundle as it was" cmp "$tmp/bare.nbk" "$tmp/bare.orig"
cp "$tmp/s.nbk" "$tmp/dmg.nbk"
size=$(wc -c < "$tmp/dmg.nbk")
printf 'X' | dd of="$tmp/dmg.nbk" bs=1 seek=$((size - 5)) conv=notrunc 2>/dev/null
cp "$tmp/dmg.nbk" "$tmp/dmg.orig"
status mkabstract "$tmp/dmg.nbk"; is "a damaged bundle: exit 1" "$rc" 1
like "refused" "$err" "dmg.nbk"
ok "and left as it was" cmp "$tmp/dmg.nbk" "$tmp/dmg.orig"
status mkabstract "$tmp/level.nbk" -o "$tmp/nodir/x.nbk"; is "unwritable output: exit 1" "$rc" 1
like "named" "$err" "nodir/x.nbk"

# navbake query and scen with --method haa, measured against Annotated A*.
status navbake query --help; like "query --help lists HAA*" "$out" "haa: HAA* on the bundle's abstract graph"
status navbake query --method haa "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
is "query --method haa: exit 0" "$rc" 0
like "finds the path" "$out" "status     found"
hlen=$(printf '%s\n' "$out" | awk '/^length/ { print $2 }')
is "runs HAA* alone: no optimum without --compare" "$(printf '%s\n' "$out" | grep -c -e '^optimal' -e '^error')" 0
status navbake query --method haa --json "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
is "... nor in JSON" "$(printf '%s\n' "$out" | grep -c -e optimal -e error_pct)" 0
status navbake query --method aa --compare "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
is "--compare with an exact method: a usage error" "$rc" 2
like "... saying why" "$err" "the aa method's paths are the shortest already"
status navbake query --method haa --compare "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
is "query --method haa --compare: exit 0" "$rc" 0
like "and gives Annotated A*'s optimum" "$out" "(Annotated A*)"
is "the same HAA* path as without --compare" "$(printf '%s\n' "$out" | awk '/^length/ { print $2 }')" "$hlen"
len=$(printf '%s\n' "$out" | awk '/^length/ { print $2 }')
opt=$(printf '%s\n' "$out" | awk '/^optimal/ { print $2 }')
aa=$(navbake query "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35 | awk '/^length/ { print $2 }')
is "that optimum is Annotated A*'s length" "$opt" "$aa"
ok "HAA*'s length is no shorter" awk -v a="$len" -v b="$opt" 'BEGIN { exit !(a >= b - 1e-9) }'
err=$(printf '%s\n' "$out" | awk '/^error/ { print $2 }')
ok "and the error is what the lengths say" \
  awk -v e="$err" -v a="$len" -v b="$opt" 'BEGIN { d = 100 * (a - b) / b - e; exit !(d < 0.001 && d > -0.001) }'
status navbake query --method haa --compare --json "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
like "JSON: the error" "$out" '"error_pct": '
status navbake query --method haa-smooth "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
slen=$(printf '%s\n' "$out" | awk '/^length/ { print $2 }')
ok "haa-smooth: no longer than the cell path" awk -v a="$slen" -v b="$len" 'BEGIN { exit !(a <= b + 1e-9) }'
like "... its path counted as waypoints, not cells" "$(printf '%s\n' "$out" | grep '^length')" " waypoints)"
status navbake query --method haa-smooth --compare "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
is "haa-smooth --compare: exit 0 (straight segments shorter than the grid's optimum are no mismatch)" "$rc" 0
serr=$(printf '%s\n' "$out" | awk '/^error/ { print $2 }')
ok "... its error ($serr %) is of the waypoints' length ($slen) against the optimum ($opt)" \
  awk -v e="$serr" -v a="$slen" -v b="$opt" 'BEGIN { d = 100 * (a - b) / b - e; exit !(e != "" && d < 0.001 && d > -0.001) }'
like "... and says so" "$out" "(of the waypoints' length"
status navbake query --method haa-smooth --json "$tmp/s.nbk" --agent wagon --from 1,1 --to 60,35
like "... JSON: the path is of waypoints" "$out" '"path_of": "waypoints"'
status navbake query --method haa "$tmp/level.nbk" --agent wagon --from 1,1 --to 60,35
is "query --method haa without a graph: exit 1" "$rc" 1
like "says how to make one" "$err" "no abstract graph; bake one with mkabstract"
status navbake query --method haa "$tmp/s.nbk" --size 2 --capability ground,water --from 1,1 --to 60,35
is "a capability the graph does not serve: exit 1" "$rc" 1
# A scenario file of the sample map, with Annotated A*'s lengths.
{
  echo "version 1"
  for q in "1 1 60 35" "2 2 30 3" "5 30 62 2" "10 10 12 12" "40 20 3 38"; do
    set -- $q
    l=$(navbake query "$tmp/s.nbk" --capability ground,swamp --from "$1,$2" --to "$3,$4" | awk '/^length/ { print $2 }')
    [ -n "$l" ] && printf '0\tsample.map\t64\t40\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$l"
  done
} > "$tmp/s.scen"
status navbake scen --method haa "$tmp/s.nbk" "$tmp/s.scen"
is "scen --method haa: exit 0" "$rc" 0
nq=$(grep -c 'sample.map' "$tmp/s.scen")
like "every line run, a path each" "$out" "lines      $nq run, $nq paths"
like "the error against Annotated A*" "$out" "against Annotated A*'s optimal lengths"
like "and Annotated A*'s time beside" "$out" "reference  Annotated A* mean"
status navbake scen --method haa --json "$tmp/s.nbk" "$tmp/s.scen"
like "JSON: the error members" "$out" '"mismatches": 0'

# mkclear with another agent set removes the graph, which mkabstract rebuilds.
status mkclear "$map" -o "$tmp/s2.nbk"
like "mkclear removes the old level's graph" "$err" "1 abstract"
ok "which mkabstract bakes again" mkabstract "$tmp/s2.nbk"
ok "for the new agent set" navbake verify "$tmp/s2.nbk"
finish
