#!/bin/sh
# stale-temp.sh: a bake removes the temporary files of its own output that
# dead writers left behind (BUNDLE.tmp-PID-N, full size, after a SIGKILL),
# and nothing else: not a live writer's (this shell's, init's), not another
# output's, not a link, a directory or a name merely like ours.  The same
# for SQLite bundles and for the scratch file of an SQLite bundle written
# to standard output.  tests/unit/test_killed_write.c kills real writers.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml

# A PID that is surely no process: one of a child that was waited for (not
# reused in the moment), and one above any kernel's pid_max.
sh -c 'exit 0' &
dead=$!
wait "$dead"
never=999999999
live=$$

ok "the sample level bakes" mkclear -q --agents "$agents" "$map" -o "$tmp/s.nbk"
o=$tmp
cp "$o/s.nbk" "$o/s.nbk.tmp-$dead-0"           # a dead writer's, full size
: > "$o/s.nbk.tmp-$never-17"                     # another dead one
: > "$o/s.nbk.tmp-$live-0"                       # this shell is writing it
: > "$o/s.nbk.tmp-1-0"                           # init's (another user's: EPERM)
: > "$o/other.nbk.tmp-$dead-0"                   # another output's
: > "$o/s.nbk2.tmp-$dead-0"                      # an output whose name starts as ours
: > "$o/s.nbk.tmp-$dead"                         # not our naming: no counter
: > "$o/s.nbk.tmp-$dead-0x"                      # nor this
: > "$o/s.nbk.tmp-+$dead-0"                      # nor this
mkdir "$o/s.nbk.tmp-$dead-5"                     # a directory
: > "$o/kept"
ln -s kept "$o/s.nbk.tmp-$dead-6"                # a link
ok "mkclear bakes over it" mkclear -q --agents "$agents" "$map" -o "$o/s.nbk"
ok "the dead writer's file is removed" test ! -e "$o/s.nbk.tmp-$dead-0"
ok "so is the one of a PID no process has" test ! -e "$o/s.nbk.tmp-$never-17"
ok "a live writer's is kept" test -f "$o/s.nbk.tmp-$live-0"
ok "init's is kept" test -f "$o/s.nbk.tmp-1-0"
ok "another output's is kept" test -f "$o/other.nbk.tmp-$dead-0"
ok "an output whose name starts as ours keeps its own" test -f "$o/s.nbk2.tmp-$dead-0"
ok "a name without the counter is kept" test -f "$o/s.nbk.tmp-$dead"
ok "a counter that is not a number is kept" test -f "$o/s.nbk.tmp-$dead-0x"
ok "a signed PID is kept" test -f "$o/s.nbk.tmp-+$dead-0"
ok "a directory is kept" test -d "$o/s.nbk.tmp-$dead-5"
ok "a link is kept" test -L "$o/s.nbk.tmp-$dead-6"
ok "and so is what it points to" test -f "$o/kept"
ok "the bundle verifies" navbake verify "$o/s.nbk"
is "nothing else came or went" "$(ls "$o" | wc -l | tr -d ' ')" 11

# Every tool writes through the same writer: mkabstract, updating in place.
cp "$o/s.nbk" "$o/s.nbk.tmp-$dead-1"
ok "mkabstract updates the bundle" mkabstract -q "$o/s.nbk"
ok "and removes the dead writer's file" test ! -e "$o/s.nbk.tmp-$dead-1"

# An SQLite bundle.
ok "an SQLite bundle bakes" mkclear -q --agents "$agents" "$map" -o "$o/s.sqlite"
cp "$o/s.sqlite" "$o/s.sqlite.tmp-$dead-0"
: > "$o/s.sqlite.tmp-$live-0"
ok "baked again" mkclear -q --agents "$agents" "$map" -o "$o/s.sqlite"
ok "the dead writer's file is removed" test ! -e "$o/s.sqlite.tmp-$dead-0"
ok "the live one's is kept" test -f "$o/s.sqlite.tmp-$live-0"

# The scratch file of an SQLite bundle written to standard output.
mkdir "$o/scratch"
: > "$o/scratch/navbake.tmp-$dead-0"
: > "$o/scratch/navbake.tmp-$live-0"
ok "an SQLite bundle to standard output" \
  sh -c "TMPDIR='$o/scratch' navbake convert -f sqlite '$o/s.nbk' - > '$o/out.sqlite'"
ok "the dead writer's scratch file is removed" test ! -e "$o/scratch/navbake.tmp-$dead-0"
ok "the live one's is kept" test -f "$o/scratch/navbake.tmp-$live-0"
is "and none of its own is left" "$(ls "$o/scratch" | wc -l | tr -d ' ')" 1
finish
