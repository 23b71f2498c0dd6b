#!/bin/sh
# bootstrap.sh: from a fresh clone to a built tree.  Installs what is
# missing (Debian/Ubuntu, as root, with apt-get), generates the build
# system, configures and builds.  Safe to run again: each step is skipped
# when already done.
set -e
cd "$(dirname "$0")/.."

need=
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pc() { have_cmd pkg-config && pkg-config --exists "$1"; }
have_cmd cc || have_cmd gcc || need="$need gcc libc6-dev"
have_cmd make || need="$need make"
have_cmd autoreconf || need="$need autoconf"
have_cmd automake || need="$need automake"
have_cmd libtoolize || need="$need libtool"
have_cmd pkg-config || need="$need pkg-config"
have_pc zlib || need="$need zlib1g-dev"
have_pc yaml-0.1 || need="$need libyaml-dev"
have_pc sqlite3 || need="$need libsqlite3-dev"
have_pc libpng || need="$need libpng-dev"
have_cmd groff || need="$need groff-base" # tests/cli/man.sh renders the man pages
if [ -n "$need" ]; then
  if have_cmd apt-get && [ "$(id -u)" = 0 ]; then
    echo "bootstrap: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q $need >/dev/null 2>&1 || {
      apt-get update -q >/dev/null && apt-get install -y -q $need >/dev/null; }
  else
    echo "bootstrap: missing$need; install them (as root: apt-get install$need)" >&2
    exit 1
  fi
fi
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
  autoreconf -fi
[ -f Makefile ] && [ Makefile -nt configure ] || ./configure --enable-werror -q
make -j"$(nproc 2>/dev/null || echo 2)" -s
