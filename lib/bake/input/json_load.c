/* json_load.c: a JSON input read with jansson, its syntax errors placed by
 * line and column, and the typed look-ups the JSON readers share, each
 * error naming the file and the value's path in the document. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_load.h"

nb_status nbb_json_load(const char *path, size_t limit, json_t **out, nb_err *err)
{
    char *buf;
    size_t len;
    *out = NULL;
    nb_status st = nbb_read_file(path, limit, &buf, &len, err);
    if (st != NB_OK)
        return st;
    json_error_t je;
    /* Duplicate keys are refused: which one a reader took would be a guess. */
    *out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    nbb_free(buf);
    if (!*out)
        return nbi_fail(err, NB_ERR_SYNTAX, "%s:%d:%d: %s", nbb_input_name(path), je.line,
                        je.column, je.text);
    return NB_OK;
}

nb_status nbb_json_fail(const char *file, const char *where, nb_err *err, nb_status code,
                        const char *fmt, ...)
{
    char what[NB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return nbi_fail(err, code, "%s: %s: %s", file, where, what);
}

nb_status nbb_json_int(const char *file, const char *where, const json_t *obj, const char *key,
                       int64_t min, int64_t max, int need, int64_t *out, nb_err *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (need)
            return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "no \"%s\"", key);
        return NB_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return nbb_json_fail(file, where, err, NB_ERR_FORMAT,
                             "\"%s\" must be a whole number from %lld to %lld", key,
                             (long long)min, (long long)max);
    *out = json_integer_value(v);
    return NB_OK;
}

nb_status nbb_json_real(const char *file, const char *where, const json_t *obj, const char *key,
                        double *out, nb_err *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return NB_OK;
    if (!json_is_number(v))
        return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "\"%s\" must be a number", key);
    *out = json_number_value(v);
    return NB_OK;
}

nb_status nbb_json_str(const char *file, const char *where, const json_t *obj, const char *key,
                       int need, const char **out, nb_err *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (need)
            return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "no \"%s\"", key);
        return NB_OK;
    }
    if (!json_is_string(v))
        return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "\"%s\" must be a string", key);
    *out = json_string_value(v);
    return NB_OK;
}

nb_status nbb_json_array(const char *file, const char *where, const json_t *obj, const char *key,
                         int need, json_t **out, nb_err *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (need)
            return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "no \"%s\"", key);
        return NB_OK;
    }
    if (!json_is_array(v))
        return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "\"%s\" must be an array", key);
    *out = v;
    return NB_OK;
}

nb_status nbb_json_object_at(const char *file, const char *where, json_t *array, size_t i,
                             json_t **out, nb_err *err)
{
    *out = json_array_get(array, i);
    if (!json_is_object(*out))
        return nbb_json_fail(file, where, err, NB_ERR_FORMAT, "expected an object");
    return NB_OK;
}
