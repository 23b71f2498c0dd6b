#!/bin/sh
# readme.sh: README.md points at what is there and claims what the bench
# pages measured: every file it links to is in the tree (a page moved
# leaves no dead link), and its first paragraph gives microseconds to
# look-ups and short queries and milliseconds to long ones, with figures
# that tests/bench/results/scale-bench.md holds.  (install.sh checks its Windows
# install listing against an install.)
. "$top_srcdir/tests/support/lib.sh"
r=$top_srcdir/README.md
grep -o '](\([^)]*\))' "$r" | sed 's/^](//; s/)$//; s/#.*//' | grep -v -e '^[a-z]*:' -e '^$' |
  sort -u >"$tmp/links"
ok "README links files" test -s "$tmp/links"
while IFS= read -r l; do
  ok "README's link $l is in the tree" test -e "$top_srcdir/$l"
done <"$tmp/links"

# The first paragraph: from the line after the title to the first blank line.
first=$(awk 'NR > 2 && /^$/ { exit } NR > 2' "$r" | tr '\n' ' ')
like "the first paragraph: look-ups and short queries in microseconds" "$first" \
  "short queries in microseconds"
like "... corner to corner on a big map in milliseconds" "$first" \
  "corner to corner of a big map in milliseconds"
bench=$top_srcdir/tests/bench/results/scale-bench.md
like "... its 8192^2 figure is scale-bench.md's" "$(cat "$bench")" "(8192^2: 6.2 ms against"
like "... and its 16384^2 one" "$(cat "$bench")" "16384^2: 24 ms against"
like "... which it gives" "$first" "6 ms at 8192 x 8192, 24 ms at 16384 x 16384"
finish
