/* render_legend.c: the legend, a strip under the map.  Items flow left to
 * right and wrap; a title starts a new line.  Its font is 7 pixels high
 * in pictures narrower than 1024 pixels, 14 in wider ones. */
#include <stdarg.h>
#include <stdlib.h>

#include "render.h"

void nbr_legend_add(nbr_legend *l, nbr_item_kind kind, uint32_t colour, const char *fmt, ...)
{
    if (l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        nbr_item *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->failed = 1;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    nbr_item *it = &l->items[l->n++];
    it->kind = kind;
    it->colour = colour;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->label, sizeof it->label, fmt, ap);
    va_end(ap);
}

void nbr_legend_free(nbr_legend *l)
{
    free(l->items);
    memset(l, 0, sizeof *l);
}

double nbr_legend_text_px(uint32_t width) { return width < 1024 ? 7.0 : 14.0; }

/* Layout in units of k (the font's magnification): a line is 12k high,
 * a mark 8k wide with 3k before its label, 10k between items, 6k of
 * margin around everything. */
static double item_width(const nbr_item *it, double px, double k)
{
    double w = nbr_text_width(px, it->label);
    if (it->kind == NBR_ITEM_SWATCH || it->kind == NBR_ITEM_LINE || it->kind == NBR_ITEM_DOT)
        w += 11 * k;
    return w;
}

/* Lays the items out; calls draw (when c is not NULL) for each; returns
 * the number of lines. */
static unsigned layout(const nbr_legend *l, uint32_t width, nbr_canvas *c, double top)
{
    double px = nbr_legend_text_px(width), k = px / 7;
    double left = 6 * k, x = left, right = (double)width - 6 * k;
    unsigned lines = l->n ? 1 : 0;
#define BASE (top + 6 * k + (lines - 1) * 12 * k + 8 * k)
    for (size_t i = 0; i < l->n; i++) {
        const nbr_item *it = &l->items[i];
        double w = item_width(it, px, k);
        int newline = (it->kind == NBR_ITEM_TITLE && i > 0) || (x > left && x + w > right);
        if (newline) {
            lines++;
            x = left;
        }
        if ((it->kind == NBR_ITEM_TITLE || it->kind == NBR_ITEM_TEXT) && x + w > right) {
            /* Text wider than the picture: word by word, wrapping. */
            const char *p = it->label;
            while (*p) {
                size_t n = strcspn(p, " ");
                n += strspn(p + n, " ");
                char word[sizeof it->label];
                memcpy(word, p, n);
                word[n] = '\0';
                double ww = nbr_text_width(px, word);
                if (x > left && x + ww > right + nbr_text_width(px, " ")) {
                    lines++;
                    x = left;
                }
                if (c)
                    nbr_text(c, x, BASE, px, NBR_BLACK, NBR_LEFT, word);
                x += ww;
                p += n;
            }
            x += 10 * k;
            continue;
        }
        if (c) {
            double base = BASE, tx = x;
            if (it->kind == NBR_ITEM_SWATCH) {
                nbr_style s = nbr_paint(it->colour, 0x404040, 1);
                nbr_rect(c, x, base - 8 * k, 8 * k, 8 * k, &s);
                tx += 11 * k;
            } else if (it->kind == NBR_ITEM_LINE) {
                nbr_style s = nbr_paint(NBR_NONE, it->colour, 2 * k);
                nbr_line(c, x, base - 4 * k, x + 8 * k, base - 4 * k, &s);
                tx += 11 * k;
            } else if (it->kind == NBR_ITEM_DOT) {
                nbr_style s = nbr_paint(it->colour, NBR_NONE, 0);
                nbr_circle(c, x + 4 * k, base - 4 * k, 3.5 * k, &s);
                tx += 11 * k;
            }
            nbr_text(c, tx, base, px, NBR_BLACK, NBR_LEFT, it->label);
        }
        x += w + 10 * k;
    }
#undef BASE
    return lines;
}

uint32_t nbr_legend_height(const nbr_legend *l, uint32_t width)
{
    if (l->n == 0)
        return 0;
    double k = nbr_legend_text_px(width) / 7;
    return (uint32_t)(12 * k * layout(l, width, NULL, 0) + 12 * k);
}

void nbr_legend_draw(const nbr_legend *l, nbr_canvas *c, double top)
{
    if (l->n == 0)
        return;
    nbr_group(c, "legend", "legend", NULL);
    nbr_style rule = nbr_paint(NBR_NONE, 0x808080, 1);
    nbr_line(c, 0, top + 0.5, nbr_canvas_width(c), top + 0.5, &rule);
    layout(l, nbr_canvas_width(c), c, top);
    nbr_group_end(c);
}
