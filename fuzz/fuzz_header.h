/* fuzz_header: the fixed header of a fuzzer input, FUZZ_HEADER_LEN selector
 * bytes at fixed offsets (so that mutating one byte changes one decision),
 * then the raw payloads of the selectors that take one, read from the
 * back in offset order. It gives the recipe (fuzz_recipe.h): sizes,
 * optional parts, and the generator of every array. The offsets and every
 * selector table are in docs/FUZZING.md.
 */
#ifndef FUZZ_HEADER_H
#define FUZZ_HEADER_H

#include "fuzz_input.h"
#include "fuzz_output.h"
#include "fuzz_recipe.h"

enum {
    FUZZ_H_MODE,
    FUZZ_H_PAGE_SIZE,
    FUZZ_H_BS,
    FUZZ_H_MAX_CONTEXT_LEN,
    FUZZ_H_WIDTH,
    FUZZ_H_POOL,
    FUZZ_H_BOUNDS,
    FUZZ_H_PAD_ROWS,
    FUZZ_H_SWA,
    FUZZ_H_SWA_PAGE_TABLE,
    FUZZ_H_MAPPING_LAST,
    FUZZ_H_MAPPING_LEN,
    FUZZ_H_OUT_LEN,
    FUZZ_H_N_OUT,
    FUZZ_H_MAX_SEQ_PAGES,
    FUZZ_H_STEP_ID,
    FUZZ_H_DRAFT_TOKENS,
    FUZZ_H_Q_STRIDE,
    FUZZ_H_RPI,            /* generator: kind byte, a, b */
    FUZZ_H_SEQ = FUZZ_H_RPI + 3,
    FUZZ_H_CPU_KIND = FUZZ_H_SEQ + 3,
    FUZZ_H_CPU,
    FUZZ_H_QLENS_PRESENT = FUZZ_H_CPU + 3,
    FUZZ_H_QLENS,
    FUZZ_H_TOKENS = FUZZ_H_QLENS + 3, /* kind byte, a, b, c */
    FUZZ_H_MAPPING = FUZZ_H_TOKENS + 4,
    FUZZ_H_LOC = FUZZ_H_MAPPING + 3,
    FUZZ_H_INIT = FUZZ_H_LOC + 3,     /* per output buffer: kind byte, a, b */
    FUZZ_HEADER_LEN = FUZZ_H_INIT + 3 * GM_BUF_COUNT
};

/* Reads the header: every selector from the front, then their payloads. */
void fuzz_header_read(fuzz_input *in, fuzz_recipe *r);

/* Writes a header that fuzz_header_read turns back into `r`. The recipe
 * must respect the limits of fuzz_recipe.h (its sizes come from a case
 * that fuzz_recipe_fits accepted). */
void fuzz_header_write(fuzz_output *out, const fuzz_recipe *r);

#endif
