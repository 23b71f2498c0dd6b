/* model.h: motion models inside the library (model.c), shared by the
 * perimeter tables, their builder and the motion search.  Internal. */
#ifndef NB_MODEL_H
#define NB_MODEL_H

#include "bundle/bundle.h"

#define NBI_SWEEP_MAX ((NB_MODEL_MAX_OFFSET + 1) * (NB_MODEL_MAX_OFFSET + 1))

struct nb_model {
    char name[NB_NAME_MAX + 1];
    unsigned nheadings, nspeeds, speed_change;
    double still_cost, turn_cost, ext_weight;
    int dx[NB_MODEL_MAX_HEADINGS], dy[NB_MODEL_MAX_HEADINGS];
    double speed[NB_MODEL_MAX_SPEEDS];
    unsigned turn[NB_MODEL_MAX_SPEEDS];
    char speed_name[NB_MODEL_MAX_SPEEDS][NB_NAME_MAX + 1];

    /* Derived by nbi_model_derive. */
    unsigned stop;   /* the level of speed 0 */
    double vmax;     /* the largest |speed| */
    double len[NB_MODEL_MAX_HEADINGS];
    unsigned nsweep[NB_MODEL_MAX_HEADINGS];
    int8_t sweep[NB_MODEL_MAX_HEADINGS][NBI_SWEEP_MAX][2];
    int d4;          /* 90-degree rotations and the reflections map the model onto itself */
    int reverse;     /* (h, v) -> (h + H/2, -v) maps the model onto itself */
    unsigned nclasses;                      /* speed classes (levels with the same actions) */
    uint8_t speed_class[NB_MODEL_MAX_SPEEDS];
    uint8_t class_first[NB_MODEL_MAX_SPEEDS]; /* the lowest level of each class */
    uint32_t crc;    /* CRC-32 of the encoded model: ties perimeter tables to it */
    const nb_allocator *a; /* what it was allocated with (nb_model_open) */
};

/* Checks a model's fields (formats/motion.md gives the rules); the
 * message names the model and the offending heading or speed. */
nb_status nbi_model_check(const nb_model *m, nb_err *err);
/* The registry's structural check of the model in section index: what
 * nb_model_open reads and checks. */
nb_status nbi_model_section_check(const nb_bundle *b, size_t index, nb_err *err);
/* The first heading whose offset does not come after the one before it
 * going around (counter-clockwise in x right, y down: clockwise on
 * screen), or -1 when they all do. */
int nbi_model_offsets_order(const int *dx, const int *dy, unsigned n);
/* Computes the derived fields of a checked model. */
void nbi_model_derive(nb_model *m);
size_t nbi_model_encoded_size(const nb_model *m);
void nbi_model_encode(const nb_model *m, uint8_t *out);
nb_status nbi_model_decode(const uint8_t *p, size_t len, const char *name, nb_model *m,
                           nb_err *err);

/* The lowest and highest level an action from level l may reach. */
static inline unsigned nbi_model_lo(const nb_model *m, unsigned l)
{
    return l > m->speed_change ? l - m->speed_change : 0;
}
static inline unsigned nbi_model_hi(const nb_model *m, unsigned l)
{
    unsigned h = l + m->speed_change;
    return h < m->nspeeds ? h : m->nspeeds - 1;
}
/* The cost of an action whose new speed level is l and which turns by
 * turn heading steps toward heading h. */
static inline double nbi_model_cost(const nb_model *m, unsigned h, unsigned l, int turn)
{
    double t = m->turn_cost * (turn < 0 ? -turn : turn);
    if (m->speed[l] == 0)
        return m->still_cost + t;
    return m->len[h] / (m->speed[l] < 0 ? -m->speed[l] : m->speed[l]) + t;
}
/* The step direction of speed level l: 1 forward, -1 backward, 0 none. */
static inline int nbi_model_dir(const nb_model *m, unsigned l)
{
    return m->speed[l] > 0 ? 1 : m->speed[l] < 0 ? -1 : 0;
}

/* ---- the symmetries of the square (D4) acting on offsets and headings ----
 * Element e = 4 m + r: first the mirror y -> -y when m is 1 (heading h ->
 * -h), then r quarter turns (x, y) -> (-y, x) (heading h -> h + r H/4). */
static inline void nbi_d4_point(unsigned e, long x, long y, long *ox, long *oy)
{
    if (e >= 4)
        y = -y;
    for (unsigned r = e & 3; r; r--) {
        long t = x;
        x = -y;
        y = t;
    }
    *ox = x;
    *oy = y;
}
static inline unsigned nbi_d4_heading(unsigned e, unsigned h, unsigned nh)
{
    unsigned q = nh / 4;
    if (e >= 4)
        h = (nh - h) % nh;
    return (h + (e & 3) * q) % nh;
}

#endif
