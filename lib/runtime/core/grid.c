/* grid.c: the move table (core/grid.h). */
#include "core/grid.h"

const int8_t nbi_move_dx[NBI_MOVES] = NBI_MOVE_DX_INIT;
const int8_t nbi_move_dy[NBI_MOVES] = NBI_MOVE_DY_INIT;
const double nbi_move_len[NBI_MOVES] = {1, 1, 1, 1, NBI_SQRT2, NBI_SQRT2, NBI_SQRT2, NBI_SQRT2};

/* Bit NBI_MOVE_E is 0, W 1, S 2, N 3; a diagonal's bit is set from its two cardinals' bits. */
#define CARD(c, d) ((unsigned)(c) >> NBI_MOVE_##d & 1u)
#define STRICT(c)                                                                                  \
    (CARD(c, S) & CARD(c, E)) << NBI_MOVE_SE | (CARD(c, N) & CARD(c, E)) << NBI_MOVE_NE |          \
        (CARD(c, S) & CARD(c, W)) << NBI_MOVE_SW | (CARD(c, N) & CARD(c, W)) << NBI_MOVE_NW
#define WEAK(c)                                                                                    \
    (CARD(c, S) | CARD(c, E)) << NBI_MOVE_SE | (CARD(c, N) | CARD(c, E)) << NBI_MOVE_NE |          \
        (CARD(c, S) | CARD(c, W)) << NBI_MOVE_SW | (CARD(c, N) | CARD(c, W)) << NBI_MOVE_NW
#define SIXTEEN(R)                                                                                 \
    {R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13),       \
     R(14), R(15)}
const uint8_t nbi_move_corners[2][16] = {SIXTEEN(WEAK), SIXTEEN(STRICT)};

int nbi_move_code(nb_cell a, nb_cell b)
{
    for (int d = 0; d < NBI_MOVES; d++)
        if (a.x + nbi_move_dx[d] == b.x && a.y + nbi_move_dy[d] == b.y)
            return d;
    return -1;
}
