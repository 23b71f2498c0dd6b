#!/bin/sh
# summary.sh LOG...: sums automake test-suite logs into the final line
# "N passed, N failed, N skipped" (errors count as failures).  A skip
# checks nothing: bootstrap.sh installs what every test needs, so on a
# machine it has set up the count is 0, and the logs name any that is not.
pass=0 fail=0 skip=0
for log in "$@"; do
  [ -f "$log" ] || { fail=$((fail + 1)); echo "summary: $log is missing (that run did not finish)" >&2; continue; }
  p=$(sed -n 's/^# PASS: *\([0-9]*\)$/\1/p' "$log" | head -1)
  f=$(sed -n 's/^# FAIL: *\([0-9]*\)$/\1/p' "$log" | head -1)
  x=$(sed -n 's/^# XPASS: *\([0-9]*\)$/\1/p' "$log" | head -1)
  e=$(sed -n 's/^# ERROR: *\([0-9]*\)$/\1/p' "$log" | head -1)
  s=$(sed -n 's/^# SKIP: *\([0-9]*\)$/\1/p' "$log" | head -1)
  skip=$((skip + ${s:-0}))
  pass=$((pass + ${p:-0}))
  fail=$((fail + ${f:-0} + ${x:-0} + ${e:-0}))
done
[ "$skip" -eq 0 ] || grep -h '^SKIP: ' "$@" 2>/dev/null | sed 's/^/summary: /' | head -20 >&2
echo "$pass passed, $fail failed, $skip skipped"
