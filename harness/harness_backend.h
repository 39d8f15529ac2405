/* harness_backend: the seam between the harness and where the fused kernel runs.
 *
 *   cpu    kernel/fused_cpu.c: the semantics executed on the host, every
 *          access checked (always available);
 *   cuda        kernel/fused_cuda.cu: the checked CUDA variant, one launch
 *               per case (needs a build with nvcc and a GPU at run time);
 *   cuda-graph  the same launch recorded once per key (every shape and
 *               scalar the launch bakes in) into a CUDA graph over
 *               persistent device buffers; each case writes its inputs
 *               into those buffers and replays the graph, as a server does;
 *   cuda-raw    the production (unchecked) kernel: an out-of-bounds case
 *               really touches device memory. For testing the recovery
 *               from device faults, never for hostile inputs otherwise.
 *
 * Every backend takes a case, fills `out` with the buffers' prior contents
 * (gm_outputs_prepare) and lets the kernel rewrite them. An out-of-bounds
 * access is not a failure of the backend: it sets out->error to
 * "out_of_bounds: ..." and the run succeeds. A false return means the
 * backend itself failed (no GPU, CUDA error, out of memory).
 */
#ifndef HARNESS_BACKEND_H
#define HARNESS_BACKEND_H

#include <stdbool.h>

#include "fused_params.h"
#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_outputs.h"
#include "harness_pyworker.h"
#include "harness_target.h"

typedef struct harness_backend harness_backend;

/* Opens a builtin backend; for cuda this fails with GM_ERR_DEVICE (and a
 * message saying why) when the build has no CUDA or the machine has no GPU. */
bool harness_backend_open(harness_backend_kind kind, harness_backend **out, gm_error *err);

/* Opens any target (docs/TARGETS.md): a builtin backend, a lib: library in
 * a worker process, or a python: entry point in a Python worker. An
 * external target is never sent a case on which gmfuzz's fused model goes
 * out of bounds: the model's outputs and error stand for it. What an
 * external target does wrong is a finding, not a failed run: `error` of
 * the fused outputs becomes "target_raised: TYPE: MESSAGE",
 * "target_crashed: ..." or "target_hung: ..." (the case saved under the
 * crash folder first, the worker restarted). */
bool harness_backend_open_target(const harness_target_spec *spec, harness_backend **out, gm_error *err);

/* The spec it was opened with, and what ran: for external targets the
 * record of a reproducer's "target" (module, file, sha256, version...);
 * NULL for the builtin ones (their reproducers record only "backend"). */
const harness_target_spec *harness_backend_spec(const harness_backend *b);
const gm_target_record *harness_backend_identity(const harness_backend *b);

/* Runs n cases at once: an external target receives them in one batch
 * (one round trip, one synchronization); the builtin ones in turn. */
bool harness_backend_run_batch(harness_backend *b, const gm_case *const *cases, gm_outputs *outs, size_t n,
                          gm_error *err);

/* The target's own answers for n cases whose outs hold their prior
 * contents: no screen by the fused model, no deviation check, no saving,
 * no bisection of a crashed batch (what the target hub runs, harness_hub.h).
 * results[i] RETURNED: outs[i] holds the target's writes; a builtin
 * backend's failure is CRASHED with its message. */
bool harness_backend_run_raw(harness_backend *b, const gm_case *const *cases, gm_outputs *outs, size_t n,
                        harness_pycall_result *results, gm_error *err);

/* How many times the worker was replaced, by cause. */
typedef struct {
    unsigned crashed; /* died, or a sticky device error */
    unsigned hung;    /* no answer within the target timeout */
} harness_backend_restarts;
harness_backend_restarts harness_backend_restart_counts(const harness_backend *b);
void harness_backend_close(harness_backend *b);
harness_backend_kind harness_backend_kind_of(const harness_backend *b);

bool harness_backend_run(harness_backend *b, const gm_case *c, gm_outputs *out, gm_error *err);

/* Where a GPU backend saves the case that made the device fail (a CUDA
 * error, sticky ones included), before it resets the device and reports
 * the error; NULL (the default): not saved. The folder is created. */
void harness_backend_set_crash_dir(harness_backend *b, const char *dir);

#endif
