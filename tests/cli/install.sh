#!/bin/sh
# install.sh: 'make install' puts the tools, header, libraries, pkg-config
# file and man pages in place, and a program builds against the installed
# library with pkg-config alone and runs.
. "$top_srcdir/tests/support/lib.sh"
NB_VERSION=$(sed -n 's/^#define NB_VERSION_STRING "\(.*\)"/\1/p' "$top_srcdir/lib/include/navbake.h")
dest=$tmp/root
${MAKE:-make} -C "$top_builddir" install DESTDIR="$dest" >"$tmp/install.log" 2>&1
is "make install succeeds" "$?" 0
# Where things went: found, not assumed, so any --prefix or --libdir works.
find_one() { find "$dest" -name "$1" \( -type f -o -type l \) | head -1; }
pcfile=$(find_one navbake.pc)
root=$(dirname "$(dirname "$(find_one navbake.h)")")
libdir=$(dirname "$(dirname "$pcfile")")
for f in bin/navbake include/navbake.h share/man/man1/navbake.1 share/man/man3/navbake.3 \
         share/man/man5/navbake-bundle.5 share/navbake/sample.map share/navbake/legend.yaml; do
  ok "installed: $f" test -f "$root/$f"
done
ok "installed: navbake.pc" test -f "$pcfile"
ok "installed: libnavbake.a or .so" sh -c "ls '$libdir'/libnavbake.* >/dev/null"
if ls "$libdir"/libnavbake.so >/dev/null 2>&1; then
  ok "the shared library exports only nb_ names" sh -c \
    "! nm -D --defined-only '$libdir/libnavbake.so' | awk '\$2 ~ /[TDBR]/ {print \$3}' | grep -v '^nb_'"
  cat > "$tmp/prog.c" <<'C'
#include <navbake.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    nb_bundle *b;
    nb_err err;
    if (argc != 2 || nb_bundle_open(argv[1], NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK) {
        printf("error: %s\n", argc == 2 ? err.msg : "usage");
        return 1;
    }
    printf("%s %ux%u\n", nb_version(), nb_map_width(b), nb_map_height(b));
    nb_bundle_close(b);
    return strcmp(nb_version(), NB_VERSION_STRING) != 0;
}
C
  pc="env PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config"
  ok "pkg-config knows navbake" $pc --exists navbake
  ok "a program builds against the installed library" \
    sh -c "${CC:-cc} -o '$tmp/prog' '$tmp/prog.c' \$($pc --cflags --libs navbake)"
  nbtest-bundle "$top_srcdir/data/sample.map" "$tmp/s.nbk"
  status env LD_LIBRARY_PATH="$libdir" "$tmp/prog" "$tmp/s.nbk"
  is "and runs" "$out" "$NB_VERSION 64x40"
  # SQLite bundles through the same open call, unless configured out
  # (--disable-sqlite-runtime), when libnavbake does not even link SQLite.
  navbake convert "$tmp/s.nbk" "$tmp/s.sqlite"
  status env LD_LIBRARY_PATH="$libdir" "$tmp/prog" "$tmp/s.sqlite"
  needs=$(objdump -p "$libdir/libnavbake.so" 2>/dev/null | awk '$1 == "NEEDED" { print $2 }' | tr '\n' ' ')
  if grep -q '^#define NB_SQLITE_RUNTIME 1' "$top_builddir/build-aux/config.h"; then
    is "the installed library opens an SQLite bundle" "$out" "$NB_VERSION 64x40"
    like "and links SQLite" "$needs" "libsqlite3"
  else
    like "the installed library refuses an SQLite bundle, saying why" "$out" \
      "an SQLite bundle; this build of libnavbake reads binary bundles only"
    ok "and does not link SQLite ($needs)" sh -c "! echo '$needs' | grep -q sqlite"
  fi
else
  skip "shared library not built"; skip "shared library not built"
  skip "shared library not built"; skip "shared library not built"
  skip "shared library not built"; skip "shared library not built"
fi
finish
