/* model_yaml.c: motion models in YAML (formats/motion.md), with errors
 * that name the line and column of what is wrong. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"
#include "motion/model.h"

/* A whole number, possibly negative, within [min, max]. */
static nb_status yaml_int(const nbb_yaml *y, const yaml_node_t *node, const char *what, long min,
                          long max, long *out, nb_err *err)
{
    double v;
    nb_status st = nbb_yaml_real(y, node, what, -1e9, 1e9, &v, err);
    if (st == NB_OK && (v != floor(v) || v < (double)min || v > (double)max))
        st = nbb_yaml_fail(y, node, err, NB_ERR_LIMIT, "%s: %g is not a whole number from %ld to %ld",
                           what, v, min, max);
    if (st == NB_OK)
        *out = (long)v;
    return st;
}

static nb_status name_of(const nbb_yaml *y, const yaml_node_t *node, const char *what, char *out,
                         nb_err *err)
{
    const char *text;
    size_t len;
    nb_status st = nbb_yaml_string(y, node, what, &text, &len, err);
    if (st != NB_OK)
        return st;
    if (len > NB_NAME_MAX || (memcpy(out, text, len), out[len] = '\0', !nbi_name_ok(out)))
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "%s: '%.*s' must be 1 to %d letters, digits, '_' or '-'", what,
                             (int)(len > 40 ? 40 : len), text, NB_NAME_MAX);
    return NB_OK;
}

static nb_status read_offsets(nbb_yaml *y, yaml_node_t *node, nb_model *m, nb_err *err)
{
    size_t n;
    nb_status st = nbb_yaml_sequence(y, node, "offsets", NB_MODEL_MAX_HEADINGS, &n, err);
    if (st != NB_OK)
        return st;
    if (n != m->nheadings)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "offsets: %zu offsets for %u headings (give one [dx, dy] per heading)", n,
                             m->nheadings);
    for (size_t h = 0; h < n; h++) {
        yaml_node_t *item = nbb_yaml_item(y, node, h);
        char what[48];
        size_t k;
        long v[2];
        snprintf(what, sizeof what, "offsets: heading %zu", h);
        if ((st = nbb_yaml_sequence(y, item, what, 2, &k, err)))
            return st;
        if (k != 2)
            return nbb_yaml_fail(y, item, err, NB_ERR_SYNTAX, "%s: expected [dx, dy]", what);
        for (size_t c = 0; c < 2; c++)
            if ((st = yaml_int(y, nbb_yaml_item(y, item, c), what, -NB_MODEL_MAX_OFFSET,
                               NB_MODEL_MAX_OFFSET, &v[c], err)))
                return st;
        if (v[0] == 0 && v[1] == 0)
            return nbb_yaml_fail(y, item, err, NB_ERR_SYNTAX, "%s: [0, 0] does not move", what);
        m->dx[h] = (int)v[0];
        m->dy[h] = (int)v[1];
    }
    int bad = nbi_model_offsets_order(m->dx, m->dy, m->nheadings);
    if (bad > 0)
        return nbb_yaml_fail(y, nbb_yaml_item(y, node, (size_t)bad), err, NB_ERR_SYNTAX,
                             "offsets: heading %d [%d, %d] does not come after heading %d [%d, %d] "
                             "going around; list each direction once, turning one way", bad,
                             m->dx[bad], m->dy[bad], bad - 1, m->dx[bad - 1], m->dy[bad - 1]);
    return NB_OK;
}

static nb_status read_speeds(nbb_yaml *y, yaml_node_t *node, nb_model *m, nb_err *err)
{
    static const char *const keys[] = {"name", "value", "turn", NULL};
    size_t n;
    nb_status st = nbb_yaml_sequence(y, node, "speeds", NB_MODEL_MAX_SPEEDS, &n, err);
    if (st != NB_OK)
        return st;
    if (n < 2)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "speeds: %zu given; a model needs 0 (stopped) and at least one other", n);
    m->nspeeds = (unsigned)n;
    int zero = -1;
    for (size_t l = 0; l < n; l++) {
        yaml_node_t *item = nbb_yaml_item(y, node, l), *nn, *vn, *tn;
        char what[64];
        uint64_t turn;
        snprintf(what, sizeof what, "speed %zu", l + 1);
        if ((st = nbb_yaml_mapping(y, item, what, keys, err)) ||
            (st = nbb_yaml_need(y, item, "name", what, &nn, err)) ||
            (st = nbb_yaml_need(y, item, "value", what, &vn, err)) ||
            (st = nbb_yaml_need(y, item, "turn", what, &tn, err)) ||
            (st = name_of(y, nn, what, m->speed_name[l], err)))
            return st;
        for (size_t k = 0; k < l; k++)
            if (strcmp(m->speed_name[k], m->speed_name[l]) == 0)
                return nbb_yaml_fail(y, nn, err, NB_ERR_SYNTAX, "%s: name '%s' is already used", what,
                                     m->speed_name[l]);
        snprintf(what, sizeof what, "speed '%s'", m->speed_name[l]);
        if ((st = nbb_yaml_real(y, vn, what, -NB_MODEL_MAX_SPEED, NB_MODEL_MAX_SPEED, &m->speed[l],
                                err)))
            return st;
        if (l > 0 && !(m->speed[l] > m->speed[l - 1]))
            return nbb_yaml_fail(y, vn, err, NB_ERR_SYNTAX,
                                 "%s: %g is not above '%s' (%g); list speeds from the most backward "
                                 "to the fastest, each value once", what, m->speed[l],
                                 m->speed_name[l - 1], m->speed[l - 1]);
        if (m->speed[l] == 0)
            zero = (int)l;
        if ((st = nbb_yaml_uint(y, tn, what, 0, UINT32_MAX, &turn, err)))
            return st;
        if (turn > m->nheadings / 2)
            return nbb_yaml_fail(y, tn, err, NB_ERR_LIMIT,
                                 "%s: turn %llu is beyond the headings: with %u headings an action "
                                 "turns at most %u steps", what, (unsigned long long)turn,
                                 m->nheadings, m->nheadings / 2);
        m->turn[l] = (unsigned)turn;
    }
    if (zero < 0)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "speeds: none has value 0; a model needs a stopped speed");
    return NB_OK;
}

nb_status nbb_model_parse(const char *buf, size_t len, const char *name, nb_model *m, nb_err *err)
{
    static const char *const keys[] = {"name", "headings", "offsets", "speeds", "speed_change",
                                       "costs", "extended_weight", NULL};
    static const char *const cost_keys[] = {"still", "turn", NULL};
    nbb_yaml y;
    yaml_node_t *root, *n;
    uint64_t u;
    memset(m, 0, sizeof *m);
    nb_status st = nbb_yaml_load(&y, buf, len, name, NBB_YAML_MAX_NODES, err);
    if (st != NB_OK)
        return st;
    if ((st = nbb_yaml_root(&y, "a motion model", &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "model", keys, err)) ||
        (st = nbb_yaml_need(&y, root, "name", "model", &n, err)) ||
        (st = name_of(&y, n, "name", m->name, err)) ||
        (st = nbb_yaml_need(&y, root, "headings", "model", &n, err)) ||
        (st = nbb_yaml_uint(&y, n, "headings", 4, NB_MODEL_MAX_HEADINGS, &u, err)))
        goto done;
    m->nheadings = (unsigned)u;
    if ((st = nbb_yaml_need(&y, root, "offsets", "model", &n, err)) ||
        (st = read_offsets(&y, n, m, err)) ||
        (st = nbb_yaml_need(&y, root, "speeds", "model", &n, err)) ||
        (st = read_speeds(&y, n, m, err)))
        goto done;
    m->speed_change = m->nspeeds - 1;
    if ((n = nbb_yaml_get(&y, root, "speed_change"))) {
        if ((st = nbb_yaml_uint(&y, n, "speed_change", 1, m->nspeeds - 1, &u, err)))
            goto done;
        m->speed_change = (unsigned)u;
    }
    m->still_cost = 1;
    m->turn_cost = 0;
    if ((n = nbb_yaml_get(&y, root, "costs"))) {
        yaml_node_t *c;
        if ((st = nbb_yaml_mapping(&y, n, "costs", cost_keys, err)))
            goto done;
        if ((c = nbb_yaml_get(&y, n, "still")) &&
            (st = nbb_yaml_real(&y, c, "costs: still", 1e-6, 1e6, &m->still_cost, err)))
            goto done;
        if ((c = nbb_yaml_get(&y, n, "turn")) &&
            (st = nbb_yaml_real(&y, c, "costs: turn", 0, 1e6, &m->turn_cost, err)))
            goto done;
    }
    m->ext_weight = 2;
    if ((n = nbb_yaml_get(&y, root, "extended_weight")) &&
        (st = nbb_yaml_real(&y, n, "extended_weight", 1, 16, &m->ext_weight, err)))
        goto done;
    /* Whatever the located checks above let through (none should). */
    if ((st = nbi_model_check(m, err)) != NB_OK) {
        nbi_err_prefix(err, "%s", name);
        goto done;
    }
    nbi_model_derive(m);
done:
    nbb_yaml_free(&y);
    return st;
}

nb_status nbb_model_read(const char *path, nb_model *m, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_YAML_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_model_parse(buf, len, nbb_input_name(path), m, err);
    nbb_free(buf);
    return st;
}

nb_status nbb_model_load(const char *path, nb_model **out, nb_err *err)
{
    *out = nbb_malloc(sizeof **out);
    if (!*out)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a motion model");
    nb_status st = nbb_model_read(path, *out, err);
    if (st != NB_OK) {
        nbb_free(*out);
        *out = NULL;
    }
    return st;
}

nb_status nbb_put_model(nbb_builder *b, const nb_model *m, nb_err *err)
{
    size_t len = nbi_model_encoded_size(m);
    uint8_t *buf = nbb_malloc(len);
    if (!buf)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a model section");
    nbi_model_encode(m, buf);
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_MODEL;
    in.version = NBI_MODEL_VERSION;
    in.param[0] = m->nheadings;
    in.param[1] = m->nspeeds;
    in.param[2] = m->speed_change;
    snprintf(in.name, sizeof in.name, "%s", m->name);
    nbb_builder_remove_named(b, NB_SEC_MODEL, m->name);
    nb_status st = nbb_builder_add(b, &in, buf, len, 0, err);
    nbb_free(buf);
    return st;
}
