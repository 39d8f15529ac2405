/* fuzz_encode: a case -> fuzzer bytes that fuzz_decode turns back into it.
 *
 * decode(encode(c)) == c (fuzz_encode_equal) for every case inside the
 * decoder's space (fuzz_recipe_fits): in particular every case the decoder
 * produces, and every case a case-level mutation (fuzz_mutate.h) makes of
 * one. The encoder picks a header whose generators come close to the case
 * (a progression, a constant, the padded tail, ...) and writes records for
 * every element they miss, grouping neighbours into FILL and RUN records.
 *
 * The canonical option drops what neither side of the comparison reads:
 * req_to_token entries off the page starts of the rows in use, and mapping
 * entries no token or location points at take the generator's values.
 * The result is no longer equal to the case, but both sides compute the
 * same outputs on it; it keeps seed files small (corpus/seed/).
 */
#ifndef FUZZ_ENCODE_H
#define FUZZ_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_recipe.h"
#include "gm_case.h"
#include "gm_error.h"

typedef struct {
    bool canonical;
    /* The recipe of the input this case was decoded from (and maybe
     * mutated), or NULL. Its generators are tried first: hashed "random"
     * arrays cannot be recognized from their values, and re-encoding
     * them element by element would make inputs huge. */
    const fuzz_recipe *hint;
    /* A case the recipe's own build may copy arrays from
     * (fuzz_recipe_build_from, a copying donor), or NULL. */
    const fuzz_recipe_donor *base;
} fuzz_encode_options;

/* *data is malloc'd (free it). Fails with GM_ERR_LIMIT naming the field
 * when the case is outside the decoder's space, GM_ERR_MEMORY on memory.
 * `opt` may be NULL (exact encoding). */
bool fuzz_encode(const gm_case *c, const fuzz_encode_options *opt, uint8_t **data, size_t *size,
                 gm_error *err);

/* The equality decode(encode(c)) keeps: every field that the formats
 * carry, except the name. */
bool fuzz_encode_equal(const gm_case *a, const gm_case *b);

#endif
