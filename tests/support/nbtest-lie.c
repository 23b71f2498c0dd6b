/* nbtest-lie: a test helper that makes a bundle lie in one section while
 * every CRC and every structure check stays right, for the tests of
 * navbake verify --deep (tests/cli/verify-deep.sh).
 *   nbtest-lie KIND IN OUT
 * KIND is clearance (a cell's value changed), components (component ids
 * 1 and 2 swapped), weight (an intra-edge arc weighs one more; the graph
 * must have no stored paths), path (two different moves of a stored path
 * swapped, so it still ends at its node), hitcheck (a cell marked in a
 * curve's bitset, and its cell count with it), perimeter (a 16-bit entry
 * one more), runs (two runs of one length swapped), bitangent (a node
 * moved) or subgoal (a free cell that is not a subgoal marked blocked, in
 * its row and its column) or cost (an arc of an abstract graph's costs
 * for a cost profile costs a half more) or levels (an arc inside a cluster of
 * the second level of the levels above the graph weighs one cardinal step more)
 * or landmarks (the levels' first two landmarks swapped, nodes and distances:
 * each still at distance 0 from itself, no arc contradicting them) or profile
 * (an abstract graph's costs section says another multiplier than its agent's,
 * one more for the first terrain that costs more than 1: its arcs' costs
 * still above the heuristic) or nocosts (every abstract_costs section removed:
 * the agents with terrain costs keep them).  The section is decoded, changed
 * and put back with the bake API (nbb_builder_load, nbb_builder_add),
 * which recomputes the CRCs.  Prints where the lie is, in the words the
 * verifier uses ("cell (3, 5)").
 *   nbtest-lie graph-bytes IN OUT
 * puts an abstract section that is no graph (a few bytes, as another
 * program might write), for the tests of what mkclear does with one.
 *   nbtest-lie twice IN OUT
 *   nbtest-lie order IN OUT
 * lie in the section table itself, laid out by hand (the builder sorts and
 * keeps one section a key): twice stores the first clearance layer twice
 * under one key, the second copy with a wall down the middle column (a gap
 * in its top three rows), so that a reader of the first and one of the
 * second answer differently; order swaps the table's first two sections.
 * Each prints the two entries' places ("section 3", "section 4").  An OUT
 * ending in .sqlite is the SQLite form: the sections table made again
 * without its UNIQUE constraint (a crafted database need not keep it) and
 * holding these rows, the bundle row's checksums computed as the reader
 * computes them, so that only the order is wrong. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "core/crc32.h"
#include "subgoal/subgoal.h"
#include "testutil.h"

static uint32_t get_bits(const uint8_t *p, uint64_t bit, unsigned bits)
{
    return (uint32_t)((nbi_load64le(p + bit / 8) >> (bit % 8)) & (((uint64_t)1 << bits) - 1));
}

static void put_bits(uint8_t *p, uint64_t bit, unsigned bits, uint32_t v)
{
    for (unsigned k = 0; k < bits; k++, bit++) {
        uint8_t m = (uint8_t)(1u << (bit % 8));
        p[bit / 8] = (uint8_t)((v >> k) & 1u ? p[bit / 8] | m : p[bit / 8] & ~m);
    }
}

/* A cell whose clearance can change within the cap. */
static int lie_clearance(uint8_t *p, uint32_t w)
{
    unsigned bits = nbi_get32(p + NBI_LAYER_BITS), cap = nbi_get32(p + NBI_LAYER_MAXVAL);
    uint64_t i = (uint64_t)w * 3 + 5; /* (5, 3): inside the sample map */
    uint32_t v = get_bits(p + NBI_LAYER_HEADER, i * bits, bits);
    put_bits(p + NBI_LAYER_HEADER, i * bits, bits, v < cap ? v + 1 : v - 1);
    printf("cell (%u, %u)\n", (unsigned)(i % w), (unsigned)(i / w));
    return 1;
}

static int lie_components(uint8_t *p, uint32_t w, uint32_t h)
{
    unsigned bits = nbi_get32(p + NBI_LAYER_BITS);
    if (nbi_get32(p + NBI_LAYER_MAXVAL) < 2)
        return 0;
    int said = 0;
    for (uint64_t i = 0; i < (uint64_t)w * h; i++) {
        uint32_t v = get_bits(p + NBI_LAYER_HEADER, i * bits, bits);
        if (v != 1 && v != 2)
            continue;
        put_bits(p + NBI_LAYER_HEADER, i * bits, bits, 3 - v);
        if (!said++)
            printf("cell (%u, %u)\n", (unsigned)(i % w), (unsigned)(i / w));
    }
    return 1;
}

/* The first arc inside a cluster, from its lower node. */
static int first_intra(const nbi_agraph *g, uint32_t *u, uint32_t *a)
{
    for (*u = 0; *u < g->nnodes; (*u)++)
        for (*a = nbi_u32at(g->node_first, *u); *a < nbi_u32at(g->node_first, *u + 1); (*a)++) {
            uint32_t v = nbi_u32at(g->arc_to, *a);
            int same = nbi_node_cluster(g, nbi_u16at(g->node_xy, 2 * *u), nbi_u16at(g->node_xy, 2 * *u + 1)) ==
                       nbi_node_cluster(g, nbi_u16at(g->node_xy, 2 * v), nbi_u16at(g->node_xy, 2 * v + 1));
            if (same && *u < v && nbi_agraph_arc_steps(g, *a) >= 2)
                return 1;
        }
    return 0;
}

static int lie_weight(uint8_t *p, size_t len, uint32_t w, uint32_t h)
{
    nbi_agraph g;
    uint32_t u, a;
    if (nbi_agraph_view(p, len, w, h, &g, NULL) != NB_OK || g.arc_path || !first_intra(&g, &u, &a))
        return 0;
    uint8_t *card = (uint8_t *)g.arc_w + 4 * (size_t)a;
    nbi_put16(card, (uint16_t)(nbi_get16(card) + 1));
    printf("arc %u from node %u\n", a, u);
    return 1;
}

/* The first arc with a cost (one that admits the profile's agent) costs a half more: still
 * above the heuristic, so the structure check accepts it. */
static int lie_cost(uint8_t *p, size_t len, unsigned nterrains)
{
    if (len < NBI_ACOSTS_HEADER + 8 * (size_t)nterrains)
        return 0;
    uint8_t *arc = p + NBI_ACOSTS_HEADER + 8 * (size_t)nterrains;
    size_t narcs = (len - NBI_ACOSTS_HEADER) / 8 - nterrains;
    for (size_t a = 0; a < narcs; a++)
        if (nbi_getf64(arc + 8 * a) != 0) {
            nbi_putf64(arc + 8 * a, nbi_getf64(arc + 8 * a) + 0.5);
            printf("arc %zu from node\n", a);
            return 1;
        }
    return 0;
}

static unsigned nibble(const uint8_t *m, uint32_t n) { return (m[n / 2] >> (4 * (n % 2))) & 15u; }
static void set_nibble(uint8_t *m, uint32_t n, unsigned v)
{
    m[n / 2] = (uint8_t)(n % 2 ? (m[n / 2] & 0x0f) | v << 4 : (m[n / 2] & 0xf0) | v);
}

/* Two different moves in a row swapped, where the cell between stays in
 * the cluster (the structure check would see it leave). */
/* Level 2's first arc inside a cluster, one cardinal step heavier (still no lighter than
 * the distance it spans, so that the reader's checks pass). */
static int lie_levels(const nb_bundle *b, uint8_t *p, size_t len)
{
    nbi_agraph g;
    nbi_alevels L;
    nb_err err;
    if (nbi_agraph_find(b, &g, &err) != NB_OK ||
        nbi_alevels_view(p, len, &g, nbi_agraph_crc(b, &g), &L, &err) != NB_OK)
        return 0;
    const nbi_alevel *v = &L.lv[2];
    for (uint32_t a = 0; a < v->narcs; a++) {
        uint32_t card, diag;
        nbi_lv_w(&L, 2, a, &card, &diag);
        if (card + diag <= 1)
            continue; /* an arc between clusters: one step */
        size_t at = (size_t)(v->arc_card - p) + 4 * (size_t)a;
        nbi_put32(p + at, card + 1);
        printf("level 2's arc_card[%u]\n", a);
        return 1;
    }
    return 0;
}

/* The first two landmarks of the levels' top level swapped: their nodes, and every node's
 * distances from them. */
static int lie_landmarks(const nb_bundle *b, uint8_t *p, size_t len)
{
    nbi_agraph g;
    nbi_alevels L;
    nb_err err;
    if (nbi_agraph_find(b, &g, &err) != NB_OK ||
        nbi_alevels_view(p, len, &g, nbi_agraph_crc(b, &g), &L, &err) != NB_OK || L.nlandmarks < 2)
        return 0;
    uint8_t *node = p + (L.lm_node - p), *dist = p + (L.lm_dist - p);
    uint32_t a = nbi_get32(node), n = L.lv[L.nlevels].nnodes;
    nbi_put32(node, nbi_get32(node + 4));
    nbi_put32(node + 4, a);
    for (uint32_t v = 0; v < n; v++) {
        uint8_t t[8], *d0 = dist + 8 * ((size_t)v * L.nlandmarks), *d1 = d0 + 8;
        memcpy(t, d0, 8);
        memcpy(d0, d1, 8);
        memcpy(d1, t, 8);
    }
    printf("the landmarks' nodes\n");
    return 1;
}

/* The first multiplier above 1 of a costs section's profile, one more. */
static int lie_profile(uint8_t *p, size_t len, unsigned nterrains)
{
    if (len < NBI_ACOSTS_HEADER + 8 * (size_t)nterrains)
        return 0;
    for (unsigned t = 0; t < nterrains; t++) {
        uint8_t *c = p + NBI_ACOSTS_HEADER + 8 * (size_t)t;
        if (nbi_getf64(c) != 1) {
            nbi_putf64(c, nbi_getf64(c) + 1);
            printf("a profile no agent of the set has\n");
            return 1;
        }
    }
    return 0;
}

static int lie_path(uint8_t *p, size_t len, uint32_t w, uint32_t h)
{
    nbi_agraph g;
    if (nbi_agraph_view(p, len, w, h, &g, NULL) != NB_OK || !g.arc_path)
        return 0;
    for (uint32_t u = 0; u < g.nnodes; u++)
        for (uint32_t a = nbi_u32at(g.node_first, u); a < nbi_u32at(g.node_first, u + 1); a++) {
            uint32_t off = nbi_u32at(g.arc_path, a), v = nbi_u32at(g.arc_to, a);
            if (off == NBI_NO_PATH || u > v)
                continue;
            int32_t x = nbi_u16at(g.node_xy, 2 * u), y = nbi_u16at(g.node_xy, 2 * u + 1);
            nbi_box box = nbi_cluster_box(nbi_node_cluster(&g, (uint32_t)x, (uint32_t)y), g.ncx,
                                          g.cluster, w, h);
            for (uint32_t k = 0; k + 1 < nbi_agraph_arc_steps(&g, a); k++) {
                unsigned m1 = nibble(g.moves, off + k), m2 = nibble(g.moves, off + k + 1);
                int32_t mx = x + nbi_move_dx[m2], my = y + nbi_move_dy[m2];
                if (m1 != m2 && mx >= box.x0 && my >= box.y0 && mx < box.x1 && my < box.y1) {
                    set_nibble((uint8_t *)g.moves, off + k, m2);
                    set_nibble((uint8_t *)g.moves, off + k + 1, m1);
                    printf("arc %u from node %u (%d, %d) to node %u (%d, %d)\nstep %u\n", a, u,
                           nbi_u16at(g.node_xy, 2 * u), nbi_u16at(g.node_xy, 2 * u + 1), v,
                           nbi_u16at(g.node_xy, 2 * v), nbi_u16at(g.node_xy, 2 * v + 1), k);
                    return 1;
                }
                x += nbi_move_dx[m1];
                y += nbi_move_dy[m1];
            }
        }
    return 0;
}

/* The top-left cell of the window marked in stored curve 0. */
static int lie_hitcheck(uint8_t *p)
{
    unsigned n = nbi_get32(p + NBI_HC_NEIGHBOURHOOD), s = nbi_get32(p + NBI_HC_WINDOW);
    size_t e = nbi_get32(p + NBI_HC_ENTRIES), m = nbi_get32(p + NBI_HC_CURVES);
    size_t index = nbi_get32(p + NBI_HC_FLAGS) & NBI_HC_ALL ? (4 * (e + 1) + 7) / 8 * 8 : 0;
    uint8_t *bits = p + NBI_HC_HEADER + ((size_t)2 * n + 7) / 8 * 8 + index + 8 * m + (m + 7) / 8 * 8;
    if (bits[0] & 1u)
        return 0;
    bits[0] |= 1u;
    printf("stored curve 0\ncell (%d, %d) is marked\n", -(int)(s / 2), -(int)(s / 2));
    return 1;
}

/* An entry in the middle of table 0, which holds neither the goal nor the
 * largest value. */
static int lie_perimeter(uint8_t *p)
{
    unsigned ntabs = nbi_get32(p + NBI_PERIM_TABLES);
    if (nbi_get32(p + NBI_PERIM_BITS) != 16 || ntabs < 2)
        return 0;
    uint32_t end = nbi_get32(p + NBI_PERIM_HEADER + NBI_PERIM_TABLE_RECORD + NBI_PERIM_T_FIRST);
    uint32_t i = end / 2;
    uint8_t *e = p + NBI_PERIM_HEADER + (size_t)ntabs * NBI_PERIM_TABLE_RECORD + 2 * (size_t)i;
    if (nbi_get16(e) >= 32767)
        return 0;
    nbi_put16(e, (uint16_t)(nbi_get16(e) + 1));
    printf("table 0 \nentry %u,\n", i);
    return 1;
}

/* Two neighbouring runs of one length swapped: every run stays in its
 * row and every count holds. */
static int lie_runs(uint8_t *p)
{
    uint32_t n = nbi_get32(p + NBI_RUNS_COMPONENTS), count = nbi_get32(p + NBI_RUNS_COUNT);
    uint8_t *runs = p + NBI_RUNS_HEADER + 4 * ((size_t)n + 1);
#define BEFORE(j) nbi_get32(runs + (size_t)(j) * NBI_RUNS_RECORD + NBI_RUN_BEFORE)
#define START(j) (runs + (size_t)(j) * NBI_RUNS_RECORD + NBI_RUN_START)
    for (uint32_t j = 0; j + 2 < count; j++)
        if (BEFORE(j + 1) - BEFORE(j) == BEFORE(j + 2) - BEFORE(j + 1) &&
            nbi_get32(START(j)) != nbi_get32(START(j + 1))) {
            uint32_t a = nbi_get32(START(j));
            nbi_put32(START(j), nbi_get32(START(j + 1)));
            nbi_put32(START(j + 1), a);
            printf("run %u (component \n", j);
            return 1;
        }
#undef BEFORE
#undef START
    return 0;
}

static int lie_bitangent(uint8_t *p)
{
    if (nbi_get32(p + NBI_BT_NODES) == 0)
        return 0;
    uint8_t *x = p + NBI_BITANGENT_HEADER + NBI_BT_N_X;
    nbi_putf64(x, nbi_getf64(x) + 0.25);
    printf("node 0 \n");
    return 1;
}

/* IN without its sections of type (none is an error), written to OUT; or with junk, whatever
 * abstract graph it had replaced by 5 bytes that are no graph (graph-bytes). */
static int without(const char *in_path, const char *out_path, uint32_t type, int junk)
{
    nbb_builder *w = NULL;
    nb_err err;
    nb_status st = nbb_builder_new(&w, &err);
    if (st == NB_OK)
        st = nbb_builder_load(w, in_path, 0, &err);
    if (st == NB_OK && nbb_builder_remove(w, type) == 0 && !junk)
        st = nbi_fail(&err, NB_ERR_NOTFOUND, "%s: no %s section to remove", in_path,
                      nb_section_type_name(type));
    if (st == NB_OK && junk) {
        nb_section_info in;
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_ABSTRACT;
        in.version = 1;
        in.param[0] = 10;
        st = nbb_builder_add(w, &in, "graph", 5, 0, &err);
    }
    if (st == NB_OK)
        st = nbb_builder_write(w, out_path, &err);
    nbb_builder_free(w);
    if (st != NB_OK) {
        fprintf(stderr, "nbtest-lie: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int lie_subgoal(uint8_t *p)
{
    uint32_t w = nbi_get32(p + 4 * NBI_SG_WIDTH), h = nbi_get32(p + 4 * NBI_SG_HEIGHT);
    nbi_sg_layout lay;
    nbi_sg_layout_of(w, h, nbi_get32(p + 4 * NBI_SG_NODES), nbi_get32(p + 4 * NBI_SG_EDGES), &lay);
    uint32_t rw = nbi_sg_words(w), cw = nbi_sg_words(h);
    for (uint32_t y = h / 2; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *f = p + lay.free_rows + 8 * ((size_t)y * rw + x / 64) + (x % 64) / 8;
            uint8_t *s = p + lay.sub_rows + 8 * ((size_t)y * rw + x / 64) + (x % 64) / 8;
            uint8_t m = (uint8_t)(1u << (x % 8));
            if (!(*f & m) || (*s & m))
                continue;
            *f = (uint8_t)(*f & ~m);
            uint8_t *c = p + lay.pass_cols + 8 * ((size_t)x * cw + y / 64) + (y % 64) / 8;
            *c = (uint8_t)(*c & ~(1u << (y % 8)));
            printf("cell (%u, %u): blocked\n", x, y);
            return 1;
        }
    return 0;
}

/* b in SQLite at path, its sections rows being the n sections info[i] stored as data[i]; head
 * is their binary header and table (for its checksums).  0 on success. */
static int sqlite_rows(const nb_bundle *b, const nb_section_info *info, const uint8_t *const *data,
                       size_t n, const uint8_t *head, const char *path)
{
    nb_err err;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    remove(path);
    if (nbb_sqlite_write(b, path, &err) != NB_OK) {
        fprintf(stderr, "nbtest-lie: %s\n", err.msg);
        return 1;
    }
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db,
                          "BEGIN; DROP TABLE sections; CREATE TABLE sections (id INTEGER PRIMARY KEY, "
                          "type INTEGER NOT NULL, version INTEGER NOT NULL, encoding INTEGER NOT NULL, "
                          "stored_size INTEGER NOT NULL, unpacked_size INTEGER NOT NULL, crc32 INTEGER "
                          "NOT NULL, flags INTEGER NOT NULL, name TEXT NOT NULL, p0 INTEGER NOT NULL, "
                          "p1 INTEGER NOT NULL, p2 INTEGER NOT NULL, p3 INTEGER NOT NULL, p4 INTEGER "
                          "NOT NULL, p5 INTEGER NOT NULL, p6 INTEGER NOT NULL, p7 INTEGER NOT NULL, "
                          "data BLOB NOT NULL)",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                    "?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
        const nb_section_info *in = &info[i];
        const sqlite3_int64 v[8] = {(sqlite3_int64)i, in->type, in->version, in->encoding,
                                    (sqlite3_int64)in->size, (sqlite3_int64)in->usize, in->crc,
                                    in->flags};
        for (int k = 0; k < 8; k++)
            sqlite3_bind_int64(st, k + 1, v[k]);
        sqlite3_bind_text(st, 9, in->name, -1, SQLITE_STATIC);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            sqlite3_bind_int64(st, 10 + k, in->param[k]);
        sqlite3_bind_blob64(st, 18, data[i], in->size, SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    char sql[200];
    snprintf(sql, sizeof sql,
             "UPDATE bundle SET section_count = %zu, table_crc32 = %u, header_crc32 = %u; COMMIT", n,
             (unsigned)nbi_get32(head + NBI_HDR_TABLE_CRC), (unsigned)nbi_get32(head + NBI_HDR_CRC));
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        fprintf(stderr, "nbtest-lie: %s: %s\n", path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return rc != SQLITE_OK;
}

/* IN's sections, stored as they are, with the table lie KIND (twice or order), written by
 * hand: the header and the table as the writer lays them out (bundle/layout.c). */
static int table_lie(const char *kind, const char *in_path, const char *out_path)
{
    nb_bundle *b = NULL;
    nb_err err;
    if (nb_bundle_open(in_path, 0, NULL, &b, &err) != NB_OK) {
        fprintf(stderr, "nbtest-lie: %s\n", err.msg);
        return 1;
    }
    size_t n = b->nsections;
    nb_section_info *info = calloc(n + 1, sizeof *info);
    const uint8_t **data = calloc(n + 1, sizeof *data);
    uint8_t *wall = NULL;
    size_t at = 0;
    int lied = 0;
    for (size_t i = 0; i < n; i++) {
        info[at] = b->sections[i].info;
        data[at++] = b->sections[i].stored;
        if (strcmp(kind, "twice") == 0 && !lied && info[at - 1].type == NB_SEC_CLEARANCE) {
            /* The copy: raw, its cells of column w / 2 below row 2 at clearance 0. */
            const struct nbi_section *s = &b->sections[i];
            size_t len = (size_t)s->info.usize;
            wall = malloc(len);
            memcpy(wall, s->payload, len);
            unsigned bits = nbi_get32(wall + NBI_LAYER_BITS);
            for (uint32_t y = 3; y < b->height; y++)
                put_bits(wall + NBI_LAYER_HEADER, ((uint64_t)y * b->width + b->width / 2) * bits,
                         bits, 0);
            info[at] = s->info;
            info[at].encoding = NB_ENC_LAYOUT(s->info.encoding);
            info[at].size = info[at].usize = len;
            info[at].crc = nbi_crc32(0, wall, len);
            data[at++] = wall;
            printf("section %zu\nsection %zu\n", i, i + 1);
            lied = 1;
        }
    }
    if (strcmp(kind, "order") == 0 && n >= 2) {
        nb_section_info t = info[0];
        const uint8_t *d = data[0];
        info[0] = info[1];
        data[0] = data[1];
        info[1] = t;
        data[1] = d;
        printf("section 0\nsection 1\n");
        lied = 1;
    }
    int rc = 1;
    if (lied) {
        uint64_t size = nbi_layout_offsets(info, at);
        uint8_t *img = calloc(1, (size_t)size);
        nbi_layout_head(info, at, b->major, b->minor, b->flags, size, img);
        for (size_t i = 0; i < at; i++)
            memcpy(img + info[i].offset, data[i], (size_t)info[i].size);
        size_t ol = strlen(out_path);
        if (ol > 7 && strcmp(out_path + ol - 7, ".sqlite") == 0)
            rc = sqlite_rows(b, info, data, at, img, out_path);
        else
            rc = tu_write(out_path, img, (size_t)size) == 0 ? 0 : 1;
        free(img);
    } else
        fprintf(stderr, "nbtest-lie: %s: nothing to make a %s table of\n", in_path, kind);
    free(wall);
    free(info);
    free(data);
    nb_bundle_close(b);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *kind;
        uint32_t type;
    } kinds[] = {{"clearance", NB_SEC_CLEARANCE}, {"components", NB_SEC_COMPONENTS},
                 {"runs", NB_SEC_RUNS},           {"weight", NB_SEC_ABSTRACT},
                 {"path", NB_SEC_ABSTRACT},
                 {"hitcheck", NB_SEC_HITCHECK},   {"perimeter", NB_SEC_PERIMETER},
                 {"bitangent", NB_SEC_BITANGENT}, {"subgoal", NB_SEC_SUBGOAL},
                 {"cost", NB_SEC_ABSTRACT_COSTS}, {"levels", NB_SEC_ABSTRACT_LEVELS},
                 {"landmarks", NB_SEC_ABSTRACT_LEVELS}, {"profile", NB_SEC_ABSTRACT_COSTS}};
    if (argc == 4 && strcmp(argv[1], "graph-bytes") == 0)
        return without(argv[2], argv[3], NB_SEC_ABSTRACT, 1);
    if (argc == 4 && strcmp(argv[1], "nocosts") == 0)
        return without(argv[2], argv[3], NB_SEC_ABSTRACT_COSTS, 0) ||
               printf("no abstract_costs section holds its profile\n") < 0;
    if (argc == 4 && (strcmp(argv[1], "twice") == 0 || strcmp(argv[1], "order") == 0))
        return table_lie(argv[1], argv[2], argv[3]);
    size_t k = 0;
    while (argc == 4 && k < sizeof kinds / sizeof kinds[0] && strcmp(argv[1], kinds[k].kind))
        k++;
    if (argc != 4 || k == sizeof kinds / sizeof kinds[0]) {
        fprintf(stderr, "usage: nbtest-lie clearance|components|runs|weight|path|hitcheck|"
                        "perimeter|bitangent|subgoal|cost|levels|landmarks|profile|nocosts|graph-bytes|twice|order IN OUT\n");
        return 2;
    }
    nb_bundle *b = NULL;
    nbb_builder *w = NULL;
    nb_err err;
    int lied = 0;
    nb_status st = nb_bundle_open(argv[2], 0, NULL, &b, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&w, &err);
    if (st == NB_OK)
        st = nbb_builder_load(w, argv[2], 0, &err);
    for (size_t i = 0; st == NB_OK && !lied && i < nb_bundle_section_count(b); i++) {
        nb_section_info in = *nb_bundle_section_get(b, i);
        const void *data;
        size_t len;
        if (in.type != kinds[k].type || (st = nb_bundle_payload(b, i, &data, &len, &err)))
            continue;
        uint8_t *p = malloc(len);
        memcpy(p, data, len);
        switch (in.type) {
        case NB_SEC_CLEARANCE: lied = lie_clearance(p, b->width); break;
        case NB_SEC_COMPONENTS: lied = lie_components(p, b->width, b->height); break;
        case NB_SEC_RUNS: lied = lie_runs(p); break;
        case NB_SEC_ABSTRACT:
            lied = strcmp(argv[1], "weight") == 0 ? lie_weight(p, len, b->width, b->height)
                                                  : lie_path(p, len, b->width, b->height);
            break;
        case NB_SEC_HITCHECK: lied = lie_hitcheck(p); break;
        case NB_SEC_PERIMETER: lied = lie_perimeter(p); break;
        case NB_SEC_BITANGENT: lied = lie_bitangent(p); break;
        case NB_SEC_SUBGOAL: lied = lie_subgoal(p); break;
        case NB_SEC_ABSTRACT_COSTS:
            lied = strcmp(argv[1], "cost") == 0 ? lie_cost(p, len, nb_terrain_count(b))
                                                : lie_profile(p, len, nb_terrain_count(b));
            break;
        case NB_SEC_ABSTRACT_LEVELS:
            lied = strcmp(argv[1], "levels") == 0 ? lie_levels(b, p, len) : lie_landmarks(b, p, len);
            break;
        }
        if (lied) {
            printf("section %zu (%s\n", i, nb_section_type_name(in.type));
            int zlib = NB_ENC_COMPRESSION(in.encoding) != 0;
            in.encoding = NB_ENC_LAYOUT(in.encoding);
            st = nbb_builder_add(w, &in, p, len, zlib, &err);
        }
        free(p);
    }
    if (st == NB_OK && !lied)
        st = nbi_fail(&err, NB_ERR_NOTFOUND, "%s: no %s section to change", argv[2], argv[1]);
    if (st == NB_OK)
        st = nbb_builder_write(w, argv[3], &err);
    nbb_builder_free(w);
    nb_bundle_close(b);
    if (st != NB_OK) {
        fprintf(stderr, "nbtest-lie: %s\n", err.msg);
        return 1;
    }
    return 0;
}
