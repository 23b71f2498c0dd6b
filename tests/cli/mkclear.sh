#!/bin/sh
# mkclear.sh: mkclear from the command line.  Its clearance layers against
# the paper's square growing done again here in awk, straight from the map
# file; the example of formats/clearance.md; determinism; encodings; usage
# and input errors; a damaged bundle left untouched.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml
tiny=$top_srcdir/tests/data/clearance-tiny.map
tinyagents=$top_srcdir/tests/data/clearance-tiny-agents.yaml

# brute MAP CHARS CAP: true clearance by growing squares (Algorithm 1),
# capped, as H rows of W integers.
brute() {
  awk -v set="$2" -v cap="$3" '
    NR > 4 { h++; w = length($0); for (x = 1; x <= w; x++) c[x, h] = index(set, substr($0, x, 1)) > 0 }
    END {
      for (y = 1; y <= h; y++) {
        line = ""
        for (x = 1; x <= w; x++) {
          s = 0
          while (s < cap) {
            okk = 1
            for (dy = 0; dy <= s && okk; dy++) for (dx = 0; dx <= s && okk; dx++)
              if (x + dx > w || y + dy > h || !c[x + dx, y + dy]) okk = 0
            if (!okk) break
            s++
          }
          line = line (x > 1 ? " " : "") s
        }
        print line
      }
    }' "$1"
}

status mkclear --help; is "--help exits 0" "$rc" 0
like "--help shows usage" "$out" "Usage: mkclear [OPTION]... MAP -o BUNDLE"
status mkclear --version; like "--version" "$out" "mkclear (navbake) "
status mkclear; is "no map: exit 2" "$rc" 2
like "and says so" "$err" "mkclear: no map given"
status mkclear "$map"; is "no -o: exit 2" "$rc" 2
status mkclear "$map" "$map" -o "$tmp/x.nbk"; is "two maps: exit 2" "$rc" 2
status mkclear --encoding lzma "$map" -o "$tmp/x.nbk"; is "unknown encoding: exit 2" "$rc" 2
like "named" "$err" "'lzma' is neither 'packed' nor 'zlib'"
status mkclear --frob "$map" -o "$tmp/x.nbk"; is "unknown option: exit 2" "$rc" 2

if mkfifo "$tmp/fifo" 2>/dev/null; then
  status mkclear "$map" -o "$tmp/fifo"; is "output onto a FIFO: exit 1, before it is opened" "$rc" 1
  like "saying why" "$err" "$tmp/fifo: not a regular file"
  ok "the FIFO is still a FIFO" test -p "$tmp/fifo"
  rm -f "$tmp/fifo"
else
  skip "mkfifo failed"; skip "mkfifo failed"; skip "mkfifo failed"
fi

ok "the sample level bakes" mkclear --agents "$agents" "$map" -o "$tmp/s.nbk"
ok "and verifies" navbake verify "$tmp/s.nbk"
status navbake info "$tmp/s.nbk"
like "info: a clearance layer per capability, 2 bits for sizes up to 3" "$out" \
  "clearance   1   packed              664        664"
like "info: its parameters" "$out" "capability=ground,swamp,trees cap=3 bits=2"
like "info: bytes per cell" "$out" "(0.259 bytes/cell)"
like "info: components per (capability, size)" "$out" "capability=ground size=3 components="
is "4 capabilities x 3 sizes: 12 component layers" \
  "$(printf '%s\n' "$out" | grep -c '  components  ')" 12

# Every capability of the sample agents against awk's square growing.
for pair in "ground,swamp:.GS" "ground:.G" "ground,swamp,water:.GSW" "ground,swamp,trees:.GST"; do
  caps=${pair%%:*} chars=${pair#*:}
  navbake dump "$tmp/s.nbk" clearance --capability "$caps" > "$tmp/ours" 2>&1
  brute "$map" "$chars" 3 > "$tmp/theirs"
  ok "sample.map {$caps}: clearance equals square growing" cmp "$tmp/ours" "$tmp/theirs"
done
status navbake dump "$tmp/s.nbk" clearance --capability water
is "no layer for {water}: exit 1" "$rc" 1
like "said" "$err" "no clearance section built for that capability"
status navbake dump "$tmp/s.nbk" clearance --capability lava; is "unknown terrain: exit 2" "$rc" 2

# The example in formats/clearance.md is what the tools print.
ok "the tiny example bakes" mkclear --agents "$tinyagents" "$tiny" -o "$tmp/tiny.nbk"
doc=$top_srcdir/formats/clearance.md
example() { awk -v cmd="$1" 'f && (/^    \$/ || /^$/) { exit } f { sub(/^    /, ""); print } index($0, cmd) { f = 1 }' "$doc"; }
navbake dump "$tmp/tiny.nbk" clearance --capability ground > "$tmp/ours"
example "dump tiny.nbk clearance --capability ground" > "$tmp/doc"
ok "formats/clearance.md: the clearance example" cmp "$tmp/ours" "$tmp/doc"
navbake dump "$tmp/tiny.nbk" components --capability ground,swamp --size 2 > "$tmp/ours"
example "dump tiny.nbk components --capability ground,swamp --size 2" > "$tmp/doc"
ok "formats/clearance.md: the components example" cmp "$tmp/ours" "$tmp/doc"
brute "$tiny" ".G" 2 > "$tmp/theirs"
navbake dump "$tmp/tiny.nbk" clearance --capability ground > "$tmp/ours"
ok "and it is square growing" cmp "$tmp/ours" "$tmp/theirs"

# Determinism, encodings, standard input and output.
ok "a second bake" mkclear --agents "$agents" "$map" -o "$tmp/s2.nbk"
ok "gives the same bytes" cmp "$tmp/s.nbk" "$tmp/s2.nbk"
ok "baking again in place" mkclear --agents "$agents" "$map" -o "$tmp/s2.nbk"
ok "changes nothing" cmp "$tmp/s.nbk" "$tmp/s2.nbk"
ok "zlib bakes" mkclear --zlib --agents "$agents" "$map" -o "$tmp/z.nbk"
status navbake info "$tmp/z.nbk"; like "zlib layers" "$out" "zlib+packed"
navbake dump "$tmp/s.nbk" clearance components > "$tmp/a"
navbake dump "$tmp/z.nbk" clearance components > "$tmp/b"
ok "zlib layers hold the same values" cmp "$tmp/a" "$tmp/b"
ok "smaller" test "$(wc -c < "$tmp/z.nbk")" -lt "$(wc -c < "$tmp/s.nbk")"
ok "the map from standard input" sh -c "mkclear --agents '$agents' - -o '$tmp/in.nbk' < '$map'"
ok "same bytes" cmp "$tmp/s.nbk" "$tmp/in.nbk"
ok "the bundle to standard output" sh -c "mkclear --agents '$agents' '$map' -o - > '$tmp/out.nbk'"
ok "same bytes" cmp "$tmp/s.nbk" "$tmp/out.nbk"
ok "default agents (MovingAI)" mkclear "$map" -o "$tmp/d.nbk"
status navbake info "$tmp/d.nbk"; like "one 1-bit layer" "$out" "capability=ground,swamp cap=1 bits=1"

# Bad inputs: clear errors, exit 1, nothing written.
status mkclear "$tmp/none.map" -o "$tmp/e.nbk"; is "missing map: exit 1" "$rc" 1
like "named" "$err" "none.map: cannot open"
ok "nothing written" test ! -e "$tmp/e.nbk"
printf 'agents:\n  - name: x\n    size: 2\n    capability: [lava]\n' > "$tmp/bad.yaml"
status mkclear --agents "$tmp/bad.yaml" "$map" -o "$tmp/e.nbk"; is "bad agents: exit 1" "$rc" 1
like "with file and line" "$err" "bad.yaml:4:"
printf 'type octile\nheight 2\nwidth 2\nmap\n..\n.x\n' > "$tmp/bad.map"
status mkclear "$tmp/bad.map" -o "$tmp/e.nbk"; is "bad map: exit 1" "$rc" 1
like "with line and column" "$err" "bad.map:6:2"
cp "$tmp/s.nbk" "$tmp/dmg.nbk"
size=$(wc -c < "$tmp/dmg.nbk")
printf 'X' | dd of="$tmp/dmg.nbk" bs=1 seek=$((size - 5)) conv=notrunc 2>/dev/null
cp "$tmp/dmg.nbk" "$tmp/dmg.orig"
status mkclear --agents "$agents" "$map" -o "$tmp/dmg.nbk"; is "a damaged bundle: exit 1" "$rc" 1
like "refused, saying how to start afresh" "$err" "cannot update the existing bundle (remove it to start afresh)"
ok "and left as it was" cmp "$tmp/dmg.nbk" "$tmp/dmg.orig"
status mkclear "$map" -o "$tmp/nodir/x.nbk"; is "unwritable output: exit 1" "$rc" 1
like "named" "$err" "nodir/x.nbk"
finish
