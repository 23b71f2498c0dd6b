/* fuzz_sqlite.c: libFuzzer target: an SQLite bundle (formats/sqlite.md),
 * mutated by the SQLite mutator (mutate_sqlite.c: its sections rows
 * through the structure-aware mutations, or its rows and schema in SQL),
 * opened from memory and, when it verifies, asked every query family
 * (queries.c), as fuzz_queries does with binary bundles.  Built by 'make
 * fuzz-sqlite'; make check replays corpus/sqlite. */
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

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return nbf_mutate_sqlite(data, size, max_size, seed, LLVMFuzzerMutate);
}
#endif
