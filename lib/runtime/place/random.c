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
 * order in O(log runs). */
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

nb_status nb_random_standable(const nb_place *p, const nb_cell *from, uint64_t *state,
                              nb_random_result *res, nb_err *err)
{
    if (!p || !state || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_random_standable: NULL argument");
    memset(res, 0, sizeof *res);
    res->cell.x = res->cell.y = -1;
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    if (!p->has_runs || (from && !p->has_comp)) {
        nb_capability_format(p->b, p->cap, caps, sizeof caps);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no %s for capability {%s} and size %u, which random cells need; "
                        "bake it with mkclear",
                        p->b->path, p->has_runs ? "component layer" : "runs section", caps,
                        p->size);
    }
    uint32_t w = p->clear.width, comp = 0;
    if (from) {
        if (from->x < 0 || from->y < 0 || (uint32_t)from->x >= w ||
            (uint32_t)from->y >= p->clear.height)
            return nbi_fail(err, NB_ERR_ARG,
                            "nb_random_standable: from (%d, %d) is outside the %u x %u map",
                            from->x, from->y, w, p->clear.height);
        comp = nbi_layer_value(&p->comp, (uint64_t)from->y * w + (uint64_t)from->x);
        if (comp == 0) {
            res->status = NB_PATH_START_BLOCKED;
            return nbi_done(err, NB_OK);
        }
    }
    res->cells = nbi_runs_size(&p->runs, comp);
    if (res->cells == 0) {
        res->status = NB_PATH_NONE;
        return nbi_done(err, NB_OK);
    }
    uint32_t k = (uint32_t)nbi_random_below(state, res->cells);
    uint32_t i = nbi_runs_cell(&p->runs, comp, k, &res->component);
    res->cell.x = (int32_t)(i % w);
    res->cell.y = (int32_t)(i / w);
    res->status = NB_PATH_FOUND;
    return nbi_done(err, NB_OK);
}
