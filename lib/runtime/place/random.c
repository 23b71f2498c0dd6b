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
 * order in O(log runs).  The budget counts draws, and a draw ends the
 * query: a step costs O(log runs) on any section that passes (runs.c). */
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

/* The draw: the component of the start (every cell without one), an index
 * in it drawn without bias, and the runs turn the index into its cell. */
static void draw(const nb_place *p, const nb_random_query *q, nb_random_result *res)
{
    uint32_t w = p->clear.width, comp = 0;
    no_draw(res, q->seed);
    if (q->reachable) {
        comp = nbi_layer_value(&p->comp, (uint64_t)q->start.y * w + (uint64_t)q->start.x);
        if (comp == 0) {
            res->status = NB_PATH_START_BLOCKED;
            return;
        }
    }
    res->cells = nbi_runs_size(&p->runs, comp);
    if (res->cells == 0)
        return;
    uint64_t state = q->seed;
    uint32_t k = (uint32_t)nbi_random_below(&state, res->cells);
    uint32_t i = nbi_runs_cell(&p->runs, comp, k, &res->component);
    res->cell.x = (int32_t)(i % w);
    res->cell.y = (int32_t)(i / w);
    res->state = state;
    res->status = NB_PATH_FOUND;
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
    p->done = 0;
    return nbi_done(err, NB_OK);
}

nb_status nb_random_step(nb_place *p, uint64_t expansions, int *done, nb_err *err)
{
    if (!p || p->kind != NBI_PLACE_RANDOM)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_step: no random draw begun");
    if (!p->done && expansions > 0) {
        draw(p, &p->rq, &p->rres);
        p->done = 1;
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
    if (!p->done)
        p->rres.status = NB_PATH_LIMIT; /* finished before its one draw */
    *res = p->rres;
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
    draw(p, q, res);
    return nbi_done(err, NB_OK);
}
