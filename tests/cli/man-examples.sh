#!/bin/sh
# man-examples.sh: every whole program in the EXAMPLE sections of the
# section 3 pages (an .EX block with a main) compiles as C99 with every
# warning an error against navbake.h, links against libnavbake and runs on
# the bundle its page says to bake, exiting 0.  One bundle holds what every
# page asks for: the sample level with its optimal layer, its HAA* graph,
# the humanoid model, the jeep unit and the sample forest.
. "$top_srcdir/tests/support/lib.sh"
d=$top_srcdir/data
s=$tmp/sample.nbk
ok "the sample bundle bakes" sh -c "
  mkclear -q --optimal --agents '$d/sample-agents.yaml' '$d/sample.map' -o '$s' &&
  mkabstract -q '$s' &&
  mkperim -q --model '$d/models/humanoid.yaml' -o '$s' &&
  mkhitcheck -q --unit '$d/units/jeep.yaml' -o '$s' &&
  mkabstract -q --forest '$d/forest.yaml' --agent-radius 1,2 '$s' -o '$s'"
count=0
for p in "$top_srcdir"/man/*.3; do
  [ "$(sed -n 1p "$p" | cut -c1-4)" = ".so " ] && continue
  page=$(basename "$p" .3)
  awk -v base="$tmp/$page" '/^\.SH/ { ex = ($2 ~ /^EXAMPLES?$/) }
    ex && /^\.EX/ { n++; on = 1; next } /^\.EE/ { on = 0; next }
    on { print > (base "-" n ".man") }' "$p"
  for m in "$tmp/$page"-*.man; do
    [ -f "$m" ] && grep -q 'int main' "$m" || continue
    count=$((count + 1))
    c=${m%.man}.c
    # The text as groff prints it.
    sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(dq/"/g' -e "s/\\\\(aq/'/g" -e 's/\\&//g' \
      -e 's/\\(ti/~/g' -e 's/\\(ha/^/g' "$m" >"$c"
    ok "$page(3): its example compiles (C99, -Wall -Wextra -pedantic -Werror)" \
      ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -Werror $NB_SAN_CFLAGS -I"$top_srcdir/lib/include" \
        -c "$c" -o "${c%.c}.o"
    ok "$page(3): and links against libnavbake" \
      "$top_builddir/libtool" --mode=link ${CC:-cc} $NB_SAN_CFLAGS -o "${c%.c}" "${c%.c}.o" \
        "$top_builddir/lib/libnavbake.la"
    status "$top_builddir/libtool" --mode=execute "${c%.c}" "$tmp/sample.nbk"
    is "$page(3): and runs on sample.nbk, exiting 0" "$rc" 0
    [ "$rc" -eq 0 ] || printf '%s\n' "$err" | head -5 | sed 's/^/#   /'
  done
done
ok "the pages hold whole example programs ($count)" test "$count" -ge 2
finish
