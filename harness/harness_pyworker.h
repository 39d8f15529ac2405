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

typedef enum { HARNESS_PYWORKER_FUSED, HARNESS_PYWORKER_LEGACY } harness_pyworker_role;

typedef struct {
    harness_pyworker_role role;
    const char *module;   /* "" or NULL: the role's default (docs/TARGETS.md) */
    const char *function; /* "" or NULL: the role's default */
    bool device_cpu;      /* tensors on the CPU instead of CUDA */
    double timeout_s;     /* one call's limit (a batch: per call) */
} harness_pyworker_config;

/* ---- batches ---------------------------------------------------------- */

typedef enum {
    HARNESS_PYARG_NONE = 0,
    HARNESS_PYARG_INT = 1,
    HARNESS_PYARG_STR = 2,
    HARNESS_PYARG_IN = 3,   /* an input tensor on the worker's device */
    HARNESS_PYARG_OUT = 4,  /* an output tensor: prior contents sent, read back */
    HARNESS_PYARG_HOST = 5, /* an input tensor kept on the CPU */
} harness_pyarg_kind;

typedef enum {
    HARNESS_PYCALL_RETURNED,
    HARNESS_PYCALL_RAISED,
    HARNESS_PYCALL_CRASHED,
    HARNESS_PYCALL_HUNG,
} harness_pycall_status;

#define HARNESS_PYCALL_MESSAGE_MAX 2200

typedef struct {
    harness_pycall_status status;
    char message[HARNESS_PYCALL_MESSAGE_MAX]; /* RAISED: "TYPE: MESSAGE"; CRASHED, HUNG: what happened */
} harness_pycall_result;

typedef struct harness_pybatch harness_pybatch;

bool harness_pybatch_new(harness_pybatch **out, gm_error *err);
void harness_pybatch_free(harness_pybatch *b);
void harness_pybatch_clear(harness_pybatch *b);
size_t harness_pybatch_count(const harness_pybatch *b);

/* Starts a call; the arguments that follow belong to it. */
void harness_pybatch_begin(harness_pybatch *b);
void harness_pybatch_int(harness_pybatch *b, const char *name, int64_t v);
void harness_pybatch_str(harness_pybatch *b, const char *name, const char *s);
void harness_pybatch_none(harness_pybatch *b, const char *name);
/* A tensor of rank 1 or 2 (dims[1] ignored for rank 1) of 4- or 8-byte
 * integers at `data`; for HARNESS_PYARG_OUT the answer is written back there. */
void harness_pybatch_tensor(harness_pybatch *b, const char *name, harness_pyarg_kind kind, int elem_size,
                       int rank, const size_t dims[2], void *data);
/* False when memory ran out while building (the batch is then unusable). */
bool harness_pybatch_ok(const harness_pybatch *b);

/* ---- the worker --------------------------------------------------------- */

typedef struct harness_pyworker harness_pyworker;

/* Starts the worker and waits for its HELLO; fails with GM_ERR_DEVICE and
 * the worker's own reason (an import error, no CUDA) when it refuses. */
bool harness_pyworker_start(const harness_pyworker_config *cfg, harness_pyworker **out, gm_error *err);
void harness_pyworker_stop(harness_pyworker *w);

/* What the worker said it runs (HELLO): module, function, file, sha256,
 * version, device. Valid until the worker is stopped. */
const gm_target_record *harness_pyworker_identity(const harness_pyworker *w);

/* Runs every call of `b`, results[k] for call k. False only when no worker
 * could be started (err set); a target's failure is a result. */
bool harness_pyworker_call(harness_pyworker *w, harness_pybatch *b, harness_pycall_result *results, gm_error *err);

/* How many times a worker was replaced after a crash or a hang. */
unsigned harness_pyworker_restarts(const harness_pyworker *w, harness_pycall_status cause);

#endif
