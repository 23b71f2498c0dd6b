#!/bin/sh
# layering.sh: the layers of the tree keep apart (HACKING.md).  Every
# #include of every source resolves inside the include roots its layer is
# compiled with (the build gives each layer only those; this checks that
# nothing reaches around them with a relative path), system headers stay on
# their side (libyaml, libpng and SQLite out of the runtime but for its
# SQLite reader), and no two files call each other in a loop (from the
# symbols each object defines and uses).
. "$top_srcdir/tests/support/lib.sh"
cd "$top_srcdir" || exit 1

# include_ok FILE ROOTS...: every quoted #include of FILE is found in FILE's
# own folder or in one of ROOTS; prints the ones that are not.
include_ok() {
  f=$1; shift
  dir=$(dirname "$f")
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
    case $h in
      *..*) echo "$f: #include \"$h\" climbs out with .."; continue ;;
    esac
    [ -f "$dir/$h" ] && continue
    found=
    for r in "$@"; do
      [ -f "$r/$h" ] && { found=$r; break; }
    done
    [ -n "$found" ] || echo "$f: #include \"$h\" is not in its layer ($*)"
  done
}
# system_ok FILE PATTERN: no <header> of FILE matches PATTERN (an ERE).
system_ok() {
  grep -En "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($2)>" "$1" | sed "s|^|$1:|"
}

PUBLIC="lib/include lib/port $top_builddir/build-aux"
out=
for f in $(find lib/runtime -name '*.[ch]'); do
  out="$out
$(include_ok "$f" $PUBLIC lib/runtime)"
  case $f in
    lib/runtime/bundle/sqlite_read.c) out="$out
$(system_ok "$f" 'yaml\.h|png\.h')" ;;
    *) out="$out
$(system_ok "$f" 'yaml\.h|png\.h|sqlite3\.h')" ;;
  esac
done
is "the runtime includes only the runtime's headers, navbake.h and port.h" "$(printf "$out" | grep .)" ""

out=
for f in $(find lib/bake -name '*.[ch]' ! -name sqlite_schema.h); do
  out="$out
$(include_ok "$f" $PUBLIC lib/runtime lib/bake "$top_builddir/lib/bake")"
  out="$out
$(system_ok "$f" 'png\.h')"
done
is "the bake side includes the runtime's and its own headers" "$(printf "$out" | grep .)" ""

out=
for f in $(find tools -name '*.[ch]'); do
  out="$out
$(include_ok "$f" $PUBLIC lib/bake tools/common tools/render)"
  # bake.h alone of the bake side: its own headers reach into the runtime.
  out="$out
$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    grep -v '^\(navbake\.h\|port\.h\|config\.h\|bake\.h\|[a-z_]*\.h\)$' | sed "s|^|$f: |")"
  out="$out
$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(bake_int\.h\)".*/\1/p' "$f" |
    sed "s|^|$f: |")"
  out="$out
$(system_ok "$f" 'yaml\.h|sqlite3\.h|zlib\.h')"
done
# bake.h itself must stand on navbake.h and port.h alone.
out="$out
$(include_ok lib/bake/bake.h lib/include lib/port | grep -v '^$')"
for h in $(sed -n 's/^#include "\([^"]*\)"/\1/p' lib/bake/bake.h); do
  case $h in navbake.h|port.h) ;; *) out="$out
lib/bake/bake.h includes $h" ;; esac
done
is "the tools see navbake.h, port.h, bake.h and their own helpers only" "$(printf "$out" | grep .)" ""

# ---- no file calls another in a loop ----
# The objects of the libraries and programs as built, with the symbols each
# defines and uses.
objs=
for a in lib/.libs/libnbcore.a lib/.libs/libnbsqlite.a lib/.libs/libnbbake.a \
         tools/.libs/libnbcli.a tools/.libs/libnbrender.a; do
  [ -f "$top_builddir/$a" ] && objs="$objs $top_builddir/$a"
done
objs="$objs $(ls "$top_builddir"/tools/bake/*.o "$top_builddir"/tools/commands/*.o 2>/dev/null)"
if ! command -v nm >/dev/null 2>&1; then
  echo "Bail out! nm is not installed (binutils)"
  exit 1
fi
# Lines "file def sym" and "file use sym"; a program's objects are named by
# their path, an archive member by its name.
# nm -A: "archive:member:address T sym", or "object:address T sym".
nm -A $objs 2>/dev/null | awk '
  { n = split($1, p, ":"); file = (n > 2) ? p[2] : p[1]; sub(/.*\//, "", file) }
  NF == 3 && $2 ~ /^[TDRBC]$/ { print file, "def", $3 }
  NF == 3 && $2 == "U" { print file, "use", $3 }' > "$tmp/syms"
awk '
  $2 == "def" { def[$3] = $1 }
  $2 == "use" { use[NR] = $1 SUBSEP $3 }
  END {
    for (k in use) {
      split(use[k], u, SUBSEP)
      t = def[u[2]]
      if (t != "" && t != u[1]) print u[1], t
    }
  }' "$tmp/syms" | sort -u > "$tmp/edges"
# A loop: two files each reaching the other (transitive closure).
loops=$(awk '
  { e[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
  END {
    n = 0
    for (a in node) name[++n] = a
    for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) r[i, j] = ((name[i], name[j]) in e)
    for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (r[i, k])
      for (j = 1; j <= n; j++) if (r[k, j]) r[i, j] = 1
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (r[i, j] && r[j, i]) print name[i] " <-> " name[j]
  }' "$tmp/edges")
ok "the objects were found ($(wc -l < "$tmp/edges") calls between files)" test -s "$tmp/edges"
is "no two files call each other in a loop" "$loops" ""
finish
