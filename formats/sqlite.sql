-- formats/sqlite.sql: a navbake bundle held in an SQLite database, schema
-- version 1.2.  formats/sqlite.md explains it.
--
-- The navbake tools write a database by running this file as it is (it is
-- compiled into them) on an empty database, then filling the tables in one
-- transaction.  `sqlite3 new.db < formats/sqlite.sql` makes the same, empty.
--
-- Two kinds of table:
--  * bundle and sections hold the bundle itself, exactly what its binary
--    form holds: readers (nb_bundle_open, navbake convert) read these and
--    nothing else;
--  * every other table and view is for people and their tools, decoded
--    from the sections when the database is written.  Nothing reads them
--    back: edit a bundle with the tools, never with SQL.

PRAGMA application_id = 1312967507;  -- 0x4E424B53, "NBKS": a navbake bundle
PRAGMA user_version = 1002;          -- this schema's version: 1000 x major + minor

-- ==================================================================
-- The bundle (formats/bundle.md): the binary form's header and section
-- table, and each section's stored bytes.

-- One row: the container.
CREATE TABLE bundle (
    format_major  INTEGER NOT NULL,  -- the bundle format version (1.0: 1, 0)
    format_minor  INTEGER NOT NULL,
    flags         INTEGER NOT NULL,  -- the header's flags (none defined: 0)
    section_count INTEGER NOT NULL,  -- how many rows sections has
    table_crc32   INTEGER NOT NULL,  -- CRC-32 of the binary form's section table
    header_crc32  INTEGER NOT NULL   -- CRC-32 of the binary form's header (its bytes 0 to 59)
);

-- One row per section, in the section table's order: by (type, name,
-- p0 ... p7).  Each column is the field of the binary section entry with
-- the same name; offsets are not stored (the binary layout follows from
-- the order and the sizes).
CREATE TABLE sections (
    id            INTEGER PRIMARY KEY,  -- 0, 1, ...: the section's number, as navbake info shows it
    type          INTEGER NOT NULL,     -- section_types.type
    version       INTEGER NOT NULL,     -- the section's own format version
    encoding      INTEGER NOT NULL,     -- encodings.encoding
    stored_size   INTEGER NOT NULL,     -- bytes in data
    unpacked_size INTEGER NOT NULL,     -- bytes once inflated (= stored_size unless zlib)
    crc32         INTEGER NOT NULL,     -- CRC-32 (zlib's) of data
    flags         INTEGER NOT NULL,     -- section-specific, 0 unless its page says otherwise
    name          TEXT    NOT NULL,     -- a motion model's or a unit's name, or ''
    p0            INTEGER NOT NULL,     -- the eight build parameters; section_params
    p1            INTEGER NOT NULL,     -- names them
    p2            INTEGER NOT NULL,
    p3            INTEGER NOT NULL,
    p4            INTEGER NOT NULL,
    p5            INTEGER NOT NULL,
    p6            INTEGER NOT NULL,
    p7            INTEGER NOT NULL,
    data          BLOB    NOT NULL,     -- the stored bytes, as in the binary form
    UNIQUE (type, name, p0, p1, p2, p3, p4, p5, p6, p7)
);

-- ==================================================================
-- Names, for reading the above.

-- The section types this version of navbake knows.
CREATE TABLE section_types (
    type INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE        -- 'legend', 'map', 'clearance', ...
);

-- What each parameter of each type means.
CREATE TABLE section_param_names (
    type INTEGER NOT NULL,
    idx  INTEGER NOT NULL,           -- 0 to 7: column p<idx> of sections
    name TEXT NOT NULL,
    PRIMARY KEY (type, idx)
) WITHOUT ROWID;

CREATE TABLE encodings (
    encoding INTEGER PRIMARY KEY,
    name     TEXT NOT NULL           -- 'raw', 'packed', 'zlib+raw', 'zlib+packed'
);

-- Each named parameter of each section: (section, idx, name, value).
CREATE VIEW section_params AS
SELECT s.id AS section, n.idx AS idx, n.name AS name,
       CASE n.idx WHEN 0 THEN s.p0 WHEN 1 THEN s.p1 WHEN 2 THEN s.p2 WHEN 3 THEN s.p3
                  WHEN 4 THEN s.p4 WHEN 5 THEN s.p5 WHEN 6 THEN s.p6 ELSE s.p7 END AS value
FROM sections AS s JOIN section_param_names AS n ON n.type = s.type;

-- The sections as navbake info lists them.
CREATE VIEW section_list AS
SELECT s.id AS id,
       coalesce(t.name, 'type-' || s.type) AS type,
       s.version AS version,
       coalesce(e.name, printf('0x%04x', s.encoding)) AS encoding,
       s.stored_size AS stored_size,
       s.unpacked_size AS unpacked_size,
       printf('%08x', s.crc32) AS crc32,
       s.name AS name,
       (SELECT group_concat(p.name || '=' || p.value, ' ')
          FROM section_params AS p WHERE p.section = s.id) AS params
FROM sections AS s
LEFT JOIN section_types AS t ON t.type = s.type
LEFT JOIN encodings AS e ON e.encoding = s.encoding;

-- ==================================================================
-- The level (formats/legend.md, formats/agents.md, formats/map.md).

-- The legend's terrains.  Terrain id is bit id of a capability mask.
CREATE TABLE terrains (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE,
    chars TEXT NOT NULL              -- the map characters that are this terrain
);

-- Every map character the legend defines.
CREATE TABLE map_chars (
    char    TEXT PRIMARY KEY,
    terrain INTEGER REFERENCES terrains (id)  -- NULL: a hard obstacle
);

-- Every capability the bundle names (of an agent type, or a parameter of
-- a section), as a mask and as terrain names.
CREATE TABLE capabilities (
    mask     INTEGER PRIMARY KEY,
    terrains TEXT NOT NULL           -- 'ground,swamp'
);

-- The same, a row per (capability, terrain), for joins.
CREATE TABLE capability_terrains (
    mask    INTEGER NOT NULL REFERENCES capabilities (mask),
    terrain INTEGER NOT NULL REFERENCES terrains (id),
    PRIMARY KEY (mask, terrain)
) WITHOUT ROWID;

-- The agent types, in the agent set's order.
CREATE TABLE agents (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    size       INTEGER NOT NULL,     -- it covers size x size cells from its top-left cell
    capability INTEGER NOT NULL REFERENCES capabilities (mask)
);

-- Each agent type's terrain costs (formats/agents.md: a move costs its
-- length times the largest multiplier under the agent's square): a row per
-- terrain of its capability, 1 where the agent set names no cost (every row
-- of an agent without costs).  (Schema 1.2.)
CREATE TABLE agent_costs (
    agent   TEXT NOT NULL REFERENCES agents (name),
    terrain TEXT NOT NULL REFERENCES terrains (name),
    cost    REAL NOT NULL,             -- the multiplier, 1 to 1e6 (NB_MAX_COST)
    PRIMARY KEY (agent, terrain)
) WITHOUT ROWID;

-- Which agent may enter which terrain.
CREATE VIEW agent_terrains AS
SELECT a.name AS agent, t.name AS terrain
FROM agents AS a
JOIN capability_terrains AS c ON c.mask = a.capability
JOIN terrains AS t ON t.id = c.terrain;

-- One row when the bundle has a map.
CREATE TABLE map (
    width  INTEGER NOT NULL,
    height INTEGER NOT NULL
);

-- The map, a row of cells per row: the characters as the map file has
-- them, x = 0 first.  Row y = 0 is the top.
CREATE TABLE map_rows (
    y     INTEGER PRIMARY KEY,
    cells TEXT NOT NULL
);

-- The map, a row per cell: its character and terrain (NULL: an obstacle).
CREATE VIEW map_cells AS
WITH RECURSIVE xs(x) AS (
    SELECT 0 WHERE (SELECT width FROM map) > 0
    UNION ALL
    SELECT x + 1 FROM xs WHERE x + 1 < (SELECT width FROM map)
)
SELECT xs.x AS x, r.y AS y, substr(r.cells, xs.x + 1, 1) AS char, c.terrain AS terrain
FROM map_rows AS r
CROSS JOIN xs
LEFT JOIN map_chars AS c ON c.char = substr(r.cells, xs.x + 1, 1);

-- ==================================================================
-- Clearance and reachability layers (formats/clearance.md): each layer's
-- parameters and size.  `navbake dump BUNDLE clearance --capability C`
-- prints a layer's values cell by cell.

-- A true-clearance layer per capability (type 16).
CREATE VIEW clearance_layers AS
SELECT s.id AS section, s.p0 AS capability, c.terrains AS terrains, s.p1 AS cap, s.p2 AS bits,
       e.name AS encoding, s.stored_size AS stored_size, s.unpacked_size AS unpacked_size,
       round(1.0 * s.stored_size / (SELECT width * height FROM map), 3) AS bytes_per_cell
FROM sections AS s
LEFT JOIN capabilities AS c ON c.mask = s.p0
LEFT JOIN encodings AS e ON e.encoding = s.encoding
WHERE s.type = 16;

-- A component layer per (capability, size) (type 17).
CREATE VIEW component_layers AS
SELECT s.id AS section, s.p0 AS capability, c.terrains AS terrains, s.p1 AS size,
       s.p2 AS components, s.p3 AS bits,
       e.name AS encoding, s.stored_size AS stored_size, s.unpacked_size AS unpacked_size,
       round(1.0 * s.stored_size / (SELECT width * height FROM map), 3) AS bytes_per_cell
FROM sections AS s
LEFT JOIN capabilities AS c ON c.mask = s.p0
LEFT JOIN encodings AS e ON e.encoding = s.encoding
WHERE s.type = 17;

-- Each component's cells as runs along rows, per (capability, size)
-- (type 18, formats/runs.md): what random standable cells are drawn from.
CREATE VIEW component_runs AS
SELECT s.id AS section, s.p0 AS capability, c.terrains AS terrains, s.p1 AS size,
       s.p2 AS components, s.p3 AS runs, s.p4 AS cells,
       e.name AS encoding, s.stored_size AS stored_size, s.unpacked_size AS unpacked_size
FROM sections AS s
LEFT JOIN capabilities AS c ON c.mask = s.p0
LEFT JOIN encodings AS e ON e.encoding = s.encoding
WHERE s.type = 18;

-- The layers that serve each agent type (NULL where the bundle has none).
CREATE VIEW agent_layers AS
SELECT a.name AS agent, a.size AS size, a.capability AS capability,
       (SELECT section FROM clearance_layers WHERE capability = a.capability) AS clearance_section,
       (SELECT section FROM component_layers
         WHERE capability = a.capability AND size = a.size) AS components_section,
       (SELECT components FROM component_layers
         WHERE capability = a.capability AND size = a.size) AS components
FROM agents AS a;

-- ==================================================================
-- Round obstacles (formats/forest.md): the forest and, per agent radius,
-- its bitangent graph.  Reals are the sections' f64 values, exactly.

-- One row when the bundle has a forest; the bounds are NULL without.
CREATE TABLE forest (
    circles INTEGER NOT NULL,
    xmin    REAL,
    ymin    REAL,
    xmax    REAL,
    ymax    REAL
);

-- The round obstacles as given (not inflated).
CREATE TABLE forest_circles (
    id     INTEGER PRIMARY KEY,
    x      REAL NOT NULL,
    y      REAL NOT NULL,
    radius REAL NOT NULL
);

-- A bitangent graph per agent radius (type 81).
CREATE TABLE bitangent_graphs (
    radius_index  INTEGER PRIMARY KEY,  -- the order mkabstract was given the radii in
    section       INTEGER NOT NULL,     -- sections.id
    agent_radius  REAL NOT NULL,
    nodes         INTEGER NOT NULL,     -- tangent points
    transitions   INTEGER NOT NULL,     -- bitangent segments kept (each used both ways)
    candidates    INTEGER NOT NULL,     -- bitangents of all pairs before line of sight
    arcs          INTEGER NOT NULL,     -- hugging arcs the graph stands for
    free_arcs     INTEGER NOT NULL,     -- arcs of the rims no other circle covers
    stored_size   INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL
);

-- Its nodes: the tangent points, each one end of one bitangent.
CREATE TABLE bitangent_nodes (
    radius_index INTEGER NOT NULL,
    id           INTEGER NOT NULL,      -- the node's index in the section
    circle       INTEGER NOT NULL,      -- forest_circles.id
    x            REAL NOT NULL,
    y            REAL NOT NULL,
    angle        REAL NOT NULL,         -- on its circle, in [-pi, pi]
    sense        TEXT NOT NULL,         -- 'ccw' or 'cw': how a path leaving here goes round
    other        INTEGER NOT NULL,      -- the node at the bitangent's other end
    PRIMARY KEY (radius_index, id)
) WITHOUT ROWID;

-- Its transitions: each bitangent once, with its length.
CREATE TABLE bitangent_edges (
    radius_index INTEGER NOT NULL,
    node_a       INTEGER NOT NULL,      -- the lower node id
    node_b       INTEGER NOT NULL,
    circle_a     INTEGER NOT NULL,
    circle_b     INTEGER NOT NULL,
    length       REAL NOT NULL,
    PRIMARY KEY (radius_index, node_a)
) WITHOUT ROWID;

-- ==================================================================
-- Units with a turning radius (formats/hitcheck.md): each unit, its
-- hit-check table and its curve heuristic table, all named for the unit.

-- The units (type 64).  capability 0 means every terrain.
CREATE TABLE units (
    name            TEXT PRIMARY KEY,
    section         INTEGER NOT NULL,
    radius          REAL NOT NULL,     -- turning radius, cells
    width           REAL NOT NULL,     -- diameter, cells
    headings        INTEGER NOT NULL,  -- 8 or 16
    neighbourhood   INTEGER NOT NULL,  -- 8, 24 or 48
    reverse         INTEGER NOT NULL,  -- 1 when it may drive backwards
    reverse_penalty REAL NOT NULL,
    capability      INTEGER NOT NULL,
    terrains        TEXT               -- the capability's terrains; NULL for every terrain
);

-- Each unit's hit-check table (type 65): its parameters and size.
CREATE TABLE hitcheck_tables (
    unit          TEXT PRIMARY KEY,
    section       INTEGER NOT NULL,
    headings      INTEGER NOT NULL,
    neighbourhood INTEGER NOT NULL,
    window        INTEGER NOT NULL,    -- side of the square of cells a curve may touch
    curves        INTEGER NOT NULL,    -- curves stored (the first quarter of the start headings)
    record_bytes  INTEGER NOT NULL,    -- bytes a stored curve takes, rounded up: 9 + window^2 / 8
    stored_size   INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL,
    all_curves    INTEGER NOT NULL,    -- 1: every candidate of an entry (1.1); 0: its shortest
    entries       INTEGER NOT NULL     -- entries stored: headings / 4 x headings x neighbourhood (1.1)
);

-- Every curve of every hit-check table: from the origin cell facing
-- heading h0 to the neighbour (dx, dy) facing h1, shortest first (rank 0);
-- every start heading, the turned ones included.
CREATE TABLE hitcheck_curves (
    unit    TEXT NOT NULL,
    h0      INTEGER NOT NULL,          -- heading index: h0 x 360 / headings degrees
    h1      INTEGER NOT NULL,
    dx      INTEGER NOT NULL,
    dy      INTEGER NOT NULL,
    rank    INTEGER NOT NULL,
    word    TEXT NOT NULL,             -- LSL RSR LSR RSL LRL RLR
    variant INTEGER NOT NULL,
    length  REAL NOT NULL,             -- cells
    cells   INTEGER NOT NULL,          -- cells it touches (origin and destination not counted)
    PRIMARY KEY (unit, h0, h1, dx, dy, rank)
) WITHOUT ROWID;

-- Each unit's curve heuristic table (type 66): its parameters and size.
CREATE TABLE curve_tables (
    unit          TEXT PRIMARY KEY,
    section       INTEGER NOT NULL,
    distance      INTEGER NOT NULL,    -- D, cells
    steps         INTEGER NOT NULL,    -- rows per cell
    angles        INTEGER NOT NULL,    -- bearings per turn
    columns       INTEGER NOT NULL,    -- angles / 2 + 1 (left-right symmetry)
    radius        REAL NOT NULL,
    stored_size   INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL
);

-- ==================================================================
-- Motion models and perimeter heuristic tables (formats/motion.md), each
-- named for its model.

-- The motion models (type 48).
CREATE TABLE motion_models (
    name            TEXT PRIMARY KEY,
    section         INTEGER NOT NULL,
    headings        INTEGER NOT NULL,
    speeds          INTEGER NOT NULL,
    speed_change    INTEGER NOT NULL,  -- levels an action may change the speed by
    still_cost      REAL NOT NULL,
    turn_cost       REAL NOT NULL,
    extended_weight REAL NOT NULL,     -- w_m
    top_speed       REAL NOT NULL
);

-- Each model's headings: the cell offset a step at that heading moves by.
CREATE TABLE model_headings (
    model   TEXT NOT NULL,
    heading INTEGER NOT NULL,
    dx      INTEGER NOT NULL,
    dy      INTEGER NOT NULL,
    PRIMARY KEY (model, heading)
) WITHOUT ROWID;

-- Each model's speed levels, slowest (most backward) first.
CREATE TABLE model_speeds (
    model TEXT NOT NULL,
    level INTEGER NOT NULL,
    name  TEXT NOT NULL,
    value REAL NOT NULL,               -- cells per unit of time; negative: backwards
    turn  INTEGER NOT NULL,            -- the most heading steps an action at this speed turns
    PRIMARY KEY (model, level)
) WITHOUT ROWID;

-- Each model's perimeter table (type 49): its parameters and size.
CREATE TABLE perimeter_tables (
    model         TEXT PRIMARY KEY,
    section       INTEGER NOT NULL,
    radius        INTEGER NOT NULL,    -- R: the window is (2R + 1) x (2R + 1) cells
    layout        TEXT NOT NULL,       -- full, speed-limited, symmetric, rotated
    entry_bits    INTEGER NOT NULL,    -- 16 (fixed point) or 32 (float)
    symmetries    INTEGER NOT NULL,    -- the header's symmetry flags
    speed_classes INTEGER NOT NULL,
    tables        INTEGER NOT NULL,
    entries       INTEGER NOT NULL,    -- in all tables
    scale         INTEGER NOT NULL,    -- a 16-bit entry e is e / scale; 0 for 32-bit
    stored_size   INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL
);

-- The goal tables of each perimeter table.
CREATE TABLE perimeter_goals (
    model          TEXT NOT NULL,
    tab            INTEGER NOT NULL,   -- 0, 1, ...
    goal_heading   INTEGER,            -- NULL: a goal at any heading
    goal_speed     TEXT,               -- model_speeds.name; NULL: at any speed
    symmetry_group INTEGER NOT NULL,   -- the elements of the table's group, a bit each
    first_entry    INTEGER NOT NULL,
    entries        INTEGER NOT NULL,
    PRIMARY KEY (model, tab)
) WITHOUT ROWID;

-- ==================================================================
-- The HAA* abstract graph (formats/abstract.md): one per bundle.

-- The graph's parameters and size (type 32).
CREATE TABLE abstract_graph (
    section       INTEGER PRIMARY KEY,
    cluster       INTEGER NOT NULL,    -- N: clusters are N x N cells
    quality       TEXT NOT NULL,       -- initial, high, low
    corner        TEXT NOT NULL,       -- strict, weak
    placement     TEXT NOT NULL,       -- first, middle, spread, ends
    spread        INTEGER NOT NULL,
    clusters_x    INTEGER NOT NULL,
    clusters_y    INTEGER NOT NULL,
    nodes         INTEGER NOT NULL,
    edges         INTEGER NOT NULL,
    inter_edges   INTEGER NOT NULL,
    path_bytes    INTEGER NOT NULL,    -- what stored refined paths add (0: none)
    stored_size   INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL
);

-- The (capability, size) pairs it serves.
CREATE TABLE abstract_serves (
    capability INTEGER NOT NULL,
    size       INTEGER NOT NULL,
    PRIMARY KEY (capability, size)
) WITHOUT ROWID;

-- Its nodes: cells on cluster borders.
CREATE TABLE abstract_nodes (
    id      INTEGER PRIMARY KEY,
    cluster INTEGER NOT NULL,          -- row-major: cluster k is column k mod clusters_x
    x       INTEGER NOT NULL,
    y       INTEGER NOT NULL
);

-- Its edges, each once (node_a < node_b), with the annotation that says
-- which agents may use it: an agent of capability c and size s may when
-- capability is a subset of c and clearance >= s.
CREATE TABLE abstract_edges (
    id         INTEGER PRIMARY KEY,
    node_a     INTEGER NOT NULL,
    node_b     INTEGER NOT NULL,
    kind       TEXT NOT NULL,          -- inter (across a border) or intra (inside a cluster)
    capability INTEGER NOT NULL,
    clearance  INTEGER NOT NULL,
    cardinal   INTEGER NOT NULL,       -- steps: the weight is cardinal + diagonal x sqrt(2)
    diagonal   INTEGER NOT NULL,
    weight     REAL NOT NULL
);

-- The edges each agent type may use.
CREATE VIEW agent_abstract_edges AS
SELECT a.name AS agent, e.id AS edge, e.node_a AS node_a, e.node_b AS node_b, e.kind AS kind,
       e.weight AS weight
FROM agents AS a
JOIN abstract_edges AS e ON (e.capability & ~a.capability) = 0 AND e.clearance >= a.size;
