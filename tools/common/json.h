/* json.h: a small JSON reader (RFC 8259) for the files the tools read
 * back, such as the paths 'navbake query --json' writes.  Errors name the
 * file, line and column. */
#ifndef NB_JSON_H
#define NB_JSON_H

#include <stddef.h>

#include <string.h>

#include "bake.h"

typedef enum nbj_type { NBJ_NULL, NBJ_FALSE, NBJ_TRUE, NBJ_NUMBER, NBJ_STRING, NBJ_ARRAY, NBJ_OBJECT } nbj_type;

typedef struct nbj {
    nbj_type type;
    double number;
    char *string;     /* NBJ_STRING: the decoded text (UTF-8, NUL-terminated) */
    char *key;        /* a member of an object: its name */
    struct nbj *item; /* NBJ_ARRAY, NBJ_OBJECT: n items or members, in order */
    size_t n;
    unsigned line, column; /* where the value starts */
} nbj;

#define NBJ_MAX_DEPTH 64
/* Values (numbers, strings, arrays, objects...) in one input: some 1 GB
 * of memory at most. */
#define NBJ_MAX_VALUES ((size_t)1 << 24)

/* Parses exactly one JSON value (surrounding white space allowed). */
nb_status nbj_parse(const char *text, size_t len, const char *name, nbj **out, nb_err *err);
/* Parses one or more JSON values separated by white space (JSON Lines,
 * or values written one after the other): one value is returned as it is,
 * several as an array of them. */
nb_status nbj_parse_seq(const char *text, size_t len, const char *name, nbj **out, nb_err *err);
void nbj_free(nbj *v);
/* The member of an object with this name, or NULL. */
const nbj *nbj_get(const nbj *object, const char *key);
/* "array", "number"... for messages. */
const char *nbj_type_name(nbj_type t);

#endif
