/* deep_perimeter.c: a perimeter table against its model (formats/motion.md).
 * Rebuilding every table costs a backward search per goal, hundreds for
 * the full layout at a large radius, so a sample of tables is chosen with
 * the seed and every entry of each is computed again by the search mkperim
 * runs (a table's entries come from one search, so checking all of them
 * costs little more than checking one).  What is cheap is checked whole:
 * the header and records (nb_perimeter_open), and that the 16-bit scale
 * is the one mkperim would pick for the largest entry of all tables. */
#include <math.h>
#include <stdlib.h>

#include "motion/perimeter.h"
#include "verify/deep.h"

/* splitmix64: a fixed, portable sequence for a seed. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Picks k of n tables (k < n) into pick, ascending.  Each model's
 * section draws from a sequence of its own (the seed and its name), so
 * a seed picks the same tables of it whatever else the bundle holds. */
static void choose(uint64_t seed, const char *name, unsigned n, unsigned k, unsigned *pick)
{
    unsigned *all = nbb_malloc(n * sizeof *all);
    uint64_t s = seed;
    for (const char *c = name; *c; c++) /* FNV-1a */
        s = (s ^ (uint8_t)*c) * 0x100000001b3u;
    if (!all) { /* then the first k: still a check */
        for (unsigned i = 0; i < k; i++)
            pick[i] = i;
        return;
    }
    for (unsigned i = 0; i < n; i++)
        all[i] = i;
    for (unsigned i = 0; i < k; i++) {
        unsigned j = i + (unsigned)(next_random(&s) % (n - i)), t = all[i];
        all[i] = all[j];
        all[j] = t;
    }
    for (unsigned i = 0; i < k; i++) {
        unsigned v = all[i], j = i;
        for (; j > 0 && pick[j - 1] > v; j--)
            pick[j] = pick[j - 1];
        pick[j] = v;
    }
    nbb_free(all);
}

typedef struct ptab {
    const nb_model *m;
    const uint8_t *p, *entries;
    unsigned radius, bits, sym, K, ntabs;
    uint32_t scale;
    uint8_t cls[NB_MODEL_MAX_SPEEDS], krev[NB_MODEL_MAX_SPEEDS];
} ptab;

static uint32_t entry_at(const ptab *t, uint64_t i)
{
    return t->bits == 16 ? nbi_get16(t->entries + 2 * i) : nbi_get32(t->entries + 4 * i);
}

static double entry_value(const ptab *t, uint32_t e)
{
    if (t->bits == 16)
        return e == NBI_PERIM_UNREACHABLE16 ? INFINITY : (double)e / t->scale;
    float f;
    memcpy(&f, &e, 4);
    return f;
}

/* mkperim's scale: the largest power of two up to 2^20 that keeps twice
 * the largest cost within 65534, so the largest entry lies in (32767,
 * 65534] unless the scale is 2^20. */
static nb_status check_scale(nbb_deep *d, const ptab *t, uint64_t nentries, nb_err *err)
{
    if (t->bits != 16)
        return NB_OK;
    uint32_t top = 0;
    for (uint64_t i = 0; i < nentries; i++) {
        uint32_t e = entry_at(t, i);
        if (e != NBI_PERIM_UNREACHABLE16 && e > top)
            top = e;
    }
    if ((t->scale & (t->scale - 1)) || t->scale > (1u << 20) || (top <= 32767 && t->scale < (1u << 20)))
        return nbb_deep_fail(d, err, "scale %u does not fit its largest entry %u (a cost of %g): "
                             "mkperim would choose another", (unsigned)t->scale, (unsigned)top,
                             (double)top / t->scale);
    return NB_OK;
}

/* Every entry of table k, from one backward search. */
static nb_status check_table(nbb_deep *d, const ptab *t, unsigned k, nbb_pvalues *pv,
                             nbi_pgeom *geom, unsigned *ngeom, uint64_t *checked, nb_err *err)
{
    const nb_model *m = t->m;
    const uint8_t *rec = t->p + NBI_PERIM_HEADER + (size_t)k * NBI_PERIM_TABLE_RECORD;
    unsigned gh = nbi_get32(rec + NBI_PERIM_T_HEADING), gl = nbi_get32(rec + NBI_PERIM_T_SPEED);
    unsigned group = nbi_get32(rec + NBI_PERIM_T_GROUP), gi;
    uint32_t first = nbi_get32(rec + NBI_PERIM_T_FIRST);
    nb_status st = nbi_pgeom_find(geom, ngeom, 8, NULL, t->radius, m->nheadings, t->K, t->krev,
                                  group, &gi, err);
    if (st == NB_OK)
        st = nbb_pvalues_goal(pv, gh, gl, err);
    if (st != NB_OK) {
        char from[64];
        snprintf(from, sizeof from, "(table %u) from its model", k);
        return nbb_deep_cannot(d, st, err, from);
    }
    long R = (long)t->radius;
    for (long y = -R; y <= R; y++)
        for (long x = -R; x <= R; x++)
            for (unsigned c = 0; c < t->K; c++)
                for (unsigned h = 0; h < m->nheadings; h++) {
                    if (!nbi_pgeom_stored(&geom[gi], x, y, h, c))
                        continue;
                    uint64_t i = first + (uint64_t)nbi_pgeom_index(&geom[gi], x, y, h, c);
                    double v = nbb_pvalues_get(pv, t->cls, x, y, h, c);
                    uint32_t want = nbb_perimeter_entry(v, t->bits, t->scale), e = entry_at(t, i);
                    (*checked)++;
                    if (e == want)
                        continue;
                    unsigned level = 0;
                    while (level + 1 < m->nspeeds && t->cls[level] != c)
                        level++;
                    char goal[80];
                    if (gh == NBI_PERIM_ANY)
                        snprintf(goal, sizeof goal, "any heading, %s",
                                 gl == NBI_PERIM_ANY ? "any speed" : m->speed_name[gl]);
                    else
                        snprintf(goal, sizeof goal, "heading %u, %s", gh, m->speed_name[gl]);
                    return nbb_deep_fail(d, err, "table %u (goal at %s): entry %llu, the state "
                                         "(%ld, %ld) from the goal at heading %u, %s%s: %g, "
                                         "recomputed %g", k, goal, (unsigned long long)i, x, y, h,
                                         m->speed_name[level], t->K < m->nspeeds ? " (its class)" : "",
                                         entry_value(t, e), entry_value(t, want));
                }
    return NB_OK;
}

static nb_status check_tables(nbb_deep *d, ptab *t, nb_err *err)
{
    const nbb_deep_opts *o = d->o;
    unsigned n = t->ntabs, k = o->perimeter_tables && o->perimeter_tables < n ? o->perimeter_tables : n;
    unsigned *pick = nbb_malloc((n ? n : 1) * sizeof *pick);
    nbb_pvalues *pv = NULL;
    nbi_pgeom geom[8];
    unsigned ngeom = 0;
    memset(geom, 0, sizeof geom);
    uint64_t checked = 0;
    nb_status st = pick ? nbb_pvalues_new(t->m, t->radius, &pv, err)
                        : nbi_fail(err, NB_ERR_NOMEM, "no memory to sample a perimeter table");
    if (st == NB_OK) {
        if (k < n)
            choose(o->seed, d->b->sections[d->index].info.name, n, k, pick);
        else
            for (unsigned i = 0; i < n; i++)
                pick[i] = i;
    }
    for (unsigned i = 0; i < k && st == NB_OK; i++)
        st = check_table(d, t, pick[i], pv, geom, &ngeom, &checked, err);
    d->stats->perimeter_entries += checked;
    d->stats->perimeter_tables += k;
    d->stats->perimeter_tables_total += n;
    for (int i = 0; i < 8; i++)
        nbi_pgeom_free(&geom[i]);
    nbb_pvalues_free(pv);
    nbb_free(pick);
    return st;
}

nb_status nbb_deep_perimeter(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    const struct nbi_section *s = &b->sections[d->index];
    nb_model *m = NULL;
    nb_perimeter *pt = NULL;
    /* The model it was built from, then every structure check a query
     * makes (their messages name the section). */
    nb_status st = nb_model_open(b, s->info.name, &m, err);
    if (st != NB_OK)
        return nbb_deep_prefix(d, st, err);
    if ((st = nb_perimeter_open(b, m, &pt, err)) != NB_OK) {
        nb_model_close(m);
        return st;
    }
    ptab t;
    memset(&t, 0, sizeof t);
    t.m = m;
    t.p = s->payload;
    t.radius = nbi_get32(t.p + NBI_PERIM_RADIUS);
    t.bits = nbi_get32(t.p + NBI_PERIM_BITS);
    t.sym = nbi_get32(t.p + NBI_PERIM_SYM);
    t.ntabs = nbi_get32(t.p + NBI_PERIM_TABLES);
    t.scale = nbi_get32(t.p + NBI_PERIM_SCALE);
    t.K = nbi_perimeter_classes(m, t.sym, t.cls, t.krev);
    t.entries = t.p + NBI_PERIM_HEADER + (size_t)t.ntabs * NBI_PERIM_TABLE_RECORD;
    st = check_scale(d, &t, nbi_get32(t.p + NBI_PERIM_ENTRIES), err);
    if (st == NB_OK)
        st = check_tables(d, &t, err);
    nb_perimeter_close(pt);
    nb_model_close(m);
    return st;
}
