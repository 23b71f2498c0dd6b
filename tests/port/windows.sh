#!/bin/sh
# windows.sh (make check-windows): the runtime cross built for Windows with
# mingw-w64 from the distribution in _windows/src, installed, a program
# built against the installed tree with pkg-config, and run under Wine:
# tests/port/nbport's answers on every query family, every way of opening
# a bundle and every error path must be those of the same program built
# here, line for line.  Ends with "N passed, N failed".
. "$top_srcdir/tests/support/lib.sh"
host=${NB_WINDOWS_HOST:-x86_64-w64-mingw32}
w=$top_builddir/_windows
mkdir -p "$w/build" "$w/run" || exit 1
log=$w/build.log
: >"$log"

# The cross build: the runtime alone (no libyaml or SQLite for Windows in
# Debian), zlib from libz-mingw-w64-dev.
build() {
  cd "$w/build" &&
  ../src/configure -q --host="$host" --disable-tools --disable-sqlite-runtime --enable-werror \
    --prefix=/navbake PKG_CONFIG_LIBDIR="/usr/$host/lib/pkgconfig" PKG_CONFIG_PATH= &&
  ${MAKE:-make} -s &&
  ${MAKE:-make} -s tests/port/nbport.exe &&
  ${MAKE:-make} -s install DESTDIR="$w/root"
}
(build) >>"$log" 2>&1
is "configure --host=$host --disable-tools --disable-sqlite-runtime, make, make install" "$?" 0
if [ "$failed" -ne 0 ]; then
  echo "Bail out! the cross build failed; $log ends:"
  tail -20 "$log" | sed 's/^/# /'
  echo "0 passed, 1 failed"
  exit 1
fi
root=$w/root/navbake
for f in bin/libnavbake-2.dll lib/libnavbake.dll.a lib/libnavbake.a include/navbake.h \
         lib/pkgconfig/navbake.pc share/man/man3/navbake.3; do
  ok "installed: $f" test -f "$root/$f"
done
ok "the DLL exports only nb_ names" sh -c \
  "$host-objdump -p '$root/bin/libnavbake-2.dll' | awk '/Ordinal\\/Name Pointer/ {on=1; next} on && NF == 3 && \$1 ~ /^\\[/ {print \$3} on && NF == 0 {on=0}' > '$w/exports' &&
   test -s '$w/exports' && ! grep -v '^nb_' '$w/exports'"
# What a game ships beside it: Windows' own DLLs and zlib, nothing of the
# compiler's (a builtin once made it need libgcc_s_seh-1.dll).
imports=$("$host-objdump" -p "$root/bin/libnavbake-2.dll" | sed -n 's/.*DLL Name: //p' | tr '\n' ' ')
is "the DLL needs Windows' DLLs and zlib only" "$(printf '%s\n' $imports |
  grep -v -i -x -e 'KERNEL32.dll' -e 'msvcrt.dll' -e 'zlib1.dll' -e 'api-ms-win-.*' | tr '\n' ' ')" ""

# A program built the way a game's build would: the installed header and
# import library, found with pkg-config (the .pc file finds its prefix from
# its own place), and the DLLs beside the program.
pc="env PKG_CONFIG_LIBDIR=$root/lib/pkgconfig:/usr/$host/lib/pkgconfig PKG_CONFIG_PATH= pkg-config"
inc=$($pc --cflags navbake | sed -n 's/^-I\([^ ]*\).*/\1/p')
is "pkg-config finds the installed tree from the .pc file's place" \
  "$(cd "$inc" 2>/dev/null && pwd -P)" "$(cd "$root/include" && pwd -P)"
ok "nbport builds against it with $host-gcc" \
  sh -c "$host-gcc -std=c11 -Wall -Werror -I'$top_srcdir/lib/port' -o '$w/run/nbport.exe' \
    '$top_srcdir/tests/port/nbport.c' \$($pc --cflags --libs navbake)"
cp "$root/bin/libnavbake-2.dll" "/usr/$host/lib/zlib1.dll" "$w/run/" 2>/dev/null
ok "the libtool-built nbport.exe links the DLL too" \
  sh -c "$host-objdump -p '$w/build/tests/port/.libs/nbport.exe' 2>/dev/null | grep -q 'DLL Name: libnavbake-2.dll' ||
         $host-objdump -p '$w/build/tests/port/nbport.exe' | grep -q 'DLL Name: libnavbake-2.dll'"

# Wine, in a prefix of its own (made once; its first start takes a while).
WINEPREFIX=$w/wine WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=' WINEARCH=win64
export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES WINEARCH
wine=$(command -v wine64 || command -v wine)
[ -d "$WINEPREFIX" ] || "$wine" wineboot -i >>"$log" 2>&1
trap '"${wine%/*}/wineserver" -k 2>/dev/null; rm -rf "$tmp"' EXIT

# The bundles, baked here; the damaged files the error paths read.
cd "$w/run" || exit 1
d=$top_srcdir/data
{ mkclear -q --agents "$d/sample-agents.yaml" "$d/sample.map" -o sample.nbk &&
  mkabstract -q sample.nbk && mkperim -q -m "$d/models/humanoid.yaml" -o sample.nbk &&
  mkhitcheck -q -u "$d/units/jeep.yaml" -u "$d/units/tank.yaml" -o sample.nbk &&
  mkabstract -q --forest "$d/forest.yaml" --agent-radius 0,0.5,1 -o forest.nbk &&
  mkclear -q -z --agents "$d/sample-agents.yaml" "$d/sample.map" -o zlib.nbk &&
  navbake convert sample.nbk sample.sqlite; } >>"$log" 2>&1
ok "the bundles are baked" test -s sample.nbk -a -s forest.nbk -a -s zlib.nbk
: >empty.nbk
head -c 100 sample.nbk >truncated.nbk
printf 'type octile\nheight 1\nwidth 1\nmap\n.\n' >garbage.nbk
# One byte of the first hit-check table flipped, found where navbake info
# --json says it is (a byte written at a fixed place may miss every
# section, or write the value it held).
navbake info --json sample.nbk | python3 -c '
import json, sys
s = [x for x in json.load(sys.stdin)["sections"] if x["type_name"] == "hitcheck"][0]
b = bytearray(open("sample.nbk", "rb").read())
b[s["offset"] + s["stored"] // 2] ^= 0xff
open("damaged.nbk", "wb").write(b)' >>"$log" 2>&1

# compare NAME ARGS...: nbport ARGS here and under Wine, line by line, and
# the exit status.
compare() {
  name=$1; shift
  "$top_builddir/tests/port/nbport" "$@" >"$tmp/want" 2>&1; want_rc=$?
  "$wine" ./nbport.exe "$@" 2>"$tmp/wine.err" | tr -d '\r' >"$tmp/got"; got_rc=$?
  [ -s "$tmp/got" ] || sed 's/^/# wine: /' "$tmp/wine.err" | head -5
  compare_files "$name"
}
# Lines are the same when every word is, but for reals (a word with a
# point or an exponent), which need only agree to 12 significant digits:
# the C libraries' sin, cos and atan2 may round the last bit differently
# (glibc's and mingw-w64's), and a curve's length shows it at the 17th.
compare_files() {
  is "$1: as many lines under Wine" "$(wc -l <"$tmp/got")" "$(wc -l <"$tmp/want")"
  awk -v got="$tmp/got" '
    function real(w) { return w ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && w ~ /[.eE]/ }
    {
      want = $0; if ((getline have < got) <= 0) have = "(no line)"
      same = want == have
      if (!same) {
        n = split(want, a, " "); m = split(have, b, " "); same = n == m
        for (i = 1; same && i <= n; i++)
          if (a[i] != b[i]) {
            x = a[i] + 0; y = b[i] + 0; d = x > y ? x - y : y - x; s = x < 0 ? -x : x
            same = real(a[i]) && real(b[i]) && d <= 1e-12 * (s > 1 ? s : 1)
          }
      }
      print (same ? "same" : "differs") "\t" want "\t" have
    }' "$tmp/want" >"$tmp/pairs"
  while IFS='	' read -r verdict a b; do
    if [ "$verdict" = same ]; then is "$1: ${a%%: *}" same same
    else is "$1: ${a%%: *}" "$b" "$a"; fi
  done <"$tmp/pairs"
}

compare "answers" answers sample.nbk forest.nbk
is "answers: its own checks pass under Wine" "$(grep '^checks:' "$tmp/got")" "checks: 0 failed"
for how in map private memory; do
  compare "open $how" open "$how" sample.nbk
  compare "open $how zlib" open "$how" zlib.nbk
done
compare "errors" errors
like "errors: a missing file is named with the system's reason" \
  "$(grep '^open missing.nbk' "$tmp/got")" "missing.nbk: cannot open: No such file or directory"
like "errors: a directory is refused as one" "$(grep '^open \.:' "$tmp/got")" "is a directory"
# The damaged section, as the native navbake verify names it: a hit-check table.
section=$(navbake verify damaged.nbk 2>&1 | sed -n 's/.*\(section [0-9]* (hitcheck)\).*/\1/p')
ok "the native verify names a hit-check section" test -n "$section"
like "errors: verify names the damaged section" "$(grep '^verify damaged' "$tmp/got")" \
  "${section:-a hit-check section}"
# Standard input: a file (mapped through its handle) and a pipe (read).
"$top_builddir/tests/port/nbport" open map - <sample.nbk >"$tmp/want" 2>&1
"$wine" ./nbport.exe open map - <sample.nbk 2>/dev/null | tr -d '\r' >"$tmp/got"
compare_files "standard input, a file"
"$top_builddir/tests/port/nbport" open map - <sample.nbk >"$tmp/want" 2>&1
cat sample.nbk | "$wine" ./nbport.exe open map - 2>/dev/null | tr -d '\r' >"$tmp/got"
compare_files "standard input, a pipe"
finish
rc=$?
echo "$((n - failed)) passed, $failed failed"
exit $rc
