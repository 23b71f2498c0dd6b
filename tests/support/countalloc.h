/* countalloc.h: an nb_allocator that counts what the runtime takes from it
 * (bytes live, their peak, allocations), for the tests and fuzz targets
 * that bound a query's memory (issue 29), and that can be told to fail
 * allocations of one size. */
#ifndef NB_TEST_COUNTALLOC_H
#define NB_TEST_COUNTALLOC_H

#include <stddef.h>

#include "navbake.h"

typedef struct tc_count {
    size_t live;     /* bytes allocated and not freed */
    size_t peak;     /* the most live bytes since tc_mark */
    size_t allocs;   /* allocations and reallocations since tc_mark */
    size_t fail_size; /* when not 0, allocations of this many bytes fail */
} tc_count;

/* The allocator counting into c (zeroed), the C library's underneath. */
void tc_init(tc_count *c, nb_allocator *a);
/* Starts a measurement: the peak becomes the live bytes, the allocations 0. */
void tc_mark(tc_count *c);
/* The most bytes taken beyond those live at the last tc_mark. */
size_t tc_grown(const tc_count *c, size_t at_mark);

#endif
