#!/bin/sh
# fuzz-seeds.sh SRCDIR (make fuzz-seeds): the seeds of the structure-aware
# fuzz targets (queries, tools, sqlite), in _fuzz/seeds: SRCDIR/data's
# sample level baked with every tool (as make demo does, with smaller
# tables) into bundles of every kind of section, packed and zlib, their
# SQLite forms, and lean copies of three of those (without the decoded
# tables, which nothing reads back: a sixth of the size) when the sqlite3
# shell is here.  Run in the build directory, where the tools are; each
# command is printed before it runs, and the first that fails stops it.
[ $# -eq 1 ] || { echo "usage: fuzz-seeds.sh SRCDIR" >&2; exit 2; }
set -e
d=$1/data s=_fuzz/seeds
rm -rf $s
mkdir -p $s
run() { echo "$*"; "$@"; }
echo "_fuzz/mini.yaml: a unit of 8 headings, small tables"
printf 'name: mini\nradius: 1\nwidth: 0.5\nheadings: 8\nneighbourhood: 8\nreverse: true\n' >_fuzz/mini.yaml
level() { run tools/mkclear -q "$@" "$d/sample.map"; }
# all: every kind of section the sample level has.
level --agents "$d/sample-agents.yaml" -o $s/all
run tools/mkabstract -q $s/all
run tools/mkperim -q -m "$d/models/humanoid.yaml" -r 4 -o $s/all
run tools/mkperim -q -m "$d/models/tank.yaml" -r 3 -l rotated -o $s/all
run tools/mkperim -q -m "$d/models/vehicle.yaml" -r 2 -b 32 -o $s/all
run tools/mkabstract -q --forest "$d/forest.yaml" --agent-radius 0,1 -o $s/all
# unit: hit-check and curve tables, zlib.
level -z --agents "$d/sample-agents.yaml" -o $s/unit
run tools/mkhitcheck -q -u _fuzz/mini.yaml -o $s/unit
# paths: the abstract graph with its refined paths, motion tables, zlib.
level -z --agents "$d/sample-agents.yaml" -o $s/paths
run tools/mkabstract -q --paths -Q low -c 8 -z $s/paths
run tools/mkperim -q -m "$d/models/humanoid.yaml" -r 3 -l speed-limited -s paper -z -o $s/paths
# levels: levels above the graph with landmarks, small enough that queries
# 40 cells apart search the top level.
level --agents "$d/sample-agents.yaml" -o $s/levels
run tools/mkabstract -q --paths -c 5 --levels 3 --level-factor 2 --landmarks 6 $s/levels
# optimal: the optimal-search layer.
level --optimal --agents "$d/sample-agents.yaml" -o $s/optimal
# initial: the graph of initial quality, spread transitions, weak corners.
level --agents "$d/haa-agents.yaml" -o $s/initial
run tools/mkabstract -q -Q initial -p spread --corner weak -c 16 $s/initial
run tools/mkperim -q -m "$d/models/humanoid.yaml" -r 1 -l full -s paper -o $s/initial
# costs: agents with terrain costs and the graph's costs for them.
level --agents "$d/cost-agents.yaml" -o $s/costs
run tools/mkabstract -q $s/costs
# forest: round obstacles alone, zlib.
run tools/mkabstract -q -z --forest "$d/forest.yaml" --agent-radius 0.5,2 -o $s/forest
for f in all unit paths forest; do
  run tools/navbake convert $s/$f $s/$f.sqlite
done
command -v sqlite3 >/dev/null || exit 0
for f in all unit forest; do
  cp $s/$f.sqlite $s/$f-lean.sqlite
  echo "sqlite3 $s/$f-lean.sqlite: drop every view and table but bundle and sections"
  sqlite3 $s/$f-lean.sqlite "SELECT 'DROP VIEW ' || name || ';' FROM sqlite_master
    WHERE type = 'view'; SELECT 'DROP TABLE ' || name || ';' FROM sqlite_master WHERE type =
    'table' AND name NOT IN ('bundle', 'sections'); SELECT 'VACUUM;';" |
    sqlite3 $s/$f-lean.sqlite
done
