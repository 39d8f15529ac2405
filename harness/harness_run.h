/* harness_run: one differential run of a case, in the Cryptofuzz manner: the
 * same typed operation through every implementation, then compared.
 *
 *   reference  reference_run (the legacy sequence in C)
 *   fused      the chosen backend
 *   verdict    gm_oracle_judge at the chosen level
 */
#ifndef HARNESS_RUN_H
#define HARNESS_RUN_H

#include <stdbool.h>

#include "harness_backend.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_oracle.h"
#include "gm_outputs.h"
#include "reference.h"

typedef struct harness_run_legacy harness_run_legacy;

typedef struct {
    gm_outputs reference;
    gm_outputs fused;
    reference_result raised;
    gm_verdict verdict;
    char drift[512]; /* three-way runs: how real PyTorch disagreed with the C reference; "" */
} harness_run_result;

void harness_run_result_init(harness_run_result *r);
void harness_run_result_free(harness_run_result *r);

/* Runs both sides on `c` and judges them. False only when a side could not
 * run at all (memory, device): a mismatch is a successful run. */
bool harness_run_case(harness_backend *b, const gm_case *c, gm_compare level, harness_run_result *r,
                 gm_error *err);

/* A three-way run (docs/TARGETS.md): as harness_run_case, and the legacy
 * sequence in real PyTorch (`legacy`, NULL: none) must agree with the C
 * reference; when it does not, the verdict is reference_drift and r->drift
 * says where. */
bool harness_run_case3(harness_backend *b, harness_run_legacy *legacy, const gm_case *c, gm_compare level,
                  harness_run_result *r, gm_error *err);

/* The rest of a run whose fused side r->fused is done (harness_backend_run,
 * harness_backend_run_batch): the reference, the verdict, the torch legacy. */
bool harness_run_finish(harness_run_legacy *legacy, const gm_case *c, gm_compare level, harness_run_result *r,
                   gm_error *err);

/* The torch legacy sequence in a Python worker: `spec` is
 * "python:[MODULE][:FUNCTION]" (default: python/gmfuzz_legacy.py's
 * legacy_rebuild), on the CPU unless device_cuda. */
bool harness_run_legacy_open(const char *spec, bool device_cuda, double timeout_s, harness_run_legacy **out,
                    gm_error *err);
void harness_run_legacy_close(harness_run_legacy *l);

/* The reference side alone (prior contents, then the legacy sequence). */
bool harness_run_reference(const gm_case *c, gm_outputs *out, reference_result *raised,
                      gm_error *err);

#endif
