/* worldbake.c: see worldbake.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sections/sections.h"
#include "worldbake.h"

void tw_world_close(tw_world *wd)
{
    for (uint32_t t = 0; wd->tiles && t < wd->w.columns * wd->w.rows; t++)
        nb_bundle_close(wd->tiles[t]);
    free(wd->tiles);
    free(wd->tag);
    nb_bundle_close(wd->index);
    nbb_world_free(&wd->w);
    memset(wd, 0, sizeof *wd);
}

int tw_bake_world(const char *dir, int update, tw_world *wd, nb_err *err)
{
    memset(wd, 0, sizeof *wd);
    if (nbb_world_read(tu_path(dir, "world.yaml"), &wd->w, err) != NB_OK)
        return 0;
    uint32_t n = wd->w.columns * wd->w.rows;
    wd->tiles = calloc(n, sizeof *wd->tiles);
    wd->tag = calloc(n, sizeof *wd->tag);
    for (uint32_t ty = 0; ty < wd->w.rows; ty++)
        for (uint32_t tx = 0; tx < wd->w.columns; tx++) {
            char name[64], border[64];
            snprintf(name, sizeof name, "tiles/%u_%u.nbb", tx, ty);
            snprintf(border, sizeof border, "tiles/%u_%u.border", tx, ty);
            nbb_world_tile_out o;
            if (nbb_world_tile_bake(&wd->w, tx, ty, update ? tu_path(dir, name) : NULL, 2, &o,
                                    err) != NB_OK ||
                nbb_world_put(dir, name, o.tile, o.tile_len, NULL, NULL, NULL, err) != NB_OK ||
                nbb_world_put(dir, border, o.border, o.border_len, NULL, NULL, NULL, err) != NB_OK)
                return 0;
            nbb_world_tile_out_free(&o);
            nb_bundle **tb = &wd->tiles[ty * wd->w.columns + tx];
            if (nb_bundle_open(tu_path(dir, name), NB_OPEN_VERIFY, NULL, tb, err) != NB_OK ||
                nbi_wtile_find(*tb, &wd->tag[ty * wd->w.columns + tx], err) != NB_OK)
                return 0;
        }
    uint8_t *img;
    size_t len;
    if (nbb_world_link(&wd->w, dir, NULL, NULL, &img, &len, NULL, err) != NB_OK)
        return 0;
    int ok = nbb_world_put(dir, "world.nbw", img, len, NULL, NULL, NULL, err) == NB_OK &&
             nb_bundle_open(tu_path(dir, "world.nbw"), NB_OPEN_VERIFY, NULL, &wd->index, err) ==
                 NB_OK;
    free(img);
    return ok;
}

nb_bundle *tw_whole_bake(const char *map, const char *legend, const char *agents)
{
    nbb_level *l = NULL;
    nbb_builder *b = NULL;
    nb_err err;
    nb_bundle *out = NULL;
    uint8_t *img;
    size_t len;
    nbb_rebake_opts ro = {0, 2, 0, NULL, NULL};
    nbb_rebake_stats s;
    /* The bundle takes the image over. */
    if (nbb_level_read(legend, agents, map, 2, &l, &err) != NB_OK ||
        nbb_builder_new(&b, &err) != NB_OK || nbb_level_rebake(b, l, NULL, &ro, &s, &err) != NB_OK ||
        nbb_builder_image(b, &img, &len, &err) != NB_OK ||
        nbi_bundle_open_image(img, len, "(whole)", NB_OPEN_VERIFY, &out, &err) != NB_OK)
        diag("whole bake of %s: %s", map, err.msg);
    nbb_builder_free(b);
    nbb_level_free(l);
    return out;
}

void tw_write_map(const char *path, const nbb_grid *g)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", g->height, g->width);
    for (uint32_t y = 0; y < g->height; y++)
        fprintf(f, "%.*s\n", (int)g->width, (const char *)g->cells + (size_t)y * g->width);
    fclose(f);
}

const char *tw_fresh_dir(const char *tmp, const char *prefix, int *k)
{
    static char dirs[16][4096];
    char *d = dirs[*k % 16];
    snprintf(d, sizeof dirs[0], "%s/%s%d", tmp, prefix, (*k)++);
    mkdir(d, 0777);
    return d;
}

int tw_level_open(tw_level *l, const char *what, const char *map_, const char *agents_,
                  uint32_t tile, uint32_t cluster, const char *dir)
{
    nb_err err;
    char *map = strdup(map_), *agents = strdup(agents_);
    memset(l, 0, sizeof *l);
    l->what = what;
    int good = ok(nbb_world_cut(map, NULL, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                          NB_OK &&
                      tw_bake_world(dir, 0, &l->wd, &err),
                  "%s: cut into tiles of %u, baked and linked: %s", what, tile, err.msg);
    if (good) {
        l->whole = tw_whole_bake(map, NULL, agents);
        good = ok(l->whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &l->w,
                                            &err) == NB_OK,
                  "%s: the world opens: %s", what, err.msg);
    }
    free(map), free(agents);
    if (good)
        nb_world_describe(l->w, &l->in);
    return good;
}

void tw_level_close(tw_level *l)
{
    nb_world_close(l->w);
    nb_bundle_close(l->whole);
    tw_world_close(&l->wd);
}

/* One rectangle blocked in both overlays, clipped to the world. */
static void block_both(const tw_level *l, nb_world_overlay *wov, nb_overlay *ov, long x, long y,
                       long bw, long bh)
{
    if (x < 0)
        bw += x, x = 0;
    if (y < 0)
        bh += y, y = 0;
    bw = x + bw > (long)l->in.width ? (long)l->in.width - x : bw;
    bh = y + bh > (long)l->in.height ? (long)l->in.height - y : bh;
    nb_err e1, e2;
    if (bw > 0 && bh > 0 &&
        (nb_world_overlay_block(wov, x, y, bw, bh, &e1) != NB_OK ||
         nb_overlay_block(ov, x, y, bw, bh, &e2) != NB_OK))
        diag("a block (%ld, %ld) %ld x %ld: %s / %s", x, y, bw, bh, e1.msg, e2.msg);
}

void tw_straddling_blocks(tu_rng *r, const tw_level *l, nb_world_overlay *wov, nb_overlay *ov,
                          int n)
{
    nb_world_info in = l->in;
    for (int i = 0; i < n; i++) {
        long bw = 1 + tu_below(r, 6), bh = 1 + tu_below(r, 6);
        long x = (long)(tu_below(r, in.columns) * in.tile) - bw / 2 + (i % 3 == 1 ? tu_below(r, in.tile) : 0);
        long y = (long)(tu_below(r, in.rows) * in.tile) - bh / 2 + (i % 3 == 2 ? tu_below(r, in.tile) : 0);
        block_both(l, wov, ov, x, y, bw, bh);
    }
}

void tw_ring_blocks(tu_rng *r, const tw_level *l, nb_world_overlay *wov, nb_overlay *ov, int n,
                    nb_cell *centre)
{
    nb_world_info in = l->in;
    for (int i = 0; i < n; i++) {
        long half = 3 + tu_below(r, 8);
        long cx = (long)(tu_below(r, in.columns) * in.tile) + (i % 2 ? 0 : tu_below(r, in.tile));
        long cy = (long)(tu_below(r, in.rows) * in.tile);
        long x0 = cx - half, y0 = cy - half, side = 2 * half + 1;
        block_both(l, wov, ov, x0, y0, side, 1);
        block_both(l, wov, ov, x0, y0 + side - 1, side, 1);
        block_both(l, wov, ov, x0, y0, 1, side);
        block_both(l, wov, ov, x0 + side - 1, y0, 1, side);
        if (centre)
            centre[i] = (nb_cell){(int32_t)(cx < (long)in.width ? cx : (long)in.width - 1),
                                  (int32_t)(cy < (long)in.height ? cy : (long)in.height - 1)};
    }
}

uint8_t *tw_edited_reach(const nb_bundle *b, const nb_overlay *ov, nb_capability cap,
                         uint32_t size, nb_cell start)
{
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    uint8_t *seen = calloc((size_t)w * h, 1);
    uint32_t *queue = malloc((size_t)w * h * sizeof *queue);
    size_t head = 0, tail = 0;
    if (nb_overlay_can_stand(ov, cap, size, start.x, start.y) == 1) {
        seen[(size_t)start.y * w + (size_t)start.x] = 1;
        queue[tail++] = (uint32_t)start.y * w + (uint32_t)start.x;
    }
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    while (head < tail) {
        uint32_t c = queue[head++];
        int32_t x = (int32_t)(c % w), y = (int32_t)(c / w);
        for (int d = 0; d < 4; d++) {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || (uint32_t)nx >= w || (uint32_t)ny >= h ||
                seen[(size_t)ny * w + (size_t)nx] ||
                nb_overlay_can_stand(ov, cap, size, nx, ny) != 1)
                continue;
            seen[(size_t)ny * w + (size_t)nx] = 1;
            queue[tail++] = (uint32_t)ny * w + (uint32_t)nx;
        }
    }
    free(queue);
    return seen;
}

nb_cell tw_standable(tu_rng *r, const nb_bundle *whole, nb_capability cap, uint32_t w, uint32_t h)
{
    nb_cell e = {0, 0};
    for (int tries = 0; tries < 500; tries++) {
        e = (nb_cell){(int32_t)tu_below(r, w), (int32_t)tu_below(r, h)};
        if (nb_can_stand(whole, cap, 1, e.x, e.y) == 1)
            break;
    }
    return e;
}
