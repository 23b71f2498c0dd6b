#!/bin/sh
# strays.sh: one home for each shared fact (HACKING.md).  The eight moves
# are core/grid.h's table: no other literal table of them in lib/ or
# tools/ (tests keep their own on purpose: an independent answer).  Every
# byte offset of the bundle is named in core/format.h: no reader or writer
# in lib/ or tools/ adds a bare number to a pointer it reads or writes a
# field at (nbi_get*, nbi_put*, memcpy, memcmp, memset).  Each check runs
# on planted strays first, to show that it finds them.
. "$top_srcdir/tests/support/lib.sh"

# code FILE: FILE without its comments, on one line.
code() {
  tr '\n' ' ' <"$1" | sed 's#/\*\([^*]\|\*[^/]\)*\*/# #g'
}
# move_tables FILE...: the literal tables of the eight moves: eight values
# of -1, 0 and 1 (both signs among them: a dx or a dy), or eight pairs.
move_tables() {
  v='[[:space:]]*-?[01][[:space:]]*'
  for f in "$@"; do
    code "$f" | grep -oE "\{($v,){7}$v,?[[:space:]]*\}|\{([[:space:]]*\{$v,$v\}[[:space:]]*,){7}[[:space:]]*\{$v,$v\}[[:space:]]*,?[[:space:]]*\}" |
      grep -e '-1' | grep -E '(^|[^-])1' | sed "s|^|$f: |"
  done
}
# raw_offsets FILE...: FILE:LINE: the line, for each call whose pointer
# argument adds a bare number of 2 or more (not a stride: not multiplied).
raw_offsets() {
  awk '
    { line = $0; gsub(/\/\*.*\*\//, "", line) }
    line ~ /^[[:space:]]*(\/\*|\*([[:space:]\/]|$))/ { next }
    {
      rest = line
      while (match(rest, /(nbi_(get|put)(16|32|64|f64)|memcpy|memcmp|memset)[[:space:]]*\(/)) {
        nargs = substr(rest, RSTART, 6) ~ /^mem(cpy|cmp)/ ? 2 : 1
        rest = substr(rest, RSTART + RLENGTH)
        depth = 0; arg = ""; seen = 0
        for (i = 1; i <= length(rest) && seen < nargs; i++) {
          c = substr(rest, i, 1)
          if (depth == 0 && (c == "," || c == ")")) {
            if (arg ~ /\+[[:space:]]*([2-9]|[1-9][0-9]+)[[:space:]]*([^*0-9[:space:]]|$)/) {
              print FILENAME ":" FNR ": " $0; next
            }
            seen++; arg = ""
            if (c == ")") break
            continue
          }
          if (c == "(") depth++
          if (c == ")") depth--
          arg = arg c
        }
      }
    }' "$@"
}

# The checks on planted strays, and on what is no stray.
cat >"$tmp/planted.c" <<'C'
static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dir[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1},
                              {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
static const int zero[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* {1, -1, 0, 0, 1, 1, -1, -1} */
static const int ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
static void f(uint8_t *map, const uint8_t *p, const uint8_t *g, const uint8_t *r, size_t i, double *span)
{
    nbi_put32(map + 4, 1);
    *span = nbi_getf64(p + 8);
    if (memcmp(g + NBI_BT_ZERO, r + 28, 4) != 0)
        return;
    nbi_put32(map + NBI_MAP_HEIGHT, 1);
    nbi_put32(map + NBI_LEGEND_HEADER + 4 * i, 1);
    (void)nbi_get32(p + 4 * (i + 1));
    (void)nbi_u32at(p, i + 1);
    (void)nbi_get16(p + 2 * i);
    /* nbi_put32(map + 4, 1) in a comment */
}
C
status move_tables "$tmp/planted.c"
is "a planted dx table and a table of pairs over two lines are found, nothing else" \
  "$(echo "$out" | sed "s|^$tmp/||; s|[[:space:]]\{2,\}| |g")" \
  "planted.c: {1, 1, 0, -1, -1, -1, 0, 1}
planted.c: {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}}"
status raw_offsets "$tmp/planted.c"
is "planted raw offsets (a put, a get on a dereference's line, memcmp's second pointer) are found, nothing else" \
  "$(echo "$out" | sed "s|^$tmp/||")" \
  "planted.c:8:     nbi_put32(map + 4, 1);
planted.c:9:     *span = nbi_getf64(p + 8);
planted.c:10:     if (memcmp(g + NBI_BT_ZERO, r + 28, 4) != 0)"

cd "$top_srcdir" || exit 1
files=$(find lib tools -name '*.[ch]' ! -path '*/_*' | sort)
ok "the sources are found" test -n "$files" -a -f lib/runtime/core/grid.h -a -f lib/runtime/core/format.h
status move_tables $(echo "$files" | grep -v '^lib/runtime/core/grid\.h$')
is "the eight moves are core/grid.h's table only" "$out" ""
# base.h builds the 64-bit fields of two 32-bit ones.
status raw_offsets $(echo "$files" | grep -v '^lib/runtime/core/base\.h$')
is "every field offset of the bundle is named (core/format.h)" "$out" ""
finish
