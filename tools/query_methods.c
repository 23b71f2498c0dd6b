/* query_methods.c: the search methods of 'navbake query' and 'navbake
 * scen', the default first.  A new method adds its line here. */
#include "query.h"

extern const nbc_method nbc_method_aa;

const nbc_method *const nbc_methods[] = {
    &nbc_method_aa,
    NULL,
};
