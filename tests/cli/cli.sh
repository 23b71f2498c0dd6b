#!/bin/sh
# cli.sh: the navbake inspector from the command line: help, version and
# exit codes; info against counts made independently from the map file;
# verify on intact and damaged bundles; dump round trips.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map

ok "a sample bundle is baked" nbtest-bundle --agents "$data/sample-agents.yaml" "$map" "$tmp/s.nbk"
ok "and one with a zlib map" nbtest-bundle --zlib --agents "$data/sample-agents.yaml" "$map" "$tmp/z.nbk"

# --help, --version and exit codes.
status navbake --help; is "navbake --help exits 0" "$rc" 0
like "--help lists the commands" "$out" "verify"
status navbake --version; like "navbake --version" "$out" "navbake (navbake) "
status navbake; is "no command: exit 2" "$rc" 2
like "and a message" "$err" "navbake: no command given"
status navbake frobnicate; is "unknown command: exit 2" "$rc" 2
like "named" "$err" "unknown command 'frobnicate'"
for c in info verify dump; do
  status navbake $c --help; is "navbake $c --help exits 0" "$rc" 0
  like "navbake $c --help shows usage" "$out" "Usage: navbake $c"
  status navbake $c --version; is "navbake $c --version exits 0" "$rc" 0
  status navbake $c --bogus "$tmp/s.nbk"; is "navbake $c --bogus: exit 2" "$rc" 2
done
status navbake help dump; like "navbake help dump" "$out" "Usage: navbake dump"
status navbake info; is "info without a bundle: exit 2" "$rc" 2
status navbake info "$tmp/none.nbk"; is "info on a missing file: exit 1" "$rc" 1
like "with the file named" "$err" "$tmp/none.nbk: cannot open: No such file or directory"
status navbake info "$map"; is "info on a map file: exit 1" "$rc" 1
like "not a bundle" "$err" "not a navbake bundle"

# info: the counts come from the map file, counted here with awk.
status navbake info "$tmp/s.nbk"; is "info exits 0" "$rc" 0
like "info: format" "$out" "format     1.0"
like "info: map size" "$out" "map        64 x 40 cells"
count() { awk -v set="$1" 'NR > 4 { n += gsub("[" set "]", "") } END { print n + 0 }' "$map"; }
like "info: ground cells" "$out" "ground       chars \".G\", $(count '.G') cells"
like "info: swamp cells" "$out" "swamp        chars \"S\", $(count S) cells"
like "info: water cells" "$out" "water        chars \"W\", $(count W) cells"
like "info: trees cells" "$out" "trees        chars \"T\", $(count T) cells"
like "info: obstacle cells" "$out" "obstacles       chars \"@O\", $(count '@O') cells"
like "info: agents" "$out" "amphibian      size 2   capability ground,swamp,water"
like "info: map section" "$out" "map         2   packed"
like "info: map parameters" "$out" "width=64 height=40"
status navbake info "$tmp/z.nbk"; like "info: a zlib map" "$(printf '%s\n' "$out" | grep ' map ')" "zlib+packed"
status navbake info --json "$tmp/s.nbk"; is "info --json exits 0" "$rc" 0
if command -v python3 >/dev/null 2>&1; then
  ok "info --json is valid JSON with the map size" sh -c \
    "navbake info --json '$tmp/s.nbk' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"map\"][\"width\"]==64 and len(d[\"agents\"])==4 and d[\"sections\"][2][\"params\"][\"height\"]==40'"
else
  skip "python3 absent: JSON not parsed"
fi
status sh -c "cat '$tmp/s.nbk' | navbake info -"; like "info reads standard input" "$out" "64 x 40"

# verify.
status navbake verify "$tmp/s.nbk" "$tmp/z.nbk"; is "verify: intact bundles exit 0" "$rc" 0
like "verify says ok" "$out" "s.nbk: ok, 3 sections"
cp "$tmp/s.nbk" "$tmp/d.nbk"
size=$(wc -c < "$tmp/d.nbk")
printf 'X' | dd of="$tmp/d.nbk" bs=1 seek=$((size - 10)) conv=notrunc 2>/dev/null
status navbake verify "$tmp/d.nbk"; is "verify: a damaged map exits 1" "$rc" 1
like "and names the damaged section" "$err" "section 2 (map)"
like "as damaged" "$err" "the section is damaged"
status navbake verify -q "$tmp/s.nbk" "$tmp/d.nbk"; is "verify several: 1 when any is damaged" "$rc" 1
is "verify -q prints nothing for intact ones" "$out" ""
head -c 1000 "$tmp/s.nbk" > "$tmp/t.nbk"
status navbake verify "$tmp/t.nbk"; is "verify: a truncated bundle exits 1" "$rc" 1
like "and says it is truncated" "$err" "truncated"

# dump.
status navbake dump "$tmp/s.nbk" map; is "dump map exits 0" "$rc" 0
navbake dump "$tmp/s.nbk" map > "$tmp/back.map"
ok "dump map gives back the map file byte for byte" cmp "$map" "$tmp/back.map"
navbake dump "$tmp/z.nbk" map > "$tmp/backz.map"
ok "so does a zlib map" cmp "$map" "$tmp/backz.map"
navbake dump "$tmp/s.nbk" legend > "$tmp/legend.yaml"
navbake dump "$tmp/s.nbk" agents > "$tmp/agents.yaml"
ok "the dumped legend and agents bake the same bundle" \
  nbtest-bundle --legend "$tmp/legend.yaml" --agents "$tmp/agents.yaml" "$tmp/back.map" "$tmp/s2.nbk"
ok "byte for byte" cmp "$tmp/s.nbk" "$tmp/s2.nbk"
status navbake dump "$tmp/s.nbk" legend agents; like "several sections are headed" "$out" "# section 1: agents"
status navbake dump "$tmp/s.nbk" 0; like "a section by number" "$out" "terrains:"
status navbake dump "$tmp/s.nbk" clearance; is "dump of an absent section: exit 1" "$rc" 1
like "named" "$err" "no clearance section"
status navbake dump "$tmp/s.nbk" nonsense; is "dump of an unknown type: exit 2" "$rc" 2
status navbake dump "$tmp/s.nbk" 7; is "dump of a section number out of range: exit 1" "$rc" 1
status navbake dump "$tmp/s.nbk"; is "dump without a section: exit 2" "$rc" 2

# Streams are read no further than their header says: a device that never
# ends is refused at once, a stream longer than its bundle is named so.
tmo=; command -v timeout >/dev/null 2>&1 && tmo="timeout 60"
status $tmo navbake info /dev/zero; is "info on /dev/zero: exit 1, not a hang" "$rc" 1
like "named not a bundle" "$err" "/dev/zero: not a navbake bundle"
status sh -c "cat /dev/urandom | $tmo navbake info -"; is "an endless random stream: exit 1" "$rc" 1
like "named not a bundle" "$err" "(standard input): not a navbake bundle"
status sh -c "{ cat '$tmp/s.nbk'; head -c 300000 /dev/zero; } | navbake info -"
is "a stream longer than its bundle: exit 1" "$rc" 1
like "says the size does not match" "$err" "truncated or extended"
status sh -c "cat '$tmp/s.nbk' '$tmp/s.nbk' | navbake verify -"; is "two bundles back to back: exit 1" "$rc" 1

# An output that is a FIFO or a device is refused before it is opened:
# renaming a new file onto it would replace it.
if mkfifo "$tmp/fifo" 2>/dev/null; then
  status $tmo navbake convert "$tmp/s.nbk" "$tmp/fifo"; is "convert onto a FIFO: exit 1" "$rc" 1
  like "saying why" "$err" "$tmp/fifo: not a regular file"
  ok "the FIFO is still a FIFO" test -p "$tmp/fifo"
else
  skip "mkfifo failed"; skip "mkfifo failed"; skip "mkfifo failed"
fi

# Writing to a full device is an error, not silence.
if [ -w /dev/full ]; then
  status sh -c "navbake info '$tmp/s.nbk' > /dev/full"; is "output to a full disk: exit 1" "$rc" 1
  like "with a message" "$err" "write error"
else
  skip "/dev/full absent"; skip "/dev/full absent"
fi
finish
