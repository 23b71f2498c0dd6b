/* sqlite_write.c: writing a bundle as an SQLite database
 * (formats/sqlite.md, schema in formats/sqlite.sql).
 *
 * The database is built in a temporary file beside the target, in one
 * transaction, and renamed into place like a binary bundle: an interrupted
 * write leaves the previous database as it was, and no half-written file
 * at the target.  The same sections give the same bytes (with the same
 * SQLite library): a fixed page size, rows in a fixed order, no dates. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "abstract/abstract.h"
#include "bake_int.h"
#include "forest/forest.h"
#include "turning/turning.h"
#include "sqlite/sqlite_schema.h" /* nbb_sqlite_schema: formats/sqlite.sql, made by make */

typedef struct writer {
    const nb_bundle *b;
    sqlite3 *db;
    const char *path; /* for messages: the target */
    nb_err *err;
    nbb_progress_part progress; /* of the whole database */
} writer;

static nb_status db_fail(writer *w, int rc, const char *what)
{
    const char *msg = w->db ? sqlite3_errmsg(w->db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
        return nbi_fail(w->err, NB_ERR_IO, "%s: write error: %s (%s)", w->path, msg, what);
    case SQLITE_NOMEM:
        return nbi_fail(w->err, NB_ERR_NOMEM, "%s: out of memory (%s)", w->path, what);
    case SQLITE_TOOBIG:
        return nbi_fail(w->err, NB_ERR_LIMIT, "%s: %s: %s", w->path, what, msg);
    }
    return nbi_fail(w->err, NB_ERR_IO, "%s: %s: %s", w->path, what, msg);
}

static nb_status exec(writer *w, const char *sql, const char *what)
{
    int rc = sqlite3_exec(w->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? NB_OK : db_fail(w, rc, what);
}

/* A prepared INSERT, bound column by column, then run by insert_row. */
typedef struct ins {
    writer *w;
    sqlite3_stmt *st;
    const char *what;
    int rc;
} ins;

static nb_status ins_prepare(writer *w, ins *q, const char *sql, const char *what)
{
    q->w = w;
    q->what = what;
    q->rc = sqlite3_prepare_v2(w->db, sql, -1, &q->st, NULL);
    return q->rc == SQLITE_OK ? NB_OK : db_fail(w, q->rc, what);
}

static void bind_int(ins *q, int col, int64_t v)
{
    if (q->rc == SQLITE_OK)
        q->rc = sqlite3_bind_int64(q->st, col, v);
}

static void bind_text(ins *q, int col, const char *s, int len)
{
    if (q->rc == SQLITE_OK)
        q->rc = s ? sqlite3_bind_text(q->st, col, s, len, SQLITE_TRANSIENT)
                  : sqlite3_bind_null(q->st, col);
}

static void bind_real(ins *q, int col, double v)
{
    if (q->rc == SQLITE_OK)
        q->rc = sqlite3_bind_double(q->st, col, v);
}

static nb_status insert_row(ins *q)
{
    if (q->rc == SQLITE_OK) {
        q->rc = sqlite3_step(q->st);
        if (q->rc == SQLITE_DONE)
            q->rc = SQLITE_OK;
        sqlite3_reset(q->st);
        sqlite3_clear_bindings(q->st);
    }
    return q->rc == SQLITE_OK ? NB_OK : db_fail(q->w, q->rc, q->what);
}

static void ins_done(ins *q)
{
    sqlite3_finalize(q->st);
    q->st = NULL;
}

/* Prepares n INSERTs at once; done_all finalizes them, prepared or not. */
static nb_status prepare_all(writer *w, ins *q, const char *const *sql, int n, const char *what)
{
    nb_status st = NB_OK;
    memset(q, 0, (size_t)n * sizeof *q);
    for (int i = 0; i < n && st == NB_OK; i++)
        st = ins_prepare(w, &q[i], sql[i], what);
    return st;
}

static void done_all(ins *q, int n)
{
    for (int i = 0; i < n; i++)
        ins_done(&q[i]);
}

/* ---- the bundle: what readers read back ---- */

static nb_status put_sections(writer *w)
{
    const nb_bundle *b = w->b;
    ins q;
    nb_status st = ins_prepare(w, &q,
                               "INSERT INTO bundle VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                               "the bundle row");
    if (st != NB_OK)
        return st;
    bind_int(&q, 1, b->major);
    bind_int(&q, 2, b->minor);
    bind_int(&q, 3, b->flags);
    bind_int(&q, 4, (int64_t)b->nsections);
    bind_int(&q, 5, nbi_get32(b->data + NBI_HDR_TABLE_CRC)); /* the binary form's table CRC */
    bind_int(&q, 6, nbi_get32(b->data + NBI_HDR_CRC)); /* and its header CRC */
    st = insert_row(&q);
    ins_done(&q);
    if (st != NB_OK)
        return st;
    if ((st = ins_prepare(w, &q,
                          "INSERT INTO sections VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                          "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
                          "a section")) != NB_OK)
        return st;
    int max_len = sqlite3_limit(w->db, SQLITE_LIMIT_LENGTH, -1);
    for (size_t i = 0; i < b->nsections && st == NB_OK; i++) {
        const struct nbi_section *s = &b->sections[i];
        const nb_section_info *in = &s->info;
        if (in->size > (uint64_t)max_len) {
            const char *tn = nb_section_type_name(in->type);
            st = nbi_fail(w->err, NB_ERR_LIMIT,
                          "%s: section %zu (%s) is %llu bytes; this SQLite holds at most %d in a "
                          "blob (SQLITE_MAX_LENGTH): keep this bundle in the binary form",
                          w->path, i, tn ? tn : "unknown type", (unsigned long long)in->size, max_len);
            break;
        }
        bind_int(&q, 1, (int64_t)i);
        bind_int(&q, 2, in->type);
        bind_int(&q, 3, in->version);
        bind_int(&q, 4, in->encoding);
        bind_int(&q, 5, (int64_t)in->size);
        bind_int(&q, 6, (int64_t)in->usize);
        bind_int(&q, 7, in->crc);
        bind_int(&q, 8, in->flags);
        bind_text(&q, 9, in->name, -1);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            bind_int(&q, 10 + k, in->param[k]);
        if (q.rc == SQLITE_OK)
            q.rc = in->size ? sqlite3_bind_blob64(q.st, 18, s->stored, in->size, SQLITE_STATIC)
                            : sqlite3_bind_zeroblob(q.st, 18, 0);
        st = insert_row(&q);
    }
    ins_done(&q);
    return st;
}

/* ---- names ---- */

static nb_status put_names(writer *w)
{
    ins t, p, e;
    nb_status st = ins_prepare(w, &t, "INSERT INTO section_types VALUES (?1, ?2)", "section types");
    if (st != NB_OK)
        return st;
    if ((st = ins_prepare(w, &p, "INSERT INTO section_param_names VALUES (?1, ?2, ?3)",
                          "parameter names")) != NB_OK) {
        ins_done(&t);
        return st;
    }
    const struct nbi_section_kind *k;
    for (size_t i = 0; st == NB_OK && (k = nbi_section_kind_at(i)) != NULL; i++) {
        bind_int(&t, 1, k->type);
        bind_text(&t, 2, k->name, -1);
        st = insert_row(&t);
        for (int j = 0; j < NB_SECTION_PARAMS && st == NB_OK; j++) {
            if (!k->params[j])
                continue;
            bind_int(&p, 1, k->type);
            bind_int(&p, 2, j);
            bind_text(&p, 3, k->params[j], -1);
            st = insert_row(&p);
        }
    }
    ins_done(&t);
    ins_done(&p);
    if (st != NB_OK || (st = ins_prepare(w, &e, "INSERT INTO encodings VALUES (?1, ?2)",
                                         "encodings")) != NB_OK)
        return st;
    static const uint16_t enc[] = {NB_ENC_RAW, NB_ENC_PACKED, NB_ENC_ZLIB | NB_ENC_RAW,
                                   NB_ENC_ZLIB | NB_ENC_PACKED};
    for (size_t i = 0; i < sizeof enc / sizeof enc[0] && st == NB_OK; i++) {
        bind_int(&e, 1, enc[i]);
        bind_text(&e, 2, nb_encoding_name(enc[i]), -1);
        st = insert_row(&e);
    }
    ins_done(&e);
    return st;
}

/* ---- the level ---- */

static nb_status put_legend(writer *w)
{
    const nbi_legend *lg = &w->b->legend;
    ins q;
    nb_status st = ins_prepare(w, &q, "INSERT INTO terrains VALUES (?1, ?2, ?3)", "terrains");
    for (unsigned t = 0; t < lg->nterrains && st == NB_OK; t++) {
        bind_int(&q, 1, t);
        bind_text(&q, 2, lg->names[t], -1);
        bind_text(&q, 3, lg->chars[t], -1);
        st = insert_row(&q);
    }
    ins_done(&q);
    if (st != NB_OK || (st = ins_prepare(w, &q, "INSERT INTO map_chars VALUES (?1, ?2)",
                                         "map characters")) != NB_OK)
        return st;
    for (unsigned c = 0; c < 256 && st == NB_OK; c++) {
        if (lg->code[c] == NBI_CELL_INVALID)
            continue;
        char ch = (char)c;
        bind_text(&q, 1, &ch, 1);
        if (lg->code[c] == NBI_CELL_OBSTACLE)
            bind_text(&q, 2, NULL, 0);
        else
            bind_int(&q, 2, lg->code[c]);
        st = insert_row(&q);
    }
    ins_done(&q);
    return st;
}

static int cmp_cap(const void *a, const void *b)
{
    nb_capability x = *(const nb_capability *)a, y = *(const nb_capability *)b;
    return x < y ? -1 : x > y;
}

/* Every capability the bundle names: of its agents, and each section
 * parameter called "capability". */
static nb_status put_capabilities(writer *w)
{
    const nb_bundle *b = w->b;
    size_t cap = (b->agents ? b->agents->count : 0) + b->nsections + 1, n = 0;
    nb_capability *caps = nbb_malloc(cap * sizeof *caps);
    if (!caps)
        return nbi_fail(w->err, NB_ERR_NOMEM, "no memory");
    for (size_t i = 0; b->agents && i < b->agents->count; i++)
        caps[n++] = b->agents->agent[i].capability;
    for (size_t i = 0; i < b->nsections; i++)
        for (unsigned k = 0; k < NB_SECTION_PARAMS; k++) {
            const char *pn = nb_section_param_name(b->sections[i].info.type, k);
            if (pn && strcmp(pn, "capability") == 0) {
                caps[n++] = b->sections[i].info.param[k];
                break;
            }
        }
    if (!nbb_sort(caps, n, sizeof *caps, cmp_cap)) {
        nbb_free(caps);
        return nbi_fail(w->err, NB_ERR_NOMEM, "no memory");
    }
    ins c, t;
    nb_status st = ins_prepare(w, &c, "INSERT INTO capabilities VALUES (?1, ?2)", "capabilities");
    if (st != NB_OK) {
        nbb_free(caps);
        return st;
    }
    if ((st = ins_prepare(w, &t, "INSERT INTO capability_terrains VALUES (?1, ?2)",
                          "capabilities")) != NB_OK) {
        ins_done(&c);
        nbb_free(caps);
        return st;
    }
    char names[NB_MAX_TERRAINS * (NB_NAME_MAX + 1) + 1];
    for (size_t i = 0; i < n && st == NB_OK; i++) {
        if (i > 0 && caps[i] == caps[i - 1])
            continue;
        nbi_capability_format(&b->legend, caps[i], names, sizeof names);
        bind_int(&c, 1, caps[i]);
        bind_text(&c, 2, names, -1);
        st = insert_row(&c);
        for (unsigned k = 0; k < b->legend.nterrains && st == NB_OK; k++) {
            if (!(caps[i] >> k & 1))
                continue;
            bind_int(&t, 1, caps[i]);
            bind_int(&t, 2, k);
            st = insert_row(&t);
        }
    }
    ins_done(&c);
    ins_done(&t);
    nbb_free(caps);
    return st;
}

static nb_status put_agents(writer *w)
{
    const nbi_agentset *set = w->b->agents;
    const nbi_legend *legend = &w->b->legend;
    static const char *const sql[] = {"INSERT INTO agents VALUES (?1, ?2, ?3, ?4)",
                                      "INSERT INTO agent_costs VALUES (?1, ?2, ?3)"};
    ins q[2];
    nb_status st = prepare_all(w, q, sql, 2, "agents");
    for (size_t i = 0; i < set->count && st == NB_OK; i++) {
        const nb_agent *a = &set->agent[i];
        bind_int(&q[0], 1, (int64_t)i);
        bind_text(&q[0], 2, a->name, -1);
        bind_int(&q[0], 3, a->size);
        bind_int(&q[0], 4, a->capability);
        st = insert_row(&q[0]);
        /* A row per terrain of the capability: its multiplier, 1 without costs. */
        for (unsigned k = 0; k < legend->nterrains && st == NB_OK; k++) {
            if (!(a->capability >> k & 1u))
                continue;
            bind_text(&q[1], 1, a->name, -1);
            bind_text(&q[1], 2, legend->names[k], -1);
            bind_real(&q[1], 3, a->weighted ? a->cost[k] : 1.0);
            st = insert_row(&q[1]);
        }
    }
    done_all(q, 2);
    return st;
}

static nb_status put_map(writer *w)
{
    const nb_bundle *b = w->b;
    ins q;
    nb_status st = ins_prepare(w, &q, "INSERT INTO map VALUES (?1, ?2)", "the map");
    if (st != NB_OK)
        return st;
    bind_int(&q, 1, b->width);
    bind_int(&q, 2, b->height);
    st = insert_row(&q);
    ins_done(&q);
    if (st != NB_OK || (st = ins_prepare(w, &q, "INSERT INTO map_rows VALUES (?1, ?2)",
                                         "the map's rows")) != NB_OK)
        return st;
    /* The characters are printable ASCII (verified against the legend). */
    char *row = nbb_malloc(b->width);
    if (!row)
        st = nbi_fail(w->err, NB_ERR_NOMEM, "no memory for a row of the map");
    for (uint32_t y = 0; y < b->height && st == NB_OK; y++) {
        nbi_map_chars(&b->map, (size_t)y * b->width, b->width, (uint8_t *)row);
        bind_int(&q, 1, y);
        bind_text(&q, 2, row, (int)b->width);
        st = insert_row(&q);
    }
    nbb_free(row);
    ins_done(&q);
    return st;
}

/* ---- round obstacles (formats/forest.md) ---- */

static nb_status put_forest(writer *w)
{
    const nb_bundle *b = w->b;
    nb_forest *f;
    nb_status st = nb_forest_open(b, &f, w->err);
    if (st != NB_OK)
        return st;
    ins q;
    if ((st = ins_prepare(w, &q, "INSERT INTO forest VALUES (?1, ?2, ?3, ?4, ?5)", "the forest")) ==
        NB_OK) {
        double bounds[4];
        bind_int(&q, 1, (int64_t)f->n);
        if (nb_forest_bounds(f, bounds))
            for (int k = 0; k < 4 && q.rc == SQLITE_OK; k++)
                q.rc = sqlite3_bind_double(q.st, 2 + k, bounds[k]);
        st = insert_row(&q);
    }
    ins_done(&q);
    if (st == NB_OK &&
        (st = ins_prepare(w, &q, "INSERT INTO forest_circles VALUES (?1, ?2, ?3, ?4)",
                          "the forest's circles")) == NB_OK)
        for (size_t i = 0; i < f->n && st == NB_OK; i++) {
            bind_int(&q, 1, (int64_t)i);
            bind_real(&q, 2, f->circles[i].x);
            bind_real(&q, 3, f->circles[i].y);
            bind_real(&q, 4, f->circles[i].r);
            st = insert_row(&q);
        }
    ins_done(&q);
    static const char *const sql[3] = {
        "INSERT INTO bitangent_graphs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        "INSERT INTO bitangent_nodes VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        "INSERT INTO bitangent_edges VALUES (?1, ?2, ?3, ?4, ?5, ?6)"};
    ins qs[3];
    nb_status pst = prepare_all(w, qs, sql, 3, "bitangent graphs");
    if (st == NB_OK)
        st = pst;
    ins *g = &qs[0], *n = &qs[1], *e = &qs[2];
    for (unsigned k = 0; k < f->ngraphs && st == NB_OK; k++) {
        const nbi_fgraph *gr = &f->graph[k];
        uint32_t key = k;
        long sec = nbi_section_index(b, NB_SEC_BITANGENT, NULL, &key, 1);
        const nb_section_info *in = nb_bundle_section_get(b, (size_t)sec);
        bind_int(g, 1, k);
        bind_int(g, 2, sec);
        bind_real(g, 3, gr->info.agent_radius);
        bind_int(g, 4, gr->info.nodes);
        bind_int(g, 5, gr->info.transitions);
        bind_int(g, 6, gr->info.candidates);
        bind_int(g, 7, (int64_t)gr->info.arcs);
        bind_int(g, 8, gr->info.free_arcs);
        bind_int(g, 9, in ? (int64_t)in->size : 0);
        bind_int(g, 10, in ? (int64_t)in->usize : 0);
        st = insert_row(g);
        for (uint32_t i = 0; i < gr->nodes && st == NB_OK; i++) {
            const uint8_t *r = gr->node + (size_t)i * NBI_BITANGENT_NODE;
            uint32_t other = nbi_get32(r + NBI_BT_N_PARTNER), cs = nbi_get32(r + NBI_BT_N_CIRCLE);
            double x = nbi_getf64(r + NBI_BT_N_X), y = nbi_getf64(r + NBI_BT_N_Y);
            bind_int(n, 1, k);
            bind_int(n, 2, i);
            bind_int(n, 3, cs >> 1);
            bind_real(n, 4, x);
            bind_real(n, 5, y);
            bind_real(n, 6, nbi_getf64(r + NBI_BT_N_ANGLE));
            bind_text(n, 7, cs & 1 ? "cw" : "ccw", -1);
            bind_int(n, 8, other);
            st = insert_row(n);
            if (st != NB_OK || other < i)
                continue;
            const uint8_t *o = gr->node + (size_t)other * NBI_BITANGENT_NODE;
            double dx = nbi_getf64(o + NBI_BT_N_X) - x, dy = nbi_getf64(o + NBI_BT_N_Y) - y;
            bind_int(e, 1, k);
            bind_int(e, 2, i);
            bind_int(e, 3, other);
            bind_int(e, 4, cs >> 1);
            bind_int(e, 5, nbi_get32(o + NBI_BT_N_CIRCLE) >> 1);
            bind_real(e, 6, sqrt(dx * dx + dy * dy));
            st = insert_row(e);
        }
    }
    done_all(qs, 3);
    nb_forest_close(f);
    return st;
}

/* ---- units with a turning radius (formats/hitcheck.md) ---- */

/* The decoded payload of the section of this type named for a unit, or
 * NULL (len 0) when the bundle has none. */
static const uint8_t *unit_section(const nb_bundle *b, uint32_t type, const char *unit, long *index,
                                   size_t *len)
{
    const void *p = NULL;
    *len = 0;
    *index = nbi_section_index(b, type, unit, NULL, 0);
    if (*index < 0 || nb_bundle_payload(b, (size_t)*index, &p, len, NULL) != NB_OK)
        return NULL;
    return p;
}

static nb_status put_hitcheck_table(writer *w, ins *t, ins *c, const char *unit)
{
    const nb_bundle *b = w->b;
    long idx;
    size_t len;
    const uint8_t *p = unit_section(b, NB_SEC_HITCHECK, unit, &idx, &len);
    nbi_hitcheck h;
    if (!p)
        return NB_OK;
    const nb_section_info *in = nb_bundle_section_get(b, (size_t)idx);
    nb_status st = nbi_hitcheck_view(p, len, in->version, &h, w->err);
    if (st != NB_OK)
        return st;
    unsigned cells = h.window * h.window;
    bind_text(t, 1, unit, -1);
    bind_int(t, 2, idx);
    bind_int(t, 3, h.headings);
    bind_int(t, 4, h.neighbourhood);
    bind_int(t, 5, h.window);
    bind_int(t, 6, h.ncurves);
    /* A curve's bytes: version 2's length, code and bitset (rounded up to
     * whole bytes); version 1's record. */
    bind_int(t, 7, h.records ? (int64_t)h.recsize : 9 + (cells + 7) / 8);
    bind_int(t, 8, (int64_t)in->size);
    bind_int(t, 9, (int64_t)in->usize);
    bind_int(t, 10, h.all);
    bind_int(t, 11, h.nstored);
    st = insert_row(t);
    int half = (int)h.window / 2;
    for (unsigned h0 = 0; h0 < h.headings && st == NB_OK; h0++)
        for (unsigned h1 = 0; h1 < h.headings && st == NB_OK; h1++)
            for (unsigned o = 0; o < h.neighbourhood && st == NB_OK; o++) {
                uint32_t first;
                unsigned quarter, count = nbi_hc_entry(&h, h0, h1, o, &first, &quarter);
                for (uint32_t k = 0; k < count && st == NB_OK; k++) {
                    unsigned touched = 0;
                    for (int y = -half; y <= half; y++)
                        for (int x = -half; x <= half; x++)
                            touched += (unsigned)nbi_hc_touches(&h, first + k, 0, x, y);
                    bind_text(c, 1, unit, -1);
                    bind_int(c, 2, h0);
                    bind_int(c, 3, h1);
                    bind_int(c, 4, h.off[o][0]);
                    bind_int(c, 5, h.off[o][1]);
                    bind_int(c, 6, k);
                    bind_text(c, 7, nbi_words[nbi_hc_word(&h, first + k)], -1);
                    bind_int(c, 8, nbi_hc_variant(&h, first + k));
                    bind_real(c, 9, nbi_hc_length(&h, first + k));
                    bind_int(c, 10, touched);
                    st = insert_row(c);
                }
            }
    return st;
}

static nb_status put_curve_table(writer *w, ins *q, const char *unit)
{
    long idx;
    size_t len;
    const uint8_t *p = unit_section(w->b, NB_SEC_CURVES, unit, &idx, &len);
    nbi_curvetab t;
    if (!p)
        return NB_OK;
    nb_status st = nbi_curvetab_view(p, len, &t, w->err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = nb_bundle_section_get(w->b, (size_t)idx);
    bind_text(q, 1, unit, -1);
    bind_int(q, 2, idx);
    bind_int(q, 3, t.distance);
    bind_int(q, 4, t.steps);
    bind_int(q, 5, t.angles);
    bind_int(q, 6, t.cols);
    bind_real(q, 7, t.radius);
    bind_int(q, 8, (int64_t)in->size);
    bind_int(q, 9, (int64_t)in->usize);
    return insert_row(q);
}

static nb_status put_units(writer *w)
{
    const nb_bundle *b = w->b;
    static const char *const sql[4] = {
        "INSERT INTO units VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        "INSERT INTO hitcheck_tables VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        "INSERT INTO hitcheck_curves VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        "INSERT INTO curve_tables VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"};
    ins q[4];
    nb_status st = prepare_all(w, q, sql, 4, "units");
    ins *u = &q[0];
    char names[NB_MAX_TERRAINS * (NB_NAME_MAX + 1) + 1];
    for (size_t i = 0; i < nb_unit_count(b) && st == NB_OK; i++) {
        nb_unit un;
        if ((st = nb_unit_get(b, i, &un, w->err)) != NB_OK)
            break;
        bind_text(u, 1, un.name, -1);
        bind_int(u, 2, nbi_section_index(b, NB_SEC_UNIT, un.name, NULL, 0));
        bind_real(u, 3, un.radius);
        bind_real(u, 4, un.width);
        bind_int(u, 5, un.headings);
        bind_int(u, 6, un.neighbourhood);
        bind_int(u, 7, un.reverse);
        bind_real(u, 8, un.reverse_penalty);
        bind_int(u, 9, un.capability);
        if (un.capability && b->has_legend) {
            nbi_capability_format(&b->legend, un.capability, names, sizeof names);
            bind_text(u, 10, names, -1);
        } else {
            bind_text(u, 10, NULL, 0);
        }
        st = insert_row(u);
        if (st == NB_OK)
            st = put_hitcheck_table(w, &q[1], &q[2], un.name);
        if (st == NB_OK)
            st = put_curve_table(w, &q[3], un.name);
    }
    done_all(q, 4);
    return st;
}

/* ---- motion models and perimeter tables (formats/motion.md) ---- */

static nb_status put_perimeter(writer *w, ins *t, ins *g, const nb_model *m)
{
    const nb_bundle *b = w->b;
    const char *name = nb_model_name(m);
    long idx = nbi_section_index(b, NB_SEC_PERIMETER, name, NULL, 0);
    nb_perimeter *per;
    const void *data;
    size_t len;
    /* Only a table the runtime accepts (built from this very model) is
     * described; any other is still in sections. */
    if (idx < 0 || nb_perimeter_open(b, m, &per, NULL) != NB_OK)
        return NB_OK;
    nb_perimeter_close(per);
    if (nb_bundle_payload(b, (size_t)idx, &data, &len, NULL) != NB_OK)
        return NB_OK;
    const uint8_t *p = data;
    const nb_section_info *in = nb_bundle_section_get(b, (size_t)idx);
    uint32_t ntabs = nbi_get32(p + NBI_PERIM_TABLES), nentries = nbi_get32(p + NBI_PERIM_ENTRIES);
    bind_text(t, 1, name, -1);
    bind_int(t, 2, idx);
    bind_int(t, 3, nbi_get32(p + NBI_PERIM_RADIUS));
    bind_text(t, 4, nb_perimeter_layout_name((int)nbi_get32(p + NBI_PERIM_LAYOUT)), -1);
    bind_int(t, 5, nbi_get32(p + NBI_PERIM_BITS));
    bind_int(t, 6, nbi_get32(p + NBI_PERIM_SYM));
    bind_int(t, 7, nbi_get32(p + NBI_PERIM_K));
    bind_int(t, 8, ntabs);
    bind_int(t, 9, nentries);
    bind_int(t, 10, nbi_get32(p + NBI_PERIM_SCALE));
    bind_int(t, 11, (int64_t)in->size);
    bind_int(t, 12, (int64_t)in->usize);
    nb_status st = insert_row(t);
    for (uint32_t k = 0; k < ntabs && st == NB_OK; k++) {
        const uint8_t *r = p + NBI_PERIM_HEADER + NBI_PERIM_TABLE_RECORD * (size_t)k;
        uint32_t heading = nbi_get32(r + NBI_PERIM_T_HEADING), speed = nbi_get32(r + NBI_PERIM_T_SPEED);
        uint32_t first = nbi_get32(r + NBI_PERIM_T_FIRST);
        uint32_t next = k + 1 < ntabs ? nbi_get32(r + NBI_PERIM_TABLE_RECORD + NBI_PERIM_T_FIRST) : nentries;
        bind_text(g, 1, name, -1);
        bind_int(g, 2, k);
        if (heading == 0xffffu)
            bind_text(g, 3, NULL, 0);
        else
            bind_int(g, 3, heading);
        bind_text(g, 4, speed == 0xffffu ? NULL : nb_model_speed_name(m, speed), -1);
        bind_int(g, 5, nbi_get32(r + NBI_PERIM_T_GROUP));
        bind_int(g, 6, first);
        bind_int(g, 7, next - first);
        st = insert_row(g);
    }
    return st;
}

static nb_status put_models(writer *w)
{
    const nb_bundle *b = w->b;
    ins q[5];
    static const char *const sql[5] = {
        "INSERT INTO motion_models VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        "INSERT INTO model_headings VALUES (?1, ?2, ?3, ?4)",
        "INSERT INTO model_speeds VALUES (?1, ?2, ?3, ?4, ?5)",
        "INSERT INTO perimeter_tables VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        "INSERT INTO perimeter_goals VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"};
    nb_status st = prepare_all(w, q, sql, 5, "motion models");
    for (size_t i = 0; i < b->nsections && st == NB_OK; i++) {
        const nb_section_info *in = &b->sections[i].info;
        nb_model *m;
        if (in->type != NB_SEC_MODEL)
            continue;
        if ((st = nb_model_open(b, in->name, &m, w->err)) != NB_OK)
            break;
        bind_text(&q[0], 1, in->name, -1);
        bind_int(&q[0], 2, (int64_t)i);
        bind_int(&q[0], 3, nb_model_headings(m));
        bind_int(&q[0], 4, nb_model_speeds(m));
        bind_int(&q[0], 5, nb_model_speed_change(m));
        bind_real(&q[0], 6, nb_model_still_cost(m));
        bind_real(&q[0], 7, nb_model_turn_cost(m));
        bind_real(&q[0], 8, nb_model_extended_weight(m));
        bind_real(&q[0], 9, nb_model_top_speed(m));
        st = insert_row(&q[0]);
        for (unsigned h = 0; h < nb_model_headings(m) && st == NB_OK; h++) {
            int dx, dy;
            nb_model_offset(m, h, &dx, &dy);
            bind_text(&q[1], 1, in->name, -1);
            bind_int(&q[1], 2, h);
            bind_int(&q[1], 3, dx);
            bind_int(&q[1], 4, dy);
            st = insert_row(&q[1]);
        }
        for (unsigned l = 0; l < nb_model_speeds(m) && st == NB_OK; l++) {
            bind_text(&q[2], 1, in->name, -1);
            bind_int(&q[2], 2, l);
            bind_text(&q[2], 3, nb_model_speed_name(m, l), -1);
            bind_real(&q[2], 4, nb_model_speed(m, l));
            bind_int(&q[2], 5, nb_model_turn(m, l));
            st = insert_row(&q[2]);
        }
        if (st == NB_OK)
            st = put_perimeter(w, &q[3], &q[4], m);
        nb_model_close(m);
    }
    done_all(q, 5);
    return st;
}

/* ---- the HAA* abstract graph (formats/abstract.md) ---- */

/* Progress: the rows of the abstract graph's nodes and edges are most of
 * the work when there is one (95% of it for a 4096 x 4096 map); the other
 * tables are told step by step before them. */
#define SHARE_BEFORE_ABSTRACT 0.3

static nb_status put_abstract(writer *w, long idx)
{
    const nb_bundle *b = w->b;
    const void *data;
    size_t len;
    nbi_agraph v;
    /* The runtime's checked view: what it refuses is not decoded here
     * either (the section itself is kept, and tells). */
    if (nb_bundle_payload(b, (size_t)idx, &data, &len, NULL) != NB_OK || !b->has_map ||
        nbi_agraph_view(data, len, b->width, b->height, &v, NULL) != NB_OK)
        return NB_OK;
    const nb_section_info *in = nb_bundle_section_get(b, (size_t)idx);
    ins q[4];
    static const char *const sql[4] = {
        "INSERT INTO abstract_graph VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        "INSERT INTO abstract_serves VALUES (?1, ?2)",
        "INSERT INTO abstract_nodes VALUES (?1, ?2, ?3, ?4)",
        "INSERT INTO abstract_edges VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"};
    nb_status st = prepare_all(w, q, sql, 4, "the abstract graph");
    bind_int(&q[0], 1, idx);
    bind_int(&q[0], 2, v.cluster);
    bind_text(&q[0], 3, nbi_quality_name(v.quality), -1);
    bind_text(&q[0], 4, v.corner ? "weak" : "strict", -1);
    bind_text(&q[0], 5, nbi_placement_name(v.placement), -1);
    bind_int(&q[0], 6, v.spread);
    bind_int(&q[0], 7, v.ncx);
    bind_int(&q[0], 8, v.ncy);
    bind_int(&q[0], 9, v.nnodes);
    bind_int(&q[0], 10, v.nedges);
    bind_int(&q[0], 11, v.ninter);
    bind_int(&q[0], 12, v.flags & NBI_AGRAPH_PATHS ? v.path_bytes : 0);
    bind_int(&q[0], 13, (int64_t)in->size);
    bind_int(&q[0], 14, (int64_t)in->usize);
    if (st == NB_OK)
        st = insert_row(&q[0]);
    for (uint32_t c = 0; c < v.ncaps && st == NB_OK; c++)
        for (uint32_t k = 0; k < v.nsizes && st == NB_OK; k++) {
            bind_int(&q[1], 1, nbi_get32(v.caps + 4 * c));
            bind_int(&q[1], 2, nbi_get32(v.sizes + 4 * k));
            st = insert_row(&q[1]);
        }
    uint64_t k = 0, clusters = (uint64_t)v.ncx * v.ncy;
    int64_t edge = 0;
    nbb_progress_part part = {w->progress.fn ? nbb_progress_part_fn : NULL, &w->progress,
                              SHARE_BEFORE_ABSTRACT, 1 - SHARE_BEFORE_ABSTRACT, NULL};
    for (uint32_t u = 0; u < v.nnodes && st == NB_OK; u++) {
        if ((u & 4095) == 0)
            nbb_progress_part_report(&part, (double)u / v.nnodes);
        while (k < clusters && nbi_get32(v.cluster_first + 4 * (k + 1)) <= u)
            k++;
        bind_int(&q[2], 1, u);
        bind_int(&q[2], 2, (int64_t)k);
        bind_int(&q[2], 3, nbi_u16at(v.node_xy, 2 * (size_t)u));
        bind_int(&q[2], 4, nbi_u16at(v.node_xy, 2 * (size_t)u + 1));
        st = insert_row(&q[2]);
        uint32_t a0 = nbi_get32(v.node_first + 4 * (size_t)u);
        uint32_t a1 = nbi_get32(v.node_first + 4 * ((size_t)u + 1));
        for (uint32_t a = a0; a < a1 && st == NB_OK; a++) {
            uint32_t to = nbi_get32(v.arc_to + 4 * (size_t)a);
            if (to <= u || to >= v.nnodes) /* each edge once, from its lower end */
                continue;
            uint32_t card = nbi_u16at(v.arc_w, 2 * (size_t)a);
            uint32_t diag = nbi_u16at(v.arc_w, 2 * (size_t)a + 1);
            uint8_t ci = v.arc_ann[2 * (size_t)a], cv = v.arc_ann[2 * (size_t)a + 1];
            /* Nodes of one cluster are listed together: the target's
             * cluster range says whether the arc crosses a border. */
            int intra = nbi_get32(v.cluster_first + 4 * k) <= to &&
                        to < nbi_get32(v.cluster_first + 4 * (k + 1));
            bind_int(&q[3], 1, edge++);
            bind_int(&q[3], 2, u);
            bind_int(&q[3], 3, to);
            bind_text(&q[3], 4, intra ? "intra" : "inter", -1);
            bind_int(&q[3], 5, ci < v.ncaps ? nbi_get32(v.caps + 4 * (size_t)ci) : 0);
            bind_int(&q[3], 6, cv);
            bind_int(&q[3], 7, card);
            bind_int(&q[3], 8, diag);
            bind_real(&q[3], 9, nbi_arc_weight(&v, a));
            st = insert_row(&q[3]);
        }
    }
    done_all(q, 4);
    return st;
}

/* ---- the whole database ---- */

static nb_status fill(writer *w)
{
    const nb_bundle *b = w->b;
    /* Set before the first page is written; no journal, since a failed
     * write throws the whole file away; no syncs, since the file is synced
     * once before it is renamed into place. */
    nb_status st = exec(w,
                        "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; "
                        "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE",
                        "cannot set up the database");
    if (st == NB_OK)
        st = exec(w, nbb_sqlite_schema, "cannot create the schema");
    if (st == NB_OK)
        st = exec(w, "BEGIN", "cannot begin");
    nbb_progress_part_report(&w->progress, 0);
    if (st == NB_OK)
        st = put_sections(w);
    nbb_progress_part_report(&w->progress, SHARE_BEFORE_ABSTRACT / 4);
    if (st == NB_OK)
        st = put_names(w);
    if (st == NB_OK && b->has_legend)
        st = put_legend(w);
    if (st == NB_OK && b->has_legend)
        st = put_capabilities(w);
    if (st == NB_OK && b->agents)
        st = put_agents(w);
    if (st == NB_OK && b->has_map)
        st = put_map(w);
    nbb_progress_part_report(&w->progress, SHARE_BEFORE_ABSTRACT / 2);
    if (st == NB_OK && nbi_section_index(b, NB_SEC_FOREST, NULL, NULL, 0) >= 0)
        st = put_forest(w);
    if (st == NB_OK && nb_unit_count(b) > 0)
        st = put_units(w);
    nbb_progress_part_report(&w->progress, SHARE_BEFORE_ABSTRACT * 3 / 4);
    if (st == NB_OK && nbi_section_index(b, NB_SEC_MODEL, NULL, NULL, 0) >= 0)
        st = put_models(w);
    nbb_progress_part_report(&w->progress, SHARE_BEFORE_ABSTRACT);
    long abstract = nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    if (st == NB_OK && abstract >= 0)
        st = put_abstract(w, abstract);
    if (st == NB_OK)
        st = exec(w, "COMMIT", "cannot commit");
    nbb_progress_part_report(&w->progress, 1);
    return st;
}

/* Writes the database into file (an empty file that exists). */
static nb_status write_db(const nb_bundle *b, const char *file, const char *path,
                          nbb_progress_fn progress, void *arg, nb_err *err)
{
    writer w = {b, NULL, path, err, {progress, arg, 0, 1, NULL}};
    int rc = sqlite3_open_v2(file, &w.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    nb_status st = rc == SQLITE_OK ? fill(&w) : db_fail(&w, rc, "cannot open a new database");
    rc = sqlite3_close(w.db);
    if (st == NB_OK && rc != SQLITE_OK)
        st = db_fail(&w, rc, "cannot close the database");
    return st;
}

/* Standard output: the database is made in a scratch file, then copied. */
static nb_status write_stdout(const nb_bundle *b, nbb_progress_fn progress, void *arg,
                              nb_err *err)
{
    const char *dir = getenv("TMPDIR");
    char base[4096];
    snprintf(base, sizeof base, "%s/navbake", dir && *dir ? dir : "/tmp");
    nbb_tempfile t;
    nb_status st = nbb_tempfile_scratch(&t, base, err);
    if (st != NB_OK)
        return st;
    st = write_db(b, t.tmp, "(standard output)", progress, arg, err);
    uint8_t buf[1 << 16];
    while (st == NB_OK) {
        ssize_t n = read(t.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            st = nbi_fail_errno(err, "read error", t.tmp);
            break;
        }
        if (n == 0)
            break;
        for (ssize_t at = 0; at < n && st == NB_OK;) {
            ssize_t k = write(STDOUT_FILENO, buf + at, (size_t)(n - at));
            if (k < 0 && errno != EINTR)
                st = nbi_fail_errno(err, "write error", "(standard output)");
            else if (k > 0)
                at += k;
        }
    }
    nbb_tempfile_finish(&t, NB_OK, err);
    return st;
}

nb_status nbb_sqlite_write(const nb_bundle *b, const char *path, nb_err *err)
{
    return nbb_sqlite_write_progress(b, path, NULL, NULL, err);
}

nb_status nbb_sqlite_write_progress(const nb_bundle *b, const char *path, nbb_progress_fn progress,
                                    void *arg, nb_err *err)
{
    if (strcmp(path, "-") == 0)
        return write_stdout(b, progress, arg, err);
    nbb_tempfile t;
    nb_status st = nbb_tempfile_create(&t, path, err);
    if (st != NB_OK)
        return st;
    st = write_db(b, t.tmp, path, progress, arg, err);
    return nbb_tempfile_finish(&t, st, err);
}
