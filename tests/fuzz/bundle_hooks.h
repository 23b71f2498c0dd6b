/* bundle_hooks.h: libFuzzer's custom mutator and cross-over for the
 * targets whose input is a binary bundle (fuzz_queries, fuzz_tools,
 * fuzz_work): the structure-aware mutator of mutate_bundle.c.  Included
 * once, by the target's source, in its NB_FUZZ_LIBFUZZER build only (the
 * replays have no libFuzzer to call them). */
#ifndef NB_FUZZ_BUNDLE_HOOKS_H
#define NB_FUZZ_BUNDLE_HOOKS_H

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
