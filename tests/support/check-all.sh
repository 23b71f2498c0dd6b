#!/bin/sh
# check-all.sh SRCDIR (make check-all): the whole suite, plain (make check)
# and under ASan and UBSan (make check-sanitize), both run whatever the
# first gives, then one summary line of the two (summary.sh).  $MAKE is
# the make to run (make passes its own); fails when either run failed.
# Each run builds and tests on every core (-j, nproc) unless the make that
# started this one already runs jobs (its jobserver is passed on): run one
# after the other, a suite of thousands of tests outgrows CI's time limit.
[ $# -eq 1 ] || { echo "usage: check-all.sh SRCDIR" >&2; exit 2; }
jobs=
case " $MAKEFLAGS " in
*jobserver* | *" -j"*) ;;
*) jobs=-j$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) ;;
esac
rc=0
${MAKE:-make} $jobs check || rc=1
${MAKE:-make} $jobs check-sanitize || rc=1
${SHELL:-sh} "$1/tests/support/summary.sh" test-suite.log _sanitize/test-suite.log
exit $rc
