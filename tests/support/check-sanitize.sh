#!/bin/sh
# check-sanitize.sh SRCDIR (make check-sanitize): the test suite under
# AddressSanitizer and UndefinedBehaviorSanitizer, in a tree of its own,
# _sanitize/, made by 'make distdir' (so it also proves the distribution
# complete), configured with --enable-sanitizers --enable-werror.  The
# shared library is built too, so install.sh and header.sh run there as
# well (their programs are compiled with the sanitizers).  $MAKE is the
# make to run (make passes its own); $NB_SHARED, ../shared, is passed on.
[ $# -eq 1 ] || { echo "usage: check-sanitize.sh SRCDIR" >&2; exit 2; }
set -e
${SHELL:-sh} "$1/tests/support/fresh-tree.sh" _sanitize --enable-sanitizers --enable-werror \
  CFLAGS='-O1 -g'
cd _sanitize
export NB_SHARED
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
echo "ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS ${MAKE:-make} check"
${MAKE:-make} check
