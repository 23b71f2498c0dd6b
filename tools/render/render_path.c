/* render_path.c: paths read from files and drawn over the map.  render
 * never searches: it draws what a search wrote (navbake query / plan
 * --json) or a list of cells written by hand or by another program. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "json.h"
#include "bake.h"
#include "render.h"

#define PATH_FILE_MAX ((size_t)256 << 20)
#define CELL_LIMIT 0x7fffffffL

void nbr_paths_free(nbr_paths *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        free(ps->path[i].cells);
        free(ps->path[i].pieces);
    }
    free(ps->path);
    memset(ps, 0, sizeof *ps);
}

static nbr_path *new_path(nbr_paths *ps, const char *file, uint32_t size, nb_err *err)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 4;
        nbr_path *p = realloc(ps->path, cap * sizeof *p);
        if (!p) {
            nbb_fail(err, NB_ERR_NOMEM, "out of memory");
            return NULL;
        }
        ps->path = p;
        ps->cap = cap;
    }
    nbr_path *p = &ps->path[ps->n++];
    memset(p, 0, sizeof *p);
    /* The file's own name: the legend has no room for directories. */
    const char *base = strrchr(file, '/');
    snprintf(p->name, sizeof p->name, "%s", base && base[1] ? base + 1 : file);
    p->size = size;
    p->length = -1;
    p->cost = -1;
    return p;
}

static nb_status add_cell(nbr_path *p, size_t *cap, long x, long y, nb_err *err)
{
    if (p->ncells == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        nb_cell *cells = realloc(p->cells, c * sizeof *cells);
        if (!cells)
            return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
        p->cells = cells;
        *cap = c;
    }
    p->cells[p->ncells].x = (int32_t)x;
    p->cells[p->ncells].y = (int32_t)y;
    p->ncells++;
    return NB_OK;
}

static nb_status add_piece(nbr_path *p, size_t *cap, const nbr_piece *piece, nb_err *err)
{
    if (p->npieces == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        nbr_piece *pieces = realloc(p->pieces, c * sizeof *pieces);
        if (!pieces)
            return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
        p->pieces = pieces;
        *cap = c;
    }
    p->pieces[p->npieces++] = *piece;
    return NB_OK;
}

/* A path given by cells is drawn through the centres of the agent's
 * footprints; its length is the sum of its steps. */
static nb_status cells_to_pieces(nbr_path *p, nb_err *err)
{
    double half = (p->size ? p->size : 1) / 2.0, len = 0;
    size_t cap = 0;
    if (p->ncells == 0)
        return NB_OK;
    p->x0 = p->cells[0].x + half;
    p->y0 = p->cells[0].y + half;
    for (size_t i = 1; i < p->ncells; i++) {
        nbr_piece piece = {0, p->cells[i].x + half, p->cells[i].y + half, 0, 0, 0, 0, 0};
        len += hypot(p->cells[i].x - p->cells[i - 1].x, p->cells[i].y - p->cells[i - 1].y);
        nb_status st = add_piece(p, &cap, &piece, err);
        if (st != NB_OK)
            return st;
    }
    if (p->length < 0)
        p->length = len;
    return NB_OK;
}

/* ---- text lists of cells ---- */

static nb_status read_text(nbr_paths *ps, const char *file, const char *buf, size_t len,
                           uint32_t size, nb_err *err)
{
    nbr_path *p = NULL;
    size_t cap = 0;
    unsigned line = 0;
    const char *s = buf, *end = buf + len;
    while (s < end) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        line++;
        char text[128];
        size_t n = (size_t)(e - s);
        const char *hash = memchr(s, '#', n);
        if (hash)
            n = (size_t)(hash - s);
        if (n >= sizeof text)
            return nbb_fail(err, NB_ERR_SYNTAX, "%s:%u: a line too long for a cell", file, line);
        memcpy(text, s, n);
        text[n] = '\0';
        s = e + 1;
        char *t = text;
        while (isspace((unsigned char)*t))
            t++;
        if (*t == '\0') {
            /* A blank line ends the path being read (not a comment line). */
            if (!hash && p && p->ncells) {
                p = NULL;
                cap = 0;
            }
            continue;
        }
        char *q;
        long x = strtol(t, &q, 10), y = -1;
        int ok = q != t && isdigit((unsigned char)*t);
        if (ok) {
            while (isspace((unsigned char)*q))
                q++;
            if (*q == ',')
                q++;
            while (isspace((unsigned char)*q))
                q++;
            t = q;
            y = strtol(t, &q, 10);
            ok = q != t && isdigit((unsigned char)*t);
            while (ok && isspace((unsigned char)*q))
                q++;
            ok = ok && *q == '\0';
        }
        if (!ok || x > CELL_LIMIT || y > CELL_LIMIT)
            return nbb_fail(err, NB_ERR_SYNTAX,
                            "%s:%u: expected a cell 'X Y' or 'X,Y' (two whole numbers)", file,
                            line);
        if (!p) {
            if (!(p = new_path(ps, file, size, err)))
                return NB_ERR_NOMEM;
            cap = 0;
        }
        nb_status st = add_cell(p, &cap, x, y, err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

/* ---- JSON ---- */

static nb_status json_fail(const char *file, const nbj *v, nb_err *err, const char *what)
{
    return nbb_fail(err, NB_ERR_SYNTAX, "%s:%u:%u: %s", file, v->line, v->column, what);
}

/* A cell: [x, y] or {"x": x, "y": y}, whole numbers from 0. */
static nb_status json_cell(const char *file, const nbj *v, long *x, long *y, nb_err *err)
{
    const nbj *a = NULL, *b = NULL;
    if (v->type == NBJ_ARRAY && v->n == 2) {
        a = &v->item[0];
        b = &v->item[1];
    } else if (v->type == NBJ_OBJECT) {
        a = nbj_get(v, "x");
        b = nbj_get(v, "y");
    }
    if (!a || !b || a->type != NBJ_NUMBER || b->type != NBJ_NUMBER || a->number < 0 ||
        b->number < 0 || a->number != floor(a->number) || b->number != floor(b->number) ||
        a->number > CELL_LIMIT || b->number > CELL_LIMIT)
        return json_fail(file, v, err, "expected a cell [X, Y] of whole numbers from 0");
    *x = (long)a->number;
    *y = (long)b->number;
    return NB_OK;
}

/* A point [x, y] of finite numbers, as forest paths give them. */
static nb_status json_point(const char *file, const nbj *v, const char *what, double *x,
                            double *y, nb_err *err)
{
    if (!v || v->type != NBJ_ARRAY || v->n != 2 || v->item[0].type != NBJ_NUMBER ||
        v->item[1].type != NBJ_NUMBER || fabs(v->item[0].number) > NB_FOREST_MAX_COORD ||
        fabs(v->item[1].number) > NB_FOREST_MAX_COORD) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected \"%s\": [X, Y]", what);
        return json_fail(file, v, err, msg);
    }
    *x = v->item[0].number;
    *y = v->item[1].number;
    return NB_OK;
}

static nb_status json_number(const char *file, const nbj *o, const char *key, double lim,
                             double *out, nb_err *err)
{
    const nbj *v = nbj_get(o, key);
    if (!v || v->type != NBJ_NUMBER || fabs(v->number) > lim) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected \"%s\": a number", key);
        return json_fail(file, v ? v : o, err, msg);
    }
    *out = v->number;
    return NB_OK;
}

/* A path among round obstacles, as 'navbake query --forest --json'
 * prints it: "segments" (once "pieces"), each a line or an arc from
 * "from" to "to" in world units, an arc round "centre" from "start_angle"
 * through the signed "sweep" (counter-clockwise positive). */
static nb_status json_pieces(nbr_paths *ps, const char *file, const nbj *o, const nbj *pieces,
                             nb_err *err)
{
    if (pieces->type != NBJ_ARRAY)
        return json_fail(file, pieces, err, "\"segments\" is not an array");
    nbr_path *p = new_path(ps, file, 0, err);
    if (!p)
        return NB_ERR_NOMEM;
    p->world = 1;
    const nbj *len = nbj_get(o, "length");
    if (len && len->type == NBJ_NUMBER && len->number >= 0)
        p->length = len->number;
    size_t cap = 0;
    for (size_t i = 0; i < pieces->n; i++) {
        const nbj *q = &pieces->item[i], *kind = nbj_get(q, "kind");
        nbr_piece piece = {0, 0, 0, 0, 0, 0, 0, 0};
        double fx, fy;
        if (q->type != NBJ_OBJECT || !kind || kind->type != NBJ_STRING ||
            (strcmp(kind->string, "line") != 0 && strcmp(kind->string, "arc") != 0))
            return json_fail(file, q, err, "expected a piece: {\"kind\": \"line\" or \"arc\", ...}");
        nb_status st = json_point(file, nbj_get(q, "from"), "from", &fx, &fy, err);
        if (st == NB_OK)
            st = json_point(file, nbj_get(q, "to"), "to", &piece.x1, &piece.y1, err);
        if (st == NB_OK && strcmp(kind->string, "arc") == 0) {
            double sweep = 0;
            piece.arc = 1;
            st = json_point(file, nbj_get(q, "centre"), "centre", &piece.cx, &piece.cy, err);
            if (st == NB_OK)
                st = json_number(file, q, "radius", 2 * NB_FOREST_MAX_COORD, &piece.r, err);
            if (st == NB_OK)
                st = json_number(file, q, "start_angle", 8, &piece.a0, err);
            if (st == NB_OK)
                st = json_number(file, q, "sweep", 8, &sweep, err);
            if (st == NB_OK && piece.r < 0)
                st = json_fail(file, q, err, "an arc of negative radius");
            piece.a1 = piece.a0 + sweep;
        }
        if (st == NB_OK && i == 0) {
            p->x0 = fx;
            p->y0 = fy;
        }
        if (st == NB_OK)
            st = add_piece(p, &cap, &piece, err);
        if (st != NB_OK)
            return st;
    }
    if (p->npieces == 0)
        return json_fail(file, pieces, err, "a path of no pieces");
    return NB_OK;
}

/* A unit's planned path, as 'navbake plan --unit --json' prints it:
 * "segments", each starting at (x, y) with its direction of travel
 * "heading" (degrees from +x towards +y) and "length"; an arc also has its
 * centre (cx, cy), "radius" and "turn" ("right": the heading grows).  In
 * cells, y down: drawn over grid maps.  "unit" gives the footprint's
 * width; a plan that found nothing gives its start and goal. */
static nb_status json_segments(nbr_paths *ps, const char *file, const nbj *o, const nbj *segs,
                               nb_err *err)
{
    if (segs->type != NBJ_ARRAY)
        return json_fail(file, segs, err, "\"segments\" is not an array");
    nbr_path *p = new_path(ps, file, 0, err);
    if (!p)
        return NB_ERR_NOMEM;
    p->unit_plan = 1;
    const nbj *len = nbj_get(o, "length"), *unit = nbj_get(o, "unit");
    if (len && len->type == NBJ_NUMBER && len->number >= 0)
        p->length = len->number;
    const nbj *width = nbj_get(unit, "width");
    if (width && width->type == NBJ_NUMBER && width->number > 0 && width->number <= 64)
        p->width = width->number;
    const nbj *name = nbj_get(unit, "name");
    if (name && name->type == NBJ_STRING)
        snprintf(p->unit, sizeof p->unit, "%.31s", name->string);
    size_t cap = 0;
    nb_status st = NB_OK;
    for (size_t i = 0; i < segs->n && st == NB_OK; i++) {
        const nbj *q = &segs->item[i], *kind = nbj_get(q, "kind");
        if (q->type != NBJ_OBJECT || !kind || kind->type != NBJ_STRING ||
            (strcmp(kind->string, "line") != 0 && strcmp(kind->string, "arc") != 0))
            return json_fail(file, q, err,
                             "expected a segment: {\"kind\": \"line\" or \"arc\", ...}");
        double x, y, heading, length;
        const double lim = NB_MAP_MAX_SIDE * 4.0;
        st = json_number(file, q, "x", lim, &x, err);
        if (st == NB_OK)
            st = json_number(file, q, "y", lim, &y, err);
        if (st == NB_OK)
            st = json_number(file, q, "heading", 1e4, &heading, err);
        if (st == NB_OK)
            st = json_number(file, q, "length", lim, &length, err);
        if (st != NB_OK)
            return st;
        if (i == 0) {
            p->x0 = x;
            p->y0 = y;
        }
        nbr_piece piece = {0, 0, 0, 0, 0, 0, 0, 0};
        double h = heading * M_PI / 180;
        if (strcmp(kind->string, "line") == 0) {
            piece.x1 = x + length * cos(h);
            piece.y1 = y + length * sin(h);
        } else {
            const nbj *turn = nbj_get(q, "turn");
            piece.arc = 1;
            st = json_number(file, q, "cx", lim, &piece.cx, err);
            if (st == NB_OK)
                st = json_number(file, q, "cy", lim, &piece.cy, err);
            if (st == NB_OK)
                st = json_number(file, q, "radius", lim, &piece.r, err);
            if (st == NB_OK && (!turn || turn->type != NBJ_STRING ||
                                (strcmp(turn->string, "right") != 0 &&
                                 strcmp(turn->string, "left") != 0)))
                st = json_fail(file, turn ? turn : q, err, "expected \"turn\": \"right\" or \"left\"");
            if (st == NB_OK && !(piece.r > 0))
                st = json_fail(file, q, err, "an arc whose radius is not above 0");
            if (st != NB_OK)
                return st;
            piece.a0 = atan2(y - piece.cy, x - piece.cx);
            piece.a1 = piece.a0 + (turn->string[0] == 'r' ? 1 : -1) * length / piece.r;
            piece.x1 = piece.cx + piece.r * cos(piece.a1);
            piece.y1 = piece.cy + piece.r * sin(piece.a1);
        }
        st = add_piece(p, &cap, &piece, err);
    }
    if (st == NB_OK && p->npieces == 0) {
        /* Nothing found: the start pose and the goal cell's centre. */
        const nbj *start = nbj_get(o, "start"), *goal = nbj_get(o, "goal"), *why = nbj_get(o, "reason");
        double gx = 0, gy = 0;
        st = start ? json_number(file, start, "x", 1e9, &p->x0, err)
                   : json_fail(file, o, err, "a plan of no segments and no \"start\"");
        if (st == NB_OK)
            st = json_number(file, start, "y", 1e9, &p->y0, err);
        if (st == NB_OK)
            st = goal ? json_number(file, goal, "x", 1e9, &gx, err)
                      : json_fail(file, o, err, "a plan of no segments and no \"goal\"");
        if (st == NB_OK)
            st = json_number(file, goal, "y", 1e9, &gy, err);
        p->ends_only = 1;
        p->gx = gx + 0.5;
        p->gy = gy + 0.5;
        snprintf(p->status, sizeof p->status, "%.79s",
                 why && why->type == NBJ_STRING ? why->string : "no path");
    }
    return st;
}

static nb_status json_path(nbr_paths *ps, const char *file, const nbj *o, uint32_t size,
                           nb_err *err)
{
    if (o->type != NBJ_OBJECT)
        return json_fail(file, o, err, "expected a path: an object with \"path\"");
    const nbj *pieces = nbj_get(o, "pieces"), *segments = nbj_get(o, "segments");
    /* A forest's segments run "from" "to" in world units; a unit's plan
     * gives each segment's start "x", "y" in cells; a motion plan's
     * "segments" is a count (of its route), its states are its "path". */
    if (segments && segments->type == NBJ_NUMBER)
        segments = NULL;
    int forest = nbj_get(o, "agent_radius") ||
                 (segments && segments->type == NBJ_ARRAY && segments->n &&
                  nbj_get(&segments->item[0], "from"));
    if (pieces || (segments && forest))
        return json_pieces(ps, file, o, pieces ? pieces : segments, err);
    if (segments)
        return json_segments(ps, file, o, segments, err);
    const nbj *cells = nbj_get(o, "path");
    if (!cells)
        cells = nbj_get(o, "cells");
    /* A grid query names its ends "from" and "to"; a motion plan (navbake
     * plan --model --json) "start" and "goal", states with x and y. */
    const nbj *from = nbj_get(o, "from"), *to = nbj_get(o, "to"), *status = nbj_get(o, "status");
    if (!from && !to) {
        from = nbj_get(o, "start");
        to = nbj_get(o, "goal");
    }
    int ends = from && to && (!cells || (cells->type == NBJ_ARRAY && cells->n == 0));
    if (!cells && !ends)
        return json_fail(file, o, err,
                         "a path object without \"path\" (its cells; 'navbake query --json' "
                         "prints them with --path)");
    if (cells && cells->type != NBJ_ARRAY)
        return json_fail(file, cells, err, "\"path\" is not an array of cells");
    const nbj *sz = nbj_get(o, "size");
    if (!sz)
        sz = nbj_get(nbj_get(o, "agent"), "size");
    if (sz && (sz->type != NBJ_NUMBER || sz->number < 1 || sz->number > NB_MAX_AGENT_SIZE ||
               sz->number != floor(sz->number)))
        return json_fail(file, sz, err, "\"size\" is not an agent size (1 to 64)");
    nbr_path *p = new_path(ps, file, sz ? (uint32_t)sz->number : size, err);
    if (!p)
        return NB_ERR_NOMEM;
    const nbj *len = nbj_get(o, "length"), *cost = nbj_get(o, "cost");
    if (len && len->type == NBJ_NUMBER && len->number >= 0)
        p->length = len->number;
    if (cost && cost->type == NBJ_NUMBER && cost->number >= 0)
        p->cost = cost->number;
    if (status && status->type == NBJ_STRING)
        snprintf(p->status, sizeof p->status, "%s", status->string);
    /* Whose path: the agent's name (a string in a grid query, an object
     * in a motion plan). */
    const nbj *agent = nbj_get(o, "agent");
    if (agent && agent->type == NBJ_OBJECT)
        agent = nbj_get(agent, "name");
    if (agent && agent->type == NBJ_STRING)
        snprintf(p->unit, sizeof p->unit, "%.31s", agent->string);
    const nbj *found = nbj_get(o, "found");
    if (!p->status[0] && found && found->type == NBJ_FALSE)
        snprintf(p->status, sizeof p->status, "no path");
    if (ends) {
        long x = 0, y = 0;
        p->ends_only = 1;
        nb_status st = json_cell(file, from, &x, &y, err);
        p->from.x = (int32_t)x;
        p->from.y = (int32_t)y;
        if (st == NB_OK)
            st = json_cell(file, to, &x, &y, err);
        p->to.x = (int32_t)x;
        p->to.y = (int32_t)y;
        return st;
    }
    size_t cap = 0;
    for (size_t i = 0; i < cells->n; i++) {
        long x = 0, y = 0;
        nb_status st = json_cell(file, &cells->item[i], &x, &y, err);
        if (st == NB_OK)
            st = add_cell(p, &cap, x, y, err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

static nb_status read_json(nbr_paths *ps, const char *file, const char *buf, size_t len,
                           uint32_t size, nb_err *err)
{
    nbj *root;
    nb_status st = nbj_parse_seq(buf, len, file, &root, err);
    if (st != NB_OK)
        return st;
    const nbj *list = nbj_get(root, "paths");
    if (root->type == NBJ_ARRAY && root->n > 0 && root->item[0].type == NBJ_OBJECT)
        list = root;
    if (list && list->type == NBJ_ARRAY) {
        for (size_t i = 0; i < list->n && st == NB_OK; i++)
            st = json_path(ps, file, &list->item[i], size, err);
    } else if (root->type == NBJ_ARRAY) {
        /* A bare array of cells. */
        nbj wrap = {NBJ_OBJECT, 0, NULL, NULL, NULL, 0, root->line, root->column};
        nbj member = *root;
        member.key = (char *)"path";
        wrap.item = &member;
        wrap.n = 1;
        st = json_path(ps, file, &wrap, size, err);
    } else {
        st = json_path(ps, file, root, size, err);
    }
    nbj_free(root);
    return st;
}

nb_status nbr_paths_read(nbr_paths *ps, const char *file, uint32_t size, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(file, PATH_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    size_t first = ps->n;
    const char *s = buf;
    while (s < buf + len && isspace((unsigned char)*s))
        s++;
    st = s < buf + len && (*s == '{' || *s == '[') ? read_json(ps, file, buf, len, size, err)
                                                   : read_text(ps, file, buf, len, size, err);
    free(buf);
    if (st == NB_OK && ps->n == first)
        st = nbb_fail(err, NB_ERR_SYNTAX, "%s: no path in it", file);
    for (size_t i = first; i < ps->n && st == NB_OK; i++) {
        if (ps->n - first > 1) {
            char name[sizeof ps->path[i].name];
            snprintf(name, sizeof name, "%s", ps->path[i].name);
            snprintf(ps->path[i].name, sizeof ps->path[i].name, "%.100s #%zu", name, i - first + 1);
        }
        nbr_path *p = &ps->path[i];
        if (p->world || p->unit_plan) {
            continue;
        } else if (p->ends_only) {
            double half = (p->size ? p->size : 1) / 2.0;
            p->x0 = p->from.x + half;
            p->y0 = p->from.y + half;
            p->gx = p->to.x + half;
            p->gy = p->to.y + half;
        } else if (p->ncells == 0) {
            st = nbb_fail(err, NB_ERR_SYNTAX, "%s: path %zu has no cells", file, i - first + 1);
        } else {
            st = cells_to_pieces(p, err);
        }
    }
    return st;
}

/* ---- drawing ---- */

nb_status nbr_draw_path(nbr_view *v, const nbr_path *p, unsigned i, int footprint, nb_err *err)
{
    uint32_t mw = v->map_w ? v->map_w : nb_map_width(v->bundle);
    uint32_t mh = v->map_w ? v->map_h : nb_map_height(v->bundle);
    uint32_t colour = nbr_series_colour(i);
    if (p->world != v->world)
        return nbb_fail(err, NB_ERR_ARG,
                        p->world ? "%s: a path among round obstacles cannot be drawn over a grid map "
                                   "(draw it with the forest layer)"
                                 : "%s: a path of cells cannot be drawn over a forest",
                        p->name);
    for (size_t k = 0; !v->world && k < p->ncells; k++)
        if ((uint32_t)p->cells[k].x >= mw || (uint32_t)p->cells[k].y >= mh)
            return nbb_fail(err, NB_ERR_ARG, "%s: cell %zu (%d, %d) is outside the %u x %u map",
                            p->name, k + 1, (int)p->cells[k].x, (int)p->cells[k].y,
                            mw, mh);
    double ends[2][2] = {{p->x0, p->y0}, {p->gx, p->gy}};
    for (int k = 0; p->ends_only && !v->world && k < 2; k++)
        if (!(ends[k][0] >= 0 && ends[k][0] <= mw && ends[k][1] >= 0 &&
              ends[k][1] <= mh))
            return nbb_fail(err, NB_ERR_ARG, "%s: its %s (%g, %g) is outside the %u x %u map",
                            p->name, k ? "goal" : "start", ends[k][0], ends[k][1],
                            mw, mh);
    char who[200];
    snprintf(who, sizeof who, p->unit[0] ? "%s (%s)" : "%s", p->name, p->unit);
    if (!v->canvas) {
        if (p->ends_only)
            nbr_legend_add(&v->legend, NBR_ITEM_TEXT, 0, "%s: %s", who,
                           p->status[0] ? p->status : "no path");
        else if (p->ncells && p->cost >= 0)
            nbr_legend_add(&v->legend, NBR_ITEM_LINE, colour, "%s: %zu states, cost %.2f", who,
                           p->ncells, p->cost);
        else if (p->ncells)
            nbr_legend_add(&v->legend, NBR_ITEM_LINE, colour, "%s: %zu cells, length %.2f", who,
                           p->ncells, p->length);
        else
            nbr_legend_add(&v->legend, NBR_ITEM_LINE, colour, "%s: length %.2f", who, p->length);
        if (i == 0) {
            nbr_legend_add(&v->legend, NBR_ITEM_DOT, NBR_START, "start");
            nbr_legend_add(&v->legend, NBR_ITEM_DOT, NBR_GOAL, "goal");
        }
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4], s = v->scale, size = p->size ? p->size : 1;
    nbr_view_clip(v, clip);
    char id[32];
    snprintf(id, sizeof id, "path-%u", i + 1);
    nbr_group(c, id, p->name, clip);
    if (footprint && p->ncells) {
        nbr_style fs = nbr_paint(colour, NBR_NONE, 0);
        fs.opacity = 0.2;
        for (size_t k = 0; k < p->ncells; k++)
            nbr_rect(c, nbr_px(v, p->cells[k].x), nbr_py(v, p->cells[k].y), size * s, size * s,
                     &fs);
    }
    double width = s / 4 < 2 ? 2 : s / 4 > 6 ? 6 : s / 4;
    nbr_style ls = nbr_paint(NBR_NONE, colour, width);
    /* A unit's footprint: the band its disc sweeps, drawn first. */
    nbr_style band = nbr_paint(NBR_NONE, colour, p->width * s);
    int sweep = footprint && p->unit_plan && p->width > 0 && !p->ends_only;
    /* Runs of straight pieces as one polyline; arcs as arcs: the band
     * first, then the line over it. */
    double *xy = malloc((p->npieces + 1) * 2 * sizeof *xy);
    if (!xy)
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    for (int pass = sweep ? 0 : 1; pass < 2; pass++) {
        const nbr_style *st = pass ? &ls : &band;
        if (pass == 0)
            nbr_blend_begin(c, 0.2);
        size_t n = 0;
        xy[n++] = nbr_px(v, p->x0);
        xy[n++] = nbr_py(v, p->y0);
        for (size_t k = 0; k < p->npieces; k++) {
            const nbr_piece *q = &p->pieces[k];
            if (q->arc) {
                if (n > 2)
                    nbr_polyline(c, xy, n / 2, 0, st);
                nbr_arc(c, nbr_px(v, q->cx), nbr_py(v, q->cy), q->r * s, nbr_pangle(v, q->a0),
                        nbr_pangle(v, q->a1), st);
                n = 0;
            }
            xy[n++] = nbr_px(v, q->x1);
            xy[n++] = nbr_py(v, q->y1);
        }
        if (!p->ends_only && (n > 2 || p->npieces == 0))
            nbr_polyline(c, xy, n / 2, 0, st);
        if (pass == 0)
            nbr_blend_end(c);
    }
    free(xy);
    if (s >= 8) {
        nbr_style dot = nbr_paint(colour, NBR_NONE, 0);
        for (size_t k = 0; k < p->ncells; k++)
            nbr_circle(c, nbr_px(v, p->cells[k].x + size / 2), nbr_py(v, p->cells[k].y + size / 2),
                       width, &dot);
    }
    double r = v->world ? 4 : 0.35 * s * size < 3 ? 3 : 0.35 * s * size;
    double gx = p->npieces ? p->pieces[p->npieces - 1].x1 : p->x0;
    double gy = p->npieces ? p->pieces[p->npieces - 1].y1 : p->y0;
    if (p->ends_only) {
        gx = p->gx;
        gy = p->gy;
    }
    nbr_style st = nbr_paint(NBR_START, NBR_WHITE, 1);
    nbr_circle(c, nbr_px(v, p->x0), nbr_py(v, p->y0), r, &st);
    st.fill = NBR_GOAL;
    nbr_circle(c, nbr_px(v, gx), nbr_py(v, gy), r, &st);
    nbr_group_end(c);
    return NB_OK;
}
