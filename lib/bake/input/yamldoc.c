/* yamldoc.c: reading YAML inputs with libyaml's document loader, and
 * errors that say where ("agents.yaml:4:11: size must be ...") the way
 * libyaml reports its own. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"

static nb_status vfail_mark(const nbb_yaml *y, yaml_mark_t mark, nb_err *err, nb_status code,
                            const char *fmt, va_list ap)
{
    char what[NB_ERR_MSG_MAX];
    vsnprintf(what, sizeof what, fmt, ap);
    return nbi_fail(err, code, "%s:%lu:%lu: %s", y->name, (unsigned long)mark.line + 1,
                    (unsigned long)mark.column + 1, what);
}

nb_status nbb_yaml_fail(const nbb_yaml *y, const yaml_node_t *node, nb_err *err, nb_status code,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nb_status st = vfail_mark(y, node->start_mark, err, code, fmt, ap);
    va_end(ap);
    return st;
}

/* The parser's own error, located as libyaml locates it. */
static nb_status parser_fail(const yaml_parser_t *parser, const char *name, nb_err *err)
{
    const yaml_mark_t *m = &parser->problem_mark;
    return nbi_fail(err, parser->error == YAML_MEMORY_ERROR ? NB_ERR_NOMEM : NB_ERR_SYNTAX,
                    "%s:%lu:%lu: YAML: %s%s%s", name, (unsigned long)m->line + 1,
                    (unsigned long)m->column + 1, parser->problem ? parser->problem : "error",
                    parser->context ? " " : "", parser->context ? parser->context : "");
}

static const char *event_anchor(const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SCALAR_EVENT: return (const char *)ev->data.scalar.anchor;
    case YAML_SEQUENCE_START_EVENT: return (const char *)ev->data.sequence_start.anchor;
    case YAML_MAPPING_START_EVENT: return (const char *)ev->data.mapping_start.anchor;
    default: return NULL;
    }
}

/* A first pass with libyaml's event parser, which stops at the first
 * event beyond a limit, before the document is built: libyaml's scanner
 * takes time quadratic in the nesting depth (40,000 levels: 10 s), its
 * loader time quadratic in the anchors, and every node some 100 bytes. */
static nb_status check_limits(const char *buf, size_t len, const char *name, size_t max_nodes,
                              nb_err *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return nbi_fail(err, NB_ERR_NOMEM, "%s: cannot start the YAML parser", name);
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    size_t depth = 0, nodes = 0, anchors = 0;
    nb_status st = NB_OK;
    for (int done = 0; !done && st == NB_OK;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            st = parser_fail(&parser, name, err);
            break;
        }
        yaml_mark_t at = ev.start_mark;
        const char *what = NULL, *unit = NULL;
        unsigned long limit = 0;
        int opens = ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
        int node = opens || ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT;
        if (opens && ++depth > NBB_YAML_MAX_DEPTH)
            what = "nesting deeper than", limit = NBB_YAML_MAX_DEPTH, unit = "levels";
        else if (node && ++nodes > max_nodes)
            what = "more than", limit = (unsigned long)max_nodes, unit = "nodes";
        else if (node && event_anchor(&ev) && ++anchors > NBB_YAML_MAX_ANCHORS)
            what = "more than", limit = NBB_YAML_MAX_ANCHORS, unit = "anchors (&name)";
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
            depth--;
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
        if (what)
            st = nbi_fail(err, NB_ERR_LIMIT, "%s:%lu:%lu: %s %lu %s (a limit of YAML inputs)",
                          name, (unsigned long)at.line + 1, (unsigned long)at.column + 1, what,
                          limit, unit);
    }
    yaml_parser_delete(&parser);
    return st;
}

nb_status nbb_yaml_load(nbb_yaml *y, const char *buf, size_t len, const char *name,
                        size_t max_nodes, nb_err *err)
{
    yaml_parser_t parser;
    memset(y, 0, sizeof *y);
    y->name = name;
    nb_status st = check_limits(buf, len, name, max_nodes, err);
    if (st != NB_OK)
        return st;
    if (!yaml_parser_initialize(&parser))
        return nbi_fail(err, NB_ERR_NOMEM, "%s: cannot start the YAML parser", name);
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    if (!yaml_parser_load(&parser, &y->doc)) {
        st = parser_fail(&parser, name, err);
        yaml_parser_delete(&parser);
        memset(&y->doc, 0, sizeof y->doc);
        return st;
    }
    /* A second document is refused: one file, one definition. */
    yaml_document_t extra;
    if (yaml_document_get_root_node(&y->doc)) {
        if (!yaml_parser_load(&parser, &extra)) {
            st = parser_fail(&parser, name, err);
        } else {
            yaml_node_t *r = yaml_document_get_root_node(&extra);
            if (r)
                st = nbi_fail(err, NB_ERR_SYNTAX,
                              "%s:%lu:%lu: a second YAML document; expected exactly one", name,
                              (unsigned long)r->start_mark.line + 1,
                              (unsigned long)r->start_mark.column + 1);
            yaml_document_delete(&extra);
        }
    }
    yaml_parser_delete(&parser);
    if (st != NB_OK)
        nbb_yaml_free(y);
    return st;
}

void nbb_yaml_free(nbb_yaml *y)
{
    yaml_document_delete(&y->doc);
    memset(&y->doc, 0, sizeof y->doc);
}

nb_status nbb_yaml_root(nbb_yaml *y, const char *what, yaml_node_t **root, nb_err *err)
{
    yaml_node_t *r = yaml_document_get_root_node(&y->doc);
    if (!r)
        return nbi_fail(err, NB_ERR_SYNTAX, "%s: empty; expected %s", y->name, what);
    if (r->type != YAML_MAPPING_NODE)
        return nbb_yaml_fail(y, r, err, NB_ERR_SYNTAX, "expected %s (a mapping)", what);
    *root = r;
    return NB_OK;
}

static int scalar_is(const yaml_node_t *n, const char *s)
{
    return n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(s) &&
           memcmp(n->data.scalar.value, s, n->data.scalar.length) == 0;
}

static const char *kind(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a scalar";
}

nb_status nbb_yaml_mapping(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                           const char *const *keys, nb_err *err)
{
    if (node->type != YAML_MAPPING_NODE)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: expected a mapping, found %s", what,
                             kind(node));
    yaml_document_t *doc = (yaml_document_t *)&y->doc;
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k->type != YAML_SCALAR_NODE)
            return nbb_yaml_fail(y, k, err, NB_ERR_SYNTAX, "%s: keys must be plain words", what);
        size_t i = 0;
        while (keys[i] && !scalar_is(k, keys[i]))
            i++;
        if (!keys[i]) {
            char list[256] = "";
            for (size_t j = 0; keys[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", keys[j]);
            return nbb_yaml_fail(y, k, err, NB_ERR_SYNTAX, "%s: unknown key '%.*s' (expected %s)",
                                 what, (int)(k->data.scalar.length > 40 ? 40 : k->data.scalar.length),
                                 (const char *)k->data.scalar.value, list);
        }
        for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < p; q++)
            if (scalar_is(yaml_document_get_node(doc, q->key), keys[i]))
                return nbb_yaml_fail(y, k, err, NB_ERR_SYNTAX, "%s: key '%s' appears twice", what,
                                     keys[i]);
    }
    return NB_OK;
}

yaml_node_t *nbb_yaml_get(nbb_yaml *y, const yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++)
        if (scalar_is(yaml_document_get_node(&y->doc, p->key), key))
            return yaml_document_get_node(&y->doc, p->value);
    return NULL;
}

nb_status nbb_yaml_need(nbb_yaml *y, const yaml_node_t *map, const char *key, const char *what,
                        yaml_node_t **out, nb_err *err)
{
    *out = nbb_yaml_get(y, map, key);
    if (!*out)
        return nbb_yaml_fail(y, map, err, NB_ERR_SYNTAX, "%s: missing key '%s'", what, key);
    return NB_OK;
}

nb_status nbb_yaml_sequence(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                            size_t max_items, size_t *count, nb_err *err)
{
    if (node->type != YAML_SEQUENCE_NODE)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: expected a list, found %s", what,
                             kind(node));
    size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
    if (n > max_items)
        return nbb_yaml_fail(y, node, err, NB_ERR_LIMIT, "%s: %zu items, at most %zu", what, n,
                             max_items);
    *count = n;
    return NB_OK;
}

yaml_node_t *nbb_yaml_item(nbb_yaml *y, const yaml_node_t *seq, size_t i)
{
    return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

nb_status nbb_yaml_string(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                          const char **text, size_t *len, nb_err *err)
{
    if (node->type != YAML_SCALAR_NODE)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: expected a scalar, found %s", what,
                             kind(node));
    *text = (const char *)node->data.scalar.value;
    *len = node->data.scalar.length;
    if (memchr(*text, '\0', *len))
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: contains a NUL character", what);
    return NB_OK;
}

nb_status nbb_yaml_uint(const nbb_yaml *y, const yaml_node_t *node, const char *what, uint64_t min,
                        uint64_t max, uint64_t *out, nb_err *err)
{
    const char *s;
    size_t len;
    nb_status st = nbb_yaml_string(y, node, what, &s, &len, err);
    if (st != NB_OK)
        return st;
    uint64_t v = 0;
    int big = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
            return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                                 "%s: expected a whole number from %llu to %llu, found '%.*s'", what,
                                 (unsigned long long)min, (unsigned long long)max,
                                 (int)(len > 40 ? 40 : len), s);
        if (v > (UINT64_MAX - 9) / 10)
            big = 1;
        else
            v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (len == 0 || big || v < min || v > max)
        return nbb_yaml_fail(y, node, err, len ? NB_ERR_LIMIT : NB_ERR_SYNTAX,
                             "%s: %.*s is not a whole number from %llu to %llu", what,
                             (int)(len > 40 ? 40 : len), s, (unsigned long long)min,
                             (unsigned long long)max);
    *out = v;
    return NB_OK;
}

nb_status nbb_yaml_real(const nbb_yaml *y, const yaml_node_t *node, const char *what, double min,
                        double max, double *out, nb_err *err)
{
    const char *s;
    size_t len;
    nb_status st = nbb_yaml_string(y, node, what, &s, &len, err);
    if (st != NB_OK)
        return st;
    char tmp[64];
    char *end = NULL;
    double v = 0;
    int ok = len > 0 && len < sizeof tmp && node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (ok) {
        memcpy(tmp, s, len);
        tmp[len] = '\0';
        /* Only decimal notation: strtod would also take "nan", "inf" and hex. */
        for (size_t i = 0; i < len && ok; i++)
            ok = (tmp[i] >= '0' && tmp[i] <= '9') || tmp[i] == '.' || tmp[i] == '-' ||
                 tmp[i] == '+' || tmp[i] == 'e' || tmp[i] == 'E';
        if (ok) {
            errno = 0;
            v = strtod(tmp, &end);
            ok = end == tmp + len && errno == 0 && isfinite(v);
        }
    }
    if (!ok)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: expected a finite number, found '%.*s'",
                             what, (int)(len > 40 ? 40 : len), s);
    if (!(v >= min && v <= max))
        return nbb_yaml_fail(y, node, err, NB_ERR_LIMIT, "%s: %g is outside %g to %g", what, v, min, max);
    *out = v;
    return NB_OK;
}

nb_status nbb_yaml_bool(const nbb_yaml *y, const yaml_node_t *node, const char *what, int *out,
                        nb_err *err)
{
    static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
    if (node->type == YAML_SCALAR_NODE && node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
        for (int i = 0; i < 3; i++) {
            if (scalar_is(node, yes[i]))
                return *out = 1, NB_OK;
            if (scalar_is(node, no[i]))
                return *out = 0, NB_OK;
        }
    return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: expected true or false", what);
}
