/* fuzz_mutate: mutations at the level of the case, for
 * LLVMFuzzerCustomMutator (decode -> mutate -> encode). Each one makes a
 * change that byte mutation would rarely hit as one step: resize the batch
 * (padding it the way CUDA graphs do), put one sequence length on an edge,
 * flip a sentinel, change the mode or the page size, grow or shrink the
 * mapping, switch an optional part on or off, poison a page-start token,
 * move a pool row out of range, shift len(out_cache_loc) around out_len,
 * move max_context_len off or onto a page boundary, set a scalar to an
 * edge.
 *
 * A mutated case passes gm_case_check, and stays inside the decoder's
 * space (fuzz_recipe_fits) whenever the original was: a change that would
 * leave it is not made.
 */
#ifndef FUZZ_MUTATE_H
#define FUZZ_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_recipe.h"
#include "fuzz_rng.h"
#include "gm_case.h"
#include "gm_error.h"

typedef enum {
    FUZZ_MUT_RESIZE_BATCH,
    FUZZ_MUT_SEQ_EDGE,
    FUZZ_MUT_SENTINEL,
    FUZZ_MUT_MODE,
    FUZZ_MUT_PAGE_SIZE,
    FUZZ_MUT_MAPPING_SIZE,
    FUZZ_MUT_TOGGLE,
    FUZZ_MUT_TOKEN_SLOT,
    FUZZ_MUT_ROW_INDEX,
    FUZZ_MUT_OUT_COUNT,
    FUZZ_MUT_CONTEXT,
    FUZZ_MUT_SCALAR,
    FUZZ_MUT_CORNER,
    FUZZ_MUT_COUNT
} fuzz_mutation;

const char *fuzz_mutation_name(fuzz_mutation m);

/* Applies `m` with choices drawn from `rng`. False only when memory runs
 * out (err set; *c is then still a valid case). */
bool fuzz_mutate_apply(gm_case *c, fuzz_mutation m, fuzz_rng *rng, gm_error *err);

/* 1 to `max_steps` mutations of random kinds. */
bool fuzz_mutate(gm_case *c, fuzz_rng *rng, unsigned max_steps, gm_error *err);

/* The custom mutator's step on an input: decode data[0..size), mutate the
 * case (1 to `max_steps` mutations), encode it (reusing the input's
 * generators) back into `data`. Returns the new size, or 0 when the result
 * would not fit in `max_size` bytes or memory ran out (data untouched).
 * Cases are built copying what they can from `base` (a copying donor,
 * fuzz_recipe_build_from; NULL: none): the result is the same. */
size_t fuzz_mutate_input(uint8_t *data, size_t size, size_t max_size, fuzz_rng *rng,
                         unsigned max_steps, const fuzz_recipe_donor *base);

#endif
