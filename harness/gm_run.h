/* gm_run: one differential run of a case, in the Cryptofuzz manner: the
 * same typed operation through every implementation, then compared.
 *
 *   reference  reference_run (the legacy sequence in C)
 *   fused      the chosen backend
 *   verdict    gm_oracle_judge at the chosen level
 */
#ifndef GM_RUN_H
#define GM_RUN_H

#include <stdbool.h>

#include "gm_backend.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "gm_outputs.h"
#include "reference.h"

typedef struct {
    gm_outputs reference;
    gm_outputs fused;
    reference_result raised;
    gm_verdict verdict;
} gm_run_result;

void gm_run_result_init(gm_run_result *r);
void gm_run_result_free(gm_run_result *r);

/* Runs both sides on `c` and judges them. False only when a side could not
 * run at all (memory, device): a mismatch is a successful run. */
bool gm_run_case(gm_backend *b, const gm_case *c, gm_compare level, gm_run_result *r,
                 gm_error *err);

/* The reference side alone (prior contents, then the legacy sequence). */
bool gm_run_reference(const gm_case *c, gm_outputs *out, reference_result *raised,
                      gm_error *err);

#endif
