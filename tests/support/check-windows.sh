#!/bin/sh
# check-windows.sh SRCDIR (make check-windows): the runtime cross built for
# Windows (x86_64-w64-mingw32) in _windows/ from 'make distdir' into
# _windows/src, and tests/port/nbport run under Wine against the same
# program built here (tests/port/windows.sh: every answer the same).
# Installs mingw-w64 and Wine first when they are missing (bootstrap.sh
# --windows-packages).  $MAKE is the make to run (make passes its own);
# $top_srcdir and $top_builddir, absolute, are passed on to windows.sh.
[ $# -eq 1 ] || { echo "usage: check-windows.sh SRCDIR" >&2; exit 2; }
set -e
make=${MAKE:-make}
run() { echo "$*"; "$@"; }
run ${SHELL:-sh} "$1/build-aux/bootstrap.sh" --windows-packages
run rm -rf _windows/src _windows/build _windows/root _windows/run
mkdir -p _windows
run $make distdir distdir=_windows/src
export top_srcdir top_builddir
run ${SHELL:-sh} "$1/tests/port/windows.sh"
