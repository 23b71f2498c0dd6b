#!/bin/sh
# man.sh: the manual covers the library.  Every nb_ function that the built
# libnavbake exports is documented: named in the NAME section and declared
# in the SYNOPSIS of a section 3 page, with a man/FUNCTION.3 of its own (the
# page, or a '.so' link to it) so that 'man FUNCTION' finds it; every
# prototype of navbake.h is in a SYNOPSIS as the header declares it; every
# page is installed (listed in Makefile.am), says the version of navbake.h,
# and renders without a warning from groff.
. "$top_srcdir/tests/support/lib.sh"
man=$top_srcdir/man
header=$top_srcdir/lib/include/navbake.h
# The bake library's header and library (navbake_bake.h, libnavbake_bake)
# are held to the same rules.
bake_header=$top_srcdir/lib/include/navbake_bake.h
version=$(sed -n 's/^#define NB_VERSION_STRING "\(.*\)"/\1/p' "$header")

# The functions the built library exports (T symbols named nb_*).
libs=$top_builddir/lib/.libs
if [ -f "$libs/libnavbake.so" ]; then
  ok "nm lists the symbols of lib/.libs/libnavbake.so" \
    sh -c "nm -D --defined-only '$libs/libnavbake.so' >'$tmp/nm'"
else
  ok "nm lists the symbols of lib/.libs/libnavbake.a (no shared library)" \
    sh -c "nm --defined-only '$libs/libnavbake.a' >'$tmp/nm'"
fi
if [ -f "$libs/libnavbake_bake.so" ]; then
  nm -D --defined-only "$libs/libnavbake_bake.so" >>"$tmp/nm"
elif [ -f "$libs/libnavbake_bake.a" ]; then
  nm --defined-only "$libs/libnavbake_bake.a" | grep ' T nb_bake_' >>"$tmp/nm"
fi
awk '$2 == "T" && $3 ~ /^nb_/ { print $3 }' "$tmp/nm" | sort -u >"$tmp/symbols"
ok "libnavbake exports nb_ functions ($(wc -l <"$tmp/symbols"))" test -s "$tmp/symbols"

# What the section 3 pages say: for each page (not a '.so' link), one line
# "PAGE name FUNCTION" per function its NAME section lists, and one line
# "PAGE synopsis TEXT" with its SYNOPSIS as text: the arguments of the font
# macros joined, escapes undone, blanks made single.
for p in "$man"/*.3; do
  [ "$(sed -n 1p "$p" | cut -c1-4)" = ".so " ] && continue
  awk -v page="$(basename "$p" .3)" '
    function text(s,    out, arg, sep) {
      # The arguments of a macro line (.B and .I join them with blanks,
      # .BI and the like alternate fonts without), or a text line as it is.
      if (s !~ /^\./) return s
      sep = (s ~ /^\.[BIR][ \t]/) ? " " : ""
      sub(/^\.[A-Za-z]+[ \t]*/, "", s)
      out = ""
      while (s != "") {
        if (substr(s, 1, 1) == "\"") {
          s = substr(s, 2); arg = s; sub(/".*/, "", arg)
          s = (index(s, "\"") ? substr(s, index(s, "\"") + 1) : "")
        } else {
          arg = s; sub(/[ \t].*/, "", arg); s = substr(s, length(arg) + 1)
        }
        out = (out == "" ? arg : out sep arg)
        sub(/^[ \t]+/, "", s)
      }
      return out
    }
    function unescape(s) {
      gsub(/\\f[BIRP]/, "", s); gsub(/\\&/, "", s); gsub(/\\-/, "-", s)
      gsub(/\\e/, "\\", s)
      return s
    }
    /^\.SH/ { sec = $2; next }
    sec == "NAME" { name = name " " $0 }
    sec == "SYNOPSIS" && /^\.(B|I|R|BI|IB|BR|RB|IR|RI)( |$)/ { syn = syn " " text($0); next }
    sec == "SYNOPSIS" && !/^\./ { syn = syn " " $0 }
    END {
      name = unescape(name); sub(/\\-.*/, "", name); sub(/ - .*/, "", name)
      n = split(name, f, /[ ,]+/)
      for (i = 1; i <= n; i++) if (f[i] != "") print page, "name", f[i]
      syn = unescape(syn)
      gsub(/[ \t]+/, " ", syn); gsub(/\( /, "(", syn); gsub(/ \)/, ")", syn)
      print page, "synopsis", syn
    }' "$p"
done >"$tmp/pages"
ok "the section 3 pages name functions" grep -q " name nb_" "$tmp/pages"

# One assertion per exported function.
documented() {
  pages=$(awk -v f="$1" '$2 == "name" && $3 == f { print $1 }' "$tmp/pages")
  [ -n "$pages" ] || { echo "$1: in no NAME section of man/*.3"; return 1; }
  for page in $pages; do
    if awk -v page="$page" -v f="$1" '$1 == page && $2 == "synopsis" {
         if (match($0, "[ *]" f "\\(")) found = 1 } END { exit !found }' "$tmp/pages"; then
      if [ "$page" = "$1" ]; then return 0; fi
      so=$(cat "$man/$1.3" 2>/dev/null)
      [ "$so" = ".so man3/$page.3" ] && return 0
      echo "$1: documented in man/$page.3, but man/$1.3 is not '.so man3/$page.3' (it is: $so)"
      return 1
    fi
  done
  echo "$1: named in man/$(echo "$pages" | sed -n 1p).3 but declared in no SYNOPSIS"
  return 1
}
while read -r sym; do
  ok "$sym is documented" documented "$sym"
done <"$tmp/symbols"

# Every prototype of navbake.h, as it declares it, in a SYNOPSIS: comments,
# preprocessor lines and the extern "C" braces dropped, statements split at
# ';', those that declare an nb_ function kept, blanks made single.
awk '
  { text = text "\n" $0 }
  END {
    while (match(text, /\/\*([^*]|\*+[^*\/])*\*+\//)) {
      text = substr(text, 1, RSTART - 1) " " substr(text, RSTART + RLENGTH)
    }
    n = split(text, line, "\n"); text = ""
    for (i = 1; i <= n; i++) {
      if (line[i] ~ /^[ \t]*#/ || line[i] ~ /^[ \t]*(extern "C" \{|\})[ \t]*$/) continue
      text = text " " line[i]
    }
    n = split(text, stmt, ";")
    for (i = 1; i <= n; i++) {
      s = stmt[i]
      gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
      gsub(/\( /, "(", s); gsub(/ \)/, ")", s)
      if (s ~ /^typedef/ || s ~ /[{}]/ || s !~ /^[A-Za-z_][A-Za-z0-9_ *]*[ *]nb_[a-z0-9_]+\(/) continue
      print s ";"
    }
  }' "$header" "$bake_header" >"$tmp/prototypes"
ok "navbake.h and navbake_bake.h declare as many nb_ functions as their libraries export" \
  test "$(wc -l <"$tmp/prototypes")" -eq "$(wc -l <"$tmp/symbols")"
grep ' synopsis ' "$tmp/pages" | cut -d' ' -f3- >"$tmp/synopses"
missing() {
  while IFS= read -r proto; do
    grep -qF -- "$proto" "$tmp/synopses" || echo "not in any SYNOPSIS: $proto"
  done <"$tmp/prototypes" >"$tmp/missing"
  cat "$tmp/missing"
  [ ! -s "$tmp/missing" ]
}
ok "every prototype of navbake.h and navbake_bake.h is in a SYNOPSIS as declared" missing

# No page outlives its function: every nb_ name of a NAME section, and
# every '.so' link's name, is a function or a function-like macro that
# navbake.h declares (a name taken out of the API takes its page and its
# link with it; a page may be named for its family, as nb_level(3) is).
{ sed -n 's/^[^(]*[ *]\(nb_[a-z0-9_]*\)(.*/\1/p' "$tmp/prototypes"
  sed -n 's/^#define \(nb_[a-z0-9_]*\)(.*/\1/p' "$header" "$bake_header"; } | sort -u >"$tmp/declared"
stale() {
  { awk '$2 == "name" && $3 ~ /^nb_/ { print $3, "named in man/" $1 ".3" }' "$tmp/pages"
    for p in "$man"/nb_*.3; do
      [ "$(sed -n 1p "$p" | cut -c1-4)" = ".so " ] && echo "$(basename "$p" .3) man/$(basename "$p")"
    done
  } | while read -r f where; do
    grep -qx "$f" "$tmp/declared" || echo "$f ($where) is not declared in navbake.h"
  done >"$tmp/stale"
  cat "$tmp/stale"
  [ ! -s "$tmp/stale" ]
}
ok "navbake.h declares every nb_ name of the pages ($(wc -l <"$tmp/declared") names)" stale

# Every '.so' link points at a page that names its function.
links() {
  for p in "$man"/*.3; do
    so=$(sed -n '1s/^\.so man3\/\(.*\)\.3$/\1/p' "$p")
    [ -n "$so" ] || continue
    f=$(basename "$p" .3)
    grep -q "^$so name $f\$" "$tmp/pages" || echo "man/$f.3 links to man/$so.3, which does not name $f"
  done >"$tmp/badlinks"
  cat "$tmp/badlinks"
  [ ! -s "$tmp/badlinks" ]
}
ok "every .so link points at a page that names its function" links

# Every page is installed, says this version, and renders without warnings.
listed() {
  for p in "$man"/*.[1-9]; do
    grep -q "man/$(basename "$p")\([ \\]\|$\)" "$top_srcdir/Makefile.am" ||
      echo "man/$(basename "$p") is not in Makefile.am's dist_man_MANS"
  done >"$tmp/unlisted"
  cat "$tmp/unlisted"
  [ ! -s "$tmp/unlisted" ]
}
ok "Makefile.am installs every page of man/" listed
versions() {
  for p in "$man"/*.[1-9]; do
    [ "$(sed -n 1p "$p" | cut -c1-4)" = ".so " ] && continue
    grep -m1 '^\.TH' "$p" | grep -qF "\"navbake $version\"" ||
      echo "man/$(basename "$p"): .TH does not say \"navbake $version\""
  done >"$tmp/versions"
  cat "$tmp/versions"
  [ ! -s "$tmp/versions" ]
}
ok "every page says navbake $version" versions

# groff from a directory where man1, man3 and man5 are the pages, as under
# an installed man/, so that '.so man3/PAGE.3' resolves.  build-aux/bootstrap.sh
# installs groff (groff-base), so this is never skipped on a machine it set up.
mkdir "$tmp/mandir"
for s in 1 3 5; do ln -s "$man" "$tmp/mandir/man$s"; done
if command -v groff >/dev/null 2>&1; then
  for p in "$man"/*.[1-9]; do
    b=$(basename "$p")
    s=${b##*.}
    ok "man/$b renders without warnings" sh -c \
      "cd '$tmp/mandir' && groff -t -man -Tutf8 -ww -z 'man$s/$b' 2>&1 | { ! grep .; }"
  done
  # Text run into a closing parenthesis, as the font macros make of ".RB ( page (5)). A
  # sentence" ("(page(5)).Asentence"): sections 1 and 5 hold no code where ")x" is meant.
  for p in "$man"/*.[15]; do
    b=$(basename "$p")
    s=${b##*.}
    ok "man/$b: no text run into a closing parenthesis" sh -c \
      "cd '$tmp/mandir' && groff -t -man -Tutf8 -P-cbou 'man$s/$b' 2>/dev/null |
       { ! grep -E '\\)[.,;:]?[A-Za-z]'; }"
  done
else
  ok "groff is installed (build-aux/bootstrap.sh installs groff-base)" false
fi
# navbake(1)'s SYNOPSIS names every command navbake dispatches.
awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$man/navbake.1" >"$tmp/syn1"
for c in $(sed -n 's/^    {"\([a-z]*\)", nbc_cmd_.*/\1/p' "$top_srcdir/tools/commands/navbake.c"); do
  ok "navbake(1) SYNOPSIS shows navbake $c" grep -q "^\.B navbake $c\( \|\$\)" "$tmp/syn1"
done

# navbake(3) documents every field of every structure of navbake.h, under
# its structure's entry in "Structures".
if command -v python3 >/dev/null 2>&1; then
  status python3 - "$header" "$man/navbake.3" <<'PY'
import re, sys
h = re.sub(r"/\*.*?\*/", "", open(sys.argv[1]).read(), flags=re.S)
page = open(sys.argv[2]).read()
sec = page.split(".SS Structures\n", 1)[1].split("\n.SS ", 1)[0]
entries = {m.group(1): m.group(2) for m in re.finditer(r"^\.TP\n\.B (\w+)\n(.*?)(?=^\.TP\n|\Z)", sec, re.S | re.M)}
missing = []
for name, body in re.findall(r"typedef struct (\w+) \{(.*?)\} \w+;", h, re.S):
    text = entries.get(name)
    if text is None:
        missing.append(name)
        continue
    for decl in filter(None, (d.strip() for d in body.split(";"))):
        decl = re.sub(r"\[[^]]*\]", "", decl)
        fp = re.search(r"\(\s*\*\s*(\w+)\)", decl)
        fields = [fp.group(1)] if fp else [re.findall(r"(\w+)\s*$", part)[0] for part in decl.split(",")]
        for f in fields:
            if not re.search(r'^\.BR? (.*\W)?"?%s\b' % f, text, re.M):
                missing.append(name + "." + f)
print(" ".join(missing))
PY
  is "navbake(3) has every field of every structure of navbake.h" "$out" ""
else
  ok "python3 is installed (build-aux/bootstrap.sh installs it)" false
fi
# Every reference to a page of section 3 (".BR nb_x (3)"), in any page, is
# to a page there is.
dangling=
for ref in $(grep -ho 'nb_[a-z0-9_]* (3)' "$man"/*.[135] | sed 's/ (3)//' | sort -u); do
  [ -f "$man/$ref.3" ] || dangling="$dangling $ref"
done
is "every nb_ page a page refers to exists" "$dangling" ""
finish
