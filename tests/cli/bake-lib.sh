#!/bin/sh
# bake-lib.sh: the bake as a library (navbake_bake.h, nb_bake(3)).  A
# program using it (tests/support/bake_use.c) compiles as C and C++ of
# every standard with every warning an error, links against
# libnavbake_bake and libnavbake, and bakes each level (a MovingAI map with
# agent sets with and without terrain costs, a Tiled map, a heightmap) to
# the bytes mkclear then mkabstract write, with each option; a chunk it
# bakes in memory answers a query as navbake query answers it on the same
# map baked by mkclear; the library exports nb_bake_ names alone.
. "$top_srcdir/tests/support/lib.sh"
cd "$tmp" || exit 1
D=$top_srcdir/data
src=$top_srcdir/tests/support/bake_use.c
inc="-I$top_srcdir/lib/include"
CC=${CC:-cc}
CXX=${CXX:-c++}
for std in c89 c99 c11 c17; do
  ok "navbake_bake.h compiles as $std -pedantic-errors -Wall -Wextra -Werror" \
    $CC -std=$std -pedantic-errors -Wall -Wextra -Werror $inc -c "$src" -o use.o
done
command -v "$CXX" >/dev/null 2>&1 || { echo "Bail out! no C++ compiler ($CXX): bootstrap.sh installs g++"; exit 1; }
cp "$src" use.cc
for std in c++98 c++11 c++17 c++20; do
  ok "navbake_bake.h compiles as $std -pedantic-errors -Wall -Wextra -Werror" \
    $CXX -std=$std -pedantic-errors -Wall -Wextra -Werror $inc -c use.cc -o use.o
done
ok "a C++ program links against libnavbake_bake and libnavbake (extern \"C\")" \
  "$top_builddir/libtool" --mode=link --tag=CXX $CXX $NB_SAN_CFLAGS -o use use.o \
    "$top_builddir/lib/libnavbake_bake.la" "$top_builddir/lib/libnavbake.la"
use() { "$top_builddir/libtool" --mode=execute ./use "$@"; }

# The chunk: a 16 x 16 room with a wall down from the top, baked in memory.
status use --chunk
chunk=$out
ok "the chunk bakes in memory and answers a query ($chunk)" test "$rc" = 0
{ printf 'type octile\nheight 16\nwidth 16\nmap\n'
  y=0
  while [ $y -lt 16 ]; do
    if [ $y -lt 12 ]; then echo '........@.......'; else echo '................'; fi
    y=$((y + 1))
  done; } >chunk.map
mkclear chunk.map -o chunk.nbk
status navbake query chunk.nbk --from 2,2 --to 14,2 --json
is "its length is navbake query's on the same map baked by mkclear" \
  "$(echo "$chunk" | cut -d' ' -f2)" \
  "$(echo "$out" | sed -n 's/.*"length": *\([0-9.]*\).*/\1/p' | head -1 | awk '{printf "%.3f", $1}')"

# Each level and option: the library's bytes are mkclear's then mkabstract's.
tools_bake() { # LEVEL OUT LEGEND AGENTS FLAGS
  set -- "$1" "$2" "$3" "$4" "$5"
  opts=
  [ "$3" = - ] || opts="$opts --legend $3"
  [ "$4" = - ] || opts="$opts --agents $4"
  z=
  case $5 in *z*) z=-z ;; esac
  case $5 in *o*w*|*w*o*) opts="$opts --optimal=both" ;; *o*) opts="$opts --optimal" ;; *w*) opts="$opts --optimal=weak" ;; esac
  mkclear -q $z $opts "$1" -o "$2" || return 1
  levels=
  case $5 in *l*) levels="--levels 3" ;; esac
  case $5 in *q*) levels="$levels --quality low --placement first" ;; esac
  case $5 in *a*) mkabstract -q $z $levels "$2" ;; esac
}
same() { # LEVEL LEGEND AGENTS FLAGS [EXTENSION]
  e=${5:-nbk}
  rm -f tools.$e lib.$e  # mkclear would update a bundle there, keeping its other sections
  tools_bake "$1" tools.$e "$2" "$3" "$4" && use "$1" lib.$e "$2" "$3" "$4" && cmp tools.$e lib.$e
}
for flags in a '' z ao aw az al aq; do
  ok "sample.map, sample agents, flags '$flags': the library's bytes are the tools'" \
    same "$D/sample.map" - "$D/sample-agents.yaml" "$flags"
done
ok "sample.map, agents with terrain costs: the same bytes" \
  same "$D/sample.map" - "$D/cost-agents.yaml" a
ok "a Tiled map (room-zstd.tmx): the same bytes" \
  same "$D/levels/room-zstd.tmx" "$D/levels/room-legend.yaml" - a
ok "a heightmap (hills.pgm): the same bytes" \
  same "$D/levels/hills.pgm" "$D/levels/hills-legend.yaml" - ao
ok "an SQLite bundle, by its name: the same bytes" \
  same "$D/sample.map" - "$D/sample-agents.yaml" a sqlite
ok "... and it verifies" navbake verify lib.sqlite
status use "$D/levels/room-zstd.tmx" lib.nbk "$D/levels/nothing.yaml"
like "a missing legend is refused, named" "$rc $err" "1 bake_use: "
like "... with the file's name" "$err" "nothing.yaml"

# The library exports its own names alone.
libs=$top_builddir/lib/.libs
if [ -f "$libs/libnavbake_bake.so" ]; then
  status sh -c "nm -D --defined-only '$libs/libnavbake_bake.so' | awk '\$2 ~ /[TDBR]/ {print \$3}' | grep -v '^nb_bake_'"
  is "libnavbake_bake exports nb_bake_ names only" "$out" ""
else
  skip "no shared library"
fi
finish
