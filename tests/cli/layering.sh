#!/bin/sh
# layering.sh: the layers of the tree keep apart (HACKING.md).  Every
# #include of every source resolves inside the include roots its layer is
# compiled with (the build gives each layer only those; this checks that
# nothing reaches around them with a relative path), system headers stay on
# their side (libyaml, libpng, expat, jansson, zstd and SQLite out of the
# runtime but for its SQLite reader; libpng on the bake side only in the
# image reader; the level readers' libraries out of the tools), no two files call each other in a loop (from the
# symbols each object defines and uses), and no two folders depend on each
# other, directly or through others (HACKING.md, "The layers", gives their
# order): a planted loop of folders must be found.
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
$(system_ok "$f" 'yaml\.h|png\.h|expat\.h|jansson\.h|zstd\.h')" ;;
    *) out="$out
$(system_ok "$f" 'yaml\.h|png\.h|sqlite3\.h|expat\.h|jansson\.h|zstd\.h')" ;;
  esac
done
is "the runtime includes only the runtime's headers, navbake.h and port.h" "$(printf "$out" | grep .)" ""

out=
for f in $(find lib/bake -name '*.[ch]' ! -name sqlite_schema.h); do
  out="$out
$(include_ok "$f" $PUBLIC lib/runtime lib/bake "$top_builddir/lib/bake")"
  case $f in
    lib/bake/input/image_png.c) ;;
    *) out="$out
$(system_ok "$f" 'png\.h')" ;;
  esac
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
$(system_ok "$f" 'yaml\.h|sqlite3\.h|zlib\.h|expat\.h|jansson\.h|zstd\.h')"
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

# ---- no two folders depend on each other, directly or through others ----
# A folder is a directory of sources, named by its layer: runtime/bundle,
# bake/verify, tools/commands; bake is lib/bake's own files (bake.h,
# bake_int.h...).  Folder A depends on folder B when a file of A includes
# a header of B, resolved as the compiler resolves it (the file's own
# folder, then its layer's include roots in order: "clearance/clearance.h"
# from the bake side is the runtime's), or when an object of A uses a
# symbol an object of B defines.

# folder_of PATH (relative to a source or build root): its folder's name.
folder_of() {
  case $1 in
    lib/runtime/*/*) f=${1#lib/}; echo "${f%/*}" ;;
    lib/bake/*/*) f=${1#lib/}; echo "${f%/*}" ;;
    lib/bake/*) echo bake ;;
    lib/include/*) echo include ;;
    lib/port/*) echo port ;;
    tools/*/*) f=${1%/*}; echo "${f%/.libs}" ;;
    *) echo "" ;;
  esac
}

# include_edges SRC: "A B FILE includes HEADER" for every #include of a
# source under SRC that resolves to a header of another folder.
include_edges() {
  (cd "$1" && find lib tools -name '*.[ch]' | sort | while read -r f; do
    case $f in
      lib/runtime/*) roots="lib/include lib/port lib/runtime" ;;
      lib/bake/*) roots="lib/include lib/port lib/runtime lib/bake" ;;
      tools/*) roots="lib/include lib/port lib/bake tools/common tools/render" ;;
      *) continue ;;
    esac
    from=$(folder_of "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
      at=
      if [ -f "${f%/*}/$h" ]; then at=${f%/*}/$h
      else
        for r in $roots; do [ -f "$r/$h" ] && { at=$r/$h; break; }; done
        # Made by the build (sqlite_schema.h): the folder it is made in.
        [ -n "$at" ] || case $f in lib/bake/*) [ -f "$top_builddir/lib/bake/$h" ] && at=lib/bake/$h ;; esac
      fi
      [ -n "$at" ] || continue
      to=$(folder_of "$at")
      [ -n "$to" ] && [ "$to" != "$from" ] && echo "$from $to $f includes $h"
    done
  done)
}

# call_edges SYMS: "A B OBJECT uses SYMBOL" for every symbol an object
# uses that an object of another folder defines (SYMS: lines "OBJECT def
# SYMBOL" and "OBJECT use SYMBOL", objects named from the build root).
call_edges() {
  while read -r o kind sym; do echo "$(folder_of "$o") $o $kind $sym"; done < "$1" | awk '
    $1 == "" { next }
    $3 == "def" { def[$4] = $1 }
    $3 == "use" { use[NR] = $1 " " $2 " " $4 }
    END {
      for (k in use) {
        split(use[k], u, " ")
        t = def[u[3]]
        if (t != "" && t != u[1]) print u[1], t, u[2], "uses", u[3]
      }
    }' | sort
}

# folder_loops EDGES: each set of folders that reach each other, and the
# shortest loop through its first, "a -> b -> a", followed by why each step
# is there; nothing when the folders form a DAG.
folder_loops() {
  awk '
    !(($1, $2) in why) { why[$1, $2] = substr($0, length($1) + length($2) + 3) }
    { e[$1, $2] = 1; node[$1] = 1; node[$2] = 1 }
    END {
      n = 0
      for (a in node) name[++n] = a
      # names sorted, so that the report is the same every run
      for (i = 2; i <= n; i++) for (j = i; j > 1 && name[j - 1] > name[j]; j--) {
        t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
      }
      for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) r[i, j] = ((name[i], name[j]) in e)
      for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (r[i, k])
        for (j = 1; j <= n; j++) if (r[k, j]) r[i, j] = 1
      for (i = 1; i <= n; i++) {
        if (!r[i, i] || done[i]) continue
        # the folders of the loop, and the shortest way from name[i] back to itself
        members = ""
        for (j = 1; j <= n; j++) {
          prev[j] = 0
          if (r[i, j] && r[j, i]) { done[j] = 1; members = members " " name[j] }
        }
        print "a loop of folders:" members
        q[1] = i; head = 1; tail = 1; found = 0
        while (head <= tail && !found) {
          u = q[head++]
          for (v = 1; v <= n && !found; v++) {
            if (!((name[u], name[v]) in e) || !(r[v, i])) continue
            if (v == i) { found = u; break }
            if (prev[v]) continue
            prev[v] = u; q[++tail] = v
          }
        }
        k = 0; v = found
        while (v != i) { path[++k] = v; v = prev[v] }
        line = name[i]; steps = ""; from = i
        for (m = k; m >= 1; m--) {
          line = line " -> " name[path[m]]
          steps = steps "\n  " name[from] " -> " name[path[m]] ": " why[name[from], name[path[m]]]
          from = path[m]
        }
        line = line " -> " name[i]
        steps = steps "\n  " name[from] " -> " name[i] ": " why[name[from], name[i]]
        printf "%s%s\n", line, steps
      }
    }' "$1"
}

# The objects as built, each named by its path from the build root: those
# of a source that is still there (dir/PREFIX-name.o of dir/name.c), not
# those a moved source left behind.
(cd "$top_builddir" && find lib tools -name '*.o' | sort | while read -r o; do
  d=${o%/*}; d=${d%/.libs}; b=${o##*/}; b=${b%.o}
  [ -f "$top_srcdir/$d/${b##*-}.c" ] || [ -f "$top_srcdir/$d/$b.c" ] && echo "$o"
done | xargs nm -A 2>/dev/null) | awk '
  { split($1, p, ":"); file = p[1]; sub(/\/\.libs\//, "/", file) }
  NF == 3 && $2 ~ /^[TDRBC]$/ { print file, "def", $3 }
  NF == 3 && $2 == "U" { print file, "use", $3 }' | sort -u > "$tmp/osyms"
call_edges "$tmp/osyms" > "$tmp/calls"
include_edges "$top_srcdir" > "$tmp/includes"
cat "$tmp/includes" "$tmp/calls" > "$tmp/fedges"
ok "the folders' includes and calls were found ($(wc -l < "$tmp/includes") includes and $(wc -l < "$tmp/calls") calls across folders)" \
  sh -c "test -s '$tmp/includes' && test -s '$tmp/calls'"
is "no two folders depend on each other in a loop" "$(folder_loops "$tmp/fedges")" ""

# A planted loop is found and named: the tree copied with core including
# the bundle, and a call from core into the bundle added to the objects'.
mkdir "$tmp/plant"
(cd "$top_srcdir" && find lib tools -name '*.[ch]' | tar cf - -T -) | (cd "$tmp/plant" && tar xf -)
echo '#include "bundle/bundle.h"' >> "$tmp/plant/lib/runtime/core/heap.c"
include_edges "$tmp/plant" > "$tmp/pedges"
cat "$tmp/calls" >> "$tmp/pedges"
loops=$(folder_loops "$tmp/pedges")
like "a planted #include of a folder that includes its own is a loop" "$loops" \
  "runtime/bundle -> runtime/core -> runtime/bundle"
like "... named by the include that makes it" "$loops" \
  "runtime/core -> runtime/bundle: lib/runtime/core/heap.c includes bundle/bundle.h"
echo "lib/runtime/core/libnbcore_la-heap.o use nbi_bundle_load" > "$tmp/psyms"
cat "$tmp/osyms" "$tmp/psyms" > "$tmp/psyms2"
call_edges "$tmp/psyms2" > "$tmp/pcalls"
loops=$(cat "$tmp/includes" "$tmp/pcalls" > "$tmp/pedges2" && folder_loops "$tmp/pedges2")
like "a planted call into a folder that depends on the caller's is a loop, named by the call" "$loops" \
  "runtime/core -> runtime/bundle: lib/runtime/core/libnbcore_la-heap.o uses nbi_bundle_load"
finish
