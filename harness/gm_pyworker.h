/* gm_pyworker: a persistent Python worker process (python/gmfuzz_worker.py)
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
#ifndef GM_PYWORKER_H
#define GM_PYWORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"
#include "gm_json.h"

typedef enum { GM_PYWORKER_FUSED, GM_PYWORKER_LEGACY } gm_pyworker_role;

typedef struct {
    gm_pyworker_role role;
    const char *module;   /* "" or NULL: the role's default (docs/TARGETS.md) */
    const char *function; /* "" or NULL: the role's default */
    bool device_cpu;      /* tensors on the CPU instead of CUDA */
    double timeout_s;     /* one call's limit (a batch: per call) */
} gm_pyworker_config;

/* ---- batches ---------------------------------------------------------- */

typedef enum {
    GM_PYARG_NONE = 0,
    GM_PYARG_INT = 1,
    GM_PYARG_STR = 2,
    GM_PYARG_IN = 3,   /* an input tensor on the worker's device */
    GM_PYARG_OUT = 4,  /* an output tensor: prior contents sent, read back */
    GM_PYARG_HOST = 5, /* an input tensor kept on the CPU */
} gm_pyarg_kind;

typedef enum {
    GM_PYCALL_RETURNED,
    GM_PYCALL_RAISED,
    GM_PYCALL_CRASHED,
    GM_PYCALL_HUNG,
} gm_pycall_status;

#define GM_PYCALL_MESSAGE_MAX 2200

typedef struct {
    gm_pycall_status status;
    char message[GM_PYCALL_MESSAGE_MAX]; /* RAISED: "TYPE: MESSAGE"; CRASHED, HUNG: what happened */
} gm_pycall_result;

typedef struct gm_pybatch gm_pybatch;

bool gm_pybatch_new(gm_pybatch **out, gm_error *err);
void gm_pybatch_free(gm_pybatch *b);
void gm_pybatch_clear(gm_pybatch *b);
size_t gm_pybatch_count(const gm_pybatch *b);

/* Starts a call; the arguments that follow belong to it. */
void gm_pybatch_begin(gm_pybatch *b);
void gm_pybatch_int(gm_pybatch *b, const char *name, int64_t v);
void gm_pybatch_str(gm_pybatch *b, const char *name, const char *s);
void gm_pybatch_none(gm_pybatch *b, const char *name);
/* A tensor of rank 1 or 2 (dims[1] ignored for rank 1) of 4- or 8-byte
 * integers at `data`; for GM_PYARG_OUT the answer is written back there. */
void gm_pybatch_tensor(gm_pybatch *b, const char *name, gm_pyarg_kind kind, int elem_size,
                       int rank, const size_t dims[2], void *data);
/* False when memory ran out while building (the batch is then unusable). */
bool gm_pybatch_ok(const gm_pybatch *b);

/* ---- the worker --------------------------------------------------------- */

typedef struct gm_pyworker gm_pyworker;

/* Starts the worker and waits for its HELLO; fails with GM_ERR_DEVICE and
 * the worker's own reason (an import error, no CUDA) when it refuses. */
bool gm_pyworker_start(const gm_pyworker_config *cfg, gm_pyworker **out, gm_error *err);
void gm_pyworker_stop(gm_pyworker *w);

/* What the worker said it runs (HELLO): module, function, file, sha256,
 * version, device. Valid until the worker is stopped. */
const gm_target_record *gm_pyworker_identity(const gm_pyworker *w);

/* Runs every call of `b`, results[k] for call k. False only when no worker
 * could be started (err set); a target's failure is a result. */
bool gm_pyworker_call(gm_pyworker *w, gm_pybatch *b, gm_pycall_result *results, gm_error *err);

/* How many times a worker was replaced after a crash or a hang. */
unsigned gm_pyworker_restarts(const gm_pyworker *w, gm_pycall_status cause);

#endif
