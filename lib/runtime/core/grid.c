/* grid.c: the move table (core/grid.h). */
#include "core/grid.h"

const int8_t nbi_move_dx[NBI_MOVES] = NBI_MOVE_DX_INIT;
const int8_t nbi_move_dy[NBI_MOVES] = NBI_MOVE_DY_INIT;
const double nbi_move_len[NBI_MOVES] = {1, 1, 1, 1, NBI_SQRT2, NBI_SQRT2, NBI_SQRT2, NBI_SQRT2};

int nbi_move_code(nb_cell a, nb_cell b)
{
    for (int d = 0; d < NBI_MOVES; d++)
        if (a.x + nbi_move_dx[d] == b.x && a.y + nbi_move_dy[d] == b.y)
            return d;
    return -1;
}
