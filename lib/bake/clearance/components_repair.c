/* components_repair.c: a component layer kept up to date when some cells
 * become standable or stop being so (components_build.c numbers them).
 *
 * A component that has no changed cell and none beside one is still a
 * component.  The others may merge (through a cell that opened) or split
 * (where cells closed), and every piece of them holds a seed: a standable
 * cell that changed, or one beside a changed cell.  A breadth-first search
 * grows from all seeds at once, each with its own set; sets that meet are
 * joined, and a set with nothing left to grow is a whole component.  The
 * search stops when at most one set still grows: that one is what remains
 * of the old components it touched, with the cells that opened into it,
 * less the pieces that came away.  So the work is the size of the pieces
 * that split off, and of the area a detour around the change needs, not
 * the size of the map.
 *
 * Components are numbered by their first cells in row-major order.  When
 * the change leaves every first cell where it was and adds or removes no
 * component, the numbers stand and only the changed cells are written;
 * otherwise the layer is numbered again in one pass over it, on threads. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "parallel/parallel.h"

/* ---- a map from cells to the set that reached them ---- */

typedef struct cellmap {
    uint32_t *key; /* cell + 1, 0 for an empty slot */
    uint32_t *val;
    size_t cap, n;
} cellmap;

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static uint32_t *map_find(const cellmap *m, uint32_t cell)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = hash32(cell) & mask;; i = (i + 1) & mask) {
        if (m->key[i] == cell + 1)
            return &m->val[i];
        if (!m->key[i])
            return NULL;
    }
}

static int map_put(cellmap *m, uint32_t cell, uint32_t val)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t ncap = m->cap ? 2 * m->cap : 1024;
        cellmap g = {nbb_calloc(ncap, sizeof *g.key), nbb_malloc(ncap * sizeof *g.val), ncap, 0};
        if (!g.key || !g.val) {
            nbb_free(g.key);
            nbb_free(g.val);
            return 0;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i])
                map_put(&g, m->key[i] - 1, m->val[i]);
        nbb_free(m->key);
        nbb_free(m->val);
        *m = g;
    }
    size_t mask = m->cap - 1;
    for (size_t i = hash32(cell) & mask;; i = (i + 1) & mask)
        if (!m->key[i]) {
            m->key[i] = cell + 1;
            m->val[i] = val;
            m->n++;
            return 1;
        }
}

/* ---- the sets the search grows ---- */

typedef struct set {
    uint32_t parent;
    uint64_t queued; /* cells queued, at the root */
} set;

typedef struct sets {
    set *s;
    size_t n, cap;
    size_t active; /* roots with cells queued */
} sets;

static uint32_t set_find(sets *s, uint32_t a)
{
    while (s->s[a].parent != a) {
        s->s[a].parent = s->s[s->s[a].parent].parent;
        a = s->s[a].parent;
    }
    return a;
}

typedef struct repair {
    const nbi_layer *cv; /* the new clearance */
    nbi_layer old;       /* the old components */
    uint32_t size, width, height;
    cellmap seen;
    sets s;
    uint32_t *queue;
    size_t qn, qcap;
} repair;

static int standable(const repair *r, uint64_t cell)
{
    return nbi_layer_get(r->cv, cell) >= r->size;
}

/* Queues cell for set (a new one when set is UINT32_MAX). */
static int visit(repair *r, uint32_t cell, uint32_t set_id)
{
    if (set_id == UINT32_MAX) {
        if (!nbi_grow(nbb_mem(), (void **)&r->s.s, &r->s.cap, r->s.n + 1, sizeof *r->s.s))
            return 0;
        set_id = (uint32_t)r->s.n++;
        r->s.s[set_id] = (set){set_id, 0};
        r->s.active++;
    }
    if (!map_put(&r->seen, cell, set_id) ||
        !nbi_grow(nbb_mem(), (void **)&r->queue, &r->qcap, r->qn + 1, sizeof *r->queue))
        return 0;
    r->queue[r->qn++] = cell;
    r->s.s[set_find(&r->s, set_id)].queued++;
    return 1;
}

/* Joins the sets of a and b. */
static void join(repair *r, uint32_t a, uint32_t b)
{
    a = set_find(&r->s, a);
    b = set_find(&r->s, b);
    if (a == b)
        return;
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    r->s.s[b].parent = a;
    if (r->s.s[a].queued && r->s.s[b].queued)
        r->s.active--;
    r->s.s[a].queued += r->s.s[b].queued;
}

/* The search from every seed, until at most one set still grows. */
static int grow(repair *r, const nbb_cv_change *ch, size_t n)
{
    uint64_t w = r->width, cells = (uint64_t)r->width * r->height;
    for (size_t i = 0; i < n; i++) {
        uint64_t c = ch[i].cell, nb[5] = {c, c - 1, c + 1, c - w, c + w};
        int ok[5] = {1, c % w > 0, c % w + 1 < w, c >= w, c + w < cells};
        for (int k = 0; k < 5; k++)
            if (ok[k] && standable(r, nb[k]) && !map_find(&r->seen, (uint32_t)nb[k]) &&
                !visit(r, (uint32_t)nb[k], UINT32_MAX))
                return 0;
    }
    for (size_t head = 0; head < r->qn && r->s.active > 1; head++) {
        uint64_t c = r->queue[head];
        uint32_t id = set_find(&r->s, *map_find(&r->seen, (uint32_t)c));
        uint64_t nb[4] = {c - 1, c + 1, c - w, c + w};
        int ok[4] = {c % w > 0, c % w + 1 < w, c >= w, c + w < cells};
        for (int k = 0; k < 4; k++) {
            if (!ok[k] || !standable(r, nb[k]))
                continue;
            uint32_t *other = map_find(&r->seen, (uint32_t)nb[k]);
            if (!other) {
                if (!visit(r, (uint32_t)nb[k], id))
                    return 0;
            } else
                join(r, id, *other);
            id = set_find(&r->s, id);
        }
        if (--r->s.s[id].queued == 0)
            r->s.active--;
    }
    return 1;
}

/* ---- numbering ---- */

/* A component of the new layer that the search found: a closed set, or
 * what remains (the one set still growing). */
typedef struct found {
    uint32_t root;
    uint64_t first; /* its first cell */
    uint32_t id;    /* its new number */
} found;

typedef struct except {
    uint32_t cell, id;
} except;

static int by_cell(const void *pa, const void *pb)
{
    const except *a = pa, *b = pb;
    return a->cell < b->cell ? -1 : a->cell > b->cell;
}

typedef struct relabel_job {
    const nbi_layer *old;
    const uint32_t *map; /* old number -> new (UINT32_MAX: look in the exceptions) */
    const except *ex;
    size_t nex;
    uint8_t *payload;
    unsigned bits;
    uint32_t width, height;
    uint32_t **scratch;
} relabel_job;

static nb_status relabel_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    relabel_job *j = ctx;
    uint32_t y0, y1;
    nbb_band_rows((uint32_t)band, j->height, &y0, &y1);
    uint32_t *v = j->scratch[worker];
    if (!v && !(v = j->scratch[worker] = nbb_malloc((size_t)NBB_BAND_ROWS * j->width * sizeof *v)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the components of a %u x %u map",
                        j->width, j->height);
    uint64_t c0 = (uint64_t)y0 * j->width, n = (uint64_t)(y1 - y0) * j->width;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t o = nbi_layer_get(j->old, c0 + i);
        v[i] = o && o <= j->old->maxval ? j->map[o] : 0;
    }
    /* The cells the search numbered itself. */
    size_t lo = 0, hi = j->nex;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (j->ex[mid].cell < c0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t e = lo; e < j->nex && j->ex[e].cell < c0 + n; e++)
        v[j->ex[e].cell - c0] = j->ex[e].id;
    nbb_layer_pack_rows(j->payload, j->width, j->bits, y0, y1, NULL, v);
    return NB_OK;
}

/* Writes value v at cell i of a packed payload. */
static void put_value(uint8_t *payload, unsigned bits, uint64_t i, uint32_t v)
{
    uint64_t bit = i * bits;
    uint8_t *p = payload + NBI_LAYER_HEADER + bit / 8;
    unsigned shift = (unsigned)(bit % 8);
    uint64_t mask = ((1ull << bits) - 1) << shift, val = (uint64_t)v << shift;
    for (unsigned b = 0; b < (shift + bits + 7) / 8; b++) {
        uint8_t m = (uint8_t)(mask >> (8 * b));
        p[b] = (uint8_t)((p[b] & ~m) | ((val >> (8 * b)) & m));
    }
}

static void free_repair(repair *r)
{
    nbb_free(r->seen.key);
    nbb_free(r->seen.val);
    nbb_free(r->s.s);
    nbb_free(r->queue);
}

/* The first cells of old components 1 .. upto, in one pass from the
 * start: they appear in the order of their numbers. */
static void first_cells(const nbi_layer *old, uint32_t upto, uint32_t *firsts)
{
    uint64_t cells = (uint64_t)old->width * old->height;
    uint32_t next = 1;
    for (uint64_t c = 0; c < cells && next <= upto; c++)
        if (nbi_layer_get(old, c) == next)
            firsts[next++] = (uint32_t)c;
    while (next <= upto) /* (a layer that lies about its count) */
        firsts[next++] = (uint32_t)cells;
}

nb_status nbb_components_repair(const nbi_layer *cv, const uint8_t *old, size_t old_len,
                                unsigned size, const nbb_cv_change *ch, size_t nch,
                                unsigned threads, uint8_t **payload, size_t *len,
                                nbb_repair_stats *stats, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    memset(stats, 0, sizeof *stats);
    repair r;
    memset(&r, 0, sizeof r);
    r.cv = cv;
    r.size = size;
    r.width = cv->width;
    r.height = cv->height;
    nbb_layer_of_payload(old, &r.old);
    /* Only cells whose standing changed matter. */
    nbb_cv_change *d = nbb_malloc((nch ? nch : 1) * sizeof *d);
    size_t nd = 0;
    if (!d)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
    for (size_t i = 0; i < nch; i++)
        if ((ch[i].before >= size) != (ch[i].after >= size))
            d[nd++] = ch[i];
    stats->changed = nd;
    if (nd == 0) {
        nbb_free(d);
        return NB_OK; /* the old layer stands */
    }
    nb_status st = NB_OK;
    found *f = NULL;
    except *ex = NULL;
    uint32_t *map = NULL, *firsts = NULL, *fidx = NULL;
    uint8_t *gone = NULL; /* per old number: 1 replaced, 2 replaced by what remains */
    uint32_t K0 = r.old.maxval, K1 = 0, rest = UINT32_MAX; /* the set still growing */
    uint64_t cells = (uint64_t)r.width * r.height;
    size_t nf = 0;
    if (!grow(&r, d, nd) || !(f = nbb_malloc((r.s.n + 1) * sizeof *f)) ||
        !(fidx = nbb_malloc((r.s.n + 1) * sizeof *fidx)) || !(gone = nbb_calloc((size_t)K0 + 1, 1)) ||
        !(firsts = nbb_malloc(((size_t)K0 + 2) * sizeof *firsts))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
        goto done;
    }
    stats->searched = r.qn;
    /* The components found, their first cells, and the old numbers they
     * replace. */
    for (uint32_t q = 0; q < r.s.n; q++)
        if (set_find(&r.s, q) == q) {
            fidx[q] = (uint32_t)nf;
            f[nf++] = (found){q, UINT64_MAX, 0};
            if (r.s.s[q].queued)
                rest = q;
        }
    for (size_t i = 0; i < r.qn; i++) {
        uint32_t c = r.queue[i], root = set_find(&r.s, *map_find(&r.seen, c));
        uint32_t o = nbi_layer_get(&r.old, c);
        if (o && o <= K0)
            gone[o] = root == rest ? 2 : gone[o] ? gone[o] : 1;
        found *x = &f[fidx[root]];
        x->first = c < x->first ? c : x->first;
    }
    uint32_t only = 0, upto = 0; /* the one old number replaced, if one */
    for (size_t i = 0; i < nd; i++) {
        uint32_t o = nbi_layer_get(&r.old, d[i].cell);
        if (o && o <= K0 && !gone[o])
            gone[o] = 1;
    }
    for (uint32_t o = 1; o <= K0; o++)
        if (gone[o]) {
            only = only ? UINT32_MAX : o;
            upto = o;
        }
    /* The numbers stand when what remains replaces one old component from
     * its first cell on, and nothing else came or went: then only the
     * first cells up to that one are needed. */
    int same = nf == 1 && rest != UINT32_MAX && only && only != UINT32_MAX && gone[only] == 2;
    first_cells(&r.old, same ? only : K0, firsts);
    /* What remains starts at the first cell of its old components that
     * neither closed nor came away, or at a cell the search reached. */
    for (uint32_t o = 1; rest != UINT32_MAX && o <= upto; o++) {
        found *x = &f[fidx[rest]];
        if (gone[o] != 2 || firsts[o] >= x->first)
            continue;
        for (uint64_t c = firsts[o]; c < x->first; c++) {
            if (nbi_layer_get(&r.old, c) != o || !standable(&r, c))
                continue;
            uint32_t *sid = map_find(&r.seen, (uint32_t)c);
            if (!sid || set_find(&r.s, *sid) == rest) {
                x->first = c;
                break;
            }
        }
    }
    if (same && f[0].first == firsts[only]) {
        if (!(*payload = nbb_malloc(old_len))) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
            goto done;
        }
        memcpy(*payload, old, old_len);
        for (size_t i = 0; i < nd; i++)
            put_value(*payload, r.old.bits, d[i].cell, d[i].after >= size ? only : 0);
        *len = old_len;
        stats->patched = nd;
        goto done;
    }
    if (same)
        first_cells(&r.old, K0, firsts);
    /* Number again: the old components that stand keep their first cells,
     * the found ones come in at theirs. */
    if (!(map = nbb_malloc(((size_t)K0 + 1) * sizeof *map)) ||
        !(ex = nbb_malloc((r.qn + nd + 1) * sizeof *ex))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
        goto done;
    }
    for (size_t i = 1; i < nf; i++) { /* by first cell (few) */
        found v = f[i];
        size_t j = i;
        while (j > 0 && f[j - 1].first > v.first) {
            f[j] = f[j - 1];
            j--;
        }
        f[j] = v;
    }
    for (size_t i = 0; i < nf; i++)
        fidx[f[i].root] = (uint32_t)i;
    size_t k = 0;
    for (uint32_t o = 1; o <= K0; o++) {
        while (k < nf && f[k].first < firsts[o])
            f[k++].id = ++K1;
        map[o] = gone[o] ? 0 : ++K1;
    }
    while (k < nf)
        f[k++].id = ++K1;
    for (uint32_t o = 1; rest != UINT32_MAX && o <= K0; o++)
        if (gone[o] == 2)
            map[o] = f[fidx[rest]].id;
    /* The cells the search reached or that closed, with their numbers. */
    size_t nex = 0;
    for (size_t i = 0; i < r.qn; i++)
        ex[nex++] = (except){r.queue[i], f[fidx[set_find(&r.s, *map_find(&r.seen, r.queue[i]))]].id};
    for (size_t i = 0; i < nd; i++)
        if (d[i].after < size)
            ex[nex++] = (except){d[i].cell, 0};
    if (!nbb_sort(ex, nex, sizeof *ex, by_cell)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
        goto done;
    }
    unsigned bits = nbi_bits_for(K1);
    *len = (size_t)nbi_layer_bytes(cells, bits);
    if (!(*payload = nbb_malloc(*len))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to repair the components");
        goto done;
    }
    nbb_layer_header(*payload, r.width, r.height, bits, K1);
    uint32_t *scratch[NBB_MAX_THREADS] = {NULL};
    relabel_job j = {&r.old, map, ex, nex, *payload, bits, r.width, r.height, scratch};
    st = nbb_par_for(threads, nbb_band_count(r.height), relabel_band, &j, err);
    for (unsigned i = 0; i < NBB_MAX_THREADS; i++)
        nbb_free(scratch[i]);
    stats->renumbered = 1;
done:
    if (st != NB_OK) {
        nbb_free(*payload);
        *payload = NULL;
        *len = 0;
    }
    nbb_free(d);
    nbb_free(f);
    nbb_free(fidx);
    nbb_free(gone);
    nbb_free(firsts);
    nbb_free(map);
    nbb_free(ex);
    free_repair(&r);
    return st;
}
