#!/bin/sh
# table-order.sh: one section table (formats/bundle.md): a table with two
# entries of one (type, name, parameters), or out of the writers' order,
# is refused at open, naming both entries, by every path: the binary
# reader (a file, standard input), the SQLite reader (naming the rows),
# navbake verify, info, query and convert, which writes nothing.
# nbtest-lie makes the tables by hand: twice stores the first clearance
# layer a second time under its key with a wall in it (so that a reader of
# either copy answers otherwise), order swaps the first two sections.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data

ok "mkclear" mkclear -q --agents "$data/sample-agents.yaml" "$data/sample.map" -o "$tmp/s.nbk"
ok "its table is in order: it opens" navbake verify -q "$tmp/s.nbk"

for form in nbk sqlite; do
  for kind in twice order; do
    bad=$tmp/$kind.$form
    if ! nbtest-lie "$kind" "$tmp/s.nbk" "$bad" >"$tmp/where" 2>"$tmp/lie.err"; then
      ok "nbtest-lie $kind ($form)" sh -c "cat '$tmp/lie.err'; false"; continue
    fi
    case $kind.$form in
      twice.nbk) want="section 3 (clearance capability=1 cap=3 bits=2) and section 4 (clearance capability=1 cap=3 bits=2) have the same type, name and parameters" ;;
      order.nbk) want="section 0 (agents agents=4) comes before section 1 (legend terrains=4): the section table is sorted by type, name and parameters" ;;
      twice.sqlite) want="row id 3 of the sections table (clearance capability=1 cap=3 bits=2) and row id 4 of the sections table (clearance capability=1 cap=3 bits=2) have the same type, name and parameters" ;;
      order.sqlite) want="row id 0 of the sections table (agents agents=4) comes before row id 1 of the sections table (legend terrains=4)" ;;
    esac
    for cmd in "info" "verify" "verify --deep" "query --from 1,1 --to 60,36"; do
      status navbake $cmd "$bad"
      is "$kind ($form): navbake $cmd refuses it (exit 1)" "$rc" 1
      like "  naming both entries" "$err" "$bad: $want"
    done
    status navbake info - <"$bad"
    like "$kind ($form): from standard input too" "$err" "(standard input): "
    like "  naming both entries" "$err" "$want"
    for dest in out.nbk out.sqlite; do
      rm -f "$tmp/$dest"
      status navbake convert "$bad" "$tmp/$dest"
      is "$kind ($form): navbake convert to $dest refuses it" "$rc" 1
      like "  naming both entries" "$err" "$want"
      ok "  and writes nothing" test ! -e "$tmp/$dest"
    done
  done
done
finish
