#!/bin/sh
# configure.sh: configure refuses to go on without zlib, libyaml, SQLite,
# expat, jansson or libzstd
# and names the Debian packages that provide them (pkg-config is pointed
# at an empty directory, so it finds none).
. "$top_srcdir/tests/support/lib.sh"
# configure runs from a copy of what it reads before the library checks
# (a source tree that is configured in place refuses a second build).
mkdir -p "$tmp/empty" "$tmp/src/lib/include"
cp "$top_srcdir/configure" "$tmp/src/"
cp -R "$top_srcdir/build-aux" "$tmp/src/"
cp "$top_srcdir/lib/include/navbake.h" "$tmp/src/lib/include/"
cp "$top_srcdir/lib/navbake.pc.in" "$tmp/src/lib/"
cd "$tmp/src" || exit 1
PKG_CONFIG_LIBDIR=$tmp/empty PKG_CONFIG_PATH= ./configure -q >"$tmp/out" 2>&1
rc=$?
msg=$(cat "$tmp/out")
ok "configure fails when the libraries are missing" test "$rc" -ne 0
like "it names the Debian packages to install" "$msg" "apt-get install zlib1g-dev libyaml-dev libexpat1-dev libjansson-dev libzstd-dev libsqlite3-dev"
like "it says what is missing" "$msg" "missing libraries"
finish
