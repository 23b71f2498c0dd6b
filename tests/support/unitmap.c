/* unitmap.c: see unitmap.h.  Nothing here uses the library's sweep or
 * its tables: footprints are sampled, searches are a plain Dijkstra. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unitmap.h"

int um_bundle_grid(const char *path, const nbb_grid *grid, const nb_unit *u)
{
    return um_bundle_grid_with(path, grid, u, 0);
}

int um_bundle_grid_with(const char *path, const nbb_grid *grid, const nb_unit *u, unsigned flags)
{
    nb_err err;
    nbb_builder *b;
    /* A unit's tables are baked once, into a bundle of their own that each
     * map's bundle then loads. */
    char name[64];
    snprintf(name, sizeof name, "unit-%s-%g-%g-%u-%u-%d-%u.nbk", u->name, u->radius, u->width,
             u->headings, u->neighbourhood, u->reverse, flags);
    const char *unit_path = tu_path(tu_tmpdir(), name);
    nb_status st = NB_OK;
    if (access(unit_path, F_OK) != 0) {
        if (nbb_builder_new(&b, &err) != NB_OK)
            return 0;
        if ((st = nbb_put_unit(b, u, flags, NULL, &err)) == NB_OK)
            st = nbb_builder_write(b, unit_path, &err);
        nbb_builder_free(b);
        if (st != NB_OK) {
            diag("um_bundle: %s", err.msg);
            return 0;
        }
    }
    return um_bundle_grid_units(path, grid, unit_path);
}

int um_bundle_grid_units(const char *path, const nbb_grid *grid, const char *units)
{
    nbi_legend legend;
    static nbi_agentset agents;
    nb_err err;
    nbb_builder *b;
    nbi_legend_default(&legend);
    if (nbb_agents_default(&legend, &agents, &err) != NB_OK || nbb_builder_new(&b, &err) != NB_OK)
        return 0;
    nb_status st = nbb_builder_load(b, units, 0, &err);
    if (st == NB_OK)
        st = nbb_put_level(b, &legend, &agents, grid, 0, &err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, &err);
    nbb_builder_free(b);
    if (st != NB_OK)
        diag("um_bundle: %s", err.msg);
    return st == NB_OK;
}

void um_free_cell(tu_rng *rng, const nb_planner *p, long w, long h, long *x, long *y)
{
    do {
        *x = (long)tu_below(rng, (uint32_t)w);
        *y = (long)tu_below(rng, (uint32_t)h);
    } while (nb_planner_blocked(p, *x, *y));
}

int um_bundle(const char *path, const char *const *rows, const nb_unit *u)
{
    nbb_grid g;
    size_t h = 0;
    while (rows[h])
        h++;
    g.width = (uint32_t)strlen(rows[0]);
    g.height = (uint32_t)h;
    g.cells = malloc((size_t)g.width * g.height);
    for (size_t y = 0; y < h; y++)
        memcpy(g.cells + y * g.width, rows[y], g.width);
    int r = um_bundle_grid(path, &g, u);
    free(g.cells);
    return r;
}

nb_planner_result um_plan(nb_planner *p, const nb_pose *s, long gx, long gy, int goal_heading,
                       unsigned method, unsigned neighbourhood, unsigned flags)
{
    nb_planner_query q;
    nb_planner_query_init(&q);
    q.start = *s;
    q.goal.x = gx;
    q.goal.y = gy;
    q.goal_heading = goal_heading;
    q.method = method;
    q.neighbourhood = neighbourhood;
    q.flags = flags;
    nb_planner_result r;
    nb_err err;
    if (nb_planner_find(p, &q, &r, &err) != NB_OK) {
        diag("nb_plan: %s", err.msg);
        memset(&r, 0, sizeof r);
    }
    return r;
}

static int cell_free(const nb_bundle *b, const nb_unit *u, long x, long y)
{
    int t = nb_map_terrain(b, x, y);
    return t != NB_OBSTACLE && (u->capability == 0 || (u->capability >> t & 1));
}

static double point_cell(double px, double py, long x, long y)
{
    double dx = fmax(fmax(x - px, px - (x + 1)), 0), dy = fmax(fmax(y - py, py - (y + 1)), 0);
    return hypot(dx, dy);
}

/* The disc at (px, py) touches only free cells (skipping one cell). */
static int disc_free(const nb_bundle *b, const nb_unit *u, double px, double py, long sx, long sy,
                     long *bx, long *by)
{
    double hw = u->width / 2;
    for (long y = (long)floor(py - hw); y <= (long)floor(py + hw); y++)
        for (long x = (long)floor(px - hw); x <= (long)floor(px + hw); x++)
            if (!(x == sx && y == sy) && point_cell(px, py, x, y) < hw - 1e-9 &&
                !cell_free(b, u, x, y)) {
                if (bx) {
                    *bx = x;
                    *by = y;
                }
                return 0;
            }
    return 1;
}

int um_path_free(const nb_bundle *b, const nb_unit *u, const nb_planner_result *res,
                 const nb_pose *start, long gx, long gy, char *why, size_t whylen)
{
    nb_pose p, q;
    if (res->segment_len == 0) {
        if (floor(start->x) == gx && floor(start->y) == gy)
            return 1;
        snprintf(why, whylen, "an empty path");
        return 0;
    }
    nb_segments_sample(res->segments, res->segment_len, 0, &p);
    if (hypot(p.x - start->x, p.y - start->y) > 1e-9) {
        snprintf(why, whylen, "starts at (%g, %g), not at the start", p.x, p.y);
        return 0;
    }
    double total = nb_segments_length(res->segments, res->segment_len);
    nb_segments_sample(res->segments, res->segment_len, total, &q);
    if (gx >= 0 && hypot(q.x - (gx + 0.5), q.y - (gy + 0.5)) > 1e-7) {
        snprintf(why, whylen, "ends at (%g, %g), not at the goal's centre", q.x, q.y);
        return 0;
    }
    for (size_t i = 0; i + 1 < res->segment_len; i++) {
        nb_pose e, s;
        nb_segment_sample(&res->segments[i], res->segments[i].length, &e);
        nb_segment_sample(&res->segments[i + 1], 0, &s);
        if (hypot(e.x - s.x, e.y - s.y) > 1e-7) {
            snprintf(why, whylen, "segment %zu ends at (%g, %g), %zu starts at (%g, %g)", i, e.x,
                     e.y, i + 1, s.x, s.y);
            return 0;
        }
    }
    /* The cells under the unit where it starts are where it already is. */
    long sx = (long)floor(start->x), sy = (long)floor(start->y);
    int n = (int)ceil(total * 20);
    for (int k = 0; k <= n; k++) {
        long bx, by;
        nb_segments_sample(res->segments, res->segment_len, total * k / (n ? n : 1), &p);
        if (!disc_free(b, u, p.x, p.y, -1, -1, &bx, &by) &&
            disc_free(b, u, start->x, start->y, -1, -1, NULL, NULL)) {
            snprintf(why, whylen, "at %g of %g, (%g, %g), the unit touches blocked cell (%ld, %ld)",
                     total * k / (n ? n : 1), total, p.x, p.y, bx, by);
            return 0;
        }
    }
    (void)sx, (void)sy;
    return 1;
}

/* ---- the independent search ---- */

/* A curve's cells relative to its origin cell, found by sampling every
 * 1/50 of a cell (the origin and destination cells left out). */
struct rel {
    int ready, n;
    double len[NB_CURVE_MAX_CANDIDATES];
    int ncells[NB_CURVE_MAX_CANDIDATES];
    int (*cells[NB_CURVE_MAX_CANDIDATES])[2];
};

static void sample_cells(const nb_curve *c, double width, long dx, long dy, int (**out)[2], int *n)
{
    int cap = 64, k = 0, (*cells)[2] = malloc(sizeof *cells * (size_t)cap);
    int steps = (int)ceil(c->length * 50) + 1;
    double hw = width / 2;
    for (int i = 0; i <= steps; i++) {
        nb_pose p;
        nb_curve_sample(c, c->length * i / steps, &p);
        for (long y = (long)floor(p.y - hw); y <= (long)floor(p.y + hw); y++)
            for (long x = (long)floor(p.x - hw); x <= (long)floor(p.x + hw); x++) {
                if ((x == 0 && y == 0) || (x == dx && y == dy) || !(point_cell(p.x, p.y, x, y) < hw - 1e-9))
                    continue;
                int seen = 0;
                for (int j = 0; j < k && !seen; j++)
                    seen = cells[j][0] == x && cells[j][1] == y;
                if (seen)
                    continue;
                if (k == cap)
                    cells = realloc(cells, sizeof *cells * (size_t)(cap *= 2));
                cells[k][0] = (int)x;
                cells[k][1] = (int)y;
                k++;
            }
    }
    *out = cells;
    *n = k;
}

static struct rel *rel_of(struct rel *cache, const nb_unit *u, unsigned h0, unsigned h1, long dx, long dy)
{
    unsigned K = u->headings;
    struct rel *r = &cache[((h0 * K + h1) * 7 + (size_t)(dy + 3)) * 7 + (size_t)(dx + 3)];
    if (!r->ready) {
        nb_pose a = {0.5, 0.5, h0 * 2 * M_PI / K}, b = {0.5 + dx, 0.5 + dy, h1 * 2 * M_PI / K};
        nb_curve c[NB_CURVE_MAX_CANDIDATES];
        r->n = (int)nb_curve_to_pose(&a, &b, u->radius, c);
        for (int i = 0; i < r->n; i++) {
            r->len[i] = c[i].length;
            sample_cells(&c[i], u->width, dx, dy, &r->cells[i], &r->ncells[i]);
        }
        r->ready = 1;
    }
    return r;
}

/* The cost of the first free candidate from a grid pose (of the shortest
 * alone unless all), or INFINITY. */
static double grid_edge(const nb_bundle *b, const nb_unit *u, struct rel *cache, long x, long y,
                        unsigned h0, long dx, long dy, unsigned h1, int reverse, int all)
{
    unsigned K = u->headings;
    if (reverse) {
        h0 = (h0 + K / 2) % K;
        h1 = (h1 + K / 2) % K;
    }
    struct rel *r = rel_of(cache, u, h0, h1, dx, dy);
    for (int i = 0; i < (all ? r->n : 1); i++) {
        int j = 0;
        while (j < r->ncells[i] && cell_free(b, u, x + r->cells[i][j][0], y + r->cells[i][j][1]))
            j++;
        if (j == r->ncells[i])
            return reverse ? r->len[i] * u->reverse_penalty : r->len[i];
    }
    return INFINITY;
}

/* From any pose: computed and sampled here. */
static double pose_edge(const nb_bundle *b, const nb_unit *u, const nb_pose *a, const nb_pose *t,
                        int reverse)
{
    nb_curve c[NB_CURVE_MAX_CANDIDATES];
    nb_pose ta = *a, tb = *t;
    if (reverse) {
        ta.heading += M_PI;
        tb.heading += M_PI;
    }
    size_t m = nb_curve_to_pose(&ta, &tb, u->radius, c);
    long gx = (long)floor(t->x), gy = (long)floor(t->y);
    for (size_t i = 0; i < m; i++) {
        int n = (int)ceil(c[i].length * 50) + 1, ok = 1;
        for (int k = 0; k <= n && ok; k++) {
            nb_pose p;
            nb_curve_sample(&c[i], c[i].length * k / n, &p);
            ok = disc_free(b, u, p.x, p.y, gx, gy, NULL, NULL);
        }
        if (ok)
            return reverse ? c[i].length * u->reverse_penalty : c[i].length;
    }
    return INFINITY;
}

double um_dijkstra(const nb_bundle *b, const nb_unit *u, const nb_pose *start, long gx, long gy,
                   int goal_heading, unsigned neighbourhood, int reverse, int all)
{
    long W = nb_map_width(b), H = nb_map_height(b);
    unsigned K = u->headings;
    int ring = neighbourhood == 8 ? 1 : neighbourhood == 24 ? 2 : 3;
    size_t n = (size_t)W * H * K + 1, s = n - 1;
    double *dist = malloc(n * sizeof *dist);
    char *done = calloc(n, 1);
    /* The sampled curves depend on the unit only: kept between calls. */
    static struct rel *cache;
    static nb_unit cached;
    if (cache && (cached.radius != u->radius || cached.width != u->width || cached.headings != K)) {
        for (size_t i = 0; i < (size_t)cached.headings * cached.headings * 49; i++)
            for (int j = 0; j < cache[i].n; j++)
                free(cache[i].cells[j]);
        free(cache);
        cache = NULL;
    }
    if (!cache) {
        cache = calloc((size_t)K * K * 49, sizeof *cache);
        cached = *u;
    }
    for (size_t i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[s] = 0;
    double best = INFINITY;
    double hk = start->heading * K / (2 * M_PI);
    int on_grid = start->x == floor(start->x) + 0.5 && start->y == floor(start->y) + 0.5 &&
                  fabs(hk - round(hk)) < 1e-9;
    for (;;) {
        size_t at = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (at == n || dist[i] < dist[at]))
                at = i;
        if (at == n)
            break;
        done[at] = 1;
        nb_pose p;
        long x, y;
        if (at == s) {
            p = *start;
            x = (long)floor(p.x);
            y = (long)floor(p.y);
        } else {
            unsigned h = (unsigned)(at % K);
            x = (long)(at / K % (size_t)W);
            y = (long)(at / K / (size_t)W);
            p.x = x + 0.5;
            p.y = y + 0.5;
            p.heading = h * 2 * M_PI / K;
            if (x == gx && y == gy && (goal_heading < 0 || (int)h == goal_heading)) {
                best = dist[at];
                break;
            }
        }
        for (long dy = -ring; dy <= ring; dy++)
            for (long dx = -ring; dx <= ring; dx++) {
                /* Only a start off the grid may go to its own cell's centre
                 * (a grid node's neighbours are other cells). */
                if (dx == 0 && dy == 0 && (at != s || on_grid))
                    continue;
                long nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= W || ny >= H || !cell_free(b, u, nx, ny))
                    continue;
                for (unsigned h1 = 0; h1 < K; h1++) {
                    nb_pose t = {nx + 0.5, ny + 0.5, h1 * 2 * M_PI / K};
                    size_t id = ((size_t)ny * W + nx) * K + h1;
                    for (int rev = 0; rev <= reverse; rev++) {
                        /* A start on the grid is a grid node: the table's edges. */
                        unsigned h0 = at == s ? (unsigned)((lround(hk) % (long)K + (long)K) % (long)K) : (unsigned)(at % K);
                        double c = at == s && !on_grid
                                       ? pose_edge(b, u, &p, &t, rev)
                                       : grid_edge(b, u, cache, x, y, h0, dx, dy, h1, rev, all);
                        if (dist[at] + c < dist[id])
                            dist[id] = dist[at] + c;
                    }
                }
            }
    }
    free(dist);
    free(done);
    return best;
}
