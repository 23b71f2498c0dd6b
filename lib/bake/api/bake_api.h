/* bake_api.h: the bake library's handle (navbake_bake.h), inside the bake
 * side.  Internal. */
#ifndef NB_BAKE_API_H
#define NB_BAKE_API_H

#include "bake_int.h"
#include "navbake_bake.h"

struct nb_bake {
    nb_allocator alloc; /* the caller's, or the C library's */
    nbb_level level;    /* its grid's cells NULL until one is set */
};

/* Memory from the handle's allocator. */
void *nbb_bake_alloc(const nb_bake *bake, size_t size);
void nbb_bake_dealloc(const nb_bake *bake, void *p);

#endif
