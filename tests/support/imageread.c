/* imageread.c: PNG through libpng, SVG through a small XML checker and an
 * evaluator of the shapes it holds (see imageread.h).  Written for the
 * tests from the SVG and XML specifications, not from the renderer. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_PNG
#include <png.h>
#endif

#include "imageread.h"

#define NONE 0xffffffffu
#define MAX_DEPTH 64
#define MAX_ATTRS 32

enum shape { S_RECT, S_CIRCLE, S_POLY, S_PATH };

typedef struct op {
    enum shape shape;
    uint32_t fill, stroke;
    double width, opacity;
    double s, tx, ty;      /* local to picture: x' = s x + tx */
    double clip[4];        /* x0, y0, x1, y1 in the picture; x0 > x1: none */
    double v[4];           /* rect x y w h; circle cx cy r */
    double *pts;           /* S_POLY / S_PATH: points, x y pairs */
    size_t *starts, nsub;  /* S_PATH: first point of each subpath */
    size_t npts;
    int closed;            /* S_POLY: a polygon */
} op;

struct ir_image {
    int svg;
    uint32_t width, height;
    uint8_t *rgb; /* PNG */
    op *ops;
    size_t nops, capops;
    struct {
        char name[32];
        size_t n;
    } counts[32];
    size_t ncounts;
};

void ir_free(ir_image *im)
{
    if (!im)
        return;
    for (size_t i = 0; i < im->nops; i++) {
        free(im->ops[i].pts);
        free(im->ops[i].starts);
    }
    free(im->ops);
    free(im->rgb);
    free(im);
}

const char *ir_kind(const ir_image *im) { return im->svg ? "svg" : "png"; }
uint32_t ir_width(const ir_image *im) { return im->width; }
uint32_t ir_height(const ir_image *im) { return im->height; }

size_t ir_count(const ir_image *im, const char *element)
{
    for (size_t i = 0; i < im->ncounts; i++)
        if (strcmp(im->counts[i].name, element) == 0)
            return im->counts[i].n;
    return 0;
}

/* ---- PNG ---- */

static ir_image *read_png(const char *path, char *why)
{
#ifdef HAVE_PNG
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        snprintf(why, 256, "%s: not a PNG: %s", path, img.message);
        return NULL;
    }
    img.format = PNG_FORMAT_RGB;
    ir_image *im = calloc(1, sizeof *im);
    im->width = img.width;
    im->height = img.height;
    im->rgb = malloc(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, NULL, im->rgb, 0, NULL)) {
        snprintf(why, 256, "%s: a damaged PNG: %s", path, img.message);
        png_image_free(&img);
        ir_free(im);
        return NULL;
    }
    return im;
#else
    snprintf(why, 256, "%s: this build cannot read PNG", path);
    return NULL;
#endif
}

/* ---- XML ---- */

typedef struct attr {
    char name[32];
    char value[1 << 16];
} attr;

typedef struct xml {
    const char *p, *end;
    char *why;
    attr *attrs;
    size_t nattrs;
} xml;

static int bad(xml *x, const char *what)
{
    snprintf(x->why, 256, "not well-formed XML at byte %ld: %s", (long)(x->end - x->p), what);
    return 0;
}

static int name_char(int ch, int first)
{
    return isalpha(ch) || ch == '_' || ch == ':' || (!first && (isdigit(ch) || ch == '-' || ch == '.'));
}

static int read_name(xml *x, char *out, size_t len)
{
    size_t n = 0;
    if (x->p >= x->end || !name_char((unsigned char)*x->p, 1))
        return bad(x, "expected a name");
    while (x->p < x->end && name_char((unsigned char)*x->p, 0)) {
        if (n + 1 >= len)
            return bad(x, "a name too long");
        out[n++] = *x->p++;
    }
    out[n] = '\0';
    return 1;
}

/* Character data or an attribute value: references must be well-formed;
 * decoded into out when it is not NULL. */
static int text(xml *x, const char *s, const char *e, char *out, size_t len)
{
    size_t n = 0;
    for (const char *q = s; q < e; q++) {
        char ch = *q;
        if (ch == '<')
            return bad(x, "'<' in text");
        if ((unsigned char)ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
            return bad(x, "a control character, which XML does not allow");
        if (ch == '&') {
            const char *semi = memchr(q, ';', (size_t)(e - q));
            if (!semi)
                return bad(x, "'&' without ';'");
            size_t k = (size_t)(semi - q - 1);
            static const struct {
                const char *name;
                char ch;
            } ents[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
            int found = 0;
            for (size_t i = 0; i < 5; i++)
                if (strlen(ents[i].name) == k && memcmp(q + 1, ents[i].name, k) == 0) {
                    ch = ents[i].ch;
                    found = 1;
                }
            if (!found && k >= 2 && q[1] == '#') {
                found = 1;
                for (const char *d = q + 2; d < semi; d++)
                    found &= isxdigit((unsigned char)*d) || (d == q + 2 && *d == 'x');
                ch = '?';
            }
            if (!found)
                return bad(x, "an unknown entity");
            q = semi;
        }
        if (out && n + 1 < len)
            out[n++] = ch;
    }
    if (out)
        out[n] = '\0';
    return 1;
}

static void skip_space(xml *x)
{
    while (x->p < x->end && isspace((unsigned char)*x->p))
        x->p++;
}

/* A start tag's attributes, up to '>' or '/>'; *empty set for '/>'. */
static int read_attrs(xml *x, int *empty)
{
    x->nattrs = 0;
    for (;;) {
        int spaced = x->p < x->end && isspace((unsigned char)*x->p);
        skip_space(x);
        if (x->p >= x->end)
            return bad(x, "a tag not closed");
        if (*x->p == '>') {
            x->p++;
            *empty = 0;
            return 1;
        }
        if (*x->p == '/') {
            if (x->p + 1 >= x->end || x->p[1] != '>')
                return bad(x, "'/' not followed by '>'");
            x->p += 2;
            *empty = 1;
            return 1;
        }
        if (!spaced)
            return bad(x, "attributes not separated by space");
        if (x->nattrs == MAX_ATTRS)
            return bad(x, "too many attributes");
        attr *a = &x->attrs[x->nattrs];
        if (!read_name(x, a->name, sizeof a->name))
            return 0;
        for (size_t i = 0; i < x->nattrs; i++)
            if (strcmp(x->attrs[i].name, a->name) == 0)
                return bad(x, "an attribute given twice");
        skip_space(x);
        if (x->p >= x->end || *x->p != '=')
            return bad(x, "an attribute without '='");
        x->p++;
        skip_space(x);
        if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
            return bad(x, "an attribute value not quoted");
        char q = *x->p++;
        const char *s = x->p;
        while (x->p < x->end && *x->p != q)
            x->p++;
        if (x->p >= x->end)
            return bad(x, "an attribute value not closed");
        if (!text(x, s, x->p, a->value, sizeof a->value))
            return 0;
        x->p++;
        x->nattrs++;
    }
}

static const char *get(const xml *x, const char *name)
{
    for (size_t i = 0; i < x->nattrs; i++)
        if (strcmp(x->attrs[i].name, name) == 0)
            return x->attrs[i].value;
    return NULL;
}

static double num(const xml *x, const char *name, double dflt)
{
    const char *v = get(x, name);
    return v ? strtod(v, NULL) : dflt;
}

static uint32_t colour(const char *v, uint32_t dflt)
{
    if (!v)
        return dflt;
    if (strcmp(v, "none") == 0)
        return NONE;
    if (v[0] == '#' && strlen(v) == 7)
        return (uint32_t)strtoul(v + 1, NULL, 16);
    return dflt;
}

/* ---- SVG shapes ---- */

typedef struct frame {
    double s, tx, ty, opacity;
    double clip[4];
    int in_clip; /* inside a clipPath: defines, does not draw */
} frame;

typedef struct clipdef {
    char id[32];
    double r[4];
} clipdef;

static op *new_op(ir_image *im, const frame *f, const xml *x, enum shape shape)
{
    if (im->nops == im->capops) {
        im->capops = im->capops ? im->capops * 2 : 64;
        im->ops = realloc(im->ops, im->capops * sizeof *im->ops);
    }
    op *o = &im->ops[im->nops++];
    memset(o, 0, sizeof *o);
    o->shape = shape;
    o->fill = colour(get(x, "fill"), 0x000000);
    o->stroke = colour(get(x, "stroke"), NONE);
    o->width = num(x, "stroke-width", 1);
    o->opacity = f->opacity * num(x, "opacity", 1);
    o->s = f->s;
    o->tx = f->tx;
    o->ty = f->ty;
    memcpy(o->clip, f->clip, sizeof o->clip);
    return o;
}

static void add_point(op *o, size_t *cap, double px, double py)
{
    if (o->npts == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        o->pts = realloc(o->pts, *cap * 2 * sizeof *o->pts);
    }
    o->pts[2 * o->npts] = px;
    o->pts[2 * o->npts + 1] = py;
    o->npts++;
}

static void points(op *o, const char *s)
{
    size_t cap = 0;
    char *e;
    for (;;) {
        double a = strtod(s, &e);
        if (e == s)
            break;
        s = e;
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        double b = strtod(s, &e);
        if (e == s)
            break;
        s = e;
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        add_point(o, &cap, a, b);
    }
}

/* Paths of straight moves; an arc moves the pen but covers nothing. */
static int path(op *o, const char *d)
{
    size_t cap = 0, capsub = 0;
    double cx = 0, cy = 0;
    char cmd = 0;
    const char *s = d;
    char *e;
    for (;;) {
        while (isspace((unsigned char)*s) || *s == ',')
            s++;
        if (!*s)
            return 1;
        if (isalpha((unsigned char)*s))
            cmd = *s++;
        double a[7];
        int need = strchr("MmLl", cmd) ? 2 : strchr("HhVv", cmd) ? 1 : strchr("Aa", cmd) ? 7 : 0;
        if (!need && !strchr("Zz", cmd))
            return 0;
        for (int i = 0; i < need; i++) {
            while (isspace((unsigned char)*s) || *s == ',')
                s++;
            a[i] = strtod(s, &e);
            if (e == s)
                return 0;
            s = e;
        }
        int rel = islower((unsigned char)cmd);
        switch (cmd | 0x20) {
        case 'm':
            cx = rel ? cx + a[0] : a[0];
            cy = rel ? cy + a[1] : a[1];
            if (o->nsub == capsub) {
                capsub = capsub ? capsub * 2 : 16;
                o->starts = realloc(o->starts, capsub * sizeof *o->starts);
            }
            o->starts[o->nsub++] = o->npts;
            add_point(o, &cap, cx, cy);
            cmd = rel ? 'l' : 'L';
            continue;
        case 'l': cx = rel ? cx + a[0] : a[0]; cy = rel ? cy + a[1] : a[1]; break;
        case 'h': cx = rel ? cx + a[0] : a[0]; break;
        case 'v': cy = rel ? cy + a[0] : a[0]; break;
        case 'a': cx = rel ? cx + a[5] : a[5]; cy = rel ? cy + a[6] : a[6]; o->stroke = NONE; break;
        case 'z': continue;
        }
        if (o->nsub == 0)
            return 0;
        add_point(o, &cap, cx, cy);
    }
}

static void count(ir_image *im, const char *name)
{
    for (size_t i = 0; i < im->ncounts; i++)
        if (strcmp(im->counts[i].name, name) == 0) {
            im->counts[i].n++;
            return;
        }
    if (im->ncounts < 32) {
        snprintf(im->counts[im->ncounts].name, sizeof im->counts[0].name, "%s", name);
        im->counts[im->ncounts++].n = 1;
    }
}

static int element(ir_image *im, xml *x, const char *name, frame *f, const frame *up,
                   clipdef *clips, size_t *nclips)
{
    *f = *up;
    count(im, name);
    if (strcmp(name, "svg") == 0) {
        im->width = (uint32_t)num(x, "width", 0);
        im->height = (uint32_t)num(x, "height", 0);
        f->clip[0] = f->clip[1] = 0;
        f->clip[2] = im->width;
        f->clip[3] = im->height;
        return 1;
    }
    if (strcmp(name, "clipPath") == 0) {
        f->in_clip = 1;
        const char *id = get(x, "id");
        if (id && *nclips < 256) {
            snprintf(clips[*nclips].id, sizeof clips[0].id, "%s", id);
            clips[*nclips].r[0] = 1;
            clips[*nclips].r[2] = 0;
            (*nclips)++;
        }
        return 1;
    }
    if (up->in_clip) {
        if (strcmp(name, "rect") == 0 && *nclips > 0) {
            double *r = clips[*nclips - 1].r, rx = num(x, "x", 0), ry = num(x, "y", 0);
            r[0] = f->s * rx + f->tx;
            r[1] = f->s * ry + f->ty;
            r[2] = f->s * (rx + num(x, "width", 0)) + f->tx;
            r[3] = f->s * (ry + num(x, "height", 0)) + f->ty;
        }
        return 1;
    }
    if (strcmp(name, "g") == 0) {
        const char *t = get(x, "transform");
        if (t) {
            double a = 0, b = 0, s = 1;
            if (sscanf(t, "translate(%lf %lf) scale(%lf)", &a, &b, &s) < 2 &&
                sscanf(t, "translate(%lf,%lf) scale(%lf)", &a, &b, &s) < 2)
                return bad(x, "a transform this reader does not know");
            f->tx = up->s * a + up->tx;
            f->ty = up->s * b + up->ty;
            f->s = up->s * s;
        }
        f->opacity = up->opacity * num(x, "opacity", 1);
        const char *cp = get(x, "clip-path");
        if (cp) {
            size_t i = 0;
            while (i < *nclips && !(strncmp(cp, "url(#", 5) == 0 &&
                                    strncmp(cp + 5, clips[i].id, strlen(clips[i].id)) == 0 &&
                                    cp[5 + strlen(clips[i].id)] == ')'))
                i++;
            if (i == *nclips)
                return bad(x, "a clip-path that names no clipPath before it");
            for (int k = 0; k < 2; k++) {
                f->clip[k] = fmax(f->clip[k], clips[i].r[k]);
                f->clip[k + 2] = fmin(f->clip[k + 2], clips[i].r[k + 2]);
            }
        }
        return 1;
    }
    op *o;
    if (strcmp(name, "rect") == 0) {
        o = new_op(im, f, x, S_RECT);
        o->v[0] = num(x, "x", 0);
        o->v[1] = num(x, "y", 0);
        o->v[2] = num(x, "width", 0);
        o->v[3] = num(x, "height", 0);
    } else if (strcmp(name, "circle") == 0) {
        o = new_op(im, f, x, S_CIRCLE);
        o->v[0] = num(x, "cx", 0);
        o->v[1] = num(x, "cy", 0);
        o->v[2] = num(x, "r", 0);
    } else if (strcmp(name, "line") == 0) {
        o = new_op(im, f, x, S_POLY);
        size_t cap = 0;
        add_point(o, &cap, num(x, "x1", 0), num(x, "y1", 0));
        add_point(o, &cap, num(x, "x2", 0), num(x, "y2", 0));
        o->fill = NONE;
    } else if (strcmp(name, "polyline") == 0 || strcmp(name, "polygon") == 0) {
        o = new_op(im, f, x, S_POLY);
        o->closed = name[4] == 'g';
        points(o, get(x, "points") ? get(x, "points") : "");
        if (!o->closed)
            o->fill = NONE; /* the renderer never fills an open line */
    } else if (strcmp(name, "path") == 0) {
        o = new_op(im, f, x, S_PATH);
        if (!path(o, get(x, "d") ? get(x, "d") : ""))
            return bad(x, "a path's d that this reader cannot follow");
    }
    return 1;
}

static ir_image *read_svg(const char *path_name, const char *buf, size_t len, char *why)
{
    ir_image *im = calloc(1, sizeof *im);
    im->svg = 1;
    xml x = {buf, buf + len, why, malloc(MAX_ATTRS * sizeof(attr)), 0};
    frame stack[MAX_DEPTH + 1];
    char names[MAX_DEPTH][32];
    int depth = 0, roots = 0, ok = 1;
    clipdef *clips = calloc(256, sizeof *clips);
    size_t nclips = 0;
    memset(&stack[0], 0, sizeof stack[0]);
    stack[0].s = 1;
    stack[0].opacity = 1;
    stack[0].clip[2] = stack[0].clip[3] = 1e300;
    while (ok && x.p < x.end) {
        if (*x.p != '<') {
            const char *s = x.p;
            while (x.p < x.end && *x.p != '<')
                x.p++;
            if (depth == 0) {
                for (const char *q = s; q < x.p; q++)
                    if (!isspace((unsigned char)*q)) {
                        ok = bad(&x, "text outside the root element");
                        break;
                    }
            } else {
                ok = text(&x, s, x.p, NULL, 0);
            }
            continue;
        }
        if (x.end - x.p >= 4 && memcmp(x.p, "<!--", 4) == 0) {
            const char *e = strstr(x.p + 4, "-->");
            if (!e || e >= x.end)
                ok = bad(&x, "a comment not closed");
            else
                x.p = e + 3;
            continue;
        }
        if (x.end - x.p >= 2 && x.p[1] == '?') {
            if (x.p != buf)
                ok = bad(&x, "a processing instruction after the start");
            const char *e = strstr(x.p + 2, "?>");
            if (!e || e >= x.end)
                ok = bad(&x, "'<?' not closed");
            else
                x.p = e + 2;
            continue;
        }
        if (x.end - x.p >= 2 && x.p[1] == '/') {
            char name[32];
            x.p += 2;
            if (!(ok = read_name(&x, name, sizeof name)))
                break;
            skip_space(&x);
            if (x.p >= x.end || *x.p != '>')
                ok = bad(&x, "an end tag not closed");
            else if (depth == 0 || strcmp(names[depth - 1], name) != 0)
                ok = bad(&x, "an end tag that does not match its start");
            else {
                x.p++;
                depth--;
            }
            continue;
        }
        x.p++;
        char name[32];
        int empty;
        if (!(ok = read_name(&x, name, sizeof name)) || !(ok = read_attrs(&x, &empty)))
            break;
        if (depth == 0 && roots++)
            ok = bad(&x, "more than one root element");
        if (depth == 0 && strcmp(name, "svg") != 0)
            ok = bad(&x, "the root is not <svg>");
        if (depth >= MAX_DEPTH)
            ok = bad(&x, "nested too deeply");
        if (!ok)
            break;
        frame f;
        ok = element(im, &x, name, &f, &stack[depth], clips, &nclips);
        if (!empty) {
            snprintf(names[depth], sizeof names[0], "%s", name);
            stack[++depth] = f;
        }
    }
    if (ok && depth != 0)
        ok = bad(&x, "elements left open at the end");
    if (ok && roots == 0)
        ok = bad(&x, "no root element");
    if (ok && (im->width == 0 || im->height == 0))
        ok = bad(&x, "no width and height on <svg>");
    free(x.attrs);
    free(clips);
    if (!ok) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s: %s", path_name, why);
        snprintf(why, 256, "%s", msg);
        ir_free(im);
        return NULL;
    }
    return im;
}

ir_image *ir_read(const char *path, char *why)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, 256, "%s: cannot open", path);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            buf = realloc(buf, cap + 1);
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    buf[len] = '\0';
    ir_image *im;
    if (len >= 8 && memcmp(buf, "\x89PNG\r\n\x1a\n", 8) == 0)
        im = read_png(path, why);
    else if (len >= 5 && memcmp(buf, "<?xml", 5) == 0)
        im = read_svg(path, buf, len, why);
    else {
        snprintf(why, 256, "%s: neither PNG nor SVG", path);
        im = NULL;
    }
    free(buf);
    return im;
}

/* ---- evaluation ---- */

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
    if (l2 > 0) {
        t = ((px - ax) * dx + (py - ay) * dy) / l2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    return hypot(ax + t * dx - px, ay + t * dy - py);
}

/* Even-odd: crossings of a ray to the right. */
static int inside(const double *pts, size_t from, size_t to, double px, double py)
{
    int in = 0;
    for (size_t i = from, j = to - 1; i < to; j = i++) {
        double ax = pts[2 * j], ay = pts[2 * j + 1], bx = pts[2 * i], by = pts[2 * i + 1];
        if ((ay <= py) != (by <= py) && px < ax + (py - ay) * (bx - ax) / (by - ay))
            in = !in;
    }
    return in;
}

static uint32_t over(uint32_t under, uint32_t c, double a)
{
    if (a >= 1 || under == NONE)
        return c;
    uint32_t out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double u = (under >> sh) & 0xff, v = (c >> sh) & 0xff;
        out |= (uint32_t)lround(u * (1 - a) + v * a) << sh;
    }
    return out;
}

uint32_t ir_pixel(const ir_image *im, uint32_t x, uint32_t y)
{
    if (x >= im->width || y >= im->height)
        return NONE;
    if (!im->svg) {
        const uint8_t *p = im->rgb + ((size_t)y * im->width + x) * 3;
        return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
    }
    double X = x + 0.5, Y = y + 0.5;
    uint32_t c = NONE;
    for (size_t i = 0; i < im->nops; i++) {
        const op *o = &im->ops[i];
        if (o->clip[0] <= o->clip[2] && (X < o->clip[0] || X >= o->clip[2] || Y < o->clip[1] || Y >= o->clip[3]))
            continue;
        double px = (X - o->tx) / o->s, py = (Y - o->ty) / o->s, hw = o->width / 2 / o->s;
        int fill = 0, stroke = 0;
        switch (o->shape) {
        case S_RECT: {
            double x0 = o->v[0], y0 = o->v[1], x1 = x0 + o->v[2], y1 = y0 + o->v[3];
            fill = px >= x0 && px < x1 && py >= y0 && py < y1;
            double ring[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
            for (int k = 0; k < 4; k++)
                stroke |= seg_dist(px, py, ring[2 * k], ring[2 * k + 1], ring[(2 * k + 2) % 8],
                                   ring[(2 * k + 3) % 8]) <= hw;
            break;
        }
        case S_CIRCLE: {
            double d = hypot(px - o->v[0], py - o->v[1]);
            fill = d <= o->v[2];
            stroke = fabs(d - o->v[2]) <= hw;
            break;
        }
        case S_POLY:
            fill = o->closed && inside(o->pts, 0, o->npts, px, py);
            for (size_t k = 0; k + 1 < o->npts; k++)
                stroke |= seg_dist(px, py, o->pts[2 * k], o->pts[2 * k + 1], o->pts[2 * k + 2],
                                   o->pts[2 * k + 3]) <= hw;
            break;
        case S_PATH:
            for (size_t k = 0; k < o->nsub; k++) {
                size_t to = k + 1 < o->nsub ? o->starts[k + 1] : o->npts;
                fill ^= inside(o->pts, o->starts[k], to, px, py);
            }
            break;
        }
        if (fill && o->fill != NONE)
            c = over(c, o->fill, o->opacity);
        if (stroke && o->stroke != NONE && o->shape != S_PATH)
            c = over(c, o->stroke, o->opacity);
    }
    return c == NONE ? 0xffffff : c;
}
