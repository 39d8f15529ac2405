/* fuzz_rng: the fuzzer's deterministic generator and mixing function:
 * harness/harness_gen's splitmix64 (one implementation for the case generator
 * and the fuzzer). The decoder uses the mix as a counter-based hash, so
 * element i of a "random" array is a pure function of (seed, i); the
 * mutators use the sequential generator seeded by the engine.
 */
#ifndef FUZZ_RNG_H
#define FUZZ_RNG_H

#include <stdint.h>

#include "harness.h"

typedef struct {
    harness_gen gen;
} fuzz_rng;

void fuzz_rng_seed(fuzz_rng *r, uint64_t seed);
uint64_t fuzz_rng_next(fuzz_rng *r);
/* Uniform-enough in [0, n) for n >= 1 (modulo bias is irrelevant here). */
uint64_t fuzz_rng_below(fuzz_rng *r, uint64_t n);
/* The splitmix64 finalizer: a bijective scramble of x. */
uint64_t fuzz_rng_mix(uint64_t x);

#endif
