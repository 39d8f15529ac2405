/* fuzz_record: the records that follow the header of a fuzzer input. Each
 * sets explicit values in one array of the case built from the header:
 *
 *   tag      one front byte: array = slot (tag & 15), operation = tag >> 4
 *            (0..10 SET, 11..13 FILL, 14..15 RUN)
 *   address  an index (1-D arrays) or a row and a column (req_to_token and
 *            the page-table init arrays), selectors biased toward the first
 *            and last elements and toward page starts
 *   SET      one value
 *   FILL     a count (1..240, to the end of the row/array, or raw) and a value
 *   RUN      a count, a byte width w (1, 2, 4, 8), a base value, then
 *            count values, each base + an unsigned w-byte offset from the back
 *
 * Parsing depends on the bytes only, never on the case: a record that
 * addresses an array the case lacks is read in full and has no effect.
 * docs/FUZZING.md has the exact selector tables.
 */
#ifndef FUZZ_RECORD_H
#define FUZZ_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_array.h"
#include "fuzz_input.h"
#include "fuzz_output.h"
#include "fuzz_recipe.h"
#include "fuzz_undo.h"
#include "fuzz_value.h"
#include "gm_case.h"

#define FUZZ_RECORD_FILL_MAX 240  /* FILL counts in the selector byte: 1..240 */
#define FUZZ_FILL_BUDGET ((size_t)1 << 20) /* elements all FILLs of one input may write */

/* The arrays of a case that records write into. Records never resize an
 * array, so the views are taken once per input. */
typedef struct {
    fuzz_array_view view[FUZZ_ARRAY_COUNT];
    bool present[FUZZ_ARRAY_COUNT]; /* the case has the array, with elements */
    fuzz_undo *undo; /* NULL (as init leaves it): writes are not logged */
} fuzz_record_target;

void fuzz_record_target_init(fuzz_record_target *t, const gm_case *c);

/* Reads one record and applies it to the case of `t`, which recipe `r`
 * built; values are stored confined when the recipe is (fuzz_recipe.h).
 * `fill_budget` bounds the work FILLs do (each element written counts one). */
void fuzz_record_apply_next(fuzz_input *in, const fuzz_record_target *t, const fuzz_recipe *r,
                            const fuzz_value_ctx *ctx, size_t *fill_budget);

/* Writers: what fuzz_record_apply_next reads back as the same operation on
 * array `a` (view `v`, len > 0) at flat index `flat`. */
void fuzz_record_write_set(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                           const fuzz_value_ctx *ctx, size_t flat, int64_t value);
/* count >= 1 */
void fuzz_record_write_fill(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                            const fuzz_value_ctx *ctx, size_t flat, size_t count, int64_t value);
/* The values are v's own, at [flat, flat + count). */
void fuzz_record_write_run(fuzz_output *o, fuzz_array a, const fuzz_array_view *v,
                           const fuzz_value_ctx *ctx, size_t flat, size_t count);

#endif
