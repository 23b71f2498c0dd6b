#!/bin/sh
# fuzz-bounce.sh SRCDIR OUTDIR (make fuzz-bounce): the bundles whose
# stored paths bounce (issue 29) that fuzz_work's corpus holds, made afresh
# from SRCDIR/data's sample level into OUTDIR (tests/fuzz/corpus/work):
#   bounce-levels    the levels above the graph (3 levels of factor 2 on
#                    clusters of 5, as make fuzz-seeds bakes them), every
#                    stored path of levels 2 and 3 going back and forth
#                    between its first two nodes as long as the level below
#                    has nodes (what the readers accepted before issue 29)
#   bounce-levels-3  the same at level 3 alone
#   bounce-graph     the graph's own cell paths (clusters of 8) the same way
# Each is refused when the first handle is made, and its queries would cost
# far beyond fuzz_work's bounds if it were not.  Run in the build directory,
# where the tools and tests/support/nbtest-bounce are; each command is
# printed before it runs, and the first that fails stops it.
[ $# -eq 2 ] || { echo "usage: fuzz-bounce.sh SRCDIR OUTDIR" >&2; exit 2; }
set -e
d=$1/data out=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-bounce.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
run() { echo "$*"; "$@"; }
run tools/mkclear -q --agents "$d/sample-agents.yaml" "$d/sample.map" -o "$tmp/levels"
run tools/mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 6 "$tmp/levels"
run tools/mkclear -q --agents "$d/sample-agents.yaml" "$d/sample.map" -o "$tmp/paths"
run tools/mkabstract -q --paths -c 8 "$tmp/paths"
mkdir -p "$out"
run tests/support/nbtest-bounce levels "$tmp/levels" "$out/bounce-levels"
run tests/support/nbtest-bounce levels 3 "$tmp/levels" "$out/bounce-levels-3"
run tests/support/nbtest-bounce graph "$tmp/paths" "$out/bounce-graph"
