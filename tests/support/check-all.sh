#!/bin/sh
# check-all.sh SRCDIR (make check-all): the whole suite, plain (make check)
# and under ASan and UBSan (make check-sanitize), both run whatever the
# first gives, then one summary line of the two (summary.sh).  $MAKE is
# the make to run (make passes its own); fails when either run failed.
[ $# -eq 1 ] || { echo "usage: check-all.sh SRCDIR" >&2; exit 2; }
rc=0
${MAKE:-make} check || rc=1
${MAKE:-make} check-sanitize || rc=1
${SHELL:-sh} "$1/tests/support/summary.sh" test-suite.log _sanitize/test-suite.log
exit $rc
