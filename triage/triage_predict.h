/* triage_predict: what the legacy sequence (SPEC section 2) and the fused
 * kernel (SPEC section 3) each write into ONE element, computed from the
 * case alone. It is the classifier's third implementation of the two rules,
 * written apart from reference/ and kernel/ and only for the buffers that a
 * class can explain (both page tables, swa_out_cache_loc, and cu_seqlens_q
 * in draft_extend_v2): a class covers a difference only when both sides
 * wrote exactly what this predicts, so that a wrong value written where a
 * cause is present is a finding, not an excuse (issue 10).
 *
 * It assumes a run where legacy did not raise and the fused kernel stayed
 * in bounds (a compared verdict); where it cannot predict (an index legacy
 * could not have read, a buffer it does not cover) it says so and the
 * element stays unexplained.
 */
#ifndef TRIAGE_PREDICT_H
#define TRIAGE_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"

typedef struct {
    const gm_case *c;
    size_t max_num_pages;
    size_t legacy_cols; /* page-table columns legacy writes (SPEC 2 step 4) */
    size_t fused_pages; /* page-table columns fused writes (max_seq_pages) */
} triage_predict_ctx;

typedef struct {
    int64_t legacy;
    int64_t fused;
} triage_prediction;

void triage_predict_init(triage_predict_ctx *p, const gm_case *c);

/* Element `flat` of buffer `id` before the rebuild: the case's `init`, else
 * zeros, or the mode's cu_seqlens_q preset (SPEC section 1). */
int64_t triage_predict_prior(const gm_case *c, gm_buf_id id, size_t flat);

/* The two values of element `flat` (row-major) of buffer `id`, whose rows
 * are `width` elements wide (1 for a vector); false where it predicts
 * nothing. */
bool triage_predict_element(const triage_predict_ctx *p, gm_buf_id id, size_t flat, size_t width,
                            triage_prediction *out);

#endif
