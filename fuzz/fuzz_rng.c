#include "fuzz_rng.h"

#define FUZZ_RNG_GOLDEN 0x9E3779B97F4A7C15ull

uint64_t fuzz_rng_mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

void fuzz_rng_seed(fuzz_rng *r, uint64_t seed) { r->state = seed; }

uint64_t fuzz_rng_next(fuzz_rng *r) {
    r->state += FUZZ_RNG_GOLDEN;
    return fuzz_rng_mix(r->state);
}

uint64_t fuzz_rng_below(fuzz_rng *r, uint64_t n) { return n <= 1 ? 0 : fuzz_rng_next(r) % n; }
