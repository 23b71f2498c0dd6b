/* directional.c: Directional A* (Pinter's "Legal Turns: The Directional A*
 * Algorithm").  A node is a cell and a heading; its children are every
 * neighbour of the 8-, 24- or 48-neighbourhood with every end heading,
 * reached by the first free curve (shortest first) of the hit-check table;
 * a child is valid when no cell its bitset marks is blocked.  The cost is
 * the curve's length (times the penalty when driven in reverse) and the
 * heuristic the curve table's lower bound, so the path found is the
 * shortest of this graph.  The first node may be anywhere, facing any way:
 * its curves are computed and swept directly, as the article says. */
#include <math.h>

#include "turning/planner.h"

static int on_grid(const nb_planner *p, const nb_pose *s, long sx, long sy, unsigned *k)
{
    if (s->x != sx + 0.5 || s->y != sy + 0.5)
        return 0;
    for (unsigned h = 0; h < p->K; h++)
        if (fabs(remainder(s->heading - nbi_heading(h, p->K), 2 * M_PI)) < 1e-12) {
            *k = h;
            return 1;
        }
    return 0;
}

static inline nb_pose state_pose(const nb_planner *p, uint32_t id)
{
    uint32_t h = id % p->K, c = id / p->K;
    return nbi_centre_pose(p, (long)(c % (uint32_t)p->W), (long)(c / (uint32_t)p->W), h);
}

static int reconstruct(nb_planner *p, const nb_pose *start, uint32_t goal)
{
    /* Walk back to count, then fill the route from its end. */
    size_t n = 1;
    for (uint32_t id = goal; p->parent[id] != NBI_NO_PARENT; id = p->parent[id])
        n++;
    nbi_route *r = &p->route;
    if (!nbi_route_reserve(r, n))
        return 0;
    r->n = n;
    size_t i = n - 1;
    for (uint32_t id = goal;; id = p->parent[id], i--) {
        r->wp[i] = id == NBI_START_ID(p) ? *start : state_pose(p, id);
        if (p->parent[id] == NBI_NO_PARENT)
            break;
    }
    i = n - 1;
    for (uint32_t id = goal; p->parent[id] != NBI_NO_PARENT; id = p->parent[id], i--)
        nbi_edge_curve(p, &r->wp[i - 1], &r->wp[i], p->move[id], &r->edge[i - 1]);
    return 1;
}

int nbi_directional(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
                    const struct nbi_dir_opts *o, const char **reason)
{
    const unsigned K = p->K, N = o->neighbourhood;
    long sx = (long)floor(start->x), sy = (long)floor(start->y);
    unsigned k0 = 0;
    int grid = on_grid(p, start, sx, sy, &k0);
    uint32_t sid = grid ? (uint32_t)(((size_t)sy * p->W + sx) * K + k0) : NBI_START_ID(p);
    double pen = p->unit.reverse_penalty;
    nbi_search_begin(p);
    p->g[sid] = 0;
    p->parent[sid] = NBI_NO_PARENT;
    p->stamp[sid] = p->gen;
    p->closed[sid] = 0;
    if (!nbi_heap_push(&p->heap, nbi_heuristic(p, start, gx, gy, o->reverse), 0, sid)) {
        *reason = nbi_reason_nomem;
        return 0;
    }
    uint64_t expanded = 0;
    while (!nbi_heap_empty(&p->heap)) {
        uint32_t id = nbi_heap_pop(&p->heap).id;
        p->closed[id] = 1;
        expanded++;
        p->expanded++;
        long x, y;
        unsigned h;
        if (id == NBI_START_ID(p)) {
            x = sx;
            y = sy;
            h = 0;
        } else {
            h = id % K;
            x = (long)(id / K % (uint32_t)p->W);
            y = (long)(id / K / (uint32_t)p->W);
            if (x == gx && y == gy && (goal_heading < 0 || h == (unsigned)goal_heading)) {
                if (!reconstruct(p, start, id)) {
                    *reason = nbi_reason_nomem;
                    return 0;
                }
                return 1;
            }
        }
        if (o->max_expansions && expanded >= o->max_expansions) {
            *reason = nbi_reason_limit;
            return 0;
        }
        double g = p->g[id];
        /* The off-grid start may also go to the centre of its own cell. */
        unsigned nn = N + (id == NBI_START_ID(p));
        for (unsigned oi = 0; oi < nn; oi++) {
            long nx = x + (oi < N ? p->off[oi][0] : 0), ny = y + (oi < N ? p->off[oi][1] : 0);
            if (nbi_blocked(p, nx, ny))
                continue;
            if (o->box && (nx < o->box[0] || ny < o->box[1] || nx > o->box[2] || ny > o->box[3]))
                continue;
            uint32_t base = (uint32_t)(((size_t)ny * p->W + nx) * K);
            for (unsigned h1 = 0; h1 < K; h1++)
                for (int rev = 0; rev <= o->reverse; rev++) {
                    double len;
                    unsigned code;
                    int ok = id == NBI_START_ID(p)
                                 ? nbi_edge_pose(p, start, nx, ny, h1, rev, &len, &code)
                                 : nbi_edge(p, x, y, h, oi, h1, rev, o->onthefly, &len, &code);
                    if (!ok)
                        continue;
                    p->generated++;
                    double ng = g + (rev ? len * pen : len);
                    uint32_t nid = base + h1;
                    if (nbi_seen(p, nid) && ng >= p->g[nid])
                        continue; /* not worth a heuristic */
                    nb_pose q = nbi_centre_pose(p, nx, ny, h1);
                    if (nbi_relax(p, nid, id, code, ng, nbi_heuristic(p, &q, gx, gy, o->reverse)) < 0) {
                        *reason = nbi_reason_nomem;
                        return 0;
                    }
                }
        }
    }
    *reason = "no path for the unit";
    return 0;
}
