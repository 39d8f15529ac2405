/* reference: the legacy ATen op sequence of the metadata rebuild, emulated
 * in C bit for bit (SPEC section 2; docs/SEMANTICS.md).
 *
 * This is deliberately NOT "the sensible computation": integer division
 * floors, negative indices wrap the Python way, slices clamp, int64 -> int32
 * keeps the low 32 bits, int32 cumsum wraps, and every place where PyTorch
 * would raise becomes an error value (kind + step), not a crash.
 *
 * It shares nothing with kernel/ but the case model: a helper used by both
 * could hide the very disagreement gmfuzz hunts for.
 */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"

typedef enum {
    REFERENCE_OK,
    REFERENCE_INDEX_OUT_OF_RANGE, /* IndexError */
    REFERENCE_SHAPE_MISMATCH,     /* copy_ that does not broadcast */
    REFERENCE_ZERO_STEP,          /* arange with step 0 */
    REFERENCE_EMPTY_REDUCTION,    /* max() of an empty tensor */
} reference_raise;

typedef struct {
    reference_raise raised;
    int step;          /* SPEC section 2 step (1..8) that raised, 0 when none */
} reference_result;

/* "index_out_of_range", ... ("ok" for REFERENCE_OK). */
const char *reference_raise_name(reference_raise r);

/* Runs the legacy sequence on `c`. `out` must hold the prior contents of the
 * buffers (gm_outputs_prepare). On a raise, `out->error` is set to
 * "<kind>: step N: <detail>" and `res` says which; the buffers then hold the
 * state reached and are not meaningful. Returns false only when memory runs
 * out (err set). */
bool reference_run(const gm_case *c, gm_outputs *out, reference_result *res, gm_error *err);

#endif
