/* random.c: a standable cell drawn uniformly from a component (Detour's
 * findRandomPoint, on a grid), reproducible from a caller's seed.
 *
 * The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), whose whole state is the
 * caller's 64-bit integer: nothing is global, threads draw with states of
 * their own, and the same seed gives the same cells on every platform,
 * since every step is 64-bit unsigned arithmetic.  An index below the
 * component's size is drawn by rejection, without modulo bias, and the
 * runs section (runs.c) turns it into the cell of that rank in row-major
 * order in O(log runs).  Under an overlay that blocks cells a cell drawn
 * so is kept only where the overlay leaves it to the agent (clearance/reach.c
 * tells reach), else another is drawn: rejection keeps the draw uniform among
 * the cells kept, and the budget counts draws.  A draw costs O(log runs)
 * on any section that passes (runs.c), and without an overlay the first
 * draw ends the query. */
#include "place/place.h"

uint64_t nbi_splitmix64(uint64_t *state)
{
    /* The state steps by 2^64 / phi, an odd number, so it meets every 64-bit value before it
     * repeats; each value is mixed by Stafford's variant 13 of MurmurHash3's finalizer, as
     * the paper's generator does. */
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t nbi_random_below(uint64_t *state, uint64_t n)
{
    /* 2^64 mod n values at the bottom would come up once too often; (0 - n) % n is 2^64 mod
     * n in 64-bit unsigned arithmetic. */
    uint64_t reject = (0 - n) % n, r;
    do
        r = nbi_splitmix64(state);
    while (r < reject);
    return r % n;
}

static const char family[] = "random";

nb_status nb_random_query_init_abi(nb_random_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_random_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* no overlay, no limit */
    q->size = 1;
    return NB_OK;
}

void nb_random_query_agent(nb_random_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
}

/* A result with nothing drawn: the state the seed. */
static void no_draw(nb_random_result *res, uint64_t seed)
{
    memset(res, 0, sizeof *res);
    res->cell.x = res->cell.y = -1;
    res->status = NB_PATH_NONE;
    res->state = seed;
}

/* The checks of a draw (the errors of nb_random_find), and the place's
 * agent made the query's. */
static nb_status check(nb_place *p, const nb_random_query *q, nb_err *err)
{
    nb_status st = nbi_place_check(p, family, q->size, q->overlay, err);
    if (st == NB_OK && q->reachable)
        st = nbi_query_cell(err, family, "start", q->start, p->b->width, p->b->height);
    if (st == NB_OK)
        st = nbi_place_bind(p, family, q->capability, q->size, q->overlay, err);
    if (st != NB_OK)
        return st;
    if (!p->has_runs || (q->reachable && !p->has_comp)) {
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
        nb_capability_format(p->b, p->cap, caps, sizeof caps);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: %s: no %s for capability {%s} and size %u, which random cells need; "
                        "bake it with mkclear",
                        family, p->b->path, p->has_runs ? "component layer" : "runs section", caps,
                        p->size);
    }
    return NB_OK;
}

/* Why the layers deny cell i, whose clearance is v and component c, the runs gave to component
 * comp: out of the way of the draws, which read the two layers inline (denied). */
static NBP_NOINLINE nb_status denied_why(const nb_place *p, uint32_t i, uint32_t comp, uint32_t v,
                                         uint32_t c, nb_err *err)
{
    uint32_t w = p->clear.width, x = i % w, y = i / w;
    if (v < p->size)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: %s: section %ld (runs) gives cell (%u, %u), where the clearance "
                        "layer (section %ld) says an agent of size %u cannot stand (clearance "
                        "%u): the runs are not that layer's",
                        family, p->b->path, p->runs.section, x, y, p->clear.section, p->size, v);
    return nbi_fail(err, NB_ERR_FORMAT,
                    "%s: %s: section %ld (runs) gives cell (%u, %u) to component %u, which "
                    "the component layer (section %ld) puts in component %u: the runs are "
                    "not that layer's",
                    family, p->b->path, p->runs.section, x, y, comp, p->comp.section, c);
}

/* A cell the runs gave that the layers deny: the runs section lies (the
 * check at open cannot see it; verify --deep can).  Two reads of layers
 * the place holds cost nothing beside the draw, so a draw never hands a
 * game a cell its agent cannot stand on, or one of another component. */
static inline NBP_ALWAYS_INLINE nb_status denied(const nb_place *p, uint32_t i, uint32_t comp,
                                                 nb_err *err)
{
    uint32_t v = nbi_layer_value(&p->clear, i);
    uint32_t c = p->has_comp ? nbi_comp_value(&p->comp, i) : comp;
    return v >= p->size && c == comp ? NB_OK : denied_why(p, i, comp, v, c, err);
}

/* Whether the overlay leaves the agent a cell to stand on among the runs' cells, every
 * component's (cells of them): blocks take at most size^2 anchors each, so only an overlay of
 * that many cells or more may take them all, and then the cells are read one by one. */
static int any_left(const nb_place *p, uint64_t cells)
{
    uint64_t n = (uint64_t)p->size * p->size;
    if (!p->ov || cells / n > p->ov->blocked)
        return cells > 0;
    uint32_t w = p->clear.width, c;
    for (uint32_t k = 0; k < cells; k++) {
        uint32_t i = nbi_runs_cell(&p->runs, 0, k, &c);
        if (nbi_overlay_room(p->ov, p->size, i % w, i / w))
            return 1;
    }
    return 0;
}

/* Starts a draw: the component of the start (every cell without one) and how many cells it
 * holds; 0 when the answer needs no draw (start blocked, no cell).  Inlined, as draw_some is,
 * so that a query without an overlay, which ends at its first draw, calls no more than it did
 * before places read overlays. */
static inline NBP_ALWAYS_INLINE int draw_begin(nb_place *p, const nb_random_query *q, nb_random_result *res)
{
    uint32_t w = p->clear.width;
    no_draw(res, q->seed);
    p->rcomp = 0;
    if (q->reachable) {
        p->rcomp = nbi_comp_value(&p->comp, (uint64_t)q->start.y * w + (uint64_t)q->start.x);
        if (p->rcomp == 0 || !nbi_place_stands(p, (uint32_t)q->start.x, (uint32_t)q->start.y)) {
            res->status = NB_PATH_START_BLOCKED;
            return 0;
        }
    }
    res->cells = nbi_runs_size(&p->runs, p->rcomp);
    /* The start is left with reachable; without, the overlay may leave nothing of the cells
     * of every component (rcomp 0). */
    if (res->cells == 0 || (!q->reachable && !any_left(p, res->cells)))
        return 0;
    res->status = NB_PATH_LIMIT; /* until a cell is kept */
    return 1;
}

static nb_status no_memory(nb_err *err)
{
    return nbi_fail(err, NB_ERR_NOMEM,
                    "random: no memory for the searches that tell reach under the overlay");
}

/* Up to n draws: an index drawn without bias, the runs turn it into its cell, which the
 * layers must allow, kept when the overlay (if any) leaves it to the agent.  1 once the draw
 * has ended (a cell kept, or max_expansions draws made, or an error: then *st, and err says
 * which: NB_ERR_FORMAT for runs that lie, NB_ERR_NOMEM when reach cannot be told). */
static inline NBP_ALWAYS_INLINE int draw_some(nb_place *p, const nb_random_query *q, nb_random_result *res, uint64_t n,
                     nb_status *st, nb_err *err)
{
    uint32_t w = p->clear.width;
    *st = NB_OK;
    for (; n > 0; n--) {
        if (q->max_expansions && res->draws >= q->max_expansions)
            return 1;
        uint64_t state = res->state;
        uint32_t k = (uint32_t)nbi_random_below(&state, res->cells), comp;
        uint32_t i = nbi_runs_cell(&p->runs, p->rcomp, k, &comp);
        if ((*st = denied(p, i, comp, err)) != NB_OK)
            return 1;
        nb_cell c = {(int32_t)(i % w), (int32_t)(i / w)};
        res->state = state;
        res->draws++;
        int keep = !p->ov || nbi_place_stands(p, (uint32_t)c.x, (uint32_t)c.y);
        if (keep && p->ov && q->reachable) {
            *st = nbi_reach_joined(&p->reach, q->start, c, &keep, NULL);
            res->expanded = p->reach.expanded;
            if (*st != NB_OK) {
                *st = no_memory(err);
                return 1;
            }
        }
        if (keep) {
            res->cell = c;
            res->component = comp;
            res->status = NB_PATH_FOUND;
            return 1;
        }
    }
    return 0;
}

nb_status nb_random_begin(nb_place *p, const nb_random_query *q, nb_err *err)
{
    if (!p || !q)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_begin: NULL argument");
    p->kind = NBI_PLACE_IDLE;
    no_draw(&p->rres, q->seed);
    nb_status st = check(p, q, err);
    if (st != NB_OK)
        return st;
    p->rq = *q;
    p->kind = NBI_PLACE_RANDOM;
    p->done = !draw_begin(p, q, &p->rres);
    return nbi_done(err, NB_OK);
}

nb_status nb_random_step(nb_place *p, uint64_t expansions, int *done, nb_err *err)
{
    if (!p || p->kind != NBI_PLACE_RANDOM)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_step: no random draw begun");
    if (!p->done) {
        nb_status st;
        p->done = draw_some(p, &p->rq, &p->rres, expansions, &st, err);
        if (st != NB_OK) { /* an error in step ends the query */
            p->kind = NBI_PLACE_IDLE;
            return st;
        }
    }
    if (done)
        *done = p->done;
    return nbi_done(err, NB_OK);
}

nb_status nb_random_finish(nb_place *p, nb_random_result *res, nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_finish: res is NULL");
    if (!p || p->kind != NBI_PLACE_RANDOM) {
        no_draw(res, 0);
        return nbi_fail(err, NB_ERR_ARG, "nb_random_finish: no random draw begun");
    }
    p->kind = NBI_PLACE_IDLE;
    *res = p->rres; /* LIMIT when finished before a cell was kept */
    return nbi_done(err, NB_OK);
}

/* begin, one step and finish, through the same checks and draw, without
 * copying the query and the result through the place. */
nb_status nb_random_find(nb_place *p, const nb_random_query *q, nb_random_result *res,
                         nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_find: res is NULL");
    if (!p || !q) {
        no_draw(res, q ? q->seed : 0);
        return nbi_fail(err, NB_ERR_ARG, "nb_random_find: NULL argument");
    }
    p->kind = NBI_PLACE_IDLE;
    nb_status st = check(p, q, err);
    if (st != NB_OK) {
        no_draw(res, q->seed);
        return st;
    }
    if (draw_begin(p, q, res)) {
        draw_some(p, q, res, UINT64_MAX, &st, err);
        if (st != NB_OK) {
            no_draw(res, q->seed);
            return st;
        }
    }
    return nbi_done(err, NB_OK);
}
