/* query_methods.c: the search methods of 'navbake query' and 'navbake
 * scen', the default first.  A new method adds its line here. */
#include "query_common.h"

extern const nbc_method nbc_method_aa;
extern const nbc_method nbc_method_optimal, nbc_method_subgoal;
extern const nbc_method nbc_method_forest;
extern const nbc_method nbc_method_haa, nbc_method_haa_refined, nbc_method_haa_smooth;

const nbc_method *const nbc_methods[] = {
    &nbc_method_aa,
    &nbc_method_optimal,
    &nbc_method_subgoal,
    &nbc_method_haa,
    &nbc_method_haa_refined,
    &nbc_method_haa_smooth,
    &nbc_method_forest,
    NULL,
};
