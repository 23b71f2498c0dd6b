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
#include "mutate.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return nbf_mutate_bundle(data, size, max_size, seed, LLVMFuzzerMutate);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2,
                                 size_t size2, uint8_t *out, size_t max_out_size, unsigned int seed)
{
    return nbf_crossover_bundle(data1, size1, data2, size2, out, max_out_size, seed);
}
#endif
