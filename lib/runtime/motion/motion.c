/* motion.c: motion-constrained search (Sturtevant 2009): A* or weighted
 * A* over (x, y, heading, speed) states of a motion model on a map, with
 * the octile, perimeter, extended perimeter or obstacle-aware heuristics
 * and intermediate search truncation. */
#include <math.h>
#include <stdlib.h>

#include "motion/motion.h"
#include "motion/perimeter.h"
#include "blocked/blocked.h"

static const char *const heuristic_names[NB_MH_COUNT] = {
    "octile", "perimeter", "extended", "grid", "perimeter+grid", "extended+grid", "heading",
    "perimeter+heading", "extended+heading"};

/* What a heuristic is made of: the perimeter table (1) or its extension
 * (2), and the grid distance (1) or the heading-aware time (2). */
static int table_part(int h)
{
    return h == NB_MH_PERIMETER || h == NB_MH_PERIMETER_GRID || h == NB_MH_PERIMETER_HEADING ? 1
           : h == NB_MH_EXTENDED || h == NB_MH_EXTENDED_GRID || h == NB_MH_EXTENDED_HEADING ? 2
                                                                                             : 0;
}

static int obstacle_part(int h)
{
    return h >= NB_MH_GRID && h <= NB_MH_EXTENDED_GRID ? 1 : h >= NB_MH_HEADING ? 2 : 0;
}

const char *nb_motion_heuristic_name(nb_motion_heuristic h)
{
    return (unsigned)h < NB_MH_COUNT ? heuristic_names[h] : NULL;
}

nb_status nb_motion_heuristic_parse(const char *name, nb_motion_heuristic *heuristic,
                                    nb_err *err)
{
    for (int h = 0; name && h < NB_MH_COUNT; h++)
        if (strcmp(name, heuristic_names[h]) == 0) {
            *heuristic = (nb_motion_heuristic)h;
            return nbi_done(err, NB_OK);
        }
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "no heuristic '%s': octile, perimeter, extended, grid, perimeter+grid, "
                    "extended+grid, heading, perimeter+heading or extended+heading",
                    name ? name : "(null)");
}

nb_status nb_motion_query_init_abi(nb_motion_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_motion_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q);
    q->heuristic = NB_MH_OCTILE;
    q->weight = 1;
    q->reopen = -1;
    q->overlay = NULL;
    return NB_OK;
}

void nb_motion_close(nb_motion *ws)
{
    if (!ws)
        return;
    nbi_cellblocks_free(&ws->blocks);
    nbi_free(ws->a, ws->block_cell);
    nbi_free(ws->a, ws->nodes);
    nbi_heap_free(&ws->open);
    nbi_headdist_free(&ws->turns);
    nbi_griddist_free(&ws->grid);
    nbi_sectors_free(&ws->sectors);
    nb_haa_close(ws->haa);
    nbi_free(ws->a, ws->goals);
    nbi_free(ws->a, ws->path);
    nbi_free(ws->a, ws->route);
    nbi_free(ws->a, ws);
}

nb_status nb_motion_open(const nb_bundle *b, const nb_model *m, const nb_perimeter *p,
                         nb_capability cap, unsigned size, nb_motion **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_motion_open: no place for the workspace");
    *out = NULL;
    if (!b || !m)
        return nbi_fail(err, NB_ERR_ARG, "nb_motion_open: %s is NULL", b ? "model" : "bundle");
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no map to plan on", b->path);
    nb_motion *ws = nbi_zalloc_array(b->a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a motion workspace");
    ws->bundle = b;
    ws->a = b->a;
    ws->m = m;
    ws->p = p;
    ws->cap = cap;
    ws->size = size;
    ws->w = b->width;
    ws->h = b->height;
    ws->sh = m->nheadings * m->nspeeds;
    nb_status st = NB_OK;
    int ok = nbi_cellblocks_init(&ws->blocks, ws->a, ws->w, ws->h);
    ws->cap_blocks = 256;
    ws->block_cell = nbi_alloc_array(ws->a, ws->cap_blocks, sizeof *ws->block_cell);
    ws->nodes = nbi_alloc_array(ws->a, ws->cap_blocks * ws->sh, sizeof *ws->nodes);
    ws->path_cap = ws->route_cap = 256;
    ws->path = nbi_alloc_array(ws->a, ws->path_cap, sizeof *ws->path);
    ws->route = nbi_alloc_array(ws->a, ws->route_cap, sizeof *ws->route);
    if (!ok || !ws->block_cell || !ws->nodes || !ws->path || !ws->route ||
        !nbi_heap_init(&ws->open, ws->a, 4096, NULL))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a motion workspace on a %u x %u map", ws->w,
                      ws->h);
    if (st == NB_OK)
        st = nbi_stand_init(&ws->stand, b, cap, size, err);
    if (st == NB_OK)
        st = nbi_griddist_init(&ws->grid, ws->a, m, &ws->stand, err);
    if (st == NB_OK)
        st = nbi_headdist_init(&ws->turns, ws->a, m, &ws->grid, err);
    if (st != NB_OK) {
        nb_motion_close(ws);
        return st;
    }
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_motion_use_sectors(nb_motion *ws, unsigned side, nb_err *err)
{
    if (side < 1 || side > 1024)
        return nbi_fail(err, NB_ERR_ARG, "sector side %u, expected 1 to 1024", side);
    if (ws->has_sectors && ws->sectors.size == side)
        return nbi_done(err, NB_OK);
    nbi_sectors_free(&ws->sectors);
    memset(&ws->sectors, 0, sizeof ws->sectors);
    ws->has_sectors = 0;
    nb_status st = nbi_sectors_build(&ws->sectors, ws->a, &ws->stand, side, err);
    /* No abstract path has more places than the regions. */
    if (st == NB_OK)
        st = nbi_motion_goals_room(ws, ws->sectors.nregions + 2, err);
    ws->has_sectors = st == NB_OK;
    return nbi_done(err, st);
}

void nb_motion_set_max_nodes(nb_motion *ws, uint64_t max_nodes) { ws->max_nodes = max_nodes; }

size_t nb_motion_bytes(const nb_motion *ws)
{
    size_t n = sizeof *ws + nbi_pool_bytes(&ws->blocks.pool) +
               ws->cap_blocks * (sizeof *ws->block_cell + ws->sh * sizeof *ws->nodes) +
               nbi_heap_bytes(&ws->open) + (ws->path_cap + ws->route_cap) * sizeof *ws->path +
               ws->goals_cap * sizeof *ws->goals;
    if (ws->has_sectors)
        n += nbi_sectors_bytes(&ws->sectors);
    return n + nbi_griddist_bytes(&ws->grid) + nbi_headdist_bytes(&ws->turns) +
           (ws->haa ? nb_haa_bytes(ws->haa) : 0);
}

nb_status nbi_motion_goals_room(nb_motion *ws, size_t need, nb_err *err)
{
    if (need <= ws->goals_cap)
        return NB_OK;
    nb_cell *g = nbi_realloc_array(ws->a, ws->goals, need, sizeof *g);
    if (!g)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu intermediate goals", need);
    ws->goals = g;
    ws->goals_cap = need;
    return NB_OK;
}

int nb_motion_standable(const nb_motion *ws, long x, long y)
{
    return nbi_stand_at(&ws->stand, x, y);
}

/* The state one action leads to, and its cost; 0 when the step is not
 * legal (the start cell, the cells it passes through and the end cell must
 * all be standable).  The start is assumed standable. */
static int step(nb_motion *ws, const nb_motion_state *s, int turn, unsigned l2,
                nb_motion_state *to, double *cost)
{
    const nb_model *m = ws->m;
    unsigned H = m->nheadings, h2 = (unsigned)(((int)s->heading + turn) % (int)H + (int)H) % H;
    int dir = nbi_model_dir(m, l2);
    to->x = s->x;
    to->y = s->y;
    to->heading = (uint16_t)h2;
    to->speed = (uint16_t)l2;
    if (dir) {
        if (!nbi_move_legal(&ws->grid, s->x, s->y, ws->grid.move_of[dir < 0][h2]))
            return 0;
        to->x += dir * m->dx[h2];
        to->y += dir * m->dy[h2];
    }
    *cost = nbi_model_cost(m, h2, l2, turn);
    return 1;
}

int nb_motion_action(nb_motion *ws, const nb_motion_state *s, int turn, unsigned speed,
                   nb_motion_state *to, double *cost)
{
    const nb_model *m = ws->m;
    if (s->heading >= m->nheadings || s->speed >= m->nspeeds || speed >= m->nspeeds ||
        speed < nbi_model_lo(m, s->speed) || speed > nbi_model_hi(m, s->speed) ||
        turn < -(int)m->turn[speed] || turn > (int)m->turn[speed] || /* no abs(): INT_MIN */
        !nb_motion_standable(ws, s->x, s->y))
        return 0;
    return step(ws, s, turn, speed, to, cost);
}

nb_status nbi_motion_check(const nb_motion *ws, const nb_motion_query *q, nb_err *err)
{
    static const char family[] = "motion search";
    const nb_model *m = ws->m;
    const nb_motion_state *st[2] = {&q->start, &q->goal};
    static const char *const what[2] = {"start", "goal"};
    nb_status cst;
    /* The order every family keeps (core/query.c): malformed, off the
     * map, not baked, not honoured. */
    for (int i = 0; i < 2; i++) {
        if (i == 1 && st[i]->heading == NB_HEADING_ANY && st[i]->speed != m->stop &&
            st[i]->speed != NB_SPEED_ANY)
            return nbi_fail(err, NB_ERR_ARG,
                            "%s: a goal at any heading is stopped or at any speed", family);
        if ((st[i]->heading >= m->nheadings && !(i == 1 && st[i]->heading == NB_HEADING_ANY)) ||
            (st[i]->speed >= m->nspeeds && !(i == 1 && st[i]->speed == NB_SPEED_ANY)))
            return nbi_fail(err, NB_ERR_ARG,
                            "%s: the %s's heading %u or speed %u is not one of model %s's "
                            "(%u headings, %u speeds)",
                            family, what[i], st[i]->heading, st[i]->speed, m->name, m->nheadings,
                            m->nspeeds);
    }
    if ((unsigned)q->heuristic >= NB_MH_COUNT)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown heuristic %d", family, (int)q->heuristic);
    if ((unsigned)q->abstraction > NB_ROUTE_HAA)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown route abstraction %d", family,
                        (int)q->abstraction);
    if (q->heading_classes && (q->heading_classes > m->nheadings || m->nheadings % q->heading_classes))
        return nbi_fail(err, NB_ERR_ARG,
                        "%s: %u classes of headings do not divide model %s's %u headings", family,
                        q->heading_classes, m->name, m->nheadings);
    if (!(q->weight >= 1 && q->weight <= 100))
        return nbi_fail(err, NB_ERR_ARG, "%s: weight %g, expected 1 to 100", family, q->weight);
    if ((cst = nbi_overlay_check(q->overlay, ws->bundle, family, err)) != NB_OK)
        return cst;
    for (int i = 0; i < 2; i++)
        if ((cst = nbi_query_cell(err, family, what[i], (nb_cell){st[i]->x, st[i]->y}, ws->w,
                                  ws->h)) != NB_OK)
            return cst;
    if (!ws->p && table_part(q->heuristic))
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: the %s heuristic needs the perimeter table of model %s (bake it with "
                        "mkperim)",
                        family, heuristic_names[q->heuristic], m->name);
    if (q->overlay)
        return nbi_query_unsupported(err, family, "read overlays yet");
    return NB_OK;
}

nb_path_status nbi_motion_blocked(const nb_motion *ws, const nb_motion_query *q)
{
    if (!nb_motion_standable(ws, q->start.x, q->start.y))
        return NB_PATH_START_BLOCKED;
    if (!(q->goal.speed == NB_SPEED_ANY && q->goal.heading == NB_HEADING_ANY) &&
        !nb_motion_standable(ws, q->goal.x, q->goal.y))
        return NB_PATH_GOAL_BLOCKED;
    return NB_PATH_NONE;
}

/* ---- nodes: a block of states per cell touched, made on first touch ---- */

static void nodes_reset(nb_motion *ws)
{
    nbi_cellblocks_begin(&ws->blocks);
    ws->nblocks = 0;
}

/* The node of a state, made when new; NBI_HEAP_NONE when out of memory. */
static uint32_t node_of(nb_motion *ws, const nb_motion_state *s)
{
    size_t cell = (size_t)s->y * ws->w + (size_t)s->x;
    uint32_t *entry = nbi_cellblocks_entry(&ws->blocks, s->x, s->y);
    if (!entry)
        return NBI_HEAP_NONE;
    uint32_t b = *entry;
    if (b == NBI_HEAP_NONE) {
        if (ws->max_nodes && (ws->nblocks + 1) * ws->sh > ws->max_nodes) {
            ws->capped = 1; /* the caller's cap, not memory: the search ends at its limit */
            return NBI_HEAP_NONE;
        }
        if (ws->nblocks == ws->cap_blocks) {
            size_t cap = 2 * ws->cap_blocks;
            if ((uint64_t)cap * ws->sh >= UINT32_MAX)
                return NBI_HEAP_NONE;
            uint32_t *bc = nbi_realloc_array(ws->a, ws->block_cell, cap, sizeof *bc);
            if (!bc)
                return NBI_HEAP_NONE;
            ws->block_cell = bc;
            nbi_mnode *nn = nbi_realloc_array(ws->a, ws->nodes, cap * ws->sh, sizeof *nn);
            if (!nn)
                return NBI_HEAP_NONE;
            ws->nodes = nn;
            ws->cap_blocks = cap;
        }
        b = (uint32_t)ws->nblocks++;
        *entry = b;
        ws->block_cell[b] = (uint32_t)cell;
        nbi_mnode *n = ws->nodes + (size_t)b * ws->sh;
        for (unsigned i = 0; i < ws->sh; i++) {
            n[i].g = INFINITY;
            n[i].h = NAN;
            n[i].parent = NBI_HEAP_NONE;
            n[i].closed = 0;
            n[i].bound = 0;
        }
    }
    return b * ws->sh + s->speed * ws->m->nheadings + s->heading;
}

void nbi_motion_decode(const nb_motion *ws, uint32_t id, nb_motion_state *s)
{
    uint32_t cell = ws->block_cell[id / ws->sh], st = id % ws->sh;
    s->x = (int32_t)(cell % ws->w);
    s->y = (int32_t)(cell / ws->w);
    s->speed = (uint16_t)(st / ws->m->nheadings);
    s->heading = (uint16_t)(st % ws->m->nheadings);
}

unsigned nbi_motion_heading_toward(const nb_model *m, long dx, long dy, unsigned fallback)
{
    if (dx == 0 && dy == 0)
        return fallback;
    double best = -2, n = hypot((double)dx, (double)dy);
    unsigned h = fallback;
    for (unsigned k = 0; k < m->nheadings; k++) {
        double c = (dx * m->dx[k] + dy * m->dy[k]) / (n * m->len[k]);
        if (c > best + 1e-12) {
            best = c;
            h = k;
        }
    }
    return h;
}

/* ---- heuristics ---- */

static int at_goal(const nb_motion *ws, const nb_motion_state *s)
{
    const nb_motion_state *g = &ws->goal;
    return s->x == g->x && s->y == g->y && (g->speed == NB_SPEED_ANY || s->speed == g->speed) &&
           (g->heading == NB_HEADING_ANY || s->heading == g->heading);
}

/* The heuristic of state s.  With bound not NULL, the heading-aware part
 * may be a lower bound (*bound set to 1), its search going on only until
 * the value reaches need (0: not at all); it is worked out further when
 * the state comes to the top of the open list. */
static double heuristic(nb_motion *ws, const nb_motion_state *s, double need, uint8_t *bound)
{
    const nb_model *m = ws->m;
    const nb_motion_state *g = &ws->hgoal;
    double oct = hypot((double)(s->x - g->x), (double)(s->y - g->y)) / m->vmax, v, best = oct;
    if (at_goal(ws, s) && g == &ws->goal)
        return 0;
    int table = table_part(ws->heuristic), obstacles = obstacle_part(ws->heuristic);
    int r = NB_PERIM_OUTSIDE;
    if (table == 1)
        r = nb_perimeter_lookup(ws->p, s, g, &v);
    else if (table == 2)
        r = nb_perimeter_extended(ws->p, s, g, &v);
    if (r != NB_PERIM_OUTSIDE && v > best)
        best = v;
    if (obstacles == 1) {
        v = nbi_griddist_get(&ws->grid, s->x, s->y) / m->vmax;
        if (v > best)
            best = v;
    } else if (obstacles == 2) {
        int exact = 1;
        if (!bound)
            v = nbi_headdist_get(&ws->turns, s->x, s->y, s->heading);
        else if (need <= best)
            v = nbi_headdist_bound(&ws->turns, s->x, s->y, s->heading, &exact);
        else
            v = nbi_headdist_raise(&ws->turns, s->x, s->y, s->heading, need, &exact);
        if (v > best)
            best = v;
        if (bound)
            *bound = !exact;
    }
    return best;
}

nb_status nbi_motion_room(const nb_allocator *a, nb_motion_state **buf, size_t *cap, size_t need,
                          nb_err *err)
{
    if (need <= *cap)
        return NB_OK;
    size_t c = *cap;
    while (c < need)
        c *= 2;
    nb_motion_state *p = nbi_realloc_array(a, *buf, c, sizeof *p);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a path of %zu states", need);
    *buf = p;
    *cap = c;
    return NB_OK;
}

static int within(const nb_motion_state *s, const nb_motion_state *g, unsigned k)
{
    return (unsigned long)labs((long)s->x - g->x) <= k && (unsigned long)labs((long)s->y - g->y) <= k;
}

/* Checks the query and starts it: ws->phase DONE when it is answered without a search, else
 * RUNNING with the start on the open list. */
static nb_status begin(nb_motion *ws, const nb_motion_query *q, nb_err *err)
{
    nb_motion_result *r = &ws->res;
    ws->phase = NBI_MQ_IDLE;
    memset(r, 0, sizeof *r);
    r->status = NB_PATH_NONE;
    ws->path_len = 0;
    nb_status st = nbi_motion_check(ws, q, err);
    if (st != NB_OK)
        return st;
    ws->q = *q;
    ws->end = ws->best = NBI_HEAP_NONE;
    ws->phase = NBI_MQ_DONE;
    if ((r->status = nbi_motion_blocked(ws, q)) != NB_PATH_NONE)
        return NB_OK;
    ws->reopen = q->reopen >= 0 ? q->reopen : q->weight == 1;
    ws->goal = ws->hgoal = q->goal;
    ws->heuristic = q->heuristic;
    /* A truncated search ends near the goal at any heading and speed: steer
     * it toward passing through the goal's cell when the table knows how. */
    if (q->truncate && ws->p && nbi_perimeter_has_any(ws->p)) {
        ws->hgoal.heading = NB_HEADING_ANY;
        ws->hgoal.speed = NB_SPEED_ANY;
    }
    nodes_reset(ws);
    ws->capped = 0;
    nbi_heap_clear(&ws->open);
    if (obstacle_part(q->heuristic) == 1)
        nbi_griddist_reset(&ws->grid, q->goal.x, q->goal.y, q->start.x, q->start.y);
    else if (obstacle_part(q->heuristic) == 2)
        nbi_headdist_reset(&ws->turns, q->heading_classes, ws->hgoal.x, ws->hgoal.y, ws->hgoal.heading,
                           ws->heading_box ? q->truncate : 0, q->start.x, q->start.y);

    /* Every step passes through cells joined by octile moves that cut no
     * corner, so cells in different components of the bundle's layer
     * (mkclear) cannot be joined: no need to search. */
    if (!q->truncate && nb_reachable(ws->bundle, ws->cap, ws->size, (nb_cell){q->start.x, q->start.y},
                                     (nb_cell){q->goal.x, q->goal.y}) == 0)
        return NB_OK;
    uint32_t sid = node_of(ws, &q->start);
    if (sid == NBI_HEAP_NONE && ws->capped) {
        r->status = NB_PATH_LIMIT; /* no room for the start's states: phase DONE */
        return NB_OK;
    }
    ws->phase = NBI_MQ_IDLE;
    if (sid == NBI_HEAP_NONE)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the search");
    nbi_mnode *sn = &ws->nodes[sid];
    sn->g = 0;
    sn->h = heuristic(ws, &q->start, 0, NULL);
    r->h_start = sn->h;
    if (isfinite(sn->h) && !nbi_heap_push(&ws->open, q->weight * sn->h, 0, sid))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the open list");
    ws->phase = NBI_MQ_RUNNING;
    return NB_OK;
}

static nb_status no_memory(nb_motion *ws, nb_err *err, const char *what)
{
    ws->phase = NBI_MQ_IDLE;
    return nbi_fail(err, NB_ERR_NOMEM, "no memory for %s", what);
}

/* The search begun, for at most budget expansions; ws->phase DONE when it has ended. */
static nb_status run(nb_motion *ws, uint64_t budget, nb_err *err)
{
    const nb_motion_query *q = &ws->q;
    nb_motion_result *r = &ws->res;
    const nb_model *m = ws->m;
    const uint64_t stop = r->expanded + budget < r->expanded ? UINT64_MAX : r->expanded + budget;
    for (;;) {
        if (nbi_heap_empty(&ws->open)) {
            ws->phase = NBI_MQ_DONE;
            return NB_OK;
        }
        if (r->expanded == stop)
            return NB_OK; /* the slice is spent: the next one goes on from here */
        nbi_heap_item it = nbi_heap_pop(&ws->open);
        nbi_mnode *n = &ws->nodes[it.id];
        if (n->closed || it.key > n->g + q->weight * n->h + 1e-9 * (1 + it.key))
            continue; /* a stale entry */
        nb_motion_state s;
        nbi_motion_decode(ws, it.id, &s);
        if (n->bound) {
            /* Its heuristic is a bound: raise it until it is exact or puts
             * the state behind the next one, and then put it back (not an
             * expansion) unless it still comes first. */
            double next = nbi_heap_empty(&ws->open) ? INFINITY : nbi_heap_top(&ws->open)->key;
            double eps = 1e-9 * (1 + fabs(next));
            n->h = heuristic(ws, &s, (next + eps - n->g) / q->weight, &n->bound);
            if (!isfinite(n->h))
                continue;
            double key = n->g + q->weight * n->h;
            if (n->bound || key > next + eps) {
                if (!nbi_heap_push(&ws->open, key, -n->g, it.id))
                    return no_memory(ws, err, "the open list");
                continue;
            }
        }
        if (q->max_expansions && r->expanded >= q->max_expansions) {
            r->status = NB_PATH_LIMIT;
            ws->phase = NBI_MQ_DONE;
            return NB_OK;
        }
        n->closed = 1;
        r->expanded++;
        if (ws->best == NBI_HEAP_NONE || n->h < ws->nodes[ws->best].h ||
            (n->h == ws->nodes[ws->best].h && n->g < ws->nodes[ws->best].g))
            ws->best = it.id;
        if (q->truncate ? within(&s, &q->goal, q->truncate) : at_goal(ws, &s)) {
            ws->end = it.id;
            ws->phase = NBI_MQ_DONE;
            return NB_OK;
        }
        double g = n->g;
        for (unsigned l2 = nbi_model_lo(m, s.speed); l2 <= nbi_model_hi(m, s.speed); l2++) {
            int tl = (int)m->turn[l2];
            for (int t = -tl; t <= tl; t++) {
                nb_motion_state to;
                double c;
                if ((t == 0 && l2 == s.speed && m->speed[l2] == 0) || !step(ws, &s, t, l2, &to, &c))
                    continue;
                uint32_t id = node_of(ws, &to);
                if (id == NBI_HEAP_NONE && ws->capped) {
                    r->status = NB_PATH_LIMIT;
                    ws->phase = NBI_MQ_DONE;
                    return NB_OK;
                }
                if (id == NBI_HEAP_NONE)
                    return no_memory(ws, err, "the search's states");
                nbi_mnode *k = &ws->nodes[id]; /* (node_of may move the nodes) */
                if (!(g + c < k->g - 1e-12))
                    continue;
                if (k->closed) {
                    if (!ws->reopen)
                        continue;
                    k->closed = 0;
                    r->reopened++;
                }
                if (isnan(k->h))
                    k->h = heuristic(ws, &to, 0, &k->bound);
                if (!isfinite(k->h))
                    continue; /* the goal cannot be reached from there */
                k->g = g + c;
                k->parent = it.id;
                r->generated++;
                if (!nbi_heap_push(&ws->open, k->g + q->weight * k->h, -k->g, id))
                    return no_memory(ws, err, "the open list");
            }
        }
    }
}

/* The result of the query begun: found, or stopped (its end or before it: NB_PATH_LIMIT) with
 * the path to the expanded state nearest the goal. */
static nb_status finish(nb_motion *ws, nb_motion_result *out, nb_err *err)
{
    nb_motion_result *r = &ws->res;
    uint32_t to = ws->end;
    if (ws->phase == NBI_MQ_RUNNING)
        r->status = NB_PATH_LIMIT;
    if (to == NBI_HEAP_NONE && r->status == NB_PATH_LIMIT)
        to = ws->best;
    ws->phase = NBI_MQ_IDLE;
    r->grid_expanded = obstacle_part(ws->q.heuristic) == 2   ? ws->turns.expanded
                       : obstacle_part(ws->q.heuristic) == 1 ? ws->grid.expanded
                                                             : 0;
    *out = *r;
    if (to == NBI_HEAP_NONE)
        return NB_OK;
    size_t len = 0;
    for (uint32_t id = to; id != NBI_HEAP_NONE; id = ws->nodes[id].parent)
        len++;
    nb_status st = nbi_motion_room(ws->a, &ws->path, &ws->path_cap, len, err);
    if (st != NB_OK) {
        out->status = NB_PATH_NONE;
        return st;
    }
    size_t i = len;
    for (uint32_t id = to; id != NBI_HEAP_NONE; id = ws->nodes[id].parent)
        nbi_motion_decode(ws, id, &ws->path[--i]);
    ws->path_len = len;
    if (to == ws->end)
        out->status = NB_PATH_FOUND;
    out->cost = ws->nodes[to].g;
    out->path_len = len;
    out->path = ws->path;
    out->end = ws->path[len - 1];
    return NB_OK;
}

nb_status nb_motion_begin(nb_motion *ws, const nb_motion_query *q, nb_err *err)
{
    return nbi_done(err, begin(ws, q, err));
}

nb_status nb_motion_step(nb_motion *ws, uint64_t expansions, int *done, nb_err *err)
{
    if (ws->phase == NBI_MQ_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_motion_step: no query begun (nb_motion_begin)");
    nb_status st = ws->phase == NBI_MQ_RUNNING ? run(ws, expansions, err) : NB_OK;
    *done = st != NB_OK || ws->phase == NBI_MQ_DONE;
    return nbi_done(err, st);
}

nb_status nb_motion_finish(nb_motion *ws, nb_motion_result *r, nb_err *err)
{
    if (ws->phase == NBI_MQ_IDLE) {
        memset(r, 0, sizeof *r);
        r->status = NB_PATH_NONE;
        return nbi_fail(err, NB_ERR_ARG, "nb_motion_finish: no query begun (nb_motion_begin)");
    }
    return nbi_done(err, finish(ws, r, err));
}

nb_status nb_motion_find(nb_motion *ws, const nb_motion_query *q, nb_motion_result *r,
                         nb_err *err)
{
    int done;
    nb_status st = nb_motion_begin(ws, q, err);
    if (st == NB_OK)
        st = nb_motion_step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return nb_motion_finish(ws, r, err);
    memset(r, 0, sizeof *r);
    r->status = NB_PATH_NONE;
    return st;
}
