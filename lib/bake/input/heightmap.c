/* heightmap.c: heightmaps (formats/image.md), 8- or 16-bit gray PNGs
 * (image_png.c) or PGMs: bands of heights are terrains, and a cell more
 * than the legend's max_step above one of its eight neighbours is an
 * obstacle, so that no move between two cells that stand climbs or drops
 * more than max_step; agents that state their own limits get terrains of
 * their own for the cells between (heightmap_steps.c). */
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

/* PGM's header: whitespace and '#' comments between its numbers. */
static nb_status pgm_number(const char *file, const uint8_t *b, size_t len, size_t *pos,
                            uint32_t min, uint32_t max, const char *what, uint32_t *out,
                            nb_err *err)
{
    size_t i = *pos;
    for (;;) {
        while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
            i++;
        if (i < len && b[i] == '#') {
            while (i < len && b[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    uint64_t v = 0;
    size_t start = i;
    while (i < len && b[i] >= '0' && b[i] <= '9' && v <= max)
        v = v * 10 + (uint64_t)(b[i++] - '0');
    if (i == start || v > max || v < min)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: byte %zu: expected the %s, a whole number from %u to %u",
                        file, start, what, min, max);
    *out = (uint32_t)v;
    *pos = i;
    return NB_OK;
}

nb_status nbb_pgm_read(const char *path, nbb_heights *hm, nb_err *err)
{
    const char *file = nbb_input_name(path);
    char *buf;
    size_t len, pos = 2;
    memset(hm, 0, sizeof *hm);
    nb_status st = nbb_read_file(path, NBB_IMAGE_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    const uint8_t *b = (const uint8_t *)buf;
    uint32_t w = 0, h = 0, maxval = 0;
    int binary = len >= 2 && b[0] == 'P' && b[1] == '5';
    if (!binary && !(len >= 2 && b[0] == 'P' && b[1] == '2'))
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: not a PGM (it starts with neither P5 nor P2)", file);
    if (st == NB_OK)
        st = pgm_number(file, b, len, &pos, 1, NB_MAP_MAX_SIDE, "width", &w, err);
    if (st == NB_OK)
        st = pgm_number(file, b, len, &pos, 1, NB_MAP_MAX_SIDE, "height", &h, err);
    if (st == NB_OK)
        st = pgm_number(file, b, len, &pos, 1, 65535, "largest value", &maxval, err);
    uint16_t *v = st == NB_OK ? nbb_malloc((size_t)w * h * sizeof *v) : NULL;
    if (st == NB_OK && !v)
        st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells", file, w, h);
    size_t n = (size_t)w * h, bytes = maxval > 255 ? 2 : 1;
    if (st == NB_OK && binary) {
        pos++; /* the one whitespace byte after the header */
        if (pos > len || len - pos != n * bytes)
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: %zu bytes of samples, the header's %u x %u at %zu bytes each is %zu",
                          file, pos > len ? 0 : len - pos, w, h, bytes, n * bytes);
        for (size_t i = 0; st == NB_OK && i < n; i++)
            v[i] = bytes == 2 ? (uint16_t)(b[pos + 2 * i] << 8 | b[pos + 2 * i + 1]) : b[pos + i];
    }
    for (size_t i = 0; st == NB_OK && !binary && i < n; i++) {
        uint32_t x;
        st = pgm_number(file, b, len, &pos, 0, 65535, "next sample", &x, err);
        if (st == NB_OK)
            v[i] = (uint16_t)x;
    }
    for (size_t i = 0; st == NB_OK && i < n; i++)
        if (v[i] > maxval)
            st = nbi_fail(err, NB_ERR_FORMAT, "%s: cell (%zu, %zu): %u is above the largest value %u",
                          file, i % w, i / w, v[i], maxval);
    nbb_free(buf);
    if (st != NB_OK) {
        nbb_free(v);
        return st;
    }
    hm->w = w, hm->h = h, hm->bits = maxval > 255 ? 16 : 8, hm->v = v;
    return NB_OK;
}

nb_status nbb_heightmap_grid(const char *file, const nbb_heights *hm, nbi_legend *legend,
                             const nbb_legend_ext *ext, nbb_grid *grid, nb_err *err)
{
    uint32_t w = hm->w, h = hm->h, limit[NB_MAX_AGENTS];
    unsigned k = nbb_step_limits(ext, limit); /* heightmap_steps.c */
    memset(grid, 0, sizeof *grid);
    if (ext && ext->height_bits && ext->height_bits != hm->bits)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: heights of %u bits; the legend reads heights of %u bits (height_bits)",
                        file, hm->bits, ext->height_bits);
    uint8_t *cells = nbb_malloc((size_t)w * h), ch[256];
    /* The terrain of band b where j limits are below the drop: step[b][j]. */
    int16_t(*step)[NB_MAX_AGENTS] = nbb_calloc(NB_MAX_TERRAINS, sizeof *step);
    int known[256] = {0};
    nb_status st = cells && step ? NB_OK
                                 : nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells",
                                            file, w, h);
    for (uint32_t y = 0; st == NB_OK && y < h; y++)
        for (uint32_t x = 0; st == NB_OK && x < w; x++) {
            uint32_t z = hm->v[(size_t)y * w + x], drop = 0;
            int code = 0;
            for (size_t b = 0; ext && b < ext->nbands; b++)
                if (z >= ext->band[b].lo && z <= ext->band[b].hi)
                    code = ext->band[b].code;
            for (int dy = -1; dy <= 1 && limit[0] != UINT32_MAX; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int64_t nx = (int64_t)x + dx, ny = (int64_t)y + dy;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                        continue;
                    uint32_t nz = hm->v[(size_t)ny * w + (size_t)nx];
                    if (z > nz && z - nz > drop)
                        drop = z - nz;
                }
            unsigned j = 0;
            while (j < k && limit[j] < drop)
                j++;
            if (j == k)
                code = NBI_CELL_OBSTACLE;
            else if (j > 0 && code != NBI_CELL_OBSTACLE) {
                int16_t *t = &step[code][j]; /* the terrain + 1, or 0: not made yet */
                int made = 0;
                if (!*t && (st = nbb_step_terrain(file, legend, ext, code, limit[j], &made, err)) == NB_OK)
                    *t = (int16_t)(made + 1);
                if (st != NB_OK)
                    break;
                code = *t - 1;
            }
            if (st == NB_OK && !known[code]) {
                st = nbb_legend_cell_char(legend, code, &ch[code], err);
                known[code] = 1;
            }
            if (st == NB_OK)
                cells[(size_t)y * w + x] = ch[code];
        }
    nbb_free(step);
    if (st != NB_OK) {
        nbb_free(cells);
        return st;
    }
    grid->width = w, grid->height = h, grid->cells = cells;
    return NB_OK;
}
