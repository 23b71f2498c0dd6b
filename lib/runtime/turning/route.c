/* route.c: routes, the waypoints of a planned path and the curves between
 * them, as the planner's stages build, join and smooth them. */
#include <stdlib.h>

#include "turning/planner.h"

const char nbi_reason_nomem[] = "out of memory";
const char nbi_reason_limit[] = "the search reached its expansion limit";

int nbi_route_reserve(nbi_route *r, size_t n)
{
    if (n <= r->cap)
        return 1;
    size_t cap = r->cap ? r->cap : 64;
    while (cap < n)
        cap *= 2;
    nb_pose *wp = nbi_realloc_array(r->a, r->wp, cap, sizeof *wp);
    if (!wp)
        return 0;
    r->wp = wp;
    nb_curve *e = nbi_realloc_array(r->a, r->edge, cap, sizeof *e);
    if (!e)
        return 0;
    r->edge = e;
    r->cap = cap;
    return 1;
}

void nbi_route_free(nbi_route *r)
{
    nbi_free(r->a, r->wp);
    nbi_free(r->a, r->edge);
    memset(r, 0, sizeof *r);
}

int nbi_route_push(nbi_route *r, const nb_pose *p, const nb_curve *c)
{
    if (!nbi_route_reserve(r, r->n + 1))
        return 0;
    if (r->n > 0 && c)
        r->edge[r->n - 1] = *c;
    r->wp[r->n++] = *p;
    return 1;
}

int nbi_route_append(nbi_route *dst, const nbi_route *src, size_t from)
{
    for (size_t i = from + 1; i < src->n; i++)
        if (!nbi_route_push(dst, &src->wp[i], &src->edge[i - 1]))
            return 0;
    return 1;
}

double nbi_route_length(const nbi_route *r)
{
    double len = 0;
    for (size_t i = 0; i + 1 < r->n; i++)
        len += r->edge[i].length;
    return len;
}

int nbi_route_segments(nb_planner *p, const nbi_route *r)
{
    size_t n = 0;
    for (size_t i = 0; i + 1 < r->n; i++)
        n += r->edge[i].count;
    if (n > p->capseg) {
        size_t cap = p->capseg ? p->capseg : 256;
        while (cap < n)
            cap *= 2;
        nb_segment *s = nbi_realloc_array(p->a, p->seg, cap, sizeof *s);
        if (!s)
            return 0;
        p->seg = s;
        p->capseg = cap;
    }
    p->nseg = 0;
    for (size_t i = 0; i + 1 < r->n; i++)
        for (unsigned k = 0; k < r->edge[i].count; k++)
            p->seg[p->nseg++] = r->edge[i].seg[k];
    return 1;
}
