/* planner.c: the workspace of a unit on a bundle's map, and the edges of
 * its searches: the first free curve between two poses, read from the
 * hit-check table or computed and swept on the spot. */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"
#include "turning/sweep.h"

/* Is a cell free for the unit?  The clearance layer of its terrains
 * answers when the bundle has one (mkclear); otherwise the map's hard
 * obstacles and the terrains themselves.  Both say the same: a cell is
 * free when a size-1 agent of the unit's capability may stand on it (the
 * unit's width is the hit-check table's business). */
static int clearance_free(const nb_bundle *b, nb_capability cap, long x, long y)
{
    return nb_can_stand(b, cap, 1, x, y) == 1;
}

static int terrain_free(const nb_bundle *b, nb_capability cap, long x, long y)
{
    int t = nb_map_terrain(b, x, y);
    return t != NB_OBSTACLE && (cap >> t & 1);
}

static nb_status decode_table(nb_planner *p, nb_err *err)
{
    const nbi_hitcheck *h = &p->hc;
    size_t nentries = (size_t)h->headings * h->headings * h->neighbourhood;
    size_t ncells = 0;
    for (uint32_t i = 0; i < h->ncurves; i++)
        ncells += nbi_get16(h->records + (size_t)i * h->recsize + NBI_HC_R_CELLS);
    p->efirst = nbi_alloc_array(p->a, nentries, sizeof *p->efirst);
    p->ecount = nbi_alloc(p->a, nentries);
    p->pc = nbi_alloc_array(p->a, (h->ncurves ? h->ncurves : 1), sizeof *p->pc);
    p->deltas = nbi_alloc_array(p->a, (ncells ? ncells : 1), sizeof *p->deltas);
    if (!p->efirst || !p->ecount || !p->pc || !p->deltas)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the hit-check table");
    for (size_t i = 0; i < nentries; i++) {
        p->efirst[i] = nbi_get32(h->index + NBI_HC_INDEX_ENTRY * i);
        p->ecount[i] = (uint8_t)nbi_get32(h->index + NBI_HC_INDEX_ENTRY * i + 4);
    }
    long half = (long)h->window / 2;
    size_t at = 0;
    for (uint32_t i = 0; i < h->ncurves; i++) {
        const uint8_t *r = h->records + (size_t)i * h->recsize;
        struct nbi_pcurve *c = &p->pc[i];
        c->length = nbi_hc_length(h, i);
        c->word = r[8];
        c->variant = r[9];
        c->first = (uint32_t)at;
        for (unsigned w = 0; w < h->words; w++)
            for (uint64_t v = nbi_get64(r + NBI_HC_RECORD_HEAD + 8 * w); v; v &= v - 1) {
                unsigned bit = w * 64 + nbp_ctz64(v);
                long dx = (long)(bit % h->window) - half, dy = (long)(bit / h->window) - half;
                p->deltas[at++] = (int32_t)(dy * (long)p->stride + dx);
            }
        c->ncells = (uint32_t)(at - c->first);
    }
    return NB_OK;
}

static int disc_hit(void *ctx, long x, long y) { return nbi_blocked(ctx, x, y); }

nb_status nb_planner_open(const nb_bundle *b, const char *unit, nb_planner **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_planner_open: no place for the planner");
    *out = NULL;
    if (!nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no map to plan on", b->path);
    nb_planner *p = nbi_zalloc_array(b->a, 1, sizeof *p);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for a planner");
    p->bundle = b;
    p->a = b->a;
    p->route.a = p->fwd.a = p->bwd.a = p->mid.a = p->tmp.a = p->a;
    nb_status st = nbi_unit_sections(b, unit, &p->unit, &p->hc, &p->ct, err);
    if (st != NB_OK)
        goto fail;
    unsigned nt = nb_terrain_count(b);
    if (nt < 32 && (p->unit.capability >> nt)) {
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: unit '%s' names terrains the legend does not have",
                      b->path, unit);
        goto fail;
    }
    p->K = p->unit.headings;
    p->W = nb_map_width(b);
    p->H = nb_map_height(b);
    /* The unit's terrains as a mask (0 in a unit is every terrain). */
    p->cap = p->unit.capability ? p->unit.capability
                                : nt >= 32 ? ~(nb_capability)0 : ((nb_capability)1 << nt) - 1;
    p->cell_free = nb_clearance_cap(b, p->cap) >= 1 ? clearance_free : terrain_free;
    nbi_neighbourhood(48, p->off);
    for (int i = 0; i < NBI_MAX_NEIGHBOURS; i++)
        p->oindex[p->off[i][1] + 3][p->off[i][0] + 3] = (int8_t)i;
    p->oindex[3][3] = -1;
    p->pad = (long)p->hc.window / 2 + 1;
    p->stride = (size_t)(p->W + 2 * p->pad);
    size_t cells = (size_t)p->W * (size_t)p->H;
    if ((uint64_t)cells * p->K + 1 >= UINT32_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "%s: a %ld x %ld map with %u headings has too many states",
                      b->path, p->W, p->H, p->K);
        goto fail;
    }
    p->blocked = nbi_alloc(p->a, p->stride * (size_t)(p->H + 2 * p->pad));
    if (!p->blocked) {
        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for the planner's grid");
        goto fail;
    }
    memset(p->blocked, 1, p->stride * (size_t)(p->H + 2 * p->pad));
    for (long y = 0; y < p->H; y++)
        for (long x = 0; x < p->W; x++)
            p->blocked[(size_t)(y + p->pad) * p->stride + (size_t)(x + p->pad)] =
                !p->cell_free(b, p->cap, x, y);
    if ((st = decode_table(p, err)))
        goto fail;
    p->nstates = cells * p->K + 1;
    p->g = nbi_alloc_array(p->a, p->nstates, sizeof *p->g);
    p->parent = nbi_alloc_array(p->a, p->nstates, sizeof *p->parent);
    p->move = nbi_alloc_array(p->a, p->nstates, sizeof *p->move);
    p->stamp = nbi_zalloc_array(p->a, p->nstates, sizeof *p->stamp);
    p->hpos = nbi_alloc_array(p->a, p->nstates, sizeof *p->hpos);
    p->closed = nbi_alloc(p->a, p->nstates);
    p->cells = nbi_alloc_array(p->a, cells, sizeof *p->cells);
    if (!p->g || !p->parent || !p->move || !p->stamp || !p->hpos || !p->closed || !p->cells ||
        !nbi_heap_init(&p->heap, p->a, 1 << 16, p->hpos) || !nbi_route_reserve(&p->route, 256) ||
        !nbi_route_reserve(&p->fwd, 256) || !nbi_route_reserve(&p->bwd, 256) ||
        !nbi_route_reserve(&p->mid, 256) || !nbi_route_reserve(&p->tmp, 256) ||
        !(p->stand = nbi_alloc(p->a, cells)) ||
        !(p->seg = nbi_alloc_array(p->a, 256 * NB_CURVE_MAX_SEGMENTS, sizeof *p->seg))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for the search of a %ld x %ld map",
                      p->W, p->H);
        goto fail;
    }
    p->capseg = 256 * NB_CURVE_MAX_SEGMENTS; /* the path of a route within the reserve */
    for (size_t i = 0; i < p->nstates; i++)
        p->hpos[i] = NBI_HEAP_NONE;
    for (long y = 0; y < p->H; y++)
        for (long x = 0; x < p->W; x++)
            p->stand[(size_t)y * p->W + x] = !nbi_blocked(p, x, y) &&
                                             !nbi_disc_cells(x + 0.5, y + 0.5, p->unit.width,
                                                             disc_hit, p);
    *out = p;
    nbi_ok(err);
    return NB_OK;
fail:
    nb_planner_close(p);
    return st;
}

void nb_planner_close(nb_planner *p)
{
    if (!p)
        return;
    nbi_free(p->a, p->blocked);
    nbi_free(p->a, p->efirst);
    nbi_free(p->a, p->ecount);
    nbi_free(p->a, p->pc);
    nbi_free(p->a, p->deltas);
    nbi_free(p->a, p->g);
    nbi_free(p->a, p->parent);
    nbi_free(p->a, p->move);
    nbi_free(p->a, p->stamp);
    nbi_free(p->a, p->hpos);
    nbi_free(p->a, p->closed);
    nbi_free(p->a, p->cells);
    nbi_free(p->a, p->stand);
    nbi_free(p->a, p->seg);
    nbi_heap_free(&p->heap);
    nbi_route_free(&p->route);
    nbi_route_free(&p->fwd);
    nbi_route_free(&p->bwd);
    nbi_route_free(&p->mid);
    nbi_route_free(&p->tmp);
    nbi_free(p->a, p);
}

const nb_unit *nb_planner_unit(const nb_planner *p) { return &p->unit; }

int nb_planner_blocked(const nb_planner *p, long x, long y) { return nbi_blocked(p, x, y); }

void nbi_search_begin(nb_planner *p)
{
    nbi_heap_clear(&p->heap);
    if (++p->gen == 0) {
        memset(p->stamp, 0, p->nstates * sizeof *p->stamp);
        p->gen = 1;
    }
}

/* ---- edges ---- */

struct check {
    const nb_planner *p;
    long ox, oy;         /* the origin cell, absolute */
    long dx, dy;         /* the destination, relative: not checked */
    int skip;            /* cells under the disc at (sx, sy) are not checked */
    double sx, sy, lim;
};

static int hit(void *ctx, long x, long y)
{
    const struct check *c = ctx;
    if ((x == 0 && y == 0) || (x == c->dx && y == c->dy))
        return 0;
    if (c->skip && nbi_point_cell_distance(c->sx, c->sy, x, y) < c->lim)
        return 0;
    return nbi_blocked(c->p, c->ox + x, c->oy + y);
}

static unsigned turned(unsigned h, unsigned K, int reverse) { return reverse ? (h + K / 2) % K : h; }

int nbi_edge(const nb_planner *p, long x, long y, unsigned h0, unsigned o, unsigned h1,
             int reverse, int onthefly, double *len, unsigned *code)
{
    unsigned K = p->K, a = turned(h0, K, reverse), b = turned(h1, K, reverse);
    int dx = p->off[o][0], dy = p->off[o][1];
    if (!onthefly && o < p->hc.neighbourhood) {
        size_t e = ((size_t)a * K + b) * p->hc.neighbourhood + (unsigned)o;
        const uint8_t *base = p->blocked + (size_t)(y + p->pad) * p->stride + (size_t)(x + p->pad);
        for (uint32_t i = p->efirst[e], end = i + p->ecount[e]; i < end; i++) {
            const struct nbi_pcurve *c = &p->pc[i];
            const int32_t *d = p->deltas + c->first;
            uint32_t k = 0;
            while (k < c->ncells && !base[d[k]])
                k++;
            if (k == c->ncells) {
                *len = c->length;
                *code = nbi_move(o, h1, c->word, c->variant, reverse);
                return 1;
            }
        }
        return 0;
    }
    /* The same curves, computed as the table's builder does (from the
     * origin cell's centre, so the very same numbers), and swept. */
    nb_pose from = {0.5, 0.5, nbi_heading(a, K)}, to = {0.5 + dx, 0.5 + dy, nbi_heading(b, K)};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&from, &to, p->unit.radius, cand);
    struct check ck = {p, x, y, dx, dy, 0, 0, 0, 0};
    for (size_t i = 0; i < m; i++)
        if (!nbi_sweep_cells(cand[i].seg, cand[i].count, p->unit.width, hit, &ck)) {
            *len = cand[i].length;
            *code = nbi_move(o, h1, (unsigned)nbi_word_code(cand[i].word), cand[i].variant,
                             reverse);
            return 1;
        }
    return 0;
}

int nbi_edge_pose(const nb_planner *p, const nb_pose *from, long tx, long ty, unsigned h1,
                  int reverse, double *len, unsigned *code)
{
    long fx = (long)floor(from->x), fy = (long)floor(from->y);
    int o = tx == fx && ty == fy ? NBI_MAX_NEIGHBOURS : nbi_offset_index(p, tx - fx, ty - fy);
    if (o < 0)
        return 0;
    nb_pose a = {from->x - fx, from->y - fy, from->heading + (reverse ? M_PI : 0)};
    nb_pose b = {tx - fx + 0.5, ty - fy + 0.5, nbi_heading(turned(h1, p->K, reverse), p->K)};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&a, &b, p->unit.radius, cand);
    struct check ck = {p, fx, fy, tx - fx, ty - fy, 1, a.x, a.y,
                       p->unit.width / 2 - NBI_TOUCH_EPS};
    for (size_t i = 0; i < m; i++)
        if (!nbi_sweep_cells(cand[i].seg, cand[i].count, p->unit.width, hit, &ck)) {
            *len = cand[i].length;
            *code = nbi_move((unsigned)o, h1, (unsigned)nbi_word_code(cand[i].word),
                             cand[i].variant, reverse);
            return 1;
        }
    return 0;
}

static void translate(nb_curve *c, double dx, double dy)
{
    for (unsigned i = 0; i < c->count; i++) {
        c->seg[i].x += dx;
        c->seg[i].y += dy;
        c->seg[i].cx += dx;
        c->seg[i].cy += dy;
    }
}

void nbi_edge_curve(const nb_planner *p, const nb_pose *from, const nb_pose *to, unsigned code,
                    nb_curve *out)
{
    int reverse = (code >> 15) & 1;
    unsigned word = (code >> 11) & 7, variant = (code >> 14) & 1;
    double fx = floor(from->x), fy = floor(from->y), turn = reverse ? M_PI : 0;
    nb_pose a = {from->x - fx, from->y - fy, from->heading + turn};
    nb_pose b = {to->x - fx, to->y - fy, to->heading + turn};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&a, &b, p->unit.radius, cand);
    size_t pick = 0;
    for (size_t i = 0; i < m; i++)
        if (nbi_word_code(cand[i].word) == (int)word && cand[i].variant == variant) {
            pick = i;
            break;
        }
    *out = cand[pick];
    if (reverse)
        nb_curve_set_reverse(out);
    translate(out, fx, fy);
}

struct walk {
    const nb_planner *p;
    int skip;
    double sx, sy, lim;
};

static int walk_hit(void *ctx, long x, long y)
{
    const struct walk *w = ctx;
    if (w->skip && nbi_point_cell_distance(w->sx, w->sy, x, y) < w->lim)
        return 0;
    return nbi_blocked(w->p, x, y);
}

int nbi_walkable(const nb_planner *p, const nb_segment *seg, size_t n, int skip, double sx,
                 double sy)
{
    /* A segment that leaves the map touches a cell outside, which is
     * blocked; said here, before the sweep, it also keeps the sweep's
     * loops within the map's cells whatever the caller's numbers. */
    for (size_t i = 0; i < n; i++)
        if (!nbi_segment_within(&seg[i], (double)p->W, (double)p->H))
            return 0;
    struct walk w = {p, skip, sx, sy, p->unit.width / 2 - NBI_TOUCH_EPS};
    return !nbi_sweep_cells(seg, n, p->unit.width, walk_hit, &w);
}

int nb_planner_walkable(const nb_planner *p, const nb_segment *seg, size_t n)
{
    return nbi_walkable(p, seg, n, 0, 0, 0);
}

double nbi_heuristic(const nb_planner *p, const nb_pose *from, long gx, long gy, int reverse_ok)
{
    if (reverse_ok)
        return hypot(gx + 0.5 - from->x, gy + 0.5 - from->y);
    return nbi_curvetab_lookup(&p->ct, from, gx + 0.5, gy + 0.5);
}
