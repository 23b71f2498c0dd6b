/* world_joined.c: whether two cells of a world are joined on the grid an
 * overlay edits (world_aa.h), for nearest and random with `reachable`:
 * blocks can cut a world component, and nothing stored says where, so the
 * answer is a search.  From the candidate first, bounded: a cell the
 * blocks shut in (the common case of a candidate the component allows but
 * the blocks refuse) is told by a search the size of its pocket; then from
 * the start, unbounded, which tells every other case exactly.  Connection
 * is the same under either corner rule (a diagonal move either rule allows
 * has a free side cell to go round by), so the search takes the strict. */
#include "stream/world_aa.h"

#define FAMILY "world reach"
#define POCKET 4096 /* cells: the bound of the search from the candidate */

static nb_status run(nb_world_aa *h, nb_capability cap, uint32_t size, nb_cell from, nb_cell to,
                     const nb_world_overlay *ov, uint64_t max, nb_aa_result *r, nb_err *err)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = from, q.goal = to, q.size = size, q.capability = cap;
    q.corner = NB_CORNER_STRICT;
    q.max_expansions = max;
    return nb_world_aa_find(h, &q, ov, r, err);
}

nb_status nbi_world_joined(nb_world_aa *ws, nb_capability cap, uint32_t size, nb_cell a, nb_cell b,
                           const nb_world_overlay *ov, int *joined, uint64_t *expanded,
                           nb_err *err)
{
    nb_world_aa **h = nbi_world_aa_helper(ws);
    *joined = 0;
    nb_status st;
    if (!*h && (st = nb_world_aa_open(nbi_world_aa_world(ws), h, err)) != NB_OK)
        return st;
    nb_aa_result r;
    st = run(*h, cap, size, b, a, ov, POCKET, &r, err);
    if (st == NB_OK && r.status == NB_PATH_LIMIT)
        st = run(*h, cap, size, a, b, ov, 0, &r, err);
    if (expanded)
        *expanded += r.expanded;
    if (st == NB_ERR_UNLOADED)
        nbi_world_aa_helper_needed(ws);
    if (st != NB_OK)
        return st;
    *joined = r.status == NB_PATH_FOUND;
    return NB_OK;
}
