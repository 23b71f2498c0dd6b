# lib.sh: TAP helpers for the shell tests.  Source it; then use ok, is,
# like, skip and finish.  $tmp is a fresh directory removed at exit.
n=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nbtest-sh-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PATH="$top_builddir/tools:$top_builddir/tests/support:$PATH"
export PATH

# ok DESCRIPTION COMMAND...: passes when the command succeeds.
ok() {
  d=$1; shift
  n=$((n + 1))
  if "$@" >"$tmp/.out" 2>&1; then echo "ok $n - $d"
  else failed=$((failed + 1)); echo "not ok $n - $d"; sed 's/^/#   /' "$tmp/.out" | head -20; fi
}
# is DESCRIPTION GOT WANT
is() {
  n=$((n + 1))
  if [ "$2" = "$3" ]; then echo "ok $n - $1"
  else failed=$((failed + 1)); echo "not ok $n - $1"; printf '#   got:  %s\n#   want: %s\n' "$2" "$3"; fi
}
# like DESCRIPTION TEXT SUBSTRING
like() {
  n=$((n + 1))
  case $2 in
    *"$3"*) echo "ok $n - $1" ;;
    *) failed=$((failed + 1)); echo "not ok $n - $1"; printf '#   got:  %s\n#   want: *%s*\n' "$2" "$3" ;;
  esac
}
# status COMMAND...: sets $rc, $out (stdout) and $err (stderr).
status() {
  "$@" >"$tmp/.o" 2>"$tmp/.e"; rc=$?
  out=$(cat "$tmp/.o"); err=$(cat "$tmp/.e")
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
finish() { echo "1..$n"; [ "$failed" -eq 0 ]; }
# py_env: what a Python that loads this build's libnavbake needs in its
# environment, as VAR=VALUE words for env(1): under AddressSanitizer its
# runtime preloaded (the interpreter is not built with it, and ASan must come
# first) and leak checks off (the interpreter keeps memory to its exit).
py_env() {
  case ${NB_SAN_CFLAGS:-} in
    *address*) echo "LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so)" \
      "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1" ;;
  esac
}
# tiled_sample: the sample level tiled 3 x 3 (192 x 120 cells) as a map
# on standard output, mirrored so that walls and water cross the tile
# borders (the world tests cut it into tiles).
tiled_sample() {
  awk 'FNR > 4 { row[n++] = $0 } END {
    print "type octile"; print "height " 3 * n; print "width " 3 * length(row[0]); print "map"
    for (r = 0; r < 3 * n; r++) {
      y = int(r / n) % 2 ? n - 1 - r % n : r % n; line = ""
      for (c = 0; c < 3; c++) {
        s = row[y]
        if (c % 2) { t = ""; for (i = length(s); i > 0; i--) t = t substr(s, i, 1); s = t }
        line = line s
      }
      print line
    }
  }' "$top_srcdir/data/sample.map"
}
