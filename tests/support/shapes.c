/* shapes.c: tests' call shapes on the 1.0 API (shapes.h). */
#include "shapes.h"

#include "haa_of.h"

#include "forest/forest.h"
#include "place/place.h"

nb_haa_query tu_haa_query(const nb_aa_query *q, unsigned flags) { return haa_of(q, flags); }

nb_status tu_haa_find(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_haa_result *res,
                      nb_err *err)
{
    nb_haa_query h = tu_haa_query(q, flags);
    return nb_haa_find(ws, &h, res, err);
}

nb_status tu_haa_begin(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_err *err)
{
    nb_haa_query h = tu_haa_query(q, flags);
    return nb_haa_begin(ws, &h, err);
}

int tu_haa_reachable(nb_haa *ws, const nb_overlay *ov, nb_capability cap, unsigned size,
                     nb_cell from, nb_cell to)
{
    nb_haa_query q;
    nb_haa_query_init(&q);
    q.start = from;
    q.goal = to;
    q.capability = cap;
    q.size = size;
    q.overlay = ov;
    int r;
    return nb_haa_reachable(ws, &q, &r, NULL) == NB_OK ? r : -1;
}

nb_aa_query tu_aa_of_sg(const nb_sg_query *q)
{
    nb_aa_query a;
    nb_aa_query_init(&a);
    a.start = q->start;
    a.goal = q->goal;
    a.capability = q->capability;
    a.size = q->size;
    a.corner = q->corner;
    a.overlay = q->overlay;
    return a;
}

nb_status tu_sg_open(const nb_bundle *b, uint64_t max_nodes, nb_sg **out, nb_err *err)
{
    nb_status st = nb_sg_open(b, out, err);
    if (st == NB_OK)
        nb_sg_set_max_nodes(*out, max_nodes);
    return st;
}

const nb_agent *tu_agent(const nb_bundle *b, const char *name)
{
    size_t i;
    return nb_agent_lookup(b, name, &i, NULL) == NB_OK ? nb_agent_get(b, i) : NULL;
}

nb_status tu_unit(const nb_bundle *b, const char *name, nb_unit *out, nb_err *err)
{
    size_t i;
    nb_status st = nb_unit_lookup(b, name, &i, err);
    return st == NB_OK ? nb_unit_get(b, i, out, err) : st;
}

int tu_forest_radius(const nb_forest *f, double radius)
{
    size_t i;
    return nb_forest_radius_lookup(f, radius, &i, NULL) == NB_OK ? (int)i : -1;
}

int tu_speed(const nb_model *m, const char *name)
{
    size_t l;
    return nb_model_speed_lookup(m, name, &l, NULL) == NB_OK ? (int)l : -1;
}

int tu_heuristic(const char *name)
{
    nb_motion_heuristic h;
    return nb_motion_heuristic_parse(name, &h, NULL) == NB_OK ? (int)h : -1;
}

int tu_abstraction(const char *name)
{
    nb_route_abstraction a;
    return nb_route_abstraction_parse(name, &a, NULL) == NB_OK ? (int)a : -1;
}

uint32_t tu_section_type(const char *name)
{
    uint32_t t;
    return nb_section_type_parse(name, &t, NULL) == NB_OK ? t : 0;
}

nb_status tu_forest_find(const nb_forest *f, double radius, nb_vec2 start, nb_vec2 goal,
                         unsigned flags, nb_forest_ws *ws, nb_forest_result *res, nb_err *err)
{
    nb_forest_query q;
    nb_forest_query_init(&q);
    q.start = start;
    q.goal = goal;
    q.agent_radius = radius;
    q.flags = flags;
    if (ws && nbi_forest_ws_forest(ws) == f)
        return nb_forest_find(ws, &q, res, err);
    nb_forest_ws *own;
    nb_status st = nb_forest_ws_open(f, &own, err);
    if (st == NB_OK)
        st = nb_forest_find(own, &q, res, err);
    /* The path lives in the workspace: copy what the caller reads after. */
    if (st == NB_OK && res->segment_len) {
        static nb_segment keep[4096];
        size_t n = res->segment_len < 4096 ? res->segment_len : 4096;
        memcpy(keep, res->segments, n * sizeof *keep);
        res->segments = keep;
        res->segment_len = n;
    }
    nb_forest_ws_close(own);
    return st;
}

nb_status tu_motion_open(const nb_bundle *b, const nb_model *m, const nb_perimeter *p,
                         nb_capability cap, unsigned size, unsigned sector, nb_motion **out,
                         nb_err *err)
{
    nb_status st = nb_motion_open(b, m, p, cap, size, out, err);
    if (st == NB_OK && sector && (st = nb_motion_use_sectors(*out, sector, err)) != NB_OK) {
        nb_motion_close(*out);
        *out = NULL;
    }
    return st;
}

nb_status tu_place_open(const nb_bundle *b, nb_capability cap, unsigned size, nb_place **out,
                        nb_err *err)
{
    nb_status st = nb_place_open(b, out, err);
    if (st == NB_OK && (st = nbi_query_size(err, "place", size)) == NB_OK)
        st = nbi_place_use(*out, "place", cap, size, err);
    if (st != NB_OK && out) {
        nb_place_close(*out);
        *out = NULL;
    }
    return st;
}

nb_status tu_nearest(nb_place *p, const nb_nearest_query *q, nb_nearest_result *res, nb_err *err)
{
    if (!p || !q)
        return nb_nearest_find(p, q, res, err);
    nb_nearest_query a = *q;
    a.size = p->size;
    a.capability = p->cap;
    return nb_nearest_find(p, &a, res, err);
}

nb_status tu_walk_line(nb_place *p, nb_vec2 from, nb_vec2 to, nb_line_result *res, nb_err *err)
{
    if (!p)
        return nb_line_find(p, NULL, res, err);
    nb_line_query q;
    nb_line_query_init(&q);
    q.start = from;
    q.goal = to;
    q.size = p->size;
    q.capability = p->cap;
    return nb_line_find(p, &q, res, err);
}

nb_status tu_random(nb_place *p, const nb_cell *from, uint64_t *state, nb_random_result *res,
                    nb_err *err)
{
    if (!p || !state)
        return nb_random_find(p, NULL, res, err);
    nb_random_query q;
    nb_random_query_init(&q);
    q.reachable = from != NULL;
    if (from)
        q.start = *from;
    q.seed = *state;
    q.size = p->size;
    q.capability = p->cap;
    nb_status st = nb_random_find(p, &q, res, err);
    if (st == NB_OK)
        *state = res->state;
    return st;
}
