#!/bin/sh
# header.sh: the public header, navbake.h, compiles alone as C89, C99, C11
# and C17 and as C++98 to C++20, with every warning an error, and a C++
# program calling the library links against libnavbake (its names are
# extern "C") and runs.
. "$top_srcdir/tests/support/lib.sh"
cat >"$tmp/use.c" <<'C'
#include <navbake.h>
#include <stdio.h>
int main(void)
{
    nb_aa_query q;
    nb_err err;
    nb_bundle *b;
    nb_status st;
    nb_aa_query_init(&q);
    st = nb_bundle_open("no-such.nbk", 0, NULL, &b, &err);
    printf("%s %d %s %lu\n", nb_version(), (int)st, nb_status_str(st), (unsigned long)q.size);
    return b != NULL;
}
C
cp "$tmp/use.c" "$tmp/use.cc"
CC=${CC:-cc}
for std in c89 c99 c11 c17; do
  ok "navbake.h compiles as $std -pedantic-errors -Wall -Wextra -Werror" \
    $CC -std=$std -pedantic-errors -Wall -Wextra -Werror -I"$top_srcdir/lib/include" -c "$tmp/use.c" -o "$tmp/use.o"
done
CXX=${CXX:-c++}
if command -v "$CXX" >/dev/null 2>&1; then
  for std in c++98 c++03 c++11 c++14 c++17 c++20; do
    ok "navbake.h compiles as $std -pedantic-errors -Wall -Wextra -Werror" \
      $CXX -std=$std -pedantic-errors -Wall -Wextra -Werror -I"$top_srcdir/lib/include" -c "$tmp/use.cc" -o "$tmp/use.o"
  done
  ok "a C++ program links against libnavbake (extern \"C\")" \
    "$top_builddir/libtool" --mode=link --tag=CXX $CXX $NB_SAN_CFLAGS -o "$tmp/use" "$tmp/use.o" \
      "$top_builddir/lib/libnavbake.la"
  status "$top_builddir/libtool" --mode=execute "$tmp/use"
  is "and runs" "$out" "$(sed -n 's/^#define NB_VERSION_STRING "\(.*\)"/\1/p' "$top_srcdir/lib/include/navbake.h") 2 input/output error 1"
else
  echo "Bail out! no C++ compiler ($CXX): bootstrap.sh installs g++"; exit 1
fi
# What the header names exists: every path (lib/..., formats/...) and every
# source file it points a reader to (a bare name is looked for under lib/).
missing=
for name in $(grep -o '\(lib\|formats\)/[A-Za-z0-9_/.-]*[A-Za-z0-9_]' "$top_srcdir/lib/include/navbake.h" | sort -u); do
  [ -e "$top_srcdir/$name" ] || missing="$missing $name"
done
for name in $(grep -o '[A-Za-z0-9_]*\.c\b' "$top_srcdir/lib/include/navbake.h" | sort -u); do
  [ -n "$(find "$top_srcdir/lib" -name "$name" | head -1)" ] || missing="$missing $name"
done
is "every file and folder navbake.h names exists" "$missing" ""
finish
