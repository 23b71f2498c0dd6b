/* perimeter.c: abstract perimeter heuristic tables (Sturtevant 2009):
 * where each entry is stored under each layout, and the lookups, goals at
 * any heading reached through the symmetries of the square, and the
 * extended heuristic beyond the table.  formats/motion.md is the spec. */
#include <math.h>
#include <stdlib.h>

#include "motion/perimeter.h"

/* ---- storage geometry ---- */

static void apply(const nbi_pgeom *g, unsigned code, long *x, long *y, unsigned *h, unsigned *k)
{
    if (code & 8) {
        *x = -*x;
        *y = -*y;
        *k = g->krev[*k];
    }
    nbi_d4_point(code & 7, *x, *y, x, y);
    *h = nbi_d4_heading(code & 7, *h, g->nheadings);
}

static uint32_t cell_of(const nbi_pgeom *g, long x, long y)
{
    return (uint32_t)((y + (long)g->radius) * (long)g->width + (x + (long)g->radius));
}

/* The pattern slot of a stab mask, made when new; -1 when out of memory. */
static int pattern(nbi_pgeom *g, uint16_t stab)
{
    for (unsigned i = 0; i < g->nstab; i++)
        if (g->stabs[i] == stab)
            return (int)i;
    size_t kh = (size_t)g->nclasses * g->nheadings;
    uint16_t *r = nbi_alloc_array(g->a, kh, sizeof *r);
    if (!r || g->nstab == 16) {
        nbi_free(g->a, r);
        return -1;
    }
    uint16_t n = 0;
    for (unsigned k = 0; k < g->nclasses; k++)
        for (unsigned h = 0; h < g->nheadings; h++) {
            unsigned s = k * g->nheadings + h, keep = 1;
            for (unsigned e = 1; e < g->nel; e++)
                if (stab & (1u << e)) {
                    long ex = 0, ey = 0;
                    unsigned eh = h, ek = k;
                    apply(g, g->el[e], &ex, &ey, &eh, &ek);
                    if (ek * g->nheadings + eh < s)
                        keep = 0;
                }
            r[s] = keep ? n++ : 0xffff;
        }
    g->stabs[g->nstab] = stab;
    g->rank[g->nstab] = r;
    g->count[g->nstab] = n;
    return (int)g->nstab++;
}

nb_status nbi_pgeom_init(nbi_pgeom *g, const nb_allocator *a, unsigned radius, unsigned nheadings,
                         unsigned nclasses, const uint8_t *krev, unsigned group, nb_err *err)
{
    memset(g, 0, sizeof *g);
    g->a = a;
    g->radius = radius;
    g->width = 2 * radius + 1;
    g->nheadings = nheadings;
    g->nclasses = nclasses;
    g->group = group;
    memcpy(g->krev, krev, NB_MODEL_MAX_SPEEDS);
    for (unsigned c = 0; c < 16; c++)
        if (group & (1u << c))
            g->el[g->nel++] = (uint8_t)c;
    size_t cells = (size_t)g->width * g->width;
    g->prefix = nbi_alloc_array(a, cells + 1, sizeof *g->prefix);
    g->stab = nbi_alloc_array(a, cells, sizeof *g->stab);
    if (g->nel == 0 || g->el[0] != 0) {
        nbi_pgeom_free(g);
        return nbi_fail(err, NB_ERR_FORMAT, "symmetry group %#x lacks the identity", group);
    }
    if (!g->prefix || !g->stab) {
        nbi_pgeom_free(g);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter table's index");
    }
    uint32_t at = 0;
    long R = (long)radius;
    for (long y = -R; y <= R; y++)
        for (long x = -R; x <= R; x++) {
            uint32_t c = cell_of(g, x, y);
            unsigned stab = 0, stored = 1;
            for (unsigned e = 1; e < g->nel; e++) {
                long ex = x, ey = y;
                unsigned eh = 0, ek = 0;
                apply(g, g->el[e], &ex, &ey, &eh, &ek);
                uint32_t ec = cell_of(g, ex, ey);
                if (ec < c)
                    stored = 0;
                else if (ec == c)
                    stab |= 1u << e;
            }
            g->prefix[c] = at;
            if (!stored) {
                g->stab[c] = 0xffff;
                continue;
            }
            g->stab[c] = (uint16_t)stab;
            if (!stab) {
                at += nclasses * nheadings;
                continue;
            }
            int i = pattern(g, (uint16_t)stab);
            if (i < 0) {
                nbi_pgeom_free(g);
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter table's index");
            }
            at += g->count[i];
        }
    g->prefix[cells] = at;
    return NB_OK;
}

void nbi_pgeom_free(nbi_pgeom *g)
{
    nbi_free(g->a, g->prefix);
    nbi_free(g->a, g->stab);
    for (unsigned i = 0; i < g->nstab; i++)
        nbi_free(g->a, g->rank[i]);
    memset(g, 0, sizeof *g);
}

nb_status nbi_pgeom_find(nbi_pgeom *geoms, unsigned *n, unsigned max, const nb_allocator *a,
                         unsigned radius, unsigned nheadings, unsigned nclasses,
                         const uint8_t *krev, unsigned group, unsigned *index, nb_err *err)
{
    for (unsigned i = 0; i < *n; i++)
        if (geoms[i].group == group) {
            *index = i;
            return NB_OK;
        }
    if (*n == max)
        return nbi_fail(err, NB_ERR_FORMAT, "more than %u symmetry groups in one perimeter section",
                        max);
    nb_status st = nbi_pgeom_init(&geoms[*n], a, radius, nheadings, nclasses, krev, group, err);
    if (st == NB_OK)
        *index = (*n)++;
    return st;
}

/* The smallest image of (x, y, h, k): its cell and state. */
static void canonical(const nbi_pgeom *g, long x, long y, unsigned h, unsigned k, uint32_t *cell,
                      uint32_t *state)
{
    uint32_t bc = cell_of(g, x, y), bs = k * g->nheadings + h;
    for (unsigned e = 1; e < g->nel; e++) {
        long ex = x, ey = y;
        unsigned eh = h, ek = k;
        apply(g, g->el[e], &ex, &ey, &eh, &ek);
        uint32_t c = cell_of(g, ex, ey), s = ek * g->nheadings + eh;
        if (c < bc || (c == bc && s < bs)) {
            bc = c;
            bs = s;
        }
    }
    *cell = bc;
    *state = bs;
}

uint32_t nbi_pgeom_index(const nbi_pgeom *g, long x, long y, unsigned h, unsigned k)
{
    uint32_t c, s;
    canonical(g, x, y, h, k, &c, &s);
    unsigned st = g->stab[c], i = 0;
    if (!st)
        return g->prefix[c] + s;
    while (g->stabs[i] != st)
        i++;
    return g->prefix[c] + g->rank[i][s];
}

int nbi_pgeom_stored(const nbi_pgeom *g, long x, long y, unsigned h, unsigned k)
{
    uint32_t c, s;
    canonical(g, x, y, h, k, &c, &s);
    return c == cell_of(g, x, y) && s == k * g->nheadings + h;
}

/* ---- which goals have tables ---- */

unsigned nbi_perimeter_symmetries(const nb_model *m, int layout, int paper)
{
    unsigned sym = 0;
    if (layout == NB_PERIM_SYMMETRIC || layout == NB_PERIM_ROTATED) {
        sym = NBI_SYM_D4;
        if (!paper && m->reverse)
            sym |= NBI_SYM_REVERSE;
        if (!paper && m->nclasses < m->nspeeds)
            sym |= NBI_SYM_CLASSES;
    }
    if (!paper && m->d4)
        sym |= NBI_SYM_ANY;
    return sym;
}

unsigned nbi_perimeter_classes(const nb_model *m, unsigned sym, uint8_t *cls, uint8_t *krev)
{
    unsigned S = m->nspeeds;
    memset(cls, 0, NB_MODEL_MAX_SPEEDS);
    memset(krev, 0, NB_MODEL_MAX_SPEEDS);
    if (sym & NBI_SYM_CLASSES) {
        for (unsigned l = 0; l < S; l++)
            cls[l] = m->speed_class[l];
        for (unsigned k = 0; k < m->nclasses; k++)
            krev[k] = m->speed_class[S - 1 - m->class_first[k]];
        return m->nclasses;
    }
    for (unsigned l = 0; l < S; l++) {
        cls[l] = (uint8_t)l;
        krev[l] = (uint8_t)(S - 1 - l);
    }
    return S;
}

nb_status nbi_perimeter_goals(const nb_model *m, int layout, unsigned sym, nbi_ptable *tabs,
                              unsigned *ntabs, nb_err *err)
{
    unsigned H = m->nheadings, S = m->nspeeds, n = 0;
    int rev = (sym & NBI_SYM_REVERSE) != 0;
    if ((layout == NB_PERIM_SYMMETRIC || layout == NB_PERIM_ROTATED) && !m->d4)
        return nbi_fail(err, NB_ERR_UNSUPPORTED,
                        "model %s is not symmetric under quarter turns and reflections (its offsets "
                        "do not map onto each other), so the %s layout cannot serve it; use full or "
                        "speed-limited", m->name, nb_perimeter_layout_name(layout));
    switch (layout) {
    case NB_PERIM_FULL:
        for (unsigned l = 0; l < S; l++)
            for (unsigned h = 0; h < H; h++)
                tabs[n++] = (nbi_ptable){h, l, NBI_G_IDENTITY};
        break;
    case NB_PERIM_SPEED_LIMITED:
        for (unsigned h = 0; h < H; h++)
            tabs[n++] = (nbi_ptable){h, m->stop, NBI_G_IDENTITY};
        break;
    case NB_PERIM_SYMMETRIC: {
        uint8_t seen[NB_MODEL_MAX_HEADINGS] = {0};
        for (unsigned h = 0; h < H; h++) {
            if (seen[h])
                continue;
            /* The elements that fix the goal heading (the identity, and a
             * mirror for headings 0 and H/8) are the table's group. */
            unsigned group = 0;
            for (unsigned e = 0; e < 8; e++) {
                unsigned o = nbi_d4_heading(e, h, H);
                seen[o] = 1;
                if (o == h)
                    group |= 1u << e;
            }
            tabs[n++] = (nbi_ptable){h, m->stop, rev ? nbi_g_with_reverse(group) : group};
        }
        break;
    }
    case NB_PERIM_ROTATED:
        tabs[n++] = (nbi_ptable){0, m->stop, rev ? nbi_g_with_reverse(NBI_G_MIRROR_AXIS) : NBI_G_MIRROR_AXIS};
        break;
    default:
        return nbi_fail(err, NB_ERR_ARG, "unknown perimeter layout %d", layout);
    }
    if (sym & NBI_SYM_ANY) {
        unsigned g = rev ? nbi_g_with_reverse(NBI_G_SQUARE) : NBI_G_SQUARE;
        tabs[n++] = (nbi_ptable){NBI_PERIM_ANY, m->stop, g};
        tabs[n++] = (nbi_ptable){NBI_PERIM_ANY, NBI_PERIM_ANY, g};
    }
    *ntabs = n;
    return NB_OK;
}

const char *nb_perimeter_layout_name(nb_perimeter_layout layout)
{
    switch (layout) {
    case NB_PERIM_FULL: return "full";
    case NB_PERIM_SPEED_LIMITED: return "speed-limited";
    case NB_PERIM_SYMMETRIC: return "symmetric";
    case NB_PERIM_ROTATED: return "rotated";
    }
    return NULL;
}

/* ---- an open table ---- */

struct nb_perimeter {
    const nb_model *model;
    const nb_allocator *a;
    unsigned radius, layout, bits, sym, H, S, K, ntabs;
    double inv_scale;
    uint8_t cls[NB_MODEL_MAX_SPEEDS];
    const uint8_t *entries;
    nbi_ptable *tabs;
    uint32_t *first;
    uint8_t *tgeom;   /* per table: its geometry in geom[] */
    nbi_pgeom geom[8];
    unsigned ngeom;
    int16_t goal_table[NB_MODEL_MAX_HEADINGS]; /* symmetric: the table of a goal heading */
    uint8_t goal_el[NB_MODEL_MAX_HEADINGS];    /* and the D4 element taking it there */
};

void nb_perimeter_close(nb_perimeter *p)
{
    if (!p)
        return;
    for (int i = 0; i < 8; i++)
        nbi_pgeom_free(&p->geom[i]);
    nbi_free(p->a, p->tabs);
    nbi_free(p->a, p->first);
    nbi_free(p->a, p->tgeom);
    nbi_free(p->a, p);
}

nb_status nb_perimeter_open(const nb_bundle *b, const nb_model *m, nb_perimeter **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_perimeter_open: no place for the table");
    *out = NULL;
    long i = nbi_section_index(b, NB_SEC_PERIMETER, m->name, NULL, 0);
    if (i < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no perimeter table for model '%s' (bake one with mkperim)",
                        b->path, m->name);
    const struct nbi_section *s = &b->sections[i];
    const uint8_t *q = s->payload;
    size_t len = (size_t)s->info.usize;
    if (s->info.version != NBI_PERIM_VERSION)
        return nbi_fail(err, NB_ERR_VERSION, "%s: perimeter section '%s' version %u, this reader knows %d",
                        b->path, m->name, s->info.version, NBI_PERIM_VERSION);
    nb_status st = NB_ERR_FORMAT;
#define BAD(...) do { st = nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__); goto fail; } while (0)
    nb_perimeter *p = nbi_zalloc_array(b->a, 1, sizeof *p);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter table");
    p->a = b->a;
    if (len < NBI_PERIM_HEADER)
        BAD("%s: perimeter section '%s': %zu bytes, shorter than its header", b->path, m->name, len);
    p->model = m;
    p->radius = nbi_get32(q + NBI_PERIM_RADIUS);
    p->layout = nbi_get32(q + NBI_PERIM_LAYOUT);
    p->bits = nbi_get32(q + NBI_PERIM_BITS);
    p->sym = nbi_get32(q + NBI_PERIM_SYM);
    p->H = nbi_get32(q + NBI_PERIM_H);
    p->S = nbi_get32(q + NBI_PERIM_S);
    p->K = nbi_get32(q + NBI_PERIM_K);
    p->ntabs = nbi_get32(q + NBI_PERIM_TABLES);
    uint32_t nentries = nbi_get32(q + NBI_PERIM_ENTRIES), scale = nbi_get32(q + NBI_PERIM_SCALE),
             crc = nbi_get32(q + NBI_PERIM_CRC);
    if (crc != m->crc || p->H != m->nheadings || p->S != m->nspeeds)
        BAD("%s: perimeter table '%s' was built from another definition of the model (rebuild it "
            "with mkperim)", b->path, m->name);
    if (p->radius < 1 || p->radius > NBI_PERIM_MAX_RADIUS || p->layout > NB_PERIM_ROTATED ||
        (p->bits != 16 && p->bits != 32) || (p->bits == 16 && scale == 0) ||
        (p->bits == 32 && scale != 0) || p->sym > 15 || nbi_get32(q + NBI_PERIM_ZERO) != 0)
        BAD("%s: perimeter section '%s': bad header (radius %u, layout %u, %u-bit entries)", b->path,
            m->name, p->radius, p->layout, p->bits);
    uint8_t krev[NB_MODEL_MAX_SPEEDS];
    unsigned K = nbi_perimeter_classes(m, p->sym, p->cls, krev);
    if (K != p->K || memcmp(q + NBI_PERIM_CLASSES, p->cls, NB_MODEL_MAX_SPEEDS) != 0 ||
        p->sym != nbi_perimeter_symmetries(m, (int)p->layout, !(p->sym & ~NBI_SYM_D4)) ||
        ((p->sym & NBI_SYM_REVERSE) && !m->reverse))
        BAD("%s: perimeter section '%s': its speed classes or symmetries do not fit the model",
            b->path, m->name);
    size_t maxt = (size_t)m->nheadings * m->nspeeds + 2;
    p->tabs = nbi_alloc_array(p->a, maxt, sizeof *p->tabs);
    p->first = nbi_alloc_array(p->a, maxt, sizeof *p->first);
    p->tgeom = nbi_alloc(p->a, maxt);
    if (!p->tabs || !p->first || !p->tgeom) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a perimeter table");
        goto fail;
    }
    unsigned n;
    if ((st = nbi_perimeter_goals(m, (int)p->layout, p->sym, p->tabs, &n, err)) != NB_OK)
        goto fail;
    if (n != p->ntabs || len < NBI_PERIM_HEADER + (size_t)n * NBI_PERIM_TABLE_RECORD)
        BAD("%s: perimeter section '%s': %u tables, the %s layout has %u", b->path, m->name, p->ntabs,
            nb_perimeter_layout_name((nb_perimeter_layout)p->layout), n);
    uint64_t at = 0;
    for (unsigned t = 0; t < n; t++) {
        const uint8_t *r = q + NBI_PERIM_HEADER + (size_t)t * NBI_PERIM_TABLE_RECORD;
        unsigned grp = p->tabs[t].group;
        if (nbi_get32(r + NBI_PERIM_T_HEADING) != p->tabs[t].goal_heading ||
            nbi_get32(r + NBI_PERIM_T_SPEED) != p->tabs[t].goal_speed ||
            nbi_get32(r + NBI_PERIM_T_GROUP) != grp || nbi_get32(r + NBI_PERIM_T_FIRST) != at)
            BAD("%s: perimeter section '%s': table %u's record does not match its layout", b->path,
                m->name, t);
        unsigned gi;
        if ((st = nbi_pgeom_find(p->geom, &p->ngeom, 8, p->a, p->radius, p->H, K, krev, grp, &gi,
                                 err)) != NB_OK)
            goto fail;
        p->tgeom[t] = (uint8_t)gi;
        p->first[t] = (uint32_t)at;
        at += nbi_pgeom_size(&p->geom[gi]);
    }
    size_t esize = p->bits / 8, off = NBI_PERIM_HEADER + (size_t)n * NBI_PERIM_TABLE_RECORD;
    if (at != nentries || len != off + (size_t)at * esize)
        BAD("%s: perimeter section '%s': %zu bytes, its tables need %zu", b->path, m->name, len,
            off + (size_t)at * esize);
    p->entries = q + off;
    p->inv_scale = p->bits == 16 ? 1.0 / scale : 1.0;
    if (p->layout == NB_PERIM_SYMMETRIC)
        for (unsigned h = 0; h < p->H; h++)
            for (unsigned t = 0; t < n; t++)
                for (unsigned e = 0; e < 8; e++)
                    if (nbi_d4_heading(e, h, p->H) == p->tabs[t].goal_heading) {
                        p->goal_table[h] = (int16_t)t;
                        p->goal_el[h] = (uint8_t)e;
                        t = n;
                        break;
                    }
#undef BAD
    *out = p;
    nbi_ok(err);
    return NB_OK;
fail:
    nb_perimeter_close(p);
    return st;
}

nb_status nbi_perimeter_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    const char *name = b->sections[index].info.name;
    if (nbi_section_index(b, NB_SEC_MODEL, name, NULL, 0) < 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (perimeter): the table of model '%s', which the bundle "
                        "does not hold", b->path, index, name);
    nb_model *m;
    nb_perimeter *p = NULL;
    nb_status st = nb_model_open(b, name, &m, err);
    if (st == NB_OK)
        st = nb_perimeter_open(b, m, &p, err);
    nb_perimeter_close(p);
    nb_model_close(m);
    return st;
}

unsigned nb_perimeter_radius(const nb_perimeter *p) { return p->radius; }
int nbi_perimeter_has_any(const nb_perimeter *p) { return (p->sym & NBI_SYM_ANY) != 0; }
nb_perimeter_layout nb_perimeter_layout_of(const nb_perimeter *p)
{
    return (nb_perimeter_layout)p->layout;
}

static double entry(const nb_perimeter *p, uint32_t i)
{
    if (p->bits == 16) {
        uint16_t e = nbi_get16(p->entries + 2 * (size_t)i);
        return e == NBI_PERIM_UNREACHABLE16 ? INFINITY : e * p->inv_scale;
    }
    uint32_t u = nbi_get32(p->entries + 4 * (size_t)i);
    float f;
    memcpy(&f, &u, 4);
    /* A stored NaN or negative cost would turn the search's order into
     * nonsense; 0 is a lower bound of every cost, so it is what they read as. */
    return f >= 0 ? f : 0;
}

static double from_table(const nb_perimeter *p, unsigned t, long x, long y, unsigned h, unsigned l)
{
    const nbi_pgeom *g = &p->geom[p->tgeom[t]];
    return entry(p, p->first[t] + nbi_pgeom_index(g, x, y, h, p->cls[l]));
}

/* A goal at any heading, stopped or at any speed (passing through the
 * cell): the table made for it, or else the least over the goal states. */
static int lookup_any(const nb_perimeter *p, const nb_motion_state *s, const nb_motion_state *g,
                      double *value)
{
    long x = (long)s->x - g->x, y = (long)s->y - g->y, R = (long)p->radius;
    unsigned stop = p->model->stop, pass = g->speed == NB_SPEED_ANY;
    *value = 0;
    if (s->heading >= p->H || s->speed >= p->S || (g->speed != stop && !pass) || x < -R || x > R ||
        y < -R || y > R)
        return NB_PERIM_OUTSIDE;
    if (x == 0 && y == 0 && (pass || s->speed == stop))
        return NB_PERIM_EXACT;
    if (p->sym & NBI_SYM_ANY) {
        *value = from_table(p, p->ntabs - 2 + pass, x, y, s->heading, s->speed);
        return NB_PERIM_EXACT;
    }
    int res = NB_PERIM_EXACT;
    nb_motion_state one = *g;
    *value = INFINITY;
    for (unsigned l = pass ? 0 : stop; l < (pass ? p->S : stop + 1); l++)
        for (unsigned h = 0; h < p->H; h++) {
            double v;
            one.heading = (uint16_t)h;
            one.speed = (uint16_t)l;
            int r = nb_perimeter_lookup(p, s, &one, &v);
            if (r == NB_PERIM_OUTSIDE)
                return r;
            if (r == NB_PERIM_APPROX)
                res = r;
            if (v < *value)
                *value = v;
        }
    return res;
}

int nb_perimeter_lookup(const nb_perimeter *p, const nb_motion_state *s, const nb_motion_state *g,
                        double *value)
{
    unsigned H = p->H, q = H / 4, stop = p->model->stop;
    long x = (long)s->x - g->x, y = (long)s->y - g->y, R = (long)p->radius;
    unsigned h = s->heading, gh = g->heading;
    *value = 0;
    if (gh == NB_HEADING_ANY)
        return lookup_any(p, s, g, value);
    if (g->speed == NB_SPEED_ANY)
        return NB_PERIM_OUTSIDE;
    if (h >= H || gh >= H || s->speed >= p->S || g->speed >= p->S || x < -R || x > R || y < -R ||
        y > R)
        return NB_PERIM_OUTSIDE;
    if (x == 0 && y == 0 && h == gh && s->speed == g->speed)
        return NB_PERIM_EXACT;
    if (p->layout == NB_PERIM_FULL) {
        *value = from_table(p, g->speed * H + gh, x, y, h, s->speed);
        return NB_PERIM_EXACT;
    }
    if (g->speed != stop)
        return NB_PERIM_OUTSIDE;
    if (p->layout == NB_PERIM_SPEED_LIMITED) {
        *value = from_table(p, gh, x, y, h, s->speed);
        return NB_PERIM_EXACT;
    }
    if (p->layout == NB_PERIM_SYMMETRIC || gh % q == 0) {
        unsigned t = 0, e = (4 - gh / q) % 4;
        if (p->layout == NB_PERIM_SYMMETRIC) {
            t = (unsigned)p->goal_table[gh];
            e = p->goal_el[gh];
        }
        nbi_d4_point(e, x, y, &x, &y);
        *value = from_table(p, t, x, y, nbi_d4_heading(e, h, H), s->speed);
        return NB_PERIM_EXACT;
    }
    /* The rotated layout for a goal between quarter turns: turn the world
     * so that the goal faces heading 0, as the paper does, and round to
     * the nearest cell.  Not exact: headings are not evenly spaced and
     * cells do not rotate onto cells. */
    unsigned r0 = (unsigned)((gh + q / 2) / q) % 4;
    int res = (int)gh - (int)(r0 * q);
    if (res > (int)H / 2)
        res -= (int)H;
    unsigned e = (4 - r0) % 4;
    nbi_d4_point(e, x, y, &x, &y);
    double a = res * 2 * M_PI / H, c = cos(a), sn = sin(a);
    long rx = lround(x * c + y * sn), ry = lround(-x * sn + y * c);
    if (rx < -R || rx > R || ry < -R || ry > R)
        return NB_PERIM_OUTSIDE;
    unsigned rh = (h + H - gh) % H;
    if (rx == 0 && ry == 0 && rh == 0 && s->speed == stop)
        *value = 0;
    else
        *value = from_table(p, 0, rx, ry, rh, s->speed);
    return NB_PERIM_APPROX;
}

static long half_away(long v) { return v >= 0 ? (v + 1) / 2 : -((-v + 1) / 2); }

int nb_perimeter_extended(const nb_perimeter *p, const nb_motion_state *s, const nb_motion_state *g,
                          double *value)
{
    long x = (long)s->x - g->x, y = (long)s->y - g->y, R = (long)p->radius;
    long d = labs(x) > labs(y) ? labs(x) : labs(y);
    if (d <= R)
        return nb_perimeter_lookup(p, s, g, value);
    *value = 0;
    if (d > 2 * R)
        return NB_PERIM_OUTSIDE;
    nb_motion_state half = *s;
    half.x = (int32_t)(g->x + half_away(x));
    half.y = (int32_t)(g->y + half_away(y));
    double v;
    if (nb_perimeter_lookup(p, &half, g, &v) == NB_PERIM_OUTSIDE)
        return NB_PERIM_OUTSIDE;
    *value = p->model->ext_weight * v;
    return NB_PERIM_APPROX;
}
