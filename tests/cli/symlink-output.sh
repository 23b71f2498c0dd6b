#!/bin/sh
# symlink-output.sh: updating a bundle through a symbolic link writes the
# link's target, atomically, beside the target: the link stays a link, the
# target gets exactly the bytes a bake straight to it gives, and no
# temporary file is left in either directory.  Relative, absolute and
# chained links; every bake tool, and the SQLite form; the target's
# permissions kept; a dangling link creates its target; a loop of links is
# refused; a dead writer's temporary file beside the target is removed.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map
agents=$data/sample-agents.yaml
A=$tmp/A B=$tmp/B R=$tmp/ref
mkdir "$A" "$B" "$R"

# count DIR: its entries.
count() { ls -A "$1" | wc -l | tr -d ' '; }
# still_link LINK WHERE: LINK is still a link that leads to WHERE.
still_link() { test -L "$1" && [ "$(readlink "$1")" = "$2" ]; }

# The first bake, with the default agents; the update through the link
# uses the sample agents, so the target must change.
ok "a bundle in A" mkclear -q "$map" -o "$A/s.nbk"
ln -s ../A/s.nbk "$B/rel.nbk"
ln -s "$A/s.nbk" "$B/abs.nbk"
ln -s rel.nbk "$B/chain.nbk"
ok "the reference, baked straight" mkclear -q --agents "$agents" "$map" -o "$R/s.nbk"

ok "mkclear through a relative link" mkclear -q --agents "$agents" "$map" -o "$B/rel.nbk"
ok "the link is still a link to the same place" still_link "$B/rel.nbk" ../A/s.nbk
ok "the target has the new bundle" cmp "$A/s.nbk" "$R/s.nbk"
is "nothing beside the target" "$(count "$A")" 1
is "nothing beside the link" "$(count "$B")" 3

ok "mkabstract through an absolute link" mkabstract -q "$B/abs.nbk"
ok "mkabstract straight, for reference" mkabstract -q "$R/s.nbk"
ok "the link is still a link" still_link "$B/abs.nbk" "$A/s.nbk"
ok "the target has the graph" cmp "$A/s.nbk" "$R/s.nbk"

ok "mkperim through a link to a link" mkperim -q -m "$data/models/humanoid.yaml" -o "$B/chain.nbk"
ok "mkperim straight" mkperim -q -m "$data/models/humanoid.yaml" -o "$R/s.nbk"
ok "both links are still links" sh -c "test -L '$B/chain.nbk' && test -L '$B/rel.nbk'"
ok "the target has the model, and kept what it held (read through the link)" \
  cmp "$A/s.nbk" "$R/s.nbk"
status navbake info "$A/s.nbk"
like "clearance still there" "$out" "clearance"

ok "mkhitcheck through a link" mkhitcheck -q -u "$data/units/jeep.yaml" -o "$B/rel.nbk"
ok "mkhitcheck straight" mkhitcheck -q -u "$data/units/jeep.yaml" -o "$R/s.nbk"
ok "the link is still a link" still_link "$B/rel.nbk" ../A/s.nbk
ok "the target has the unit" cmp "$A/s.nbk" "$R/s.nbk"
is "still nothing beside the target" "$(count "$A")" 1
is "nor beside the links" "$(count "$B")" 3

# Permissions are the target's, kept.
chmod 640 "$A/s.nbk"
ok "baked again through the link" mkclear -q --agents "$agents" "$map" -o "$B/rel.nbk"
like "the target keeps its mode" "$(ls -l "$A/s.nbk")" "-rw-r-----"

# A dead writer's file beside the target goes (tests/cli/stale-temp.sh).
sh -c 'exit 0' &
dead=$!
wait "$dead"
cp "$A/s.nbk" "$A/s.nbk.tmp-$dead-0"
ok "a bake through the link" mkclear -q --agents "$agents" "$map" -o "$B/abs.nbk"
ok "removes the dead writer's file beside the target" test ! -e "$A/s.nbk.tmp-$dead-0"

# The SQLite form.
ok "an SQLite bundle in A" mkclear -q "$map" -o "$A/s.sqlite"
ln -s ../A/s.sqlite "$B/s.sqlite"
ok "baked again through a link" mkclear -q --agents "$agents" "$map" -o "$B/s.sqlite"
ok "the link is still a link" still_link "$B/s.sqlite" ../A/s.sqlite
ok "the target has the new bundle" navbake convert -f binary "$A/s.sqlite" "$tmp/back.nbk"
ok "the same as the binary one" sh -c "mkclear -q --agents '$agents' '$map' -o '$tmp/direct.nbk' &&
  cmp '$tmp/back.nbk' '$tmp/direct.nbk'"
is "nothing else beside the target" "$(count "$A")" 2

# A dangling link: its target is created, as cp and the shell do.
ln -s ../A/new.nbk "$B/new.nbk"
ok "a bake through a dangling link" mkclear -q --agents "$agents" "$map" -o "$B/new.nbk"
ok "the link is still a link" still_link "$B/new.nbk" ../A/new.nbk
ok "its target was created" cmp "$A/new.nbk" "$tmp/direct.nbk"
ln -s ../Z/none.nbk "$B/nowhere.nbk"
status mkclear -q "$map" -o "$B/nowhere.nbk"
is "a dangling link into a missing directory: exit 1" "$rc" 1
like "naming the target" "$err" "../Z/none.nbk"
ok "the link is left alone" still_link "$B/nowhere.nbk" ../Z/none.nbk

# A loop of links.
ln -s loop2.nbk "$B/loop1.nbk"
ln -s loop1.nbk "$B/loop2.nbk"
status mkclear -q "$map" -o "$B/loop1.nbk"
is "a loop of links: exit 1" "$rc" 1
like "saying why" "$err" "too many levels of symbolic links"
ok "the links are left alone" still_link "$B/loop1.nbk" loop2.nbk

# A link to something that is not a regular file is refused, as the thing
# itself is.
if mkfifo "$tmp/fifo" 2>/dev/null; then
  ln -s ../fifo "$B/fifo.nbk"
  status mkclear -q "$map" -o "$B/fifo.nbk"
  is "a link to a FIFO: exit 1" "$rc" 1
  like "saying why" "$err" "not a regular file"
  ok "the FIFO is still a FIFO" test -p "$tmp/fifo"
else
  skip "mkfifo failed"; skip "mkfifo failed"; skip "mkfifo failed"
fi
is "in the end, nothing left beside the targets" "$(count "$A")" 3
finish
