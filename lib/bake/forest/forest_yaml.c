/* forest_yaml.c: a forest of round obstacles in YAML (formats/forest.md):
 * circles as [x, y, radius] or {x:, y:, radius:}, optional bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"

/* A number in a circle or the bounds, named in messages. */
static nb_status real(nbb_yaml *y, yaml_node_t *node, const char *what, double min, double *out,
                      nb_err *err)
{
    return nbb_yaml_real(y, node, what, min, NB_FOREST_MAX_COORD, out, err);
}

static nb_status circle(nbb_yaml *y, yaml_node_t *node, size_t i, nb_circle *c, nb_err *err)
{
    static const char *const keys[] = {"x", "y", "radius", NULL};
    char what[3][48];
    snprintf(what[0], sizeof what[0], "circle %zu: x", i + 1);
    snprintf(what[1], sizeof what[1], "circle %zu: y", i + 1);
    snprintf(what[2], sizeof what[2], "circle %zu: radius", i + 1);
    yaml_node_t *v[3];
    nb_status st;
    if (node->type == YAML_SEQUENCE_NODE) {
        size_t k;
        if ((st = nbb_yaml_sequence(y, node, what[2], 3, &k, err)) != NB_OK)
            return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                                 "circle %zu: expected [x, y, radius], found a list of more than 3",
                                 i + 1);
        if (k != 3)
            return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                                 "circle %zu: expected [x, y, radius], found a list of %zu", i + 1, k);
        for (int j = 0; j < 3; j++)
            v[j] = nbb_yaml_item(y, node, (size_t)j);
    } else if (node->type == YAML_MAPPING_NODE) {
        char w[32];
        snprintf(w, sizeof w, "circle %zu", i + 1);
        if ((st = nbb_yaml_mapping(y, node, w, keys, err)) != NB_OK)
            return st;
        for (int j = 0; j < 3; j++)
            if ((st = nbb_yaml_need(y, node, keys[j], w, &v[j], err)) != NB_OK)
                return st;
    } else {
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "circle %zu: expected [x, y, radius] or {x: X, y: Y, radius: R}", i + 1);
    }
    if ((st = real(y, v[0], what[0], -NB_FOREST_MAX_COORD, &c->x, err)) != NB_OK ||
        (st = real(y, v[1], what[1], -NB_FOREST_MAX_COORD, &c->y, err)) != NB_OK ||
        (st = real(y, v[2], what[2], -NB_FOREST_MAX_COORD, &c->r, err)) != NB_OK)
        return st;
    if (!(c->r > 0))
        return nbb_yaml_fail(y, v[2], err, NB_ERR_SYNTAX,
                             "circle %zu: the radius must be greater than 0, found %g", i + 1, c->r);
    return NB_OK;
}

nb_status nbb_forest_parse(const char *buf, size_t len, const char *name, nbb_forest *f, nb_err *err)
{
    static const char *const top_keys[] = {"circles", "bounds", NULL};
    nbb_yaml y;
    yaml_node_t *root, *list, *bn;
    size_t n = 0;
    memset(f, 0, sizeof *f);
    nb_status st = nbb_yaml_load(&y, buf, len, name, NBB_FOREST_YAML_MAX_NODES, err);
    if (st != NB_OK)
        return st;
    if ((st = nbb_yaml_root(&y, "a forest with 'circles'", &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "forest", top_keys, err)) ||
        (st = nbb_yaml_need(&y, root, "circles", "forest", &list, err)) ||
        (st = nbb_yaml_sequence(&y, list, "circles", NB_FOREST_MAX_CIRCLES, &n, err)))
        goto done;
    f->circles = nbb_malloc((n ? n : 1) * sizeof *f->circles);
    if (!f->circles) {
        st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu circles", name, n);
        goto done;
    }
    for (size_t i = 0; i < n && st == NB_OK; i++)
        st = circle(&y, nbb_yaml_item(&y, list, i), i, &f->circles[i], err);
    f->n = n;
    if (st == NB_OK && (bn = nbb_yaml_get(&y, root, "bounds")) != NULL) {
        static const char *const names[] = {"bounds: xmin", "bounds: ymin", "bounds: xmax",
                                            "bounds: ymax"};
        size_t k = 0;
        if (bn->type != YAML_SEQUENCE_NODE ||
            nbb_yaml_sequence(&y, bn, "bounds", 4, &k, err) != NB_OK || k != 4) {
            st = nbb_yaml_fail(&y, bn, err, NB_ERR_SYNTAX,
                               "bounds: expected [xmin, ymin, xmax, ymax]");
            goto done;
        }
        for (int j = 0; j < 4 && st == NB_OK; j++)
            st = real(&y, nbb_yaml_item(&y, bn, (size_t)j), names[j], -NB_FOREST_MAX_COORD,
                      &f->bounds[j], err);
        if (st == NB_OK && !(f->bounds[0] < f->bounds[2] && f->bounds[1] < f->bounds[3]))
            st = nbb_yaml_fail(&y, bn, err, NB_ERR_SYNTAX,
                               "bounds: expected xmin < xmax and ymin < ymax, found [%g, %g, %g, %g]",
                               f->bounds[0], f->bounds[1], f->bounds[2], f->bounds[3]);
        f->has_bounds = st == NB_OK;
    }
done:
    nbb_yaml_free(&y);
    if (st != NB_OK)
        nbb_forest_free(f);
    return st;
}

nb_status nbb_forest_read(const char *path, nbb_forest *f, nb_err *err)
{
    char *buf;
    size_t len;
    memset(f, 0, sizeof *f);
    nb_status st = nbb_read_file(path, NBB_FOREST_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_forest_parse(buf, len, nbb_input_name(path), f, err);
    nbb_free(buf);
    return st;
}

void nbb_forest_free(nbb_forest *f)
{
    nbb_free(f->circles);
    memset(f, 0, sizeof *f);
}

/* The shortest decimal that reads back as the same double. */
static void put_real(FILE *f, double v)
{
    char buf[48];
    /* Plain decimals where they are exact, else 17 significant digits. */
    for (int dec = 0; dec <= 12 && fabs(v) < 1e15; dec++) {
        snprintf(buf, sizeof buf, "%.*f", dec, v);
        if (strtod(buf, NULL) == v) {
            fputs(buf, f);
            return;
        }
    }
    snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, f);
}

void nbb_forest_print(const nbb_forest *forest, FILE *f)
{
    fprintf(f, "# %zu circles: [x, y, radius]\n", forest->n);
    if (forest->has_bounds) {
        fputs("bounds: [", f);
        for (int i = 0; i < 4; i++) {
            put_real(f, forest->bounds[i]);
            fputs(i < 3 ? ", " : "]\n", f);
        }
    }
    fputs(forest->n ? "circles:\n" : "circles: []\n", f);
    for (size_t i = 0; i < forest->n; i++) {
        fputs("  - [", f);
        put_real(f, forest->circles[i].x);
        fputs(", ", f);
        put_real(f, forest->circles[i].y);
        fputs(", ", f);
        put_real(f, forest->circles[i].r);
        fputs("]\n", f);
    }
}
