/* format.h: the bundle's layout in bytes, the one place every reader and
 * writer takes it from (the runtime's readers, the bake side's writers,
 * the SQLite form).  formats/bundle.md and each section's page say what
 * the fields mean; here they are named.  Every integer is little-endian
 * (core/base.h reads and writes them); offsets are from the start of the
 * structure they belong to. */
#ifndef NB_FORMAT_H
#define NB_FORMAT_H

/* ---- the file header (64 bytes) ---- */
#define NBI_MAGIC "\x89NBK\r\n\x1a\n"
#define NBI_MAGIC_LEN 8
#define NBI_HEADER_SIZE 64
#define NBI_HDR_MAGIC 0        /* 8 bytes */
#define NBI_HDR_MAJOR 8        /* u16 */
#define NBI_HDR_MINOR 10       /* u16 */
#define NBI_HDR_FLAGS 12       /* u32 */
#define NBI_HDR_HEADER_SIZE 16 /* u32: NBI_HEADER_SIZE */
#define NBI_HDR_ENTRY_SIZE 20  /* u32: NBI_ENTRY_SIZE, or more in a later minor version */
#define NBI_HDR_COUNT 24       /* u32: sections */
#define NBI_HDR_TABLE 32       /* u64: offset of the section table */
#define NBI_HDR_FILE_SIZE 40   /* u64 */
#define NBI_HDR_TABLE_CRC 48   /* u32: CRC-32 of the table */
#define NBI_HDR_CRC 60         /* u32: CRC-32 of bytes 0-59 */

/* ---- a section table entry (128 bytes) ---- */
#define NBI_ENTRY_SIZE 128
#define NBI_ENTRY_MAX_SIZE 4096
#define NBI_ENT_TYPE 0      /* u32 */
#define NBI_ENT_VERSION 4   /* u16 */
#define NBI_ENT_ENCODING 6  /* u16 */
#define NBI_ENT_OFFSET 8    /* u64 */
#define NBI_ENT_SIZE 16     /* u64: stored bytes */
#define NBI_ENT_USIZE 24    /* u64: decoded bytes */
#define NBI_ENT_CRC 32      /* u32 */
#define NBI_ENT_FLAGS 36    /* u32 */
#define NBI_ENT_PARAMS 40   /* u32[NB_SECTION_PARAMS] */
#define NBI_ENT_NAME 72     /* 32 bytes, NUL-terminated and NUL-padded */
#define NBI_ENT_NAME_SIZE 32

#define NBI_ALIGN 64 /* every section starts on a multiple of it */
#define NBI_MAX_SECTIONS 65536
/* zlib cannot expand a stream by more than about 1032:1; a larger claim is
 * damage (or a bomb), refused before allocating. */
#define NBI_MAX_INFLATE_RATIO 1100u

/* ---- the SQLite form (formats/sqlite.md) ---- */
#define NBI_SQLITE_MAGIC "SQLite format 3"
#define NBI_SQLITE_APPLICATION_ID 0x4E424B53 /* "NBKS" */
#define NBI_SQLITE_SCHEMA 1002               /* user_version: 1000 x major + minor */
/* SQLite's own file header (its "Database File Format"), read to know how
 * long a stream is; its integers are big-endian. */
#define NBI_SQLITE_HDR_PAGE_SIZE 16 /* u16: bytes a page, 1 meaning 65536 */
#define NBI_SQLITE_HDR_CHANGES 24   /* u32: the file change counter */
#define NBI_SQLITE_HDR_PAGES 28     /* u32: pages, valid when the next is the counter */
#define NBI_SQLITE_HDR_VALID_FOR 92 /* u32: the change counter the page count is of */
#define NBI_SQLITE_HDR_READ 96      /* the bytes read to know the length */

/* ---- legend (NB_SEC_LEGEND, version 1) ----
 * u32 terrain count, u32 zero, a 32-byte NUL-padded name per terrain, then
 * the code of each of the 256 characters. */
#define NBI_LEGEND_VERSION 1
#define NBI_LEGEND_HEADER 8
#define NBI_LEGEND_COUNT 0  /* u32: terrains */
#define NBI_LEGEND_NAME 32  /* bytes of a name */
#define NBI_LEGEND_CODES 256
#define NBI_CELL_OBSTACLE 0xffu /* code of a hard obstacle character */
#define NBI_CELL_INVALID 0xfeu  /* code of a character the legend does not know */

/* ---- agent set (NB_SEC_AGENTS, version 1; version 2 with terrain costs) ----
 * u32 count, u32 zero, then a record per agent; version 2 then has, per
 * agent, an f64 cost multiplier per terrain of the legend. */
#define NBI_AGENTS_VERSION 1
#define NBI_AGENTS_VERSION_COSTS 2
#define NBI_AGENT_COST 8 /* bytes of one multiplier (f64) */
#define NBI_AGENTS_HEADER 8
#define NBI_AGENTS_COUNT 0      /* u32: agents */
#define NBI_AGENT_RECORD 48
#define NBI_AGENT_NAME 0        /* NBI_AGENT_NAME_SIZE bytes, NUL-padded */
#define NBI_AGENT_NAME_SIZE 32
#define NBI_AGENT_SIZE 32       /* u32 */
#define NBI_AGENT_CAPABILITY 36 /* u32 */

/* ---- map (NB_SEC_MAP): version 1, u32 width, u32 height, a character a
 * cell; version 2 (what the bake writes), the cells packed to 1, 2, 4 or 8
 * bits, each value an index into a palette of the characters used ---- */
#define NBI_MAP_VERSION 1
#define NBI_MAP_HEADER 8
#define NBI_MAP_WIDTH 0
#define NBI_MAP_HEIGHT 4
#define NBI_MAP_VERSION_PACKED 2
#define NBI_MAP_BITS 8            /* u32: bits a cell, 1, 2, 4 or 8 */
#define NBI_MAP_CHARS 12          /* u32: characters in the palette k, 1 to 2^bits */
#define NBI_MAP_PALETTE 16        /* 256 bytes: the characters, increasing, then zeros */
#define NBI_MAP_PALETTE_SIZE 256
#define NBI_MAP_PACKED_HEADER 272 /* then ceil(W H bits / 8) bytes of values */

/* ---- clearance and component layers (formats/clearance.md) ---- */
#define NBI_CLEARANCE_VERSION 1
#define NBI_COMPONENTS_VERSION 1
#define NBI_LAYER_HEADER 16 /* then the packed values, then NBI_LAYER_TAIL zero bytes */
#define NBI_LAYER_WIDTH 0   /* u32 */
#define NBI_LAYER_HEIGHT 4  /* u32 */
#define NBI_LAYER_BITS 8    /* u32: bits per cell */
#define NBI_LAYER_MAXVAL 12 /* u32: the cap, or the component count */
#define NBI_LAYER_TAIL 8
#define NBI_LAYER_MAX_BITS 32
/* Components version 2, by runs along rows (formats/clearance.md): the
 * header's first four words as version 1's, then the bits of a run's
 * start and the number of runs R; then first[H + 1] (u32: each row's
 * first run), then R records of xbits + bits bits (the run's first x,
 * then its component; a row's leading cells of component 0 have none),
 * bit-packed, then NBI_LAYER_TAIL zero bytes. */
#define NBI_COMPONENTS_VERSION_RUNS 2
#define NBI_CRUNS_XBITS 16  /* u32: bits of a run's first x, nbi_bits_for(W - 1) */
#define NBI_CRUNS_COUNT 20  /* u32: runs R */
#define NBI_CRUNS_HEADER 24 /* then first[H + 1], then the records */

/* ---- component runs (NB_SEC_RUNS; formats/runs.md) ----
 * A header, then first[n + 1] (u32: each component's first run), then a
 * record per run. */
#define NBI_RUNS_VERSION 1
#define NBI_RUNS_HEADER 24
#define NBI_RUNS_WIDTH 0      /* u32 */
#define NBI_RUNS_HEIGHT 4     /* u32 */
#define NBI_RUNS_COMPONENTS 8 /* u32: n */
#define NBI_RUNS_COUNT 12     /* u32: runs R */
#define NBI_RUNS_CELLS 16     /* u32: standable cells T */
#define NBI_RUNS_ZERO 20      /* u32 zero */
#define NBI_RUNS_RECORD 8     /* per run: */
#define NBI_RUN_START 0       /* u32: its first cell, y W + x */
#define NBI_RUN_BEFORE 4      /* u32: cells of the runs before it */

/* ---- subgoal graphs, the optimal-search layer (formats/subgoal.md) ----
 * A header of 16 u32 words, then the arrays nbi_sg_layout places: the
 * grid's bitmaps (u64 words), the rank of each row word, the nodes' cells,
 * levels and first edges, and the edges. */
#define NBI_SUBGOAL_VERSION 1
#define NBI_SG_HEADER 64
enum nbi_subgoal_word {
    NBI_SG_WIDTH, NBI_SG_HEIGHT, NBI_SG_CAPABILITY, NBI_SG_SIZE, NBI_SG_CORNER,
    NBI_SG_ROW_WORDS, NBI_SG_COL_WORDS, NBI_SG_NODES, NBI_SG_EDGES, NBI_SG_ORIGINAL,
    NBI_SG_FLAGS, NBI_SG_WORDS /* 11 used; the rest of the header is zero */
};
#define NBI_SG_EDGE_RECORD 16  /* per edge: */
#define NBI_SG_E_TARGET 0      /* u32: the node it leads to (a higher level) */
#define NBI_SG_E_MID 4         /* u32: the node a shortcut passes, or NBI_SG_NO_MID */
#define NBI_SG_E_CARDINAL 8    /* u32: cardinal steps of the path it stands for */
#define NBI_SG_E_DIAGONAL 12   /* u32: diagonal steps */
#define NBI_SG_NO_MID UINT32_MAX

/* ---- the HAA* abstract graph (formats/abstract.md) ----
 * A header of 16 u32 words, then the arrays nbi_agraph_layout places. */
#define NBI_ABSTRACT_VERSION 1
#define NBI_ABSTRACT_HEADER 64
enum nbi_abstract_word {
    NBI_AB_WIDTH, NBI_AB_HEIGHT, NBI_AB_CLUSTER, NBI_AB_QUALITY, NBI_AB_CORNER,
    NBI_AB_PLACEMENT, NBI_AB_SPREAD, NBI_AB_NCAPS, NBI_AB_NSIZES, NBI_AB_NCX, NBI_AB_NCY,
    NBI_AB_NODES, NBI_AB_EDGES, NBI_AB_INTER, NBI_AB_FLAGS, NBI_AB_PATH_BYTES,
    NBI_AB_WORDS /* 16 */
};
#define NBI_AGRAPH_PATHS 0x1u  /* flags: refined paths stored */
#define NBI_CLUSTER_MAX NB_ABSTRACT_MAX_CLUSTER
#define NBI_NO_PATH UINT32_MAX /* path offset of an inter-edge's arc */

/* ---- the abstract graph's costs for one terrain-cost profile
 * (formats/abstract.md, section type 33) ----
 * A header of 8 u32 words, an f64 multiplier per terrain of the legend,
 * then an f64 cost per arc of the graph. */
#define NBI_ACOSTS_VERSION 1
#define NBI_ACOSTS_HEADER 32
enum nbi_acosts_word {
    NBI_AC_WIDTH, NBI_AC_HEIGHT, NBI_AC_CAP, NBI_AC_SIZE, NBI_AC_NTERRAINS, NBI_AC_ARCS,
    NBI_AC_GRAPH_CRC, NBI_AC_INDEX, /* the profile's place among the bundle's, from 0 */
    NBI_AC_WORDS /* 8 */
};
/* ---- the abstract graph's higher levels (formats/abstract.md, section
 * type 34) ----
 * A header of 16 u32 words, a record of 8 u32 words per level from 2,
 * then each level's arrays (nbi_alevels_layout), then the top level's
 * landmarks (nbi_landmarks_layout). */
#define NBI_ALEVELS_VERSION 2 /* 2: corner landmarks; version 1 is read too */
#define NBI_ALEVELS_HEADER 64
#define NBI_ALEVELS_RECORD 32
#define NBI_LEVELS_MAX 8       /* levels, the graph's own (1) included */
#define NBI_LEVEL_FACTOR_MAX 64
enum nbi_alevels_word {
    NBI_AL_WIDTH, NBI_AL_HEIGHT, NBI_AL_LEVELS, NBI_AL_FACTOR, NBI_AL_CLUSTER, NBI_AL_NCAPS,
    NBI_AL_NSIZES, NBI_AL_GRAPH_CRC, NBI_AL_GRAPH_NODES, NBI_AL_SPACING, NBI_AL_FLAGS,
    NBI_AL_SHARE, /* the most cells of a border's share (0: no cap) */
    NBI_AL_LANDMARKS, /* landmarks of the top level (0 to NBI_LANDMARKS_MAX) */
    NBI_AL_WORDS /* 13 used; the rest of the header is zero */
};
#define NBI_LANDMARKS_MAX 16
#define NBI_LANDMARK_NONE UINT32_MAX /* card and diag of a node the landmark does not reach */
/* A landmark that is a corner of the map, not a node (version 2): this plus
 * 0 top left, 1 top right, 2 bottom left, 3 bottom right. */
#define NBI_LANDMARK_CORNER 0xFFFFFFF0u
#define NBI_ALEVELS_PATHS 0x1u /* flags: each intra-edge's path over the level below stored */
enum nbi_alevel_word {
    NBI_ALR_NCX, NBI_ALR_NCY, NBI_ALR_NODES, NBI_ALR_ARCS, NBI_ALR_INTER, NBI_ALR_PATH_WORDS,
    NBI_ALR_WORDS /* 6 used; the rest of the record is zero */
};
/* Qualities (the section's param[1] and header word). */
enum nbi_quality {
    NBI_QUALITY_INITIAL = 0, /* every edge the construction finds */
    NBI_QUALITY_HIGH = 1,    /* strongly dominated edges dropped (Theorem 6) */
    NBI_QUALITY_LOW = 2      /* weak dominance, circuit condition, node removal (Thm 7, Cor 8) */
};
/* Where an entrance gets its transition points (param[5]). */
enum nbi_placement {
    NBI_PLACE_FIRST = 0,  /* the paper's: the first pair of maximal clearance */
    NBI_PLACE_MIDDLE = 1, /* the middle of the run each served size may use */
    NBI_PLACE_SPREAD = 2, /* evenly spread over that run, one per `spread` cells */
    NBI_PLACE_ENDS = 3    /* long runs: both ends and evenly between (after HPA*) */
};

/* ---- motion models (NB_SEC_MODEL; formats/motion.md) ---- */
#define NBI_MODEL_VERSION 1
#define NBI_MODEL_HEADER 48
#define NBI_MODEL_HEADINGS 0       /* u32 */
#define NBI_MODEL_SPEEDS 4         /* u32 */
#define NBI_MODEL_SPEED_CHANGE 8   /* u32 */
#define NBI_MODEL_ZERO 12          /* u32 zero */
#define NBI_MODEL_STILL_COST 16    /* f64 */
#define NBI_MODEL_TURN_COST 24     /* f64 */
#define NBI_MODEL_EXT_WEIGHT 32    /* f64 */
#define NBI_MODEL_ZERO2 40         /* u64 zero */
#define NBI_MODEL_HEADING_RECORD 8 /* per heading, after the header: */
#define NBI_MODEL_HEADING_DX 0     /* i32 */
#define NBI_MODEL_HEADING_DY 4     /* i32 */
#define NBI_MODEL_SPEED_RECORD 48  /* per speed, after the headings: */
#define NBI_MODEL_SPEED_NAME 0     /* 32 bytes */
#define NBI_MODEL_SPEED_VALUE 32   /* f64 */
#define NBI_MODEL_SPEED_TURN 40    /* u32 */
#define NBI_MODEL_SPEED_ZERO 44    /* u32 zero */

/* ---- perimeter heuristic tables (NB_SEC_PERIMETER; formats/motion.md) ---- */
#define NBI_PERIM_VERSION 1
#define NBI_PERIM_HEADER 64
#define NBI_PERIM_RADIUS 0   /* u32 */
#define NBI_PERIM_LAYOUT 4   /* u32 */
#define NBI_PERIM_BITS 8     /* u32: 16 or 32 */
#define NBI_PERIM_SYM 12     /* u32: NBI_SYM_* */
#define NBI_PERIM_H 16       /* u32: headings */
#define NBI_PERIM_S 20       /* u32: speeds */
#define NBI_PERIM_K 24       /* u32: speed classes */
#define NBI_PERIM_TABLES 28  /* u32 */
#define NBI_PERIM_ENTRIES 32 /* u32 */
#define NBI_PERIM_SCALE 36   /* u32 */
#define NBI_PERIM_CRC 40     /* u32: the model's */
#define NBI_PERIM_ZERO 44    /* u32 zero */
#define NBI_PERIM_CLASSES 48 /* u8[NB_MODEL_MAX_SPEEDS]: the class of each speed */
#define NBI_PERIM_TABLE_RECORD 16 /* per table: */
#define NBI_PERIM_T_HEADING 0     /* u32 goal heading */
#define NBI_PERIM_T_SPEED 4       /* u32 goal speed */
#define NBI_PERIM_T_GROUP 8       /* u32 */
#define NBI_PERIM_T_FIRST 12      /* u32 first entry */
#define NBI_PERIM_MAX_RADIUS NB_PERIMETER_MAX_RADIUS
#define NBI_PERIM_UNREACHABLE16 0xffffu
#define NBI_SYM_D4 1u      /* goal headings reduced to D4 orbit representatives */
#define NBI_SYM_REVERSE 2u /* point symmetry (x, y, h, v) -> (-x, -y, h, -v) inside tables */
#define NBI_SYM_CLASSES 4u /* one entry per speed class, not per speed */
#define NBI_SYM_ANY 8u     /* a last table for goals stopped at any heading */
#define NBI_PERIM_ANY 0xffffu /* a table's goal heading (speed) serving any */

/* ---- units, hit-check and curve tables (formats/hitcheck.md) ---- */
#define NBI_UNIT_VERSION 1
#define NBI_UNIT_SIZE 64
#define NBI_UNIT_RADIUS 0        /* f64 */
#define NBI_UNIT_WIDTH 8         /* f64 */
#define NBI_UNIT_HEADINGS 16     /* u32 */
#define NBI_UNIT_NEIGHBOURHOOD 20 /* u32 */
#define NBI_UNIT_FLAGS 24        /* u32 */
#define NBI_UNIT_CAPABILITY 28   /* u32 */
#define NBI_UNIT_PENALTY 32      /* f64 */
#define NBI_UNIT_REVERSE 0x1u    /* flags: it may drive in reverse */

#define NBI_HITCHECK_VERSION 2
#define NBI_HC_HEADER 64
#define NBI_HC_HEADINGS 0      /* u32 */
#define NBI_HC_NEIGHBOURHOOD 4 /* u32 */
#define NBI_HC_WINDOW 8        /* u32 */
#define NBI_HC_FLAGS 12        /* u32 */
#define NBI_HC_ENTRIES 16      /* u32: stored entries, K/4 x K x N */
#define NBI_HC_CURVES 20       /* u32 */
#define NBI_HC_RADIUS 24       /* f64 */
#define NBI_HC_WIDTH 32        /* f64 */
#define NBI_HC_ALL 0x1u        /* flags: entries hold every candidate, an index says which */
#define NBI_HC_CODE_VARIANT 0x8u /* a curve's code: word (bits 0-2), variant (bit 3) */
#define NBI_HC_MAX_WINDOW 255
/* Version 1 (navbake 0.2, still read): the same first 12 bytes, radius and
 * width, then every start heading's entries in an index of (first, count)
 * and a record per candidate curve, its bitset in 64-bit words. */
#define NBI_HC1_WORDS 12       /* u32: 64-bit words of a bitset */
#define NBI_HC1_CURVES 16      /* u32 */
#define NBI_HC1_RECSIZE 20     /* u32 */
#define NBI_HC1_INDEX_ENTRY 8  /* per (h0, h1, offset): */
#define NBI_HC1_I_FIRST 0      /* u32 */
#define NBI_HC1_I_COUNT 4      /* u32 */
#define NBI_HC1_RECORD_HEAD 16 /* per curve, then its bitset: */
#define NBI_HC1_R_LENGTH 0     /* f64 */
#define NBI_HC1_R_WORD 8       /* u8 */
#define NBI_HC1_R_VARIANT 9    /* u8 */
#define NBI_HC1_R_CELLS 10     /* u16 */
#define NBI_HC1_R_ZERO 12      /* u32 zero */

#define NBI_CURVES_VERSION 1
#define NBI_CT_HEADER 32
#define NBI_CT_DISTANCE 0 /* u32 */
#define NBI_CT_STEPS 4    /* u32 */
#define NBI_CT_ANGLES 8   /* u32 */
#define NBI_CT_COLS 12    /* u32 */
#define NBI_CT_RADIUS 16  /* f64 */

/* ---- forests and bitangent graphs (formats/forest.md) ---- */
#define NBI_FOREST_VERSION 1
#define NBI_FOREST_HEADER 40  /* u32 n, u32 flags, f64 bounds[4] */
#define NBI_FOREST_COUNT 0
#define NBI_FOREST_FLAGS 4
#define NBI_FOREST_BOUNDS 8
#define NBI_FOREST_CIRCLE 24  /* per circle, after the header: */
#define NBI_FOREST_C_X 0      /* f64 */
#define NBI_FOREST_C_Y 8      /* f64 */
#define NBI_FOREST_C_R 16     /* f64, as read, not inflated */
#define NBI_FOREST_HAS_BOUNDS 0x1u

#define NBI_BITANGENT_VERSION 1
#define NBI_BITANGENT_HEADER 64
#define NBI_BT_RADIUS 0      /* f64 agent radius */
#define NBI_BT_CIRCLES 8     /* u32 */
#define NBI_BT_NODES 12      /* u32 */
#define NBI_BT_ARCS 16       /* u32 free arcs */
#define NBI_BT_FOREST_CRC 20 /* u32 */
#define NBI_BT_CANDIDATES 24 /* u32 */
#define NBI_BT_ZERO 28       /* u32 zero */
#define NBI_BT_HUGGING 32    /* u64 hugging arcs */
#define NBI_BT_ZERO2 40      /* 24 bytes zero, to the end of the header */
#define NBI_BITANGENT_NODE 32 /* per node: */
#define NBI_BT_N_X 0          /* f64 */
#define NBI_BT_N_Y 8          /* f64 */
#define NBI_BT_N_ANGLE 16     /* f64 */
#define NBI_BT_N_PARTNER 24   /* u32 */
#define NBI_BT_N_CIRCLE 28    /* u32: circle << 1 | sense */
#define NBI_BITANGENT_ARC 16  /* per free arc: */
#define NBI_BT_A_START 0      /* f64 */
#define NBI_BT_A_SPAN 8       /* f64 */
/* A free arc whose span is NBI_WHOLE_SPAN stands for a whole circle that
 * no other circle touches. */
#define NBI_WHOLE_SPAN 8.0

/* ---- worlds of tiles (formats/world.md) ---- */

/* A tile (NB_SEC_TILE, version 1): a header of 16 u32 words, then, with
 * flag NBI_TILE_DIGEST (in border files), the tile bundle's digest, then
 * one record per input file. */
#define NBI_TILE_VERSION 1
#define NBI_TILE_HEADER 64
#define NBI_TILE_WIDTH 0    /* u32: the world's size in cells */
#define NBI_TILE_HEIGHT 4   /* u32 */
#define NBI_TILE_SIDE 8     /* u32: the world's tile side */
#define NBI_TILE_CLUSTER 12 /* u32: the world's cluster side */
#define NBI_TILE_COLUMN 16  /* u32: this tile's column */
#define NBI_TILE_ROW 20     /* u32: and row */
#define NBI_TILE_ORIGIN_X 24 /* u32: the world cell of the bundle's map's cell (0, 0) */
#define NBI_TILE_ORIGIN_Y 28 /* u32 */
#define NBI_TILE_CORE_X 32  /* u32: the tile's own cells in the bundle's map: from here */
#define NBI_TILE_CORE_Y 36  /* u32 */
#define NBI_TILE_CORE_W 40  /* u32: this many */
#define NBI_TILE_CORE_H 44  /* u32 */
#define NBI_TILE_HALO 48    /* u32: the halo's width (cut at the world's edges) */
#define NBI_TILE_INPUTS 52  /* u32: input records */
#define NBI_TILE_FLAGS 56   /* u32 */
#define NBI_TILE_ZERO 60    /* u32 zero */
#define NBI_TILE_DIGEST 1u  /* flag: 16 bytes of the tile bundle's digest follow */
#define NBI_DIGEST_SIZE 16
#define NBI_DIGEST_BYTES 0     /* u64: the tile bundle's file size */
#define NBI_DIGEST_TABLE_CRC 8 /* u32: its header's table CRC */
#define NBI_DIGEST_ZERO 12     /* u32 zero */
#define NBI_TILE_INPUT 16        /* per input file: */
#define NBI_TILE_INPUT_ROLE 0    /* u32: NBI_ROLE_* */
#define NBI_TILE_INPUT_CRC 4     /* u32: CRC-32 of its bytes */
#define NBI_TILE_INPUT_LENGTH 8  /* u64: its length */
#define NBI_ROLE_LEGEND 1
#define NBI_ROLE_AGENTS 2
/* + 3 (dy + 1) + (dx + 1): the tile's own map (dx = dy = 0, the file's
 * bytes), or the cells of the neighbour at (dx, dy) that the halo holds
 * (their map characters row by row; the length counts cells) */
#define NBI_ROLE_MAP 16
/* + 3 (dy + 1) + (dx + 1), never 4: the tile's own cells that the halo of
 * the neighbour at (dx, dy) holds, as that neighbour's NBI_ROLE_MAP record
 * of this tile must give them */
#define NBI_ROLE_LENT 32
#define NBI_TILE_MAX_INPUTS 19

/* A tile's border for one (capability, size) (NB_SEC_BORDER, version 1):
 * a header of 6 u32 words, the component numbers of the inner ring (the
 * tile's own cells along its edges) and of the outer ring (the cells just
 * outside them, 0 outside the world), then a bit per component: 1 when it
 * has a cell of the tile's own. */
#define NBI_BORDER_VERSION 1
#define NBI_BORDER_HEADER 24
#define NBI_BORDER_CAPABILITY 0 /* u32 */
#define NBI_BORDER_SIZE 4       /* u32 */
#define NBI_BORDER_COMPONENTS 8 /* u32: n, of the tile bundle's component layer */
#define NBI_BORDER_INNER 12     /* u32: cells of the inner ring, 2 w + 2 h */
#define NBI_BORDER_OUTER 16     /* u32: of the outer ring, 2 (w + 2) + 2 h */
#define NBI_BORDER_ZERO 20      /* u32 zero */

/* A world's index (NB_SEC_WORLD, version 1): a header of 8 u32 words, then
 * a tile bundle's digest (NBI_DIGEST_*) per tile, row by row. */
#define NBI_WORLD_VERSION 1
#define NBI_WORLD_HEADER 32
#define NBI_WORLD_WIDTH 0    /* u32 */
#define NBI_WORLD_HEIGHT 4   /* u32 */
#define NBI_WORLD_SIDE 8     /* u32: tile side */
#define NBI_WORLD_CLUSTER 12 /* u32 */
#define NBI_WORLD_COLUMNS 16 /* u32 */
#define NBI_WORLD_ROWS 20    /* u32 */
#define NBI_WORLD_HALO 24    /* u32 */
#define NBI_WORLD_ZERO 28    /* u32 zero */

/* World-wide components for one (capability, size) (NB_SEC_WORLD_COMPONENTS,
 * version 1): a header of 4 u32 words, u32 first[tiles + 1], then u32
 * ids[first[tiles]]: component k (from 1) of tile t is the world's
 * ids[first[t] + k - 1], 0 when it has no cell of the tile's own. */
#define NBI_WCOMP_VERSION 1
#define NBI_WCOMP_HEADER 16
#define NBI_WCOMP_CAPABILITY 0 /* u32 */
#define NBI_WCOMP_SIZE 4       /* u32 */
#define NBI_WCOMP_COMPONENTS 8 /* u32: N, the world's */
#define NBI_WCOMP_TILES 12     /* u32 */

/* A tile's HAA* border graph for one (capability, size)
 * (NB_SEC_BORDER_GRAPH, version 1): a header of 4 u32 words; P portals
 * (u32 node of the tile bundle's abstract graph, world x, world y), by
 * increasing node; L links (u32 portal, world x and y of the node across
 * the tile's edge, u32 cardinal and diagonal steps of the arc); then the
 * P x P distances inside the tile's own cells, row by row, each u32
 * cardinal and diagonal steps (NBI_BGRAPH_NONE twice: no path). */
#define NBI_BGRAPH_VERSION 1
#define NBI_BGRAPH_HEADER 16
#define NBI_BGRAPH_CAPABILITY 0 /* u32 */
#define NBI_BGRAPH_SIZE 4       /* u32 */
#define NBI_BGRAPH_PORTALS 8    /* u32: P */
#define NBI_BGRAPH_LINKS 12     /* u32: L */
#define NBI_BGRAPH_PORTAL 12    /* bytes a portal: */
#define NBI_BGRAPH_P_NODE 0     /* u32: its node in the tile bundle's graph */
#define NBI_BGRAPH_P_X 4        /* u32: its world cell */
#define NBI_BGRAPH_P_Y 8        /* u32 */
#define NBI_BGRAPH_LINK 20      /* bytes a link: */
#define NBI_BGRAPH_L_PORTAL 0   /* u32: the portal it leaves from */
#define NBI_BGRAPH_L_X 4        /* u32: the world cell of the node across */
#define NBI_BGRAPH_L_Y 8        /* u32 */
#define NBI_BGRAPH_L_CARD 12    /* u32: the arc's cardinal steps */
#define NBI_BGRAPH_L_DIAG 16    /* u32: and diagonal steps */
#define NBI_BGRAPH_DIST 8       /* bytes a distance: */
#define NBI_BGRAPH_D_CARD 0     /* u32: cardinal steps */
#define NBI_BGRAPH_D_DIAG 4     /* u32: diagonal steps */
#define NBI_BGRAPH_NONE UINT32_MAX

/* The HAA* graph above a world's tiles for one (capability, size)
 * (NB_SEC_WORLD_GRAPH, version 1): a header of 6 u32 words; u32
 * tile_first[T + 1]; N nodes (u32 node in its tile bundle's graph, world
 * x, world y), tile by tile; u32 arc_first[N + 1]; A arcs (u32 target,
 * cardinal steps, diagonal steps). */
#define NBI_WGRAPH_VERSION 1
#define NBI_WGRAPH_HEADER 24
#define NBI_WGRAPH_CAPABILITY 0 /* u32 */
#define NBI_WGRAPH_SIZE 4       /* u32 */
#define NBI_WGRAPH_NODES 8      /* u32: N */
#define NBI_WGRAPH_ARCS 12      /* u32: A */
#define NBI_WGRAPH_TILES 16     /* u32: T */
#define NBI_WGRAPH_ZERO 20      /* u32 zero */
#define NBI_WGRAPH_NODE 12      /* bytes a node: */
#define NBI_WGRAPH_N_LOCAL 0    /* u32: its node in its tile bundle's graph */
#define NBI_WGRAPH_N_X 4        /* u32: its world cell */
#define NBI_WGRAPH_N_Y 8        /* u32 */
#define NBI_WGRAPH_ARC 12       /* bytes an arc: */
#define NBI_WGRAPH_A_TO 0       /* u32: its target node */
#define NBI_WGRAPH_A_CARD 4     /* u32: cardinal steps */
#define NBI_WGRAPH_A_DIAG 8     /* u32: diagonal steps */

/* Landmarks on a world's HAA* graph for one (capability, size)
 * (NB_SEC_WORLD_LANDMARKS, version 1): a header of 6 u32 words; u32 the
 * landmarks' nodes[L]; then N x L distances, node by node, each u32
 * cardinal and diagonal steps of a shortest path between the node and the
 * landmark over the world graph's arcs taken both ways (NBI_WLMK_NONE
 * twice: not joined).  Whatever the bytes hold, the reader accepts them
 * only when no arc u -> v of cost c has |d(u) - d(v)| > c (so the bound
 * A* takes from them never overestimates: ALT, Goldberg and Harrelson). */
#define NBI_WLMK_VERSION 1
#define NBI_WLMK_HEADER 24
#define NBI_WLMK_CAPABILITY 0 /* u32 */
#define NBI_WLMK_SIZE 4       /* u32 */
#define NBI_WLMK_NODES 8      /* u32: N, the world graph's */
#define NBI_WLMK_COUNT 12     /* u32: L */
#define NBI_WLMK_ZERO 16      /* u32 zero */
#define NBI_WLMK_ZERO_2 20    /* u32 zero */
#define NBI_WLMK_DIST 8       /* bytes a distance: */
#define NBI_WLMK_D_CARD 0     /* u32: cardinal steps */
#define NBI_WLMK_D_DIAG 4     /* u32: diagonal steps */
#define NBI_WLMK_NONE UINT32_MAX
#define NBI_WLMK_MAX 32       /* the most landmarks a section may hold */

/* A level above a world's HAA* graph for one (capability, size)
 * (NB_SEC_WORLD_BLOCKS, version 1; formats/world.md): the tiles grouped in
 * blocks of S x S tiles (the last column and row of blocks may be
 * narrower); a header of 8 u32 words; u32 block_first[K + 1] (K = BC x
 * BR blocks, row by row: block k's border nodes are entries block_first[k]
 * to block_first[k + 1] - 1); M u32 entries, each a world graph node, by
 * block and increasing in each; u32 arc_first[M + 1]; A arcs: the entry
 * (of the same block) it ends on, u32 cardinal and diagonal steps of a
 * shortest path over the world graph's arcs kept to the block's tiles. */
#define NBI_WBLK_VERSION 1
#define NBI_WBLK_HEADER 32
#define NBI_WBLK_CAPABILITY 0 /* u32 */
#define NBI_WBLK_SIZE 4       /* u32 */
#define NBI_WBLK_NODES 8      /* u32: N, the world graph's */
#define NBI_WBLK_SIDE 12      /* u32: S, tiles a block's side */
#define NBI_WBLK_COLUMNS 16   /* u32: BC, blocks a row */
#define NBI_WBLK_ROWS 20      /* u32: BR */
#define NBI_WBLK_ENTRIES 24   /* u32: M, border nodes */
#define NBI_WBLK_ARCS 28      /* u32: A */
#define NBI_WBLK_ARC 12       /* bytes an arc: */
#define NBI_WBLK_A_TO 0       /* u32: the entry it ends on */
#define NBI_WBLK_A_CARD 4     /* u32: cardinal steps */
#define NBI_WBLK_A_DIAG 8     /* u32: diagonal steps */
#define NBI_WBLK_MAX_SIDE 256 /* the manifest's `blocks` at most */

/* A tile's table for inserting a query's end (NB_SEC_TILE_INSERT, version
 * 1; formats/world.md), one (capability, size): the tile's own cells cut
 * into blocks of B x B clusters from their first cell (K = BC x BR blocks,
 * row by row, the last column and row narrower); a header of 8 u32 words;
 * u32 portal[P] (the abstract graph's nodes the tile's border graph has,
 * increasing); u32 block_first[K + 1]; u32 border[M] (each block's border
 * nodes: nodes of its cells with an arc, for that agent, to a node of
 * another block's, by block and increasing in each); then M x P distances,
 * border node by border node, each the cardinal and diagonal steps of a
 * shortest path over the graph kept to the tile's cells, u16 or u32 each
 * (the header's width; all ones: no path). */
#define NBI_TINS_VERSION 1
#define NBI_TINS_HEADER 32
#define NBI_TINS_CAPABILITY 0 /* u32 */
#define NBI_TINS_SIZE 4       /* u32 */
#define NBI_TINS_SIDE 8       /* u32: B, clusters a block's side */
#define NBI_TINS_PORTALS 12   /* u32: P */
#define NBI_TINS_BORDERS 16   /* u32: M */
#define NBI_TINS_BLOCKS 20    /* u32: K */
#define NBI_TINS_NODES 24     /* u32: the abstract graph's nodes */
#define NBI_TINS_WIDTH 28     /* u32: 2 (u16 steps) or 4 (u32 steps) */
#define NBI_TINS_MAX_SIDE 64  /* the manifest's `insert` at most */

/* A tile's border for the optimal layer across tiles, one (capability,
 * size, corner rule) (NB_SEC_BORDER_OPT, version 1; formats/world.md): a
 * header of 8 u32 words; P portals (u16 x, u16 y: the cell from the
 * tile's first own cell, each on the tile's edge with a legal move out,
 * row by row); u32 row[P + 1] (row i's first byte in the packed rows,
 * row[0] = 0, row[P] = B); L links (u16 portal, u8 move, u8 zero: the
 * move leaves the tile, by portal then move); then the B bytes of the
 * packed rows (lib/runtime/stream/opt_pack.c: each portal's distances
 * inside the tile to the others, as their excess over the octile
 * distance). */
#define NBI_OBORDER_VERSION 1
#define NBI_OBORDER_HEADER 32
#define NBI_OBORDER_CAPABILITY 0 /* u32 */
#define NBI_OBORDER_SIZE 4       /* u32 */
#define NBI_OBORDER_CORNER 8     /* u32: 0 strict, 1 weak */
#define NBI_OBORDER_PORTALS 12   /* u32: P */
#define NBI_OBORDER_LINKS 16     /* u32: L */
#define NBI_OBORDER_BYTES 20     /* u32: B */
#define NBI_OBORDER_WIDTH 24     /* u32: the tile's own cells: columns */
#define NBI_OBORDER_HEIGHT 28    /* u32: rows */
#define NBI_OBORDER_PORTAL 4     /* bytes a portal: */
#define NBI_OBORDER_P_X 0        /* u16 */
#define NBI_OBORDER_P_Y 2        /* u16 */
#define NBI_OBORDER_LINK 4       /* bytes a link: */
#define NBI_OBORDER_L_PORTAL 0   /* u16 */
#define NBI_OBORDER_L_MOVE 2     /* u8: core/grid.h's numbering */
#define NBI_OBORDER_L_ZERO 3     /* u8 zero */

/* The optimal layer across a world's tiles, one (capability, size, corner
 * rule) (NB_SEC_WORLD_OPT, version 1; formats/world.md), in the world
 * bundle: a header of 8 u32 words; u32 off[T + 1] (tile t's border_opt
 * payload is bytes off[t] to off[t + 1] - 1 of the tiles' bytes, off[0] =
 * 0, off[T] = B); u32 target[L] (each link of each tile, tile by tile in
 * its order: the world node it reaches, nodes numbered tile by tile in
 * their portals' order); then the B bytes of the tiles' payloads; then
 * K landmarks: u32 node[K], and for each node its K distances over the
 * portal graph from them (f64 each, node by node; -1: not reached). */
#define NBI_WOPT_VERSION 1
#define NBI_WOPT_HEADER 32
#define NBI_WOPT_CAPABILITY 0 /* u32 */
#define NBI_WOPT_SIZE 4       /* u32 */
#define NBI_WOPT_CORNER 8     /* u32: 0 strict, 1 weak */
#define NBI_WOPT_TILES 12     /* u32: T, columns x rows */
#define NBI_WOPT_NODES 16     /* u32: N, the tiles' portals */
#define NBI_WOPT_LINKS 20     /* u32: L, the tiles' links */
#define NBI_WOPT_BYTES 24     /* u32: B */
#define NBI_WOPT_LANDMARKS 28 /* u32: K, at most NBI_WOPT_MAX_LANDMARKS */
#define NBI_WOPT_MAX_LANDMARKS 16

#endif
