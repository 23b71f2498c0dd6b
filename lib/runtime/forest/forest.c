/* forest.c: a forest of round obstacles at run time: opened from a
 * bundle's forest and bitangent sections (checked once here, then read in
 * place), or made by the program and changed at will.  The searches are
 * in forest_search.c; their paths are nb_segment arrays, sampled by
 * curve.c like every other path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "forest/forest.h"
#include "core/base.h"

static int circle_ok(const nb_circle *c)
{
    return isfinite(c->x) && isfinite(c->y) && isfinite(c->r) && c->r > 0 &&
           fabs(c->x) <= NB_FOREST_MAX_COORD && fabs(c->y) <= NB_FOREST_MAX_COORD &&
           c->r <= NB_FOREST_MAX_COORD;
}

static nb_status check_circle(const nb_circle *c, size_t i, nb_err *err)
{
    if (!circle_ok(c))
        return nbi_fail(err, NB_ERR_ARG,
                        "circle %zu (%g, %g) radius %g: expected finite coordinates within %g and a "
                        "radius greater than 0",
                        i, c->x, c->y, c->r, NB_FOREST_MAX_COORD);
    return NB_OK;
}

static int bounds_ok(const double *b)
{
    for (int i = 0; i < 4; i++)
        if (!isfinite(b[i]) || fabs(b[i]) > NB_FOREST_MAX_COORD)
            return 0;
    return b[0] < b[2] && b[1] < b[3];
}

nb_status nbi_forest_decode(const uint8_t *p, size_t len, const char *where, size_t *n,
                            int *has_bounds, double bounds[4], nb_err *err)
{
    if (len < NBI_FOREST_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: forest section of %zu bytes, shorter than its header",
                        where, len);
    uint32_t count = nbi_get32(p + NBI_FOREST_COUNT), flags = nbi_get32(p + NBI_FOREST_FLAGS);
    if (count > NB_FOREST_MAX_CIRCLES || len != NBI_FOREST_HEADER + (size_t)count * NBI_FOREST_CIRCLE)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: forest section claims %lu circles in %zu bytes (at most %d circles, "
                        "%d bytes each after a %d-byte header)",
                        where, (unsigned long)count, len, NB_FOREST_MAX_CIRCLES, NBI_FOREST_CIRCLE,
                        NBI_FOREST_HEADER);
    if (flags & ~NBI_FOREST_HAS_BOUNDS)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: forest section flags 0x%lx: unknown bits", where,
                        (unsigned long)flags);
    *has_bounds = (flags & NBI_FOREST_HAS_BOUNDS) != 0;
    for (int i = 0; i < 4; i++)
        bounds[i] = nbi_getf64(p + NBI_FOREST_BOUNDS + 8 * i);
    if (*has_bounds && !bounds_ok(bounds))
        return nbi_fail(err, NB_ERR_FORMAT, "%s: forest bounds [%g, %g] x [%g, %g] are not a box",
                        where, bounds[0], bounds[2], bounds[1], bounds[3]);
    *n = count;
    return NB_OK;
}

static nb_status check_graph(nbi_fgraph *g, const nb_forest *f, const uint8_t *p, size_t len,
                             uint32_t forest_crc, const char *where, nb_err *err)
{
#define BAD(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)
    size_t n = f->n;
    if (len < NBI_BITANGENT_HEADER)
        return BAD("%s: %zu bytes, shorter than the header", where, len);
    double radius = nbi_getf64(p + NBI_BT_RADIUS);
    uint32_t cn = nbi_get32(p + NBI_BT_CIRCLES), m = nbi_get32(p + NBI_BT_NODES),
             na = nbi_get32(p + NBI_BT_ARCS);
    if (!(isfinite(radius) && radius >= 0 && radius <= NB_FOREST_MAX_COORD))
        return BAD("%s: agent radius %g is not a number from 0 to %g", where, radius,
                   NB_FOREST_MAX_COORD);
    if (cn != n)
        return BAD("%s: baked for %lu circles, the forest has %zu", where, (unsigned long)cn, n);
    if (nbi_get32(p + NBI_BT_FOREST_CRC) != forest_crc)
        return BAD("%s: baked for another forest (its forest checksum %08lx is not the forest "
                   "section's %08lx); bake it again with mkabstract --forest",
                   where, (unsigned long)nbi_get32(p + NBI_BT_FOREST_CRC), (unsigned long)forest_crc);
    if (m % 2 || m > INT32_MAX || na > INT32_MAX ||
        len != NBI_BITANGENT_HEADER + (uint64_t)m * NBI_BITANGENT_NODE +
                   (uint64_t)na * NBI_BITANGENT_ARC + 8 * ((uint64_t)n + 1))
        return BAD("%s: %lu nodes and %lu free arcs for %zu circles do not make %zu bytes", where,
                   (unsigned long)m, (unsigned long)na, n, len);
    g->info.agent_radius = radius;
    g->info.nodes = m;
    g->info.transitions = m / 2;
    g->info.candidates = nbi_get32(p + NBI_BT_CANDIDATES);
    g->info.arcs = nbi_get64(p + NBI_BT_HUGGING);
    g->info.free_arcs = na;
    g->nodes = m;
    g->narcs = na;
    g->node = p + NBI_BITANGENT_HEADER;
    g->arc = g->node + (size_t)m * NBI_BITANGENT_NODE;
    g->first = g->arc + (size_t)na * NBI_BITANGENT_ARC;
    g->afirst = g->first + 4 * (n + 1);
    if (g->info.candidates < g->info.transitions)
        return BAD("%s: %lu transitions kept of %lu candidates", where,
                   (unsigned long)g->info.transitions, (unsigned long)g->info.candidates);
    if (nbi_get32(g->first) != 0 || nbi_get32(g->first + 4 * n) != m || nbi_get32(g->afirst) != 0 ||
        nbi_get32(g->afirst + 4 * n) != na)
        return BAD("%s: the per-circle tables do not cover the nodes and free arcs", where);
    for (size_t i = 0; i < n; i++) {
        uint32_t a = nbi_u32at(g->first, i), b = nbi_u32at(g->first, i + 1);
        uint32_t c = nbi_u32at(g->afirst, i), d = nbi_u32at(g->afirst, i + 1);
        if (a > b || c > d)
            return BAD("%s: circle %zu: its nodes or free arcs run backwards", where, i);
        /* Two circles have at most four bitangents: a query's expansion
         * on a circle hugs to each of its nodes, so this bounds its work
         * by the forest's size, whatever the graph says. */
        if (b - a > 4 * (uint64_t)(n - 1))
            return BAD("%s: circle %zu: %lu nodes, more than the 4 bitangents to each of the %zu "
                       "other circles make",
                       where, i, (unsigned long)(b - a), n - 1);
        /* Each other circle cuts at most one arc off a circle's rim. */
        if (d - c > (n > 1 ? n - 1 : 1))
            return BAD("%s: circle %zu: %lu free arcs, more than %zu circles can make", where, i,
                       (unsigned long)(d - c), n);
        for (uint32_t k = c; k < d; k++) {
            const uint8_t *r = g->arc + (size_t)k * NBI_BITANGENT_ARC;
            double s = nbi_getf64(r + NBI_BT_A_START), span = nbi_getf64(r + NBI_BT_A_SPAN);
            int whole = span == NBI_WHOLE_SPAN;
            if (!(s >= 0 && s < NBI_TWO_PI) || !((span >= 0 && span <= NBI_TWO_PI) || whole) ||
                (whole && d - c != 1))
                return BAD("%s: circle %zu: free arc %lu (%g, %g) is not an arc", where, i,
                           (unsigned long)k, s, span);
        }
        for (uint32_t k = a; k < b; k++) {
            const uint8_t *r = g->node + (size_t)k * NBI_BITANGENT_NODE;
            double x = nbi_getf64(r + NBI_BT_N_X), y = nbi_getf64(r + NBI_BT_N_Y);
            double ang = nbi_getf64(r + NBI_BT_N_ANGLE);
            uint32_t partner = nbi_get32(r + NBI_BT_N_PARTNER), cs = nbi_get32(r + NBI_BT_N_CIRCLE);
            if (!isfinite(x) || !isfinite(y) || !(fabs(ang) <= NBI_PI + 1e-9) || (cs >> 1) != i)
                return BAD("%s: node %lu is not a point of circle %zu", where, (unsigned long)k, i);
            if (partner >= m || partner == k ||
                nbi_get32(g->node + (size_t)partner * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER) != k ||
                nbi_get32(g->node + (size_t)partner * NBI_BITANGENT_NODE + NBI_BT_N_CIRCLE) >> 1 == i)
                return BAD("%s: node %lu: its bitangent's other end %lu is wrong", where,
                           (unsigned long)k, (unsigned long)partner);
        }
    }
    return NB_OK;
#undef BAD
}

void nb_forest_close(nb_forest *f)
{
    if (!f)
        return;
    for (unsigned i = 0; i < f->ngraphs; i++) {
        nbi_free(f->a, f->graph[i].infl);
        nbi_cgrid_free(&f->graph[i].grid);
    }
    nbi_free(f->a, f->graph);
    nbi_free(f->a, f->circles);
    nb_allocator copy = f->alloc; /* f->a may point into f */
    nbi_free(f->a == &f->alloc ? &copy : f->a, f);
}

static nb_status payload(const nb_bundle *b, size_t index, uint16_t version, const uint8_t **p,
                         size_t *len, nb_err *err)
{
    const nb_section_info *in = nb_bundle_section_get(b, index);
    if (in->version != version || NB_ENC_LAYOUT(in->encoding) != NB_ENC_RAW)
        return nbi_fail(err, NB_ERR_UNSUPPORTED,
                        "%s: section %zu (%s) has version %u, encoding %s; this library reads "
                        "version %u, raw",
                        b->path, index, nbi_type_name(b, in->type), in->version,
                        nb_encoding_name(in->encoding), version);
    const void *data;
    nb_status st = nb_bundle_payload(b, index, &data, len, err);
    *p = data;
    return st;
}

nb_status nb_forest_open(const nb_bundle *b, nb_forest **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_open: no place for the forest");
    *out = NULL;
    long fi = nbi_section_index(b, NB_SEC_FOREST, NULL, NULL, 0);
    if (fi < 0) {
        if (nbi_section_index(b, NB_SEC_BITANGENT, NULL, NULL, 0) >= 0)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: bitangent graphs without a forest section",
                            b->path);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: the bundle has no forest (bake one with mkabstract --forest)", b->path);
    }
    const uint8_t *p;
    size_t len, n;
    nb_status st = payload(b, (size_t)fi, NBI_FOREST_VERSION, &p, &len, err);
    nb_forest *f = nbi_zalloc_array(b->a, 1, sizeof *f);
    if (!f)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest");
    f->a = b->a;
    char where[600];
    snprintf(where, sizeof where, "%s: section %ld (forest)", b->path, fi);
    if (st == NB_OK)
        st = nbi_forest_decode(p, len, where, &n, &f->has_bounds, f->bounds, err);
    if (st == NB_OK) {
        f->n = f->cap = n;
        f->circles = nbi_alloc_array(f->a, n, sizeof *f->circles);
        if (!f->circles)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", n);
    }
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        const uint8_t *c = p + NBI_FOREST_HEADER + i * NBI_FOREST_CIRCLE;
        f->circles[i] = (nb_circle){nbi_getf64(c + NBI_FOREST_C_X), nbi_getf64(c + NBI_FOREST_C_Y),
                                    nbi_getf64(c + NBI_FOREST_C_R)};
        if (!circle_ok(&f->circles[i]))
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: circle %zu (%g, %g) radius %g is not a circle", where, i,
                          f->circles[i].x, f->circles[i].y, f->circles[i].r);
    }
    uint32_t crc = st == NB_OK ? (uint32_t)crc32(0, p, (uInt)len) : 0;
    /* The graphs, by radius index: each index once, none missing.  f->ngraphs
     * counts the graphs only once f->graph holds them (nb_forest_close
     * frees that many). */
    size_t ns = nb_bundle_section_count(b);
    unsigned ngraphs = 0;
    for (size_t i = 0; st == NB_OK && i < ns; i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_BITANGENT)
            ngraphs++;
    if (st == NB_OK && ngraphs > NB_FOREST_MAX_RADII)
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: %u bitangent graphs, at most %d", b->path, ngraphs,
                      NB_FOREST_MAX_RADII);
    if (st == NB_OK && ngraphs) {
        f->graph = nbi_zalloc_array(f->a, ngraphs, sizeof *f->graph);
        if (!f->graph)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %u graphs", ngraphs);
        else
            f->ngraphs = ngraphs;
    }
    for (size_t i = 0; st == NB_OK && i < ns; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type != NB_SEC_BITANGENT)
            continue;
        snprintf(where, sizeof where, "%s: section %zu (bitangent)", b->path, i);
        uint32_t k = in->param[0];
        if (k >= f->ngraphs || f->graph[k].infl) {
            st = nbi_fail(err, NB_ERR_FORMAT, "%s: radius index %lu is out of range or repeated",
                          where, (unsigned long)k);
            break;
        }
        nbi_fgraph *g = &f->graph[k];
        if ((st = payload(b, i, NBI_BITANGENT_VERSION, &p, &len, err)) != NB_OK ||
            (st = check_graph(g, f, p, len, crc, where, err)) != NB_OK)
            break;
        g->infl = nbi_alloc_array(f->a, n, sizeof *g->infl);
        if (!g->infl) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", n);
            break;
        }
        for (size_t c = 0; c < n; c++) {
            g->infl[c] = f->circles[c];
            g->infl[c].r += g->info.agent_radius;
        }
        g->eps = nbi_forest_eps(g->infl, n);
        g->grid.a = f->a;
        if (!nbi_cgrid_build(&g->grid, g->infl, n, g->eps))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the grid of %zu circles", n);
    }
    if (st != NB_OK) {
        nb_forest_close(f);
        return st;
    }
    *out = f;
    nbi_ok(err);
    return NB_OK;
}

nb_status nbi_forest_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    (void)index; /* the forest and all its graphs, together */
    nb_forest *f;
    nb_status st = nb_forest_open(b, &f, err);
    nb_forest_close(f);
    return st;
}

nb_status nbi_bitangent_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    /* With a forest, the forest's check reads this graph too. */
    if (nbi_section_index(b, NB_SEC_FOREST, NULL, NULL, 0) < 0)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (bitangent): bitangent graphs without "
                        "a forest section", b->path, index);
    return NB_OK;
}

nb_status nb_forest_open_circles_abi(const nb_circle *circles, size_t n, const double *bounds,
                                     const nb_allocator *alloc, nb_forest **out, nb_err *err,
                                     const nb_abi *abi)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_open_circles: no place for the forest");
    *out = NULL;
    nb_status st = nb_abi_check(abi, err);
    if (st != NB_OK)
        return st;
    st = nbi_allocator_check(alloc, "nb_forest_open_circles", err);
    if (st != NB_OK)
        return st;
    if (n > NB_FOREST_MAX_CIRCLES)
        return nbi_fail(err, NB_ERR_LIMIT, "%zu circles, at most %d", n, NB_FOREST_MAX_CIRCLES);
    if (n && !circles)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_open_circles: no circles");
    for (size_t i = 0; i < n; i++)
        if (check_circle(&circles[i], i, err) != NB_OK)
            return NB_ERR_ARG;
    if (bounds && !bounds_ok(bounds))
        return nbi_fail(err, NB_ERR_ARG, "bounds [%g, %g] x [%g, %g] are not a box", bounds[0],
                        bounds[2], bounds[1], bounds[3]);
    nb_forest *f = nbi_zalloc_array(alloc, 1, sizeof *f);
    if (f && alloc) {
        f->alloc = *alloc;
        f->a = &f->alloc;
    }
    if (!f || !(f->circles = nbi_alloc_array(f->a, n, sizeof *f->circles))) {
        nbi_free(alloc, f);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", n);
    }
    if (n)
        memcpy(f->circles, circles, n * sizeof *circles);
    f->n = n;
    f->cap = n ? n : 1;
    f->owned = 1;
    if (bounds) {
        f->has_bounds = 1;
        memcpy(f->bounds, bounds, sizeof f->bounds);
    }
    *out = f;
    nbi_ok(err);
    return NB_OK;
}

size_t nb_forest_circle_count(const nb_forest *f) { return f->n; }

const nb_circle *nb_forest_circle_get(const nb_forest *f, size_t i) { return i < f->n ? &f->circles[i] : NULL; }

int nb_forest_bounds(const nb_forest *f, double bounds[4])
{
    if (f->has_bounds && bounds)
        memcpy(bounds, f->bounds, sizeof f->bounds);
    return f->has_bounds;
}

static nb_status need_owned(const nb_forest *f, nb_err *err)
{
    if (!f->owned)
        return nbi_fail(err, NB_ERR_ARG,
                        "a bundle's forest is read-only; copy its circles with "
                        "nb_forest_open_circles to change them");
    return NB_OK;
}

nb_status nb_forest_set_circle(nb_forest *f, size_t i, nb_circle c, nb_err *err)
{
    nb_status st = need_owned(f, err);
    if (st != NB_OK || (st = check_circle(&c, i, err)) != NB_OK)
        return st;
    if (i >= f->n)
        return nbi_fail(err, NB_ERR_ARG, "circle %zu: the forest has %zu circles", i, f->n);
    f->circles[i] = c;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_forest_add_circle(nb_forest *f, nb_circle c, nb_err *err)
{
    nb_status st = need_owned(f, err);
    if (st != NB_OK || (st = check_circle(&c, f->n, err)) != NB_OK)
        return st;
    if (f->n >= NB_FOREST_MAX_CIRCLES)
        return nbi_fail(err, NB_ERR_LIMIT, "a forest holds at most %d circles", NB_FOREST_MAX_CIRCLES);
    if (f->n == f->cap) {
        size_t cap = f->cap * 2;
        nb_circle *c2 = nbi_realloc_array(f->a, f->circles, cap, sizeof *c2);
        if (!c2)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", cap);
        f->circles = c2;
        f->cap = cap;
    }
    f->circles[f->n++] = c;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_forest_remove_circle(nb_forest *f, size_t i, nb_err *err)
{
    nb_status st = need_owned(f, err);
    if (st != NB_OK)
        return st;
    if (i >= f->n)
        return nbi_fail(err, NB_ERR_ARG, "circle %zu: the forest has %zu circles", i, f->n);
    memmove(f->circles + i, f->circles + i + 1, (f->n - i - 1) * sizeof *f->circles);
    f->n--;
    nbi_ok(err);
    return NB_OK;
}

unsigned nb_forest_radius_count(const nb_forest *f) { return f->ngraphs; }

double nb_forest_radius_get(const nb_forest *f, unsigned k)
{
    return k < f->ngraphs ? f->graph[k].info.agent_radius : NAN;
}

nb_status nb_forest_radius_lookup(const nb_forest *f, double r, size_t *index, nb_err *err)
{
    for (unsigned k = 0; k < f->ngraphs; k++)
        if (f->graph[k].info.agent_radius == r) {
            *index = k;
            return nbi_done(err, NB_OK);
        }
    if (!err)
        return NB_ERR_NOTFOUND; /* a search's quiet question: no message to make */
    char have[256] = "";
    size_t at = 0;
    for (unsigned k = 0; k < f->ngraphs && at + 32 < sizeof have; k++)
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%g", k ? ", " : "",
                               f->graph[k].info.agent_radius);
    return nbi_fail(err, NB_ERR_NOTFOUND, "no bitangent graph baked for agent radius %g (%s%s)",
                    r, f->ngraphs ? "radii baked: " : "none is baked", have);
}

nb_status nb_forest_graph(const nb_forest *f, unsigned k, nb_forest_graph_info *info, nb_err *err)
{
    if (k >= f->ngraphs)
        return nbi_fail(err, NB_ERR_NOTFOUND, "no bitangent graph %u: the forest has %u", k,
                        f->ngraphs);
    *info = f->graph[k].info;
    nbi_ok(err);
    return NB_OK;
}
