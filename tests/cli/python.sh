#!/bin/sh
# python.sh: the Python binding's tests (lib/bindings/python/tests, pytest)
# against this build's libnavbake and commands, each pytest test one TAP
# line; and the package installs with pip from the checkout, offline.  The
# interpreter is the first of $PYTHON, python3 and /usr/bin/python3 that has
# pytest (Debian's python3-pytest, which build-aux/bootstrap.sh installs).
. "$top_srcdir/tests/support/lib.sh"
py=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import pytest' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
  skip "no python3 with pytest (build-aux/bootstrap.sh installs python3-pytest)"
  finish; exit
fi
pkg=$top_srcdir/lib/bindings/python
# A read-only source tree (make distcheck) gets no caches.
env $(py_env) NAVBAKE_LIB="$top_builddir/lib/.libs" NAVBAKE_TOOLS="$top_builddir/tools" \
  PYTHONPATH="$pkg" PYTHONDONTWRITEBYTECODE=1 TMPDIR="$tmp" \
  "$py" -m pytest -p no:cacheprovider -q -rA "$pkg/tests" >"$tmp/pytest.log" 2>&1
rc=$?
# Each test's outcome from pytest's summary (-rA): one TAP line each.
sed -n 's/^\(PASSED\|FAILED\|ERROR\|SKIPPED\|XFAIL\|XPASS\) \(.*\)$/\1 \2/p' "$tmp/pytest.log" \
  >"$tmp/results"
while read -r what name; do
  case $what in
    PASSED | XFAIL) n=$((n + 1)); echo "ok $n - $name" ;;
    SKIPPED) skip "$name" ;;
    *) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $name" ;;
  esac
done <"$tmp/results"
ok "pytest ran tests" test -s "$tmp/results"
is "pytest's exit status" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/#   /' "$tmp/pytest.log" | tail -60
# pip installs the package from the checkout with no network (a copy: pip
# builds in the source directory).
if "$py" -c 'import setuptools' >/dev/null 2>&1 && "$py" -m pip --version >/dev/null 2>&1; then
  cp -R "$pkg" "$tmp/src" && chmod -R u+w "$tmp/src"
  ok "pip install --no-build-isolation --no-index" "$py" -m pip install -q \
    --no-build-isolation --no-index --no-deps --target "$tmp/site" "$tmp/src"
  mkclear -q "$top_srcdir/data/sample.map" -o "$tmp/s.nbk"
  status env $(py_env) NAVBAKE_LIB="$top_builddir/lib/.libs" PYTHONPATH="$tmp/site" \
    PYTHONDONTWRITEBYTECODE=1 "$py" -c '
import sys, navbake
assert navbake.__file__.startswith(sys.argv[2]), navbake.__file__
with navbake.Bundle(sys.argv[1]) as b:
    print("%.8f" % b.aa().find((2, 2), (60, 36)).length)' "$tmp/s.nbk" "$tmp/site"
  is "... and the installed package answers a query" "$out$err" "74.42640687"
else
  skip "pip or setuptools absent for $py"
fi
finish
