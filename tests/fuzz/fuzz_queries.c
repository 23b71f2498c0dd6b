/* fuzz_queries.c: libFuzzer target: a bundle, mutated by the
 * structure-aware mutator (mutate_bundle.c), opened from memory and, when
 * it verifies, asked every query family (queries.c).  Built by 'make
 * fuzz-queries'; make check replays corpus/queries. */
#include "queries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nbf_queries(data, size);
    return 0;
}

#ifdef NB_FUZZ_LIBFUZZER
#include "bundle_hooks.h"
#endif
