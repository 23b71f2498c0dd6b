/* world_haa.c: HAA* across a world's tiles as the public query
 * (nb_world_haa_find, navbake.h): nb_haa_find's query and result on world
 * cells, answered by haa_world.c's search above the tiles, one of its
 * workspaces a (capability, size) the queries name, made at the first.
 *
 * What it refuses rather than answers wrongly: an overlay that blocks
 * cells (the world graph's distances would need HAA*'s cluster repair at
 * tile borders, which is not written), terrain costs (the world graph
 * holds plain distances), smoothing and partial paths (neither is
 * written across tiles). */
#include <string.h>

#include "stream/haa_world.h"
#include "stream/wquery.h"

#define FAMILY "world HAA*"

/* One search above the tiles a (capability, size) asked for. */
typedef struct agent_ws {
    nb_capability cap;
    uint32_t size;
    nbi_whaa *q;
} agent_ws;

struct nb_world_haa {
    const nb_world *w;
    const nb_allocator *a;
    agent_ws *ag;
    size_t nag;
    nb_world_tile *needed; /* the last query's, one entry a tile of the world at most */
    size_t nneeded, ntiles;
    nb_cell start;         /* the path of a search stopped at its limit */
};

nb_status nb_world_haa_open(const nb_world *w, nb_world_haa **out, nb_err *err)
{
    if (out)
        *out = NULL;
    if (!w || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_haa_open: a NULL world or out");
    const nb_allocator *a = w->index->a;
    nb_world_haa *ws = nbi_zalloc_array(a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail_nomem(err, "a world HAA* workspace");
    ws->w = w;
    ws->a = a;
    ws->ntiles = (size_t)w->x.columns * w->x.rows;
    if (!(ws->needed = nbi_alloc_array(a, ws->ntiles, sizeof *ws->needed))) {
        nbi_free(a, ws);
        return nbi_fail_nomem(err, "a world HAA* workspace");
    }
    *out = ws;
    return nbi_done(err, NB_OK);
}

void nb_world_haa_close(nb_world_haa *ws)
{
    if (!ws)
        return;
    for (size_t i = 0; i < ws->nag; i++)
        nbi_whaa_free(ws->ag[i].q);
    nbi_free(ws->a, ws->ag);
    nbi_free(ws->a, ws->needed);
    nbi_free(ws->a, ws);
}

size_t nb_world_haa_bytes(const nb_world_haa *ws)
{
    if (!ws)
        return 0;
    size_t n = sizeof *ws + ws->ntiles * sizeof *ws->needed + ws->nag * sizeof *ws->ag;
    for (size_t i = 0; i < ws->nag; i++)
        n += nbi_whaa_bytes(ws->ag[i].q);
    return n;
}

size_t nb_world_haa_needed(const nb_world_haa *ws, nb_world_tile *needed, size_t max)
{
    if (!ws)
        return 0;
    for (size_t i = 0; needed && i < ws->nneeded && i < max; i++)
        needed[i] = ws->needed[i];
    return ws->nneeded;
}

/* The search for the query's agent, made at its first query. */
static nb_status agent_search(nb_world_haa *ws, nb_capability cap, uint32_t size, nbi_whaa **out,
                              nb_err *err)
{
    for (size_t i = 0; i < ws->nag; i++)
        if (ws->ag[i].cap == cap && ws->ag[i].size == size) {
            *out = ws->ag[i].q;
            return NB_OK;
        }
    nbi_whaa *q;
    nb_status st = nbi_whaa_new(ws->w, cap, size, &q, err);
    if (st != NB_OK)
        return st;
    agent_ws *grown = nbi_realloc_array(ws->a, ws->ag, ws->nag + 1, sizeof *grown);
    if (!grown) {
        nbi_whaa_free(q);
        return nbi_fail_nomem(err, "a world HAA* workspace");
    }
    ws->ag = grown;
    ws->ag[ws->nag++] = (agent_ws){cap, size, q};
    *out = q;
    return NB_OK;
}

/* The query's own faults, in the order of nb_haa_find's, then what is not answered across
 * tiles yet. */
static nb_status check(const nb_world_haa *ws, const nb_haa_query *q, const nb_world_overlay *ov,
                       nb_err *err)
{
    const unsigned known = NB_HAA_SMOOTH | NB_HAA_STRAIGHTEN;
    nb_status st;
    if ((st = nbi_query_size(err, FAMILY, q->size)) != NB_OK)
        return st;
    if (q->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown flags %#x", FAMILY, q->flags & ~known);
    if ((unsigned)q->corner > NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", FAMILY, (int)q->corner);
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells", FAMILY);
    if ((st = nbi_wov_check(ov, ws->w, FAMILY, err)) != NB_OK)
        return st;
    if (ov && ov->blocked)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay that blocks cells is not answered "
                        "across tiles yet (nb_world_aa_find answers it)", FAMILY);
    if (q->flags & NB_HAA_SMOOTH)
        return nbi_fail(err, NB_ERR_ARG, "%s: NB_HAA_SMOOTH is not answered across tiles yet",
                        FAMILY);
    if (q->partial)
        return nbi_fail(err, NB_ERR_ARG, "%s: partial paths are not answered across tiles yet "
                        "(nb_world_aa_find answers them)", FAMILY);
    if (q->costs)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the world's graph holds no terrain costs "
                        "(nb_world_aa_find answers agents with costs)", FAMILY);
    if ((st = nbi_query_cell(err, FAMILY, "start", q->start, ws->w->x.width, ws->w->x.height)) !=
            NB_OK ||
        (st = nbi_query_cell(err, FAMILY, "goal", q->goal, ws->w->x.width, ws->w->x.height)) !=
            NB_OK)
        return st;
    return NB_OK;
}

nb_status nb_world_haa_find(nb_world_haa *ws, const nb_haa_query *q, const nb_world_overlay *ov,
                            nb_haa_result *res, nb_err *err)
{
    NBI_WQUERY_BEGIN(ws, q, res, FAMILY, err);
    ws->nneeded = 0;
    nbi_whaa *s = NULL;
    nb_status st = check(ws, q, ov, err);
    if (st == NB_OK)
        st = agent_search(ws, q->capability, q->size, &s, err);
    if (st != NB_OK)
        return st;
    nbi_whaa_set_query(s, q->flags & NB_HAA_STRAIGHTEN, q->max_expansions);
    nbi_whaa_result r;
    st = nbi_whaa_find(s, q->start, q->goal, &r, ws->needed, ws->ntiles, &ws->nneeded, err);
    if (st != NB_OK)
        return st;
    res->searched = 1;
    res->expanded = res->expanded_search = r.expanded;
    res->level = 1;
    if (r.start_blocked || r.goal_blocked) {
        res->status = r.start_blocked ? NB_PATH_START_BLOCKED : NB_PATH_GOAL_BLOCKED;
        res->searched = 0;
        return nbi_done(err, NB_OK);
    }
    if (r.limit) {
        /* As nb_haa_find stopped before its abstract path: the start alone. */
        res->status = NB_PATH_LIMIT;
        ws->start = q->start;
        res->path = &ws->start;
        res->path_len = 1;
        return nbi_done(err, NB_OK);
    }
    if (!r.found) {
        res->searched = !r.apart;
        return nbi_done(err, NB_OK);
    }
    res->status = NB_PATH_FOUND;
    res->length = res->cost = res->cell_length = r.length;
    res->abstract_length = r.abstract_length;
    res->abstract_len = r.abstract_len;
    res->path = r.path;
    res->path_len = r.path_len;
    return nbi_done(err, NB_OK);
}
