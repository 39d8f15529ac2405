/* harness_gen: a seeded generator of random cases, for comparing backends with
 * one another (`gmfuzz agree`, the GPU tests). It is not the fuzzer's
 * decoder (fuzz/, coverage-guided): it draws realistic batches with the
 * values that matter (sentinels, negative tokens, cuda-graph padded rows,
 * mapping values past int32, stale buffers) and, every so often, a large
 * batch (1,023 to 65,536 rows, few pages), a wide page table (513 to
 * 16,384 pages, few rows) or an SWA out_len past several 512-slot tiles;
 * page sizes 1 to 256. Cases stay mostly in bounds so that the buffers
 * are compared. */
#ifndef HARNESS_GEN_H
#define HARNESS_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_error.h"

typedef struct {
    uint64_t state;
} harness_gen;

/* splitmix64: tiny, fast, and the same on every platform. */
void harness_gen_seed(harness_gen *g, uint64_t seed);
uint64_t harness_gen_next(harness_gen *g);
/* splitmix64's finalizer: a bijective scramble of x (the fuzz decoder also
 * uses it as a counter-based hash). */
uint64_t harness_gen_mix(uint64_t x);
/* Uniform in [lo, hi] (hi >= lo). */
int64_t harness_gen_range(harness_gen *g, int64_t lo, int64_t hi);

/* Fills `c` (fresh from gm_case_init) with the next random case; it passes
 * gm_case_check. False only when memory runs out. */
bool harness_gen_case(harness_gen *g, gm_case *c, gm_error *err);

#endif
