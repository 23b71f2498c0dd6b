/* test_open_list.c: the planner's open list (lib/runtime/turning/queue.c),
 * a heap of the lowest band of keys with the rest waiting in buckets,
 * pops in (key, tie) order against a brute-force minimum over what was
 * pushed: pushes and pops interleaved as a search makes them, keys that
 * go down as well as up, equal keys, keys far past the last bucket,
 * infinite ones; cleared and reused; out of memory, the list as it was;
 * and, given the nodes, stale entries dropped and the others all kept. */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"
#include "testutil.h"

enum { MAXN = 20000 };

struct ref {
    double key[MAXN], tie[MAXN];
    int live[MAXN];
    uint32_t n, nlive;
};

/* The least live (key, tie), by looking at every one. */
static int ref_min(const struct ref *r)
{
    int best = -1;
    for (uint32_t i = 0; i < r->n; i++)
        if (r->live[i] && (best < 0 || r->key[i] < r->key[best] ||
                           (r->key[i] == r->key[best] && r->tie[i] < r->tie[best])))
            best = (int)i;
    return best;
}

static double next_key(tu_rng *rng, double last, double step)
{
    switch (tu_below(rng, 20)) {
    case 0: return last - tu_below(rng, 40) * 0.05; /* below the band popped last */
    case 1: return 1e7 + tu_below(rng, 3);            /* past the last bucket */
    case 2: return INFINITY;
    case 3: return last;                              /* an equal key */
    default: return last + tu_below(rng, 400) * step; /* ahead */
    }
}

/* One search-like run: n pushes, pops in between, keys ahead of the last
 * popped by up to 400 steps (a small step: thousands in the heap at once);
 * 1 when every pop was the brute-force minimum and the list ends empty. */
static int run(nbi_open *q, tu_rng *rng, struct ref *r, uint32_t n, double first, double step)
{
    r->n = r->nlive = 0;
    double last = first;
    int good = 1;
    while (r->n < n || r->nlive) {
        if (r->n < n && (r->nlive == 0 || tu_below(rng, 3) != 0)) {
            double k = r->n ? next_key(rng, last, step) : first, t = -(double)tu_below(rng, 5);
            if (!nbi_open_push(q, k, t, r->n))
                return 0;
            r->key[r->n] = k;
            r->tie[r->n] = t;
            r->live[r->n++] = 1;
            r->nlive++;
            continue;
        }
        nbi_heap_item it;
        int m = ref_min(r);
        if (nbi_open_empty(q) || nbi_open_pop(q, &it) != 1 || it.id >= r->n || !r->live[it.id])
            return 0;
        good &= it.key == r->key[m] && it.tie == r->tie[m] && it.key == r->key[it.id] &&
                it.tie == r->tie[it.id];
        r->live[it.id] = 0;
        r->nlive--;
        if (it.key < INFINITY && it.key < 1e6)
            last = it.key;
    }
    return good && nbi_open_empty(q);
}

/* An allocator that fails once `left` allocations have been made. */
struct budget {
    long left;
};
static void *b_alloc(void *o, size_t n)
{
    struct budget *b = o;
    return b->left-- > 0 ? malloc(n) : NULL;
}
static void *b_realloc(void *o, void *p, size_t n)
{
    struct budget *b = o;
    return b->left-- > 0 ? realloc(p, n) : NULL;
}
static void b_free(void *o, void *p)
{
    (void)o;
    free(p);
}

int main(void)
{
    static struct ref r;
    tu_rng rng = {19};
    nbi_open q;
    ok(nbi_open_init(&q, NULL, 4), "init");
    int all = 1;
    for (int round = 0; round < 6; round++)
        all &= run(&q, &rng, &r, round % 2 ? MAXN : 3000, round == 4 ? -50.0 : 100.0 * round,
                   round < 3 ? 0.01 : 1e-5);
    ok(all, "six runs, interleaved: every pop is the least (key, tie) pushed and not popped");

    /* Cleared with entries waiting: nothing of them comes out after. */
    for (uint32_t i = 0; i < 1000; i++)
        nbi_open_push(&q, 10 + i * 0.3, 0, i);
    nbi_heap_item it;
    nbi_open_pop(&q, &it);
    nbi_open_clear(&q);
    ok(nbi_open_empty(&q), "cleared with 999 entries left: empty");
    ok(run(&q, &rng, &r, 5000, 3.0, 0.01), "and in order again after the clear");
    nbi_open_free(&q);

    /* Out of memory: a push refused leaves the list as it was, and so does
     * a pop that cannot make room to heap the next bucket. */
    struct budget b = {1};
    nb_allocator fa = {b_alloc, b_realloc, b_free, &b};
    ok(nbi_open_init(&q, &fa, 2), "init within the budget");
    ok(nbi_open_push(&q, 1.0, 0, 0) && nbi_open_push(&q, 1.0, 0, 1), "two pushes in the reserve");
    ok(!nbi_open_push(&q, 1.0, 0, 2), "a third into the full heap is refused");
    ok(!nbi_open_push(&q, 50.0, 0, 3), "a waiting one, with no room for buckets, is refused");
    b.left = 2; /* the buckets and the pool, not the heap's growth */
    int waited = 1;
    for (uint32_t i = 0; i < 5; i++)
        waited &= nbi_open_push(&q, 50.0, 0, 10 + i);
    ok(waited, "five waiting entries pushed once memory is there");
    uint32_t first = 0, second = 0;
    nbi_open_pop(&q, &it);
    first = it.id;
    nbi_open_pop(&q, &it);
    second = it.id;
    ok(first + second == 1, "the two in the heap come out first");
    ok(nbi_open_pop(&q, &it) < 0 && !nbi_open_empty(&q), "the next bucket cannot be heaped: refused");
    b.left = 100;
    int five = 1;
    for (uint32_t i = 0; i < 5; i++)
        five &= nbi_open_pop(&q, &it) == 1 && it.key == 50.0 && it.id >= 10 && it.id < 15;
    ok(five && nbi_open_empty(&q), "with memory again, all five come out");
    nbi_open_free(&q);

    /* Stale entries: the node closed, or found cheaper since (its g no
     * longer the entry's -tie).  Waiting ones are dropped when their
     * bucket is heaped; every live one still comes out, in order. */
    nbi_nodes nodes;
    nbi_nodes_init(&nodes, NULL, 1);
    nbi_open_init(&q, NULL, 4);
    q.nodes = &nodes;
    enum { M = 300 };
    static uint32_t ids[M];
    int fresh, made = 1;
    for (int i = 0; i < M; i++) {
        made &= (ids[i] = nbi_nodes_get(&nodes, i % 40, i / 40, 0, 1, &fresh)) != 0;
        nbi_nodes_at(&nodes, ids[i])->g = i;
        nbi_open_push(&q, 2.0 * i, -(double)i, ids[i]); /* entry i: live */
    }
    for (int i = 0; i < M; i++) {
        nbi_node *n = nbi_nodes_at(&nodes, ids[i]);
        if (i % 3 == 1) {
            n->g = i - 0.5; /* cheaper: entry i stale, a new one pushed */
            nbi_open_push(&q, 2.0 * i - 1, -n->g, ids[i]);
        } else if (i % 3 == 2)
            n->closed = 1; /* entry i stale */
    }
    double last = -1;
    int count = 0, live = 1, order = 1, got;
    while ((got = nbi_open_pop(&q, &it)) == 1) {
        const nbi_node *n = nbi_nodes_at(&nodes, it.id);
        live &= !n->closed && n->g == -it.tie;
        order &= it.key >= last;
        last = it.key;
        count++;
    }
    /* 100 entries of the first kind, 100 cheaper ones of the second. */
    ok(made && got == 0 && live && order && count == 200,
       "with nodes: %d entries popped, every one live, in order; 200 expected", count);
    ok(nbi_open_empty(&q), "and then the list is empty");
    nbi_open_push(&q, 1e6, -1.0, ids[2]); /* closed */
    ok(!nbi_open_empty(&q) && nbi_open_pop(&q, &it) == 0 && nbi_open_empty(&q),
       "a list of stale entries only: not empty, yet nothing to pop");
    nbi_open_free(&q);
    nbi_nodes_free(&nodes);
    return done_testing();
}
