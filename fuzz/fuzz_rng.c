#include "fuzz_rng.h"

#include "gm_hash.h"

uint64_t fuzz_rng_mix(uint64_t x) { return gm_hash_mix(x); }

void fuzz_rng_seed(fuzz_rng *r, uint64_t seed) { harness_gen_seed(&r->gen, seed); }

uint64_t fuzz_rng_next(fuzz_rng *r) { return harness_gen_next(&r->gen); }

uint64_t fuzz_rng_below(fuzz_rng *r, uint64_t n) { return n <= 1 ? 0 : fuzz_rng_next(r) % n; }
