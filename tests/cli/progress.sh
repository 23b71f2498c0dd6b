#!/bin/sh
# progress.sh: mkclear and mkabstract on a 4096 x 4096 level show their
# progress on a terminal (run under script(1)): one line on standard error
# rewritten with carriage returns, its percentage never going back, with a
# rate and an estimate of the time left, and erased at the end; nothing
# when standard error is not a terminal or with -q; one JSON object a line
# with --progress=json.  The bundles are the same bytes whichever way.
. "$top_srcdir/tests/support/lib.sh"
command -v script >/dev/null 2>&1 || { echo "Bail out! script(1) is missing (bootstrap.sh installs bsdutils)"; exit 1; }
# Open ground with a long wall every 256 rows: 16.8 M cells.
awk 'BEGIN {
  n = 4096; print "type octile"; print "height " n; print "width " n; print "map"
  open = sprintf("%*s", n, ""); gsub(/ /, ".", open)
  wall = substr(open, 1, 100) sprintf("%*s", n - 200, ""); gsub(/ /, "@", wall); wall = wall substr(open, 1, 100)
  for (y = 0; y < n; y++) print (y % 256 == 128 ? wall : open) }' >"$tmp/big.map"
ok "a 4096 x 4096 map is made" test "$(sed -n 2p "$tmp/big.map")" = "height 4096"

# on_tty FILE COMMAND: runs the command with a terminal, keeping what it
# wrote there (stdout and stderr) in FILE, one line per carriage return.
on_tty() {
  f=$1; shift
  script -qfec "$*" "$f.raw" >/dev/null 2>&1 </dev/null
  rc=$?
  sed 1d "$f.raw" | tr '\r' '\n' | sed '/^Script done/d' >"$f"
  return $rc
}
# check_lines NAME FILE PREFIX: the progress lines of FILE.
check_lines() {
  grep "^$3 *[0-9]*%" "$2" >"$tmp/lines"
  ok "$1: progress lines on the terminal" test -s "$tmp/lines"
  ok "$1: a line with a rate and an estimate" grep -q "/s, .* left" "$tmp/lines"
  ok "$1: the percentage never goes back" awk -v p="$3" '
    { s = substr($0, length(p) + 1); sub(/%.*/, "", s); if (s + 0 < last) exit 1; last = s + 0 }' "$tmp/lines"
  # After the last progress line, blanks over it.
  ok "$1: the line is erased at the end" awk -v p="$3" '
    index($0, p) == 1 { seen = NR; erased = 0 } /^ +$/ && seen { erased = 1 } END { exit !erased }' "$2"
}

cd "$tmp" || exit 1
on_tty "$tmp/clear.tty" mkclear big.map -o tty.nbk
is "mkclear on a terminal succeeds" "$?" 0
check_lines "mkclear" "$tmp/clear.tty" "mkclear: clearance and components"
status mkclear big.map -o plain.nbk
is "mkclear without a terminal: nothing on standard error" "$err" ""
ok "the same bundle either way" cmp tty.nbk plain.nbk

on_tty "$tmp/abs.tty" mkabstract tty.nbk
is "mkabstract on a terminal succeeds" "$?" 0
check_lines "mkabstract" "$tmp/abs.tty" "mkabstract: abstract graph"
status mkabstract plain.nbk
is "mkabstract without a terminal: nothing on standard error" "$err" ""
ok "the same bundle either way" cmp tty.nbk plain.nbk

on_tty "$tmp/quiet.tty" mkclear -q big.map -o quiet.nbk
ok "mkclear -q on a terminal: no progress" sh -c "! grep -q '%' '$tmp/quiet.tty'"

# JSON, whatever standard error is: fraction never going back, the last
# object finished.
mkabstract --progress=json -o json.nbk plain.nbk 2>"$tmp/json" >/dev/null
is "mkabstract --progress=json succeeds" "$?" 0
ok "the same bundle" cmp json.nbk plain.nbk
if command -v python3 >/dev/null 2>&1; then
  status python3 -c '
import json, sys
last, objs = -1, [json.loads(l) for l in open(sys.argv[1])]
for o in objs:
    assert o["tool"] == "mkabstract" and o["unit"] == "cells" and o["total"] == 4096 * 4096, o
    assert o["fraction"] >= last and 0 <= o["fraction"] <= 1, o
    last = o["fraction"]
assert objs[-1].get("finished") is True and objs[-1]["fraction"] == 1, objs[-1]
assert all("eta_s" in o for o in objs[:-1])
print(len(objs))' "$tmp/json"
  is "every line is a JSON object, fraction rising, the last one finished" "$rc" 0
else
  skip "python3 absent: JSON not parsed"
fi
# Every other tool that can run long: --progress=json ends with a finished
# object; without a terminal, nothing on standard error.
d=$top_srcdir/data
mkclear -q --agents "$d/sample-agents.yaml" "$d/sample.map" -o s.nbk
mkabstract -q s.nbk
printf 'version 1\n0\tsample.map\t64\t40\t2\t2\t10\t2\t8.00000000\n' >s.scen
for cmd in "mkperim -q -m $d/models/humanoid.yaml -o s.nbk" \
           "mkhitcheck -u $d/units/jeep.yaml -o s.nbk" \
           "mkabstract --forest $d/forest.yaml --agent-radius 0.5 -o f.nbk" \
           "navbake verify --deep s.nbk" "navbake convert s.nbk s.sqlite" \
           "navbake scen s.nbk s.scen" "navbake render s.nbk -o s.png terrain clearance"; do
  name=${cmd%% -*}; name=${name%% s.*}
  status sh -c "$cmd --progress=json >/dev/null"
  like "$name --progress=json: the last line says it finished" "$(printf '%s\n' "$err" | tail -1)" \
    '"finished":true}'
  status sh -c "$cmd >/dev/null"
  is "$name without a terminal: nothing on standard error" "$err" ""
done
status mkclear --progress=sometimes big.map -o x.nbk
is "a bad --progress is a usage error" "$rc" 2
like "naming the choices" "$err" "--progress: 'sometimes' is not auto, none or json"
finish
