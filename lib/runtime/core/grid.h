/* grid.h: the facts of octile grids that every grid search and the stored
 * paths of the abstract graph share: the eight moves and their codes, their
 * costs, and the octile distance.
 *
 * Move codes are stored in bundles (formats/abstract.md: a stored path is
 * one 4-bit code per step), so their order is fixed: the four cardinal
 * moves first, then the four diagonals.  y grows downwards, as the map is
 * drawn. */
#ifndef NB_GRID_H
#define NB_GRID_H

#include <stdint.h>

#include "navbake.h"

#define NBI_SQRT2 1.41421356237309504880
#define NBI_SQRT2_MINUS_1 (NBI_SQRT2 - 1.0) /* as a double: 0.41421356237309515 */

enum nbi_move {
    NBI_MOVE_E = 0, NBI_MOVE_W = 1, NBI_MOVE_S = 2, NBI_MOVE_N = 3,
    NBI_MOVE_SE = 4, NBI_MOVE_NE = 5, NBI_MOVE_SW = 6, NBI_MOVE_NW = 7
};
#define NBI_MOVES 8
#define NBI_MOVE_IS_DIAGONAL(d) ((d) >= 4)

/* The moves' steps, in the order of enum nbi_move: their one home.  A file
 * whose moves are constants (subgoal/sgscan.c's inlined rays) makes its own
 * static copy of them, so that the steps fold into its code. */
#define NBI_MOVE_DX_INIT {1, -1, 0, 0, 1, 1, -1, -1}
#define NBI_MOVE_DY_INIT {0, 0, 1, -1, 1, -1, 1, -1}
extern const int8_t nbi_move_dx[NBI_MOVES], nbi_move_dy[NBI_MOVES];
/* The move back: E and W, S and N, SE and NW, NE and SW. */
static inline unsigned nbi_move_opposite(unsigned d) { return d < 4 ? d ^ 1u : d ^ 3u; }
/* The two cardinal moves a diagonal one is made of (the horizontal, then
 * the vertical): its corner cells are the cells they reach. */
static inline unsigned nbi_move_horizontal(unsigned d) { return (d - 4) >> 1; }
static inline unsigned nbi_move_vertical(unsigned d) { return 2 + ((d - 4) & 1u); }
/* The cost of a move: 1 or sqrt(2).  A table: one load in the searches' inner loops, where a
 * compare and a choice of two constants took four or five instructions. */
extern const double nbi_move_len[NBI_MOVES];
static inline double nbi_move_cost(unsigned d) { return nbi_move_len[d]; }
/* The diagonal moves the corner rule allows, as a mask of move bits (bit d for move d), from
 * the mask of the cardinal moves the agent may make (bits 0 to 3): both cardinals a diagonal is
 * made of (nbi_move_corners[1], the strict rule) or either (nbi_move_corners[0], the weak one).
 * A table: one load where the bit logic took about twenty instructions an expansion. */
extern const uint8_t nbi_move_corners[2][16];

/* The move code from a to b, neighbours; -1 otherwise. */
int nbi_move_code(nb_cell a, nb_cell b);

/* The octile distance of an offset: the length of a shortest path on an
 * empty grid. */
static inline double nbi_octile(uint32_t dx, uint32_t dy)
{
    return dx > dy ? dx + NBI_SQRT2_MINUS_1 * dy : dy + NBI_SQRT2_MINUS_1 * dx;
}
static inline double nbi_octile_cells(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return nbi_octile((uint32_t)(ax > bx ? ax - bx : bx - ax), (uint32_t)(ay > by ? ay - by : by - ay));
}
/* A path's length from its counts of cardinal and diagonal steps. */
static inline double nbi_steps_length(uint64_t cardinal, uint64_t diagonal)
{
    return (double)cardinal + NBI_SQRT2 * (double)diagonal;
}

#endif
