#!/bin/sh
# old-build.sh SRCDIR COMMIT DIR: builds navbake as it was at COMMIT of the
# git repository SRCDIR into DIR (its library, the tools that bake a
# unit's bundle and mkabstract), for tests/bench/bench_directional --old
# DIR and tests/bench/bench_change --old DIR.  Does nothing when DIR
# already holds that commit's build.
set -e
src=$1 commit=$2 dir=$3
[ -n "$src" ] && [ -n "$commit" ] && [ -n "$dir" ] || {
  echo "usage: old-build.sh SRCDIR COMMIT DIR" >&2; exit 2; }
want=$(git -C "$src" rev-parse "$commit^{commit}")
if [ -f "$dir/.commit" ] && [ "$(cat "$dir/.commit")" = "$want" ] &&
   [ -f "$dir/lib/.libs/libnavbake.so" ] && [ -x "$dir/tools/mkhitcheck" ] &&
   [ -x "$dir/tools/mkabstract" ]; then
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
git -C "$src" archive "$want" | tar -x -C "$dir"
cd "$dir"
autoreconf -fi >/dev/null 2>&1
./configure -q
make -j2 lib/libnavbake.la tools/mkclear tools/mkhitcheck tools/mkabstract >/dev/null
echo "$want" > .commit
echo "old-build.sh: $commit built in $dir"
