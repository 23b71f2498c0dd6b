/* world_haa.c: HAA* across a world's tiles as the public query
 * (nb_world_haa_find, navbake.h): nb_haa_find's query and result on world
 * cells, answered by haa_world.c's search above the tiles, one of its
 * workspaces a (capability, size) the queries name, made at the first.
 *
 * An overlay that blocks cells is answered on the edited grid: the tiles
 * it edits are walked cell by cell instead of through the world graph
 * (haa_edit.c).  What it refuses rather than answers wrongly: terrain
 * costs (the world graph holds plain distances), smoothing and partial
 * paths (neither is written across tiles). */
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
    /* The query in progress (begin, step, finish; find is the three). */
    int phase;
    nb_haa_query q;
    const nb_world_overlay *ov;
    nbi_whaa *s;
    nbi_whaa_result r;
    nb_haa_result res;     /* the answer, once PH_DONE */
};

enum { PH_IDLE = 0, PH_ENDS, PH_SEARCH, PH_REFINE, PH_DONE };

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
    if (ws->phase == PH_SEARCH)
        nbi_whaa_abandon(ws->s);
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
    if ((st = nbi_wopv_check(ov, ws->w, FAMILY, err)) != NB_OK)
        return st;
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

/* The answer of the search's result r, into res. */
static void answer(nb_world_haa *ws, const nbi_whaa_result *r, nb_haa_result *res)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    res->searched = 1;
    res->expanded = res->expanded_search = r->expanded;
    res->level = 1;
    if (r->start_blocked || r->goal_blocked) {
        res->status = r->start_blocked ? NB_PATH_START_BLOCKED : NB_PATH_GOAL_BLOCKED;
        res->searched = 0;
        return;
    }
    if (r->limit) {
        /* As nb_haa_find stopped before its abstract path: the start alone. */
        res->status = NB_PATH_LIMIT;
        ws->start = ws->q.start;
        res->path = &ws->start;
        res->path_len = 1;
        return;
    }
    if (!r->found) {
        res->searched = !r->apart;
        return;
    }
    res->status = NB_PATH_FOUND;
    res->length = res->cost = res->cell_length = r->length;
    res->abstract_length = r->abstract_length;
    res->abstract_len = r->abstract_len;
    res->path = r->path;
    res->path_len = r->path_len;
}

static nb_status begin(nb_world_haa *ws, const nb_haa_query *q, const nb_world_overlay *ov,
                       nb_err *err)
{
    if (ws->phase == PH_SEARCH) /* begin abandons a query in progress */
        nbi_whaa_abandon(ws->s);
    ws->phase = PH_IDLE;
    ws->nneeded = 0;
    nbi_whaa *s = NULL;
    nb_status st = check(ws, q, ov, err);
    if (st == NB_OK)
        st = agent_search(ws, q->capability, q->size, &s, err);
    if (st != NB_OK)
        return st;
    nbi_whaa_set_query(s, q->flags & NB_HAA_STRAIGHTEN, q->max_expansions);
    ws->q = *q;
    ws->ov = ov;
    ws->s = s;
    ws->phase = PH_ENDS;
    return NB_OK;
}

/* An error ends the query; NB_ERR_UNLOADED keeps its place (phase). */
static nb_status step(nb_world_haa *ws, uint64_t expansions, int *done, nb_err *err)
{
    nb_status st = NB_OK;
    *done = 0;
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_haa_step: no query begun (nb_world_haa_begin)");
    ws->nneeded = 0;
    if (ws->phase == PH_ENDS) {
        st = nbi_whaa_begin(ws->s, ws->q.start, ws->q.goal, ws->ov, &ws->r, ws->needed,
                            ws->ntiles, &ws->nneeded, err);
        if (st == NB_OK)
            ws->phase = nbi_whaa_running(ws->s) ? PH_SEARCH : PH_DONE;
    }
    if (st == NB_OK && ws->phase == PH_SEARCH) {
        st = nbi_whaa_search(ws->s, expansions, &ws->r, err);
        if (st == NB_OK && !nbi_whaa_running(ws->s))
            ws->phase = PH_REFINE;
    }
    if (st == NB_OK && ws->phase == PH_REFINE) {
        int redo = 0;
        st = nbi_whaa_end(ws->s, &ws->r, ws->needed, ws->ntiles, &ws->nneeded, &redo, err);
        if (st == NB_OK)
            ws->phase = PH_DONE;
        else if (st == NB_ERR_UNLOADED && redo)
            ws->phase = PH_ENDS; /* an edited tile the search walks: it runs again */
    }
    if (st == NB_OK && ws->phase == PH_DONE)
        answer(ws, &ws->r, &ws->res);
    if (st != NB_OK && st != NB_ERR_UNLOADED)
        ws->phase = PH_IDLE;
    *done = ws->phase == PH_DONE || ws->phase == PH_IDLE;
    return st;
}

static nb_status finish(nb_world_haa *ws, nb_haa_result *res, nb_err *err)
{
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG,
                        "nb_world_haa_finish: no query begun (nb_world_haa_begin)");
    if (ws->phase != PH_DONE) {
        /* Before the end: as a search stopped at its limit, the start alone. */
        if (ws->phase == PH_SEARCH)
            nbi_whaa_abandon(ws->s);
        nbi_whaa_result r = ws->r;
        if (ws->phase == PH_ENDS)
            memset(&r, 0, sizeof r);
        r.limit = 1;
        r.start_blocked = r.goal_blocked = 0;
        answer(ws, &r, &ws->res);
    }
    ws->phase = PH_IDLE;
    *res = ws->res;
    return nbi_done(err, NB_OK);
}

nb_status nb_world_haa_begin(nb_world_haa *ws, const nb_haa_query *q, const nb_world_overlay *ov,
                             nb_err *err)
{
    if (!ws || !q)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace or query", FAMILY);
    return nbi_done(err, begin(ws, q, ov, err));
}

nb_status nb_world_haa_step(nb_world_haa *ws, uint64_t expansions, int *done, nb_err *err)
{
    int d;
    if (!done)
        done = &d;
    *done = 0;
    if (!ws)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_haa_step: a NULL workspace");
    return nbi_done(err, step(ws, expansions, done, err));
}

nb_status nb_world_haa_finish(nb_world_haa *ws, nb_haa_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
    }
    if (!ws || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_haa_finish: a NULL workspace or result");
    return finish(ws, res, err);
}

nb_status nb_world_haa_find(nb_world_haa *ws, const nb_haa_query *q, const nb_world_overlay *ov,
                            nb_haa_result *res, nb_err *err)
{
    NBI_WQUERY_BEGIN(ws, q, res, FAMILY, err);
    int done;
    nb_status st = begin(ws, q, ov, err);
    if (st == NB_OK)
        st = step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return finish(ws, res, err);
    ws->phase = PH_IDLE; /* find's NB_ERR_UNLOADED ends it: the game asks again */
    return st;
}
