#!/bin/sh
# check-tsan.sh SRCDIR (make check-tsan): the bakes on threads (mkclear and
# mkabstract -j: lib/bake/parallel) and runtime obstacles under
# ThreadSanitizer, in a tree of its own, _tsan/, made by 'make distdir':
# test_rebake bakes on 1 to 8 threads and updates bundles on 1 to 3;
# test_overlay's readers of one overlay version run on threads while a
# writer prepares the next; test_world_runtime's two query threads run
# while one loads and unloads a world's tiles, and test_world_query's four
# threads search across the tiles meanwhile; test_world_budget's four
# threads load the tiles they need under a byte budget, and
# test_world_trim's four threads query (also under blocks across tile
# borders, the tiles their queries repaired kept in their workspaces)
# while another unloads and trims.  $MAKE is the make to run (make passes its
# own); $NB_SHARED, ../shared, is passed on.
[ $# -eq 1 ] || { echo "usage: check-tsan.sh SRCDIR" >&2; exit 2; }
set -e
${SHELL:-sh} "$1/tests/support/fresh-tree.sh" _tsan --disable-shared \
  CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS='-fsanitize=thread'
cd _tsan
${MAKE:-make} tests/unit/test_rebake tests/unit/test_overlay tests/unit/test_world_runtime \
  tests/unit/test_world_query tests/unit/test_world_budget tests/unit/test_world_trim
top_srcdir=. TSAN_OPTIONS=halt_on_error=1
export top_srcdir TSAN_OPTIONS NB_SHARED
for t in test_rebake test_overlay test_world_runtime test_world_query test_world_budget test_world_trim; do
  echo "top_srcdir=. TSAN_OPTIONS=$TSAN_OPTIONS tests/unit/$t"
  tests/unit/$t
done
