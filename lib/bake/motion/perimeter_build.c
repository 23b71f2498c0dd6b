/* perimeter_build.c: mkperim's work.  The exact cost-to-goal of every
 * state near a goal on an empty map, by a backward Dijkstra search from
 * the goal state, stored in one of the paper's four layouts
 * (formats/motion.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "bake_int.h"
#include "core/heap.h"
#include "motion/perimeter.h"

/* A backward search over the states within rb cells of the goal.  A
 * window state's value is exact unless its cheapest way to the goal
 * leaves the area; such a way costs at least d(q) + c for a settled state
 * q that a state p beyond the area reaches by an action of cost c (take
 * the state beyond the area nearest the goal on the way).  So when the
 * largest window value is at most the least such d(q) + c, every window
 * value is exact; otherwise the search is redone over a larger area. */
struct nbb_pvalues {
    const nb_model *m;
    long r, rb;
    unsigned wb, sh;
    unsigned gh, gl; /* the goal of the last search */
    size_t n;
    double *dist;
    uint32_t *pos;
    nbi_heap heap;
};
typedef struct nbb_pvalues back;

static void back_release(back *b)
{
    nbb_free(b->dist);
    nbb_free(b->pos);
    nbi_heap_free(&b->heap);
    b->dist = NULL;
    b->pos = NULL;
}

static nb_status back_alloc(back *b, long rb, nb_err *err)
{
    back_release(b);
    b->rb = rb;
    b->wb = (unsigned)(2 * rb + 1);
    b->sh = b->m->nheadings * b->m->nspeeds;
    b->n = (size_t)b->wb * b->wb * b->sh;
    if (b->n > UINT32_MAX - 1)
        return nbi_fail(err, NB_ERR_LIMIT, "perimeter search of %zu states is too large", b->n);
    b->dist = nbb_malloc(b->n * sizeof *b->dist);
    b->pos = nbb_malloc(b->n * sizeof *b->pos);
    if (!b->dist || !b->pos || !nbi_heap_init(&b->heap, nbb_mem(), 1024, b->pos)) {
        back_release(b);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter search of %zu states", b->n);
    }
    return NB_OK;
}

static size_t back_id(const back *b, long x, long y, unsigned h, unsigned l)
{
    return ((size_t)(y + b->rb) * b->wb + (size_t)(x + b->rb)) * b->sh + l * b->m->nheadings + h;
}

/* In the goal set of (gh, gl): NBI_PERIM_ANY for any heading or speed. */
static int is_goal(long x, long y, unsigned h, unsigned l, unsigned gh, unsigned gl)
{
    return x == 0 && y == 0 && (gh == NBI_PERIM_ANY || h == gh) && (gl == NBI_PERIM_ANY || l == gl);
}

/* Returns 1 when the window's values are exact, 0 when the area must grow,
 * -1 when out of memory.  The search starts from every goal state at once. */
static int back_run(back *b, unsigned gh, unsigned gl)
{
    const nb_model *m = b->m;
    unsigned H = m->nheadings;
    long w = 2 * b->r + 1;
    size_t need = (size_t)w * w * b->sh, settled = 0;
    double cmax = 0, touched = INFINITY, away = (double)(b->rb + 1 - b->r) / m->vmax;
    for (size_t i = 0; i < b->n; i++) {
        b->dist[i] = INFINITY;
        b->pos[i] = NBI_HEAP_NONE;
    }
    nbi_heap_clear(&b->heap);
    for (unsigned l = 0; l < m->nspeeds; l++)
        for (unsigned h = 0; h < H; h++)
            if (is_goal(0, 0, h, l, gh, gl)) {
                size_t g = back_id(b, 0, 0, h, l);
                b->dist[g] = 0;
                if (!nbi_heap_push(&b->heap, 0, 0, (uint32_t)g))
                    return -1;
            }
    while (!nbi_heap_empty(&b->heap) && settled < need) {
        nbi_heap_item it = nbi_heap_pop(&b->heap);
        size_t id = it.id, cell = id / b->sh;
        unsigned st = (unsigned)(id % b->sh), l = st / H, h = st % H;
        long x = (long)(cell % b->wb) - b->rb, y = (long)(cell / b->wb) - b->rb;
        double d = b->dist[id];
        if (labs(x) <= b->r && labs(y) <= b->r) {
            settled++;
            cmax = d;
        }
        /* Predecessors: states that reach (x, y, h, l) by one action, which
         * chose speed l, turned by t onto h and stepped (when l moves). */
        int dir = nbi_model_dir(m, l);
        long px = x - dir * m->dx[h], py = y - dir * m->dy[h];
        if (labs(px) > b->rb || labs(py) > b->rb) {
            if (d + nbi_model_cost(m, h, l, 0) + away < touched)
                touched = d + nbi_model_cost(m, h, l, 0) + away;
            continue;
        }
        int tl = (int)m->turn[l];
        for (int t = -tl; t <= tl; t++) {
            unsigned hp = (unsigned)(((int)h - t) % (int)H + (int)H) % H;
            double c = nbi_model_cost(m, h, l, t);
            for (unsigned lp = nbi_model_lo(m, l); lp <= nbi_model_hi(m, l); lp++) {
                if (dir == 0 && hp == h && lp == l)
                    continue;
                size_t pid = back_id(b, px, py, hp, lp);
                if (d + c < b->dist[pid]) {
                    b->dist[pid] = d + c;
                    if (!nbi_heap_push(&b->heap, d + c, 0, (uint32_t)pid))
                        return -1;
                }
            }
        }
    }
    if (settled < need)
        cmax = INFINITY;
    return cmax <= touched;
}

nb_status nbb_pvalues_new(const nb_model *m, unsigned radius, nbb_pvalues **out, nb_err *err)
{
    back *b = nbb_calloc(1, sizeof *b);
    *out = NULL;
    if (!b)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter search");
    b->m = m;
    b->r = radius;
    nb_status st = back_alloc(b, (long)radius + 4, err);
    if (st != NB_OK) {
        nbb_free(b);
        return st;
    }
    *out = b;
    return NB_OK;
}

void nbb_pvalues_free(nbb_pvalues *b)
{
    if (b) {
        back_release(b);
        nbb_free(b);
    }
}

unsigned nbb_pvalues_margin(const nbb_pvalues *b) { return (unsigned)(b->rb - b->r); }

/* Runs the search for one goal, growing the area until the window's
 * values are exact. */
nb_status nbb_pvalues_goal(nbb_pvalues *b, unsigned gh, unsigned gl, nb_err *err)
{
    b->gh = gh;
    b->gl = gl;
    for (;;) {
        int r = back_run(b, gh, gl);
        if (r < 0)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for the perimeter search's queue");
        if (r > 0)
            return NB_OK;
        long grown = b->rb + (b->rb - b->r > 4 ? b->rb - b->r : 4);
        if (grown > 8 * b->r + 16 * NB_MODEL_MAX_OFFSET)
            return nbi_fail(err, NB_ERR_LIMIT,
                            "model %s: the cheapest ways to a goal wander beyond %ld cells; the model "
                            "may not be able to reach some states", b->m->name, b->rb);
        nb_status st = back_alloc(b, grown, err);
        if (st != NB_OK)
            return st;
    }
}

double nbb_pvalues_get(const nbb_pvalues *b, const uint8_t *cls, long x, long y, unsigned h,
                       unsigned k)
{
    /* A class's levels share one value, except the goal states (0,
     * answered before any look-up). */
    for (unsigned l = 0; l < b->m->nspeeds; l++)
        if (cls[l] == k && !is_goal(x, y, h, l, b->gh, b->gl))
            return b->dist[back_id(b, x, y, h, l)];
    return 0;
}

uint32_t nbb_perimeter_entry(double v, unsigned bits, uint32_t scale)
{
    if (bits == 16)
        /* Rounded down, so the table stays a lower bound. */
        return isfinite(v) ? (uint16_t)floor(v * scale) : NBI_PERIM_UNREACHABLE16;
    float f = (float)v;
    if ((double)f > v)
        f = nextafterf(f, 0);
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

nb_status nbb_perimeter_encode(const nb_model *m, const nbb_perimeter_opts *o, uint8_t **out,
                               size_t *len, nbb_perimeter_info *info, nb_err *err)
{
    unsigned H = m->nheadings, S = m->nspeeds;
    *out = NULL;
    *len = 0;
    if (o->radius < 1 || o->radius > NBI_PERIM_MAX_RADIUS)
        return nbi_fail(err, NB_ERR_ARG, "perimeter radius %u, expected 1 to %d", o->radius,
                        NBI_PERIM_MAX_RADIUS);
    if (o->entry_bits != 16 && o->entry_bits != 32)
        return nbi_fail(err, NB_ERR_ARG, "perimeter entries of %u bits, expected 16 or 32",
                        o->entry_bits);
    unsigned sym = nbi_perimeter_symmetries(m, o->layout, o->paper);
    nbi_ptable *tabs = nbb_malloc(((size_t)H * S + 2) * sizeof *tabs);
    if (!tabs)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    unsigned ntabs;
    nb_status st = nbi_perimeter_goals(m, o->layout, sym, tabs, &ntabs, err);
    if (st != NB_OK) {
        nbb_free(tabs);
        return st;
    }
    uint8_t cls[NB_MODEL_MAX_SPEEDS], krev[NB_MODEL_MAX_SPEEDS];
    unsigned K = nbi_perimeter_classes(m, sym, cls, krev);
    nbi_pgeom geom[8];
    unsigned ngeom = 0;
    memset(geom, 0, sizeof geom);
    uint32_t *first = nbb_malloc(ntabs * sizeof *first);
    uint8_t *tg = nbb_malloc(ntabs);
    uint64_t total = 0;
    if (!first || !tg)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    for (unsigned t = 0; t < ntabs && st == NB_OK; t++) {
        unsigned gi;
        if ((st = nbi_pgeom_find(geom, &ngeom, 8, NULL, o->radius, H, K, krev, tabs[t].group, &gi,
                                 err)) != NB_OK)
            break;
        tg[t] = (uint8_t)gi;
        first[t] = (uint32_t)total;
        total += nbi_pgeom_size(&geom[gi]);
    }
    double *vals = NULL;
    back *b = NULL;
    if (st == NB_OK && (!first || total > UINT32_MAX ||
                        !(vals = nbb_malloc((size_t)total * sizeof *vals))))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %llu perimeter entries",
                      (unsigned long long)total);
    if (st == NB_OK)
        st = nbb_pvalues_new(m, o->radius, &b, err);
    long R = (long)o->radius;
    double maxv = 0;
    for (unsigned t = 0; t < ntabs && st == NB_OK; t++) {
        unsigned gh = tabs[t].goal_heading, gl = tabs[t].goal_speed;
        const nbi_pgeom *g = &geom[tg[t]];
        if ((st = nbb_pvalues_goal(b, gh, gl, err)) != NB_OK)
            break;
        for (long y = -R; y <= R; y++)
            for (long x = -R; x <= R; x++)
                for (unsigned k = 0; k < K; k++)
                    for (unsigned h = 0; h < H; h++) {
                        if (!nbi_pgeom_stored(g, x, y, h, k))
                            continue;
                        double v = nbb_pvalues_get(b, cls, x, y, h, k);
                        vals[first[t] + nbi_pgeom_index(g, x, y, h, k)] = v;
                        if (isfinite(v) && v > maxv)
                            maxv = v;
                    }
        if (o->progress)
            o->progress(o->ctx, t + 1, ntabs);
    }
    uint32_t scale = 0;
    if (st == NB_OK && o->entry_bits == 16) {
        if (maxv >= 65534)
            st = nbi_fail(err, NB_ERR_LIMIT,
                          "model %s: costs up to %g do not fit 16-bit entries; use 32-bit entries",
                          m->name, maxv);
        scale = 1;
        while (scale < (1u << 20) && 2.0 * scale * maxv <= 65534)
            scale *= 2;
    }
    size_t esize = o->entry_bits / 8;
    size_t off = NBI_PERIM_HEADER + (size_t)ntabs * NBI_PERIM_TABLE_RECORD;
    size_t plen = off + (size_t)total * esize;
    uint8_t *p = st == NB_OK ? nbb_calloc(1, plen) : NULL;
    if (st == NB_OK && !p)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %zu-byte perimeter section", plen);
    if (st == NB_OK) {
        nbi_put32(p + NBI_PERIM_RADIUS, o->radius);
        nbi_put32(p + NBI_PERIM_LAYOUT, (uint32_t)o->layout);
        nbi_put32(p + NBI_PERIM_BITS, o->entry_bits);
        nbi_put32(p + NBI_PERIM_SYM, sym);
        nbi_put32(p + NBI_PERIM_H, H);
        nbi_put32(p + NBI_PERIM_S, S);
        nbi_put32(p + NBI_PERIM_K, K);
        nbi_put32(p + NBI_PERIM_TABLES, ntabs);
        nbi_put32(p + NBI_PERIM_ENTRIES, (uint32_t)total);
        nbi_put32(p + NBI_PERIM_SCALE, scale);
        nbi_put32(p + NBI_PERIM_CRC, m->crc);
        memcpy(p + NBI_PERIM_CLASSES, cls, NB_MODEL_MAX_SPEEDS);
        for (unsigned t = 0; t < ntabs; t++) {
            uint8_t *r = p + NBI_PERIM_HEADER + (size_t)t * NBI_PERIM_TABLE_RECORD;
            nbi_put32(r + NBI_PERIM_T_HEADING, tabs[t].goal_heading);
            nbi_put32(r + NBI_PERIM_T_SPEED, tabs[t].goal_speed);
            nbi_put32(r + NBI_PERIM_T_GROUP, tabs[t].group);
            nbi_put32(r + NBI_PERIM_T_FIRST, first[t]);
        }
        for (uint64_t i = 0; i < total; i++) {
            uint32_t e = nbb_perimeter_entry(vals[i], o->entry_bits, scale);
            if (o->entry_bits == 16)
                nbi_put16(p + off + 2 * i, (uint16_t)e);
            else
                nbi_put32(p + off + 4 * i, e);
        }
        *out = p;
        *len = plen;
        if (info) {
            memset(info, 0, sizeof *info);
            info->tables = ntabs;
            info->any_tables = sym & NBI_SYM_ANY ? 2 : 0;
            info->entries = total;
            info->table_bytes = total * esize;
            info->payload = plen;
            info->stored = plen;
            info->margin = nbb_pvalues_margin(b);
            info->max_value = maxv;
        }
    }
    nbb_pvalues_free(b);
    for (int i = 0; i < 8; i++)
        nbi_pgeom_free(&geom[i]);
    nbb_free(vals);
    nbb_free(first);
    nbb_free(tg);
    nbb_free(tabs);
    return st;
}

nb_status nbb_put_perimeter(nbb_builder *bl, const nb_model *m, const nbb_perimeter_opts *o,
                            nbb_perimeter_info *info, nb_err *err)
{
    uint8_t *p;
    size_t len;
    nbb_perimeter_info local;
    if (!info)
        info = &local;
    nb_status st = nbb_perimeter_encode(m, o, &p, &len, info, err);
    if (st != NB_OK)
        return st;
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_PERIMETER;
    in.version = NBI_PERIM_VERSION;
    static const unsigned field[7] = {NBI_PERIM_RADIUS, NBI_PERIM_LAYOUT, NBI_PERIM_BITS, NBI_PERIM_SYM,
                                      NBI_PERIM_TABLES, NBI_PERIM_ENTRIES, NBI_PERIM_SCALE};
    for (int i = 0; i < 7; i++)
        in.param[i] = nbi_get32(p + field[i]);
    snprintf(in.name, sizeof in.name, "%s", m->name);
    if (o->compress) {
        uLongf zlen = compressBound((uLong)len);
        uint8_t *z = nbb_malloc(zlen);
        if (z && nbb_compress(z, &zlen, p, len, Z_BEST_COMPRESSION) == Z_OK)
            info->stored = zlen;
        nbb_free(z);
    }
    nbb_builder_remove_named(bl, NB_SEC_PERIMETER, m->name);
    st = nbb_builder_add(bl, &in, p, len, o->compress, err);
    nbb_free(p);
    return st;
}
