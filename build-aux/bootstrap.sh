#!/bin/sh
# bootstrap.sh [--windows | --windows-packages]: from a fresh clone to a
# built tree.  Installs what is missing (Debian/Ubuntu, as root, with
# apt-get): what the build needs and every program a test uses, so that no
# test skips for want of one.  Then generates the build system, configures
# and builds.  Safe to run again: each step is skipped when already done.
#   --windows           also what 'make check-windows' needs: mingw-w64
#                       (gcc-mingw-w64-x86-64, libz-mingw-w64-dev) and Wine
#   --windows-packages  only those, and nothing else (make check-windows
#                       runs this)
set -e
cd "$(dirname "$0")/.."

need=
have_cmd() { command -v "$1" >/dev/null 2>&1; }
# A daemon: in /usr/sbin, which a user's PATH may lack.
have_sbin() { have_cmd "$1" || [ -x "/usr/sbin/$1" ]; }
windows=no
case ${1-} in
  --windows) windows=yes ;;
  --windows-packages) windows=only ;;
  "") ;;
  *) echo "usage: bootstrap.sh [--windows | --windows-packages]" >&2; exit 2 ;;
esac
if [ $windows != no ]; then
  have_cmd x86_64-w64-mingw32-gcc || need="$need gcc-mingw-w64-x86-64"
  [ -f /usr/x86_64-w64-mingw32/lib/pkgconfig/zlib.pc ] || need="$need libz-mingw-w64-dev"
  have_cmd wine64 || have_cmd wine || need="$need wine64"
fi
have_pc() { have_cmd pkg-config && pkg-config --exists "$1"; }
[ $windows = only ] || {
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
  # Programs the tests check against: another SVG renderer and an XML
  # validator (test_render, render.sh), the sqlite3 shell and file(1)
  # (sqlite.sh), python3's JSON reader, and script(1) for a terminal
  # (progress.sh).
  have_cmd rsvg-convert || need="$need librsvg2-bin"
  have_cmd xmllint || need="$need libxml2-utils"
  have_cmd sqlite3 || need="$need sqlite3"
  have_cmd file || need="$need file"
  have_cmd python3 || need="$need python3"
  have_cmd script || need="$need bsdutils"
  # Ninja runs a world's plan (world-plan.sh); Slurm with munge, a one-node
  # cluster of them (make check-cluster, tests/cluster/one-node.sh).
  have_cmd ninja || need="$need ninja-build"
  { have_cmd sbatch && have_sbin slurmctld && have_sbin slurmd; } || need="$need slurm-wlm"
  have_sbin munged || need="$need munge"
}
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
[ $windows = only ] && exit 0
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
  autoreconf -fi
[ -f Makefile ] && [ Makefile -nt configure ] || ./configure --enable-werror -q
make -j"$(nproc 2>/dev/null || echo 2)" -s
