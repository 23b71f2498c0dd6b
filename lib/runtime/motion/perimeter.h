/* perimeter.h: the storage of perimeter heuristic tables, shared by the
 * runtime lookups (perimeter.c) and mkperim's builder (perimeter_build.c).
 * formats/motion.md specifies it; internal. */
#ifndef NB_PERIMETER_H
#define NB_PERIMETER_H

#include "motion/model.h"

/* The symmetry group of a table (its record's group field) is a mask of
 * elements: bit c for element c = 8 rev + e, which maps (x, y, h, k) by
 * the square's symmetry e (nbi_d4_point, nbi_d4_heading) and, when rev is
 * 1, also (x, y, k) -> (-x, -y, reverse class of k). */
#define NBI_G_IDENTITY 0x0001u
#define NBI_G_MIRROR_AXIS 0x0011u /* and e 4, (x, y, h) -> (x, -y, -h): goals facing heading 0 */
#define NBI_G_MIRROR_DIAG 0x0021u /* and e 5, (x, y, h) -> (y, x, H/4 - h): goals facing H/8 */
#define NBI_G_SQUARE 0x00ffu      /* all eight: goals at any heading */
/* The group with the reversal of each element added. */
static inline unsigned nbi_g_with_reverse(unsigned g) { return g | g << 8; }

/* Where the entries of the tables with one group are: a (cell, state)
 * pair is stored when its full index is the smallest of its images under
 * the group; entries follow full index order. */
typedef struct nbi_pgeom {
    const nb_allocator *a;
    unsigned radius, width, nheadings, nclasses, group;
    unsigned nel;                 /* group elements, the identity first */
    uint8_t el[16];               /* each an element code 8 rev + e */
    uint8_t krev[NB_MODEL_MAX_SPEEDS];
    uint32_t *prefix;             /* per cell: entries before it; [W*W] = the table's size */
    uint16_t *stab;               /* per cell: bit i set when element el[i] maps the cell to
                                   * itself; 0xffff when the cell holds no entries */
    unsigned nstab;               /* distinct stab patterns of cells with entries */
    uint16_t stabs[16];
    uint16_t *rank[16];           /* per pattern: a state's rank in its cell, or 0xffff */
    uint32_t count[16];           /* per pattern: states stored in such a cell */
} nbi_pgeom;

nb_status nbi_pgeom_init(nbi_pgeom *g, const nb_allocator *a, unsigned radius, unsigned nheadings,
                         unsigned nclasses, const uint8_t *krev, unsigned group, nb_err *err);
void nbi_pgeom_free(nbi_pgeom *g);
/* The index in geoms of the geometry of group, made when new (there is
 * room for max; *n are made). */
nb_status nbi_pgeom_find(nbi_pgeom *geoms, unsigned *n, unsigned max, const nb_allocator *a,
                         unsigned radius, unsigned nheadings, unsigned nclasses,
                         const uint8_t *krev, unsigned group, unsigned *index, nb_err *err);
/* Entries of one table. */
static inline uint32_t nbi_pgeom_size(const nbi_pgeom *g) { return g->prefix[g->width * g->width]; }
/* The entry (within its table) holding (x, y, h, k), |x|, |y| <= radius. */
uint32_t nbi_pgeom_index(const nbi_pgeom *g, long x, long y, unsigned h, unsigned k);
/* 1 when (x, y, h, k) is stored (is the smallest of its images). */
int nbi_pgeom_stored(const nbi_pgeom *g, long x, long y, unsigned h, unsigned k);

/* The goals a layout has tables for, and the group of each. */
typedef struct nbi_ptable {
    unsigned goal_heading, goal_speed, group;
} nbi_ptable;
/* Fills tabs (room for H * S + 2) and returns how many; sym is the section's
 * NBI_SYM_* flags.  Fails for a symmetric or rotated layout of a model
 * that is not symmetric under 90-degree turns and reflections. */
nb_status nbi_perimeter_goals(const nb_model *m, int layout, unsigned sym, nbi_ptable *tabs,
                              unsigned *ntabs, nb_err *err);
/* 1 when the open table has the tables for goals at any heading. */
int nbi_perimeter_has_any(const nb_perimeter *p);
/* The symmetry flags a layout uses for a model: paper only, or all. */
unsigned nbi_perimeter_symmetries(const nb_model *m, int layout, int paper);
/* The number of classes and the class of each speed under flags sym. */
unsigned nbi_perimeter_classes(const nb_model *m, unsigned sym, uint8_t *cls, uint8_t *krev);
/* The registry's structural check of the table in section index: what
 * nb_perimeter_open reads and checks, with the model it was built from. */
nb_status nbi_perimeter_section_check(const nb_bundle *b, size_t index, nb_err *err);

#endif
