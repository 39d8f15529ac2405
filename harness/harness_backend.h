/* harness_backend: the seam between the harness and where the fused kernel
 * runs. Its interface is in the contract (harness.h, "the seam"); what is
 * here is private to harness/: what the target hub (harness_hub.c) runs. */
#ifndef HARNESS_BACKEND_H
#define HARNESS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_outputs.h"
#include "harness.h"
#include "harness_pyworker.h"

/* The target's own answers for n cases whose outs hold their prior
 * contents: no screen by the fused model, no deviation check, no saving,
 * no bisection of a crashed batch (what the target hub runs); `limit_s` > 0
 * bounds each call instead of the target's timeout.
 * results[i] RETURNED: outs[i] holds the target's writes; a builtin
 * backend's failure is CRASHED with its message. */
bool harness_backend_run_raw(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                             size_t n, double limit_s, harness_pycall_result *results,
                             gm_error *err);

#endif
