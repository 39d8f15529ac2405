/* harness_pyworker: a persistent Python worker process (python/gmfuzz_worker.py)
 * and the batches of calls sent to it, in the protocol of docs/TARGETS.md.
 *
 * The worker imports a module once and then calls one of its functions
 * with keyword arguments (ints, strings, torch tensors) for every call of
 * every batch. What the target does wrong is a result, not an error of
 * this module: an exception (RAISED), the worker's death or a sticky device
 * error (CRASHED), no answer within the timeout (HUNG). After a crash or a
 * hang the worker is gone; the next batch starts a fresh one. An error
 * return means gmfuzz itself could not go on (the worker cannot start at
 * all, memory).
 */
#ifndef HARNESS_PYWORKER_H
#define HARNESS_PYWORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"
#include "gm_json.h"
#include "harness_pybatch.h"

typedef enum { HARNESS_PYWORKER_FUSED, HARNESS_PYWORKER_LEGACY } harness_pyworker_role;

typedef struct {
    harness_pyworker_role role;
    const char *module;   /* "" or NULL: the role's default (docs/TARGETS.md) */
    const char *function; /* "" or NULL: the role's default */
    bool device_cpu;      /* tensors on the CPU instead of CUDA */
    double timeout_s;     /* one call's execution limit (a batch: per call) */
    double compile_timeout_s; /* one compile or load the worker reports (JIT messages) */
    double start_timeout_s;   /* its start-up: import and HELLO (0: the default) */
} harness_pyworker_config;

typedef enum {
    HARNESS_PYCALL_RETURNED,
    HARNESS_PYCALL_RAISED,
    HARNESS_PYCALL_CRASHED,
    HARNESS_PYCALL_HUNG,
} harness_pycall_status;

#define HARNESS_PYCALL_MESSAGE_MAX 2200

typedef struct {
    harness_pycall_status status;
    uint32_t compiles, loads; /* the target's JIT during this call (JIT messages) */
    double jit_s;             /* their seconds */
    char message
        [HARNESS_PYCALL_MESSAGE_MAX]; /* RAISED: "TYPE: MESSAGE"; CRASHED, HUNG: what happened */
} harness_pycall_result;

/* ---- the worker --------------------------------------------------------- */

typedef struct harness_pyworker harness_pyworker;

/* Starts the worker and waits for its HELLO; fails with GM_ERR_DEVICE and
 * the worker's own reason (an import error, no CUDA) when it refuses, and
 * with GM_ERR_START ("target did not start within S s") when it says
 * nothing within cfg->start_timeout_s: an infrastructure failure, which a
 * campaign names as such (never a finding). */
bool harness_pyworker_start(const harness_pyworker_config *cfg, harness_pyworker **out,
                            gm_error *err);
void harness_pyworker_stop(harness_pyworker *w);

/* What the worker said it runs (HELLO): module, function, file, sha256,
 * version, device. Valid until the worker is stopped. */
const gm_target_record *harness_pyworker_identity(const harness_pyworker *w);

/* Runs every call of `b`, results[k] for call k. Each call's execution is
 * bounded by `limit_s` (0: the config's timeout_s); while the worker says a
 * compile or a load is under way (a JIT message, docs/TARGETS.md), by the
 * config's compile_timeout_s instead. False only when no worker could be
 * started (err set); a target's failure is a result. */
bool harness_pyworker_call(harness_pyworker *w, harness_pybatch *b, harness_pycall_result *results,
                           double limit_s, gm_error *err);

/* Whether the worker sees its target's compiles and loads (its HELLO names
 * a JIT it watches: Triton, or python/gmfuzz_jit.py). */
bool harness_pyworker_sees_jit(const harness_pyworker *w);

/* How many times a worker was replaced after a crash or a hang. */
unsigned harness_pyworker_restarts(const harness_pyworker *w, harness_pycall_status cause);

#endif
