/* sgcosts.c: terrain costs on the optimal layer's paths (subgoal.h).
 *
 * The layer holds shortest paths.  With terrain costs a move costs its
 * length times the multiplier of the cell it enters (clearance/costs.h),
 * never less than the least multiplier of the agent's terrains: so no
 * path costs less than the least multiplier times the shortest length,
 * plus what entering the goal costs above it (the last move enters the
 * goal and is at least one step long).  A shortest path that costs that
 * bound is a least-cost path; the query answers it, and refuses the
 * others rather than answer a shortest path for a cheapest. */
#include "subgoal/subgoal.h"

double nbi_sg_path_cost(const nbi_costs *c, const nb_cell *path, size_t n)
{
    double cost = 0;
    for (size_t i = 1; i < n; i++) {
        int diagonal = path[i].x != path[i - 1].x && path[i].y != path[i - 1].y;
        cost += (diagonal ? NBI_SQRT2 : 1.0) *
                nbi_costs_cell(c, (uint32_t)path[i].x, (uint32_t)path[i].y);
    }
    return cost;
}

int nbi_sg_cost_least(const nbi_costs *c, const nb_cell *path, size_t n, double length, double cost)
{
    if (n < 2)
        return 1;
    double enter = nbi_costs_cell(c, (uint32_t)path[n - 1].x, (uint32_t)path[n - 1].y);
    double bound = c->least * length + (enter - c->least);
    /* The two sums add the same moves in another order: equal up to their last bits. */
    return cost <= bound + 1e-9 * (1.0 + bound);
}
