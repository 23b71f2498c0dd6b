/* model.c: motion models: the rules they must follow, their section in a
 * bundle (formats/motion.md), and what the searches derive from them
 * (the cells a step passes through, symmetries, speed classes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "motion/model.h"

/* Angle of an offset, in [0, 2 pi), y growing downward as map rows do. */
static double angle_of(int dx, int dy)
{
    double a = atan2((double)dy, (double)dx);
    return a < 0 ? a + 2 * M_PI : a;
}

int nbi_model_offsets_order(const int *dx, const int *dy, unsigned n)
{
    double a0 = angle_of(dx[0], dy[0]), prev = 0;
    for (unsigned h = 1; h < n; h++) {
        double rel = angle_of(dx[h], dy[h]) - a0;
        if (rel < 0)
            rel += 2 * M_PI;
        if (!(rel > prev + 1e-9))
            return (int)h;
        prev = rel;
    }
    return -1;
}

nb_status nbi_model_check(const nb_model *m, nb_err *err)
{
    const char *n = m->name;
    if (!nbi_name_ok(m->name))
        return nbi_fail(err, NB_ERR_FORMAT, "model name '%s' must be 1 to %d letters, digits, '_' or '-'",
                        m->name, NB_NAME_MAX);
    if (m->nheadings < 4 || m->nheadings > NB_MODEL_MAX_HEADINGS)
        return nbi_fail(err, NB_ERR_LIMIT, "model %s: %u headings, expected 4 to %d", n, m->nheadings,
                        NB_MODEL_MAX_HEADINGS);
    if (m->nspeeds < 2 || m->nspeeds > NB_MODEL_MAX_SPEEDS)
        return nbi_fail(err, NB_ERR_LIMIT, "model %s: %u speeds, expected 2 to %d (0 and at least one other)", n, m->nspeeds,
                        NB_MODEL_MAX_SPEEDS);
    for (unsigned h = 0; h < m->nheadings; h++) {
        int dx = m->dx[h], dy = m->dy[h];
        if ((dx == 0 && dy == 0) || abs(dx) > NB_MODEL_MAX_OFFSET || abs(dy) > NB_MODEL_MAX_OFFSET)
            return nbi_fail(err, NB_ERR_LIMIT,
                            "model %s: heading %u steps by (%d, %d); expected a non-zero offset "
                            "with |dx| and |dy| at most %d", n, h, dx, dy, NB_MODEL_MAX_OFFSET);
    }
    int bad = nbi_model_offsets_order(m->dx, m->dy, m->nheadings);
    if (bad > 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "model %s: heading %d (%d, %d) does not come after heading %d (%d, %d) "
                        "going around: offsets must turn one way, each direction once", n, bad,
                        m->dx[bad], m->dy[bad], bad - 1, m->dx[bad - 1], m->dy[bad - 1]);
    unsigned zeros = 0;
    for (unsigned l = 0; l < m->nspeeds; l++) {
        double v = m->speed[l];
        if (!isfinite(v) || fabs(v) > NB_MODEL_MAX_SPEED)
            return nbi_fail(err, NB_ERR_LIMIT, "model %s: speed '%s' is %g, outside -%g to %g", n,
                            m->speed_name[l], v, NB_MODEL_MAX_SPEED, NB_MODEL_MAX_SPEED);
        if (l > 0 && !(v > m->speed[l - 1]))
            return nbi_fail(err, NB_ERR_FORMAT,
                            "model %s: speed '%s' (%g) is not above '%s' (%g): list speeds slowest "
                            "(most backward) first, each value once", n, m->speed_name[l], v,
                            m->speed_name[l - 1], m->speed[l - 1]);
        if (m->turn[l] > m->nheadings / 2)
            return nbi_fail(err, NB_ERR_LIMIT,
                            "model %s: speed '%s' turns %u heading steps; with %u headings at most %u",
                            n, m->speed_name[l], m->turn[l], m->nheadings, m->nheadings / 2);
        if (!nbi_name_ok(m->speed_name[l]))
            return nbi_fail(err, NB_ERR_FORMAT, "model %s: speed %u has a bad name '%s'", n, l,
                            m->speed_name[l]);
        for (unsigned k = 0; k < l; k++)
            if (strcmp(m->speed_name[k], m->speed_name[l]) == 0)
                return nbi_fail(err, NB_ERR_FORMAT, "model %s: two speeds called '%s'", n,
                                m->speed_name[l]);
        zeros += v == 0;
    }
    if (zeros != 1)
        return nbi_fail(err, NB_ERR_FORMAT, "model %s: exactly one speed must be 0 (stopped)", n);
    if (m->speed_change < 1 || m->speed_change > m->nspeeds - 1)
        return nbi_fail(err, NB_ERR_LIMIT, "model %s: speed_change %u, expected 1 to %u levels", n,
                        m->speed_change, m->nspeeds - 1);
    if (!(m->still_cost > 0 && m->still_cost <= 1e6) || !(m->turn_cost >= 0 && m->turn_cost <= 1e6))
        return nbi_fail(err, NB_ERR_LIMIT,
                        "model %s: costs: still must be above 0 and turn at least 0 (both at most 1e6)", n);
    if (!(m->ext_weight >= 1 && m->ext_weight <= 16))
        return nbi_fail(err, NB_ERR_LIMIT, "model %s: extended_weight %g, expected 1 to 16", n,
                        m->ext_weight);
    return NB_OK;
}

/* The cells whose closed square meets the closed segment between the
 * centres of (0,0) and (dx,dy): the cells the step passes through, with
 * both side cells where it crosses a corner (no corner cutting).  Worked
 * in doubled coordinates so that everything is an integer. */
static unsigned sweep_cells(int dx, int dy, int8_t (*out)[2])
{
    long x0 = 1, y0 = 1, X = 2L * dx, Y = 2L * dy, n = 0;
    int ilo = dx < 0 ? dx : 0, ihi = dx > 0 ? dx : 0, jlo = dy < 0 ? dy : 0, jhi = dy > 0 ? dy : 0;
    /* Order: along the step (by the projection of the cell centre), so
     * the end cell comes last. */
    struct cell { int i, j; long t; } c[NBI_SWEEP_MAX + 1];
    for (int j = jlo; j <= jhi; j++)
        for (int i = ilo; i <= ihi; i++) {
            if (i == 0 && j == 0)
                continue;
            long bx0 = 2L * i, by0 = 2L * j, bx1 = bx0 + 2, by1 = by0 + 2;
            long sx0 = x0 + (X < 0 ? X : 0), sx1 = x0 + (X > 0 ? X : 0);
            long sy0 = y0 + (Y < 0 ? Y : 0), sy1 = y0 + (Y > 0 ? Y : 0);
            if (sx1 < bx0 || sx0 > bx1 || sy1 < by0 || sy0 > by1)
                continue;
            int neg = 0, pos = 0;
            long cx[4] = {bx0, bx1, bx0, bx1}, cy[4] = {by0, by0, by1, by1};
            for (int k = 0; k < 4; k++) {
                long f = (cx[k] - x0) * Y - (cy[k] - y0) * X;
                neg |= f <= 0;
                pos |= f >= 0;
            }
            if (!(neg && pos))
                continue;
            c[n].i = i;
            c[n].j = j;
            c[n].t = (2L * i + 1 - x0) * X + (2L * j + 1 - y0) * Y;
            n++;
        }
    /* Insertion sort by t, then by (j, i) for a fixed order. */
    for (long a = 1; a < n; a++)
        for (long b = a; b > 0 && (c[b].t < c[b - 1].t ||
                                   (c[b].t == c[b - 1].t && (c[b].j < c[b - 1].j ||
                                                             (c[b].j == c[b - 1].j && c[b].i < c[b - 1].i))));
             b--) {
            struct cell t = c[b];
            c[b] = c[b - 1];
            c[b - 1] = t;
        }
    for (long a = 0; a < n; a++) {
        out[a][0] = (int8_t)c[a].i;
        out[a][1] = (int8_t)c[a].j;
    }
    return (unsigned)n;
}

void nbi_model_derive(nb_model *m)
{
    unsigned H = m->nheadings, S = m->nspeeds;
    m->vmax = 0;
    for (unsigned l = 0; l < S; l++) {
        if (m->speed[l] == 0)
            m->stop = l;
        if (fabs(m->speed[l]) > m->vmax)
            m->vmax = fabs(m->speed[l]);
    }
    for (unsigned h = 0; h < H; h++) {
        m->len[h] = sqrt((double)m->dx[h] * m->dx[h] + (double)m->dy[h] * m->dy[h]);
        m->nsweep[h] = sweep_cells(m->dx[h], m->dy[h], m->sweep[h]);
    }
    m->d4 = H % 4 == 0;
    for (unsigned h = 0; h < H && m->d4; h++)
        for (unsigned e = 1; e < 8 && m->d4; e++) {
            long x, y;
            unsigned g = nbi_d4_heading(e, h, H);
            nbi_d4_point(e, m->dx[h], m->dy[h], &x, &y);
            m->d4 = x == m->dx[g] && y == m->dy[g];
        }
    m->reverse = m->d4;
    for (unsigned l = 0; l < S && m->reverse; l++)
        m->reverse = m->speed[S - 1 - l] == -m->speed[l] && m->turn[S - 1 - l] == m->turn[l];
    /* Levels whose actions are the same (same reachable levels) form a
     * class: their states have the same cost to any goal but the goal. */
    m->nclasses = 0;
    for (unsigned l = 0; l < S; l++) {
        unsigned k = 0;
        while (k < m->nclasses && !(nbi_model_lo(m, m->class_first[k]) == nbi_model_lo(m, l) &&
                                    nbi_model_hi(m, m->class_first[k]) == nbi_model_hi(m, l)))
            k++;
        if (k == m->nclasses)
            m->class_first[m->nclasses++] = (uint8_t)l;
        m->speed_class[l] = (uint8_t)k;
    }
    uint8_t buf[NBI_MODEL_HEADER + NBI_MODEL_HEADING_RECORD * NB_MODEL_MAX_HEADINGS +
                NBI_MODEL_SPEED_RECORD * NB_MODEL_MAX_SPEEDS];
    nbi_model_encode(m, buf);
    m->crc = (uint32_t)crc32(0, buf, (uInt)nbi_model_encoded_size(m));
}

size_t nbi_model_encoded_size(const nb_model *m)
{
    return NBI_MODEL_HEADER + NBI_MODEL_HEADING_RECORD * (size_t)m->nheadings +
           NBI_MODEL_SPEED_RECORD * (size_t)m->nspeeds;
}

void nbi_model_encode(const nb_model *m, uint8_t *out)
{
    memset(out, 0, nbi_model_encoded_size(m));
    nbi_put32(out + NBI_MODEL_HEADINGS, m->nheadings);
    nbi_put32(out + NBI_MODEL_SPEEDS, m->nspeeds);
    nbi_put32(out + NBI_MODEL_SPEED_CHANGE, m->speed_change);
    nbi_putf64(out + NBI_MODEL_STILL_COST, m->still_cost);
    nbi_putf64(out + NBI_MODEL_TURN_COST, m->turn_cost);
    nbi_putf64(out + NBI_MODEL_EXT_WEIGHT, m->ext_weight);
    uint8_t *p = out + NBI_MODEL_HEADER;
    for (unsigned h = 0; h < m->nheadings; h++, p += NBI_MODEL_HEADING_RECORD) {
        nbi_put32(p + NBI_MODEL_HEADING_DX, (uint32_t)(int32_t)m->dx[h]);
        nbi_put32(p + NBI_MODEL_HEADING_DY, (uint32_t)(int32_t)m->dy[h]);
    }
    for (unsigned l = 0; l < m->nspeeds; l++, p += NBI_MODEL_SPEED_RECORD) {
        memcpy(p + NBI_MODEL_SPEED_NAME, m->speed_name[l], strlen(m->speed_name[l]));
        nbi_putf64(p + NBI_MODEL_SPEED_VALUE, m->speed[l]);
        nbi_put32(p + NBI_MODEL_SPEED_TURN, m->turn[l]);
    }
}

nb_status nbi_model_decode(const uint8_t *p, size_t len, const char *name, nb_model *m, nb_err *err)
{
    memset(m, 0, sizeof *m);
    if (len < NBI_MODEL_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "model section '%s': %zu bytes, shorter than its header",
                        name, len);
    m->nheadings = nbi_get32(p + NBI_MODEL_HEADINGS);
    m->nspeeds = nbi_get32(p + NBI_MODEL_SPEEDS);
    m->speed_change = nbi_get32(p + NBI_MODEL_SPEED_CHANGE);
    if (m->nheadings > NB_MODEL_MAX_HEADINGS || m->nspeeds > NB_MODEL_MAX_SPEEDS ||
        len != nbi_model_encoded_size(m) || nbi_get32(p + NBI_MODEL_ZERO) != 0 || nbi_get64(p + NBI_MODEL_ZERO2) != 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "model section '%s': %u headings and %u speeds do not fit its %zu bytes", name,
                        m->nheadings, m->nspeeds, len);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->still_cost = nbi_getf64(p + NBI_MODEL_STILL_COST);
    m->turn_cost = nbi_getf64(p + NBI_MODEL_TURN_COST);
    m->ext_weight = nbi_getf64(p + NBI_MODEL_EXT_WEIGHT);
    const uint8_t *q = p + NBI_MODEL_HEADER;
    for (unsigned h = 0; h < m->nheadings; h++, q += NBI_MODEL_HEADING_RECORD) {
        m->dx[h] = (int32_t)nbi_get32(q + NBI_MODEL_HEADING_DX);
        m->dy[h] = (int32_t)nbi_get32(q + NBI_MODEL_HEADING_DY);
    }
    for (unsigned l = 0; l < m->nspeeds; l++, q += NBI_MODEL_SPEED_RECORD) {
        if (!memchr(q + NBI_MODEL_SPEED_NAME, 0, 32))
            return nbi_fail(err, NB_ERR_FORMAT, "model section '%s': speed %u's name is not terminated",
                            name, l);
        memcpy(m->speed_name[l], q + NBI_MODEL_SPEED_NAME, 32);
        m->speed[l] = nbi_getf64(q + NBI_MODEL_SPEED_VALUE);
        m->turn[l] = nbi_get32(q + NBI_MODEL_SPEED_TURN);
        if (nbi_get32(q + NBI_MODEL_SPEED_ZERO) != 0)
            return nbi_fail(err, NB_ERR_FORMAT, "model section '%s': speed %u: reserved field not 0",
                            name, l);
    }
    nb_status st = nbi_model_check(m, err);
    if (st != NB_OK) {
        /* A model the check refuses (NB_ERR_LIMIT for a count out of
         * range) is a bad section here, in the status and in err alike. */
        nbi_err_prefix(err, "bad model section");
        if (err)
            err->code = NB_ERR_FORMAT;
        return NB_ERR_FORMAT;
    }
    nbi_model_derive(m);
    return NB_OK;
}

static nb_status model_at(const nb_bundle *b, size_t i, nb_model **out, nb_err *err);

nb_status nb_model_open(const nb_bundle *b, const char *name, nb_model **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_model_open: no place for the model");
    *out = NULL;
    if (!name)
        return nbi_fail(err, NB_ERR_ARG, "nb_model_open: no model name");
    long i = nbi_section_index(b, NB_SEC_MODEL, name, NULL, 0);
    if (i < 0) {
        char list[256] = "";
        for (size_t k = 0; k < b->nsections; k++)
            if (b->sections[k].info.type == NB_SEC_MODEL && strlen(list) + 40 < sizeof list)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                         b->sections[k].info.name);
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no motion model '%s' (%s%s)", b->path, name,
                        list[0] ? "the bundle has " : "the bundle has none; bake one with mkperim",
                        list);
    }
    return model_at(b, (size_t)i, out, err);
}

nb_status nbi_model_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nb_model *m = NULL;
    nb_status st = model_at(b, index, &m, err);
    nb_model_close(m);
    return st;
}

/* The model of section i, decoded and checked, into *out. */
static nb_status model_at(const nb_bundle *b, size_t i, nb_model **out, nb_err *err)
{
    const struct nbi_section *s = &b->sections[i];
    const char *name = s->info.name;
    if (s->info.version != NBI_MODEL_VERSION)
        return nbi_fail(err, NB_ERR_VERSION, "%s: model section '%s' version %u, this reader knows %d",
                        b->path, name, s->info.version, NBI_MODEL_VERSION);
    nb_model *m = nbi_alloc(b->a, sizeof *m);
    if (!m)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a motion model");
    nb_status st = nbi_model_decode(s->payload, (size_t)s->info.usize, name, m, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s", b->path);
        nbi_free(b->a, m);
        return st;
    }
    m->a = b->a;
    *out = m;
    nbi_ok(err);
    return NB_OK;
}

void nb_model_close(nb_model *m)
{
    if (m)
        nbi_free(m->a, m);
}
const char *nb_model_name(const nb_model *m) { return m->name; }
unsigned nb_model_headings(const nb_model *m) { return m->nheadings; }
unsigned nb_model_speeds(const nb_model *m) { return m->nspeeds; }
unsigned nb_model_stop(const nb_model *m) { return m->stop; }
double nb_model_speed(const nb_model *m, unsigned l) { return l < m->nspeeds ? m->speed[l] : 0; }
const char *nb_model_speed_name(const nb_model *m, unsigned l)
{
    return l < m->nspeeds ? m->speed_name[l] : NULL;
}
nb_status nb_model_speed_lookup(const nb_model *m, const char *name, size_t *level, nb_err *err)
{
    char have[NB_MODEL_MAX_SPEEDS * (NB_NAME_MAX + 2) + 1] = "";
    size_t at = 0;
    for (unsigned l = 0; l < m->nspeeds; l++) {
        if (name && strcmp(m->speed_name[l], name) == 0) {
            *level = l;
            return nbi_done(err, NB_OK);
        }
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", l ? ", " : "",
                               m->speed_name[l]);
    }
    return nbi_fail(err, NB_ERR_NOTFOUND, "model %s has no speed '%s' (its speeds are %s)",
                    m->name, name ? name : "", have);
}
unsigned nb_model_turn(const nb_model *m, unsigned l) { return l < m->nspeeds ? m->turn[l] : 0; }
unsigned nb_model_speed_change(const nb_model *m) { return m->speed_change; }
void nb_model_offset(const nb_model *m, unsigned h, int *dx, int *dy)
{
    *dx = h < m->nheadings ? m->dx[h] : 0;
    *dy = h < m->nheadings ? m->dy[h] : 0;
}
double nb_model_top_speed(const nb_model *m) { return m->vmax; }
double nb_model_still_cost(const nb_model *m) { return m->still_cost; }
double nb_model_turn_cost(const nb_model *m) { return m->turn_cost; }
double nb_model_extended_weight(const nb_model *m) { return m->ext_weight; }
unsigned nb_model_sweep(const nb_model *m, unsigned h, const int8_t **cells)
{
    if (h >= m->nheadings) {
        *cells = NULL;
        return 0;
    }
    *cells = &m->sweep[h][0][0];
    return m->nsweep[h];
}
