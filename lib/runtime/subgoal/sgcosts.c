/* sgcosts.c: terrain costs on the optimal layer's paths (subgoal.h): what
 * a path costs, each move its length times the multiplier of the cell it
 * enters (clearance/costs.h), as Annotated A* prices it.  The least-cost
 * search itself is sgcsearch.c's. */
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
