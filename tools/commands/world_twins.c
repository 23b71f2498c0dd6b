/* world_twins.c: the twins of a world's plan.  Worlds are often built
 * from repeated chunks (a street map mirrored into a city has a period of
 * two copies; a game's biome tiles repeat); a tile baked from the same
 * cells as another (its own map and every neighbour's map the same bytes,
 * and the same neighbours present) has the same bundle but for its tile
 * section, so the plan has it updated from that tile's bundle (navbake
 * world tile --twin), which costs a read and a write, not a bake.  Files
 * are compared by a 64-bit hash and length: a false match costs a bake
 * (the tile action compares the cells' digests, and its update the cells
 * themselves), never a wrong byte. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "world_plan.h"

typedef struct file_sum {
    uint64_t hash, length;
} file_sum;

/* FNV-1a over the file's bytes, and its length. */
static int sum_file(const char *path, file_sum *s)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return nbc_fail("cannot open %s: %s", path, strerror(errno)), 0;
    unsigned char buf[1 << 15];
    uint64_t h = 14695981039346656037ull, n = 0;
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return nbc_fail("cannot read %s", path), 0;
    s->hash = h;
    s->length = n;
    return 1;
}

/* What a tile is baked from: its map's sum, then each neighbour's, row by
 * row (zero where there is none). */
typedef struct tile_key {
    file_sum own[9];
    uint32_t tile;
} tile_key;

static int by_key(const void *a, const void *b)
{
    const tile_key *x = a, *y = b;
    int c = memcmp(x->own, y->own, sizeof x->own);
    return c ? c : (x->tile > y->tile) - (x->tile < y->tile);
}

int nbc_world_twins(nbc_world_plan *p)
{
    size_t n = (size_t)p->w.columns * p->w.rows;
    file_sum *sums = calloc(n ? n : 1, sizeof *sums);
    tile_key *keys = calloc(n ? n : 1, sizeof *keys);
    int ok = sums && keys && (p->twin = calloc(n ? n : 1, sizeof *p->twin));
    if (!ok)
        nbc_fail("no memory for the twins of %zu tiles", n);
    for (size_t i = 0; ok && i < n; i++)
        ok = sum_file(p->maps[i], &sums[i]);
    for (uint32_t ty = 0; ok && ty < p->w.rows; ty++)
        for (uint32_t tx = 0; tx < p->w.columns; tx++) {
            tile_key *k = &keys[(size_t)ty * p->w.columns + tx];
            k->tile = ty * p->w.columns + tx;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    uint32_t nx = tx, ny = ty;
                    if ((dx || dy) && !nbb_world_neighbour(&p->w, tx, ty, dx, dy, &nx, &ny))
                        continue;
                    k->own[3 * (dy + 1) + (dx + 1)] = sums[(size_t)ny * p->w.columns + nx];
                }
        }
    /* Sorted, equal keys are together, the first tile of each first: the
     * one baked, the twin of the others. */
    if (ok)
        qsort(keys, n, sizeof *keys, by_key);
    p->twins = 0;
    for (size_t i = 0; ok && i < n; i++) {
        int same = i && memcmp(keys[i].own, keys[i - 1].own, sizeof keys[i].own) == 0;
        p->twin[keys[i].tile] = same ? p->twin[keys[i - 1].tile] : keys[i].tile;
        p->twins += same;
    }
    free(sums);
    free(keys);
    return ok;
}
