#!/bin/sh
# install.sh: 'make install' puts the tools, header, libraries, pkg-config
# file and man pages in place; a program builds against the installed
# library with pkg-config alone and runs with no environment variables
# (navbake.pc finds its tree from its own place, and gives the library's
# directory as the program's run path), after an install with DESTDIR=,
# one with prefix=, and once that tree is moved.
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
# The Python binding, where configure's Python keeps packages: it finds the
# installed library from its own place (under DESTDIR too), with no
# environment variable.
pyinit=$(find "$dest" -path '*/navbake/__init__.py' | head -1)
if [ "$(sed -n 's/^PYTHON = //p' "$top_builddir/Makefile")" = : ]; then
  skip "configure found no Python 3: the binding is not installed"
else
  ok "installed: the Python package navbake" test -f "$pyinit"
  like "... with the libdir it was installed with" "$(cat "$(dirname "$pyinit")/_installed.py")" \
    "LIBDIR_FROM_PACKAGE = '"
  status env -i $(py_env) PATH="$PATH" PYTHONPATH="$(dirname "$(dirname "$pyinit")")" \
    PYTHONDONTWRITEBYTECODE=1 \
    python3 -c 'import navbake; print(navbake.library_path, navbake.version())'
  like "... and imports, finding the installed library" "$out$err" "$dest"
fi
# The C# binding: its sources always, Navbake.dll where configure found mcs.
for f in Native.cs Bundle.cs README.md; do
  ok "installed: share/navbake/csharp/$f" test -f "$root/share/navbake/csharp/$f"
done
if grep -q '^MCS = ..*' "$top_builddir/Makefile"; then
  ok "installed: lib/navbake/Navbake.dll" test -f "$libdir/navbake/Navbake.dll"
else
  skip "configure found no mcs: no Navbake.dll"
fi
# README.md's Windows install lists where 'make install DESTDIR=$PWD/win'
# puts the files: under win/ and configure's default prefix.  A native
# install with that prefix puts the same names (the DLLs apart) there.
default=$(sed -n 's/^ac_default_prefix=//p' "$top_srcdir/configure")
listed=$(sed -n 's/^# \(win\/[^ ]*\)$/\1/p' "$top_srcdir/README.md")
ok "README's Windows install lists the files it puts" test -n "$listed"
for f in $listed; do
  like "README: $f is under win$default/, where DESTDIR=\$PWD/win puts it" "$f" "win$default/"
  case $f in *.dll | *.dll.a) continue ;; esac
  if [ "$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")" = "$default" ] &&
     [ "$(sed -n 's/^libdir = //p' "$top_builddir/Makefile")" = '${exec_prefix}/lib' ]; then
    ok "... and a native install with that prefix has ${f#win}" test -f "$dest${f#win}"
  else
    skip "this build's prefix or libdir is not configure's default"
  fi
done
like "README: a threaded game needs libwinpthread-1.dll beside it" "$(cat "$top_srcdir/README.md")" \
  "needs
\`libwinpthread-1.dll\` beside it"
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
  nbtest-bundle "$top_srcdir/data/sample.map" "$tmp/s.nbk"
  # pkg-config alone, told only where the .pc file is, whatever the prefix
  # or DESTDIR; the program then runs with no environment at all.
  pc_build() { # PCDIR PROGRAM: builds the program with pkg-config's flags
    env -i PATH="$PATH" PKG_CONFIG_PATH="$1" pkg-config --cflags --libs navbake >"$tmp/flags" &&
    ${CC:-cc} $NB_SAN_CFLAGS -o "$2" "$tmp/prog.c" $(cat "$tmp/flags")
  }
  ok "pkg-config knows navbake (DESTDIR)" env PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --exists navbake
  like "its flags name the tree under DESTDIR" "$(env PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags navbake)" "$dest/"
  ok "a program builds against the installed library (DESTDIR)" pc_build "$libdir/pkgconfig" "$tmp/prog"
  status env -i "$tmp/prog" "$tmp/s.nbk"
  is "and runs with no environment variables" "$out" "$NB_VERSION 64x40"
  # The bake library: its header, library and pages, and a program of it
  # built against the installed tree (navbake.pc's flags and -lnavbake_bake)
  # that bakes a chunk in memory and queries it.
  for f in include/navbake_bake.h share/man/man3/nb_bake.3 share/man/man3/nb_bake_memory.3; do
    ok "installed: $f" test -f "$root/$f"
  done
  ok "installed: libnavbake_bake.so" test -f "$libdir/libnavbake_bake.so"
  ok "installed: navbake-bake.pc" test -f "$libdir/pkgconfig/navbake-bake.pc"
  # navbake-bake.pc alone gives both libraries (it requires navbake.pc).
  bake_pc() { env -i PATH="$PATH" PKG_CONFIG_PATH="$1" pkg-config --cflags --libs navbake-bake; }
  is "pkg-config's flags for navbake-bake name the bake library, then the runtime" \
    "$(bake_pc "$libdir/pkgconfig" | tr ' ' '\n' | grep '^-lnavbake' | tr '\n' ' ')" \
    "-lnavbake_bake -lnavbake "
  ok "a program of the bake library builds with pkg-config navbake-bake alone" sh -c \
    "${CC:-cc} $NB_SAN_CFLAGS -o '$tmp/bake_use' '$top_srcdir/tests/support/bake_use.c' \
       \$(env -i PATH='$PATH' PKG_CONFIG_PATH='$libdir/pkgconfig' pkg-config --cflags --libs navbake-bake)"
  status env -i "$tmp/bake_use" --chunk
  like "and bakes a chunk in memory and queries it, with no environment variables" "$rc $out" "0 found"
  # make install prefix=DIR: the same, and again once the tree is moved.
  ${MAKE:-make} -C "$top_builddir" install prefix="$tmp/pfx" >"$tmp/install2.log" 2>&1
  is "make install prefix=DIR succeeds" "$?" 0
  pfxpc=$(dirname "$(find "$tmp/pfx" -name navbake.pc | head -1)")
  ok "a program builds against it with pkg-config (prefix=)" pc_build "$pfxpc" "$tmp/prog2"
  status env -i "$tmp/prog2" "$tmp/s.nbk"
  is "and runs with no environment variables (prefix=)" "$out" "$NB_VERSION 64x40"
  mv "$tmp/pfx" "$tmp/moved"
  ok "the moved tree still builds a program with pkg-config" \
    pc_build "$(echo "$pfxpc" | sed "s|$tmp/pfx|$tmp/moved|")" "$tmp/prog3"
  status env -i "$tmp/prog3" "$tmp/s.nbk"
  is "which runs with no environment variables" "$out" "$NB_VERSION 64x40"
  movedpc=$(echo "$pfxpc" | sed "s|$tmp/pfx|$tmp/moved|")
  ok "and a program of the bake library with pkg-config navbake-bake" sh -c \
    "${CC:-cc} $NB_SAN_CFLAGS -o '$tmp/bake_use2' '$top_srcdir/tests/support/bake_use.c' \
       \$(env -i PATH='$PATH' PKG_CONFIG_PATH='$movedpc' pkg-config --cflags --libs navbake-bake)"
  status env -i "$tmp/bake_use2" --chunk
  like "which bakes and queries with no environment variables" "$rc $out" "0 found"
  # SQLite bundles through the same open call, unless configured out
  # (--disable-sqlite-runtime), when libnavbake does not even link SQLite.
  navbake convert "$tmp/s.nbk" "$tmp/s.sqlite"
  status env -i "$tmp/prog" "$tmp/s.sqlite"
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
  for i in $(seq 22); do skip "shared library not built (configure --disable-shared)"; done
fi
finish
