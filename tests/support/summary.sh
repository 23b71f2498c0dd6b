#!/bin/sh
# summary.sh LOG...: sums automake test-suite logs into the final line
# "N passed, N failed" (skips are neither; errors count as failures).
pass=0 fail=0
for log in "$@"; do
  [ -f "$log" ] || { fail=$((fail + 1)); echo "summary: $log is missing (that run did not finish)" >&2; continue; }
  p=$(sed -n 's/^# PASS: *\([0-9]*\)$/\1/p' "$log" | head -1)
  f=$(sed -n 's/^# FAIL: *\([0-9]*\)$/\1/p' "$log" | head -1)
  x=$(sed -n 's/^# XPASS: *\([0-9]*\)$/\1/p' "$log" | head -1)
  e=$(sed -n 's/^# ERROR: *\([0-9]*\)$/\1/p' "$log" | head -1)
  pass=$((pass + ${p:-0}))
  fail=$((fail + ${f:-0} + ${x:-0} + ${e:-0}))
done
echo "$pass passed, $fail failed"
