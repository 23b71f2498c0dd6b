/* json_load.h: JSON inputs through jansson (json_load.c). */
#ifndef NB_JSON_LOAD_H
#define NB_JSON_LOAD_H

#include <jansson.h>

#include "bake_int.h"

/* The whole file (at most limit bytes) as one JSON value; a syntax error
 * names line and column. */
nb_status nbb_json_load(const char *path, size_t limit, json_t **out, nb_err *err);
/* "file: where: message". */
nb_status nbb_json_fail(const char *file, const char *where, nb_err *err, nb_status code,
                        const char *fmt, ...) NBP_PRINTF(5, 6);
/* obj[key] of a type; absent: an error when need, else out untouched (NULL
 * for strings and arrays; null counts as absent). */
nb_status nbb_json_int(const char *file, const char *where, const json_t *obj, const char *key,
                       int64_t min, int64_t max, int need, int64_t *out, nb_err *err);
nb_status nbb_json_real(const char *file, const char *where, const json_t *obj, const char *key,
                        double *out, nb_err *err);
nb_status nbb_json_str(const char *file, const char *where, const json_t *obj, const char *key,
                       int need, const char **out, nb_err *err);
nb_status nbb_json_array(const char *file, const char *where, const json_t *obj, const char *key,
                         int need, json_t **out, nb_err *err);
/* array[i], which must be an object. */
nb_status nbb_json_object_at(const char *file, const char *where, json_t *array, size_t i,
                             json_t **out, nb_err *err);

#endif
