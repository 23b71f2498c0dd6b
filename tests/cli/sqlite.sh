#!/bin/sh
# sqlite.sh: SQLite bundles from the command line: navbake convert both
# ways and through pipes, the form chosen by name or --format; info,
# verify and dump giving the same answers on either form; the database
# queried with the sqlite3 shell against counts made from the map file.
. "$top_srcdir/tests/support/lib.sh"
data=$top_srcdir/data
map=$data/sample.map

ok "a binary sample bundle is baked" nbtest-bundle --agents "$data/sample-agents.yaml" "$map" "$tmp/s.nbk"
ok "a writer given a .sqlite name writes SQLite" \
  nbtest-bundle --agents "$data/sample-agents.yaml" "$map" "$tmp/w.sqlite"
status navbake info "$tmp/w.sqlite"; like "navbake info says so" "$out" "form       sqlite"

# convert: both ways, byte for byte.
status navbake convert "$tmp/s.nbk" "$tmp/s.sqlite"; is "convert to .sqlite exits 0" "$rc" 0
is "and prints nothing" "$out$err" ""
ok "the writer's SQLite and the converted one are the same bytes" cmp "$tmp/w.sqlite" "$tmp/s.sqlite"
status navbake convert "$tmp/s.sqlite" "$tmp/back.nbk"; is "convert back exits 0" "$rc" 0
ok "binary -> SQLite -> binary: the same bytes" cmp "$tmp/s.nbk" "$tmp/back.nbk"
navbake convert "$tmp/back.nbk" "$tmp/again.db"
ok "SQLite -> binary -> SQLite (.db): the same database" cmp "$tmp/s.sqlite" "$tmp/again.db"
navbake convert --format sqlite "$tmp/s.nbk" "$tmp/forced.bin"
status navbake info "$tmp/forced.bin"; like "--format sqlite whatever the name" "$out" "form       sqlite"
navbake convert --format binary "$tmp/s.sqlite" "$tmp/forced.db"
ok "--format binary whatever the name" cmp "$tmp/s.nbk" "$tmp/forced.db"
navbake convert -f sqlite - - < "$tmp/s.nbk" > "$tmp/piped.sqlite"
ok "standard input to standard output (-f sqlite)" cmp "$tmp/s.sqlite" "$tmp/piped.sqlite"
cat "$tmp/s.sqlite" | navbake convert - "$tmp/piped.nbk"
ok "an SQLite bundle read from a pipe" cmp "$tmp/s.nbk" "$tmp/piped.nbk"
cp "$tmp/s.sqlite" "$tmp/inplace.sqlite"
navbake convert "$tmp/inplace.sqlite" "$tmp/inplace.sqlite"
ok "converting a file onto itself leaves it as it was" cmp "$tmp/s.sqlite" "$tmp/inplace.sqlite"
chmod 600 "$tmp/inplace.sqlite"
navbake convert "$tmp/s.nbk" "$tmp/inplace.sqlite"
is "a rewritten database keeps its permissions" "$(ls -l "$tmp/inplace.sqlite" | cut -c1-10)" "-rw-------"

# Usage and failures.
status navbake convert --help; is "convert --help exits 0" "$rc" 0
like "and shows the usage" "$out" "Usage: navbake convert [--format FORM] IN OUT"
status navbake convert --version; is "convert --version exits 0" "$rc" 0
status navbake convert "$tmp/s.nbk"; is "convert with one file: exit 2" "$rc" 2
status navbake convert a b c; is "convert with three: exit 2" "$rc" 2
status navbake convert --format xml "$tmp/s.nbk" "$tmp/x"; is "an unknown form: exit 2" "$rc" 2
like "named" "$err" "'xml' is not a bundle form (binary, sqlite or auto)"
status navbake convert "$tmp/none.nbk" "$tmp/x.db"; is "a missing input: exit 1" "$rc" 1
like "named" "$err" "none.nbk: cannot open"
status navbake convert "$map" "$tmp/x.db"; is "a map file as input: exit 1" "$rc" 1
like "not a bundle" "$err" "not a navbake bundle"
status navbake convert "$tmp/s.nbk" "$tmp/no/dir/x.db"; is "an output in a missing directory: exit 1" "$rc" 1
like "named" "$err" "no/dir/x.db"
ok "no output was made" test ! -e "$tmp/x.db"
status navbake help convert; like "navbake help convert" "$out" "Usage: navbake convert"
status navbake --help; like "navbake --help lists convert" "$out" "convert"

# info, verify and dump: the same on either form.
strip() { grep -v -e '^bundle ' -e '^form ' -e '^file ' -e '"bundle":' -e '"form":' -e '"file_size":'; }
navbake info "$tmp/s.nbk" | strip > "$tmp/info.bin"
navbake info "$tmp/s.sqlite" | strip > "$tmp/info.sql"
ok "info: the same on either form (but for name, form and file size)" cmp "$tmp/info.bin" "$tmp/info.sql"
like "and it lists the sections" "$(cat "$tmp/info.sql")" "width=64 height=40"
navbake info --json "$tmp/s.nbk" | strip > "$tmp/json.bin"
navbake info --json "$tmp/s.sqlite" | strip > "$tmp/json.sql"
ok "info --json: the same too" cmp "$tmp/json.bin" "$tmp/json.sql"
status navbake info --json "$tmp/s.sqlite"; like "with the form" "$out" '"form": "sqlite"'
status navbake verify "$tmp/s.nbk" "$tmp/s.sqlite"; is "verify: both forms exit 0" "$rc" 0
like "verify says ok" "$out" "s.sqlite: ok, 3 sections, $(wc -c < "$tmp/s.sqlite" | tr -d ' ') bytes"
for what in map legend agents "0 1 2"; do
  navbake dump "$tmp/s.nbk" $what > "$tmp/dump.bin"
  navbake dump "$tmp/s.sqlite" $what > "$tmp/dump.sql"
  ok "dump $what: the same on either form" cmp "$tmp/dump.bin" "$tmp/dump.sql"
done
navbake dump "$tmp/s.sqlite" map > "$tmp/back.map"
ok "dump map of the SQLite form gives the map file back" cmp "$map" "$tmp/back.map"

# A bundle holding every section type the tools present make: both round
# trips, and info, verify and dump the same on either form.
full=$tmp/full.nbk
agents=$data/sample-agents.yaml
forest=$data/forest.yaml
# Each tool, writing the binary form, the SQLite form by --format and by
# name (updating it in place): the three must be the same bundle.
# mkabstract's grid mode (the HAA* abstract graph), when this tree has it.
grid_abstract=no
mkabstract --help 2>/dev/null | grep -q -e '--cluster-size' && grid_abstract=yes
bake() { # OUT [--format F]: every mk tool present, in turn, into OUT
  out=$1; shift
  mkclear "$@" --agents "$agents" "$map" -o "$out" &&
  { [ $grid_abstract = no ] || mkabstract "$@" -q "$out"; } &&
  mkabstract "$@" --forest "$forest" --agent-radius 0,0.5,1 -o "$out" &&
  mkhitcheck "$@" --unit "$data/units/jeep.yaml" --unit "$data/units/tank.yaml" -o "$out" \
    > "$tmp/mkhitcheck.out" &&
  mkperim "$@" -q --model "$data/models/humanoid.yaml" -o "$out"
}
ok "every mk tool bakes into one binary bundle" bake "$full"
ok "and with --format sqlite" bake "$tmp/full.bin" --format sqlite
status navbake info "$tmp/full.bin"; like "which is SQLite" "$out" "form       sqlite"
ok "and into a .sqlite, updated in place by each" bake "$tmp/full-upd.sqlite"
ok "--format sqlite converts to the same bytes as the binary bake" sh -c \
  "navbake convert '$tmp/full.bin' '$tmp/full-from-sql.nbk' && cmp '$full' '$tmp/full-from-sql.nbk'"
navbake convert "$full" "$tmp/full.sqlite"
navbake convert "$tmp/full.sqlite" "$tmp/full-back.nbk"
ok "every section type: binary -> SQLite -> binary, the same bytes" cmp "$full" "$tmp/full-back.nbk"
navbake convert "$tmp/full-back.nbk" "$tmp/full-again.sqlite"
ok "every section type: SQLite -> binary -> SQLite, the same database" cmp "$tmp/full.sqlite" "$tmp/full-again.sqlite"
ok "and the same as the tools' own SQLite" cmp "$tmp/full.sqlite" "$tmp/full-upd.sqlite"
navbake info "$full" | strip > "$tmp/info.bin"
navbake info "$tmp/full.sqlite" | strip > "$tmp/info.sql"
ok "info of every section type: the same on either form" cmp "$tmp/info.bin" "$tmp/info.sql"
status navbake verify "$tmp/full.sqlite"; is "verify of every section type" "$rc" 0
# navbake query: the same answers from either form (but for the times taken).
for a in scout wagon amphibian giant; do
  for form in "$full" "$tmp/full.sqlite"; do
    navbake query --agent $a --path --json "$form" --from 1,1 --to 58,34 2>&1 |
      sed 's/microseconds": [0-9.e+-]*//g' > "$tmp/q.$(basename "$form")"
  done
  ok "query --agent $a: the same answer from either form" cmp "$tmp/q.full.nbk" "$tmp/q.full.sqlite"
done
like "and it is a path" "$(cat "$tmp/q.full.sqlite")" '"found": true'
if [ $grid_abstract = yes ]; then
  for m in haa haa-refined haa-smooth; do
    for form in "$full" "$tmp/full.sqlite"; do
      navbake query --method $m --agent wagon --path --json "$form" --from 1,1 --to 58,34 2>&1 |
        sed 's/microseconds": [0-9.e+-]*//g' > "$tmp/q.$(basename "$form")"
    done
    ok "query --method $m: the same answer from either form" cmp "$tmp/q.full.nbk" "$tmp/q.full.sqlite"
  done
else
  for m in haa haa-refined haa-smooth; do skip "mkabstract has no grid mode in this tree"; done
fi
# navbake scen on a real map's scenarios: the same from either form.
arena=${NB_SHARED:-}/maps/dao/arena.map
if [ -f "$arena" ] && [ -f "$arena.scen" ]; then
  mkclear "$arena" -o "$tmp/arena.nbk" && navbake convert "$tmp/arena.nbk" "$tmp/arena.sqlite"
  untimed() { sed -e '/^time /d' -e 's/, [0-9.]* [a-z]* per second//'; }
  navbake scen "$tmp/arena.nbk" "$arena.scen" | untimed > "$tmp/scen.bin"
  status navbake scen "$tmp/arena.sqlite" "$arena.scen"; is "scen on the SQLite form exits 0" "$rc" 0
  echo "$out" | untimed > "$tmp/scen.sql"
  ok "and reports what it does on the binary form (but for the times)" cmp "$tmp/scen.bin" "$tmp/scen.sql"
else
  skip "../shared is absent: no scenario file"; skip "../shared is absent: no scenario file"
fi

# navbake query: the same answers from either form, for every radius.
for r in 0 0.5 1; do
  navbake query --forest "$full" --agent-radius $r --from 2,2 --to 95,55 --json > "$tmp/q.bin" 2>&1
  navbake query --forest "$tmp/full.sqlite" --agent-radius $r --from 2,2 --to 95,55 --json > "$tmp/q.sql" 2>&1
  ok "query --forest, agent radius $r: the same path from either form" cmp "$tmp/q.bin" "$tmp/q.sql"
done
like "and it is a path" "$(cat "$tmp/q.sql")" '"length":'
navbake plan --unit jeep --from 3,3 --to 60,35 --json "$full" > "$tmp/p.bin" 2>&1
navbake plan --unit jeep --from 3,3 --to 60,35 --json "$tmp/full.sqlite" > "$tmp/p.sql" 2>&1
ok "plan --unit: the same path from either form" cmp "$tmp/p.bin" "$tmp/p.sql"
like "and it is a path" "$(cat "$tmp/p.sql")" '"segments"'
navbake plan --model humanoid --from 3,3 --to 60,35 --json "$full" > "$tmp/m.bin" 2>&1
navbake plan --model humanoid --from 3,3 --to 60,35 --json "$tmp/full.sqlite" > "$tmp/m.sql" 2>&1
ok "plan --model: the same path from either form" cmp "$tmp/m.bin" "$tmp/m.sql"
like "and it is a path" "$(cat "$tmp/m.sql")" '"found": true'
nsec=$(navbake info --json "$full" | grep -c '"index":')
same=0
for i in $(seq 0 $((nsec - 1))); do
  navbake dump "$full" $i > "$tmp/d.bin" 2>&1
  navbake dump "$tmp/full.sqlite" $i > "$tmp/d.sql" 2>&1
  cmp -s "$tmp/d.bin" "$tmp/d.sql" && same=$((same + 1))
done
is "dump of each of the $nsec sections: the same on either form" "$same" "$nsec"
for what in "clearance --capability ground" "components --capability ground,swamp --size 2" forest; do
  navbake dump "$full" $what > "$tmp/dump.bin"
  navbake dump "$tmp/full.sqlite" $what > "$tmp/dump.sql"
  ok "dump $what: the same on either form" cmp "$tmp/dump.bin" "$tmp/dump.sql"
done

# The database with the sqlite3 shell, against the map file counted by awk.
if command -v sqlite3 >/dev/null 2>&1; then
  q() { sqlite3 "$tmp/s.sqlite" "$1"; }
  is "application_id" "$(q 'PRAGMA application_id')" 1312967507
  is "user_version" "$(q 'PRAGMA user_version')" 1002
  count() { awk -v set="$1" 'NR > 4 { n += gsub("[" set "]", "") } END { print n + 0 }' "$map"; }
  is "obstacle cells" "$(q 'SELECT count(*) FROM map_cells WHERE terrain IS NULL')" "$(count '@O')"
  is "ground cells" "$(q "SELECT count(*) FROM map_cells JOIN terrains ON terrains.id = terrain WHERE name = 'ground'")" "$(count '.G')"
  is "map_rows are the map's lines" "$(q 'SELECT cells FROM map_rows ORDER BY y')" "$(sed 1,4d "$map" | tr -d '\r')"
  names=$(sed -n 's/^ *- *name: *\([A-Za-z0-9_-]*\).*/\1/p; s/^ *name: *\([A-Za-z0-9_-]*\).*/\1/p' "$data/sample-agents.yaml" | tr '\n' ' ')
  is "agents, in the YAML's order" "$(q 'SELECT name FROM agents ORDER BY id' | tr '\n' ' ')" "$names"
  is "section_list" "$(q "SELECT type || ':' || params FROM section_list WHERE id = 2")" "map:width=64 height=40 bits=4"
  # A blob damaged in the shell (same length): verify names the section.
  cp "$tmp/s.sqlite" "$tmp/d.sqlite"
  sqlite3 "$tmp/d.sqlite" "UPDATE sections SET data = CAST(substr(data, 1, 99) || '!' || substr(data, 101) AS BLOB) WHERE id = 2"
  status navbake verify "$tmp/d.sqlite"; is "verify: a damaged blob exits 1" "$rc" 1
  like "and names the section and its row" "$err" "section 2 (map), row id 2 of the sections table"
  sqlite3 "$tmp/d.sqlite" "UPDATE sections SET p0 = 9 WHERE id = 2"
  status navbake info "$tmp/d.sqlite"; is "info: an edited row exits 1" "$rc" 1
  like "a row was changed" "$err" "a row was changed"
  # Every table and view of the schema is explained in formats/sqlite.md.
  missing=
  for name in $(q "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"); do
    grep -q "\`$name\`" "$top_srcdir/formats/sqlite.md" || missing="$missing $name"
  done
  is "formats/sqlite.md names every table and view" "$missing" ""
  # The clearance views against navbake info's lines for the same layers.
  f() { sqlite3 "$tmp/full.sqlite" "$1"; }
  is "clearance_layers: one per capability" "$(f 'SELECT count(*) FROM clearance_layers')" \
    "$(grep -c ' clearance ' "$tmp/info.bin")"
  is "component_layers: one per capability and size" "$(f 'SELECT count(*) FROM component_layers')" \
    "$(grep -c ' components ' "$tmp/info.bin")"
  is "their parameters and bytes per cell as info shows them" \
    "$(f "SELECT 'capability=' || terrains || ' size=' || size || ' components=' || components || ' bits=' || bits || ' (' || printf('%.3f', bytes_per_cell) || ' bytes/cell)' FROM component_layers ORDER BY section")" \
    "$(sed -n 's/.* components  .* \(capability=.*\)/\1/p' "$tmp/info.bin")"
  is "component_runs: each runs section as navbake info shows it" \
    "$(f "SELECT 'capability=' || terrains || ' size=' || size || ' components=' || components || ' runs=' || runs || ' cells=' || cells FROM component_runs ORDER BY section")" \
    "$(sed -n 's/.* runs  .* \(capability=.*\) (.* bytes\/cell)$/\1/p' "$tmp/info.bin")"
  is "agent_layers: each agent's layers" \
    "$(f "SELECT count(*) FROM agent_layers WHERE clearance_section IS NOT NULL AND components > 0")" 4
  # The unit tables against what mkhitcheck said it baked.
  is "units, hitcheck_tables and curve_tables as mkhitcheck reports them" \
    "$(f "SELECT 'unit ' || u.name || ': radius ' || u.radius || ', width ' || u.width || ', ' || u.headings || ' headings' || CASE u.reverse WHEN 1 THEN ', reverses' ELSE '' END || '; Directional-' || h.neighbourhood || ': ' || h.curves || ' curves in a ' || h.window || ' x ' || h.window || ' window (' || h.stored_size || ' bytes); curve table ' || c.stored_size || ' bytes' FROM units u JOIN hitcheck_tables h ON h.unit = u.name JOIN curve_tables c ON c.unit = u.name ORDER BY u.name" | sed 's/\.0\([,;]\)/\1/g')" \
    "$(cat "$tmp/mkhitcheck.out")"
  is "hitcheck_curves: every curve of every table, each stored one for four start headings" \
    "$(f 'SELECT count(*) FROM hitcheck_curves')" "$(f 'SELECT 4 * sum(curves) FROM hitcheck_tables')"
  is "hitcheck_tables: the stored entries" \
    "$(f "SELECT entries || ' ' || all_curves FROM hitcheck_tables WHERE unit = 'jeep'")" "384 0"
  # A version-1 table (tests/data/unit-v1.nbb): every candidate, in
  # records of 16 bytes and the bitset's 64-bit words (a 9 x 9 window: 2).
  navbake convert "$top_srcdir/tests/data/unit-v1.nbb" "$tmp/v1.sqlite"
  is "hitcheck_tables of a version-1 table: every candidate, its record's bytes" \
    "$(sqlite3 "$tmp/v1.sqlite" "SELECT all_curves || ' ' || record_bytes || ' ' || window FROM hitcheck_tables")" "1 32 9"
  is "the shortest curve one cell ahead is that cell's straight line" \
    "$(f "SELECT word || ' ' || length || ' ' || cells FROM hitcheck_curves WHERE unit = 'jeep' AND h0 = 0 AND h1 = 0 AND dx = 1 AND dy = 0 AND rank = 0")" "LSL 1.0 0"
  # The motion tables: the model file's speeds, and formats/motion.md's
  # worked example (the humanoid's tables with the paper's symmetries).
  is "model_speeds: the model file's speeds" \
    "$(f "SELECT name || ' ' || CAST(value AS INTEGER) || ' ' || turn FROM model_speeds WHERE model = 'humanoid' ORDER BY level" | tr '\n' ';')" \
    "$(sed -n 's/.*{name: *\([a-z]*\), *value: *\([-0-9]*\), *turn: *\([0-9]*\)}.*/\1 \2 \3/p' "$data/models/humanoid.yaml" | tr '\n' ';')"
  is "model_headings: one per heading" "$(f "SELECT count(*) FROM model_headings WHERE model = 'humanoid'")" 16
  mkperim -q --model "$data/models/humanoid.yaml" --layout symmetric --entry-bits 32 --symmetries paper -o "$tmp/paper.sqlite"
  is "perimeter_goals: formats/motion.md's three tables, (heading, speed, group, first entry)" \
    "$(sqlite3 "$tmp/paper.sqlite" "SELECT goal_heading || ',' || goal_speed || ',' || printf('0x%04x', symmetry_group) || ',' || first_entry FROM perimeter_goals ORDER BY tab" | tr '\n' ' ')" \
    "0,stopped,0x0011,0 1,stopped,0x0001,23157 2,stopped,0x0021,69285 "
  is "perimeter_tables: 32-bit entries, no scale" \
    "$(sqlite3 "$tmp/paper.sqlite" "SELECT layout || ' ' || entry_bits || ' ' || scale || ' ' || tables FROM perimeter_tables")" "symmetric 32 0 3"
  is "and with every symmetry, table 0 holds the page's 7719 entries" \
    "$(f "SELECT entries FROM perimeter_goals WHERE model = 'humanoid' AND tab = 0")" 7719
  # The abstract graph's tables against navbake info and formats/abstract.md.
  if [ $grid_abstract = yes ]; then
    is "abstract_graph: the counts navbake info shows" \
      "$(f "SELECT 'cluster=' || cluster || ' quality=' || (CASE quality WHEN 'initial' THEN 0 WHEN 'high' THEN 1 ELSE 2 END) || ' nodes=' || nodes || ' edges=' || edges || ' inter=' || inter_edges FROM abstract_graph")" \
      "$(sed -n 's/.* abstract .* \(cluster=[0-9]* quality=[0-9]* nodes=[0-9]* edges=[0-9]* inter=[0-9]*\).*/\1/p' "$tmp/info.bin")"
    is "a row per node and per edge, inter-edges counted apart" \
      "$(f "SELECT (SELECT count(*) FROM abstract_nodes) = nodes AND (SELECT count(*) FROM abstract_edges) = edges AND (SELECT count(*) FROM abstract_edges WHERE kind = 'inter') = inter_edges FROM abstract_graph")" 1
    is "every node lies in the cluster its cell is in" \
      "$(f 'SELECT count(*) FROM abstract_nodes, abstract_graph g WHERE abstract_nodes.cluster != (y / g.cluster) * g.clusters_x + x / g.cluster')" 0
    is "every inter-edge joins facing cells of two clusters, weight 1" \
      "$(f "SELECT count(*) FROM abstract_edges e JOIN abstract_nodes a ON a.id = node_a JOIN abstract_nodes b ON b.id = node_b WHERE kind = 'inter' AND (abs(a.x - b.x) + abs(a.y - b.y) != 1 OR a.cluster = b.cluster OR weight != 1)")" 0
    is "no intra-edge weighs less than the octile distance it spans" \
      "$(f "SELECT count(*) FROM abstract_edges e JOIN abstract_nodes a ON a.id = node_a JOIN abstract_nodes b ON b.id = node_b WHERE kind = 'intra' AND (a.cluster != b.cluster OR cardinal + diagonal < max(abs(a.x - b.x), abs(a.y - b.y)) OR weight < max(abs(a.x - b.x), abs(a.y - b.y)) + 0.41421356237 * min(abs(a.x - b.x), abs(a.y - b.y)) - 1e-9)")" 0
    is "abstract_serves: every capability and size of the agent set" \
      "$(f 'SELECT count(*) FROM abstract_serves')" \
      "$(f 'SELECT (SELECT count(DISTINCT capability) FROM agents) * (SELECT count(DISTINCT size) FROM agents)')"
    is "agent_abstract_edges: an agent uses only edges that admit it" \
      "$(f "SELECT count(*) FROM agent_abstract_edges x JOIN agents a ON a.name = x.agent JOIN abstract_edges e ON e.id = x.edge WHERE e.capability & ~a.capability OR e.clearance < a.size")" 0
  else
    for i in 1 2 3 4 5 6 7; do skip "mkabstract has no grid mode in this tree"; done
  fi
  # The forest tables against navbake info and dump.
  is "forest_circles: the forest's circles" "$(f 'SELECT count(*) FROM forest_circles')" \
    "$(navbake dump "$full" forest | grep -c '^ *- ')"
  is "bitangent_graphs as info lists the graphs" \
    "$(f "SELECT 'radius_index=' || radius_index || ' nodes=' || nodes || ' transitions=' || transitions || ' candidates=' || candidates || ' arcs=' || arcs FROM bitangent_graphs")" \
    "$(sed -n 's/.* \(radius_index=[0-9]* nodes=.* arcs=[0-9]*\).*/\1/p' "$tmp/info.bin")"
  is "a node per bitangent end, an edge per bitangent" \
    "$(f 'SELECT sum(nodes = (SELECT count(*) FROM bitangent_nodes n WHERE n.radius_index = g.radius_index) AND transitions = (SELECT count(*) FROM bitangent_edges e WHERE e.radius_index = g.radius_index)) FROM bitangent_graphs g')" 3
  is "each node's other end names it back" \
    "$(f 'SELECT count(*) FROM bitangent_nodes a JOIN bitangent_nodes b ON b.radius_index = a.radius_index AND b.id = a.other WHERE b.other != a.id OR b.circle = a.circle')" 0
else
  for i in $(seq 35); do skip "sqlite3 shell absent"; done
fi
if command -v file >/dev/null 2>&1 && file "$tmp/s.sqlite" | grep -q SQLite; then
  like "file(1) shows the application id" "$(file "$tmp/s.sqlite")" "application id 1312967507"
else
  skip "file(1) absent or without SQLite magic"
fi
finish
