/* haa_util.c: see haa_util.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "haa_util.h"
#include "subgoal/subgoal_build.h"

nb_bundle *hu_bake(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                   const nbb_grid *grid)
{
    nb_err err;
    nb_bundle *out = NULL;
    nb_status st = tu_write_cleared(path, legend, agents, grid, 0, &err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &out, &err);
    if (st != NB_OK)
        diag("hu_bake: %s", err.msg);
    return out;
}

nb_bundle *hu_bake_all(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                       const nbb_grid *grid, unsigned cluster)
{
    nbb_builder *b;
    nb_err err;
    nb_bundle *out = NULL;
    nb_status st = nbb_builder_new(&b, &err);
    if (st != NB_OK)
        return NULL;
    st = nbb_put_level(b, legend, agents, grid, 0, &err);
    if (st == NB_OK)
        st = nbb_bake_clearance(b, legend, agents, grid, 0, NULL, &err);
    if (st == NB_OK)
        st = nbb_bake_subgoal(b, legend, agents, grid, NBB_CORNERS_STRICT, 0, NULL, &err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, &err);
    nbb_builder_free(b);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &out, &err);
    if (st == NB_OK)
        st = tu_add_abstract(&out, path, cluster, &err);
    if (st != NB_OK)
        diag("hu_bake_all: %s", err.msg);
    return out;
}

nb_status hu_graph(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                   nbi_agraph *g, nb_err *err)
{
    size_t len;
    nb_status st = nbb_abstract_build(b, o, payload, &len, NULL, err);
    if (st == NB_OK)
        st = nbi_agraph_view(*payload, len, nb_map_width(b), nb_map_height(b), g, err);
    return st;
}

static void fill(nbb_grid *g, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, char c)
{
    for (uint32_t y = y0; y < y0 + h && y < g->height; y++)
        for (uint32_t x = x0; x < x0 + w && x < g->width; x++)
            g->cells[(size_t)y * g->width + x] = (uint8_t)c;
}

void hu_rooms_grid(tu_rng *r, uint32_t w, uint32_t h, unsigned nterrains, nbb_grid *grid)
{
    static const char terrain[] = ".SWT";
    grid->width = w;
    grid->height = h;
    grid->cells = malloc((size_t)w * h);
    fill(grid, 0, 0, w, h, '.');
    /* Patches of other terrains. */
    for (unsigned k = 0, n = (w * h) / 60; k < n && nterrains > 1; k++)
        fill(grid, tu_below(r, w), tu_below(r, h), 1 + tu_below(r, 6), 1 + tu_below(r, 6),
             terrain[1 + tu_below(r, nterrains - 1)]);
    /* Walls with doors of several widths. */
    for (unsigned k = 0, n = (w + h) / 8; k < n; k++) {
        int vertical = (int)tu_below(r, 2);
        uint32_t at = tu_below(r, vertical ? w : h), from = tu_below(r, vertical ? h : w);
        uint32_t len = 4 + tu_below(r, (vertical ? h : w));
        if (vertical)
            fill(grid, at, from, 1, len, '@');
        else
            fill(grid, from, at, len, 1, '@');
        uint32_t door = 1 + tu_below(r, 4), dpos = from + tu_below(r, len);
        char dc = terrain[tu_below(r, nterrains)];
        if (vertical)
            fill(grid, at, dpos, 1, door, dc);
        else
            fill(grid, dpos, at, door, 1, dc);
    }
    /* Scattered obstacles and blocks. */
    for (unsigned k = 0, n = (w * h) / 40; k < n; k++)
        fill(grid, tu_below(r, w), tu_below(r, h), 1 + tu_below(r, 2), 1 + tu_below(r, 2), '@');
}

void hu_random_agents(tu_rng *r, size_t n, unsigned nterrains, unsigned max_size,
                      nbi_agentset *set)
{
    memset(set, 0, sizeof *set);
    set->count = n;
    for (size_t i = 0; i < n; i++) {
        nb_agent *a = &set->agent[i];
        snprintf(a->name, sizeof a->name, "agent%zu", i);
        a->size = 1 + tu_below(r, max_size);
        do
            a->capability = (nb_capability)tu_below(r, 1u << nterrains);
        while (a->capability == 0);
    }
}

nb_bundle *hu_random_level(tu_rng *r, const nbi_legend *legend, uint32_t w, uint32_t h, unsigned nt,
                           unsigned noise_pct, unsigned max_agents, unsigned max_size,
                           const char *path, nbb_grid *grid, nbi_agentset *agents)
{
    if (noise_pct)
        tu_random_grid(r, w, h, noise_pct, nt, grid);
    else
        hu_rooms_grid(r, w, h, nt, grid);
    hu_random_agents(r, 1 + tu_below(r, max_agents), nt, max_size, agents);
    return hu_bake(path, legend, agents, grid);
}

int hu_path_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
               enum brute_corner rule, const nb_cell *p, size_t n, nb_cell start, nb_cell goal,
               double len, char *why, size_t whylen)
{
    if (n == 0 || p[0].x != start.x || p[0].y != start.y || p[n - 1].x != goal.x ||
        p[n - 1].y != goal.y) {
        snprintf(why, whylen, "does not run from start to goal");
        return 0;
    }
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!brute_can_stand(legend, g, cap, size, p[i].x, p[i].y)) {
            snprintf(why, whylen, "cell %zu (%d, %d) is not standable", i, p[i].x, p[i].y);
            return 0;
        }
        if (i == 0)
            continue;
        long dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (!brute_step_ok(legend, g, cap, size, rule, p[i - 1].x, p[i - 1].y, p[i].x, p[i].y)) {
            snprintf(why, whylen, "step %zu, (%d, %d) to (%d, %d), is not a move the agent may make",
                     i, p[i - 1].x, p[i - 1].y, p[i].x, p[i].y);
            return 0;
        }
        total += dx && dy ? sqrt(2.0) : 1;
    }
    if (fabs(total - len) > 1e-9) {
        snprintf(why, whylen, "its length is %.9f, not the %.9f reported", total, len);
        return 0;
    }
    return 1;
}

/* The open square (x, x + s) x (y, y + s) overlaps only passable cells. */
static int square_free(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                       unsigned size, double x, double y)
{
    for (long cy = (long)floor(y); cy < (long)ceil(y + size); cy++)
        for (long cx = (long)floor(x); cx < (long)ceil(x + size); cx++)
            if (!brute_passable(legend, g, cap, cx, cy))
                return 0;
    return 1;
}

int hu_polyline_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                   enum brute_corner rule, const nb_cell *p, size_t n, nb_cell start, nb_cell goal, double len, char *why,
                   size_t whylen)
{
    if (n == 0 || p[0].x != start.x || p[0].y != start.y || p[n - 1].x != goal.x ||
        p[n - 1].y != goal.y) {
        snprintf(why, whylen, "does not run from start to goal");
        return 0;
    }
    double total = 0;
    for (size_t i = 1; i < n; i++) {
        double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y, d = sqrt(dx * dx + dy * dy);
        total += d;
        if (fabs(dx) == 1 && fabs(dy) == 1 &&
            hu_path_ok(legend, g, cap, size, rule, p + i - 1, 2, p[i - 1], p[i], sqrt(2.0), why,
                       whylen))
            continue;
        long steps = (long)ceil(d * 64);
        for (long k = 0; k <= steps; k++) {
            double t = steps ? (double)k / (double)steps : 0;
            if (!square_free(legend, g, cap, size, p[i - 1].x + t * dx, p[i - 1].y + t * dy)) {
                snprintf(why, whylen, "segment %zu, (%d, %d) to (%d, %d), hits an obstacle", i,
                         p[i - 1].x, p[i - 1].y, p[i].x, p[i].y);
                return 0;
            }
        }
    }
    if (fabs(total - len) > 1e-9) {
        snprintf(why, whylen, "its length is %.9f, not the %.9f reported", total, len);
        return 0;
    }
    return 1;
}
