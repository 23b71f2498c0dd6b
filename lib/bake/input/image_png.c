/* image_png.c: PNG levels with libpng (formats/image.md): a colour image
 * whose colours the legend names, or the gray samples of a heightmap.
 * libpng's errors come back through longjmp into a message naming the
 * file; its limits hold the image to the map's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "levels.h"

#ifdef HAVE_PNG
#include <png.h>
#include <setjmp.h>

typedef struct reader {
    const uint8_t *buf;
    size_t len, pos;
    char msg[200];
} reader;

static void on_read(png_structp p, png_bytep out, png_size_t n)
{
    reader *r = png_get_io_ptr(p);
    if (n > r->len - r->pos)
        png_error(p, "the file ends inside the image");
    memcpy(out, r->buf + r->pos, n);
    r->pos += n;
}

static void on_error(png_structp p, png_const_charp msg)
{
    reader *r = png_get_error_ptr(p);
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    png_longjmp(p, 1);
}

static void on_warning(png_structp p, png_const_charp msg) { (void)p, (void)msg; }

/* The code of colour #rrggbb: the legend's colours, or (with none) white
 * the first terrain and black an obstacle. */
static int colour_code(const nbi_legend *legend, const nbb_legend_ext *ext, int any,
                       unsigned rgb)
{
    char key[8];
    snprintf(key, sizeof key, "#%06x", rgb);
    for (size_t k = 0; ext && k < ext->nmatch; k++)
        if (ext->match[k].kind == NBB_MATCH_COLOUR && strcasecmp(ext->match[k].key, key) == 0)
            return ext->match[k].code;
    (void)legend;
    if (!any)
        return rgb == 0xffffff ? 0 : rgb == 0 ? (int)NBI_CELL_OBSTACLE : -1;
    return -1;
}

nb_status nbb_png_read(const char *path, int heightmap, nbi_legend *legend,
                       const nbb_legend_ext *ext, nbb_grid *grid, nbb_heights *hm, nb_err *err)
{
    const char *file = nbb_input_name(path);
    char *buf;
    size_t len;
    memset(grid, 0, sizeof *grid);
    memset(hm, 0, sizeof *hm);
    nb_status st = nbb_read_file(path, NBB_IMAGE_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    reader r = {(const uint8_t *)buf, len, 0, ""};
    png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, on_error, on_warning);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    uint8_t *row = NULL, *cells = NULL;
    uint16_t *v = NULL;
    /* volatile: changed between setjmp and a longjmp back to it. */
    uint8_t *volatile vcells = NULL;
    uint16_t *volatile vv = NULL;
    uint8_t *volatile vrow = NULL;
    volatile nb_status vst = NB_OK;
    if (!info) {
        png_destroy_read_struct(p ? &p : NULL, NULL, NULL);
        nbb_free(buf);
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the PNG reader", file);
    }
    if (setjmp(png_jmpbuf(p))) {
        if (vst == NB_OK)
            vst = nbi_fail(err, NB_ERR_FORMAT, "%s: not a PNG libpng can read: %s", file, r.msg);
        goto done;
    }
    png_set_user_limits(p, NB_MAP_MAX_SIDE, NB_MAP_MAX_SIDE);
    png_set_chunk_malloc_max(p, 8u << 20);
    png_set_read_fn(p, &r, on_read);
    png_read_info(p, info);
    uint32_t w = png_get_image_width(p, info), h = png_get_image_height(p, info);
    int depth = png_get_bit_depth(p, info), type = png_get_color_type(p, info);
    if (heightmap) {
        if (type != PNG_COLOR_TYPE_GRAY) {
            vst = nbi_fail(err, NB_ERR_FORMAT,
                           "%s: a heightmap must be a gray image of 8 or 16 bits (this one is %s)",
                           file, type & PNG_COLOR_MASK_COLOR ? "in colour" : "gray with alpha");
            goto done;
        }
        if (depth < 8)
            png_set_expand_gray_1_2_4_to_8(p);
        if (ext && ext->height_bits && ext->height_bits != (unsigned)(depth < 8 ? 8 : depth)) {
            vst = nbi_fail(err, NB_ERR_FORMAT,
                           "%s: a %d-bit image; the legend reads heights of %u bits (height_bits)",
                           file, depth < 8 ? 8 : depth, ext->height_bits);
            goto done;
        }
        hm->bits = depth == 16 ? 16 : 8;
    } else {
        if (depth == 16) {
            vst = nbi_fail(err, NB_ERR_FORMAT,
                           "%s: 16 bits a channel: colours are named #rrggbb, save it with 8", file);
            goto done;
        }
        png_set_expand(p);
        png_set_gray_to_rgb(p);
        if (!(type & PNG_COLOR_MASK_ALPHA))
            png_set_add_alpha(p, 0xff, PNG_FILLER_AFTER);
    }
    if (depth == 16)
        png_set_swap(p); /* 16-bit samples least significant byte first */
    if (png_set_interlace_handling(p) != 1) {
        vst = nbi_fail(err, NB_ERR_UNSUPPORTED, "%s: an interlaced PNG: save it without interlacing",
                       file);
        goto done;
    }
    png_read_update_info(p, info);
    size_t rowbytes = png_get_rowbytes(p, info);
    vrow = row = nbb_malloc(rowbytes);
    if (heightmap)
        vv = v = nbb_malloc((size_t)w * h * sizeof *v);
    else
        vcells = cells = nbb_malloc((size_t)w * h);
    if (!row || (heightmap ? !v : !cells)) {
        vst = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells", file, w, h);
        goto done;
    }
    int any = 0;
    for (size_t k = 0; ext && k < ext->nmatch; k++)
        any |= ext->match[k].kind == NBB_MATCH_COLOUR;
    uint8_t ch[256];
    int known[256] = {0};
    for (uint32_t y = 0; y < h; y++) {
        png_read_row(p, row, NULL);
        for (uint32_t x = 0; x < w; x++) {
            if (heightmap) {
                v[(size_t)y * w + x] = depth == 16 ? (uint16_t)(row[2 * x] | row[2 * x + 1] << 8)
                                                   : row[x];
                continue;
            }
            const uint8_t *px = row + 4 * (size_t)x;
            unsigned rgb = (unsigned)px[0] << 16 | (unsigned)px[1] << 8 | px[2];
            int code = px[3] == 0 ? (ext && ext->empty >= 0 ? ext->empty : (int)NBI_CELL_OBSTACLE)
                                  : colour_code(legend, ext, any, rgb);
            if (code < 0) {
                vst = nbi_fail(err, NB_ERR_FORMAT,
                               "%s: pixel (%u, %u): colour #%06x is not in the legend's colours",
                               file, x, y, rgb);
                goto done;
            }
            if (!known[code]) {
                nb_status cs = nbb_legend_cell_char(legend, code, &ch[code], err);
                if (cs != NB_OK) {
                    vst = cs;
                    goto done;
                }
                known[code] = 1;
            }
            cells[(size_t)y * w + x] = ch[code];
        }
    }
    if (heightmap) {
        hm->w = w, hm->h = h, hm->v = v;
        vv = NULL;
    } else {
        grid->width = w, grid->height = h, grid->cells = cells;
        vcells = NULL;
    }
done:
    png_destroy_read_struct(&p, &info, NULL);
    nbb_free(vrow);
    nbb_free(vcells);
    nbb_free(vv);
    nbb_free(buf);
    return vst;
}

#else

nb_status nbb_png_read(const char *path, int heightmap, nbi_legend *legend,
                       const nbb_legend_ext *ext, nbb_grid *grid, nbb_heights *hm, nb_err *err)
{
    (void)heightmap, (void)legend, (void)ext, (void)grid, (void)hm;
    return nbi_fail(err, NB_ERR_UNSUPPORTED,
                    "%s: this build reads no PNG (configure found no libpng)", nbb_input_name(path));
}

#endif
