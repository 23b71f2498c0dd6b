#!/bin/sh
# fuzz-prepare.sh SRCDIR CORPUS TARGET: makes _fuzz/TARGET, the work
# directory a fuzzing run of TARGET starts from: a copy of the committed
# corpus CORPUS/TARGET plus seeds made afresh from SRCDIR/data (bundle,
# input, unit) or taken from _fuzz/seeds (queries, tools, sqlite: made by
# fuzz-seeds.sh first; work takes its levels and paths when they are
# there).  Run in the build directory, where the tools and
# tests/support/nbtest-bundle are.  Each command that makes a seed is
# printed before it runs.
[ $# -eq 3 ] || { echo "usage: fuzz-prepare.sh SRCDIR CORPUS TARGET" >&2; exit 2; }
set -e
d=$1/data corpus=$2 t=$3 w=_fuzz/$3
mkdir -p "$w"
cp "$corpus/$t"/* "$w/"
chmod u+w "$w"/*
run() { echo "$*"; "$@"; }
# prefixed BYTE FILE OUT: OUT is BYTE (a printf format: '\001'), then
# FILE; the first byte says which reader fuzz_input (fuzz_unit) gives the
# rest to.
prefixed() {
  printf "%s\n" "{ printf '$1'; cat $2; } > $3"
  { printf "$1"; cat "$2"; } >"$3"
}
case $t in
bundle)
  run tests/support/nbtest-bundle --agents "$d/sample-agents.yaml" "$d/sample.map" "$w/seed1"
  run tests/support/nbtest-bundle --zlib "$d/sample.map" "$w/seed2"
  run tests/support/nbtest-bundle --agents "$d/sample-agents.yaml" "$d/sample.map" "$w/seed3.sqlite"
  ;;
input)
  prefixed '\000' "$d/sample.map" "$w/map"
  prefixed '\001' "$d/legend.yaml" "$w/legend"
  prefixed '\002' "$d/sample-agents.yaml" "$w/agents"
  prefixed '\002' "$d/cost-agents.yaml" "$w/cost-agents"
  ;;
unit)
  echo "_fuzz/unit.map: a 6 x 4 level with two walls"
  printf 'type octile\nheight 4\nwidth 6\nmap\n......\n.@@...\n......\n......\n' >_fuzz/unit.map
  rm -f "$w/seed1"
  run tools/mkclear -q _fuzz/unit.map -o "$w/seed1"
  echo "_fuzz/unit.yaml: a unit of radius 1 that may reverse"
  printf 'name: u\nradius: 1\nwidth: 0.8\nneighbourhood: 8\nreverse: true\n' >_fuzz/unit.yaml
  run tools/mkhitcheck -q -u _fuzz/unit.yaml -o "$w/seed1"
  prefixed Y "$d/units/tank.yaml" "$w/seed2"
  ;;
queries | tools)
  run cp _fuzz/seeds/all _fuzz/seeds/unit _fuzz/seeds/paths _fuzz/seeds/initial \
    _fuzz/seeds/forest _fuzz/seeds/optimal _fuzz/seeds/levels "$w/"
  ;;
work)
  for f in levels paths; do
    if [ -f "_fuzz/seeds/$f" ]; then run cp "_fuzz/seeds/$f" "$w/"; fi
  done
  ;;
sqlite)
  run cp _fuzz/seeds/paths.sqlite "$w/"
  # The lean copies when sqlite3 could make them (fuzz-seeds.sh).
  for f in all unit forest; do
    if [ -f "_fuzz/seeds/$f-lean.sqlite" ]; then run cp "_fuzz/seeds/$f-lean.sqlite" "$w/"
    else run cp "_fuzz/seeds/$f.sqlite" "$w/"; fi
  done
  ;;
levels) ;; # the committed corpus alone: data/levels' files, made self-contained
*) echo "fuzz-prepare.sh: no target $t" >&2; exit 2 ;;
esac
